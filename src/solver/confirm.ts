/**
 * A second check of a loss: the complete search alone, from the start, without the solver's reductions.
 *
 * A solve proves a deal lost when its search has expanded every position it can reach (solve.ts,
 * docs/rules.md R19). That proof rests on the reductions of SolverState.generate (moves into an
 * empty column go to the first empty one only; a whole column with no face-down card is not moved
 * into an empty one) and on the canonical key, which stores positions equal up to interchangeable
 * columns once (KeyCodec); and it follows the quick and beam stages, whose positions the complete
 * stage enters again. `confirmLoss` shares none of that: a fresh table, no earlier stage, every legal
 * move (R6–R12), columns kept in their order. It stores more positions than the solve (each set of
 * interchangeable columns in every order it occurs in), so a loss too large for it at its budget is
 * left unconfirmed, never confirmed by guess. If it finds a win, the line is replayed through the
 * rules engine and returned: a loss the solver claimed is then contradicted.
 */
import type { Position } from '../game/position.js';
import { playLine } from '../game/score.js';
import { completeSearch } from './complete.js';
import { ColumnStore, KeyCodec } from './key.js';
import { lineText, rebuildPacked } from './line.js';
import { SolverState } from './state.js';
import { memoryFault, PositionTable } from './table.js';
import { DEFAULT_MAX_POSITIONS, type SolveStatus } from './types.js';

/** What confirmLoss answers. */
export interface ConfirmResult {
  /**
   * lost: every position reachable from the start expanded without the reductions, none won (the loss
   * confirmed); won: a win found (the loss contradicted; `line` replays to it); undecided: the budget
   * ran out first (neither).
   */
  readonly status: SolveStatus;
  /** Distinct positions stored (columns in their order). */
  readonly positions: number;
  /** Wall time of the search, milliseconds. */
  readonly elapsedMs: number;
  /** Peak bytes of the table, its column store and the queue. */
  readonly peakBytes: number;
  /** Won only: the winning line in the project's notation, replayed through the rules engine; else []. */
  readonly line: readonly string[];
}

/**
 * Searches every position reachable from `position`, breadth-first, with no reduction (see the module
 * comment), up to `maxPositions` distinct positions (default 1,000,000). Deterministic: the same
 * position and budget give the same answer and count. Throws SolverMemoryError (types.ts) when the
 * machine has no memory left for the table, Error on a defect (a win whose line does not replay).
 */
export function confirmLoss(position: Position, maxPositions = DEFAULT_MAX_POSITIONS): ConfirmResult {
  const max = Math.max(1, Math.floor(maxPositions));
  const t0 = performance.now();
  const store = new ColumnStore();
  // (a key's length depends only on the number of columns: any codec of the game reads it)
  const lengths = new KeyCodec(new SolverState(position), undefined, false, store);
  const table = new PositionTable(max, (a, o) => lengths.keyLength(a, o));
  let full: ReturnType<typeof completeSearch>;
  try {
    full = completeSearch(position, max, table, store, false, false);
  } catch (e) {
    throw memoryFault(e, table, store.bytes);
  }
  let line: string[] = [];
  if (full.status === 'won') {
    line = lineText(position, rebuildPacked(position, table.pathTo(full.goal), table, full.codec));
    const played = playLine(position, line);
    if (!played.ok || !played.value.won) throw new Error(`confirmLoss defect: the winning line does not replay to a win (${played.ok ? 'not won' : played.error.message})`);
  }
  const peakBytes = table.bytes + store.bytes + full.peakBytes;
  const positions = table.size;
  table.release();
  return { status: full.status, positions, elapsedMs: Math.round((performance.now() - t0) * 10) / 10, peakBytes, line };
}
