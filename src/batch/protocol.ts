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

/** One task of a blind study (workers/blind.worker.ts): play a deal blind. */
export interface BlindTask {
  readonly kind: 'blind';
  /** A `<deal>` argument for loadDeal, as WorkerTask.ref. */
  readonly ref: string;
  /** The player's canonical spec (src/blind/players/index.ts specText). */
  readonly player: string;
  /** The player's own random seed, 0..2^32-1. */
  readonly seed: number;
}

/** A blind worker's answer: the game's end and its cost, flattened for storage. */
export interface BlindOutcome {
  readonly kind: 'blind';
  /** Results key of the deal the worker loaded (deals.ts `dealKey`); the main thread checks it. */
  readonly key: string;
  /** The canonical spec the worker played (the task's, parsed and written again). */
  readonly player: string;
  /** Blind version (batch/blind.ts blindVersion) of the worker's code. */
  readonly version: string;
  readonly result: 'won' | 'stuck';
  /** Suits completed at the end (R14; those removed before the start included). */
  readonly completed: number;
  /** The moves played, separated by single spaces ('' for none). */
  readonly line: string;
  readonly moveCount: number;
  /** Perfect-information solves the player ran and positions they stored (0 for greedy). */
  readonly solves: number;
  readonly positions: number;
  /** Wall time of loadDeal + the game inside the worker thread, milliseconds (one thread: its CPU time). */
  readonly workerMs: number;
}

/** Any task of the batch pool, and any answer. */
export type PoolTask = WorkerTask | BlindTask;
export type PoolOutcome = WorkerOutcome | BlindOutcome;
