/**
 * Exact, compact position keys (bit-packed), and the search's evaluation of a position.
 *
 * A key holds only what can change: the stock deals left, each column's face-down COUNT (the hidden
 * cards themselves are fixed by the deal, R18) and its face-up cards written as same-suit runs
 * `(top card, length)`. Cards of equal rank and suit are the same value (R2). Removed suits are implied
 * by the cards still present. Layout, bits in order:
 *
 *   stockLeft (3) | per column: down count (downBits), then for each run: 1, the top card, the length;
 *   then 0.
 *
 * The top card is written in full (cardBits) in 1-suit games; otherwise a 1 marks a *natural* run, one
 * rank below the run under it (then only its suit follows: 2 bits in 4 suits, none in 2 suits, where it
 * can only be the other suit), and a 0 is followed by the card in full. The length is 0 for a single
 * card, 10 for two cards, else 11 and length-3 in 4 bits.
 *
 * Once the stock is empty the columns with no face-down card are interchangeable (SOLVER-NOTES.md),
 * so the key is canonical: in column order each column writes its down count and, only if that is
 * non-zero, its runs; then the runs of the columns with no face-down card follow, sorted. The code
 * is self-delimiting (prefix-free), so two keys are equal exactly when their words are equal.
 */
import { CAP, RANK0, type SolverState } from './state.js';

/** Words reserved for one column's runs (at most 104 cards of 13 bits each). */
const COL_WORDS = 48;

/** Longest key in 32-bit words (104 face-up cards each a run of its own, with room to spare). */
export const MAX_KEY_WORDS = 96;

/** Weights of the evaluation (smaller is better); see `KeyCodec.encode`. */
export interface EvalWeights {
  readonly down: number;
  readonly rankBreak: number;
  readonly suitBreak: number;
  readonly stockCard: number;
  readonly removed: number;
  readonly empty: number;
  /** Per run of face-up cards lying over face-down cards (each must move to turn one up). */
  readonly buried: number;
}

/** Default evaluation weights, chosen on seeds outside the benchmark sets. */
export const DEFAULT_WEIGHTS: EvalWeights = { down: 6, rankBreak: 3, suitBreak: 2, stockCard: 2, removed: 20, empty: 0, buried: 5 };

/** Encodes and decodes keys for one deal, and evaluates positions. */
export class KeyCodec {
  readonly ncols: number;
  readonly downBits: number;
  readonly cardBits: number;
  private readonly suits: number;
  /** Scratch output of encode: the key, zero-padded to whole words. */
  readonly buf = new Uint32Array(MAX_KEY_WORDS);
  /** Evaluation of the last encoded position (lower is closer to a win), >= 0. */
  score = 0;
  private cur = 0;
  private nbits = 0;
  private nw = 0;
  private readonly colRuns: Uint16Array;
  private readonly colRunLen: Uint8Array;
  /** Each column's runs as bits (COL_WORDS words a column) and their length in bits. */
  private readonly colBits: Uint32Array;
  private readonly colBitLen: Uint16Array;
  private out: Uint32Array;
  private readonly colBreaks: Uint16Array;
  private readonly seenVer: Float64Array;
  private readonly order: number[] = [];
  private readonly w: EvalWeights;
  private readonly offset: number;

  constructor(state: SolverState, suits: number, weights: EvalWeights = DEFAULT_WEIGHTS) {
    this.ncols = state.ncols;
    let maxDown = 1;
    for (let c = 0; c < state.ncols; c++) maxDown = Math.max(maxDown, state.down[c]!);
    this.downBits = Math.max(1, Math.ceil(Math.log2(maxDown + 1)));
    this.cardBits = suits === 1 ? 4 : suits === 2 ? 5 : 6;
    this.suits = suits;
    this.colRuns = new Uint16Array(state.ncols * CAP);
    this.colRunLen = new Uint8Array(state.ncols);
    this.colBits = new Uint32Array(state.ncols * COL_WORDS);
    this.colBitLen = new Uint16Array(state.ncols);
    this.out = this.buf;
    this.colBreaks = new Uint16Array(state.ncols);
    this.seenVer = new Float64Array(state.ncols);
    this.w = weights;
    this.offset = weights.removed * state.completeSuits + weights.empty * state.ncols;
  }

  private put(value: number, bits: number): void {
    // value < 2^bits, 1 <= bits <= 31; writes to `out` at word `nw`
    const free = 32 - this.nbits;
    if (bits <= free) {
      this.cur = (this.cur | (value << (free - bits))) >>> 0;
      this.nbits += bits;
      if (this.nbits === 32) {
        this.out[this.nw++] = this.cur;
        this.cur = 0;
        this.nbits = 0;
      }
    } else {
      const rest = bits - free;
      this.out[this.nw++] = (this.cur | (value >>> rest)) >>> 0;
      this.cur = (value << (32 - rest)) >>> 0;
      this.nbits = rest;
    }
  }

  /** Appends the cached bits of column c's runs (see encode). */
  private putColumn(c: number): void {
    const bits = this.colBitLen[c]!;
    const base = c * COL_WORDS;
    const full = bits >>> 5;
    const src = this.colBits;
    for (let i = 0; i < full; i++) {
      const w = src[base + i]!;
      if (this.nbits === 0) this.out[this.nw++] = w;
      else {
        this.out[this.nw++] = (this.cur | (w >>> this.nbits)) >>> 0;
        this.cur = (w << (32 - this.nbits)) >>> 0;
      }
    }
    const rem = bits & 31;
    if (rem) this.put(src[base + full]! >>> (32 - rem), rem);
  }

  /**
   * Encodes the state into `buf`; returns the key length in words. Also sets `score`:
   * down·faceDown + rankBreak·(adjacent face-up pairs out of rank order) + suitBreak·(in rank order
   * but of two suits) + stockCard·(stock cards) − removed·(suits removed) − empty·(empty columns),
   * shifted to be non-negative.
   */
  encode(s: SolverState): number {
    const n = this.ncols;
    const up = s.up;
    const cb = this.cardBits;
    let downTotal = 0;
    let rankBreaks = 0;
    let suitBreaks = 0;
    let empties = 0;
    let buried = 0;
    // split the columns that changed since the last call into runs (R7), with their breaks
    for (let c = 0; c < n; c++) {
      if (this.seenVer[c] !== s.ver[c]) {
        this.seenVer[c] = s.ver[c]!;
        const len = s.upLen[c]!;
        const base = c * CAP;
        let r = 0;
        let i = 0;
        let rb = 0;
        let sb = 0;
        while (i < len) {
          const top = up[base + i]!;
          let j = i + 1;
          while (j < len && up[base + j] === up[base + j - 1]! - 1 && RANK0[up[base + j - 1]!] !== 0) j++;
          if (j < len) {
            if (RANK0[up[base + j]!]! + 1 === RANK0[up[base + j - 1]!]) sb++;
            else rb++;
          }
          this.colRuns[base + r++] = (top << 4) | (j - i - 1);
          i = j;
        }
        this.colRunLen[c] = r;
        this.colBreaks[c] = (rb << 8) | sb;
        // the column's runs in bits, written once and reused until the column changes
        this.out = this.colBits;
        this.nw = c * COL_WORDS;
        this.cur = 0;
        this.nbits = 0;
        this.putRuns(c, cb);
        this.colBitLen[c] = (this.nw - c * COL_WORDS) * 32 + this.nbits;
        if (this.nbits > 0) this.colBits[this.nw] = this.cur;
      }
      const br = this.colBreaks[c]!;
      if (s.down[c]! > 0) buried += this.colRunLen[c]!;
      rankBreaks += br >> 8;
      suitBreaks += br & 255;
      downTotal += s.down[c]!;
      if (s.upLen[c] === 0) empties++;
    }
    const sym = s.stockLeft === 0;
    this.out = this.buf;
    this.cur = 0;
    this.nbits = 0;
    this.nw = 0;
    this.put(s.stockLeft, 3);
    const order = this.order;
    order.length = 0;
    for (let c = 0; c < n; c++) {
      const d = s.down[c]!;
      this.put(d, this.downBits);
      if (sym && d === 0) {
        order.push(c);
        continue;
      }
      this.putColumn(c);
    }
    if (sym && order.length > 0) {
      if (order.length > 1) order.sort((a, b) => this.cmpCols(a, b));
      for (const c of order) this.putColumn(c);
    }
    if (this.nbits > 0) this.buf[this.nw++] = this.cur;
    let stockCards = 0;
    if (s.stockLeft > 0) stockCards = s.stockStart[s.totalDeals]! - s.stockStart[s.totalDeals - s.stockLeft]!;
    const w = this.w;
    this.score =
      this.offset + w.down * downTotal + w.rankBreak * rankBreaks + w.suitBreak * suitBreaks + w.stockCard * stockCards -
      w.removed * s.removed - w.empty * empties + w.buried * buried;
    return this.nw;
  }

  private putRuns(c: number, cb: number): void {
    const base = c * CAP;
    const r = this.colRunLen[c]!;
    const suits = this.suits;
    let prevBottom = -1;
    for (let i = 0; i < r; i++) {
      const v = this.colRuns[base + i]!;
      const top = v >> 4;
      const l1 = v & 15; // length - 1
      this.put(1, 1);
      if (suits === 1) this.put(top, cb);
      else if (prevBottom >= 0 && RANK0[top]! + 1 === RANK0[prevBottom]) {
        // a natural run: one rank below the run under it, of another suit (R6); in 2 suits, the other one
        this.put(1, 1);
        if (suits === 4) this.put((top / 13) | 0, 2);
      } else {
        this.put(0, 1);
        this.put(top, cb);
      }
      if (l1 === 0) this.put(0, 1);
      else if (l1 === 1) this.put(2, 2);
      else this.put(48 | (l1 - 2), 6);
      prevBottom = top - l1;
    }
    this.put(0, 1);
  }


  private cmpCols(a: number, b: number): number {
    const ra = this.colRunLen[a]!;
    const rb = this.colRunLen[b]!;
    const m = Math.min(ra, rb);
    for (let i = 0; i < m; i++) {
      const d = this.colRuns[a * CAP + i]! - this.colRuns[b * CAP + i]!;
      if (d !== 0) return d;
    }
    return ra - rb || a - b;
  }

  /**
   * Sets the state to the position of a key stored at `words[off…]` (inverse of encode, up to a
   * permutation of the interchangeable columns once the stock is empty).
   */
  decode(words: Uint32Array, off: number, s: SolverState): void {
    this.rw = words;
    this.rpos = off * 32;
    const n = this.ncols;
    const cb = this.cardBits;
    s.stockLeft = this.get(3);
    const sym = s.stockLeft === 0;
    const pending = this.order;
    pending.length = 0;
    for (let c = 0; c < n; c++) {
      const d = this.get(this.downBits);
      s.down[c] = d;
      if (sym && d === 0) pending.push(c);
      else this.readRuns(c, s, cb);
    }
    for (const c of pending) this.readRuns(c, s, cb);
    let present = 0;
    for (let c = 0; c < n; c++) present += s.down[c]! + s.upLen[c]!;
    if (s.stockLeft > 0) present += s.stockStart[s.totalDeals]! - s.stockStart[s.totalDeals - s.stockLeft]!;
    s.removed = s.completeSuits - present / 13;
    s.touchAll();
    // readRuns filled the column caches from the key: they are current for the new versions
    for (let c = 0; c < n; c++) this.seenVer[c] = s.ver[c]!;
  }

  /** Length in words of the key stored at `words[off…]`, read without changing any state. */
  keyLength(words: Uint32Array, off: number): number {
    this.rw = words;
    this.rpos = off * 32;
    const n = this.ncols;
    const sym = this.get(3) === 0;
    let pending = 0;
    for (let c = 0; c < n; c++) {
      if (this.get(this.downBits) === 0 && sym) pending++;
      else this.skipRuns();
    }
    for (let i = 0; i < pending; i++) this.skipRuns();
    return ((this.rpos - off * 32 + 31) >>> 5);
  }

  private skipRuns(): void {
    const suits = this.suits;
    while (this.get(1) === 1) {
      if (suits !== 1 && this.get(1) === 1) {
        if (suits === 4) this.rpos += 2;
      } else this.rpos += this.cardBits;
      if (this.get(1) === 1 && this.get(1) === 1) this.rpos += 4;
    }
  }

  private rw: Uint32Array = this.buf;
  private rpos = 0;

  private get(bits: number): number {
    const pos = this.rpos;
    const wi = pos >>> 5;
    const bo = pos & 31;
    this.rpos = pos + bits;
    const avail = 32 - bo;
    const w = this.rw[wi]!;
    if (bits <= avail) return (w >>> (avail - bits)) & ((1 << bits) - 1);
    const rest = bits - avail;
    return (((w & ((1 << avail) - 1)) << rest) | (this.rw[wi + 1]! >>> (32 - rest))) >>> 0;
  }

  private readRuns(c: number, s: SolverState, cb: number): void {
    let len = 0;
    const base = c * CAP;
    const up = s.up;
    const suits = this.suits;
    const words = this.rw;
    const startBit = this.rpos;
    let prevBottom = -1;
    let r = 0;
    let rb = 0;
    let sb = 0;
    while (this.get(1) === 1) {
      let top: number;
      if (suits !== 1 && this.get(1) === 1) {
        const suit = suits === 2 ? 1 - ((prevBottom / 13) | 0) : this.get(2);
        top = suit * 13 + RANK0[prevBottom]! - 1;
        sb++;
      } else {
        top = this.get(cb);
        if (r > 0) rb++;
      }
      const l = this.get(1) === 0 ? 1 : this.get(1) === 0 ? 2 : this.get(4) + 3;
      for (let i = 0; i < l; i++) up[base + len++] = top - i;
      this.colRuns[base + r++] = (top << 4) | (l - 1);
      prevBottom = top - l + 1;
    }
    s.upLen[c] = len;
    // cache what encode would compute for this column: its runs, breaks and bits
    this.colRunLen[c] = r;
    this.colBreaks[c] = (rb << 8) | sb;
    const bits = this.rpos - startBit;
    this.colBitLen[c] = bits;
    const dst = c * COL_WORDS;
    for (let k = 0, p = startBit; k < bits; k += 32, p += 32) {
      const wi = p >>> 5;
      const bo = p & 31;
      this.colBits[dst + (k >>> 5)] = bo === 0 ? words[wi]! : ((words[wi]! << bo) | ((words[wi + 1] ?? 0) >>> (32 - bo))) >>> 0;
    }
  }


}
