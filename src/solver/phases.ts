/**
 * The phase search: a heuristic pass that plans the game one stock deal at a time.
 *
 * Everything between two deals is a *phase* (SOLVER-NOTES.md). From the start of a phase, a bounded
 * best-first search over the phase's moves (no deal, the heuristic move pruning of search.ts) keeps
 * the best few positions from which the stock may be dealt (R12); the search then deals from the best
 * of them and plans the next phase, backtracking to the next candidate when a later phase fails. In
 * the last phase (stock empty) the best-first search looks for the win itself. The width (positions
 * per phase, candidates per phase) grows from one round to the next until the budget is spent.
 * It finds wins; it never proves a loss.
 */
import { applyMove } from '../game/rules.js';
import { DEAL } from '../game/move.js';
import { playLine } from '../game/score.js';
import type { Position } from '../game/position.js';
import { bestFirstSearch, rebuildLine } from './bestfirst.js';
import { ColumnStore, type EvalWeights } from './key.js';

/**
 * Evaluation used inside a phase: face-down cards, the runs lying over them, and order; the stock term
 * is constant there. Tuned on seeds 1001-1060, outside the benchmark sets.
 */
export const PHASE_WEIGHTS: EvalWeights = { down: 6, rankBreak: 3, suitBreak: 2, stockCard: 0, removed: 30, empty: 3, buried: 5 };

/**
 * Weight changes used on every other round (the even ones, from round 0), so that each round is
 * followed by one that ranks positions differently (suit breaks dearer than rank breaks, or not).
 * Tuned on seeds 1061-1140 (4-suit Spider at 300,000 positions: 26 to 32 wins of 40).
 */
export const PHASE_VARIANTS: readonly Partial<EvalWeights>[] = [{ rankBreak: 2, suitBreak: 4 }];

/** Outcome of the phase search. */
export interface PhaseOutcome {
  readonly status: 'won' | 'undecided';
  readonly positions: number;
  /** The winning line in the project's notation (won only). */
  readonly line: string[];
  readonly peakBytes: number;
}

/** Rounds of the phase search: positions per phase and candidates kept per phase. */
export const PHASE_ROUNDS: readonly (readonly [number, number, number?])[] = [
  [500, 1], [1000, 2], [2000, 2], [4000, 3], [8000, 3], [16000, 4], [32000, 4], [64000, 5], [128000, 6],
];

/** Settings of the phase search (for tuning; the defaults are what `solve` uses). */
export interface PhaseOptions {
  readonly weights?: EvalWeights;
  readonly rounds?: readonly (readonly [number, number, number?])[];
  /** The last phase (stock empty) gets this many times the positions of the others. */
  readonly lastFactor?: number;
  /** Leave out the moves the heuristic pass prunes (default true); else give them `penalty`. */
  readonly prune?: boolean;
  readonly penalty?: number;
  /** When a pruned phase runs dry it is searched again with every move, pruned ones this much later. */
  readonly retryPenalty?: number;
  /** Weight changes tried in turn: round k uses variants[k mod (n+1)], or the base weights when that is n (default PHASE_VARIANTS). */
  readonly variants?: readonly Partial<EvalWeights>[];
  /** Column store shared by every phase's search (default: one for this phase search). */
  readonly store?: ColumnStore;
}

/**
 * Runs rounds of the phase search from `start` until a win or `maxPositions` stored positions in all.
 */
export function phaseSearch(start: Position, maxPositions: number, opts: PhaseOptions = {}): PhaseOutcome {
  const baseWeights = opts.weights ?? PHASE_WEIGHTS;
  const variants = opts.variants ?? PHASE_VARIANTS;
  const rounds = opts.rounds ?? PHASE_ROUNDS;
  const lastFactor = opts.lastFactor ?? 4;
  const prune = opts.prune ?? true;
  const penalty = opts.penalty ?? 0;
  const retryPenalty = opts.retryPenalty ?? 6;
  const store = opts.store ?? new ColumnStore();
  let used = 0;
  let peak = 0;
  const out = (status: PhaseOutcome['status'], line: string[]): PhaseOutcome => ({ status, positions: used, line, peakBytes: peak });

  let weights = baseWeights;
  /**
   * Searches the phase from `pos`: the winning line from `pos` if the phase wins, else the lines to the
   * first `count` candidates (deal-ready positions, best first). The phase's table is let go on return,
   * before later phases are planned, so one phase's search is all the memory held at a time.
   */
  const searchPhase = (pos: Position, perPhase: number, keep: number, count: number): { won: string[] | null; lines: string[][] } => {
    const last = pos.stock.length === 0;
    const budget = Math.min(last ? perPhase * lastFactor : perPhase, maxPositions - used);
    let r = bestFirstSearch(pos, budget, { weights, prune, penalty, noDeal: true, keep: last ? 0 : keep, store });
    used += r.positions;
    peak = Math.max(peak, r.peakBytes);
    if (r.exhausted && prune && budget - r.positions > 0 && used < maxPositions) {
      // the pruned phase ran dry: search it again with every move, the pruned ones ranked last
      const again = bestFirstSearch(pos, Math.min(budget - r.positions, maxPositions - used), { weights, penalty: retryPenalty, noDeal: true, keep: last ? 0 : keep, store });
      used += again.positions;
      peak = Math.max(peak, again.peakBytes);
      r = again;
    }
    if (r.status === 'won') return { won: rebuildLine(pos, r.path, r.table, r.codec), lines: [] };
    const lines: string[][] = [];
    for (let i = 0; i < r.candidates.length && i < count; i++) lines.push(rebuildLine(pos, r.table.pathTo(r.candidates[i]!), r.table, r.codec));
    return { won: null, lines };
  };

  /** Plans from `pos` (reached by `line`); returns the winning line or null. */
  const plan = (pos: Position, line: string[], perPhase: number, keep: number, slack: number): string[] | null => {
    if (used >= maxPositions) return null;
    const { won, lines } = searchPhase(pos, perPhase, keep, pos.stock.length === 0 ? 0 : slack + 1);
    if (won) return [...line, ...won];
    for (let i = 0; i < lines.length; i++) {
      const moves = lines[i]!;
      const played = playLine(pos, moves);
      if (!played.ok) throw new Error(`solver defect: a phase line does not replay (${played.error.message})`);
      const dealt = applyMove(played.value.position, DEAL).position;
      const next = plan(dealt, [...line, ...moves, 'd'], perPhase, keep, slack - i);
      if (next) return next;
      if (used >= maxPositions) return null;
    }
    return null;
  };

  for (let round = 0; used < maxPositions; round++) {
    const [perPhase, keep, slack] = rounds[Math.min(round, rounds.length - 1)]!;
    const v = variants.length ? variants[round % (variants.length + 1)] : undefined;
    weights = v ? { ...baseWeights, ...v } : baseWeights;
    const won = plan(start, [], perPhase, keep, slack ?? keep);
    if (won) return out('won', won);
  }
  return out('undecided', []);
}
