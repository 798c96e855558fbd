/**
 * More rough edges of the command line, in process: `report --out` and `show --out` take the format
 * from the file's extension, the report legend explains every column, `batch --json` gives its suit
 * counts as numbers, a bad database named by SPIDERSOLVE_DB is said to come from there, `export`
 * writes CSV without --csv, `solve --json` and `blind --json` print their errors as JSON, `npm run
 * results` with no arguments is an error, and names the rows' files as they open from the working
 * folder under RESULTS_ROOT; `npm run results` builds only what changed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_LEGEND } from '../src/report/text.js';
import { dbFromEnvMessage } from '../src/cli/common.js';
import { faultOf } from '../src/cli/main.js';
import { RESULTS_ROWS, shownPath } from '../src/results/rows.js';
import { SolverMemoryError } from '../src/solver/types.js';
import { ROOT, runInProcess } from './helpers/cli.js';
import { withEnv } from './helpers/env.js';
import { makeLostDb } from './helpers/db.js';
import { type ResultsRun, runResults } from './helpers/results.js';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough3-'));
  db = join(dir, 'lost.sqlite');
  makeLostDb(db);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('report --out without --format: the format from the file\'s extension', () => {
  /** Runs `report --db DB --out FILE ...more` and returns its status, stderr and the file's text. */
  async function reportTo(file: string, ...more: string[]): Promise<{ status: number | null; stderr: string; text: string }> {
    const out = join(dir, file);
    const r = await runInProcess(['report', '--db', db, '--out', out, ...more]);
    expect(r.stdout).toBe('');
    return { status: r.status, stderr: r.stderr.replaceAll(out, 'OUT'), text: readFileSync(out, 'utf8') };
  }

  it('.html and .htm (any case) write the HTML report', async () => {
    for (const name of ['r.html', 'r.htm', 'R2.HTML']) {
      const r = await reportTo(name);
      expect([r.status, r.stderr]).toEqual([0, 'spidersolve: wrote OUT: HTML report, 1 row of 1 study\n']);
      expect(r.text).toMatch(/^<!doctype html>\n<html lang="en">\n/);
    }
  });

  it('.md and .markdown write Markdown, .csv CSV, .json JSON, .txt the text table', async () => {
    const md = await reportTo('r.md');
    expect([md.status, md.stderr]).toEqual([0, 'spidersolve: wrote OUT: Markdown report, 1 row of 1 study\n']);
    expect(md.text.split('\n')[0]).toMatch(/^\| study \| game \| suits \|/);
    expect((await reportTo('r.markdown')).text).toBe(md.text);
    const csv = await reportTo('r.csv');
    expect([csv.status, csv.stderr]).toEqual([0, 'spidersolve: wrote OUT: CSV report, 1 row of 1 study\n']);
    expect(csv.text).toMatch(/^study,game,suits,budget,deals,won,lost,undecided,errors,/);
    const json = await reportTo('r.json');
    expect([json.status, json.stderr]).toEqual([0, 'spidersolve: wrote OUT: JSON report, 1 row of 1 study\n']);
    expect(JSON.parse(json.text)).toEqual([expect.objectContaining({ study: 'st', game: 'spider', suits: 1, budget: 100, deals: 3, won: 0, lost: 3 })]);
    const txt = await reportTo('r.txt');
    expect([txt.status, txt.stderr]).toEqual([0, 'spidersolve: wrote OUT: report table, 1 row of 1 study\n']);
    expect(txt.text).toMatch(/^study +game +suits +budget/);
  });

  it('another extension, or none, is the text table, as before (an extension no form has with a note)', async () => {
    for (const [name, note] of [['r.out', 'spidersolve: note: OUT holds the text table, though its extension .out names no form spidersolve writes (.txt fits it)\n'], ['report', '']]) {
      const r = await reportTo(name!);
      expect([r.status, r.stderr]).toEqual([0, note + 'spidersolve: wrote OUT: report table, 1 row of 1 study\n']);
      expect(r.text).toMatch(/^study +game +suits +budget/);
    }
  });

  it('an explicit --format (or --json) wins over the extension', async () => {
    const csv = await reportTo('x.html', '--format', 'csv');
    expect([csv.status, csv.stderr]).toEqual([0, 'spidersolve: note: OUT holds CSV, though its extension says an HTML page\nspidersolve: wrote OUT: CSV report, 1 row of 1 study\n']);
    expect(csv.text).toMatch(/^study,game,/);
    const table = await reportTo('x.md', '--format', 'table');
    expect(table.text).toMatch(/^study +game +suits/);
    const json = await reportTo('x.csv', '--json');
    expect(JSON.parse(json.text)).toHaveLength(1);
  });

  it('--json with another --format is still refused; --help says where the format comes from', async () => {
    const r = await runInProcess(['report', '--db', db, '--json', '--format', 'md', '--out', join(dir, 'y.json')]);
    expect([r.status, r.stderr]).toEqual([2, 'spidersolve: options --json and --format "md": --json is --format json; give one\n']);
    // (--json was given: the error is on stdout as JSON too)
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'bad-option', message: 'options --json and --format "md": --json is --format json; give one' } });
    const help = (await runInProcess(['report', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain("default: from the --out file's extension (.html or .htm html, .md md, .csv csv, .json json, .txt table), else table");
    expect(help).toContain('without --format, its extension gives the format (see --format)');
  });
});

describe('show --out without --format: the format from the file\'s extension', () => {
  it('.json writes the JSON form, .txt and others the text; --format wins', async () => {
    const json = join(dir, 'se4-7.json');
    const r = await runInProcess(['show', 'SE4-7', '--out', json]);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', `spidersolve: wrote ${json}: SE4-7, JSON\n`]);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ code: 'SE4-7', game: 'spiderette', suits: 4 });
    const text = (await runInProcess(['show', 'SE4-7'])).stdout;
    for (const name of ['se4-7.txt', 'se4-7.view']) {
      const out = join(dir, name);
      const note = name.endsWith('.view') ? `spidersolve: note: ${out} holds text, though its extension .view names no form spidersolve writes (.txt fits it)\n` : '';
      expect((await runInProcess(['show', 'SE4-7', '--out', out])).stderr).toBe(`${note}spidersolve: wrote ${out}: SE4-7, text\n`);
      expect(readFileSync(out, 'utf8')).toBe(text);
    }
    const pos = join(dir, 'pos.json');
    // --format wins, and the name that says another form gets a note, as report's does
    expect((await runInProcess(['show', 'SE4-7', '--format', 'position', '--out', pos])).stderr)
      .toBe(`spidersolve: note: ${pos} holds a position file (text form), though its extension says JSON\nspidersolve: wrote ${pos}: SE4-7, a position file (text form)\n`);
    expect(readFileSync(pos, 'utf8')).toMatch(/^# spidersolve position\n/);
    // and reads back as the deal it holds, its header telling the text form from the JSON its name says
    const back = await runInProcess(['show', pos, '--reveal', '--json']);
    const deal = await runInProcess(['show', 'SE4-7', '--reveal', '--json']);
    expect([back.status, back.stderr]).toEqual([0, '']);
    const fields = (out: string) => { const j = JSON.parse(out); return [j.game, j.suits, j.columns, j.stock]; };
    expect(fields(back.stdout)).toEqual(fields(deal.stdout));
  });

  it('--help says so', async () => {
    const help = (await runInProcess(['show', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain("default: from the --out file's extension (.json json, .txt text), else text");
  });
});

describe('the report legend explains every column', () => {
  it('errors, budget and solver have a clause each, under the text table, in the same words as REPORT_LEGEND', async () => {
    expect(REPORT_LEGEND).toEqual([
      'floor = won / deals (a proven lower bound on the win rate); CI = its 95% Wilson interval; ceiling = deals not proven lost / deals (ceil low/high: its interval);',
      'undecided = neither won nor lost within the budget (counted in the ceiling, not the floor); errors = deals whose solve failed (it ran out of memory, say), solved again when the batch is resumed;',
      'budget = the position budget of each search; pos and ms: median and 95th percentile (p95) of positions stored and milliseconds, over won deals; solver = the solver version the results were stored under.',
    ]);
    const r = await runInProcess(['report', '--db', db]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(-3)).toEqual([...REPORT_LEGEND]);
    // every column of the table's header is named in the legend
    const header = lines[0]!.split(/\s{2,}/);
    expect(header).toEqual(['study', 'game', 'suits', 'budget', 'deals', 'won', 'lost', 'undecided', 'errors', 'floor', 'CI low', 'CI high', 'ceiling', 'ceil low', 'ceil high', 'med pos', 'p95 pos', 'med ms', 'p95 ms', 'solver']);
    for (const word of ['errors =', 'budget =', 'solver =']) expect(REPORT_LEGEND.join(' ')).toContain(word);
  });
});

describe('batch --json: suits as numbers', () => {
  const batch = async (...args: string[]) => {
    const r = await runInProcess(['batch', ...args, '--max-positions', '50', '--workers', '1', '--quiet', '--json']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  it('one suit count: [2]; several: [1, 2], in order; a report row\'s suits stays a number', async () => {
    const one = await batch('--game', 'spiderette', '--suits', '2', '--seeds', '1', '--db', join(dir, 'suits-one.sqlite'));
    expect(one.suits).toEqual([2]);
    expect((one.report as { suits: unknown }[]).map((r) => r.suits)).toEqual([2]);
    const two = await batch('--game', 'spiderette', '--suits', '2,1', '--seeds', '1', '--db', join(dir, 'suits-two.sqlite'));
    expect([two.game, two.suits]).toEqual(['spiderette', [1, 2]]);
    // in its place among the fields, after game
    expect(Object.keys(two).slice(0, 7)).toEqual(['study', 'studyId', 'runId', 'db', 'game', 'suits', 'maxPositions']);
    // studies --json gives them the same way
    const studies = JSON.parse((await runInProcess(['studies', '--db', join(dir, 'suits-two.sqlite'), '--json'])).stdout) as { suits: unknown }[];
    expect(studies.map((st) => st.suits)).toEqual([[1, 2]]);
  });

  it('a deals file without --suits: null (its deals may be of any suit count)', async () => {
    const deals = join(dir, 'suits-deals.txt');
    writeFileSync(deals, 'SE1-1\nSE2-1\n');
    const r = await batch('--deals', deals, '--db', join(dir, 'suits-file.sqlite'));
    expect([r.game, r.suits]).toEqual([null, null]);
  });
});

describe('a bad database named by SPIDERSOLVE_DB', () => {
  it('the error says the path came from SPIDERSOLVE_DB and how to change it', async () => {
    const notOurs = join(dir, 'notes.sqlite');
    writeFileSync(notOurs, 'not a database, just some notes\n');
    const report = await runInProcess(['report'], { env: { SPIDERSOLVE_DB: notOurs } });
    expect([report.status, report.stdout, report.stderr]).toEqual([
      2, '', `spidersolve: database ${notOurs} (from SPIDERSOLVE_DB): not an SQLite database; left untouched (set SPIDERSOLVE_DB to another path or give --db)\n`,
    ]);
    const absent = join(dir, 'absent.sqlite');
    expect((await runInProcess(['studies'], { env: { SPIDERSOLVE_DB: absent } })).stderr).toBe(
      `spidersolve: database ${absent} (from SPIDERSOLVE_DB): no such file (run spidersolve batch first, or set SPIDERSOLVE_DB to another path or give --db)\n`,
    );
    // a message without advice gets it at its end
    const folder = join(dir, 'a-folder.sqlite');
    mkdirSync(folder);
    const batch = await runInProcess(['batch', '--game', 'spider', '--suits', '1', '--seeds', '1', '--max-positions', '50', '--quiet'], { env: { SPIDERSOLVE_DB: folder } });
    expect([batch.status, batch.stderr]).toEqual([2, `spidersolve: database ${folder} (from SPIDERSOLVE_DB): is a directory; set SPIDERSOLVE_DB to another path or give --db\n`]);
  });

  it('with --db the message is as before, and an error about another file is left alone', async () => {
    const notOurs = join(dir, 'notes2.sqlite');
    writeFileSync(notOurs, 'notes\n');
    const r = await runInProcess(['report', '--db', notOurs], { env: { SPIDERSOLVE_DB: join(dir, 'elsewhere.sqlite') } });
    expect(r.stderr).toBe(`spidersolve: database ${notOurs}: not an SQLite database; left untouched (use another --db path)\n`);
    const out = await runInProcess(['report', '--out', `${dir}/`], { env: { SPIDERSOLVE_DB: db } });
    expect(out.stderr).toBe(`spidersolve: option --out "${dir}/": ends in /, so it names a folder; give a file name\n`);
    expect(dbFromEnvMessage('database other.sqlite: no such file (run spidersolve batch first, or give --db)', 'mine.sqlite')).toBe('database other.sqlite: no such file (run spidersolve batch first, or give --db)');
  });
});

describe('export: CSV without --csv', () => {
  it('writes the same CSV with and without --csv, per deal and with --summary', async () => {
    const [plain, flagged, summary, summaryFlagged] = [
      await runInProcess(['export', '--db', db]),
      await runInProcess(['export', '--csv', '--db', db]),
      await runInProcess(['export', '--summary', '--db', db]),
      await runInProcess(['export', '--csv', '--summary', '--db', db]),
    ];
    expect([plain.status, plain.stderr]).toEqual([0, '']);
    expect(plain.stdout.split('\r\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^study,name,deal,code,game,suits,/),
      expect.stringMatching(/^st,SP1-1,[^,]+,SP1-1,spider,1,/),
    ]);
    expect(plain.stdout.split('\r\n').filter(Boolean)).toHaveLength(4);
    expect(flagged).toEqual(plain);
    expect([summary.status, summary.stdout]).toEqual([0, expect.stringMatching(/^study,game,suits,budget,deals,won,lost,undecided,errors,/)]);
    expect(summaryFlagged).toEqual(summary);
    const out = join(dir, 'export.csv');
    const file = await runInProcess(['export', '--db', db, '--out', out]);
    expect([file.status, file.stderr]).toEqual([0, `spidersolve: wrote ${out}: CSV, 3 rows (one a study, deal and budget)\n`]);
    expect(readFileSync(out, 'utf8')).toBe(plain.stdout);
  });

  it('--json is still refused, saying export writes CSV only; --help says CSV is the default', async () => {
    const r = await runInProcess(['export', '--db', db, '--json']);
    expect([r.status, r.stdout, r.stderr]).toEqual([2, '', 'spidersolve: export: --json is not an export format (export writes CSV only); for the report rows as JSON use spidersolve report --format json\n']);
    const help = (await runInProcess(['export', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--csv CSV output: the default and only format (taken, as older command lines give it; changes nothing)');
    expect(help).toContain('spidersolve export --out reports/results.csv');
  });
});

describe('--json: an error as JSON on stdout', () => {
  /** Asserts the run printed `{ error: { code, message } }` on stdout, the same message on stderr, and exit `status`. */
  function expectJsonError(r: { status: number | null; stdout: string; stderr: string }, code: string, message: string, status = 2): void {
    expect(JSON.parse(r.stdout)).toEqual({ error: { code, message } });
    expect(r.stderr).toBe(`spidersolve: ${message}\n`);
    expect(r.status).toBe(status);
  }

  it('solve: a bad deal, a bad option, an unknown option, a missing file', async () => {
    const code = await runInProcess(['solve', 'SP2-1007x', '--json']);
    const plain = await runInProcess(['solve', 'SP2-1007x']);
    expect([plain.status, plain.stdout]).toEqual([2, '']);
    expectJsonError(code, 'bad-code', plain.stderr.replace(/^spidersolve: /, '').trimEnd());
    expectJsonError(await runInProcess(['solve', 'SE1-1', '--json', '--max-positions', '0']), 'bad-option', 'option --max-positions "0": must be 1..200000000');
    expectJsonError(await runInProcess(['solve', 'SE1-1', '--json', '--bogus']), 'bad-option', "unknown option '--bogus'");
    expectJsonError(await runInProcess(['solve', '--json']), 'bad-usage', "missing required argument 'deal'");
    const missing = join(dir, 'missing.json');
    const file = await runInProcess(['solve', missing, '--json']);
    expect(JSON.parse(file.stdout)).toEqual({ error: { code: 'bad-file', message: expect.stringContaining(missing) } });
    expect(file.status).toBe(2);
  });

  it('blind: a bad player, a bad deal', async () => {
    const plain = await runInProcess(['blind', 'SE1-1', '--player', 'nobody']);
    expect([plain.status, plain.stdout]).toEqual([2, '']);
    expectJsonError(await runInProcess(['blind', 'SE1-1', '--player', 'nobody', '--json']), 'bad-option', plain.stderr.replace(/^spidersolve: /, '').trimEnd());
    expectJsonError(await runInProcess(['blind', 'SE9-1', '--json']), 'bad-code', (await runInProcess(['blind', 'SE9-1'])).stderr.replace(/^spidersolve: /, '').trimEnd());
  });

  it('every command that prints JSON: hint, show, moves, play, deal, report, studies, batch, merge', async () => {
    const text = async (args: string[]) => (await runInProcess(args)).stderr.replace(/^spidersolve: /, '').trimEnd();
    for (const args of [['hint', 'SP2-1007x'], ['show', 'SP2-1007x'], ['moves', 'SP2-1007x'], ['play', 'SE4-7', '9-9'], ['deal', '--suits', '3'],
      ['report', '--game', 'foo'], ['studies', '--db', join(dir, 'no-such-folder', 'x.sqlite')], ['batch', '--seeds', '0-x'], ['merge', '--into', join(dir, 'm.sqlite'), join(dir, 'missing-shard.sqlite')]]) {
      const r = await runInProcess([...args, '--json']);
      expect(r.status, args.join(' ')).toBe(2);
      const message = await text(args);
      expect(message.length, args.join(' ')).toBeGreaterThan(10);
      expectJsonError(r, (JSON.parse(r.stdout) as { error: { code: string } }).error.code, message);
    }
    // --format json asks for JSON as --json does (report, show)
    const viaFormat = await runInProcess(['report', '--format', 'json', '--game', 'foo']);
    expectJsonError(viaFormat, 'bad-option', await text(['report', '--game', 'foo']));
    expectJsonError(await runInProcess(['show', 'SP2-1007x', '--format=json']), 'bad-code', await text(['show', 'SP2-1007x']));
    // export writes CSV only: its refusal of --json stays text
    expect((await runInProcess(['export', '--json'])).stdout).toBe('');
  });

  it('without --json errors stay text; a result is still the result', async () => {
    expect((await runInProcess(['solve', 'SP2-1007x'])).stdout).toBe('');
    // after -- it is no option
    const r = await runInProcess(['solve', '--', '--json']);
    expect([r.status, r.stdout]).toEqual([2, '']);
    const won = await runInProcess(['solve', 'SE1-1', '--json', '--max-positions', '20000']);
    expect([won.status, (JSON.parse(won.stdout) as { status: string }).status]).toEqual([0, 'won']);
  });

  it('the codes of the faults that are not bad input: out-of-memory, internal (exit 1)', () => {
    expect(faultOf(new SolverMemoryError(1000, 2 ** 30))).toEqual({
      status: 1, code: 'out-of-memory',
      message: 'memory ran out with 1,000 positions stored (1.00 GB of table): no more memory was to be had (the machine\'s, or a limit such as ulimit -v); give a position budget below 1,000, or run where more memory is free',
    });
    expect(faultOf(new Error('boom'))).toMatchObject({ status: 1, code: 'internal', message: 'internal error: boom' });
  });
});

/** Runs `npm run results -- ARGS` in process with `root` as the project's folder (helpers/results.ts). */
function results(args: readonly string[], root: string | null = dir): Promise<ResultsRun> {
  return runResults(args, root);
}

describe('npm run results -- with no arguments', () => {
  it('prints the usage on stderr after one line saying what is missing, exit 2; --help prints it on stdout, exit 0', async () => {
    const help = await results(['--help']);
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^usage: npm run results -- ROW \[--workers N\] \[--limit N\]/);
    expect(await results([])).toEqual({ status: 2, stdout: '', stderr: `results: no row or command given\n${help.stdout}` });
    expect((await results(['-h'])).stdout).toBe(help.stdout);
    expect(help.stdout).toContain('2 bad input (one line; no arguments at all: this usage, on stderr)');
  });
});

describe('npm run results -- under RESULTS_ROOT: paths that open from the working folder', () => {
  it('shownPath: relative to the working folder inside it, absolute outside it', () => {
    expect(shownPath('/p', 'data/results/spider4.csv', '/p')).toBe('data/results/spider4.csv');
    expect(shownPath('/p', 'data/results/spider4.csv', '/p/data')).toBe('results/spider4.csv');
    expect(shownPath('/shared/vol', 'data/results/spider4.csv', '/p')).toBe('/shared/vol/data/results/spider4.csv');
    expect(shownPath('/p/../q', 'docs/results.md', '/p')).toBe('/q/docs/results.md');
    expect(shownPath('/p', '.', '/p')).toBe('.');
  });

  it('a RESULTS_ROOT elsewhere: rows, export and confirm name its files by their absolute paths', async () => {
    const root = mkdtempSync(join(dir, 'vol-'));
    mkdirSync(join(root, 'data/results'), { recursive: true });
    writeFileSync(join(root, 'data/results/spider4.json'), JSON.stringify({ counted: 32000 }));
    const rows = await withEnv({ RESULTS_ROOT: root }, () => results(['rows'], null));
    expect(rows.status).toBe(0);
    expect(rows.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').at(-1))).toEqual(RESULTS_ROWS.map((r) => join(root, r.db)));
    const exp = await withEnv({ RESULTS_ROOT: root }, () => results(['export', 'spider4'], null));
    expect(exp).toEqual({
      status: 0, stderr: '',
      stdout: `results: export spider4: ${join(root, 'data/results/spider4.sqlite')} is not here (not in git); the committed files hold the row's 32,000 deals as they are: nothing to export\n`,
    });
    expect((await results(['confirm', 'spiderette1'], root)).stderr).toBe(`results: confirm spiderette1: the row has no results yet (no database, ${join(root, 'data/results/spiderette1.sqlite')}, and no committed files); run npm run results -- spiderette1 first\n`);
  });

  it('run from inside that folder, or from the project with its own files: relative paths, as before', async () => {
    const root = mkdtempSync(join(dir, 'vol-'));
    const cwd = process.cwd();
    process.chdir(root);
    try {
      expect((await results(['confirm', 'spiderette1'], root)).stderr).toBe('results: confirm spiderette1: the row has no results yet (no database, data/results/spiderette1.sqlite, and no committed files); run npm run results -- spiderette1 first\n');
    } finally {
      process.chdir(cwd);
    }
    expect(process.cwd()).toBe(ROOT.replace(/\/$/, ''));
    const rows = await results(['rows'], ROOT);
    expect(rows.stdout.split('\n')[0]!.split('\t').at(-1)).toBe('data/results/spider4.sqlite');
  });
});

describe('npm run results: the build before it is skipped when nothing changed', () => {
  const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, Record<string, unknown>>;

  it('the script builds with tsc -b (up to date: nothing compiled), the build is incremental, its record inside dist', () => {
    const scripts = json('package.json').scripts!;
    expect(scripts.results).toBe('tsc -b tsconfig.json && node dist/src/results/cli.js');
    // npm run build and the type check are as they were
    expect([scripts.build, scripts.prepare, scripts.typecheck]).toEqual(['tsc -p tsconfig.json', 'tsc -p tsconfig.json', 'tsc -p tsconfig.check.json']);
    const main = json('tsconfig.json').compilerOptions!;
    // removing dist removes the record of what was built with it, so the next build is whole
    expect([main.incremental, main.outDir, main.tsBuildInfoFile]).toEqual([true, 'dist', 'dist/.tsbuildinfo']);
    // the other configurations extend it: each keeps its own record, or none
    expect(json('tsconfig.bench.json').compilerOptions!.tsBuildInfoFile).toBe('dist/.tsbuildinfo-bench');
    expect(json('tsconfig.check.json').compilerOptions!.incremental).toBe(false);
  });
});
