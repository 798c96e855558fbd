/**
 * The solver's entry point: search, rebuild the winning line, replay it through the rules engine.
 */
import type { Position } from '../game/position.js';
import { playLine } from '../game/score.js';
import { search } from './search.js';
import { DEAL_MOVE, SolverState } from './state.js';
import { KeyCodec, type EvalWeights } from './key.js';
import type { PositionTable } from './table.js';
import { DEFAULT_MAX_POSITIONS, SOLVER_VERSION, type SolveOptions, type SolveResult } from './types.js';

/**
 * Rebuilds a line of moves, in the project's notation, that follows the node path from the start:
 * at each step, the move whose resulting key equals the next node's key.
 * Throws Error when no move leads to the next node (a solver defect).
 */
export function rebuildLine(start: Position, path: readonly number[], table: PositionTable, weights?: EvalWeights): string[] {
  const state = new SolverState(start);
  const codec = new KeyCodec(state, start.variant.suits, weights);
  const moves = new Int32Array(1024);
  const line: string[] = [];
  for (let p = 1; p < path.length; p++) {
    const off = table.offsets[path[p]!]!;
    const n = state.generate(moves, true);
    let found = false;
    for (let i = 0; i < n && !found; i++) {
      const m = moves[i]!;
      const to = (m >> 5) & 31;
      const toEmpty = m !== DEAL_MOVE && state.upLen[to] === 0;
      const tok = state.apply(m);
      const nw = codec.encode(state);
      let j = 0;
      while (j < nw && table.arena[off + j] === codec.buf[j]) j++;
      if (j === nw) {
        found = true;
        line.push(m === DEAL_MOVE ? 'd' : `${(m & 31) + 1}-${to + 1}${toEmpty ? `x${m >> 10}` : ''}`);
      } else state.undo(m, tok);
    }
    if (!found) throw new Error(`solver defect: no move leads to step ${p} of the winning path`);
  }
  return line;
}

/**
 * Solves a position within a position budget (default 1,000,000 stored positions).
 * Returns won (with a line that has been replayed to a win through the rules engine), lost (the
 * whole reachable space was examined) or undecided (budget spent) — RULES.md R19.
 * Throws Error only on a solver defect (a claimed win that does not replay).
 */
export function solve(position: Position, opts: SolveOptions = {}): SolveResult {
  const max = opts.maxPositions ?? DEFAULT_MAX_POSITIONS;
  const t0 = performance.now();
  const out = search(position, max);
  let line: string[] = [];
  let moveCount: number | null = null;
  let classic: number | null = null;
  let reveal: number | null = null;
  if (out.status === 'won') {
    line = rebuildLine(position, out.path, out.table);
    const played = playLine(position, line);
    if (!played.ok || !played.value.won) {
      throw new Error(`solver defect: the winning line does not replay to a win (${played.ok ? 'not won' : played.error.message})`);
    }
    moveCount = played.value.moves.length;
    classic = played.value.classic;
    reveal = played.value.reveal;
  }
  return {
    status: out.status,
    positions: out.positions,
    elapsedMs: Math.round((performance.now() - t0) * 10) / 10,
    line,
    moveCount,
    classicScore: classic,
    revealScore: reveal,
    peakBytes: out.peakBytes,
    solverVersion: SOLVER_VERSION,
  };
}
