/**
 * Rough edges of the command line, in process: `--quiet` taken by every command; a word where a command
 * takes none, or one too many, named with what the command takes; `deal --from` without `--count`;
 * one position, not "1 positions"; every command's help ends with its exit codes; `npm run results --
 * merge` says its merge's refusals after `results:` as its other lines.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './helpers/cli.js';
import { makeLostDb } from './helpers/db.js';
import { runResults } from './helpers/results.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough10-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('--quiet is taken by every command', () => {
  it('deal, moves, play and studies take it; moves and play then keep the note on a non-ASCII deal off stderr', async () => {
    const db = join(dir, 'lost.sqlite');
    makeLostDb(db);
    expect(await runInProcess(['deal', '--seed', '7', '--game', 'spiderette', '--quiet'])).toMatchObject({ status: 0, stdout: 'SE4-7\n', stderr: '' });
    expect(await runInProcess(['studies', '--db', db, '--quiet'])).toMatchObject({ status: 0, stderr: '' });
    const wide = 'ＳＥ４-７';
    expect((await runInProcess(['moves', wide])).stderr).toMatch(/^spidersolve: note: read deal "ＳＥ４-７" as SE4-7: /);
    const moves = await runInProcess(['moves', wide, '--quiet']);
    expect([moves.status, moves.stderr]).toEqual([0, '']);
    expect(moves.stdout).toBe((await runInProcess(['moves', 'SE4-7'])).stdout);
    const play = await runInProcess(['play', wide, '5-2', '--quiet']);
    expect([play.status, play.stderr]).toEqual([0, '']);
    expect(play.stdout).toContain('played 1 move: 5-2');
  });
});

describe('a word more than the command takes', () => {
  it('is named, with what the command takes (report names a study with --study)', async () => {
    const cases: [string[], string][] = [
      [['report', 'pysol-sample'], 'unexpected argument "pysol-sample": report takes no arguments, only options; spidersolve report --help lists them'],
      [['deal', '5'], 'unexpected argument "5": deal takes no arguments, only options; spidersolve deal --help lists them'],
      [['show', 'SE4-7', 'extra'], 'unexpected argument "extra": show takes one argument, <deal>; spidersolve show --help lists its options'],
    ];
    for (const [args, message] of cases) expect(await runInProcess(args), args.join(' ')).toMatchObject({ status: 2, stdout: '', stderr: `spidersolve: ${message}\n` });
  });
});

describe('deal --from', () => {
  it('is the first seed of --count K; alone it is refused, naming --seed for one deal', async () => {
    expect(await runInProcess(['deal', '--from', '5'])).toMatchObject({ status: 2, stdout: '', stderr: 'spidersolve: option --from "5": only with --count K (the first of K seeds); one deal is --seed N\n' });
    expect(await runInProcess(['deal', '--from', '5', '--count', '2'])).toMatchObject({ status: 0, stdout: 'SP4-5\nSP4-6\n' });
  });
});

describe('hint within a budget of one position', () => {
  it('says "1 position"', async () => {
    expect(await runInProcess(['hint', 'SE4-7', '--max-positions', '1'])).toMatchObject({ status: 4, stdout: 'no hint: no win proven within 1 position (try --max-positions)\n' });
  });
});

describe('help', () => {
  it('ends with the exit codes on every command, under one heading', async () => {
    for (const name of ['deal', 'show', 'moves', 'play', 'completion', 'solve', 'hint', 'batch', 'report', 'export', 'studies', 'merge', 'view', 'blind']) {
      const help = (await runInProcess([name, '--help'])).stdout;
      expect(help, name).toMatch(/\nExit codes: 0 /);
      expect(help, name).not.toContain('Exit status');
      expect(help, name).not.toMatch(/\nExample:\n/);
    }
  });
});

describe('npm run results -- merge', () => {
  it('says the merge\'s refusal of an input after "results: merge ROW:", as its other lines', async () => {
    const notDb = join(dir, 'notes.txt');
    writeFileSync(notDb, 'not a database\n');
    const r = await runResults(['merge', 'spiderette1', notDb], join(dir, 'root'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^results: merge spiderette1: input ${notDb.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not an SQLite database; left untouched\n$`));
  }, 60_000);
});

describe.runIf(existsSync('/proc/1'))('a name that says another form, where the file cannot be written', () => {
  it('is one line, the error: the note on the extension comes only with a file written', async () => {
    const db = join(dir, 'lost-2.sqlite');
    makeLostDb(db);
    // a folder that exists, where no file can be made (Linux's /proc, even for root)
    const r = await runInProcess(['report', '--db', db, '--format', 'json', '--out', '/proc/1/r.md']);
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toContain('note:');
    const view = await runInProcess(['view', 'SE1-1', '--out', '/proc/1/v.txt']);
    expect(view.status).toBe(2);
    expect(view.stderr.trimEnd().split('\n')).toHaveLength(1);
    // written: the note, then the line that names the file
    const ok = await runInProcess(['report', '--db', db, '--format', 'json', '--out', join(dir, 'r.md')]);
    expect(ok.status).toBe(0);
    expect(ok.stderr.split('\n')[0]).toMatch(/^spidersolve: note: .*r\.md holds JSON, though its extension says Markdown$/);
    expect(ok.stderr.split('\n')[1]).toMatch(/^spidersolve: wrote .*r\.md: /);
  });
});
