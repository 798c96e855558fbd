/**
 * Rough edges of the command line, in process: a file given to `batch --deals` that is not a deals
 * file, a suit count given twice in a `--suits` list, `batch --seed`, a sign before a whole number,
 * an existing file given as `--db`, and `report`/`export --out` onto a study's deals or position file.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, expectUnchanged, runInProcess, snapshot } from './helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('batch --deals with a file that is not a deals file', () => {
  it('a JSON file: one short line with the first line, not a message for each of its lines; nothing is stored', async () => {
    const file = join(dir, 'package.json');
    const lines = ['{', `  "name": "spidersolve",`, `  "description": "${'a long description of the package '.repeat(5)}",`, '  "type": "module"', '}'];
    writeFileSync(file, lines.join('\n') + '\n');
    const db = join(dir, 'json.sqlite');
    const r = await runInProcess(['batch', '--deals', file, '--db', db]);
    expectOneLineError(
      r,
      new RegExp(
        `^spidersolve: --deals ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not a deals file: none of its 5 lines is a deal: line 1, "\\{", is no deal code, ` +
          'pysol:GAME:N or position file that exists; a deals line is a deal code \\(SP2-1007\\), pysol:GAME:N or a position-file path \\(relative to the working directory\\)\\n$',
      ),
    );
    expect(r.stderr.length).toBeLessThan(300 + file.length);
    expect(existsSync(db)).toBe(false);
  });

  it('an HTML file whose first line is long: that line is cut to 60 characters around …', async () => {
    const file = join(dir, 'page.html');
    const first = `<!doctype html><html lang="en"><head><title>${'Spider results '.repeat(10)}</title></head>`;
    writeFileSync(file, `${first}\n<body><p>hello</p></body></html>\n`);
    const r = await runInProcess(['batch', '--deals', 'page.html', '--db', join(dir, 'html.sqlite')], { cwd: dir });
    // the line as quoted: its first 44 and last 15 characters around …, 60 in all
    expectOneLineError(r, /^spidersolve: --deals page\.html: not a deals file: none of its 2 lines is a deal: line 1, "<!doctype html><html lang="en"><head><title>…<\/title><\/head>" \(209 characters\), is no deal code/);
  });

  it('a file of one line of notes says "line 1", not "none of its 1 lines"', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, '# my deals\nthe deals I lost last week\n');
    const r = await runInProcess(['batch', '--deals', 'notes.txt', '--db', join(dir, 'notes.sqlite')], { cwd: dir });
    expect(r.stderr).toBe(
      'spidersolve: --deals notes.txt: not a deals file: line 2, "the deals I lost last week", is no deal code, pysol:GAME:N or position file that exists; ' +
        'a deals line is a deal code (SP2-1007), pysol:GAME:N or a position-file path (relative to the working directory)\n',
    );
    expect(r.status).toBe(2);
  });

  it('a position file given as --deals is named as one', async () => {
    const shown = await runInProcess(['show', 'SE2-5', '--reveal', '--json']);
    const file = join(dir, 'se2-5.json');
    writeFileSync(file, JSON.stringify((JSON.parse(shown.stdout) as { position: unknown }).position, null, 2));
    const r = await runInProcess(['batch', '--deals', 'se2-5.json', '--db', join(dir, 'pos.sqlite')], { cwd: dir });
    expect(r.stderr).toBe('spidersolve: --deals se2-5.json: is a position file (spiderette, 2 suits), not a deals file: solve it with spidersolve solve, or put its path on a line of a deals file\n');
    expect(r.status).toBe(2);
  });

  it('a deals file with a deal on one line still lists every bad line with its message', async () => {
    const file = join(dir, 'typos.txt');
    writeFileSync(file, 'SE1-1\n<html>\nSE1-zz\n');
    const r = await runInProcess(['batch', '--deals', 'typos.txt', '--db', join(dir, 'typos.sqlite')], { cwd: dir });
    expectOneLineError(r, /^spidersolve: --deals typos\.txt: 2 bad lines \(2, 3\), nothing was run: line 2: position file <html>: no such file in \S+ \(the working folder; paths in a deals file are read from there\), and not a deal code or pysol:GAME:N; line 3: deal code "SE1-zz": /);
  });

  it('a file of bad deal codes only (each a deal meant) keeps the message of each', async () => {
    const file = join(dir, 'codes.txt');
    writeFileSync(file, 'SE1-zz\nnot a deal\n');
    const r = await runInProcess(['batch', '--deals', 'codes.txt', '--db', join(dir, 'codes.sqlite')], { cwd: dir });
    expectOneLineError(r, /^spidersolve: --deals codes\.txt: 2 bad lines \(1, 2\), nothing was run: line 1: deal code "SE1-zz": .*; line 2: position file "?not a deal"?: no such file/);
  });
});

describe('a suit count given twice in a --suits list', () => {
  it('batch refuses it, before a database is made', async () => {
    const db = join(dir, 'suits.sqlite');
    const r = await runInProcess(['batch', '--game', 'spider', '--suits', '2,2', '--seeds', '1', '--db', db]);
    expect(r.stderr).toBe('spidersolve: option --suits "2,2": suit count 2 is given twice; give each once (a comma list of 1, 2 and 4)\n');
    expect([r.status, r.stdout, existsSync(db)]).toEqual([2, '', false]);
  });

  it('report and export refuse it alike', async () => {
    const db = join(dir, 'none.sqlite');
    for (const args of [['report'], ['export', '--csv']]) {
      const r = await runInProcess([...args, '--suits', '4, 1,4', '--db', db]);
      expect(r.stderr).toBe('spidersolve: option --suits "4, 1,4": suit count 4 is given twice; give each once (a comma list of 1, 2 and 4)\n');
      expect([r.status, r.stdout]).toEqual([2, '']);
    }
  });

  it('a list of different suit counts is still taken, in any order', async () => {
    const r = await runInProcess(['batch', '--game', 'spiderette', '--suits', '2,1', '--seeds', '1', '--max-positions', '50', '--workers', '1', '--quiet', '--json', '--db', join(dir, 'suits-ok.sqlite')]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ study: 'spiderette-1,2-seeds-1-at-50-positions', planned: 2 });
  });
});

describe('batch --seed', () => {
  it('names both of batch\'s seeds, --seeds and --player-seed, with the value given', async () => {
    const db = join(dir, 'seed.sqlite');
    const r = await runInProcess(['batch', '--game', 'spider', '--suits', '2', '--seed', '5', '--db', db]);
    expect(r.stderr).toBe('spidersolve: option --seed "5": batch has no --seed; give --seeds 5 for the seeds of the deals (with --game and --suits), or --player-seed 5 for the blind player\'s own seed (with --player)\n');
    expect([r.status, r.stdout, existsSync(db)]).toEqual([2, '', false]);
  });

  it('without a value, or with one that is no number, names them with placeholders', async () => {
    for (const args of [['--seed'], ['--seed=1-10']]) {
      const r = await runInProcess(['batch', ...args, '--db', join(dir, 'seed.sqlite')]);
      const given = args[0] === '--seed' ? '' : ' "1-10"';
      expect(r.stderr).toBe(`spidersolve: option --seed${given}: batch has no --seed; give --seeds <range> for the seeds of the deals (with --game and --suits), or --player-seed <n> for the blind player's own seed (with --player)\n`);
      expect(r.status).toBe(2);
    }
  });

  it('is not in batch --help', async () => {
    const r = await runInProcess(['batch', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--seeds <range>/);
    expect(r.stdout).not.toMatch(/--seed\b(?!s)/);
  });
});

describe('a sign before a whole number: refused alike in options and player parameters', () => {
  const signed = (range: string) => `a sign is not taken; write the number in digits alone (${range})`;

  it('batch --player-seed +5 is refused as --player sample:k=+2 is', async () => {
    const db = join(dir, 'sign.sqlite');
    const seed = await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1', '--player', 'greedy', '--player-seed', '+5', '--db', db]);
    expect([seed.status, seed.stderr]).toEqual([2, `spidersolve: option --player-seed "+5": ${signed('0..4294967295')}\n`]);
    const k = await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1', '--player', 'sample:k=+2', '--db', db]);
    expect([k.status, k.stderr]).toEqual([2, `spidersolve: player "sample:k=+2": k "+2": ${signed('1..1000')}\n`]);
    const minus = await runInProcess(['blind', 'SE1-1', '--player', 'sample:budget=-100']);
    expect([minus.status, minus.stderr]).toEqual([2, `spidersolve: player "sample:budget=-100": budget "-100": ${signed('100..10000000')}\n`]);
    expect(existsSync(db)).toBe(false);
  });

  it('every whole-number option follows the rule', async () => {
    const cases: [string[], string][] = [
      [['blind', 'SE1-1', '--player', 'greedy', '--player-seed', '+5'], `option --player-seed "+5": ${signed('0..4294967295')}`],
      [['blind', 'SE1-1', '--player', 'greedy', '--loss-budget', '+0'], `option --loss-budget "+0": ${signed('0..200000000')}`],
      [['deal', '--seed', '+5'], `option --seed "+5": ${signed('0..4294967295')}`],
      [['deal', '--count', '+2'], `option --count "+2": ${signed('1..1000000')}`],
      [['deal', '--count', '2', '--from', '+1'], `option --from "+1": ${signed('0..4294967295')}`],
      [['solve', 'SE1-1', '--max-positions', '+100'], `option --max-positions "+100": ${signed('1..200000000')}`],
      [['batch', '--game', 'spider', '--suits', '1', '--seeds', '1', '--workers', '+1', '--db', join(dir, 'sign.sqlite')], `option --workers "+1": ${signed('1..256')}`],
      [['batch', '--game', 'spider', '--suits', '1', '--seeds', '1', '--max-positions', '+100', '--db', join(dir, 'sign.sqlite')], `option --max-positions "+100": ${signed('1..200000000')}`],
      [['batch', '--game', 'spider', '--suits', '1', '--seeds', '1', '--max-positions', '100,+200', '--db', join(dir, 'sign.sqlite')], `option --max-positions "100,+200": budget "+200": ${signed('1..200000000')}`],
    ];
    for (const [args, message] of cases) {
      const r = await runInProcess(args);
      expect([args.join(' '), r.status, r.stdout, r.stderr]).toEqual([args.join(' '), 2, '', `spidersolve: ${message}\n`]);
    }
    expect(existsSync(join(dir, 'sign.sqlite'))).toBe(false);
  });

  it('the same values without the sign are taken', async () => {
    const r = await runInProcess(['deal', '--seed', '5', '--game', 'spiderette', '--suits', '1']);
    expect([r.status, r.stdout]).toEqual([0, 'SE1-5\n']);
  });
});

describe('batch --db naming a file that exists', () => {
  const study = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1', '--max-positions', '50', '--workers', '1', '--quiet'];

  it('a file that is not empty and not an SQLite database is refused, untouched, and nothing is made beside it', async () => {
    const sub = mkdtempSync(join(dir, 'db-'));
    const notes = join(sub, 'notes.sqlite');
    writeFileSync(notes, 'my notes, not a database\n');
    const before = snapshot(notes);
    const r = await runInProcess([...study, '--db', notes]);
    expect([r.status, r.stdout, r.stderr]).toEqual([2, '', `spidersolve: database ${notes}: not an SQLite database; left untouched (use another --db path)\n`]);
    expectUnchanged(notes, before);
    expect(readdirSync(sub)).toEqual(['notes.sqlite']);
  });

  it('an empty file (0 bytes) is taken as a new database', async () => {
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const r = await runInProcess([...study, '--json', '--db', empty]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ study: 'spiderette-1-seeds-1-at-50-positions', planned: 1, ran: 1 });
    expect(statSync(empty).size).toBeGreaterThan(0);
    const studies = await runInProcess(['studies', '--json', '--db', empty]);
    expect((JSON.parse(studies.stdout) as { name: string }[]).map((s) => s.name)).toEqual(['spiderette-1-seeds-1-at-50-positions']);
  });
});

describe('report --out and export --out onto a file the studies were planned from', () => {
  let sub: string;
  let db: string;
  const deals = () => join(sub, 'deals.txt');
  const pos = () => join(sub, 'start.json');
  beforeAll(async () => {
    sub = mkdtempSync(join(dir, 'out-'));
    db = join(sub, 'r.sqlite');
    const shown = await runInProcess(['show', 'SE2-5', '--reveal', '--json']);
    writeFileSync(pos(), JSON.stringify((JSON.parse(shown.stdout) as { position: unknown }).position, null, 2));
    writeFileSync(deals(), 'SE1-1\nstart.json\n');
    const r = await runInProcess(['batch', '--deals', 'deals.txt', '--max-positions', '50', '--workers', '1', '--quiet', '--db', db], { cwd: sub });
    expect(r.status).toBe(0);
  });

  it('report --out the study\'s deals file is refused, by its path or through a link, and the file is kept', async () => {
    const before = snapshot(deals());
    const link = join(sub, 'link.txt');
    symlinkSync(deals(), link);
    for (const out of [deals(), 'deals.txt', link]) {
      const r = await runInProcess(['report', '--db', db, '--out', out], { cwd: sub });
      expect([r.status, r.stdout, r.stderr]).toEqual([2, '', `spidersolve: option --out "${out}": is the deals file of study "deals-at-50-positions" in ${db}; writing there would destroy it, so nothing was written: give another file name\n`]);
    }
    expectUnchanged(deals(), before);
  });

  it('export --out a position file named in the deals file is refused, and the file is kept', async () => {
    const before = snapshot(pos());
    const r = await runInProcess(['export', '--csv', '--db', db, '--out', 'start.json'], { cwd: sub });
    expect([r.status, r.stdout, r.stderr]).toEqual([2, '', `spidersolve: option --out "start.json": is the position file ${pos()}, a deal of a study in ${db}; writing there would destroy it, so nothing was written: give another file name\n`]);
    expectUnchanged(pos(), before);
    const html = await runInProcess(['report', '--format', 'html', '--db', db, '--out', pos()]);
    expect(html.status).toBe(2);
    expectUnchanged(pos(), before);
  });

  it('the database itself stays refused (any SQLite file)', async () => {
    const before = snapshot(db);
    const r = await runInProcess(['export', '--csv', '--db', db, '--out', db]);
    expect([r.status, r.stderr]).toEqual([2, `spidersolve: option --out "${db}": is the results database ${db}; writing there would destroy the results, so nothing was written: give another file name\n`]);
    expectUnchanged(db, before);
  });

  it('other files are written as before, by report and export (a new file, or one the tool wrote)', async () => {
    const r = await runInProcess(['report', '--db', db, '--out', 'report.txt', '--quiet'], { cwd: sub });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(readFileSync(join(sub, 'report.txt'), 'utf8')).toMatch(/^study +game +suits/);
    const e = await runInProcess(['export', '--csv', '--db', db, '--out', join(sub, 'report.txt'), '--quiet']);
    expect(e.status).toBe(0);
    expect(readFileSync(join(sub, 'report.txt'), 'utf8')).toMatch(/^study,name,/);
  });
});
