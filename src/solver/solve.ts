// TEMPORARY STUB — the real solver replaces this file. Do not edit (owned by the solver author).
import type { Position } from '../game/position.js';
import { DEFAULT_MAX_POSITIONS, SOLVER_VERSION, type SolveOptions, type SolveResult } from './types.js';

/** Solves a position within a position budget. (Stub: always undecided.) */
export function solve(position: Position, opts: SolveOptions = {}): SolveResult {
  void position;
  const t0 = performance.now();
  return {
    status: 'undecided', positions: opts.maxPositions ?? DEFAULT_MAX_POSITIONS, elapsedMs: performance.now() - t0,
    line: [], moveCount: null, classicScore: null, revealScore: null, peakBytes: 0, solverVersion: SOLVER_VERSION,
  };
}
