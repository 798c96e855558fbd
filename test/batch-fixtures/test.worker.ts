/**
 * Test worker for the batch tests (never used by the program): the real solve worker, or fake
 * outcomes, with an optional delay and injected failures. Controlled by environment variables, read
 * when the worker thread starts (Piscina copies process.env into each worker):
 *
 * - SPIDERSOLVE_TEST_FAKE=1: no solver; outcome by seed s of a seeded code: s % 4 = 0 won, 1 lost,
 *   2 undecided, 3 won; positions 100·s + suits, elapsedMs = s, a 3-move line for won deals.
 * - SPIDERSOLVE_TEST_LADDER=1 (with FAKE): outcomes that depend on the budget b, for ladders: a deal of
 *   seed s needs 100·s positions; s % 4 = 2 is never decided (undecided, positions b), s % 4 = 1 is
 *   lost once b ≥ 100·s, the others won once b ≥ 100·s; below that, undecided with positions b.
 * - SPIDERSOLVE_TEST_DELAY_MS=n: sleep n ms before each task.
 * - SPIDERSOLVE_TEST_SLOW=code:ms,…: sleep that long before that deal's task instead (a slow deal).
 * - SPIDERSOLVE_TEST_FAIL=code:how,…: for that deal code, `throw` an Error, `exit` the worker thread
 *   (process.exit in a worker ends the thread) or `oom` (allocate until the heap limit kills it).
 * - SPIDERSOLVE_TEST_FAIL_FILE=path: inject the failures only while that file exists.
 */
import { existsSync } from 'node:fs';
import type { WorkerOutcome, WorkerTask } from '../../src/batch/protocol.js';
import { SOLVER_VERSION } from '../../src/solver/types.js';
import { solveTask } from '../../workers/solve.worker.js';

const fake = process.env.SPIDERSOLVE_TEST_FAKE === '1';
const ladder = process.env.SPIDERSOLVE_TEST_LADDER === '1';
const delay = Number(process.env.SPIDERSOLVE_TEST_DELAY_MS ?? 0);
const failFile = process.env.SPIDERSOLVE_TEST_FAIL_FILE;
const slow = new Map(
  (process.env.SPIDERSOLVE_TEST_SLOW ?? '')
    .split(',')
    .filter(Boolean)
    .map((p) => p.split(':') as [string, string])
    .map(([code, ms]) => [code, Number(ms)] as const),
);
const fail = new Map(
  (process.env.SPIDERSOLVE_TEST_FAIL ?? '')
    .split(',')
    .filter(Boolean)
    .map((p) => p.split(':') as [string, string]),
);

/** The fake outcome of a seeded code (see the module comment). */
export function fakeOutcome(code: string): WorkerOutcome {
  const m = /^S[PE](\d)-(\d+)$/.exec(code);
  if (!m) throw new Error(`fake worker: not a seeded code: ${code}`);
  const suits = Number(m[1]);
  const s = Number(m[2]);
  const status = (['won', 'lost', 'undecided', 'won'] as const)[s % 4]!;
  const won = status === 'won';
  return {
    key: code, status, positions: 100 * s + suits, elapsedMs: s, line: won ? '1-2 3-4 d' : '',
    moveCount: won ? 3 : null, classicScore: won ? 1297 : null, revealScore: won ? 1020 : null,
    peakBytes: 1000 * s, solverVersion: SOLVER_VERSION, workerMs: s,
  };
}

/** The budget-dependent fake outcome (SPIDERSOLVE_TEST_LADDER, see the module comment). */
export function ladderOutcome(code: string, budget: number): WorkerOutcome {
  const o = fakeOutcome(code);
  const s = Number(/-(\d+)$/.exec(code)![1]);
  const need = 100 * s;
  const status = s % 4 === 2 || budget < need ? 'undecided' : s % 4 === 1 ? 'lost' : 'won';
  const won = status === 'won';
  return {
    ...o, status, positions: status === 'undecided' ? budget : need, line: won ? '1-2 3-4 d' : '',
    moveCount: won ? 3 : null, classicScore: won ? 1297 : null, revealScore: won ? 1020 : null,
  };
}

export default async function run(task: WorkerTask): Promise<WorkerOutcome> {
  const wait = slow.get(task.ref) ?? delay;
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const how = fail.get(task.ref);
  if (how && (!failFile || existsSync(failFile))) {
    if (how === 'throw') throw new Error(`injected failure for ${task.ref}`);
    if (how === 'exit') process.exit(3);
    if (how === 'oom') {
      const hog: number[][] = [];
      for (;;) hog.push(new Array(1e5).fill(hog.length));
    }
  }
  return fake ? (ladder ? ladderOutcome(task.ref, task.maxPositions) : fakeOutcome(task.ref)) : solveTask(task);
}
