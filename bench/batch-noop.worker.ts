/**
 * No-op solve worker for bench/batch.bench.ts: answers at once with a fixed `undecided` outcome, so
 * that a batch of it measures only the pool, the thread hops, the dispatch loop and the database.
 */
import type { WorkerOutcome, WorkerTask } from '../src/batch/protocol.js';
import { SOLVER_VERSION } from '../src/solver/types.js';

export default function noop(task: WorkerTask): WorkerOutcome {
  return {
    key: task.ref, status: 'undecided', positions: task.maxPositions, elapsedMs: 0, line: '', moveCount: null,
    classicScore: null, revealScore: null, peakBytes: 0, solverVersion: SOLVER_VERSION, workerMs: 0,
  };
}
