/**
 * Where a blind game was lost: the last position along the game from which a perfect-information win
 * (R18) still existed, found by solving the true positions at a budget.
 *
 * A win from position i is a win from every earlier position (play the game's moves up to i, then
 * the win), so the winnable positions are a prefix of the game; a binary search over the positions
 * finds its end in O(log n) solves. A solve that is undecided (budget spent) is taken as "not known
 * won", so the answer is the last position the solver proved winnable; it is exact when the position
 * after it was proven lost (every reachable position examined, R19), else the loss may come later.
 * The end of a stuck game may itself be winnable (the player stopped with moves left: it had none it
 * would play, or the move limit was reached): then no move lost the deal, and the answer is the end.
 */
import type { Position } from '../game/position.js';
import { isWon } from '../game/position.js';
import { lineMove } from '../game/score.js';
import { applyMove } from '../game/rules.js';
import { solve } from '../solver/solve.js';

/** The answer of `findLoss`. */
export interface LossPoint {
  /**
   * Moves played before the last position proven winnable (0 = the start), or null when not even the
   * start was proven winnable within the budget (`exact` then says whether the start was proven lost:
   * the deal cannot be won at all), or the game was won (nothing was lost). The length
   * of the line when the end itself was proven winnable: no move lost the deal, the player stopped
   * where a win still existed.
   */
  readonly lastWinnable: number | null;
  /**
   * True when the position after `lastWinnable` was proven lost, so move `lastWinnable + 1` (counting
   * from 1) lost the deal; false when that position was undecided (the loss is there or later; when
   * it is the end, the loss is that last move or the player's stopping there). True too when
   * `lastWinnable` is the end (proven winnable: nothing later to look at), and when `lastWinnable` is
   * null because the start itself was proven lost (R19).
   */
  readonly exact: boolean;
  /** Position budget of each solve. */
  readonly budget: number;
  /** Solves run and positions they stored, all together. */
  readonly solves: number;
  readonly positions: number;
}

/** Work done so far by a loss search: solves run and positions they stored. */
export interface LossWork {
  readonly solves: number;
  readonly positions: number;
}

/**
 * The loss search of findLoss as a generator: yields the work done after each solve, returns the
 * answer. Throws Error if the line does not replay.
 */
function* lossSearch(start: Position, line: readonly string[], budget: number): Generator<LossWork, LossPoint, void> {
  const positions = replayPositions(start, line);
  if (isWon(positions[positions.length - 1]!)) return { lastWinnable: null, exact: true, budget, solves: 0, positions: 0 };
  let solves = 0;
  let stored = 0;
  const memo = new Map<number, 'won' | 'lost' | 'undecided'>();
  function* status(i: number): Generator<LossWork, 'won' | 'lost' | 'undecided', void> {
    let s = memo.get(i);
    if (s === undefined) {
      const r = solve(positions[i]!, { maxPositions: budget });
      solves++;
      stored += r.positions;
      s = r.status;
      memo.set(i, s);
      yield { solves, positions: stored };
    }
    return s;
  }
  // winnable positions form a prefix: find its last member
  // the start not winnable: proven lost (no move lost it: the deal cannot be won), or not known
  const first = yield* status(0);
  if (first !== 'won') return { lastWinnable: null, exact: first === 'lost', budget, solves, positions: stored };
  let lo = 0;
  let hi = positions.length - 1; // the end is stuck: not won
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((yield* status(mid)) === 'won') lo = mid;
    else hi = mid;
  }
  const after = yield* status(hi);
  // the end proven winnable (hi is the end whenever every position solved before it was won): the
  // player stopped where a win still existed, and no move lost the deal
  if (after === 'won') return { lastWinnable: hi, exact: true, budget, solves, positions: stored };
  return { lastWinnable: lo, exact: after === 'lost', budget, solves, positions: stored };
}

/**
 * Finds where a game played from `start` along `line` (notation) was lost (see the module comment).
 * A line that ends in a win answers `lastWinnable: null, exact: true` with no solve. Throws Error if the
 * line does not replay (a defect of the caller: blind games always replay).
 */
export function findLoss(start: Position, line: readonly string[], budget: number): LossPoint {
  const search = lossSearch(start, line, budget);
  for (;;) {
    const r = search.next();
    if (r.done) return r.value;
  }
}

/**
 * findLoss, giving the event loop a turn after each solve so that `signal` (an abort on SIGINT, say)
 * can stop it between two solves: resolves the same LossPoint, or `{ stopped: true }` with the work
 * done before it stopped. Throws as findLoss.
 */
export async function findLossUnlessStopped(start: Position, line: readonly string[], budget: number, signal: AbortSignal): Promise<LossPoint | (LossWork & { readonly stopped: true })> {
  const search = lossSearch(start, line, budget);
  let done: LossWork = { solves: 0, positions: 0 };
  for (;;) {
    if (signal.aborted) return { ...done, stopped: true };
    const r = search.next();
    if (r.done) return r.value;
    done = r.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * The positions along a line (notation) played from `start` through the rules engine: `line.length + 1`
 * of them, the start first. Throws Error naming the move if the line does not replay.
 */
export function replayPositions(start: Position, line: readonly string[]): Position[] {
  const out = [start];
  let pos = start;
  line.forEach((text, i) => {
    const m = lineMove(pos, text, i);
    if (!m.ok) throw new Error(`the game does not replay: ${m.error.message}`);
    pos = applyMove(pos, m.value).position;
    out.push(pos);
  });
  return out;
}
