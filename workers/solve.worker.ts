/**
 * Piscina worker of `spidersolve batch`: loads one deal and solves it within a position budget.
 * Input `WorkerTask` ({ ref, maxPositions }), output `WorkerOutcome` (a plain object); a `BlindTask` of
 * a blind study is played by blind.worker.ts instead. A deal that
 * cannot be loaded, or a solver that throws, rejects the task; the main thread stores it as an error.
 * Knows nothing of SQLite or of the pool.
 */
import { performance } from 'node:perf_hooks';
import { unwrap } from '../src/game/errors.js';
import { loadDeal } from '../src/game/ref.js';
import { dealKey } from '../src/batch/deals.js';
import type { BlindOutcome, PoolTask, WorkerOutcome, WorkerTask } from '../src/batch/protocol.js';
import { solve } from '../src/solver/solve.js';
import { playTask } from './blind.worker.js';

/** Solves one task (exported for tests and for wrapper workers; Piscina calls the default export). */
export function solveTask(task: WorkerTask): WorkerOutcome {
  const t0 = performance.now();
  const loaded = unwrap(loadDeal(task.ref));
  const r = solve(loaded.position, { maxPositions: task.maxPositions });
  return {
    key: dealKey(loaded),
    status: r.status,
    positions: r.positions,
    elapsedMs: r.elapsedMs,
    line: r.line.join(' '),
    moveCount: r.moveCount,
    classicScore: r.classicScore,
    revealScore: r.revealScore,
    peakBytes: r.peakBytes,
    solverVersion: r.solverVersion,
    workerMs: performance.now() - t0,
  };
}

/** Piscina's entry: a `BlindTask` is played blind (blind.worker.ts), any other task solved. */
export default function runTask(task: PoolTask): WorkerOutcome | BlindOutcome {
  return 'kind' in task && task.kind === 'blind' ? playTask(task) : solveTask(task as WorkerTask);
}
