/**
 * Lines of play in the solver: packed moves written in the project's notation, and the shortening
 * of a winning line.
 *
 * Shortening a winning line: the search's line often wanders (a card moved out and back, a detour
 * through an empty column). Along the line, every position leads to the win, so from any position
 * the line may jump to any later position of the line that it reaches in one move (or to a later
 * copy of itself, with no move). Positions are compared exactly, column by column — never up to
 * interchangeable columns, since the rest of the line names columns by number.
 */
import { parseMove } from '../game/move.js';
import type { Position } from '../game/position.js';
import { applyMove, resolveMove } from '../game/rules.js';
import { CAP, DEAL_MOVE, packMove, SolverState } from './state.js';

/** The exact position of a state as a string (stock, then each column's face-down count and face-up cards). */
function exactKey(s: SolverState): string {
  let k = String.fromCharCode(s.stockLeft);
  for (let c = 0; c < s.ncols; c++) {
    k += String.fromCharCode(200 + s.down[c]!) + String.fromCharCode(...s.up.subarray(c * CAP, c * CAP + s.upLen[c]!));
  }
  return k;
}

/**
 * Returns a line from `start` that ends where `line` ends (a win), no longer than `line`, with
 * repeated positions cut out and one-move shortcuts to later positions of the line taken greedily
 * (the farthest first). `line` must be legal (it is, after the solver's replay); throws Error if not.
 */
export function shortenLine(start: Position, line: readonly string[]): string[] {
  // the line as packed moves, through the rules engine
  const packed: number[] = [];
  let pos = start;
  for (const text of line) {
    const spec = parseMove(text, pos.columns.length);
    const move = spec.ok ? resolveMove(pos, spec.value, text) : spec;
    if (!move.ok) throw new Error(`shortenLine: ${move.error.message}`);
    const m = move.value;
    packed.push(m.kind === 'deal' ? DEAL_MOVE : packMove(m.from, m.to, m.count));
    pos = applyMove(pos, m).position;
  }
  // the last index at which each position occurs
  const state = new SolverState(start);
  const last = new Map<string, number>();
  const keys: string[] = [exactKey(state)];
  last.set(keys[0]!, 0);
  packed.forEach((m, i) => {
    state.apply(m);
    const k = exactKey(state);
    keys.push(k);
    last.set(k, i + 1);
  });
  // walk the line again, jumping ahead wherever one move (or none) reaches a later position
  const s = new SolverState(start);
  const moves = new Int32Array(1024);
  const out: number[] = [];
  let i = 0;
  while (i < packed.length) {
    const same = last.get(keys[i]!)!;
    if (same > i) {
      i = same;
      continue;
    }
    let best = i + 1;
    let bestMove = packed[i]!;
    const n = s.generate(moves, false);
    for (let k = 0; k < n; k++) {
      const m = moves[k]!;
      const tok = s.apply(m);
      const j = last.get(exactKey(s));
      if (j !== undefined && j > best) {
        best = j;
        bestMove = m;
      }
      s.undo(m, tok);
    }
    s.apply(bestMove);
    out.push(bestMove);
    i = best;
  }
  return lineText(start, out);
}

/**
 * Writes packed solver moves from `start` in the project's notation (`d`, `3-7`, `3-7x4` into an
 * empty column). The moves must be legal in turn.
 */
export function lineText(start: Position, packed: readonly number[]): string[] {
  const state = new SolverState(start);
  return packed.map((m) => {
    let text = 'd';
    if (m !== DEAL_MOVE) {
      const to = (m >> 5) & 31;
      text = `${(m & 31) + 1}-${to + 1}${state.upLen[to] === 0 ? `x${m >> 10}` : ''}`;
    }
    state.apply(m);
    return text;
  });
}
