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

/** Sources of a key segment (see KeyCodec.assemble). */
const SLOTS = 0;
const BASE = 1;
const ZEROS = 2;

/** Most columns changed from the base for which encode builds on the base's key. */
const DELTA_MAX = 3;

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

/**
 * Encodes and decodes keys for one deal, and evaluates positions.
 *
 * Speed: each column's part of the key (its down count and runs, as bits) is cached by the column's
 * version (SolverState.ver) in one of two slots a column — the *base* slot holds the column as in the
 * position last decoded (or committed), the other the column as a child move left it — so a child
 * key costs the split of the one or two columns its move changed (less: a column that only gained or
 * lost cards at its end keeps all but its last run, see `fill`), then a copy of cached bits. While
 * the stock lasts, a position that differs from the base in at most DELTA_MAX columns is encoded from
 * the base's key (`encodeDelta`): its words up to the first changed column, then the changed columns
 * and the base's bits between them. Keys and scores are the same whichever way they are built (a
 * test compares them with keys built afresh on random positions).
 */
export class KeyCodec {
  readonly ncols: number;
  readonly downBits: number;
  readonly cardBits: number;
  private readonly suits: number;
  /** Scratch output of encode: the key, zero-padded to whole words. */
  readonly buf = new Uint32Array(MAX_KEY_WORDS);
  /** Evaluation of the last encoded position (lower is closer to a win), >= 0. */
  score = 0;
  // per slot (2 per column: slot 2c + b): the column version cached, its runs (top << 4 | length-1),
  // run count, breaks (rank << 8 | suit), bits (down count, runs, end mark) and their length
  private readonly slotVer: Float64Array;
  private readonly colRuns: Uint16Array;
  /** Per slot and run: the bit where the run starts, and the breaks (rank << 8 | suit) below it. */
  private readonly colRunBit: Uint16Array;
  private readonly colRunBrk: Uint16Array;
  private readonly colRunLen: Uint8Array;
  private readonly colBreaks: Uint16Array;
  private readonly colBits: Uint32Array;
  private readonly colBitLen: Uint16Array;
  /** Per column: its base slot bit (0 or 1), and the slot the last encode or decode used. */
  private readonly base: Uint8Array;
  private readonly curSlot: Int32Array;
  private readonly order: Int32Array;
  /** Per slot: its first three runs packed (see setSortKey), to order columns quickly. */
  private readonly sortKey: Int32Array;
  // the base position (last decoded or committed) while its key is in column order: its key, each
  // column's version, slot, down count and bit where its part of the key starts, and its totals
  private baseOk = false;
  private baseStock = 0;
  private baseNw = 0;
  private readonly baseBuf = new Uint32Array(MAX_KEY_WORDS + 1);
  private readonly baseVer: Float64Array;
  private readonly baseSlot: Int32Array;
  private readonly baseDown: Uint8Array;
  private readonly baseSeg: Int32Array;
  private baseTotals = [0, 0, 0, 0, 0];
  /** Columns changed from the base in the last delta encode. */
  private readonly changed: Int32Array;
  private nchanged = 0;
  /** The segments of the key being built (see assemble). */
  private readonly segSrc: Int32Array;
  private readonly segPos: Int32Array;
  private readonly segLen: Int32Array;
  /** Does curSlot name the base's slots but for the columns in `changed`? */
  private curIsBase = false;
  private lastNw = 0;
  /** How many columns the last encode sorted (those with no face-down card, stock empty). */
  private sortedCount = 0;
  /** The weights down, rankBreak, suitBreak, stockCard, removed, empty, buried (one array: one shape). */
  private readonly wts: Float64Array;
  private readonly offset: number;

  /**
   * `canonical` (default true): once the stock is empty, columns with no face-down card are written
   * sorted, so positions equal up to such columns share a key; false keeps column order always (keys
   * of positions equal column for column, as a line of play needs).
   */
  constructor(state: SolverState, suits: number, weights: EvalWeights = DEFAULT_WEIGHTS, private readonly canonical = true) {
    const n = state.ncols;
    this.ncols = n;
    let maxDown = 1;
    for (let c = 0; c < n; c++) maxDown = Math.max(maxDown, state.down[c]!);
    this.downBits = Math.max(1, Math.ceil(Math.log2(maxDown + 1)));
    this.cardBits = suits === 1 ? 4 : suits === 2 ? 5 : 6;
    this.suits = suits;
    this.slotVer = new Float64Array(2 * n).fill(-1);
    this.colRuns = new Uint16Array(2 * n * CAP);
    this.colRunBit = new Uint16Array(2 * n * CAP);
    this.colRunBrk = new Uint16Array(2 * n * CAP);
    this.colRunLen = new Uint8Array(2 * n);
    this.colBreaks = new Uint16Array(2 * n);
    this.colBits = new Uint32Array(2 * n * COL_WORDS + 1);
    this.colBitLen = new Uint16Array(2 * n);
    this.base = new Uint8Array(n);
    this.curSlot = new Int32Array(n);
    this.order = new Int32Array(n);
    this.sortKey = new Int32Array(2 * n);
    this.baseVer = new Float64Array(n);
    this.baseSlot = new Int32Array(n);
    this.baseDown = new Uint8Array(n);
    this.baseSeg = new Int32Array(n + 1);
    this.changed = new Int32Array(n);
    this.segSrc = new Int32Array(2 * n + 2);
    this.segPos = new Int32Array(2 * n + 2);
    this.segLen = new Int32Array(2 * n + 2);
    this.wts = Float64Array.of(weights.down, weights.rankBreak, weights.suitBreak, weights.stockCard, weights.removed, weights.empty, weights.buried);
    this.offset = weights.removed * state.completeSuits + weights.empty * state.ncols;
  }

  /** Does the key of `s` sort its columns with no face-down card (canonical keys, stock empty)? */
  private sorts(s: SolverState): boolean {
    return s.stockLeft === 0 && this.canonical;
  }

  /** A move tag (state.ts moveTag) of the position last encoded, with its columns as decoded (decodedColumn). */
  decodedTag(tag: number, s: SolverState): number {
    return this.decodedColumn(tag & 15, s) | (this.decodedColumn(tag >> 4, s) << 4);
  }

  /**
   * The column that column c of the position last encoded occupies in the position its key decodes
   * to: c itself while the stock lasts; after, the columns with no face-down card are reordered.
   */
  decodedColumn(c: number, s: SolverState): number {
    if (!this.sorts(s) || s.down[c]! > 0) return c;
    // the i-th column in sorted order goes to the i-th column with no face-down card
    let i = 0;
    while (i < this.sortedCount && this.order[i]! >> 1 !== c) i++;
    for (let d = 0; d < this.ncols; d++) if (s.down[d] === 0 && i-- === 0) return d;
    return c;
  }

  /** Forgets every cached column (the next encode splits every column afresh). */
  reset(): void {
    this.slotVer.fill(-1);
    this.baseOk = false;
  }

  /**
   * Makes the columns of the position last encoded the base ones (a depth-first search calls it when
   * it enters a child, whose children then differ from it in one or two columns).
   */
  commit(s: SolverState): void {
    for (let c = 0; c < this.ncols; c++) this.base[c] = this.curSlot[c]! & 1;
    this.setBase(s, this.buf, 0, this.lastNw);
  }

  /**
   * Makes `s` (whose columns are cached in the slots curSlot names) the base of delta encodes, its
   * key being `words[off .. off+nw)`. Only while keys are in column order; else there is no base.
   */
  private setBase(s: SolverState, words: Uint32Array, off: number, nw: number): void {
    this.nchanged = 0;
    this.curIsBase = true;
    this.baseOk = !this.sorts(s);
    if (!this.baseOk) return;
    this.baseStock = s.stockLeft;
    this.baseNw = nw;
    const bb = this.baseBuf;
    for (let i = 0; i < nw; i++) bb[i] = words[off + i]!;
    let downTotal = 0;
    let rankBreaks = 0;
    let suitBreaks = 0;
    let empties = 0;
    let buried = 0;
    let seg = 3;
    for (let c = 0; c < this.ncols; c++) {
      const q = this.curSlot[c]!;
      const d = s.down[c]!;
      const br = this.colBreaks[q]!;
      this.baseVer[c] = s.ver[c]!;
      this.baseSlot[c] = q;
      this.baseDown[c] = d;
      this.baseSeg[c] = seg;
      seg += this.colBitLen[q]!;
      downTotal += d;
      rankBreaks += br >> 8;
      suitBreaks += br & 255;
      if (d > 0) buried += this.colRunLen[q]!;
      if (this.colRunLen[q] === 0) empties++;
    }
    this.baseSeg[this.ncols] = seg;
    const t = this.baseTotals;
    t[0] = downTotal;
    t[1] = rankBreaks;
    t[2] = suitBreaks;
    t[3] = empties;
    t[4] = buried;
  }

  /**
   * Encodes a position that differs from the base in the `nchanged` columns listed in `changed`
   * (same stock): the base's key up to the first of them, then their new bits and the base's bits
   * of the columns between; the totals of the evaluation are the base's, corrected for them.
   */
  private encodeDelta(s: SolverState): number {
    const changed = this.changed;
    const nch = this.nchanged;
    const slotVer = this.slotVer;
    const curSlot = this.curSlot;
    const breaks = this.colBreaks;
    const runLen = this.colRunLen;
    const bitLen = this.colBitLen;
    const bb = this.baseBuf;
    const seg = this.baseSeg;
    const out = this.buf;
    const t = this.baseTotals;
    let downTotal = t[0]!;
    let rankBreaks = t[1]!;
    let suitBreaks = t[2]!;
    let empties = t[3]!;
    let buried = t[4]!;
    for (let i = 0; i < nch; i++) {
      const c = changed[i]!;
      const v = s.ver[c]!;
      let q = 2 * c;
      if (slotVer[q] !== v) {
        q++;
        if (slotVer[q] !== v) q = this.miss(s, c, v);
      }
      curSlot[c] = q;
      const bq = this.baseSlot[c]!;
      const bd = this.baseDown[c]!;
      const d = s.down[c]!;
      const bbr = breaks[bq]!;
      const br = breaks[q]!;
      downTotal += d - bd;
      rankBreaks += (br >> 8) - (bbr >> 8);
      suitBreaks += (br & 255) - (bbr & 255);
      if (d > 0) buried += runLen[q]!;
      if (bd > 0) buried -= runLen[bq]!;
      if (runLen[q] === 0) empties++;
      if (runLen[bq] === 0) empties--;
    }
    // the base's key up to the first changed column, then column by column
    const sSrc = this.segSrc;
    const sPos = this.segPos;
    const sLen = this.segLen;
    let ns = 0;
    const n = this.ncols;
    let ci = 0;
    for (let c = changed[0]!; c < n; ) {
      if (ci < nch && changed[ci] === c) {
        // a changed column: its slot's bits
        const q = curSlot[c]!;
        sSrc[ns] = SLOTS;
        sPos[ns] = q * COL_WORDS * 32;
        sLen[ns++] = bitLen[q]!;
        ci++;
        c++;
      } else {
        // unchanged columns up to the next changed one: the base's bits
        const e = ci < nch ? changed[ci]! : n;
        sSrc[ns] = BASE;
        sPos[ns] = seg[c]!;
        sLen[ns++] = seg[e]! - seg[c]!;
        c = e;
      }
    }
    const first = seg[changed[0]!]!;
    const nw = first >>> 5;
    for (let i = 0; i < nw; i++) out[i] = bb[i]!;
    const nb = first & 31;
    this.setScore(s, downTotal, rankBreaks, suitBreaks, empties, buried);
    return this.assemble(nb === 0 ? 0 : bb[nw]! & ~(0xffffffff >>> nb), nb, nw, ns);
  }

  /**
   * Writes the rest of a key into buf — after `nw` whole words, the `nb` bits in `cur` (top-aligned)
   * and then the `ns` segments of segSrc/segPos/segLen (source SLOTS: the slots' bits, BASE: the
   * base's key, ZEROS; first bit; length in bits) — and returns its length in words.
   */
  private assemble(cur: number, nb: number, nw: number, ns: number): number {
    const out = this.buf;
    const src = this.colBits;
    const bb = this.baseBuf;
    for (let si = 0; si < ns; si++) {
      let left = this.segLen[si]!;
      const sel = this.segSrc[si]!;
      if (sel === ZEROS) {
        nb += left;
        while (nb >= 32) {
          out[nw++] = cur;
          cur = 0;
          nb -= 32;
        }
        continue;
      }
      const from = sel === SLOTS ? src : bb;
      let p = this.segPos[si]!;
      while (left > 0) {
        const k = left < 32 ? left : 32;
        left -= k;
        const wi = p >>> 5;
        const bo = p & 31;
        p += k;
        let w = bo === 0 ? from[wi]! : (from[wi]! << bo) | (from[wi + 1]! >>> (32 - bo));
        if (k < 32) w &= ~(0xffffffff >>> k);
        if (nb === 0) {
          cur = w;
          nb = k;
        } else {
          cur |= w >>> nb;
          nb += k;
          if (nb < 32) continue;
          out[nw++] = cur;
          nb -= 32;
          cur = nb === 0 ? 0 : w << (k - nb);
          continue;
        }
        if (nb === 32) {
          out[nw++] = cur;
          cur = 0;
          nb = 0;
        }
      }
    }
    if (nb > 0) out[nw++] = cur;
    return (this.lastNw = nw);
  }

  private setScore(s: SolverState, downTotal: number, rankBreaks: number, suitBreaks: number, empties: number, buried: number): void {
    let stockCards = 0;
    if (s.stockLeft > 0) stockCards = s.stockStart[s.totalDeals]! - s.stockStart[s.totalDeals - s.stockLeft]!;
    const w = this.wts;
    this.score =
      this.offset + w[0]! * downTotal + w[1]! * rankBreaks + w[2]! * suitBreaks + w[3]! * stockCards -
      w[4]! * s.removed - w[5]! * empties + w[6]! * buried;
  }

  /**
   * Splits column c of `s` into runs (R7) and writes its cache slot q: runs, breaks, and its bits —
   * the down count (downBits), then per run a 1, the top card (see the file's comment) and the
   * length, then a 0. With a slot p (-1 for none) that holds the column as it was before cards were
   * only added to or taken from its end, all but p's last run are taken from p, and only the rest of
   * the column is split.
   */
  private fill(s: SolverState, c: number, q: number, p: number): void {
    const up = s.up;
    const base = c * CAP;
    const len = s.upLen[c]!;
    const runs = this.colRuns;
    const runBit = this.colRunBit;
    const runBrk = this.colRunBrk;
    const rq = q * CAP;
    const cb = this.cardBits;
    const suits = this.suits;
    const bits = this.colBits;
    const w0 = q * COL_WORDS;
    let wi = w0;
    let cur = 0;
    let nb = 0;
    let r = 0;
    let rb = 0;
    let sb = 0;
    let prevBottom = -1;
    let i = 0;
    let v = s.down[c]!;
    let k = this.downBits;
    if (p >= 0 && this.colRunLen[p]! > 1) {
      // keep p's runs but its last one: copy them, their bits and breaks, and resume at the last
      const rp = p * CAP;
      const ri = this.colRunLen[p]! - 1;
      for (let t = 0; t < ri; t++) {
        const run = runs[rp + t]!;
        i += (run & 15) + 1;
        if (p !== q) {
          runs[rq + t] = run;
          runBit[rq + t] = runBit[rp + t]!;
          runBrk[rq + t] = runBrk[rp + t]!;
        }
      }
      if (i <= len) {
        r = ri;
        const last = runs[rp + ri - 1]!;
        prevBottom = (last >> 4) - (last & 15);
        const br = runBrk[rp + ri]!;
        rb = br >> 8;
        sb = br & 255;
        const off = runBit[rp + ri]!;
        const full = off >>> 5;
        nb = off & 31;
        const wp = p * COL_WORDS;
        if (p !== q) for (let t = 0; t < full; t++) bits[w0 + t] = bits[wp + t]!;
        wi = w0 + full;
        cur = nb === 0 ? 0 : bits[wp + full]! & ~(0xffffffff >>> nb);
        v = 0;
        k = 0;
      } else i = 0; // the column lost more than its last run (not a tail change): split it all
    }
    for (;;) {
      // append the k-bit value v (k <= 16)
      const free = 32 - nb;
      if (k < free) {
        cur |= v << (free - k);
        nb += k;
      } else {
        const rest = k - free;
        bits[wi++] = (cur | (v >>> rest)) >>> 0;
        cur = rest === 0 ? 0 : v << (32 - rest);
        nb = rest;
      }
      if (i > len) break;
      if (i === len) {
        v = 0;
        k = 1;
        i++;
        continue;
      }
      // the next run, from card i up
      runBit[rq + r] = (wi - w0) * 32 + nb;
      runBrk[rq + r] = (rb << 8) | sb;
      const top = up[base + i]!;
      if (i > 0) {
        if (RANK0[top]! + 1 === RANK0[up[base + i - 1]!]) sb++;
        else rb++;
      }
      let j = i + 1;
      while (j < len && up[base + j] === up[base + j - 1]! - 1 && RANK0[up[base + j - 1]!] !== 0) j++;
      const l1 = j - i - 1;
      runs[rq + r++] = (top << 4) | l1;
      if (suits === 1) {
        v = 16 | top; // 1, card (4 bits)
        k = 5;
      } else if (prevBottom >= 0 && RANK0[top]! + 1 === RANK0[prevBottom]) {
        // a natural run: one rank below the run under it, of another suit (R6); in 2 suits, the other one
        if (suits === 4) {
          v = 12 | ((top / 13) | 0);
          k = 4;
        } else {
          v = 3;
          k = 2;
        }
      } else {
        v = (2 << cb) | top;
        k = 2 + cb;
      }
      if (l1 === 0) {
        v <<= 1;
        k += 1;
      } else if (l1 === 1) {
        v = (v << 2) | 2;
        k += 2;
      } else {
        v = (v << 6) | 48 | (l1 - 2);
        k += 6;
      }
      prevBottom = top - l1;
      i = j;
    }
    if (nb > 0) bits[wi] = cur >>> 0;
    this.colBitLen[q] = (wi - w0) * 32 + nb;
    this.colRunLen[q] = r;
    this.colBreaks[q] = (rb << 8) | sb;
    this.setSortKey(q, r);
    this.slotVer[q] = s.ver[c]!;
  }

  /**
   * Fills a slot for column c, not cached at version v: the non-base slot (or the base one if that is
   * empty), from the column's last contents when it only changed at its end and they are cached.
   * Returns the slot.
   */
  private miss(s: SolverState, c: number, v: number): number {
    const slotVer = this.slotVer;
    const b = this.base[c]!;
    const q = slotVer[2 * c + b] === -1 ? 2 * c + b : 2 * c + 1 - b;
    let p = -1;
    if (s.tailVer[c] === v) {
      const pv = s.prevVer[c]!;
      if (slotVer[2 * c] === pv) p = 2 * c;
      else if (slotVer[2 * c + 1] === pv) p = 2 * c + 1;
    }
    this.fill(s, c, q, p);
    return q;
  }

  /**
   * Encodes the state into `buf`; returns the key length in words. Also sets `score`:
   * down·faceDown + rankBreak·(adjacent face-up pairs out of rank order) + suitBreak·(in rank order
   * but of two suits) + stockCard·(stock cards) − removed·(suits removed) − empty·(empty columns)
   * + buried·(runs lying over face-down cards), shifted to be non-negative.
   */
  encode(s: SolverState): number {
    const n = this.ncols;
    const ver = s.ver;
    if (this.baseOk && s.stockLeft === this.baseStock) {
      // a few columns changed from the base: build on its key
      // curSlot back to the base's slots (the columns left unchanged are cached there)
      const curSlot = this.curSlot;
      const changed = this.changed;
      if (this.curIsBase) {
        for (let i = 0; i < this.nchanged; i++) {
          const c = changed[i]!;
          curSlot[c] = this.baseSlot[c]!;
        }
      } else curSlot.set(this.baseSlot);
      this.curIsBase = true;
      let m = 0;
      const baseVer = this.baseVer;
      for (let c = 0; c < n && m <= DELTA_MAX; c++) if (ver[c] !== baseVer[c]) changed[m++] = c;
      this.nchanged = m;
      if (m <= DELTA_MAX) {
        if (m === 0) {
          this.nchanged = 0;
          for (let i = 0; i < this.baseNw; i++) this.buf[i] = this.baseBuf[i]!;
          const t = this.baseTotals;
          this.setScore(s, t[0]!, t[1]!, t[2]!, t[3]!, t[4]!);
          return (this.lastNw = this.baseNw);
        }
        return this.encodeDelta(s);
      }
      this.nchanged = 0;
    }
    this.curIsBase = false;
    const down = s.down;
    const upLen = s.upLen;
    const slotVer = this.slotVer;
    const curSlot = this.curSlot;
    const breaks = this.colBreaks;
    const runLen = this.colRunLen;
    const bitLen = this.colBitLen;
    // the key's segments: while the stock lasts each column's bits in order; after, columns with no
    // face-down card are interchangeable: their down counts (0) in column order, then their runs,
    // sorted, after the others
    const sym = this.sorts(s);
    const db = this.downBits;
    const sSrc = this.segSrc;
    const sPos = this.segPos;
    const sLen = this.segLen;
    const order = this.order;
    let ns = 0;
    let m = 0;
    let downTotal = 0;
    let rankBreaks = 0;
    let suitBreaks = 0;
    let empties = 0;
    let buried = 0;
    for (let c = 0; c < n; c++) {
      const v = ver[c]!;
      let q = 2 * c;
      if (slotVer[q] !== v) {
        q++;
        if (slotVer[q] !== v) q = this.miss(s, c, v);
      }
      curSlot[c] = q;
      const br = breaks[q]!;
      const d = down[c]!;
      if (d > 0) buried += runLen[q]!;
      rankBreaks += br >> 8;
      suitBreaks += br & 255;
      downTotal += d;
      if (upLen[c] === 0) empties++;
      if (sym && d === 0) {
        if (ns > 0 && sSrc[ns - 1] === ZEROS) sLen[ns - 1]! += db;
        else {
          sSrc[ns] = ZEROS;
          sLen[ns++] = db;
        }
        let i = m++;
        while (i > 0 && this.orderSlots(order[i - 1]!, q) > 0) {
          order[i] = order[i - 1]!;
          i--;
        }
        order[i] = q;
      } else {
        sSrc[ns] = SLOTS;
        sPos[ns] = q * COL_WORDS * 32;
        sLen[ns++] = bitLen[q]!;
      }
    }
    for (let i = 0; i < m; i++) {
      const q = order[i]!;
      sSrc[ns] = SLOTS;
      sPos[ns] = q * COL_WORDS * 32 + db;
      sLen[ns++] = bitLen[q]! - db;
    }
    this.sortedCount = m;
    this.setScore(s, downTotal, rankBreaks, suitBreaks, empties, buried);
    return this.assemble(s.stockLeft << 29, 3, 0, ns);
  }

  /** Orders two cached columns by their runs (then by slot, i.e. column, so the order is total). */
  /** Sets slot q's sort key: its first three runs (each + 1, 0 for none) in 10 bits each. */
  private setSortKey(q: number, r: number): void {
    const runs = this.colRuns;
    const b = q * CAP;
    this.sortKey[q] = ((r > 0 ? runs[b]! + 1 : 0) << 20) | ((r > 1 ? runs[b + 1]! + 1 : 0) << 10) | (r > 2 ? runs[b + 2]! + 1 : 0);
  }

  /**
   * Orders two cached columns by their runs (then by slot, i.e. column, so the order is total): by
   * sort key first, the runs themselves only when the first three agree.
   */
  private orderSlots(a: number, b: number): number {
    const d = this.sortKey[a]! - this.sortKey[b]!;
    if (d !== 0) return d;
    return this.colRunLen[a]! > 2 || this.colRunLen[b]! > 2 ? this.cmpSlots(a, b) : a - b;
  }

  private cmpSlots(a: number, b: number): number {
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
   * permutation of the interchangeable columns once the stock is empty). The columns read become the
   * base slots of the cache.
   */
  decode(words: Uint32Array, off: number, s: SolverState): void {
    this.rw = words;
    this.rpos = off * 32;
    const n = this.ncols;
    const cb = this.cardBits;
    s.stockLeft = this.get(3);
    const sym = this.sorts(s);
    const pending = this.order;
    let m = 0;
    s.touchAll();
    for (let c = 0; c < n; c++) {
      const start = this.rpos;
      const d = this.get(this.downBits);
      s.down[c] = d;
      if (sym && d === 0) pending[m++] = c;
      else this.readRuns(c, s, cb, start, false);
    }
    // their down counts (0) were read above: cache them as zero bits in front of the runs
    for (let i = 0; i < m; i++) this.readRuns(pending[i]!, s, cb, this.rpos - this.downBits, true);
    let present = 0;
    for (let c = 0; c < n; c++) present += s.down[c]! + s.upLen[c]!;
    if (s.stockLeft > 0) present += s.stockStart[s.totalDeals]! - s.stockStart[s.totalDeals - s.stockLeft]!;
    s.removed = s.completeSuits - present / 13;
    this.setBase(s, words, off, ((this.rpos - off * 32 + 31) >>> 5));
  }

  /** Length in words of the key stored at `words[off…]`, read without changing any state. */
  keyLength(words: Uint32Array, off: number): number {
    this.rw = words;
    this.rpos = off * 32;
    const n = this.ncols;
    const sym = this.get(3) === 0 && this.canonical;
    let pending = 0;
    for (let c = 0; c < n; c++) {
      if (this.get(this.downBits) === 0 && sym) pending++;
      else this.skipRuns();
    }
    for (let i = 0; i < pending; i++) this.skipRuns();
    return ((this.rpos - off * 32 + 31) >>> 5);
  }

  /** Moves the read position past one column's runs and end mark (a run at a time, as readRuns). */
  private skipRuns(): void {
    const suits = this.suits;
    const words = this.rw;
    const card = 2 + this.cardBits;
    let pos = this.rpos;
    for (;;) {
      const wi = pos >>> 5;
      const bo = pos & 31;
      const w = bo === 0 ? words[wi]! : ((words[wi]! << bo) | (words[wi + 1]! >>> (32 - bo))) >>> 0;
      if (w >>> 31 === 0) {
        pos++;
        break;
      }
      let used = suits === 1 ? 5 : ((w >>> 30) & 1) === 1 ? (suits === 2 ? 2 : 4) : card;
      const lw = w << used;
      used += lw >>> 31 === 0 ? 1 : ((lw >>> 30) & 1) === 0 ? 2 : 6;
      pos += used;
    }
    this.rpos = pos;
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

  /**
   * Reads column c's runs from the key into the state, and into the column's base slot; `start` is
   * the bit where the column's down count was read, or with `zeroDown` (a count of 0 read apart)
   * downBits before its runs. Reads a run at a time from a 32-bit window (a run takes at most 14 bits).
   */
  private readRuns(c: number, s: SolverState, cb: number, start: number, zeroDown: boolean): void {
    let len = 0;
    const base = c * CAP;
    const up = s.up;
    const suits = this.suits;
    const q = 2 * c + this.base[c]!;
    const rq = q * CAP;
    const words = this.rw;
    const runs = this.colRuns;
    const cardMask = (1 << cb) - 1;
    let pos = this.rpos;
    let prevBottom = -1;
    let r = 0;
    let rb = 0;
    let sb = 0;
    for (;;) {
      const wi = pos >>> 5;
      const bo = pos & 31;
      const w = bo === 0 ? words[wi]! : ((words[wi]! << bo) | (words[wi + 1]! >>> (32 - bo))) >>> 0;
      if (w >>> 31 === 0) {
        pos++;
        break;
      }
      this.colRunBit[rq + r] = pos - start;
      this.colRunBrk[rq + r] = (rb << 8) | sb;
      let top: number;
      let used: number;
      if (suits === 1) {
        top = (w >>> 27) & 15;
        used = 5;
        if (r > 0) rb++;
      } else if (((w >>> 30) & 1) === 1) {
        const suit = suits === 2 ? 1 - ((prevBottom / 13) | 0) : (w >>> 28) & 3;
        top = suit * 13 + RANK0[prevBottom]! - 1;
        used = suits === 2 ? 2 : 4;
        sb++;
      } else {
        top = (w >>> (30 - cb)) & cardMask;
        used = 2 + cb;
        if (r > 0) rb++;
      }
      const lw = w << used;
      let l: number;
      if (lw >>> 31 === 0) {
        l = 1;
        used += 1;
      } else if (((lw >>> 30) & 1) === 0) {
        l = 2;
        used += 2;
      } else {
        l = ((lw >>> 26) & 15) + 3;
        used += 6;
      }
      pos += used;
      for (let i = 0; i < l; i++) up[base + len++] = top - i;
      runs[rq + r++] = (top << 4) | (l - 1);
      prevBottom = top - l + 1;
    }
    this.rpos = pos;
    s.upLen[c] = len;
    this.curSlot[c] = q;
    // cache what encode would compute for this column: its runs, breaks and bits
    this.colRunLen[q] = r;
    this.colBreaks[q] = (rb << 8) | sb;
    this.setSortKey(q, r);
    const bits = pos - start;
    this.colBitLen[q] = bits;
    this.slotVer[q] = s.ver[c]!;
    const dst = q * COL_WORDS;
    for (let k = 0, p = start; k < bits; k += 32, p += 32) {
      const wi = p >>> 5;
      const bo = p & 31;
      let w = bo === 0 ? words[wi]! : (words[wi]! << bo) | (words[wi + 1]! >>> (32 - bo));
      // zero past the column's last bit (and, read apart, the down count)
      if (bits - k < 32) w &= ~(0xffffffff >>> (bits - k));
      if (k === 0 && zeroDown) w &= 0xffffffff >>> this.downBits;
      this.colBits[dst + (k >>> 5)] = w;
    }
  }
}
