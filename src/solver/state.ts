/**
 * The solver's mutable position: typed arrays with make/unmake moves, and its own fast move generator.
 *
 * It plays by the same rules as src/game/rules.ts (docs/rules.md R6–R15) and is tested against it on random
 * positions of all six variants. Face-down cards never move (they are fixed by the deal, R18), so a
 * column's face-down part is just a count into the column's fixed list of hidden cards.
 */
import type { Position } from '../game/position.js';

/** Capacity of one column's face-up cards (the whole of a two-deck game fits). */
export const CAP = 128;

/** A solver move packed in an integer: `from | to << 5 | count << 10`; a deal is DEAL_MOVE. Columns 0-based. */
export type PackedMove = number;
/** The packed deal move. */
export const DEAL_MOVE = 0x3fffff;

/** Packs a card move. */
export function packMove(from: number, to: number, count: number): PackedMove {
  return from | (to << 5) | (count << 10);
}

/** Source of column versions, shared by every state so that versions never repeat (below 2^53). */
const versionClock = { n: 0 };

/** Rank index 0 (Ace) … 12 (King) of each card value 0..51. */
export const RANK0 = new Uint8Array(52).map((_, c) => c % 13);

/**
 * A position in typed arrays. Columns are indexed 0..ncols-1; column c's face-up cards are
 * `up[c*CAP .. c*CAP+upLen[c])`, bottom first; its face-down cards are `hidden[c*CAP .. c*CAP+down[c])`.
 */
export class SolverState {
  readonly ncols: number;
  /** Face-down cards of each column as dealt (bottom first); only the first down[c] are still face down. */
  readonly hidden: Uint8Array;
  readonly down: Uint8Array;
  readonly up: Uint8Array;
  readonly upLen: Uint8Array;
  /** Stock deals as dealt, flattened; deal d occupies stockCards[stockStart[d] .. stockStart[d+1]). */
  readonly stockCards: Uint8Array;
  readonly stockStart: Uint16Array;
  /** Total stock deals of the start position. */
  readonly totalDeals: number;
  /** Deals still in the stock. */
  stockLeft: number;
  /**
   * By deals left k, the first column that none of the last k deals reaches (R12: a deal of n cards
   * covers columns 1..n): 0 once the stock is empty, ncols while a full deal remains; in Spiderette
   * with only the 3-card deal left, 3. Columns from there on, with no face-down card, are
   * interchangeable: nothing that is still to come tells them apart.
   */
  readonly freeFrom: Uint8Array;
  /** Completed suits removed so far (including those removed before the start). */
  removed: number;
  /** Suits to remove to win (R5). */
  readonly completeSuits: number;
  /**
   * Version of each column's contents: a fresh number from `clock` whenever the column changes, so
   * that the key codec can reuse what it computed for columns that did not change.
   */
  readonly ver: Float64Array;
  /**
   * Undo records of the deals, one row a deal (deal d = totalDeals − stockLeft before it, at d × ncols):
   * per column, bit0 completed, bit1 flipped, bits 2-3 suit. One row a deal, not one for all: a
   * depth-first search takes back a deal after taking back a later one, and a shared row, overwritten
   * by the later deal, would restore the wrong columns when either deal completed a suit (SE1-77274's
   * quick stage would reach a position no line reaches, and its line would not replay).
   */
  private readonly dealUndo: Uint8Array;
  /** Scratch of generate: each column's top rank, and per rank the columns with a top card of it. */
  private readonly tops: Int8Array;
  private readonly byRank = new Int32Array(13);
  /**
   * Versions replaced by `apply`, restored by `undo` (a stack): a column put back as it was gets its
   * old version back, so caches keyed by version stay valid across make/unmake.
   */
  private verStack = new Float64Array(256);
  /** runLength's memory: per column, the run length counted and the version it was counted at. */
  private readonly runLen: Uint8Array;
  private readonly runVer: Float64Array;
  /**
   * Scratch of deadEnd: face-up copies of each card value, the exposable ranks, and per face-up card
   * (at c × CAP + i) whether it can be last in its column and whether it can be moved.
   */
  private readonly upCount = new Uint8Array(52);
  private readonly rankExposable = new Uint8Array(13);
  private readonly exposable: Uint8Array;
  private readonly movable: Uint8Array;
  private verTop = 0;

  constructor(pos: Position) {
    const n = pos.columns.length;
    this.ncols = n;
    this.hidden = new Uint8Array(n * CAP);
    this.down = new Uint8Array(n);
    this.up = new Uint8Array(n * CAP);
    this.upLen = new Uint8Array(n);
    pos.columns.forEach((col, c) => {
      this.hidden.set(col.down, c * CAP);
      this.down[c] = col.down.length;
      this.up.set(col.up, c * CAP);
      this.upLen[c] = col.up.length;
    });
    const flat = pos.stock.flat();
    this.stockCards = Uint8Array.from(flat);
    this.stockStart = new Uint16Array(pos.stock.length + 1);
    let s = 0;
    pos.stock.forEach((d, i) => {
      this.stockStart[i] = s;
      s += d.length;
    });
    this.stockStart[pos.stock.length] = s;
    this.totalDeals = pos.stock.length;
    this.stockLeft = pos.stock.length;
    this.freeFrom = new Uint8Array(pos.stock.length + 1);
    for (let k = 1; k <= pos.stock.length; k++) this.freeFrom[k] = Math.max(this.freeFrom[k - 1]!, pos.stock[pos.stock.length - k]!.length);
    this.removed = pos.removed.length;
    this.completeSuits = pos.variant.completeSuits;
    this.dealUndo = new Uint8Array(n * Math.max(1, pos.stock.length));
    this.tops = new Int8Array(n);
    this.ver = new Float64Array(n);
    this.runLen = new Uint8Array(n);
    this.runVer = new Float64Array(n).fill(-1);
    this.exposable = new Uint8Array(n * CAP);
    this.movable = new Uint8Array(n * CAP);
    this.touchAll();
  }

  /** Marks every column as changed (after the state was overwritten, e.g. by KeyCodec.decode). */
  touchAll(): void {
    for (let c = 0; c < this.ncols; c++) this.touch(c);
    this.clearUndo();
  }

  /** Marks column c as changed (it was overwritten, e.g. by KeyCodec.decode): a fresh version. */
  touch(c: number): void {
    this.ver[c] = ++versionClock.n;
  }

  /** Empties the undo stack of versions (the state was overwritten: nothing before it is undone). */
  clearUndo(): void {
    this.verTop = 0;
  }

  /** Saves column c's version on the undo stack and gives it a fresh one. */
  private bump(c: number): void {
    if (this.verTop === this.verStack.length) {
      const a = new Float64Array(this.verStack.length * 2);
      a.set(this.verStack);
      this.verStack = a;
    }
    this.verStack[this.verTop++] = this.ver[c]!;
    this.ver[c] = ++versionClock.n;
  }

  /** Has every suit been removed (R5)? */
  isWon(): boolean {
    return this.removed === this.completeSuits;
  }

  /**
   * Is this a dead end: a position from which no move sequence turns up a card, empties a column or
   * completes a suit, so no win (R5) is reachable? Only ever true once the stock is empty (R12) and no
   * column is empty; false means "not known dead", not "a win exists". Sound (docs/solver.md, "Dead
   * ends"): until the first such event, every move lifts a same-suit run (R7, R8) onto the last card
   * of another column one rank above its first card (R6, R9), no column being empty to take a King
   * (R10); a card turns up (R11) or a column empties only when the column's lowest face-up card is
   * moved; and a suit completes (R14) only from a face-up card of each of its ranks, for no card
   * turns face up before. The test over-approximates, as a least fixed point over the face-up cards,
   * which cards can ever be moved: a card can be *last* in its column if it is now, or if the card on
   * it can be moved; it can be *lifted* if it can be last, or if the card on it is the next lower card
   * of its suit and can be lifted; it can be *moved* if it can be lifted, is not a King, and some card
   * one rank above it, of any suit, can be last. The position is a dead end when no column's lowest
   * face-up card can be moved and no suit has a face-up card of every rank.
   */
  deadEnd(): boolean {
    if (this.stockLeft !== 0) return false;
    const n = this.ncols;
    const up = this.up;
    const upLen = this.upLen;
    const count = this.upCount;
    const rankUp = this.rankExposable;
    const ex = this.exposable;
    const movable = this.movable;
    // first the common case at a glance: a column whose face-up cards are one run (R7), its lowest
    // card one rank below the last card of another column
    let tops = 0;
    for (let c = 0; c < n; c++) {
      const l = upLen[c]!;
      if (l === 0) return false;
      tops |= 1 << RANK0[up[c * CAP + l - 1]!]!;
    }
    for (let c = 0; c < n; c++) {
      if (this.runLength(c) !== upLen[c]) continue;
      const r = RANK0[up[c * CAP]!]!;
      if (r < 12 && (tops >> (r + 1)) & 1) return false;
    }
    count.fill(0);
    rankUp.fill(0);
    for (let c = 0; c < n; c++) {
      const l = upLen[c]!;
      const base = c * CAP;
      for (let i = 0; i < l; i++) {
        count[up[base + i]!]!++;
        ex[base + i] = 0;
        movable[base + i] = 0;
      }
      ex[base + l - 1] = 1;
      rankUp[RANK0[up[base + l - 1]!]!] = 1;
    }
    // a suit with a face-up card of every rank might be completed (values: suit × 13 + rank index)
    for (let s = 0; s < 52; s += 13) {
      let r = 0;
      while (r < 13 && count[s + r]! > 0) r++;
      if (r === 13) return false;
    }
    for (let changed = true; changed; ) {
      changed = false;
      for (let c = 0; c < n; c++) {
        const base = c * CAP;
        const l = upLen[c]!;
        // lift: can the card at i be lifted with the cards on it (they run down in its suit to a card
        // that can be last in its column)?
        let lift = 1;
        for (let i = l - 1; i >= 0; i--) {
          const card = up[base + i]!;
          const r = RANK0[card]!;
          if (i < l - 1) {
            if (ex[base + i] === 0 && movable[base + i + 1] === 1) {
              ex[base + i] = 1;
              rankUp[r] = 1;
              changed = true;
            }
            lift = ex[base + i] === 1 || (lift === 1 && up[base + i + 1] === card - 1 && r > 0) ? 1 : 0;
          }
          // movable: it can be lifted and put on a card one rank above (a King only into an empty column)
          if (movable[base + i] === 0 && lift === 1 && r < 12 && rankUp[r + 1] === 1) {
            // the column's lowest face-up card can be moved: a card may turn up or the column empty
            if (i === 0) return false;
            movable[base + i] = 1;
            changed = true;
          }
        }
      }
    }
    return true;
  }

  /**
   * Length of the movable same-suit run at the end of column c (R7, R8). Kept per column with the
   * version it was counted at: a column's contents at one version never change (see `ver`).
   */
  runLength(c: number): number {
    if (this.runVer[c] === this.ver[c]) return this.runLen[c]!;
    const k = this.countRun(c);
    this.runVer[c] = this.ver[c]!;
    this.runLen[c] = k;
    return k;
  }

  private countRun(c: number): number {
    const len = this.upLen[c]!;
    if (len === 0) return 0;
    const up = this.up;
    let i = c * CAP + len - 1;
    const base = c * CAP;
    let k = 1;
    while (i > base) {
      const lower = up[i]!;
      const upper = up[i - 1]!;
      if (upper !== lower + 1 || RANK0[lower] === 12) break;
      k++;
      i--;
    }
    return k;
  }

  /** Is column c empty (no face-up card; then it has no face-down card either, R11)? */
  isEmpty(c: number): boolean {
    return this.upLen[c] === 0;
  }

  /** Removes a completed K..A run ending column c if there is one (R14); returns 1 + suit << 2, or 0. */
  private complete(c: number): number {
    const len = this.upLen[c]!;
    if (len < 13) return 0;
    const base = c * CAP + len - 1;
    const up = this.up;
    const ace = up[base]!;
    if (RANK0[ace] !== 0) return 0;
    for (let i = 1; i < 13; i++) if (up[base - i] !== ace + i) return 0;
    this.upLen[c] = len - 13;
    this.removed++;
    return 1 | ((((ace / 13) | 0) & 3) << 2);
  }

  /** Turns up the top face-down card of column c if it has no face-up card (R11); returns 2 if it did. */
  private flip(c: number): number {
    if (this.upLen[c] === 0 && this.down[c]! > 0) {
      const d = --this.down[c]!;
      this.up[c * CAP] = this.hidden[c * CAP + d]!;
      this.upLen[c] = 1;
        return 2;
    }
    return 0;
  }

  /** Puts back the completed run of `suit` (K..A) on column c. */
  private restoreRun(c: number, suit: number): void {
    const len = this.upLen[c]!;
    const base = c * CAP + len;
    for (let i = 0; i < 13; i++) this.up[base + i] = suit * 13 + 12 - i;
    this.upLen[c] = len + 13;
    this.removed--;
  }

  /**
   * Plays a legal packed move with its automatic flips and removals (R11–R15). Returns an undo token
   * for `undo`. Does not check legality.
   */
  apply(m: PackedMove): number {
    if (m === DEAL_MOVE) {
      const d = this.totalDeals - this.stockLeft;
      const s0 = this.stockStart[d]!;
      const n = this.stockStart[d + 1]! - s0;
      for (let c = 0; c < n; c++) {
        this.up[c * CAP + this.upLen[c]!] = this.stockCards[s0 + c]!;
        this.upLen[c]!++;
        this.bump(c);
        const r = this.complete(c);
        this.dealUndo[d * this.ncols + c] = r | (r ? this.flip(c) : 0);
      }
      this.stockLeft--;
      return 0;
    }
    const from = m & 31;
    const to = (m >> 5) & 31;
    const k = m >> 10;
    const up = this.up;
    const src = from * CAP + this.upLen[from]! - k;
    const dst = to * CAP + this.upLen[to]!;
    for (let i = 0; i < k; i++) up[dst + i] = up[src + i]!;
    this.upLen[from]! -= k;
    this.upLen[to]! += k;
    this.bump(from);
    this.bump(to);
    const srcFlip = this.flip(from) ? 1 : 0;
    const r = this.complete(to);
    let tok = srcFlip;
    if (r) tok |= 2 | ((r >> 2) << 3) | (this.flip(to) ? 4 : 0);
    return tok;
  }

  /** Takes back a move played by `apply`, given its undo token. */
  undo(m: PackedMove, tok: number): void {
    if (m === DEAL_MOVE) {
      this.stockLeft++;
      const d = this.totalDeals - this.stockLeft;
      const n = this.stockStart[d + 1]! - this.stockStart[d]!;
      for (let c = n - 1; c >= 0; c--) {
        const r = this.dealUndo[d * this.ncols + c]!;
        if (r & 2) {
          this.upLen[c] = 0;
          this.down[c]!++;
        }
        if (r & 1) this.restoreRun(c, r >> 2);
        this.upLen[c]!--;
        this.ver[c] = this.verStack[--this.verTop]!;
      }
      return;
    }
    const from = m & 31;
    const to = (m >> 5) & 31;
    const k = m >> 10;
    if (tok & 4) {
      this.upLen[to] = 0;
      this.down[to]!++;
    }
    if (tok & 2) this.restoreRun(to, tok >> 3);
    if (tok & 1) {
      this.upLen[from] = 0;
      this.down[from]!++;
    }
    const up = this.up;
    const src = to * CAP + this.upLen[to]! - k;
    const dst = from * CAP + this.upLen[from]!;
    for (let i = 0; i < k; i++) up[dst + i] = up[src + i]!;
    this.upLen[to]! -= k;
    this.upLen[from]! += k;
    this.ver[to] = this.verStack[--this.verTop]!;
    this.ver[from] = this.verStack[--this.verTop]!;
  }

  /**
   * Writes every legal move into `out` (R6–R10, R12), returns how many. Order: card moves by source
   * column, target column, count (largest first), then the deal. With `reduce`, among the columns
   * that no deal left reaches (all once the stock is empty; see freeFrom), moves into an empty one go
   * to the first empty one only, and a whole column with no face-down card is not moved into an empty
   * one: both sound, since those columns are interchangeable (docs/solver.md, reductions; R12).
   *
   * With `group`, the moves of fewer cards than the run into one empty column (k = run-1 … 1, listed
   * one after the other) are written as one entry, `splitGroup(from, to, run - 1)`, in their place: a
   * depth-first frame tries one or two of them, and in one suit they are most of its moves.
   */
  generate(out: Int32Array, reduce: boolean, group = false): number {
    const n = this.ncols;
    const up = this.up;
    const upLen = this.upLen;
    let cnt = 0;
    // rank of each column's top card (-1 for an empty column), and the columns by top rank
    const tops = this.tops;
    const byRank = this.byRank;
    byRank.fill(0);
    let empties = 0;
    for (let c = 0; c < n; c++) {
      const l = upLen[c]!;
      if (l === 0) {
        tops[c] = -1;
        empties |= 1 << c;
      } else {
        const t = RANK0[up[c * CAP + l - 1]!]!;
        tops[c] = t;
        byRank[t] |= 1 << c;
      }
    }
    const firstEmpty = empties === 0 ? -1 : 31 - Math.clz32(empties & -empties);
    // the interchangeable columns (see freeFrom): of their empty ones, only the first is a target
    const ff = reduce ? this.freeFrom[this.stockLeft]! : n;
    const freeEmpties = (empties >>> ff) << ff;
    const emptyTargets = (empties ^ freeEmpties) | (freeEmpties & -freeEmpties);
    for (let from = 0; from < n; from++) {
      const topRank = tops[from]!;
      if (topRank < 0) continue;
      const run = this.runLength(from);
      // the targets: a column whose last card is 1..run ranks above this one's (R6, R9), or empty (R10)
      let targets = emptyTargets;
      const hi = topRank + run < 12 ? topRank + run : 12;
      for (let t = topRank + 1; t <= hi; t++) targets |= byRank[t]!;
      while (targets !== 0) {
        const bit = targets & -targets;
        targets ^= bit;
        const to = 31 - Math.clz32(bit);
        const t = tops[to]!;
        if (t < 0) {
          const whole = from >= ff && to >= ff && this.down[from] === 0 ? upLen[from]! : -1;
          if (run !== whole) out[cnt++] = from | (to << 5) | (run << 10);
          if (group) {
            // whole >= run: only the move of the whole run can be the one left out
            if (run > 1) out[cnt++] = splitGroup(from, to, run - 1);
          } else for (let k = run - 1; k >= 1; k--) out[cnt++] = from | (to << 5) | (k << 10);
        } else out[cnt++] = from | (to << 5) | ((t - topRank) << 10);
      }
    }
    if (this.stockLeft > 0 && firstEmpty < 0) out[cnt++] = DEAL_MOVE;
    return cnt;
  }
}

/** Flag of a group entry written by `generate` with `group`. */
export const SPLIT_GROUP = 1 << 24;

/**
 * A group entry: the moves of k = kmax … 1 cards (1 <= kmax <= 12, fewer than a run of one suit can
 * hold) from column `from` into the empty column `to`; bit 9 + k of the entry is set while the move of
 * k cards belongs to it (see `groupMove`).
 */
export function splitGroup(from: number, to: number, kmax: number): number {
  return SPLIT_GROUP | from | (to << 5) | (((1 << kmax) - 1) << 10);
}

/** The move of k cards of group entry g. */
export function groupMove(g: number, k: number): PackedMove {
  return (g & 0x3ff) | (k << 10);
}

/** Tag of a position whose move from its parent cannot simply be taken back. */
export const NO_REVERSE = 0xff;

/** The tag of a card move: its columns, `from | to << 4` (columns below 16); the deal has none (NO_REVERSE). */
export function moveTag(m: PackedMove): number {
  return m === DEAL_MOVE ? NO_REVERSE : (m & 15) | (((m >> 5) & 15) << 4);
}

/**
 * The tag of the position reached by the card move m (state after m, which turned nothing up and
 * removed no suit): the move back as `from | to << 4` when it exists and leads to the parent — the
 * group came off a card one rank above its head, so the move back takes the same cards — else
 * NO_REVERSE.
 */
export function reverseTag(s: SolverState, m: number): number {
  const from = m & 31;
  const to = (m >> 5) & 31;
  const k = m >> 10;
  const fl = s.upLen[from]!;
  if (fl === 0) return NO_REVERSE;
  const head = s.up[to * CAP + s.upLen[to]! - k]!;
  return RANK0[s.up[from * CAP + fl - 1]!] === RANK0[head]! + 1 ? moveTag(packMove(to, from, k)) : NO_REVERSE;
}
