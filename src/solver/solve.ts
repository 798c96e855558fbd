/**
 * The solver's entry point: four passes within one position budget, the winning line written in the
 * project's notation and replayed through the rules engine before it is reported.
 *
 * 1. Quick pass (5% of the budget): pruned depth-first searches (search.ts), restarted with growing
 *    budgets and seeded noise in the move order. They leave out moves a player would not consider —
 *    splitting a run of one suit onto a card, moving a group between two cards of other suits
 *    (SOLVER-NOTES.md lists such rules as heuristics) — and win easy deals in a few hundred positions.
 * 2. Probe (2%): the exact best-first search (bestfirst.ts); it settles positions whose whole reachable
 *    space is small, won or lost.
 * 3. Phase search (88% for Spider, 43% for Spiderette): plans the game one stock deal at a time
 *    (phases.ts). It finds most wins; like pass 1, when it fails it proves nothing.
 * 4. Exact pass (the rest): the exact best-first search again, over every legal move with only sound
 *    reductions. Only passes 2 and 4 may answer **lost** (RULES.md R19).
 * `positions` is the sum over all passes; the answer never depends on time or on worker count.
 * A winning line is shortened (line.ts) before it is replayed and reported.
 */
import type { Position } from '../game/position.js';
import { playLine } from '../game/score.js';
import { restartSearch } from './search.js';
import { phaseSearch } from './phases.js';
import { lineText, shortenLine } from './line.js';
import { bestFirstSearch, rebuildLine } from './bestfirst.js';
import { ColumnStore } from './key.js';
import { DEFAULT_MAX_POSITIONS, SOLVER_VERSION, type SolveOptions, type SolveResult } from './types.js';

/** Share of the budget for the first, small exact probe. */
export const PROBE_SHARE = 0.02;
/** Share of the budget for the quick restarted depth-first pass, and its least budget (small budgets go to it whole). */
export const QUICK_SHARE = 0.05;
export const QUICK_MIN = 2000;
/**
 * Share of the budget for the phase search, by game; the exact pass gets the rest. A Spider deal's
 * reachable space is far beyond any budget, so its exact pass is kept small; a Spiderette deal's can
 * be exhausted, so half its budget goes to proving losses.
 */
export const PHASE_SHARE = { spider: 0.88, spiderette: 0.43 } as const;

/**
 * Solves a position within a position budget (default 1,000,000 stored positions, all passes
 * together). Returns won (with a line replayed to a win through the rules engine), lost (the exact
 * pass examined every reachable position) or undecided (budget spent) — RULES.md R19.
 * Throws Error only on a solver defect (a claimed win that does not replay).
 */
export function solve(position: Position, opts: SolveOptions = {}): SolveResult {
  const max = Math.max(1, Math.floor(opts.maxPositions ?? DEFAULT_MAX_POSITIONS));
  const t0 = performance.now();
  // every pass stores its columns in one store: a column met by several searches is stored once
  const store = new ColumnStore();
  // 1. the quick pass wins easy deals in a few hundred positions
  const quick = restartSearch(position, Math.min(max, Math.max(QUICK_MIN, Math.floor(max * QUICK_SHARE))), store);
  let status: SolveResult['status'] = quick.status;
  let positions = quick.positions;
  let peak = quick.peakBytes;
  let line: string[] = status === 'won' ? lineText(position, quick.moves) : [];
  // 2. a small exact probe settles positions whose whole reachable space is small, won or lost
  if (status === 'undecided' && positions < max) {
    const probe = bestFirstSearch(position, Math.max(1, Math.floor(max * PROBE_SHARE)), { store });
    status = probe.status;
    positions += probe.positions;
    peak = Math.max(peak, probe.peakBytes);
    if (status === 'won') line = rebuildLine(position, probe.path, probe.table, probe.codec);
  }
  // 3. the phase search finds most wins
  if (status === 'undecided' && positions < max) {
    const planned = phaseSearch(position, Math.max(1, Math.floor(max * (PROBE_SHARE + QUICK_SHARE + PHASE_SHARE[position.variant.game])) - positions), { store });
    positions += planned.positions;
    peak = Math.max(peak, planned.peakBytes);
    if (planned.status === 'won') {
      status = 'won';
      line = planned.line;
    }
  }
  // 4. the exact pass: every legal move; only it and the probe may answer lost
  if (status === 'undecided') {
    const rest = max - positions;
    if (rest > 0) {
      const exact = bestFirstSearch(position, rest, { store });
      status = exact.status;
      positions += exact.positions;
      peak = Math.max(peak, exact.peakBytes);
      if (status === 'won') line = rebuildLine(position, exact.path, exact.table, exact.codec);
    }
  }
  let moveCount: number | null = null;
  let classic: number | null = null;
  let reveal: number | null = null;
  if (status === 'won') {
    line = shortenLine(position, line);
    const played = playLine(position, line);
    if (!played.ok || !played.value.won) {
      throw new Error(`solver defect: the winning line does not replay to a win (${played.ok ? 'not won' : played.error.message})`);
    }
    moveCount = played.value.moves.length;
    classic = played.value.classic;
    reveal = played.value.reveal;
  }
  return {
    status,
    positions,
    elapsedMs: Math.round((performance.now() - t0) * 10) / 10,
    line,
    moveCount,
    classicScore: classic,
    revealScore: reveal,
    peakBytes: peak,
    solverVersion: SOLVER_VERSION,
  };
}
