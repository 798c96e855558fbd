import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { createProgress, timeLeft, type ProgressSink } from '../src/batch/progress.js';
import { runBatch, type BatchOptions } from '../src/batch/runner.js';
import { ResultStore, type StoredRow } from '../src/batch/store.js';
import { FileFault } from '../src/batch/faults.js';
import { formatBatchSummary } from '../src/cli/batch.js';
import { withEnv } from './helpers/env.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-runner-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function options(db: string, over: Partial<BatchOptions> & { seeds?: [number, number]; suits?: (1 | 2 | 4)[] } = {}): BatchOptions {
  const [from, to] = over.seeds ?? [1, 6];
  const suits = over.suits ?? [1, 2];
  return {
    deals: planSeeds('spider', suits, [{ from, to }]),
    maxPositions: 2000,
    workers: 2,
    dbPath: db,
    study: `t-${from}-${to}`,
    studyParams: { game: 'spider', suits: suits.join(','), dealsSpec: `seeds:${from}-${to}`, maxPositions: over.maxPositions ?? 2000 },
    ...over,
  };
}

/** The results the studies count (rows), or with `all` every result stored, counted or not (allRows). */
function rowsOf(db: string, which: 'counted' | 'all' = 'counted'): StoredRow[] {
  const s = ResultStore.openForReading(db);
  try {
    return which === 'all' ? [...s.allRows()] : [...s.rows()];
  } finally {
    s.close();
  }
}

/** A row without the fields that may differ between runs: timing, run id, creation time. */
function stable(r: StoredRow): Partial<StoredRow> {
  const { elapsedMs, runId, createdAt, ...rest } = r;
  void elapsedMs, runId, createdAt;
  return rest;
}

describe('runBatch with the real solve worker', () => {
  it('solves every deal, stores one row each, and re-running skips them all', async () => {
    const db = join(dir, 'real.sqlite');
    const s = await runBatch(options(db));
    expect(s).toMatchObject({ planned: 12, skipped: 0, ran: 12, remaining: 0, interrupted: false, workers: 2 });
    expect(s.won + s.lost + s.undecided + s.errors).toBe(12);
    expect(s.errors).toBe(0);
    const rows = rowsOf(db);
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((r) => r.code)).size).toBe(12);
    for (const r of rows) {
      expect(['won', 'lost', 'undecided']).toContain(r.status);
      expect(r.maxPositions).toBe(2000);
      expect(r.positions).toBeGreaterThan(0);
      expect(r.sourceKind).toBe('seed');
      expect(r.code).toBe(`SP${r.suits}-${r.seed}`);
      if (r.status === 'won') expect(r.line!.split(' ').length).toBe(r.moveCount);
      else expect(r.line).toBeNull();
    }
    expect(s.report.reduce((n, g) => n + g.deals, 0)).toBe(12);

    const again = await runBatch(options(db));
    expect(again).toMatchObject({ planned: 12, skipped: 12, ran: 0, remaining: 0 });
    expect(again.report).toEqual(s.report.map((r) => ({ ...r })));
    expect(rowsOf(db)).toEqual(rows);
  });

  it('gives the same rows with 1 and 2 workers, apart from timing', async () => {
    const one = join(dir, 'w1.sqlite');
    const two = join(dir, 'w2.sqlite');
    await runBatch(options(one, { workers: 1, seeds: [20, 27], suits: [1] }));
    await runBatch(options(two, { workers: 2, seeds: [20, 27], suits: [1] }));
    const a = rowsOf(one).map(stable);
    const b = rowsOf(two).map(stable);
    expect(a).toHaveLength(8);
    expect(b).toEqual(a);
  });
});

describe('runBatch with injected outcomes', () => {
  it('a worker that throws, exits or runs out of memory gives an error row; the batch goes on; errors are retried', async () => {
    const db = join(dir, 'fail.sqlite');
    const marker = join(dir, 'fail-now');
    writeFileSync(marker, '');
    const env = {
      SPIDERSOLVE_TEST_FAKE: '1',
      SPIDERSOLVE_TEST_FAIL: 'SP1-2:throw,SP1-4:exit,SP1-6:oom',
      SPIDERSOLVE_TEST_FAIL_FILE: marker,
    };
    const opts = options(db, { seeds: [1, 8], suits: [1], workerFile: TEST_WORKER, maxOldGenerationSizeMb: 48 });
    const first = await withEnv(env, () => runBatch(opts));
    expect(first).toMatchObject({ planned: 8, ran: 8, errors: 3, remaining: 3 });
    const rows = rowsOf(db);
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect(byCode.get('SP1-2')).toMatchObject({ status: 'error', error: 'injected failure for SP1-2', positions: null });
    expect(byCode.get('SP1-4')!.status).toBe('error');
    expect(byCode.get('SP1-4')!.error).toMatch(/exit/i);
    expect(byCode.get('SP1-6')!.status).toBe('error');
    expect(byCode.get('SP1-6')!.error).toMatch(/memory/i);
    // the fake outcomes: seed % 4 = 0 won, 1 lost, 2 undecided, 3 won
    expect(byCode.get('SP1-1')!.status).toBe('lost');
    expect(byCode.get('SP1-3')).toMatchObject({ status: 'won', positions: 301, line: '1-2 3-4 d', moveCount: 3, classicScore: 1297 });
    expect(byCode.get('SP1-8')!.status).toBe('won');

    rmSync(marker);
    const second = await withEnv(env, () => runBatch(opts));
    expect(second).toMatchObject({ planned: 8, skipped: 5, ran: 3, errors: 0, remaining: 0 });
    const after = rowsOf(db);
    expect(after).toHaveLength(8);
    expect(after.filter((r) => r.status === 'error')).toEqual([]);
    expect(new Map(after.map((r) => [r.code, r.status])).get('SP1-6')).toBe('undecided');
    // report of the study: seeds 1..8 → lost 1,5; undecided 2,6; won 3,4,7,8
    expect(second.report).toHaveLength(1);
    expect(second.report[0]).toMatchObject({ deals: 8, won: 4, lost: 2, undecided: 2, errors: 0, floor: 0.5, ceiling: 0.75 });
  });

  /**
   * Another program (a thread here, with a connection of its own) takes the database's write lock
   * when the batch has stored its first result, and holds it `holdMs`: a worker thread, since the
   * batch's writes block this one while they wait for the lock.
   */
  function lockDuring(db: string, holdMs: number): { progress: ProgressSink; done: Promise<void> } {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const locker = new Worker(
      `const { workerData } = require('node:worker_threads');
       const Database = require('better-sqlite3');
       const [db, holdMs, flag] = workerData;
       Atomics.wait(flag, 0, 0);
       const c = new Database(db);
       c.exec('BEGIN EXCLUSIVE');
       Atomics.store(flag, 0, 2);
       Atomics.notify(flag, 0);
       Atomics.wait(flag, 0, 2, holdMs);
       c.exec('COMMIT');
       c.close();`,
      { eval: true, workerData: [db, holdMs, flag] },
    );
    const done = new Promise<void>((res, rej) => {
      locker.on('exit', () => res());
      locker.on('error', rej);
    });
    let asked = false;
    const progress: ProgressSink = {
      start() {},
      update(n) {
        if (n < 2 || asked) return;
        asked = true;
        // the lock is held from here on: the first result is written, this one and those after it find the lock
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
        Atomics.wait(flag, 0, 1, 10_000);
      },
      stop() {},
    };
    return { progress, done };
  }

  it('results that find the database locked by another program wait in memory and are written once it is free; nothing is lost', async () => {
    const db = join(dir, 'locked.sqlite');
    const lock = lockDuring(db, 1500);
    const opts = options(db, { seeds: [1, 12], suits: [1], workerFile: TEST_WORKER, flushEvery: 1, flushMs: 50, busyTimeoutMs: 50 });
    const s = await withEnv({ SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '20' }, () => runBatch({ ...opts, progress: lock.progress }));
    await lock.done;
    expect(s).toMatchObject({ planned: 12, ran: 12, remaining: 0, errors: 0 });
    expect(rowsOf(db).map((r) => r.code).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `SP1-${i + 1}`).sort());
    const meta = new Database(db, { readonly: true });
    expect(meta.prepare('SELECT status, completed FROM runs').get()).toEqual({ status: 'done', completed: 12 });
    meta.close();
  });

  it('a lock held past busyGiveUpMs stops the batch with one line naming the database and what was kept; resuming completes', async () => {
    const db = join(dir, 'locked-long.sqlite');
    const lock = lockDuring(db, 1500);
    const opts = options(db, { seeds: [1, 12], suits: [1], workerFile: TEST_WORKER, flushEvery: 1, flushMs: 50, busyTimeoutMs: 50, busyGiveUpMs: 200 });
    const env = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '20' };
    const err = await withEnv(env, () => runBatch({ ...opts, progress: lock.progress })).then(() => null, (e: unknown) => e);
    await lock.done;
    expect(err).toBeInstanceOf(FileFault);
    expect((err as Error).message).toMatch(new RegExp(`^database ${db}: another program held it locked for too long \\(SQLITE_BUSY: database is locked\\); the batch stopped: every result stored before it is kept \\(1 of this run\\), the deals it had solved since are run again when it resumes; the run (is marked failed|could not be marked failed: it shows as running, then \\(once this process has ended\\) as abandoned); run the same command again when the other program is done$`));
    // stored (the study counts it once the deals before it in the plan are done)
    expect(rowsOf(db, 'all')).toHaveLength(1);
    const again = await withEnv(env, () => runBatch(opts));
    expect(again).toMatchObject({ skipped: 1, ran: 11, remaining: 0 });
    expect(rowsOf(db)).toHaveLength(12);
  });

  it('a lock already held when the batch opens its database: one line naming it, a FileFault (exit 1), nothing run', async () => {
    const db = join(dir, 'locked-at-start.sqlite');
    ResultStore.openForWriting(db).close();
    const lock = lockDuring(db, 1500);
    lock.progress.update(2, { won: 0, lost: 0, undecided: 0, errors: 0 });
    const err = await runBatch(options(db, { workerFile: TEST_WORKER, busyTimeoutMs: 100 })).then(() => null, (e: unknown) => e);
    await lock.done;
    expect(err).toBeInstanceOf(FileFault);
    expect((err as Error).message).toBe(`database ${db}: another program held it locked for too long while opening it (SQLite: database is locked); nothing was run and every result it held is kept; run the same command again when the other program is done`);
  });

  it('the study counts a prefix of its plan at every moment, as a kill -9 would leave it: deals done after a slow one still running are stored, linked once it is done', async () => {
    const db = join(dir, 'prefix-always.sqlite');
    // SP1-2 (place 1) takes 1.5 s; the others 10 ms each, on the other worker
    const env = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '10', SPIDERSOLVE_TEST_SLOW: 'SP1-2:1500' };
    const snapshots: { stored: number; places: number[] }[] = [];
    const progress: ProgressSink = {
      start() {},
      update(done) {
        // what a reader (or a kill -9 now) finds in the database, with SP1-2 still running
        if (done === 8) {
          const r = ResultStore.openForReading(db);
          snapshots.push({ stored: [...r.allRows()].length, places: r.studyPlaces('t-1-12') });
          r.close();
        }
      },
      stop() {},
    };
    const opts = options(db, { seeds: [1, 12], suits: [1], workerFile: TEST_WORKER, flushEvery: 1, flushMs: 20 });
    const first = await withEnv(env, () => runBatch({ ...opts, progress }));
    expect(first).toMatchObject({ ran: 12, remaining: 0, interrupted: false });
    // at that moment: SP1-1 done and counted; SP1-2 running; 7 after it done, stored (all flushed but
    // perhaps the last), not counted
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]!.places).toEqual([0]);
    expect(snapshots[0]!.stored).toBeGreaterThanOrEqual(7);
    // at the end, every place counted
    const r = ResultStore.openForReading(db);
    expect(r.studyPlaces('t-1-12')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    r.close();
  });

  it('abort midway keeps every finished result; resuming completes with nothing lost or repeated', async () => {
    const db = join(dir, 'abort.sqlite');
    const env = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '15' };
    const ctl = new AbortController();
    const seen: number[] = [];
    const progress: ProgressSink = {
      start() {},
      update(done) {
        seen.push(done);
        if (done === 10) ctl.abort();
      },
      stop() {},
    };
    const opts = options(db, { seeds: [1, 40], suits: [1, 4], workerFile: TEST_WORKER, flushEvery: 4 });
    const first = await withEnv(env, () => runBatch({ ...opts, signal: ctl.signal, progress }));
    expect(first.interrupted).toBe(true);
    expect(first.ran).toBeGreaterThanOrEqual(10);
    expect(first.ran).toBeLessThan(80);
    // every finished result is stored, counted or not (a deal finished after one still in flight at the
    // stop is stored uncounted: rows() would not list it, so this reads every stored result)
    const partial = rowsOf(db, 'all');
    expect(partial).toHaveLength(first.ran);
    // the study counts a prefix of its plan: deals finished after one cancelled in flight are stored,
    // not counted, till the next run finds them (they biased the floor)
    const reader = ResultStore.openForReading(db);
    const places = reader.studyPlaces(first.study);
    reader.close();
    expect(places).toEqual(places.map((_, i) => i));
    expect(places.length).toBeLessThanOrEqual(first.ran);
    expect(first.counted).toBe(places.length);
    // the summary says how many it stored and left uncounted
    expect(first.uncounted).toBe(first.ran - places.length);
    if (first.uncounted > 0) expect(formatBatchSummary(first)).toContain(`; ${first.uncounted} of its deals stored but not counted yet (they follow a deal still running when it stopped; the next run counts them)`);
    // and that those are among the deals left, so that its numbers add up
    const told = formatBatchSummary({ ...first, planned: 180, skipped: 0, ran: 92, remaining: 96, uncounted: 8 });
    expect(told).toMatch(/^  deals 180: 0 already settled, 92 run now in .*, 96 left \(8 of them solved by this run, counted by the next\)$/m);
    // the rate of the deals run now; none when none ran ("0.0 deals/s" would read as a stalled pool)
    expect(told).toMatch(/ 92 run now in [0-9.]+ s \([0-9.]+ deals\/s, [0-9]+ workers?\)/);
    expect(formatBatchSummary({ ...first, planned: 180, skipped: 180, ran: 0, remaining: 0, uncounted: 0 })).toMatch(/ 180 already settled, 0 run now in [0-9.]+ s, 0 left$/m);
    expect(formatBatchSummary({ ...first, planned: 180, skipped: 0, ran: 92, remaining: 88, uncounted: 0 })).toMatch(/, 88 left$/m);
    expect(first.remaining).toBe(80 - places.length);
    const meta = new Database(db, { readonly: true });
    expect(meta.prepare('SELECT status, completed FROM runs').get()).toEqual({ status: 'interrupted', completed: first.ran });
    meta.close();

    // its deals line adds up: settled before + run now + left = the plan + those run now not counted
    expect(first.skipped + first.ran + first.remaining!).toBe(80 + first.uncounted);
    // a run stopped before it walked the plan: the deals the study counts are settled before it, none
    // run now, the rest left, so that its numbers add up
    const stoppedAtOnce = await withEnv(env, () => runBatch({ ...opts, signal: AbortSignal.abort() }));
    expect(stoppedAtOnce).toMatchObject({ interrupted: true, skipped: places.length, ran: 0, uncounted: 0, remaining: 80 - places.length });
    expect(formatBatchSummary(stoppedAtOnce)).toMatch(new RegExp(`^  deals 80: ${places.length} already settled, 0 run now in .*, ${80 - places.length} left$`, 'm'));

    const second = await withEnv(env, () => runBatch(opts));
    expect(second).toMatchObject({ interrupted: false, skipped: first.ran, ran: 80 - first.ran, remaining: 0 });
    const all = rowsOf(db);
    expect(all).toHaveLength(80);
    expect(new Set(all.map((r) => r.code)).size).toBe(80);
    // rows kept from the first run are unchanged
    const firstCodes = new Map(partial.map((r) => [r.code, r]));
    for (const r of all) if (firstCodes.has(r.code)) expect(r).toMatchObject(firstCodes.get(r.code)!);
    // and the whole equals a clean run
    const clean = join(dir, 'clean.sqlite');
    await withEnv(env, () => runBatch({ ...opts, dbPath: clean }));
    expect(rowsOf(clean).map(stable)).toEqual(all.map(stable));
  });

  it('many tasks in flight raise no listener warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const s = await withEnv({ SPIDERSOLVE_TEST_FAKE: '1' }, () =>
        runBatch(options(join(dir, 'many.sqlite'), { seeds: [1, 30], suits: [1], workerFile: TEST_WORKER, maxInFlight: 24 })));
      expect(s.ran).toBe(30);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it('an already aborted signal runs nothing', async () => {
    const db = join(dir, 'pre.sqlite');
    const ctl = new AbortController();
    ctl.abort();
    const s = await runBatch({ ...options(db, { workerFile: TEST_WORKER }), signal: ctl.signal });
    expect(s).toMatchObject({ ran: 0, remaining: 12, interrupted: true });
    expect(rowsOf(db)).toEqual([]);
  });

  it('an abort queued while the synchronous set-up runs (a signal during planning) stops it before any dispatch', async () => {
    const db = join(dir, 'queued.sqlite');
    const ctl = new AbortController();
    const calls: string[] = [];
    const progress: ProgressSink = { start: (n) => calls.push(`start ${n}`), update: () => calls.push('update'), stop: () => calls.push('stop') };
    // The abort is queued before the call, as a signal is while the main thread plans deals and opens
    // the database; runBatch must let it through before it starts the pool and dispatches.
    setImmediate(() => ctl.abort());
    const s = await withEnv({ SPIDERSOLVE_TEST_FAKE: '1' }, () =>
      runBatch({ ...options(db, { workerFile: TEST_WORKER }), signal: ctl.signal, progress }));
    expect(s).toMatchObject({ planned: 12, skipped: 0, ran: 0, remaining: 12, interrupted: true });
    expect(calls).toEqual([]); // no progress bar: nothing was dispatched
    expect(rowsOf(db)).toEqual([]);
    const meta = new Database(db, { readonly: true });
    expect(meta.prepare('SELECT status, planned, completed FROM runs').get()).toEqual({ status: 'interrupted', planned: 12, completed: 0 });
    meta.close();
  });
});

describe('progress bar', () => {
  /** A bar on a fake terminal with a clock of the test's: what it drew, escape sequences left out. */
  function fakeBar(): { bar: ProgressSink; at(ms: number): void; drawn(): string } {
    let t = 0;
    let out = '';
    const stream = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } }) as unknown as NodeJS.WriteStream;
    Object.assign(stream, { isTTY: true, columns: 200, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    return { bar: createProgress(stream, () => t), at: (ms) => (t = ms), drawn: () => out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '') };
  }

  it('counts no speed for the deals found settled before the start: a resumed run at 90 of 100, 2 more in 2 s, is at 1 deal a second, 8 s left', () => {
    const { bar, at, drawn } = fakeBar();
    bar.start(100, 90);
    at(2000);
    bar.update(92, { won: 2, lost: 0, undecided: 0, errors: 0 });
    bar.stop();
    expect(drawn()).toContain('92/100 | 1.0 deals/s | ETA 8s | won 2 lost 0 undecided 0 errors 0');
  });

  it('a run from the start: 10 of 100 in 5 s is 2 deals a second, 45 s left', () => {
    const { bar, at, drawn } = fakeBar();
    bar.start(100);
    at(5000);
    bar.update(10, { won: 9, lost: 1, undecided: 0, errors: 0 });
    bar.stop();
    expect(drawn()).toContain('10/100 | 2.0 deals/s | ETA 45s | won 9 lost 1 undecided 0 errors 0');
  });

  it('shows the time left from the rate so far: … before the first deal (no rate), never NaN or Infinity', () => {
    expect(timeLeft(10, 0)).toBe('…');
    expect(timeLeft(10, Number.NaN)).toBe('…');
    expect(timeLeft(0, 0)).toBe('0s');
    expect(timeLeft(10, 2)).toBe('5s');
    expect(timeLeft(184, 1)).toBe('3m04s');
    expect(timeLeft(7500, 1)).toBe('2h05m');
  });
});
