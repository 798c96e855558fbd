/**
 * Rough edges of the command line, in process: a deal or position read from standard input (`-`) is
 * named `- (standard input)` in messages, as `batch --deals -` is; a player spec with an empty
 * parameter names its place, and blanks around a spec's colon, commas and `=` are all taken alike;
 * `blind`'s cost line says what its plans and greedy fallbacks are; `merge` refuses the --into
 * database as its only input, and one input named twice; a resumed `batch` starts no more workers than
 * it has deals left to run.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { runBatch, workersToStart } from '../src/batch/runner.js';
import { parsePlayerSpec, SAMPLE_DEFAULTS, specText } from '../src/blind/players/index.js';
import { InputError } from '../src/game/errors.js';
import { expectOneLineError, expectUnchanged, runInProcess, snapshot } from './helpers/cli.js';
import { countIn, makeLostDb } from './helpers/db.js';
import { withEnv } from './helpers/env.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

/** Deletes the results of the database at `db` that `where` selects (a study interrupted before them). */
function forget(db: string, where: string): number {
  const d = new Database(db);
  try {
    return d.prepare(`DELETE FROM results WHERE ${where}`).run().changes;
  } finally {
    d.close();
  }
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough6-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('<deal> -: standard input named as such', () => {
  it('empty standard input: every command that reads a deal names it "- (standard input)", not /dev/stdin', async () => {
    for (const args of [['show', '-'], ['solve', '-'], ['hint', '-'], ['moves', '-'], ['play', '-', 'd'], ['blind', '-']]) {
      const r = await runInProcess(args, { stdin: '' });
      expectOneLineError(r, /^spidersolve: position file - \(standard input\): empty; a position file holds a game line and one line per column/);
    }
  });

  it('a position on standard input is read through the process\'s standard input (a socket or a pipe alike)', async () => {
    const pos = await runInProcess(['show', 'SP1-1', '--format', 'position']);
    expect(pos.status).toBe(0);
    const r = await runInProcess(['show', '-', '--json'], { stdin: pos.stdout });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: { kind: 'file', path: '/dev/stdin', text: 'SP1-1' }, game: 'spider', suits: 1 });
  });

  it('a zero byte on standard input: not a text file, named as standard input', async () => {
    const r = await runInProcess(['show', '-'], { stdin: '\0\0' });
    expectOneLineError(r, /^spidersolve: position file - \(standard input\): not a text file \(a zero byte at line 1\)/);
  });
});

describe('--player specs: empty parameters and blanks', () => {
  it('blind --player "sample:k=8,,budget=100": one line naming the spec and that parameter 2 is empty', async () => {
    const r = await runInProcess(['blind', 'SP1-1', '--player', 'sample:k=8,,budget=100']);
    expectOneLineError(r, /^spidersolve: player "sample:k=8,,budget=100": parameter 2 of 3 is empty \(two commas in a row\); separate key=value parameters with single commas\n$/);
  });

  it.each([
    ['sample:,k=1', 'player "sample:,k=1": parameter 1 of 2 is empty (a comma right after the colon); separate key=value parameters with single commas'],
    ['sample:k=1,', 'player "sample:k=1,": parameter 2 of 2 is empty (a comma at the end); separate key=value parameters with single commas'],
    ['sample:k=1, ,hop=2', 'player "sample:k=1, ,hop=2": parameter 2 of 3 is empty (two commas in a row); separate key=value parameters with single commas'],
    ['sample:=5', 'player "sample:=5": parameter 1, "=5", has no key before its =; write key=value'],
  ])('%s is refused in one line', (text, message) => {
    expect(() => parsePlayerSpec(text)).toThrow(InputError);
    expect(() => parsePlayerSpec(text)).toThrow(message);
  });

  it('blanks before or after the colon, a comma or an = are all dropped: "sample :k=1" as "sample:k= 1"', () => {
    const k1 = { name: 'sample', ...SAMPLE_DEFAULTS, k: 1 };
    for (const text of ['sample :k=1', 'sample: k=1', 'sample:k= 1', 'sample:k =1', ' sample : k = 1 ', 'SAMPLE\t:k=1']) expect(parsePlayerSpec(text)).toEqual(k1);
    expect(parsePlayerSpec('sample : k = 4 , budget = 1000 , plan = move')).toEqual({ name: 'sample', ...SAMPLE_DEFAULTS, k: 4, budget: 1000, plan: 'move' });
    // the canonical text has no blanks
    expect(specText(parsePlayerSpec('sample : k = 4 , budget = 1000'))).toBe('sample:k=4,budget=1000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3');
  });

  it('any canonical text with blanks put around its colon, commas and = reads as the same spec', () => {
    const blank = fc.constantFrom('', ' ', '  ', '\t');
    fc.assert(
      fc.property(
        fc.record({ k: fc.integer({ min: 1, max: 1000 }), budget: fc.integer({ min: 100, max: 10_000_000 }), hop: fc.integer({ min: 0, max: 100 }), endk: fc.integer({ min: 0, max: 1000 }) }),
        fc.array(blank, { minLength: 40, maxLength: 40 }),
        (settings, blanks) => {
          const spec = { name: 'sample' as const, ...SAMPLE_DEFAULTS, ...settings };
          const text = specText(spec);
          let i = 0;
          const spaced = text.replace(/[:,=]/g, (c) => `${blanks[i++ % blanks.length]}${c}${blanks[i++ % blanks.length]}`);
          expect(parsePlayerSpec(spaced)).toEqual(spec);
          expect(specText(parsePlayerSpec(spaced))).toBe(text);
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });
});

describe('blind: the cost line says what plans and greedy fallbacks are', () => {
  it('the sample player: votes held, and moves played by the greedy fallback without a vote', async () => {
    const r = await runInProcess(['blind', 'SE2-5', '--player', 'sample:k=2,budget=500,eval=win,escalate=2,endhop=0', '--loss-budget', '0']);
    // stuck: exit 3
    expect(r.status).toBe(3);
    const last = r.stdout.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^cost: \d+\.\d s; 60 solves, 66,414 positions; 20 votes held, 1 move played by the greedy fallback \(without a vote\)$/);
  });

  it('greedy votes on nothing: no plans or fallbacks on its line', async () => {
    const r = await runInProcess(['blind', 'SE1-38', '--player', 'greedy', '--loss-budget', '0']);
    const last = r.stdout.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^cost: \d+\.\d s; 0 solves, 0 positions$/);
  });
});

describe('merge: the --into database as its only input, or an input named twice, is refused', () => {
  it('merge --into m.sqlite m.sqlite: exit 2, one line naming it, the file untouched', async () => {
    const m = join(dir, 'm.sqlite');
    makeLostDb(m);
    const before = snapshot(m);
    const r = await runInProcess(['merge', '--into', m, m]);
    expectOneLineError(r, new RegExp(`^spidersolve: merge: ${m.replace(/[.]/g, '\\.')} is the --into database; give the databases to merge into it\\n$`));
    expectUnchanged(m, before);
    // by another name of it, too: that name is the one shown
    const again = await runInProcess(['merge', '--into', m, 'm.sqlite', m], { cwd: dir });
    expectOneLineError(again, /^spidersolve: merge: input m\.sqlite is the --into database \(\S+\/m\.sqlite\); give the databases to merge into it\n$/);
    expectUnchanged(m, before);
  });

  it('an input given twice: exit 2, one line naming it; nothing written, not even a new target', async () => {
    const a = join(dir, 'a.sqlite');
    makeLostDb(a);
    const into = join(dir, 'twice-into.sqlite');
    const r = await runInProcess(['merge', '--into', into, a, a], { cwd: dir });
    expectOneLineError(r, /^spidersolve: merge: input \S+\/a\.sqlite is given twice; give each database once \(was another meant\?\)\n$/);
    expect(() => snapshot(into)).toThrow(/ENOENT/);
    // into an existing target: it is left as it was
    const m2 = join(dir, 'm2.sqlite');
    copyFileSync(a, m2);
    const before = snapshot(m2);
    expectOneLineError(await runInProcess(['merge', '--into', m2, a, 'a.sqlite', a], { cwd: dir }), /is given twice/);
    expectUnchanged(m2, before);
    expect(countIn(m2)).toEqual(countIn(a));
  });

  it('the target among other inputs (a glob that matches it) is still skipped, and the others merged', async () => {
    const a = join(dir, 'g1.sqlite');
    makeLostDb(a);
    const into = join(dir, 'g-into.sqlite');
    expect((await runInProcess(['merge', '--into', into, a, '--quiet'])).status).toBe(0);
    const r = await runInProcess(['merge', '--into', into, into, a, '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).inputs.map((i: { skipped: string | null }) => i.skipped)).toEqual(['it is the target', null]);
  });
});

describe('a resumed batch starts no more workers than the deals it has left to run', () => {
  it('workersToStart takes the deals still to do: 1 left of 200, 2 asked → 1', () => {
    expect([workersToStart(2, 1), workersToStart(8, 3), workersToStart(2, 0), workersToStart(2, 200)]).toEqual([1, 3, 1, 2]);
  });

  it('batch of 20 deals with one result missing, resumed with --workers 2: 1 worker, in the summary, --json and the run', async () => {
    const db = join(dir, 'resume.sqlite');
    const args = ['batch', '--db', db, '--game', 'spider', '--suits', '1', '--seeds', '1-20', '--max-positions', '100', '--study', 'r', '--workers', '2'];
    const first = await runInProcess([...args, '--json']);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ planned: 20, ran: 20, workers: 2 });
    expect(forget(db, "code = 'SP1-20'")).toBe(1);
    const again = await runInProcess([...args, '--json']);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ planned: 20, skipped: 19, ran: 1, remaining: 0, workers: 1 });
    expect(forget(db, "code = 'SP1-7'")).toBe(1);
    const text = await runInProcess(args);
    expect(text.stdout).toMatch(/deals 20: 19 already settled, 1 run now in [0-9.]+ s \([0-9.]+ deals\/s, 1 worker\), 0 left/);
    const studies = (await runInProcess(['studies', '--db', db])).stdout;
    expect(studies.match(/; \d+ workers?, solver /g)).toEqual(['; 2 workers, solver ', '; 1 worker, solver ', '; 1 worker, solver ']);
  });

  it('a ladder: a deal settled at its last rung but not at the first counts as to do (it runs again at the first)', async () => {
    const db = join(dir, 'ladder.sqlite');
    const opts = {
      deals: planSeeds('spider', [1], [{ from: 1, to: 8 }]), maxPositions: 300, budgets: [300, 3000], workers: 4, dbPath: db, study: 'l',
      studyParams: { game: 'spider', suits: '1', dealsSpec: 'seeds:1-8', maxPositions: 300 }, workerFile: TEST_WORKER,
    };
    const env = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_LADDER: '1' };
    const first = await withEnv(env, () => runBatch(opts));
    expect(first).toMatchObject({ planned: 8, remaining: 0, workers: 4 });
    // nothing left: no worker is needed (the pool does not start), counted as 1
    expect((await withEnv(env, () => runBatch(opts))).workers).toBe(1);
    // seed 5 needs 500 positions: undecided at 300, won at 3000; without its row at 300 it runs at 300 again
    expect(forget(db, "code = 'SP1-5' AND max_positions = 300")).toBe(1);
    const told: number[] = [];
    const again = await withEnv(env, () => runBatch({ ...opts, onWorkers: (n: number) => told.push(n) }));
    expect(again).toMatchObject({ ran: 1, remaining: 0, workers: 1 });
    expect(told).toEqual([1]);
    // two deals with nothing stored, 4 asked: 2
    expect(forget(db, "code IN ('SP1-3', 'SP1-8')")).toBe(3); // seed 3 won at 300; seed 8 undecided at 300, won at 3000
    expect((await withEnv(env, () => runBatch(opts))).workers).toBe(2);
  });
});
