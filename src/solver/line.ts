/**
 * Lines of play in the solver: packed moves written in the project's notation, and the shortening
 * of a winning line.
 *
 * Shortening a winning line: the search's line often wanders (a card moved out and back, a detour
 * through an empty column). Along the line, every position leads to the win, so from any position
 * the line may jump to any later position of the line that it reaches in one move (or to a later
 * copy of itself, with no move). Positions are compared exactly, column by column — never up to
 * interchangeable columns, since the rest of the line names columns by number. A position's *shape*
 * (a hash of its columns' counts and top cards) is kept for each index of the line, and a move's child
 * gets its shape from its parent's without being played: the many moves whose child has a shape that
 * occurs nowhere later are turned down unplayed, and only the rest are played and compared card for
 * card with copies of the line's positions (the same line as keying every position, in 0.5–0.7 of
 * the time on the raw lines of depth-first wins in Spider and Spiderette of one and two suits).
 */
import { parseMove } from '../game/move.js';
import type { Position } from '../game/position.js';
import { KeyCodec } from './key.js';
import { CAP, DEAL_MOVE, packMove, RANK0, SolverState } from './state.js';
import { PositionTable } from './table.js';

/** The shape term of column c holding `up` face-up cards, the last `top` (255 for none), over `down` face-down ones (see `shape`). */
function columnShape(c: number, up: number, down: number, top: number): number {
  let h = Math.imul((c << 24) ^ (top << 16) ^ (down << 8) ^ up, 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b);
}

/** The shape term of the stock deals left and the suits removed (see `shape`). */
function restShape(stockLeft: number, removed: number): number {
  return Math.imul((stockLeft << 8) ^ removed ^ 0x5bd1e995, 0xc2b2ae35);
}

/** Column c's top card in `s` (its last face-up card), or 255 when it has none. */
function topCard(s: SolverState, c: number): number {
  const l = s.upLen[c]!;
  return l === 0 ? 255 : s.up[c * CAP + l - 1]!;
}

/**
 * A position's shape: a 32-bit hash of each column's face-down and face-up counts and top card, the
 * stock left and the suits removed, the column terms combined by exclusive or, so that a move's child
 * has the shape of its parent with the terms of the two columns it changes replaced. Equal positions
 * have equal shapes; it costs one card read a column.
 */
function shape(s: SolverState): number {
  let h = restShape(s.stockLeft, s.removed);
  for (let c = 0; c < s.ncols; c++) h ^= columnShape(c, s.upLen[c]!, s.down[c]!, topCard(s, c));
  return h;
}

/**
 * The shape of the position card move m leads to from `s` (of shape `h`), without playing it, or
 * NaN when the move may complete a suit (R13): then it must be played.
 */
function childShape(s: SolverState, h: number, m: number): number {
  const from = m & 31;
  const to = (m >> 5) & 31;
  const k = m >> 10;
  const fl = s.upLen[from]!;
  const tl = s.upLen[to]!;
  const fb = from * CAP;
  const moved = s.up[fb + fl - 1]!;
  // a group ending with an Ace may complete a suit on its target (R13): then the move is played
  if (RANK0[moved] === 0 && (tl === 0 ? k >= 13 : s.up[to * CAP + tl - 1] === s.up[fb + fl - k]! + 1 && s.runLength(to) + k >= 13)) return NaN;
  const fd = s.down[from]!;
  const td = s.down[to]!;
  // what the source column is left with: cards, or its next card turned up (R11), or nothing
  let nfl = fl - k;
  let nfd = fd;
  let nft = 255;
  if (nfl > 0) nft = s.up[fb + nfl - 1]!;
  else if (fd > 0) {
    nfl = 1;
    nfd = fd - 1;
    nft = s.hidden[fb + nfd]!;
  }
  return h ^ columnShape(from, fl, fd, moved) ^ columnShape(from, nfl, nfd, nft) ^ columnShape(to, tl, td, topCard(s, to)) ^ columnShape(to, tl + k, td, moved);
}

/**
 * The positions along a line, indexed by shape (see `shape`) and kept exactly: per index, its shape,
 * the index before it with the same shape, its stock deals left, and per column where a copy of the
 * column lies (its face-down count, face-up count and face-up cards; the face-down cards themselves
 * are the deal's, R18) — a column a move left as it was shares the copy of the index before.
 * `lastIndex` finds the last index at which a position occurs, comparing positions exactly, column by
 * column (never up to interchangeable columns: the rest of the line names columns by number); a
 * position whose shape occurs nowhere later is turned down by its shape alone.
 */
class LinePositions {
  /** Shape table: per slot a shape and 1 + the last index with that shape (0: empty slot). */
  private readonly shapes: Int32Array;
  private readonly shapeLast: Int32Array;
  private readonly mask: number;
  /** Per index: the index before it with the same shape (-1: none), and its stock deals left. */
  private readonly prevSame: Int32Array;
  private readonly stock: Uint8Array;
  /** Per index and column (index * ncols + column): where the column's copy starts in `copies`. */
  private readonly columnAt: Int32Array;
  /** The column copies, back to back. */
  private copies: Uint8Array;
  private used = 0;
  /** The version (SolverState.ver) of each column when it was last copied. */
  private readonly copiedVer: Float64Array;
  private readonly ncols: number;

  /** Room for the positions of indexes 0..size-1 of a line played in `s`. */
  constructor(s: SolverState, size: number) {
    const cap = 1 << Math.ceil(Math.log2(4 * size + 4));
    this.shapes = new Int32Array(cap);
    this.shapeLast = new Int32Array(cap);
    this.mask = cap - 1;
    this.prevSame = new Int32Array(size);
    this.stock = new Uint8Array(size);
    this.ncols = s.ncols;
    this.columnAt = new Int32Array(size * s.ncols);
    this.copies = new Uint8Array(size * 16 + 2048);
    this.copiedVer = new Float64Array(s.ncols).fill(-1);
  }

  /** The slot of shape h: where it is, or the empty slot where it would go. */
  private slot(h: number): number {
    let i = (Math.imul(h, 0x9e3779b1) >>> 0) & this.mask;
    while (this.shapeLast[i] !== 0 && this.shapes[i] !== h) i = (i + 1) & this.mask;
    return i;
  }

  /** Records that the line is at state `s`, of shape h, at index i (0, 1, 2, … in turn). */
  add(s: SolverState, h: number, i: number): void {
    const j = this.slot(h);
    this.prevSame[i] = this.shapeLast[j]! - 1;
    this.shapes[j] = h;
    this.shapeLast[j] = i + 1;
    this.stock[i] = s.stockLeft;
    const n = this.ncols;
    const at = this.columnAt;
    for (let c = 0; c < n; c++) {
      if (s.ver[c] === this.copiedVer[c]) {
        // unchanged since the index before (versions never repeat)
        at[i * n + c] = at[(i - 1) * n + c]!;
        continue;
      }
      this.copiedVer[c] = s.ver[c]!;
      const len = s.upLen[c]!;
      if (this.used + len + 2 > this.copies.length) {
        const b = new Uint8Array(Math.max(this.used + len + 2, this.copies.length * 2));
        b.set(this.copies);
        this.copies = b;
      }
      const out = this.copies;
      let o = this.used;
      at[i * n + c] = o;
      out[o++] = s.down[c]!;
      out[o++] = len;
      const b = c * CAP;
      for (let k = 0; k < len; k++) out[o++] = s.up[b + k]!;
      this.used = o;
    }
  }

  /** The last index along the line with shape h, or -1 if none. */
  lastWithShape(h: number): number {
    return this.shapeLast[this.slot(h)]! - 1;
  }

  /** Is state `s` the position at index i? */
  private equals(s: SolverState, i: number): boolean {
    if (this.stock[i] !== s.stockLeft) return false;
    const a = this.copies;
    const n = this.ncols;
    for (let c = 0; c < n; c++) {
      let o = this.columnAt[i * n + c]!;
      const len = s.upLen[c]!;
      if (a[o++] !== s.down[c] || a[o++] !== len) return false;
      const b = c * CAP;
      for (let k = 0; k < len; k++) if (a[o++] !== s.up[b + k]) return false;
    }
    return true;
  }

  /** The last index along the line at which state `s` (of shape h) occurs if it is above `after`, else -1. */
  lastIndex(s: SolverState, h: number, after = -1): number {
    for (let i = this.lastWithShape(h); i > after; i = this.prevSame[i]!) if (this.equals(s, i)) return i;
    return -1;
  }
}

/**
 * Returns a line from `start` that ends where `line` ends (a win), no longer than `line`, with
 * repeated positions cut out and one-move shortcuts to later positions of the line taken greedily
 * (the farthest first). `line` must be a legal line from `start` (the solver's lines are); a line
 * that does not parse throws Error, and the caller replays the result through the rules engine.
 */
export function shortenLine(start: Position, line: readonly string[]): string[] {
  const state = new SolverState(start);
  const packed: number[] = [];
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
  }
  return lineText(start, shortenPacked(start, packed));
}

/**
 * shortenLine on packed solver moves (state.ts packMove, DEAL_MOVE): the same line, packed. `line`
 * must be legal from `start`, move after move (not checked).
 */
export function shortenPacked(start: Position, line: readonly number[]): number[] {
  // the last index at which each position of the line occurs
  const state = new SolverState(start);
  const seen = new LinePositions(state, line.length + 1);
  seen.add(state, shape(state), 0);
  for (let i = 0; i < line.length; i++) {
    state.apply(line[i]!);
    seen.add(state, shape(state), i + 1);
  }
  // walk the line again, jumping ahead wherever one move (or none) reaches a later position
  const s = new SolverState(start);
  const moves = new Int32Array(1024);
  const out: number[] = [];
  let i = 0;
  while (i < line.length) {
    const h = shape(s);
    const same = seen.lastIndex(s, h, i);
    if (same > i) {
      i = same;
      continue;
    }
    let best = i + 1;
    let bestMove = line[i]!;
    const n = s.generate(moves, false);
    for (let k = 0; k < n; k++) {
      const m = moves[k]!;
      // most moves lead to a shape that occurs nowhere past `best`: turned down unplayed
      let ch = m === DEAL_MOVE ? NaN : childShape(s, h, m);
      if (ch === ch && seen.lastWithShape(ch) <= best) continue;
      const tok = s.apply(m);
      if (ch !== ch) ch = shape(s);
      const j = seen.lastIndex(s, ch, best);
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
  return out;
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
  return lineText(start, rebuildPacked(start, path, table, codec));
}

/** rebuildLine's line as packed solver moves (state.ts packMove, DEAL_MOVE). Throws as rebuildLine does. */
export function rebuildPacked(start: Position, path: readonly number[], table: PositionTable, codec: KeyCodec): number[] {
  const state = new SolverState(start);
  const moves = new Int32Array(1024);
  const line: number[] = [];
  for (let p = 1; p < path.length; p++) {
    const off = table.keyOffset(path[p]!);
    const n = state.generate(moves, true);
    let found = false;
    for (let i = 0; i < n && !found; i++) {
      const m = moves[i]!;
      const tok = state.apply(m);
      const nw = codec.encode(state);
      let j = 0;
      while (j < nw && table.arena[off + j] === codec.buf[j]) j++;
      if (j === nw) {
        found = true;
        line.push(m);
      } else state.undo(m, tok);
    }
    if (!found) throw new Error(`solver defect: no move leads to step ${p} of the winning path`);
  }
  return line;
}
