/**
 * What crosses the thread boundary between the batch's main thread and its solve workers: plain,
 * structured-clonable objects only (no Position, no database handle).
 */
import type { SolveStatus } from '../solver/types.js';

/** One task of workers/solve.worker.ts. */
export interface WorkerTask {
  /** A `<deal>` argument for loadDeal: a deal code, a `pysol:` reference or a position-file path. */
  readonly ref: string;
  /** Position budget of the search (SolveOptions.maxPositions). */
  readonly maxPositions: number;
}

/** A worker's answer: the solver's result flattened for storage, plus what the worker loaded. */
export interface WorkerOutcome {
  /** Results key of the deal the worker loaded (deals.ts `dealKey`); the main thread checks it. */
  readonly key: string;
  readonly status: SolveStatus;
  /** Distinct positions stored by the search. */
  readonly positions: number;
  /** Search time reported by the solver, milliseconds. */
  readonly elapsedMs: number;
  /** The winning line, moves separated by single spaces; empty unless won. */
  readonly line: string;
  readonly moveCount: number | null;
  readonly classicScore: number | null;
  readonly revealScore: number | null;
  readonly peakBytes: number;
  readonly solverVersion: string;
  /** Wall time of loadDeal + solve inside the worker, milliseconds (for overhead figures only). */
  readonly workerMs: number;
}
