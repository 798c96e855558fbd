/**
 * The solver's public contract (docs/rules.md R18, R19). The solver knows nothing of SQLite or the CLI.
 */

/** Outcome of a bounded search (R19). */
export type SolveStatus = 'won' | 'lost' | 'undecided';

/** Options of one search. */
export interface SolveOptions {
  /** Position budget: the search stops as undecided once this many distinct positions are stored. Default 1,000,000. */
  readonly maxPositions?: number;
  /**
   * Called during the solve each time the transposition table has stored another PROGRESS_EVERY
   * positions (all stages together), with the positions stored so far and the milliseconds since the
   * solve began: for a progress display. It only watches: the search, its result and its position
   * count are the same with it or without it. It must not throw (an exception ends the solve).
   */
  readonly onProgress?: (p: SolveProgress) => void;
  /**
   * When the solve is not won, also return SolveResult.progress: the line to the best position the
   * beam search kept before its first deal (beam.ts BeamOutcome.best). It changes nothing else: the
   * search, its answer and its position count are the same.
   */
  readonly progress?: boolean;
}

/** What SolveOptions.onProgress is told. */
export interface SolveProgress {
  /** Distinct positions stored so far (a multiple of PROGRESS_EVERY). */
  readonly positions: number;
  /** Milliseconds since the solve began. */
  readonly elapsedMs: number;
}

/**
 * How many newly stored positions apart SolveOptions.onProgress is called: 16,384 (2^14), some
 * ten to thirty times a second at the solver's speed, so that the cost (one AND and one compare per
 * stored position, a call every 16,384) is nothing measurable.
 */
export const PROGRESS_EVERY = 1 << 14;

/** Result of one search. A `won` line has always been replayed through the rules engine to a win. */
export interface SolveResult {
  readonly status: SolveStatus;
  /** Distinct positions stored in the transposition table (each counted once, when first stored). */
  readonly positions: number;
  /** Wall time of the search, milliseconds. */
  readonly elapsedMs: number;
  /** Winning line in the project's move notation (empty unless won). */
  readonly line: readonly string[];
  /** Moves in the line, deals included (R16); null unless won. */
  readonly moveCount: number | null;
  /** Classic score of the winning line (R16); null unless won. */
  readonly classicScore: number | null;
  /** Reveal score of the winning line (R17); null unless won. */
  readonly revealScore: number | null;
  /** Bytes held by the transposition table and search structures at their peak. */
  readonly peakBytes: number;
  /** Version of the solver that produced this result; results of different versions are not mixed. */
  readonly solverVersion: string;
  /**
   * The stages the solve ran, in order (solve.ts: quick, beam, complete), each with the new positions
   * it stored (together: `positions`) and how it ended. Deterministic, like `positions`.
   */
  readonly stages: readonly StageReport[];
  /**
   * With SolveOptions.progress, when not won and the beam search ran: its best position before the
   * first deal (beam.ts BeamOutcome.best: the lowest score of those it kept with as many stock deals
   * left as the start): the line to it from the start (project notation; empty when none scored lower
   * than the start), and `gain`, the start's score less its score (>= 0, in the evaluation's points:
   * a face-down card 2, a break in order 1, an empty column -2, a completed suit -13; key.ts
   * DEFAULT_WEIGHTS).
   */
  readonly progress?: { readonly line: readonly string[]; readonly gain: number };
}

/**
 * One stage of a solve (solve.ts). `end`: `won`, `lost` (proven: R19), `budget spent` (undecided: it
 * needed a new position with the budget full; also a quick stage whose share was the whole budget
 * and that stored it); or why the next stage took over: `share spent` (the quick stage stored its
 * share of the budget, or entered four times as many positions), `ran dry` (a pruned search, the
 * quick stage's or the beam's, saw all it can reach: that proves nothing), `budget short` (the budget
 * left could not hold the beam's next iteration, BEAM_SHORT_HAND_OFF). A stage may store no position (0): it
 * ran over positions stored before, entering them again free.
 */
export interface StageReport {
  readonly stage: 'quick' | 'beam' | 'complete';
  /** New positions the stage stored (a position an earlier stage stored is entered again free). */
  readonly positions: number;
  /** Beam iterations run, the last included (the beam only; null for the others). */
  readonly iterations: number | null;
  readonly end: 'won' | 'lost' | 'budget spent' | 'share spent' | 'ran dry' | 'budget short';
}

/** Default position budget (issue: 1,000,000 positions). */
export const DEFAULT_MAX_POSITIONS = 1_000_000;

/**
 * The largest budget the commands accept: 200,000,000 positions, some 10 GB of table at 40–64 bytes
 * a position (docs/figures.md), beyond any machine this tool runs on.
 */
export const MAX_MAX_POSITIONS = 200_000_000;

/** Version string stored with every result; bump when the search changes what it finds or counts. */
export const SOLVER_VERSION = '3.9.0';

/**
 * Thrown by solve (solve.ts) and confirmLoss (confirm.ts) when the machine has no memory left for the
 * table to grow (an ArrayBuffer that cannot be allocated): the search is stopped and its table freed,
 * and no answer is given, since one that depended on the machine's memory would break the rule that
 * a deal, budget and solver version give one answer and one count. `positions`: positions stored
 * when it ran out; `bytes`: the table's and column store's bytes then.
 */
export class SolverMemoryError extends Error {
  constructor(
    readonly positions: number,
    readonly bytes: number,
  ) {
    super(`memory ran out with ${positions.toLocaleString('en-US')} positions stored (${(bytes / 2 ** 30).toFixed(2)} GB of table)`);
    this.name = 'SolverMemoryError';
  }
}

/** Is `e` the error V8 throws when an ArrayBuffer or typed array cannot be allocated (RangeError: `Array buffer allocation failed`, `Invalid typed array length`)? */
export function isAllocationFailure(e: unknown): boolean {
  return e instanceof RangeError && /allocation failed|invalid typed array length|invalid array buffer length/i.test(e.message);
}
