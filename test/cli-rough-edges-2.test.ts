/**
 * More rough edges of the command line, in process: `npm run results` given an option it does not
 * know, the Markdown report's legend, the results' refusal to shrink a row, an interrupted
 * `results -- confirm ROW`, and `blind --out` onto a file it did not write.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_LEGEND } from '../src/report/text.js';
import { planSeeds, type PlannedDeal } from '../src/batch/deals.js';
import { recordFromOutcome, ResultStore } from '../src/batch/store.js';
import { EXIT_INTERRUPTED } from '../src/cli/batch.js';
import { confirmCommand } from '../src/results/cli.js';
import { lossesPath, parseLossesCsv, workerLossChecker } from '../src/results/confirm.js';
import type { ResultsRow } from '../src/results/rows.js';
import { SOLVER_VERSION } from '../src/solver/types.js';
import { expectUnchanged, ROOT, runInProcess, snapshot } from './helpers/cli.js';
import { makeLostDb } from './helpers/db.js';
import { type ResultsRun, runResults } from './helpers/results.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough2-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm run results -- ARGS` in process with `root` as the project's folder (helpers/results.ts). */
function results(args: readonly string[], root: string = dir): Promise<ResultsRun> {
  return runResults(args, root);
}

describe('npm run results -- with an option it does not know', () => {
  const said = (name: string) => `results: unknown option "${name}"; npm run results -- --help lists the commands and their options\n`;

  it('--bogus alone is an unknown option, not an unknown row: one line, exit 2', async () => {
    expect(await results(['--bogus'])).toEqual({ status: 2, stdout: '', stderr: said('--bogus') });
  });

  it('after a row, a command, or as --name=value: the option is named', async () => {
    expect(await results(['spider4', '--bogus'])).toEqual({ status: 2, stdout: '', stderr: said('--bogus') });
    expect(await results(['spider4', '--bogus=3'])).toEqual({ status: 2, stdout: '', stderr: said('--bogus') });
    expect(await results(['confirm', 'spider4', '-x'])).toEqual({ status: 2, stdout: '', stderr: said('-x') });
    expect(await results(['confirm', '--bogus'])).toEqual({ status: 2, stdout: '', stderr: said('--bogus') });
    expect(await results(['export', '--bogus'])).toEqual({ status: 2, stdout: '', stderr: said('--bogus') });
    expect(await results(['table', '--bogus'])).toEqual({ status: 2, stdout: '', stderr: said('--bogus') });
    expect(await results(['merge', 'spider4', '--bogus', 'a.sqlite'])).toEqual({ status: 2, stdout: '', stderr: said('--bogus') });
  });

  it('merge naming a shard database that is not there: one line naming it, exit 2, nothing merged', async () => {
    const gone = join(dir, 'no-such-shard.sqlite');
    expect(await results(['merge', 'spider4', gone])).toEqual({ status: 2, stdout: '', stderr: `results: merge spider4: shard database "${gone}": no such file; nothing was merged\n` });
    expect(existsSync(join(dir, 'data/results/spider4.sqlite'))).toBe(false);
  });

  it('a word that is no row is still an unknown row; an option twice and a stray word are named as such', async () => {
    expect((await results(['bogus'])).stderr).toMatch(/^results: unknown row "bogus"; give one of spider4, /);
    expect(await results(['spider4', '--limit', '2', '--limit', '3'])).toEqual({ status: 2, stdout: '', stderr: 'results: option --limit given twice; give it once\n' });
    expect(await results(['spider4', 'extra'])).toEqual({ status: 2, stdout: '', stderr: 'results: unexpected argument "extra"; npm run results -- --help lists the commands and their options\n' });
    expect(await results(['confirm', 'spider4', 'extra'])).toEqual({ status: 2, stdout: '', stderr: 'results: unexpected argument "extra"; npm run results -- --help lists the commands and their options\n' });
    expect(await results(['table', 'extra'])).toEqual({ status: 2, stdout: '', stderr: 'results: unexpected argument "extra"; table takes no arguments\n' });
  });

  it('table in a checkout with no rows counted: writes docs/results.md alone and says so, as every results line, after "results:"', async () => {
    const root = join(dir, 'table-root');
    mkdirSync(join(root, 'docs'), { recursive: true });
    const r = await results(['table'], root);
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(r.stdout).toMatch(/^results: wrote \S*docs\/results\.md\n$/);
    expect(readFileSync(join(root, 'docs/results.md'), 'utf8')).toMatch(/^# Win rates of Spider and Spiderette\n/);
    expect(existsSync(join(root, 'docs/results.html'))).toBe(false);
  });

  it('confirm given an option of running a row: named as that, not as an unknown option', async () => {
    const said = (name: string) => `results: confirm: ${name} is an option of running a row, not of confirm, which checks every loss of the row and takes only --budget N\n`;
    expect(await results(['confirm', 'spider1', '--limit', '5'])).toEqual({ status: 2, stdout: '', stderr: said('--limit') });
    expect(await results(['confirm', 'spider1', '--budget', '9', '--workers=2'])).toEqual({ status: 2, stdout: '', stderr: said('--workers') });
    expect(await results(['confirm', 'spider1', '--rebuild'])).toEqual({ status: 2, stdout: '', stderr: said('--rebuild') });
    expect(await results(['confirm', '--limit', '5', 'spider1'])).toEqual({ status: 2, stdout: '', stderr: said('--limit') });
  });
});

describe('report --format md: the legend under the table', () => {
  it('the Markdown report ends with the same legend lines as the text report, escaped for Markdown', async () => {
    const db = join(dir, 'md.sqlite');
    makeLostDb(db);
    const [md, text, html] = [
      await runInProcess(['report', '--db', db, '--format', 'md']),
      await runInProcess(['report', '--db', db]),
      await runInProcess(['report', '--db', db, '--format', 'html']),
    ];
    expect(md.status).toBe(0);
    const lines = md.stdout.split('\n');
    expect(lines[0]).toMatch(/^\| study \| game \| suits \| budget \| deals \| won \| lost \| undecided \|/);
    expect(lines[2]).toMatch(/^\| st \| spider \| 1 \| 100 \| 3 \| 0 \| 3 \| 0 \| 0 \| 0\.0% \|/);
    // the table, a blank line, then the legend as one paragraph of three lines
    expect(lines.slice(3)).toEqual([
      '',
      'floor = won / deals (a proven lower bound on the win rate); CI = its 95% Wilson interval; ceiling = deals not proven lost / deals (ceil low/high: its interval);',
      'undecided = neither won nor lost within the budget (counted in the ceiling, not the floor); errors = deals whose solve failed (it ran out of memory, say), solved again when the batch is resumed;',
      'budget = the position budget of each search; pos and ms: median and 95th percentile (p95) of positions stored and milliseconds, over won deals; solver = the solver version the results were stored under.',
      '',
    ]);
    // one source: the text table's last lines and the HTML report's legend are the same words
    expect(text.stdout.trimEnd().split('\n').slice(-REPORT_LEGEND.length)).toEqual([...REPORT_LEGEND]);
    expect(html.stdout).toContain(`<p class="legend">${REPORT_LEGEND.join(' ')}</p>`);
  });

  it('no rows: "no results" alone, no legend', async () => {
    const db = join(dir, 'md-empty.sqlite');
    makeLostDb(db);
    const r = await runInProcess(['report', '--db', db, '--format', 'md', '--game', 'spiderette']);
    expect(r).toMatchObject({ status: 0, stdout: 'no results\n' });
  });
});

describe('npm run results: the refusal to shrink a committed row is one short line', () => {
  /** A project folder holding the committed summary of `id` (its file in data/results), without its database, as a fresh clone has. */
  function clone(id: string): string {
    const root = mkdtempSync(join(dir, 'clone-'));
    mkdirSync(join(root, 'data/results'), { recursive: true });
    copyFileSync(join(ROOT, `data/results/${id}.json`), join(root, `data/results/${id}.json`));
    return root;
  }

  it('export with no database: nothing to export, the committed files as they are, exit 0; with none committed either, exit 2', async () => {
    const root = clone('spider4');
    const before = readFileSync(join(root, 'data/results/spider4.json'), 'utf8');
    const r = await results(['export', 'spider4'], root);
    expect(r).toEqual({
      status: 0, stderr: '',
      stdout: `results: export spider4: ${join(root, 'data/results/spider4.sqlite')} is not here (not in git); the committed files hold the row's 32,000 deals as they are: nothing to export\n`,
    });
    expect(readFileSync(join(root, 'data/results/spider4.json'), 'utf8')).toBe(before);
    const empty = mkdtempSync(join(dir, 'clone-'));
    const e = await results(['export', 'spider2'], empty);
    expect(e).toEqual({ status: 2, stdout: '', stderr: `results: export spider2: the row has no results yet (no database, ${join(empty, 'data/results/spider2.sqlite')}, and no committed files); run npm run results -- spider2 first\n` });
    expect(existsSync(join(empty, 'data/results/spider2.csv'))).toBe(false);
  });

  it('a rebuild shorter than the committed row: both counts and the command, before anything runs', async () => {
    const root = clone('spider4');
    const r = await results(['spider4', '--limit', '200', '--rebuild'], root);
    expect(r).toEqual({
      status: 2, stdout: '',
      stderr: 'results: spider4 --limit 200: would shrink the committed row from 32,000 to 200 deals; rebuild it first: npm run results -- spider4 --rebuild\n',
    });
    expect(r.stderr.length).toBeLessThan(160);
  });
});

/** The refusal of an --out file spidersolve did not write (cli/batch.ts checkOutReplaceable). */
const NOT_OURS = 'is a file spidersolve did not write (not one of its pages, reports, exports or position files); writing there would destroy it, so nothing was written: give another file name, or remove that file first';

describe('blind --out: as careful as the other --out options', () => {
  const blind = (out: string) => runInProcess(['blind', 'SE1-1', '--player', 'greedy', '--loss-budget', '0', '--out', out], { cwd: dir });
  const refused = (out: string, why: string) => ({ status: 2, signal: null, stdout: '', stderr: `spidersolve: option --out "${out}": ${why}\n` });

  it('an existing file spidersolve did not write (notes, another page) is refused, one line naming it, and left as it was', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'my notes on SE1-1\n');
    writeFileSync(join(dir, 'other.html'), '<!doctype html>\n<html lang="en">\n<head>\n<title>my page</title>\n</head><body>hello</body></html>\n');
    for (const name of ['notes.txt', 'other.html']) {
      const before = snapshot(join(dir, name));
      expect(await blind(name)).toEqual(refused(name, NOT_OURS));
      expectUnchanged(join(dir, name), before);
    }
  });

  it('a directory, or a path under a file, is refused; a missing folder is made (as report --out and view --out do)', async () => {
    mkdirSync(join(dir, 'pages'), { recursive: true });
    expect(await blind('pages')).toEqual(refused('pages', 'is a directory; give a file name'));
    expect(await blind('notes.txt/se1-1.html')).toEqual(refused('notes.txt/se1-1.html', 'notes.txt is not a directory'));
    const made = await blind('new/folder/se1-1.html');
    // (greedy does not win SE1-1: exit 3, stuck)
    expect([made.status, made.stderr]).toEqual([3, 'spidersolve: wrote new/folder/se1-1.html: SE1-1, played blind by greedy: stuck after 36 moves\n']);
    expect(readFileSync(join(dir, 'new/folder/se1-1.html'), 'utf8')).toMatch(/^<!doctype html>\n[\s\S]*<title>SE1-1 — spidersolve viewer<\/title>/);
  });

  it('a page spidersolve wrote (blind, view, an HTML report) and an empty file are replaced', async () => {
    expect((await blind('again.html')).stderr).toMatch(/^spidersolve: wrote again\.html: /);
    const first = readFileSync(join(dir, 'again.html'), 'utf8');
    expect((await blind('again.html')).stderr).toMatch(/^spidersolve: wrote again\.html: /);
    expect(readFileSync(join(dir, 'again.html'), 'utf8')).toBe(first);
    const view = await runInProcess(['view', 'SE1-2', '--out', 'view.html'], { cwd: dir });
    expect(view.status).toBe(0);
    expect((await blind('view.html')).stderr).toMatch(/^spidersolve: wrote view\.html: SE1-1/);
    const db = join(dir, 'page.sqlite');
    makeLostDb(db);
    expect((await runInProcess(['report', '--db', db, '--format', 'html', '--out', 'report.html'], { cwd: dir })).status).toBe(0);
    expect((await blind('report.html')).stderr).toMatch(/^spidersolve: wrote report\.html: SE1-1/);
    writeFileSync(join(dir, 'empty.html'), '');
    expect((await blind('empty.html')).stderr).toMatch(/^spidersolve: wrote empty\.html: SE1-1/);
    expect(readFileSync(join(dir, 'empty.html'), 'utf8')).toBe(first);
  });
});

describe('npm run results -- confirm ROW, interrupted', () => {
  /** A row of Spiderette 1 suit seeds whose database holds SE1-3 lost (60 positions; at 2,000 the check leaves it undecided) and SE1-2152 lost (184 positions: confirmed). */
  const row: ResultsRow = {
    id: 'check', title: 'Spiderette 1 suit (check)', game: 'spiderette', suits: 1, source: { kind: 'seeds' }, count: 3000,
    budgets: [1000], study: 'results-check', db: 'data/results/check.sqlite', csv: 'data/results/check.csv', published: [],
  };
  function rowRoot(): string {
    const root = mkdtempSync(join(dir, 'confirm-'));
    const d: PlannedDeal[] = [3, 2152].flatMap((n) => planSeeds('spiderette', [1], [{ from: n, to: n }]));
    const records = d.map((x, i) => recordFromOutcome(x, 1000, {
      key: x.key, status: 'lost', positions: [60, 184][i]!, elapsedMs: 5, line: '', moveCount: null, classicScore: null, revealScore: null,
      peakBytes: 100, solverVersion: SOLVER_VERSION, workerMs: 5,
    }));
    const s = ResultStore.openForWriting(join(root, row.db));
    const study = s.ensureStudy(row.study, { game: null, suits: null, dealsSpec: 'file:/dev/stdin', maxPositions: 1000, budgets: [1000], planned: d.length });
    s.writeResults(null, records, study, d.map((x, i) => ({ deal: records[i]!.deal, ord: i, name: x.key })));
    s.close();
    return root;
  }

  /** confirmCommand with stderr and stdout captured; `stopAt`: a text of stderr on whose line the signal fires, as Ctrl-C would. */
  async function confirm(root: string, stopAt?: string): Promise<{ status: number; stdout: string; stderr: string }> {
    const ctl = new AbortController();
    const out: string[] = [];
    const err: string[] = [];
    const [wo, we] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
    process.stdout.write = ((t: string) => (out.push(String(t)), true)) as typeof process.stdout.write;
    process.stderr.write = ((t: string) => {
      err.push(String(t));
      if (stopAt !== undefined && String(t).includes(stopAt)) ctl.abort();
      return true;
    }) as typeof process.stderr.write;
    try {
      const status = await confirmCommand(row, root, 2000, ctl.signal);
      return { status, stdout: out.join(''), stderr: err.join('') };
    } finally {
      process.stdout.write = wo;
      process.stderr.write = we;
    }
  }

  it('keeps the answers written, says how many losses were checked and that the same command resumes, exit 130 as batch; the same command then resumes', async () => {
    const root = rowRoot();
    const stopped = await confirm(root, 'loss 1/2');
    expect(stopped).toEqual({
      status: EXIT_INTERRUPTED, stdout: '',
      stderr:
        'results: check loss 1/2 SE1-3: undecided in 2,000 positions (the solve: 60)\n' +
        `results: confirm check interrupted: 1 of 2 losses checked, kept in ${join(root, 'data/results/check-losses.csv')}; the same command resumes: npm run results -- confirm check --budget 2000\n`,
    });
    expect(EXIT_INTERRUPTED).toBe(130);
    const kept = parseLossesCsv(readFileSync(join(root, lossesPath(row)), 'utf8'));
    expect(kept.map((c) => [c.deal, c.check, c.checkPositions, c.checkBudget])).toEqual([['SE1-3', 'undecided', 2000, 2000]]);
    // the same command: the answer kept is not searched again, the other deal is
    const resumed = await confirm(root);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr.split('\n')[0]).toBe('results: check loss 1/2 SE1-3: undecided in 2,000 positions (the solve: 60), as the file had it (checked at 2,000)');
    expect(resumed.stderr.split('\n')[1]).toBe('results: check loss 2/2 SE1-2152: confirmed in 184 positions (the solve: 184)');
    expect(resumed.stdout).toBe(`results: Spiderette 1 suit (check): 2 losses checked without the solver's reductions (1 searched now at 2,000 positions, 1 answered before): 1 confirmed, 1 undecided, 0 contradicted; wrote ${join(root, 'data/results/check-losses.csv')}\n`);
  });

  it('a signal before the first answer: 0 of 2 checked, nothing lost', async () => {
    const root = rowRoot();
    const ctl = new AbortController();
    ctl.abort();
    const err: string[] = [];
    const we = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((t: string) => (err.push(String(t)), true)) as typeof process.stderr.write;
    try {
      expect(await confirmCommand(row, root, 2000, ctl.signal)).toBe(130);
    } finally {
      process.stderr.write = we;
    }
    expect(err.join('')).toBe(`results: confirm check interrupted: 0 of 2 losses checked, kept in ${join(root, 'data/results/check-losses.csv')}; the same command resumes: npm run results -- confirm check --budget 2000\n`);
  });

  it('the search runs in a worker thread, which the signal ends in the middle of a long search', async () => {
    const worker = workerLossChecker();
    try {
      // (SE1-2152 in the worker: the same answer as in this thread)
      expect(await worker.check('SE1-2152', 2000)).toMatchObject({ status: 'lost', positions: 184 });
      // a Spider 4 suits deal at 16M positions searches far longer than this test runs
      const ctl = new AbortController();
      const long = worker.check('SP4-1', 16_000_000, ctl.signal);
      setTimeout(() => ctl.abort(), 200);
      await expect(long).rejects.toMatchObject({ name: 'AbortError' });
      // a deal that cannot be loaded is a one-line error
      await expect(worker.check('SE1-zz', 2000)).rejects.toThrow(/^deal SE1-zz: /);
    } finally {
      await worker.close();
    }
  });
});

describe('report, export, view and show --out: a file spidersolve did not write is refused; its own are replaced', () => {
  const refused = (out: string) => ({ status: 2, signal: null, stdout: '', stderr: `spidersolve: option --out "${out}": ${NOT_OURS}\n` });

  it('each command refuses my notes, exit 2, one line, the file left as it was', async () => {
    const db = join(dir, 'outs.sqlite');
    makeLostDb(db);
    const notes = join(dir, 'mine.txt');
    writeFileSync(notes, 'my notes\n');
    const before = snapshot(notes);
    for (const args of [
      ['report', '--db', db, '--format', 'md', '--out', 'mine.txt'],
      ['report', '--db', db, '--format', 'html', '--out', 'mine.txt'],
      ['export', '--csv', '--db', db, '--out', 'mine.txt'],
      ['view', 'SE1-2', '--out', 'mine.txt'],
      ['show', 'SE4-7', '--format', 'position', '--out', 'mine.txt'],
    ]) {
      expect(await runInProcess(args, { cwd: dir })).toEqual(refused('mine.txt'));
      expectUnchanged(notes, before);
    }
  });

  it('a second run over its own file replaces it, whatever the format (table, md, csv, json, vega, html; export; show text, json, position forms)', async () => {
    const db = join(dir, 'outs2.sqlite');
    makeLostDb(db);
    const runs: string[][] = [
      ...['table', 'md', 'csv', 'json', 'vega', 'html'].map((f) => ['report', '--db', db, '--format', f, '--out', `r.${f}`]),
      ['export', '--csv', '--db', db, '--out', 'e.csv'],
      ['view', 'SE1-2', '--out', 'v.html'],
      ...['text', 'json', 'position', 'position-json'].map((f) => ['show', 'pysol:spider:3', '--format', f, '--out', `s.${f}`]),
      ['show', 'SE4-7', '--out', 's2.text'],
    ];
    for (const args of runs) {
      const first = await runInProcess(args, { cwd: dir });
      expect([args.join(' '), first.status]).toEqual([args.join(' '), 0]);
      const again = await runInProcess(args, { cwd: dir });
      // (names such as r.table have an extension no form has: a note comes before the "wrote" line)
      expect([args.join(' '), again.status, again.stderr.trimEnd().split('\n').at(-1)!.startsWith('spidersolve: wrote ')]).toEqual([args.join(' '), 0, true]);
    }
  });
});
