/**
 * The solver's entry point: one transposition table for the whole solve, three stages over it, and the
 * winning line written in the project's notation, shortened and replayed through the rules engine
 * before it is reported.
 *
 * 1. Quick stage (1% of the budget, at least 10,000 positions): restarted, pruned depth-first searches
 *    (search.ts); they win easy deals in a few hundred positions and never answer lost.
 * 2. Iterative-widening beam search (beam.ts), the rest of the budget, heuristic: it prunes moves and
 *    drops positions, until a win, the budget, or an iteration that dropped none: if it pruned none
 *    either, that iteration was complete and the deal is **lost** (docs/rules.md R19); else the pruned
 *    search has seen every position it can reach, and stage 3 takes over. Stage 3 takes over too
 *    after a failed iteration that kept more positions than the budget has left: the
 *    next, twice as wide, could not finish (BEAM_SHORT_HAND_OFF in beam.ts).
 * 3. Complete search (complete.ts: breadth-first, no pruning), the rest of the budget: it expands
 *    every position reachable from the start once — entering those stored already at no cost — and
 *    answers lost when none of them is won. Beam iterations that prune nothing, each as wide as it
 *    needs to drop nothing (`complete: 'beam'`), would expand the same positions again in each; no
 *    deal outside the benchmark sets was won in them (PySolFC Spiderette 1101–1300 and
 *    Spider 1101–1200, seeds 3001–3100 of one-, two- and four-suit Spiderette and of four-suit
 *    Spider, 3001–3200 of two-suit Spider at 167,000), so they served only to prove losses, which
 *    the complete stage does in the same count and less time.
 *
 * Every position the solve stores is stored once, in the one table, and counted once, when first
 * stored, whichever stage or iteration meets it: `positions` is the table's size at the end, and the
 * budget bounds it. A stage stops when it needs one position more than the budget, not when it has
 * stored the last one the budget allows, so that a budget exactly equal to a deal's reachable
 * positions proves it lost. The answer never depends on
 * time or on worker count.
 */
import type { Position } from '../game/position.js';
import { playLine } from '../game/score.js';
import { lineText, rebuildPacked, shortenPacked } from './line.js';
import { restartSearch } from './search.js';
import { completeSearch } from './complete.js';
import { beamSearch, type BeamOptions } from './beam.js';
import { ColumnStore, KeyCodec } from './key.js';
import { SolverState } from './state.js';
import { memoryFault, PositionTable } from './table.js';
import { DEFAULT_MAX_POSITIONS, SOLVER_VERSION, type SolveOptions, type SolveResult, type StageReport } from './types.js';

/**
 * Share of the budget for the quick depth-first stage, and its least budget (a budget below it goes
 * to the stage whole). Tuned on seeds 2001+ and PySolFC games 1001+, outside the benchmark sets.
 */
export const QUICK_SHARE = 0.01;
export const QUICK_MIN = 10_000;

/** Settings of a solve, for tuning experiments (results with other settings are not SOLVER_VERSION's). */
export interface SolveTuning extends BeamOptions {
  /** Share of the budget for the quick stage (default QUICK_SHARE; 0 for none). */
  readonly quickShare?: number;
  /** Least budget of the quick stage (default QUICK_MIN). */
  readonly quickMin?: number;
  /**
   * The complete search after the pruned beam search ran dry: 'breadth-first' (default, complete.ts)
   * or 'beam' (beam iterations that prune nothing, each as wide as it needs; for measurement).
   */
  readonly complete?: 'breadth-first' | 'beam';
}

/**
 * Solves a position within a position budget (default 1,000,000 distinct stored positions). Returns
 * won (with a line replayed to a win through the rules engine), lost (every reachable position was
 * examined) or undecided (budget spent) — docs/rules.md R19 — with the stages it ran (`stages`: what each
 * stored and how it ended). `tuning` changes the stages' settings (for experiments only: the commands
 * never pass it). Throws SolverMemoryError (types.ts) when the machine has no memory left for the
 * table (the table is freed; no answer), Error on a solver defect (a claimed win that does not replay).
 */
export function solve(position: Position, opts: SolveOptions = {}, tuning: SolveTuning = {}): SolveResult {
  const max = Math.max(1, Math.floor(opts.maxPositions ?? DEFAULT_MAX_POSITIONS));
  const t0 = performance.now();
  const store = new ColumnStore();
  const keyCodec = new KeyCodec(new SolverState(position), undefined, true, store);
  const table = new PositionTable(max, (a, o) => keyCodec.keyLength(a, o));
  const progress = opts.onProgress;
  if (progress) table.onGrow = (positions) => progress({ positions, elapsedMs: performance.now() - t0 });
  const quickShare = tuning.quickShare ?? QUICK_SHARE;
  let status: SolveResult['status'] = 'undecided';
  // the winning line, packed (state.ts packMove)
  let packed: number[] = [];
  let peak = 0;
  // the beam search's outcome, for the progress line (opts.progress)
  let bestOf: ReturnType<typeof beamSearch> | null = null;
  const stages: StageReport[] = [];
  try {
    if (quickShare > 0) {
      const quick = restartSearch(position, Math.min(max, Math.max(tuning.quickMin ?? QUICK_MIN, Math.floor(max * quickShare))), store, table);
      peak = quick.peakBytes;
      if (quick.status === 'won') {
        status = 'won';
        packed = quick.moves;
      }
      stages.push({ stage: 'quick', positions: table.size, iterations: null, end: quick.status === 'won' ? 'won' : quick.ranDry ? 'ran dry' : table.size >= max ? 'budget spent' : 'share spent' });
    }
    // (a table the quick stage filled to the budget goes on: the later stages stop only when they need
    // a position more, so a budget equal to a deal's reachable positions proves it lost)
    if (status !== 'won') {
      const before = table.size;
      const beam = beamSearch(position, max, table, store, { ...tuning, handOff: tuning.complete !== 'beam' });
      bestOf = beam;
      peak = Math.max(peak, table.bytes + store.bytes + beam.peakBytes);
      const beamEnd = beam.status === 'exhausted' ? beam.handedOver! : beam.status === 'undecided' ? 'budget spent' : beam.status;
      stages.push({ stage: 'beam', positions: table.size - before, iterations: beam.iterations, end: beamEnd });
      if (beam.status === 'exhausted') {
        const before2 = table.size;
        const full = completeSearch(position, max, table, store, true, true, tuning.deadEnds ?? true);
        stages.push({ stage: 'complete', positions: table.size - before2, iterations: null, end: full.status === 'undecided' ? 'budget spent' : full.status });
        status = full.status;
        if (status === 'won') packed = rebuildPacked(position, table.pathTo(full.goal), table, full.codec);
        peak = Math.max(peak, table.bytes + store.bytes + full.peakBytes);
      } else {
        status = beam.status;
        if (status === 'won') packed = rebuildPacked(position, table.pathTo(beam.goal), table, beam.codec);
      }
    }
  } catch (e) {
    // no memory left for the table: stop, free it, and give no answer (SolverMemoryError)
    throw memoryFault(e, table, store.bytes);
  }
  let moveCount: number | null = null;
  let classic: number | null = null;
  let reveal: number | null = null;
  let line: string[] = [];
  if (status === 'won') {
    line = lineText(position, shortenPacked(position, packed));
    const played = playLine(position, line);
    if (!played.ok || !played.value.won) {
      throw new Error(`solver defect: the winning line does not replay to a win (${played.ok ? 'not won' : played.error.message})`);
    }
    moveCount = played.value.moves.length;
    classic = played.value.classic;
    reveal = played.value.reveal;
  }
  let progressOut: SolveResult['progress'];
  if (opts.progress && status !== 'won' && bestOf !== null && bestOf.best.node >= 0) {
    const { node, value, start } = bestOf.best;
    const path = table.pathTo(node);
    progressOut = { line: path.length > 1 ? lineText(position, rebuildPacked(position, path, table, bestOf.codec)) : [], gain: start - value };
  }
  // the table's memory goes to the next solve in this thread (memory already touched)
  table.onGrow = null;
  table.release();
  return {
    status,
    positions: table.size,
    elapsedMs: Math.round((performance.now() - t0) * 10) / 10,
    line,
    moveCount,
    classicScore: classic,
    revealScore: reveal,
    peakBytes: peak,
    solverVersion: SOLVER_VERSION,
    stages,
    ...(progressOut ? { progress: progressOut } : {}),
  };
}
