/**
 * The batch, report and export commands as a user runs them, run in-process (test/helpers/cli.ts
 * runInProcess). Batches of fake outcomes use the test worker (SPIDERSOLVE_BATCH_WORKER). What needs a
 * whole process (signals, the real entry, another user) is in batch-cli-process.slow.test.ts and
 * batch-cli.slow.test.ts.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { parseBatchOptions, resumeCommand } from '../src/cli/batch.js';
import { REPORT_LEGEND } from '../src/report/text.js';
import { SCHEMA_VERSION } from '../src/batch/schema.js';
import { recordFromError, recordFromOutcome, ResultStore } from '../src/batch/store.js';
import { expectOneLineError, expectUnchanged, ROOT, runInProcess, snapshot, type Run } from './helpers/cli.js';
import { makeLostDb } from './helpers/db.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-cli-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI run in-process (test/helpers/cli.ts runInProcess), with this file's argument order. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runInProcess(args, { env });
}

describe('spidersolve batch: bad input', () => {
  it('bad options and bad deals files exit 2 with one line, the database untouched', async () => {
    const db = join(dir, 'keep.sqlite');
    makeLostDb(db);
    const before = snapshot(db);
    const deals = join(dir, 'deals.txt');
    writeFileSync(deals, 'SP2-1\n# comment\nSP3-1\n\nnot-a-deal\nSE4-7\n');
    const base = ['batch', '--db', db, '--max-positions', '100'];
    const cases: [string[], RegExp][] = [
      [['--game', 'klondike', '--suits', '1', '--seeds', '1-2'], /--game "klondike"/],
      [['--game', 'spider', '--suits', '1,3', '--seeds', '1-2'], /--suits "1,3": "3" is not a suit count/],
      [['--game', 'spider', '--suits', '1', '--seeds', '10-1'], /--seeds "10-1": the range 10-1 is empty/],
      [['--game', 'spider', '--suits', '1', '--seeds', '1-2', '--workers', '0'], /--workers "0"/],
      [['--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '20,000'], /--max-positions "20,000": write a budget without separators \(20000\); a comma separates the budgets of a ladder/],
      [['--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '1000,x'], /--max-positions "1000,x": budget "x": not a whole number/],
      // a ladder starting at 0 is told its budget 0 is out of range, not to drop a separator
      [['--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '0,100'], /--max-positions "0,100": budget "0": must be 1\.\.200000000\n$/],
      // a ladder that goes down is told so, not to drop separators
      [['--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '100,200,150'], /--max-positions "100,200,150": a ladder's budgets must increase \(200 then 150\)\n$/],
      [['--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '100,050'], /--max-positions "100,050": write a budget without separators \(100050\)/],
      // an empty --deals name is called empty (it named the working directory: "is a directory"), and a
      // name with spaces at its ends is quoted
      [['--deals', ''], /^spidersolve: --deals "": the file name is empty\n$/],
      [['--deals', ' none.txt'], /^spidersolve: --deals " none\.txt": no such file\n$/],
      [['--game', 'spider', '--suits', '1'], /exactly one of --seeds/],
      [['--deals', deals], /2 bad lines \(3, 5\), nothing was run: line 3: .*SP3-1.* line 5: .*not-a-deal/],
      [['--game', 'spider', '--suits', '1', '--seeds', '1-2', '--shard', '0/3', '--no-shard'], /^spidersolve: options --shard and --no-shard contradict each other/],
      [['--game', 'spider', '--suits', '1', '--seeds', '1-2', '--no-shard', '--shard', '0/3'], /^spidersolve: options --shard and --no-shard contradict each other/],
    ];
    // (a case that gives its own --max-positions runs without the base's: an option given twice with
    // two values is refused as such)
    const runs = await Promise.all(cases.map(([args]) => cli([...(args.includes('--max-positions') ? base.slice(0, 3) : base), ...args])));
    runs.forEach((r, i) => expectOneLineError(r, cases[i]![1]));
    expectUnchanged(db, before);
  });

  it('a study name with control characters exits 2 with one line naming --study and the fault, escaped; nothing created', async () => {
    const db = join(dir, 'ctl', 'never.sqlite');
    const r = await cli(['batch', '--db', db, '--game', 'spider', '--suits', '1', '--seeds', '1', '--max-positions', '100', '--study', 'a\tb\x1b[31mc']);
    expect(r).toEqual({
      status: 2, signal: null, stdout: '',
      stderr: 'spidersolve: option --study "a\\u{9}b\\u{1b}[31mc": control characters are not allowed in a study name (\\u{9}, \\u{1b}); use printable characters only\n',
    });
    expect(() => statSync(join(dir, 'ctl'))).toThrow(/ENOENT/);
    const opts = { db, game: 'spider', suits: '1', seeds: '1' };
    for (const bad of ['x\ny', 'del\x7f', 'c1\u0085']) {
      expect(() => parseBatchOptions({ ...opts, study: bad })).toThrow(/^option --study ".*": control characters are not allowed in a study name \(\\u\{[0-9a-f]+\}\); use printable characters only$/);
    }
    for (const bad of ['bidi\u202eevil', 'zw\u200bsp', 'sep\u2028x', 'filler\u3164x', 'cgj\u034fx']) {
      expect(() => parseBatchOptions({ ...opts, study: bad })).toThrow(/^option --study ".*": invisible characters are not allowed in a study name \(\\u\{[0-9a-f]+\}\); use printable characters only$/);
    }
    expect(() => parseBatchOptions({ ...opts, study: 'a\tb\u200bc' })).toThrow('control and invisible characters are not allowed in a study name (\\u{9}, \\u{200b})');
    expect(() => parseBatchOptions({ ...opts, study: 'x'.repeat(201) })).toThrow('the name is 201 characters long; at most 200 are allowed');
    expect(() => parseBatchOptions({ ...opts, study: '  ' })).toThrow('option --study "  ": the name is empty');
    for (const good of ['étude 1 (Ω) — 4 suits, 1M', 'a+b/c:d@e', 'x'.repeat(200)]) expect(parseBatchOptions({ ...opts, study: good }).study).toBe(good);
    // a name given to report is printed escaped too
    const one = join(dir, 'ctl-report.sqlite');
    const st = ResultStore.openForWriting(one);
    st.ensureStudy('st', { game: 'spider', suits: '1', dealsSpec: 'seeds:1-3', maxPositions: 100 });
    st.close();
    const rep = await cli(['report', '--db', one, '--study', 'no\x1bpe']);
    expect(rep.status).toBe(2);
    expect(rep.stderr).toMatch(/^spidersolve: option --study: no study "no\\u\{1b\}pe" in /);
  });

  it('a study of a deals file run on a copy of the file elsewhere is told the study names its file by its absolute path', async () => {
    const db = join(dir, 'moved.sqlite');
    mkdirSync(join(dir, 'a'), { recursive: true });
    mkdirSync(join(dir, 'b'), { recursive: true });
    writeFileSync(join(dir, 'a', 'x.txt'), 'SP1-1\nSP2-2\n');
    writeFileSync(join(dir, 'b', 'x.txt'), 'SP1-1\nSP2-2\n');
    const first = await cli(['batch', '--db', db, '--deals', join(dir, 'a', 'x.txt'), '--max-positions', '500', '--study', 'moved']);
    expect(first.status).toBe(0);
    const r = await cli(['batch', '--db', db, '--deals', join(dir, 'b', 'x.txt'), '--max-positions', '500', '--study', 'moved']);
    expectOneLineError(r, /with other parameters: deals "file:.*\/a\/x\.txt" there, "file:.*\/b\/x\.txt" in this run; a study names its deals file by its absolute path: give --deals .*\/a\/x\.txt, or choose another --study name \(a new study reuses every result stored for the same deals and budget; report --pool combines studies\)\n/);
    // the same file with another budget, or a filter that changes the plan: told what differs, no hint about the path
    const budget = await cli(['batch', '--db', db, '--deals', join(dir, 'a', 'x.txt'), '--max-positions', '600', '--study', 'moved']);
    expectOneLineError(budget, /with other parameters: budgets \[500\] there, \[600\] in this run; choose another --study name \(a new study reuses every result stored for the same deals and budget; report --pool combines studies\)\n/);
    const filtered = await cli(['batch', '--db', db, '--deals', join(dir, 'a', 'x.txt'), '--suits', '2', '--max-positions', '500', '--study', 'moved']);
    expect(filtered.stderr).toMatch(/with other parameters: suits any there, "2" in this run; choose another --study name \(a new study reuses every result stored for the same deals and budget; report --pool combines studies\)\n/);
  });

  it('a study name used with other parameters exits 2 naming what differs, the database byte for byte untouched', async () => {
    const db = join(dir, 'clash.sqlite');
    const first = await cli(['batch', '--db', db, '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '500', '--study', 'mine']);
    expect(first.status).toBe(0);
    const before = snapshot(db);
    const r = await cli(['batch', '--db', db, '--game', 'spider', '--suits', '2', '--seeds', '1-2', '--max-positions', '500', '--study', 'mine']);
    expectOneLineError(r, /study "mine" exists in .* with other parameters: suits "1" there, "2" in this run; choose another --study name \(a new study reuses every result stored for the same deals and budget; report --pool combines studies\)\n/);
    expectUnchanged(db, before);
    // the same parameters resume: nothing left to run
    const again = await cli(['batch', '--db', db, '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '500', '--study', 'mine']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/2 already settled, 0 run now/);
  });

  it('a truncated database file: report, studies, export and merge exit 2 naming it, nothing written', async () => {
    const db = join(dir, 'whole.sqlite');
    const s = ResultStore.openForWriting(db);
    // enough results for many pages: a truncated copy keeps its header and loses rows
    const recs = planSeeds('spider', [2], [{ from: 1, to: 400 }]).map((d) => recordFromOutcome(d, 100, {
      key: d.key, status: 'won', positions: 5, elapsedMs: 1, line: '1-2 '.repeat(60).trim(), moveCount: 60, classicScore: 500,
      revealScore: 1, peakBytes: 0, solverVersion: '1.0.0', workerMs: 1,
    }));
    const st = s.ensureStudy('st', { game: 'spider', suits: '2', dealsSpec: 'seeds:1-400', maxPositions: 100 });
    s.writeResults(null, recs, st, recs.map((r, i) => ({ deal: r.deal, ord: i, name: r.code })));
    s.close();
    const cut = join(dir, 'cut.sqlite');
    writeFileSync(cut, readFileSync(db).subarray(0, 16384));
    const before = snapshot(cut);
    const damaged = /^spidersolve: database .*cut\.sqlite is damaged \(SQLite: database disk image is malformed\); restore it from a copy/;
    const csvOut = join(dir, 'cut.csv');
    for (const args of [['report'], ['studies'], ['export', '--csv'], ['export', '--csv', '--out', csvOut], ['batch', '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '100']]) {
      const r = await cli([...args, '--db', cut]);
      expectOneLineError(r, damaged);
      expectUnchanged(cut, before);
    }
    expect(() => statSync(csvOut)).toThrow();
    const into = join(dir, 'merged-from-cut.sqlite');
    expectOneLineError(await cli(['merge', cut, '--into', into]), /^spidersolve: merge: input .*cut\.sqlite: the file is damaged \(SQLite: database disk image is malformed\); nothing was written to .*merged-from-cut\.sqlite/);
    expect(() => statSync(into)).toThrow();
    expectUnchanged(cut, before);
  });

  it('a database with a table or column gone (dropped by hand): every command exits 2 naming what is missing, nothing written', async () => {
    const db = join(dir, 'whole-schema.sqlite');
    const s = ResultStore.openForWriting(db);
    s.ensureStudy('st', { game: 'spider', suits: '1', dealsSpec: 'seeds:1-2', maxPositions: 100 });
    s.close();
    const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const cases: [string, string, string][] = [
      ['no-names.sqlite', 'DROP TABLE deal_names', 'table deal_names is missing'],
      ['no-positions.sqlite', 'ALTER TABLE results RENAME COLUMN positions TO pos2', 'column positions of table results is missing'],
    ];
    for (const [name, sql, missing] of cases) {
      const bad = join(dir, name);
      copyFileSync(db, bad);
      const w = new Database(bad);
      w.exec(sql);
      w.close();
      const before = snapshot(bad);
      const why = esc(`is damaged (${missing}); left untouched; restore it from a copy`);
      for (const args of [['report'], ['studies'], ['export', '--csv'], ['batch', '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '100']]) {
        expectOneLineError(await cli([...args, '--db', bad]), new RegExp(`^spidersolve: database ${esc(bad)}: ${why}\n$`));
        expectUnchanged(bad, before);
      }
      const into = join(dir, `into-${name}`);
      expectOneLineError(await cli(['merge', bad, '--into', into]), new RegExp(`^spidersolve: merge: input ${esc(bad)}: ${why}\n$`));
      expect(() => statSync(into)).toThrow();
      const target = join(dir, `target-${name}`);
      copyFileSync(bad, target);
      const targetBefore = snapshot(target);
      expectOneLineError(await cli(['merge', db, '--into', target]), new RegExp(`^spidersolve: merge: target ${esc(target)} \\(--into\\): ${why}\n$`));
      expectUnchanged(target, targetBefore);
    }
  });

  it('long option values and odd paths are quoted short in the one-line error: cut around … with their length, an empty or unprintable path in quotes', async () => {
    const long = 'x'.repeat(100);
    const cut = '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxx…xxxxxxxxxx" (100 characters)';
    const db = join(dir, 'never-long.sqlite');
    const base = ['batch', '--db', db, '--game', 'spider', '--suits', '1'];
    expectOneLineError(await cli([...base, '--seeds', '1', '--shard', long]), new RegExp(`^spidersolve: option --shard ${cut.replace(/[()]/g, '\\$&')}: use K/N`));
    expectOneLineError(await cli([...base, '--seeds', long]), new RegExp(`^spidersolve: option --seeds ${cut.replace(/[()]/g, '\\$&')}: not a seed or a range like 1-1000\n$`));
    expectOneLineError(await cli(['report', '--db', db, '--format', long]), new RegExp(`^spidersolve: option --format ${cut.replace(/[()]/g, '\\$&')}: use table`));
    expectOneLineError(await cli(['report', '--db', join(dir, 'a\nb.sqlite')]), /^spidersolve: database ".*a\?b\.sqlite": no such file/);
    expectOneLineError(await cli(['merge', '--into', join(dir, 'never-merged.sqlite'), '']), /^spidersolve: merge: input "": the file name is empty\n$/);
    expect(() => statSync(db)).toThrow();
  });

  it('a study named in another Unicode form (e and a combining accent, or é) is the same study: report finds it, batch resumes it', async () => {
    const db = join(dir, 'nfc.sqlite');
    const base = ['batch', '--db', db, '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--max-positions', '2000'];
    expect((await cli([...base, '--study', 'Cafe\u0301'])).status).toBe(0);
    const report = await cli(['report', '--db', db, '--study', 'Caf\u00e9', '--format', 'json']);
    expect(report.status).toBe(0);
    expect(JSON.parse(report.stdout).map((r: { study: string; deals: number }) => [r.study, r.deals])).toEqual([['Cafe\u0301', 2]]);
    // --json is --format json; with another --format it is refused, and export points to report
    const viaJson = await cli(['report', '--db', db, '--study', 'Caf\u00e9', '--json']);
    expect([viaJson.status, viaJson.stdout]).toEqual([0, report.stdout]);
    expectOneLineError(await cli(['report', '--db', db, '--json', '--format', 'md']), /^spidersolve: options --json and --format "md": --json is --format json; give one\n$/);
    expectOneLineError(await cli(['export', '--db', db, '--json']), /^spidersolve: export: --json is not an export format \(export writes CSV only\); for the report rows as JSON use spidersolve report --format json\n$/);
    const again = await cli([...base, '--study', 'Caf\u00e9', '--json']);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout).study).toBe('Cafe\u0301');
    const conn = new Database(db, { readonly: true });
    expect(conn.prepare('SELECT name FROM studies').pluck().all()).toEqual(['Cafe\u0301']);
    conn.close();
  });

  it('batch --json report rows are report --json\'s, partial included: true for a shard\'s database, false for a whole study', async () => {
    const shardDb = join(dir, 'json-partial-shard.sqlite');
    const args = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-4', '--max-positions', '2000', '--workers', '1', '--json'];
    const shard = await cli([...args, '--shard', '1/2', '--db', shardDb]);
    expect(shard.status).toBe(0);
    const rows = JSON.parse(shard.stdout).report;
    expect(rows.map((r: { deals: number; partial: boolean }) => [r.deals, r.partial])).toEqual([[2, true]]);
    const report = await cli(['report', '--db', shardDb, '--json']);
    expect(JSON.parse(report.stdout)).toEqual(rows);
    const wholeDb = join(dir, 'json-partial-whole.sqlite');
    const whole = await cli([...args, '--db', wholeDb]);
    expect(JSON.parse(whole.stdout).report.map((r: { deals: number; partial: boolean }) => [r.deals, r.partial])).toEqual([[4, false]]);
  });

  it('a Slurm array task resubmitted on its own (an array of one task: shard 0/1) is refused on its shard\'s database, naming the shard; --shard K/N resumes it', async () => {
    const db = join(dir, 'slurm', 'shard-2.sqlite');
    const args = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-80', '--max-positions', '2000', '--workers', '1', '--db', db];
    const array = { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '3', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_STEP: '1' };
    const first = await cli(args, array);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain("shard 2/4 (Slurm job array: SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_MAX=3, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_STEP=1): 20 of the study's 80 deals");
    const before = snapshot(db);
    // sbatch --array=2 sets an array of one task
    const again = await cli(args, { ...array, SLURM_ARRAY_TASK_MIN: '2', SLURM_ARRAY_TASK_MAX: '2', SLURM_ARRAY_TASK_COUNT: '1' });
    expect(again.status).toBe(2);
    expect(again.stderr.split('\n').filter(Boolean).at(-1)).toMatch(/^spidersolve: database .*shard-2\.sqlite holds 20 deals of study "spiderette-1-seeds-1-80-at-2k-positions", all of one shard of 4 \(shard 2\/4\), but this run is shard 0\/1, 4 times as many deals: .* e\.g\. --shard 2\/4\), or use another --db; nothing was run$/);
    expectUnchanged(db, before);
    const resumed = await cli([...args, '--shard', '2/4'], { ...array, SLURM_ARRAY_TASK_MIN: '2', SLURM_ARRAY_TASK_MAX: '2', SLURM_ARRAY_TASK_COUNT: '1' });
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toMatch(/deals 20: 20 already settled, 0 run now/);
  });

  it('a job array resubmitted with another shard count is refused on a shard\'s database that holds deals outside its new shard', async () => {
    const db = join(dir, 'slurm-other', 'shard-1.sqlite');
    const args = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-80', '--max-positions', '2000', '--workers', '1', '--db', db];
    const array = { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '3', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_STEP: '1' };
    expect((await cli(args, array)).status).toBe(0);
    const before = snapshot(db);
    // sbatch --array=1-3:2 (tasks 1 and 3 of the four again): task 1 reads as shard 0/2, whose deals are none of shard 1/4's
    const stepped = await cli(args, { ...array, SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '3', SLURM_ARRAY_TASK_COUNT: '2', SLURM_ARRAY_TASK_STEP: '2' });
    expect(stepped.status).toBe(2);
    expect(stepped.stderr.split('\n').filter(Boolean).at(-1)).toMatch(
      /^spidersolve: database .*shard-1\.sqlite holds 20 deals of study "spiderette-1-seeds-1-80-at-2k-positions", all of one shard of 4 \(shard 1\/4\), of which 20 are not in this run's shard 0\/2: .*give --shard K\/N \(the shard this database was written with, e\.g\. --shard 1\/4\), or use another --db; nothing was run$/,
    );
    expectUnchanged(db, before);
    // a Kubernetes Indexed Job whose --shard-count changed from 4 to 3: pod 1 is shard 1/3
    const pod = await cli([...args.slice(0, -2), '--shard-count', '3', '--db', db], { JOB_COMPLETION_INDEX: '1' });
    expect(pod.status).toBe(2);
    expect(pod.stderr).toMatch(/of which \d+ are not in this run's shard 1\/3: /);
    expectUnchanged(db, before);
    // the same array resumes
    const resumed = await cli(args, array);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toMatch(/deals 20: 20 already settled, 0 run now/);
  });

  it('a shard whose deals file grew since (lines added at its end) is not refused: the split is of another length', async () => {
    const sub = join(dir, 'slurm-grown');
    mkdirSync(sub, { recursive: true });
    const list = join(sub, 'list.txt');
    writeFileSync(list, Array.from({ length: 40 }, (_, i) => `SE1-${i + 1}\n`).join(''));
    const db = join(sub, 'shard-1.sqlite');
    const args = ['batch', '--deals', list, '--max-positions', '2000', '--workers', '1', '--db', db];
    const array = { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '3', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_STEP: '1' };
    expect((await cli(args, array)).status).toBe(0);
    writeFileSync(list, Array.from({ length: 44 }, (_, i) => `SE1-${i + 1}\n`).join(''));
    const grown = await cli(args, array);
    expect(grown.status, grown.stderr).toBe(0);
    expect(grown.stderr).toContain("spidersolve: shard 1/4 (Slurm job array: SLURM_ARRAY_TASK_ID=1, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_MAX=3, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_STEP=1): 11 of the study's 44 deals");
  });

  it('the shard check is exact below 20 deals: one deal of another shard is enough to refuse', async () => {
    const db = join(dir, 'slurm-few', 'shard-0.sqlite');
    const args = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-8', '--max-positions', '2000', '--workers', '1', '--db', db];
    const first = await cli(args, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '1', SLURM_ARRAY_TASK_COUNT: '2', SLURM_ARRAY_TASK_STEP: '1' });
    expect(first.status).toBe(0);
    const before = snapshot(db);
    const other = await cli(args, { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '1', SLURM_ARRAY_TASK_COUNT: '2', SLURM_ARRAY_TASK_STEP: '1' });
    expect(other.status).toBe(2);
    expect(other.stderr.split('\n').filter(Boolean).at(-1)).toMatch(/^spidersolve: database .*shard-0\.sqlite holds 4 deals of study "spiderette-1-seeds-1-8-at-2k-positions" of which 4 are not in this run's shard 1\/2: .*\(the shard this database was written with, as its run printed it\), or use another --db; nothing was run$/);
    expectUnchanged(db, before);
  });

  it('report --out on a full disk (/dev/full) exits 2 naming the fault, in every format, instead of reporting nothing wrong', async () => {
    const db = join(dir, 'full.sqlite');
    expect((await cli(['batch', '--db', db, '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--max-positions', '2000'])).status).toBe(0);
    for (const format of ['md', 'csv', 'json', 'html']) {
      expectOneLineError(await cli(['report', '--db', db, '--format', format, '--out', '/dev/full']), /^spidersolve: option --out "\/dev\/full": cannot write it \(ENOSPC: no space left on device, write\); nothing was written there\n$/);
    }
  });

  it('--deals - reads the deals from standard input, as /dev/stdin does', async () => {
    const db = join(dir, 'dash.sqlite');
    const out = await runInProcess(['batch', '--deals', '-', '--db', db, '--max-positions', '2000', '--json'], { stdin: 'SE1-1\nSE1-2\n' });
    expect(out.status).toBe(0);
    const o = JSON.parse(out.stdout);
    expect([o.study, o.planned, o.won]).toEqual(['stdin-at-2k-positions', 2, 2]);
    // (stopped by a signal, it says the deals must come on standard input again: batch-cli-process.slow.test.ts)
  });

  it('--deals - is named "- (standard input)" in messages (it was /dev/stdin); its study is planned from file:/dev/stdin as before', async () => {
    const db = join(dir, 'dash-named.sqlite');
    const run = (input: string) => runInProcess(['batch', '--deals', '-', '--db', db, '--max-positions', '2000'], { stdin: input });
    const bad = await run('SE1-1\nSP1-zz\n');
    expect([bad.status, bad.stdout, bad.stderr]).toEqual([2, '', 'spidersolve: --deals - (standard input): 1 bad line (2), nothing was run: line 2: deal code "SP1-zz": the seed "zz" is not a whole number 0..4294967295 in digits\n']);
    expect((await run('# none\n')).stderr).toBe('spidersolve: --deals - (standard input): no deal in the file\n');
    expect((await run('SE1-1\u0000')).stderr).toMatch(/^spidersolve: --deals - \(standard input\): not a text file \(a zero byte at line 1\)/);
    expect(() => statSync(db)).toThrow(/ENOENT/);
    // stored as before, so a study run from standard input earlier resumes
    expect((await run('SE1-1\n')).status).toBe(0);
    const studies = JSON.parse((await cli(['studies', '--db', db, '--json'])).stdout);
    expect(studies.map((st: { name: string; deals: string; suits: unknown }) => [st.name, st.deals, st.suits])).toEqual([['stdin-at-2k-positions', 'file:/dev/stdin', null]]);
  });

  it('a path ending in / names a folder: --db, merge --into and --out are refused with one line, nothing created', async () => {
    const folder = (name: string) => join(dir, name) + '/';
    expectOneLineError(await cli(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--max-positions', '2000', '--db', folder('dbdir')]), /^spidersolve: database .*dbdir\/: ends in \/, so it names a folder; give a file name \(such as .*dbdir\/results\.sqlite\)\n$/);
    expectOneLineError(await cli(['report', '--db', folder('dbdir')]), /ends in \/, so it names a folder/);
    const db = join(dir, 'slash.sqlite');
    expect((await cli(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--max-positions', '2000', '--db', db])).status).toBe(0);
    expectOneLineError(await cli(['merge', db, '--into', folder('mergedir')]), /^spidersolve: merge: target .*mergedir\/ \(--into\): ends in \/, so it names a folder/);
    expectOneLineError(await cli(['report', '--db', db, '--out', folder('outdir')]), /^spidersolve: option --out ".*outdir\/": ends in \/, so it names a folder; give a file name\n$/);
    for (const name of ['dbdir', 'mergedir', 'outdir']) expect(() => statSync(join(dir, name))).toThrow(/ENOENT/);
  });

  it('a deals file that is a character device is read like a file: /dev/null holds no deal, /dev/zero is not text (exit 2, one line, nothing created)', async () => {
    const db = join(dir, 'device.sqlite');
    expectOneLineError(await cli(['batch', '--deals', '/dev/null', '--db', db]), /^spidersolve: --deals \/dev\/null: no deal in the file\n$/);
    expectOneLineError(await cli(['batch', '--deals', '/dev/zero', '--db', db]), /^spidersolve: --deals \/dev\/zero: not a text file \(a zero byte at line 1\)/);
    expect(() => statSync(db)).toThrow();
  });

  it('a deals file changed since its study was planned exits 2 naming the first deal that differs, untouched; lines added at the end run', async () => {
    const db = join(dir, 'edited.sqlite');
    const deals = join(dir, 'edited.txt');
    writeFileSync(deals, 'SP1-1\nSP1-2\nSP1-3\n');
    const base = ['batch', '--db', db, '--deals', deals, '--max-positions', '500'];
    const first = await cli(base);
    expect(first.status).toBe(0);
    const before = snapshot(db);
    // a line changed and one added: refused before anything is written
    writeFileSync(deals, 'SP1-1\nSP1-5\nSP1-3\nSP1-7\n');
    expectOneLineError(await cli(base), /study "edited-at-500-positions" in .*: its deals changed since it was planned: deal 2 of the plan was SP1-2, the list now gives SP1-5; .*another --study name \(nothing was written\)\n$/);
    expectUnchanged(db, before);
    // lines removed: refused too
    writeFileSync(deals, 'SP1-1\n');
    expectOneLineError(await cli(base), /deal 2 of the plan was SP1-2, the list now ends at 1 \(2 planned deals differ\)/);
    expectUnchanged(db, before);
    // a line added at the end: the three are settled, the new one runs
    writeFileSync(deals, 'SP1-1\nSP1-2\nSP1-3\nSP1-4\n');
    const grown = await cli(base);
    expect(grown.status).toBe(0);
    expect(grown.stdout).toMatch(/deals 4: 3 already settled, 1 run now/);
  });

  it('a position file of a planned study that now holds another deal is named as such; a study of standard input is told to take a --study name of its own', async () => {
    const db = join(dir, 'posfile.sqlite');
    const pos = join(dir, 'posfile-deal.txt');
    const deals = join(dir, 'posfile.txt');
    const show = async (code: string) => {
      const r = await cli(['show', code, '--format', 'position']);
      expect(r.status).toBe(0);
      return r.stdout;
    };
    writeFileSync(pos, await show('SP1-1'));
    writeFileSync(deals, `SP1-2\n${pos}\n`);
    const base = ['batch', '--db', db, '--deals', deals, '--max-positions', '500'];
    expect((await cli(base)).status).toBe(0);
    const before = snapshot(db);
    writeFileSync(pos, await show('SP1-3'));
    expectOneLineError(await cli(base), /: its deals changed since it was planned: deal 2 of the plan was file:.*posfile-deal\.txt, the list still names it, but the file now holds another deal; lines may be added at the end, not changed, removed or reordered: restore the list, or give another --study name \(nothing was written\)\n$/);
    expectUnchanged(db, before);
    // two lists piped in, one default study name
    const piped = (input: string, extra: string[] = []) => runInProcess(['batch', '--db', db, '--deals', '-', '--max-positions', '500', ...extra], { stdin: input });
    expect((await piped('SP1-1\n')).status).toBe(0);
    const before2 = snapshot(db);
    expectOneLineError(await piped('SP1-4\n'), /study "stdin-at-500-positions" in .*: its deals changed since it was planned: deal 1 of the plan was SP1-1, the list now gives SP1-4; a study of deals read from standard input keeps the deals it was planned with: give this list its own --study name \(nothing was written\)\n$/);
    expectUnchanged(db, before2);
    expect((await piped('SP1-4\n', ['--study', 'second list'])).status).toBe(0);
  });

  it('a foreign, unreadable or newer database file exits 2 naming it, untouched', async () => {
    const text = join(dir, 'x.sqlite');
    writeFileSync(text, 'this is a text file\n');
    const foreign = join(dir, 'foreign.sqlite');
    const f = new Database(foreign);
    f.exec('CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES (\'mine\')');
    f.close();
    const newer = join(dir, 'newer.sqlite');
    ResultStore.openForWriting(newer).close();
    const n = new Database(newer);
    n.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    n.close();
    const files: [string, RegExp][] = [[text, /not an SQLite database/], [foreign, /not a spidersolve results database/], [newer, /newer than this spidersolve/]];
    const before = files.map(([p]) => snapshot(p));
    const runs = await Promise.all([
      ...files.map(([p]) => cli(['batch', '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--db', p])),
      cli(['report', '--db', text]),
    ]);
    runs.slice(0, 3).forEach((r, i) => {
      expectOneLineError(r, files[i]![1]);
      expect(r.stderr).toContain(files[i]![0]);
    });
    expectOneLineError(runs[3]!, /not an SQLite database/);
    files.forEach(([p], i) => expectUnchanged(p, before[i]!));
  });

  it('an empty database file (0 bytes): report, studies, export and view --solve exit 2 saying so, as merge does, the file byte for byte untouched', async () => {
    // they read it as a database with no results before ("no results", exit 0), where merge refused it
    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    const before = snapshot(empty);
    const out = join(dir, 'from-empty.csv');
    const refusal = new RegExp(`^spidersolve: database ${empty}: an empty file, not a spidersolve results database; left untouched \\(run spidersolve batch first, or give another --db\\)\n$`);
    for (const args of [['report'], ['report', '--format', 'json'], ['studies'], ['studies', '--json'], ['export', '--csv'], ['export', '--csv', '--summary', '--out', out], ['view', 'SE1-1', '--solve', '--out', join(dir, 'from-empty.html')]]) {
      expectOneLineError(await cli([...args, '--db', empty]), refusal);
      expectUnchanged(empty, before);
    }
    for (const f of [out, join(dir, 'from-empty.html'), `${empty}-wal`, `${empty}-shm`, `${empty}-journal`]) expect(() => statSync(f)).toThrow(/ENOENT/);
    expectOneLineError(await cli(['merge', empty, '--into', join(dir, 'from-empty.sqlite')]), /^spidersolve: merge: input .*empty\.sqlite: an empty file, not a spidersolve results database\n$/);
    expectUnchanged(empty, before);
    // a batch still takes an empty file as a new database (a file made ready for it, e.g. by mktemp)
    const r = await cli(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1', '--max-positions', '2000', '--db', empty]);
    expect(r.status).toBe(0);
    expect((await cli(['studies', '--db', empty])).stdout).toMatch(/^spiderette-1-seeds-1-at-2k-positions\n/);
  });

  it('an unwritable database directory is a one-line error', async () => {
    const plain = join(dir, 'plain-file');
    writeFileSync(plain, 'x');
    const runs = [cli(['batch', '--game', 'spider', '--suits', '1', '--seeds', '1', '--db', join(plain, 'data', 'r.sqlite')])];
    const ro = join(dir, 'ro');
    const rootUser = process.getuid?.() === 0; // root writes anywhere: the chmod case cannot be shown
    if (!rootUser) {
      mkdirSync(ro);
      chmodSync(ro, 0o555);
      runs.push(cli(['batch', '--game', 'spider', '--suits', '1', '--seeds', '1', '--db', join(ro, 'r.sqlite')]));
    }
    const done = await Promise.all(runs);
    for (const r of done) expectOneLineError(r, /cannot create (directory|it, directory .* is not writable)/);
    if (!rootUser) chmodSync(ro, 0o755);
  });
});

describe('the resume command', () => {
  it('repeats the arguments, shell-quoted, after npx spidersolve', () => {
    expect(resumeCommand(['batch', '--deals', 'my deals.txt', '--study', "it's"])).toBe(`npx spidersolve batch --deals 'my deals.txt' --study 'it'\\''s'`);
    expect(resumeCommand(['batch', '--seeds', '1-10'])).toBe('npx spidersolve batch --seeds 1-10');
    expect(resumeCommand(['batch', '--seeds', '1-10', '--db', 'shards/shard-0.sqlite'], '0/2')).toBe('npx spidersolve batch --seeds 1-10 --db shards/shard-0.sqlite --shard 0/2');
    // from a folder inside the project too; from one outside it, npx would look in npm's registry:
    // the project's own bin, by its path
    expect(resumeCommand(['batch', '--seeds', '1-10'], null, join(ROOT, 'data'), '')).toBe('npx spidersolve batch --seeds 1-10');
    expect(resumeCommand(['batch', '--seeds', '1-10'], null, dir, '')).toBe(`node ${join(ROOT, 'bin', 'spidersolve.js')} batch --seeds 1-10`);
    // run by npm run from another folder (INIT_CWD): npm ran it in the project's folder, whose
    // relative paths the arguments are, so the command goes there first
    expect(resumeCommand(['batch', '--deals', 'data/pysol-sample.txt'], null, ROOT, join(ROOT, 'src'))).toBe(`cd ${ROOT} && npx spidersolve batch --deals data/pysol-sample.txt`);
    expect(resumeCommand(['batch', '--seeds', '1-10'], null, ROOT, ROOT)).toBe('npx spidersolve batch --seeds 1-10');
  });
});

describe('spidersolve batch --deals with --game/--suits', () => {
  it('runs the deals that pass the filter and says how many of the file it left out', async () => {
    const file = join(dir, 'mixed-deals.txt');
    writeFileSync(file, 'SE4-1\nSP2-1\nSE4-2\nSE1-1\n');
    const env = { SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1' };
    const db = join(dir, 'filtered.sqlite');
    const t = await cli(['batch', '--deals', file, '--game', 'spiderette', '--suits', '4', '--max-positions', '77', '--workers', '1', '--db', db], env);
    expect(t.status).toBe(0);
    expect(t.stdout).toMatch(/deals 2: 0 already settled, 2 run now in .*, 0 left; 2 lines of other games or suit counts in the file left out/);
    const j = await cli(['batch', '--deals', file, '--suits', '2', '--max-positions', '77', '--workers', '1', '--db', db, '--json'], env);
    expect(JSON.parse(j.stdout)).toMatchObject({ planned: 1, leftOut: 3, duplicates: 0 });
    // a deal on two lines is planned once, and the summary says so
    const dup = join(dir, 'dup-deals.txt');
    writeFileSync(dup, 'SE4-1\nSE4-2\nSE4-1\nSE4-3\nSE4-2\n');
    const d = await cli(['batch', '--deals', dup, '--max-positions', '77', '--workers', '1', '--db', db], env);
    expect(d.status).toBe(0);
    expect(d.stdout).toMatch(/^  deals 3: 2 already settled, 1 run now in .*, 0 left; 2 duplicate lines of the file merged \(the same deal twice is planned once\)$/m);
  });
});

describe('spidersolve batch --until-width far from its width', () => {
  it('says on stderr after 200, 500 and 1,000 deals that the band cannot get below a width under the share undecided', async () => {
    const env = { SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1' };
    const db = join(dir, 'width-note.sqlite');
    const r = await cli(['batch', '--game', 'spider', '--suits', '4', '--seeds', '1-1001', '--until-width', '0.01', '--max-positions', '77', '--workers', '1', '--db', db], env);
    expect(r.status).toBe(0);
    // fake outcomes of every 4 seeds: 2 won, 1 lost, 1 undecided; the band tends to 25%, never below 0.01
    const note = (n: number) => `spidersolve: note: --until-width 0.01: after ${n.toLocaleString('en-US')} deals, at the current rates (spider 4 suits: won 50%, lost 25%, undecided or error 25% of ${n.toLocaleString('en-US')}) ` +
      'the band cannot get below 0.01: it narrows towards the share undecided or error, 25%; a larger --max-positions settles more deals; Ctrl-C stops it (resumable)\n';
    // and, at the end of its closed range, that the rule was not met
    expect(r.stderr).toMatch(new RegExp(`^${(note(200) + note(500) + note(1000)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}spidersolve: note: the plan's 1,001 deals ran out before --until-width 0\\.01 was met: after 1,001 deals the band .* \\(spider 4 suits\\)\\n$`));
    expect(r.stdout).toMatch(/^  deals 1001: 0 already settled, 1001 run now/m);
  });
});

describe('spidersolve batch --seeds N- --until-width that runs out of seeds', () => {
  it('ends with one note line on stderr saying the seeds ran out at 4294967295, exit 0; studies shows it on the run', async () => {
    const db = join(dir, 'ran-out.sqlite');
    const args = ['batch', '--game', 'spiderette', '--suits', '4', '--seeds', '4294967290-', '--until-width', '0.01', '--max-positions', '100', '--workers', '1', '--db', db];
    const r = await cli(args);
    expect(r.status).toBe(0);
    // at 100 positions every deal is undecided: floor 0/6 (low 0), ceiling 6/6 (high 1), band 1
    const why = "seeds ran out at 4294967295 (the largest seed) before --until-width 0.01 was met: after 6 deals the band from the floor's 95% lower bound to the ceiling's 95% upper bound is 1.0000 (spiderette 4 suits)";
    expect(r.stderr).toBe(`spidersolve: note: ${why}\n`);
    // the seeds ran out: the plan is the 6 deals it went through, none left
    expect(r.stdout).toMatch(/^  deals 6: 0 already settled, 6 run now in .*, 0 left$/m);
    const j = await cli([...args, '--json']);
    expect(j.status).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({ seedsRanOut: why, stopReason: null, ran: 0, skipped: 6 });
    const st = await cli(['studies', '--db', db]);
    expect(st.stdout).toContain(`stored 6 (errors 0); ${why}\n`);
  });
});

describe('spidersolve batch --workers', () => {
  it('more workers than CPUs: a note that they add memory, not speed; the batch runs', async () => {
    const db = join(dir, 'workers.sqlite');
    const env = { SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1' };
    const cpus = availableParallelism();
    const b = await cli(['batch', '--game', 'spiderette', '--suits', '4', '--seeds', `1-${cpus + 1}`, '--max-positions', '77', '--workers', String(cpus + 1), '--db', db], env);
    expect(b.status).toBe(0);
    expect(b.stderr).toContain(`spidersolve: note: --workers ${cpus + 1} is more than this machine's ${cpus} CPU${cpus === 1 ? '' : 's'}: the extra workers add memory (up to a table of the budget each), not speed\n`);
    const one = await cli(['batch', '--game', 'spiderette', '--suits', '4', '--seeds', '5-6', '--max-positions', '77', '--workers', '1', '--db', db], env);
    expect(one.stderr).not.toContain('note: --workers');
  });
});

describe('spidersolve report and export', () => {
  it('prints the report in each format and exports RFC 4180 CSV', async () => {
    const db = join(dir, 'rep.sqlite');
    const env = { SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1' };
    const b = await cli(['batch', '--game', 'spiderette', '--suits', '4', '--seeds', '1-8', '--max-positions', '77', '--workers', '1', '--db', db], env);
    expect(b.status).toBe(0);
    expect(b.stdout).toMatch(/won 4, lost 2, undecided 2, errors 0/);
    expect(b.stdout).toMatch(/^study spiderette-4-seeds-1-8-at-77-positions$/m);
    expect(b.stdout).toMatch(/spiderette-4-seeds-1-8-at-77-positions\s+spiderette\s+4\s+77\s+8\s+4\s+2\s+2\s+0\s+50\.0%/);
    const out = join(dir, 'deals.csv');
    const [json, md, csv, exp, sum, table] = await Promise.all([
      cli(['report', '--db', db, '--format', 'json']),
      cli(['report', '--db', db, '--format', 'md', '--game', 'spiderette', '--suits', '4']),
      cli(['report', '--db', db, '--format', 'csv', '--game', 'spider']),
      cli(['export', '--csv', '--db', db, '--out', out]),
      cli(['export', '--csv', '--summary', '--db', db]),
      cli(['report', '--db', db]),
    ]);
    // the text table: header, one row, then the legend of its columns
    expect(table.stdout.trimEnd().split('\n').slice(1)).toEqual([expect.stringMatching(/^spiderette-4-seeds-1-8-at-77-positions\s+spiderette\s+4\s+77\s+8\s+4\s+2\s+2\s+0\s+50\.0%/), ...REPORT_LEGEND]);
    const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(rows).toEqual([expect.objectContaining({ study: 'spiderette-4-seeds-1-8-at-77-positions', game: 'spiderette', suits: 4, budget: 77, deals: 8, won: 4, lost: 2, undecided: 2, errors: 0, floor: 0.5, ceiling: 0.75, medianPositions: 554, p95Positions: 789 })]);
    expect(md.stdout.split('\n')[2]).toMatch(/^\| spiderette-4-seeds-1-8-at-77-positions \| spiderette \| 4 \| 77 \| 8 \| 4 \|/);
    expect(csv.stdout.split('\r\n')).toEqual([expect.stringMatching(/^study,game,suits,budget,/), '']); // header only: no spider rows
    expect(exp.status).toBe(0);
    const lines = readFileSync(out, 'utf8').split('\r\n');
    expect(lines[0]).toBe('study,name,deal,code,game,suits,source_kind,seed,pysol_game,pysol_number,file_path,max_positions,status,positions,elapsed_ms,move_count,line,classic_score,reveal_score,peak_bytes,error,solver_version,run_id,created_at');
    expect(lines).toHaveLength(10);
    expect(lines[1]).toMatch(/^spiderette-4-seeds-1-8-at-77-positions,SE4-1,SE4X-[0-9A-Z]{63},SE4-1,spiderette,4,seed,1,,,,77,lost,104,1,,,,,1000,,/);
    expect(lines[3]).toMatch(/^spiderette-4-seeds-1-8-at-77-positions,SE4-3,SE4X-[0-9A-Z]{63},SE4-3,spiderette,4,seed,3,,,,77,won,304,3,3,1-2 3-4 d,1297,1020,3000,,/);
    expect(sum.stdout.split('\r\n')[1]).toMatch(/^spiderette-4-seeds-1-8-at-77-positions,spiderette,4,77,8,4,2,2,0,0\.5,/);

    // RFC 4180 quoting of a field with a comma, quotes and a line break
    const store = ResultStore.openForWriting(db);
    const odd = { key: 'POS:SE4:00ff', ref: '/x/a,b.txt', game: 'spiderette' as const, suits: 4 as const, source: { kind: 'file' as const, path: '/x/a,b.txt' }, deal: 'POS:SE4:00ff' };
    store.writeResults(null, [recordFromError(odd, 77, 'bad "thing",\nsecond line', '1.0.0')], store.studyId('spiderette-4-seeds-1-8-at-77-positions')!, [{ deal: 'POS:SE4:00ff', ord: 8, name: 'file:/x/a,b.txt' }]);
    store.close();
    const quoted = await cli(['export', '--csv', '--db', db, '--game', 'spiderette']);
    expect(quoted.stdout).toContain('spiderette-4-seeds-1-8-at-77-positions,"file:/x/a,b.txt",POS:SE4:00ff,POS:SE4:00ff,spiderette,4,file,,,,"/x/a,b.txt",77,error,,,,,,,,"bad ""thing"",\nsecond line",1.0.0,,');
  });

  it('--out creates missing parent directories; a regular file in the path, or a directory as --out, is a one-line error', async () => {
    const db = join(dir, 'out.sqlite');
    makeLostDb(db);
    const md = join(dir, 'made', 'a', 'b', 'r.md');
    const sum = join(dir, 'made2', 's.csv');
    const deals = join(dir, 'made3', 'd', 'deals.csv');
    const made = await Promise.all([
      cli(['report', '--db', db, '--format', 'md', '--out', md]),
      cli(['export', '--csv', '--summary', '--db', db, '--out', sum]),
      cli(['export', '--csv', '--db', db, '--out', deals]),
    ]);
    // each says on stderr what it wrote
    expect(made.map((r) => [r.status, r.stdout, r.stderr])).toEqual([
      [0, '', `spidersolve: wrote ${md}: Markdown report, 1 row of 1 study\n`],
      [0, '', `spidersolve: wrote ${sum}: CSV of the report rows, 1 row\n`],
      [0, '', `spidersolve: wrote ${deals}: CSV, 3 rows (one a study, deal and budget)\n`],
    ]);
    expect(readFileSync(md, 'utf8').split('\n')[2]).toBe('| st | spider | 1 | 100 | 3 | 0 | 3 | 0 | 0 | 0.0% | 0.0% | 56.1% | 0.0% | 0.0% | 56.1% | - | - | - | - | 1.0.0 |');
    // 0/3: Wilson high 0.5614970…, six decimals in CSV
    expect(readFileSync(sum, 'utf8')).toBe(`${['study,game,suits,budget,deals,won,lost,undecided,errors,floor,ciLow,ciHigh,ceiling,ceilingLow,ceilingHigh,medianPositions,p95Positions,medianMs,p95Ms,solverVersion,partial', 'st,spider,1,100,3,0,3,0,0,0,0,0.561497,0,0,0.561497,,,,,1.0.0,false'].join('\r\n')}\r\n`);
    expect(readFileSync(deals, 'utf8').split('\r\n')).toHaveLength(5); // header, 3 deals, ''

    const file = join(dir, 'file.txt');
    writeFileSync(file, 'keep me\n');
    const bad = [join(file, 'x.md'), join(file, 'sub', 'x.md')];
    const runs = await Promise.all([
      cli(['report', '--db', db, '--out', bad[0]!]),
      cli(['report', '--db', db, '--format', 'csv', '--out', bad[1]!]),
      cli(['export', '--csv', '--db', db, '--out', bad[0]!]),
      cli(['export', '--csv', '--summary', '--db', db, '--out', bad[1]!]),
      cli(['report', '--db', db, '--out', dir]),
    ]);
    runs.slice(0, 4).forEach((r, i) => {
      expect(r).toEqual({ status: 2, signal: null, stdout: '', stderr: `spidersolve: option --out "${bad[i % 2]}": ${file} is not a directory\n` });
    });
    expect(runs[4]).toMatchObject({ status: 2, stdout: '', stderr: `spidersolve: option --out "${dir}": is a directory; give a file name\n` });
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
  });

  it('--help of report and export says that --out creates missing directories, and that - is stdout', async () => {
    const [report, exp] = await Promise.all([cli(['report', '--help']), cli(['export', '--help'])]);
    for (const h of [report, exp]) {
      expect(h.status).toBe(0);
      expect(h.stdout.replace(/\s+/g, ' ')).toContain('--out <file> write to this file instead of stdout (- is stdout) and say so on stderr; missing parent directories are created (like mkdir -p)');
    }
  });

  it('--out - writes to stdout, as no --out does, and makes no file named -', async () => {
    const sub = join(dir, 'dash');
    mkdirSync(sub);
    const db = join(sub, 'd.sqlite');
    expect((await cli(['batch', '--db', db, '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '2000'])).status).toBe(0);
    const [plain, dash, csv, csvDash] = await Promise.all([
      cli(['report', '--db', db, '--format', 'csv']),
      cli(['report', '--db', db, '--format', 'csv', '--out', '-']),
      cli(['export', '--csv', '--db', db]),
      cli(['export', '--csv', '--db', db, '--out', '-']),
    ]);
    expect(dash.status).toBe(0);
    expect(dash.stdout).toBe(plain.stdout);
    expect(plain.stdout).toMatch(/^study,/);
    expect(csvDash.status).toBe(0);
    expect(csvDash.stdout).toBe(csv.stdout);
    expect(readdirSync(sub).sort()).toEqual(['d.sqlite']);
    // (the commands ran in the project's folder: no file named - there)
    expect(existsSync(join(ROOT, '-'))).toBe(false);
  });
});
