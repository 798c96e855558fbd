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
import { KeyCodec } from './key.js';
import { CAP, DEAL_MOVE, packMove, RANK0, SolverState } from './state.js';
import { PositionTable } from './table.js';

/**
 * A position's shape: a 32-bit hash of each column's face-down and face-up counts, the stock left and
 * the suits removed. Equal positions have equal shapes; it costs no card reads.
 */
function shape(s: SolverState): number {
  let h = Math.imul(s.stockLeft + 1, 0x9e3779b1) ^ s.removed;
  for (let c = 0; c < s.ncols; c++) h = Math.imul(h ^ (s.upLen[c]! | (s.down[c]! << 8)), 0x85ebca6b) ^ (h >>> 15);
  return h;
}

/**
 * Exact positions along a line: each state is keyed by the solver's key in column order
 * (KeyCodec with canonical off) and stored in a PositionTable; `lastIndex` says where a position last occurs.
 */
class LinePositions {
  private readonly codec: KeyCodec;
  private readonly table: PositionTable;
  /** Node of the table -> the last index along the line at which its position occurs. */
  readonly last = new Map<number, number>();
  /** Shape (see `shape`) -> the last index along the line with that shape. */
  private readonly lastShape = new Map<number, number>();

  constructor(state: SolverState, size: number) {
    this.codec = new KeyCodec(state, undefined, false);
    this.table = new PositionTable(size, (a, o) => this.codec.keyLength(a, o));
  }

  /** Records that the line is at state `s` at index i (a later index replaces an earlier one). */
  add(s: SolverState, i: number): void {
    const nw = this.codec.encode(s);
    // most positions of a line are new: one probe stores them; a repeat is looked up again
    let node = this.table.insert(this.codec.buf, nw, 0);
    if (node < 0) node = this.table.find(this.codec.buf, nw);
    this.last.set(node, i);
    this.lastShape.set(shape(s), i);
  }

  /**
   * The last index along the line at which state `s` occurs if it is above `after`, else -1 (a
   * position whose shape occurs nowhere after `after` is answered without building its key).
   */
  lastIndex(s: SolverState, after = -1): number {
    if ((this.lastShape.get(shape(s)) ?? -1) <= after) return -1;
    const node = this.table.find(this.codec.buf, this.codec.encode(s));
    return node < 0 ? -1 : this.last.get(node)!;
  }
}

/**
 * Returns a line from `start` that ends where `line` ends (a win), no longer than `line`, with
 * repeated positions cut out and one-move shortcuts to later positions of the line taken greedily
 * (the farthest first). `line` must be a legal line from `start` (the solver's lines are); a line
 * that does not parse throws Error, and the caller replays the result through the rules engine.
 */
export function shortenLine(start: Position, line: readonly string[]): string[] {
  // the line as packed moves, and the last index at which each position occurs
  const state = new SolverState(start);
  const seen = new LinePositions(state, line.length + 1);
  const packed: number[] = [];
  seen.add(state, 0);
  for (const text of line) {
    const spec = parseMove(text, state.ncols);
    if (!spec.ok) throw new Error(`shortenLine: ${spec.error.message}`);
    const v = spec.value;
    let m = DEAL_MOVE;
    if (v.kind === 'move') {
      const toLen = state.upLen[v.to]!;
      const count = v.count || RANK0[state.up[v.to * CAP + toLen - 1]!]! - RANK0[state.up[v.from * CAP + state.upLen[v.from]! - 1]!]!;
      m = packMove(v.from, v.to, count);
    }
    packed.push(m);
    state.apply(m);
    seen.add(state, packed.length);
  }
  // walk the line again, jumping ahead wherever one move (or none) reaches a later position
  const s = new SolverState(start);
  const moves = new Int32Array(1024);
  const out: number[] = [];
  let i = 0;
  while (i < packed.length) {
    const same = seen.lastIndex(s, i);
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
      const j = seen.lastIndex(s, best);
      if (j > best) {
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

/**
 * Rebuilds a winning line found in the solve's table, in the project's notation: from the start, at
 * each step the move whose resulting key equals the next node's key (`path`: nodes from the start to
 * the win). `codec` must use the column store that named the table's keys. Throws Error when no move
 * does (a defect).
 */
export function rebuildLine(start: Position, path: readonly number[], table: PositionTable, codec: KeyCodec): string[] {
  const state = new SolverState(start);
  const moves = new Int32Array(1024);
  const line: string[] = [];
  for (let p = 1; p < path.length; p++) {
    const off = table.keyOffset(path[p]!);
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
