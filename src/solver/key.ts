/**
 * Exact, compact position keys (columns interned), and the search's evaluation of a position.
 *
 * A search meets few distinct columns — some 8,000 in a million four-suit Spider positions, 2,400 in
 * 700,000 two-suit ones — so each distinct column, its face-down COUNT (the hidden cards themselves
 * are fixed by the deal, R18) and its face-up cards, is stored once in the codec's column store and
 * named by a number, its *id*. A key holds only what can change: the stock deals left and each
 * column's id. Cards of equal rank and suit are the same value (R2); removed suits are implied by the
 * cards still present. A key is written in 16-bit units, two to a word (the first in the high half):
 *
 *   stockLeft << 10 | mask,  then one id per column
 *
 * An id below 2^15 takes one unit, a larger one two (0x8000 | id >> 16, then id & 0xffff); a key of
 * an odd number of units ends with a zero unit. The columns with no face-down card that no deal left
 * in the stock reaches are interchangeable (all of them once the stock is empty, docs/solver.md, reductions;
 * columns 4–7 in Spiderette before its last deal of 3 cards, R12; none in Spider while the stock
 * lasts), so the key is canonical: `mask` marks those columns, the ids of the others come first in
 * column order, then theirs, sorted by their runs. The code is self-delimiting
 * (prefix-free), so two keys of one column store are equal exactly when their words are equal. Ids
 * belong to one store (ColumnStore): keys are compared, and decoded, only with the store that named
 * their columns (the searches of one solve share one).
 */
import { CAP, RANK0, type SolverState } from './state.js';

/** Longest key in 32-bit words: one unit for the stock and mask, two for each of 10 columns, and spare. */
export const MAX_KEY_WORDS = 16;

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

/**
 * Default evaluation weights (the beam search's, BEAM_WEIGHTS), chosen on deals outside the benchmark
 * sets: a "disorder" count in the manner of the KDE Patience solver: each break in order
 * (rank or suit) 1, each face-down card 2, each empty column -2, each completed suit -13; stock cards
 * and buried runs nothing.
 */
export const DEFAULT_WEIGHTS: EvalWeights = { down: 2, rankBreak: 1, suitBreak: 1, stockCard: 0, removed: 13, empty: 2, buried: 0 };

/** Ids the column store has room for at first (it doubles as needed). */
const FIRST_IDS = 256;

/**
 * The distinct columns met by the searches of one deal, each stored once and named by an id: its
 * cards, face-up and face-down counts, and what the evaluation and the canonical order need of it
 * (its runs, a sort key of the first three, the counts the evaluation sums). One store may
 * serve every search of a solve (solve.ts shares one): the ids of a column stay the same.
 */
export class ColumnStore {
  /** Ids given so far. */
  size = 0;
  // per id: its cards (in `cards` from `start`), face-up and face-down counts, run count, the
  // evaluation's counts, sort key (its first three runs) and hash; and the hash table of ids
  // (id + 1, 0 for none; a power of two in size). A column's runs are not kept: the sort key orders
  // nearly every pair of columns, and `runsOf` rebuilds them from the cards for the others.
  cards = new Uint8Array(FIRST_IDS * 16);
  private cardsUsed = 0;
  /** Scratch of add: the runs of the column being added. */
  private readonly addRuns = new Uint16Array(CAP);
  start = new Int32Array(FIRST_IDS);
  len = new Uint8Array(FIRST_IDS);
  down = new Uint8Array(FIRST_IDS);
  nruns = new Uint8Array(FIRST_IDS);
  /**
   * Per id, the evaluation's counts packed in one number, 10 bits each (a position's sums stay below
   * 1,024, so the sums of packed values unpack exactly): face-down cards, rank breaks << 10, suit
   * breaks << 20, runs lying over face-down cards * 2^30, empty (0 or 1) * 2^40.
   */
  evalCounts = new Float64Array(FIRST_IDS);
  sortKey = new Int32Array(FIRST_IDS);
  private hash = new Int32Array(FIRST_IDS);
  private idSlots = new Int32Array(FIRST_IDS * 4);

  /** Bytes held by the store and its hash table. */
  get bytes(): number {
    return (
      this.cards.byteLength + this.start.byteLength + this.len.byteLength + this.down.byteLength +
      this.nruns.byteLength + this.evalCounts.byteLength + this.sortKey.byteLength +
      this.hash.byteLength + this.idSlots.byteLength
    );
  }

  /**
   * The id of column c's contents in `s`, added to the store if they are new. (Adding may replace
   * the store's arrays: read them through the store after calling it.)
   */
  intern(s: SolverState, c: number): number {
    const d = s.down[c]!;
    const len = s.upLen[c]!;
    const up = s.up;
    const b = c * CAP;
    let h = Math.imul(d + 1, 0x9e3779b1) ^ len;
    for (let i = 0; i < len; i++) {
      h = Math.imul(h ^ up[b + i]!, 0x85ebca6b);
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
    h ^= h >>> 15;
    const slots = this.idSlots;
    const mask = slots.length - 1;
    let i = h & mask;
    for (;;) {
      const sv = slots[i]!;
      if (sv === 0) break;
      const id = sv - 1;
      if (this.hash[id] === h && this.down[id] === d && this.len[id] === len) {
        const cards = this.cards;
        const st = this.start[id]!;
        let j = 0;
        while (j < len && cards[st + j] === up[b + j]) j++;
        if (j === len) return id;
      }
      i = (i + 1) & mask;
    }
    return this.add(s, c, h, i);
  }

  /** Stores column c's contents as a new id (hash h, free hash slot i); splits it into runs (R7). */
  private add(s: SolverState, c: number, h: number, i: number): number {
    const id = this.size++;
    if (id === this.start.length) this.growIds();
    const d = s.down[c]!;
    const len = s.upLen[c]!;
    const up = s.up;
    const b = c * CAP;
    if (this.cardsUsed + len > this.cards.length) this.cards = grow8(this.cards, this.cardsUsed + len);
    const st = this.cardsUsed;
    for (let j = 0; j < len; j++) this.cards[st + j] = up[b + j]!;
    this.cardsUsed += len;
    // runs, bottom first: (top card << 4 | length - 1)
    const runs = this.addRuns;
    let r = 0;
    for (let k = 0; k < len; ) {
      const top = up[b + k]!;
      let j = k + 1;
      while (j < len && up[b + j] === up[b + j - 1]! - 1 && RANK0[up[b + j - 1]!] !== 0) j++;
      runs[r++] = (top << 4) | (j - k - 1);
      k = j;
    }
    this.start[id] = st;
    this.len[id] = len;
    this.down[id] = d;
    this.nruns[id] = r;
    this.evalCounts[id] = countColumn(s, c);
    this.sortKey[id] = ((r > 0 ? runs[0]! + 1 : 0) << 20) | ((r > 1 ? runs[1]! + 1 : 0) << 10) | (r > 2 ? runs[2]! + 1 : 0);
    this.hash[id] = h;
    this.idSlots[i] = id + 1;
    if (this.size * 2 > this.idSlots.length) this.rehashIds();
    return id;
  }

  /**
   * Writes the runs of column `id` into `out`, bottom first, each as (top card << 4 | length − 1),
   * the units its sort key is made of; returns how many (nruns). `out` needs room for the column's
   * face-up cards.
   */
  runsOf(id: number, out: Uint16Array): number {
    const cards = this.cards;
    const st = this.start[id]!;
    const len = this.len[id]!;
    let r = 0;
    for (let k = 0; k < len; ) {
      let j = k + 1;
      while (j < len && cards[st + j] === cards[st + j - 1]! - 1 && RANK0[cards[st + j - 1]!] !== 0) j++;
      out[r++] = (cards[st + k]! << 4) | (j - k - 1);
      k = j;
    }
    return r;
  }

  private growIds(): void {
    const n = this.start.length * 2;
    const g32 = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    const g8 = (a: Uint8Array) => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    this.start = g32(this.start);
    this.sortKey = g32(this.sortKey);
    this.hash = g32(this.hash);
    this.len = g8(this.len);
    this.down = g8(this.down);
    this.nruns = g8(this.nruns);
    const e = new Float64Array(n);
    e.set(this.evalCounts);
    this.evalCounts = e;
  }

  private rehashIds(): void {
    const slots = new Int32Array(this.idSlots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let i = this.hash[id]! & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = id + 1;
    }
    this.idSlots = slots;
  }
}

/**
 * Encodes and decodes keys for one search, and evaluates positions.
 *
 * Speed: a column's id is cached by the column's version (SolverState.ver) in one of two entries a
 * column — the *base* entry holds the column as in the position last decoded (or committed), the
 * other the column as a child move left it — so a child's key costs a lookup of the one or two
 * columns its move changed (a hash of their cards, most often found in the store), then the ids
 * written out. Each id keeps what the evaluation needs of its column (down count, breaks, runs), so
 * the evaluation is a sum over the columns. Keys and scores are the same whichever way they are built
 * (a test compares them with keys built with empty caches on random positions).
 */
export class KeyCodec {
  readonly ncols: number;
  /** Scratch output of encode: the key, zero-padded to whole words. */
  readonly buf = new Uint32Array(MAX_KEY_WORDS);
  /** Evaluation of the last encoded position (lower is closer to a win), >= 0. */
  score = 0;
  /** Face-down cards of the last encoded position (at most 104). */
  downLeft = 0;
  // per column: two cache entries (2c + 0/1) of version -> id, which is the base one, and the ids of
  // the position last encoded or decoded
  private readonly cacheVer: Float64Array;
  private readonly cacheId: Int32Array;
  private readonly base: Uint8Array;
  private readonly curId: Int32Array;
  /**
   * Per column, the id decode last wrote into a state's column and the version it gave it: a column
   * still at that version holds those contents (versions never repeat), so decode leaves it be.
   */
  private readonly heldId: Int32Array;
  private readonly heldVer: Float64Array;
  /** The columns with no face-down card of the last key (stock empty), in the key's sorted order. */
  private readonly order: Int32Array;
  /** Scratch of encode: the ids in the key's order. */
  private readonly seq: Int32Array;
  /** Scratch of orderColumns: the runs of two columns. */
  private readonly runsA = new Uint16Array(CAP);
  private readonly runsB = new Uint16Array(CAP);
  private sortedCount = 0;
  /** The mask of the last key encoded: the columns it sorted. */
  private lastMask = 0;
  /** The weights down, rankBreak, suitBreak, stockCard, removed, empty, buried (one array: one shape). */
  private readonly wts: Float64Array;
  private readonly offset: number;
  /** Read position (in units) of keyLength and decode. */
  private rpos = 0;

  /**
   * `canonical` (default true): interchangeable columns (see SolverState.freeFrom) with no face-down
   * card are written sorted, so positions equal up to such columns share a key; false keeps column
   * order always (keys of positions equal column for column, as a line of play needs). Throws RangeError for a game of
   * more than 10 columns or 63 stock deals (Spider has 10 and 5).
   */
  constructor(
    state: SolverState,
    weights: EvalWeights = DEFAULT_WEIGHTS,
    private readonly canonical = true,
    /** Where the columns are stored (a new store unless one is shared by the searches of a solve). */
    readonly store: ColumnStore = new ColumnStore(),
  ) {
    const n = state.ncols;
    // the first unit holds the stock (6 bits) and a mask of the columns (10 bits)
    if (n > 10 || state.totalDeals > 63) throw new RangeError(`KeyCodec: at most 10 columns and 63 stock deals, not ${n} and ${state.totalDeals}`);
    this.ncols = n;
    this.cacheVer = new Float64Array(2 * n).fill(-1);
    this.cacheId = new Int32Array(2 * n);
    this.base = new Uint8Array(n);
    this.curId = new Int32Array(n);
    this.heldId = new Int32Array(n).fill(-1);
    this.heldVer = new Float64Array(n).fill(-1);
    this.order = new Int32Array(n);
    this.seq = new Int32Array(n);
    this.wts = Float64Array.of(weights.down, weights.rankBreak, weights.suitBreak, weights.stockCard, weights.removed, weights.empty, weights.buried);
    this.offset = weights.removed * state.completeSuits + weights.empty * state.ncols;
  }

  /** Bytes held by the codec's column store (shared stores are counted by each codec). */
  get bytes(): number {
    return this.store.bytes;
  }

  /**
   * The first column whose key sorts it when it has no face-down card (see SolverState.freeFrom):
   * ncols for keys in column order.
   */
  private sortsFrom(s: SolverState): number {
    return this.canonical ? s.freeFrom[s.stockLeft]! : this.ncols;
  }

  /** A move tag (state.ts moveTag) of the position last encoded, with its columns as decoded (decodedColumn). */
  decodedTag(tag: number): number {
    return this.decodedColumn(tag & 15) | (this.decodedColumn(tag >> 4) << 4);
  }

  /**
   * The column that column c of the position last encoded occupies in the position its key decodes
   * to: c itself unless the key sorted it (its mask), for the sorted columns are reordered.
   */
  decodedColumn(c: number): number {
    const mask = this.lastMask;
    if (!((mask >> c) & 1)) return c;
    // the i-th column in sorted order goes to the i-th column of the mask
    let i = 0;
    while (i < this.sortedCount && this.order[i] !== c) i++;
    for (let d = 0; d < this.ncols; d++) if ((mask >> d) & 1 && i-- === 0) return d;
    return c;
  }

  /** Forgets every cached column version (the next encode looks every column up in the store). */
  reset(): void {
    this.cacheVer.fill(-1);
  }

  /**
   * Makes the columns of the position last encoded the base ones (a depth-first search calls it when
   * it enters a child, whose children then differ from it in one or two columns).
   */
  commit(s: SolverState): void {
    for (let c = 0; c < this.ncols; c++) this.base[c] = this.cacheVer[2 * c] === s.ver[c] ? 0 : 1;
  }

  /** The id of column c of `s`: from the cache by version, else from the store (added if new). */
  private idOf(s: SolverState, c: number): number {
    const v = s.ver[c]!;
    const e = 2 * c;
    const cv = this.cacheVer;
    if (cv[e] === v) return this.cacheId[e]!;
    if (cv[e + 1] === v) return this.cacheId[e + 1]!;
    const id = this.store.intern(s, c);
    // the entry that is not the base's (or the base's, if it is empty)
    const b = this.base[c]!;
    const q = cv[e + b] === -1 ? e + b : e + 1 - b;
    cv[q] = v;
    this.cacheId[q] = id;
    return id;
  }

  /**
   * Orders two columns of the last encode, both with no face-down card, for the canonical key: by
   * their runs (the first three at once, by sort key), then by column, so the order is total.
   */
  private orderColumns(a: number, b: number): number {
    const ia = this.curId[a]!;
    const ib = this.curId[b]!;
    if (ia === ib) return a - b;
    const st = this.store;
    const d = st.sortKey[ia]! - st.sortKey[ib]!;
    if (d !== 0) return d;
    const ra = st.nruns[ia]!;
    const rb = st.nruns[ib]!;
    if (ra > 2 || rb > 2) {
      // the first three runs are equal (the sort keys): the rest, rebuilt from the cards (rare)
      const m = Math.min(ra, rb);
      const pa = this.runsA;
      const pb = this.runsB;
      st.runsOf(ia, pa);
      st.runsOf(ib, pb);
      for (let i = 3; i < m; i++) {
        const e = pa[i]! - pb[i]!;
        if (e !== 0) return e;
      }
      return ra - rb || a - b;
    }
    return a - b;
  }

  /**
   * Sets `score` and `downLeft` as `encode` would, without writing the key or storing a column: the
   * sum of every column's counts (columnCounts). The beam search scores a deal's child this way when
   * it keys only the children it keeps (a card move's child: scoreCounts).
   */
  evaluate(s: SolverState): void {
    let counts = 0;
    for (let c = 0; c < this.ncols; c++) counts += this.columnCounts(s, c);
    this.scoreCounts(s, counts);
  }

  /**
   * The evaluation's counts of column c of `s`, packed (ColumnStore.evalCounts): from the store for a
   * column at a version this codec has cached (the position last decoded or committed, or a child's),
   * else counted from its cards (countColumn).
   */
  columnCounts(s: SolverState, c: number): number {
    const v = s.ver[c]!;
    const e = 2 * c;
    const cv = this.cacheVer;
    if (cv[e] === v) return this.store.evalCounts[this.cacheId[e]!]!;
    if (cv[e + 1] === v) return this.store.evalCounts[this.cacheId[e + 1]!]!;
    return countColumn(s, c);
  }

  /**
   * Sets `score` and `downLeft` from a position's evaluation counts summed packed (columnCounts of
   * each column, ColumnStore.evalCounts). A caller that knows which columns a move changed sums the
   * parent's sum less theirs before the move plus theirs after it (the beam search's lazy levels): the
   * same score as evaluate's, for the counts are integers summed exactly.
   */
  scoreCounts(s: SolverState, counts: number): void {
    const high = Math.floor(counts / 1073741824);
    const low = counts - high * 1073741824;
    const downTotal = low & 1023;
    const rankBreaks = (low >>> 10) & 1023;
    const suitBreaks = (low >>> 20) & 1023;
    const buried = high & 1023;
    const empties = high >>> 10;
    let stockCards = 0;
    if (s.stockLeft > 0) stockCards = s.stockStart[s.totalDeals]! - s.stockStart[s.totalDeals - s.stockLeft]!;
    const w = this.wts;
    this.downLeft = downTotal;
    this.score =
      this.offset + w[0]! * downTotal + w[1]! * rankBreaks + w[2]! * suitBreaks + w[3]! * stockCards -
      w[4]! * s.removed - w[5]! * empties + w[6]! * buried;
  }

  /**
   * Encodes the state into `buf`; returns the key length in words. Also sets `score`:
   * down·faceDown + rankBreak·(adjacent face-up pairs out of rank order) + suitBreak·(in rank order
   * but of two suits) + stockCard·(stock cards) − removed·(suits removed) − empty·(empty columns)
   * + buried·(runs lying over face-down cards), shifted to be non-negative.
   */
  encode(s: SolverState): number {
    const n = this.ncols;
    const ff = this.sortsFrom(s);
    const curId = this.curId;
    const order = this.order;
    // the evaluation's counts, summed packed (ColumnStore.evalCounts)
    let counts = 0;
    let mask = 0;
    let m = 0;
    for (let c = 0; c < n; c++) {
      // (idOf may grow the store's arrays: they are read through the store after it)
      const id = this.idOf(s, c);
      curId[c] = id;
      const st = this.store;
      counts += st.evalCounts[id]!;
      if (c >= ff && st.down[id] === 0) {
        mask |= 1 << c;
        let i = m++;
        while (i > 0 && this.orderColumns(order[i - 1]!, c) > 0) {
          order[i] = order[i - 1]!;
          i--;
        }
        order[i] = c;
      }
    }
    this.sortedCount = m;
    this.lastMask = mask;
    // (scoreCounts's sum written out again: encode is hot, and V8 does not inline a call here, its
    // inlining budget spent; the call cost two-suit Spiderette solves some 5% of their time)
    const high = Math.floor(counts / 1073741824);
    const low = counts - high * 1073741824;
    const downTotal = low & 1023;
    const rankBreaks = (low >>> 10) & 1023;
    const suitBreaks = (low >>> 20) & 1023;
    const buried = high & 1023;
    const empties = high >>> 10;
    let stockCards = 0;
    if (s.stockLeft > 0) stockCards = s.stockStart[s.totalDeals]! - s.stockStart[s.totalDeals - s.stockLeft]!;
    const w = this.wts;
    this.downLeft = downTotal;
    this.score =
      this.offset + w[0]! * downTotal + w[1]! * rankBreaks + w[2]! * suitBreaks + w[3]! * stockCards -
      w[4]! * s.removed - w[5]! * empties + w[6]! * buried;
    // the units: stock and mask, the ids of the columns not in mask in column order, then the sorted ones
    const seq = this.seq;
    let k = 0;
    for (let c = 0; c < n; c++) if (!((mask >> c) & 1)) seq[k++] = curId[c]!;
    for (let i = 0; i < m; i++) seq[k++] = curId[order[i]!]!;
    const out = this.buf;
    let hi = (s.stockLeft << 10) | mask;
    let nu = 1;
    for (let i = 0; i < n; i++) {
      const id = seq[i]!;
      if (id < 0x8000) {
        if (nu & 1) out[nu >> 1] = ((hi << 16) | id) >>> 0;
        else hi = id;
        nu++;
      } else {
        const u1 = 0x8000 | (id >>> 16);
        const u2 = id & 0xffff;
        if (nu & 1) {
          out[nu >> 1] = ((hi << 16) | u1) >>> 0;
          hi = u2;
        } else out[nu >> 1] = ((u1 << 16) | u2) >>> 0;
        nu += 2;
      }
    }
    if (nu & 1) out[nu >> 1] = (hi << 16) >>> 0;
    return (nu + 1) >> 1;
  }

  /** The unit at the read position, which moves on by one. */
  private unit(words: Uint32Array): number {
    const p = this.rpos++;
    return (words[p >> 1]! >>> (p & 1 ? 0 : 16)) & 0xffff;
  }

  /** The id at the read position (one unit, or two), which moves past it. */
  private readId(words: Uint32Array): number {
    const u = this.unit(words);
    return u < 0x8000 ? u : ((u & 0x7fff) << 16) | this.unit(words);
  }

  /**
   * Sets the state to the position of a key stored at `words[off…]` (inverse of encode, up to a
   * permutation of the interchangeable columns once the stock is empty). The columns read become the
   * base entries of the cache.
   */
  decode(words: Uint32Array, off: number, s: SolverState): void {
    this.rpos = off * 2;
    const n = this.ncols;
    const u0 = this.unit(words);
    s.stockLeft = u0 >>> 10;
    const mask = u0 & 0x3ff;
    s.clearUndo();
    for (let c = 0; c < n; c++) if (!((mask >> c) & 1)) this.setColumn(s, c, this.readId(words));
    // the sorted ones, into those columns in column order: that is their sorted order
    let m = 0;
    for (let c = 0; c < n; c++) {
      if (!((mask >> c) & 1)) continue;
      this.setColumn(s, c, this.readId(words));
      this.order[m++] = c;
    }
    this.sortedCount = m;
    this.lastMask = mask;
    let present = 0;
    for (let c = 0; c < n; c++) present += s.down[c]! + s.upLen[c]!;
    if (s.stockLeft > 0) present += s.stockStart[s.totalDeals]! - s.stockStart[s.totalDeals - s.stockLeft]!;
    s.removed = s.completeSuits - present / 13;
  }

  /** Sets column c of `s` to the contents of `id` and caches it as the column's base entry. */
  private setColumn(s: SolverState, c: number, id: number): void {
    // unless the column holds these contents already, unchanged since (at the version they were set at)
    if (this.heldId[c] !== id || this.heldVer[c] !== s.ver[c]) {
      s.touch(c);
      this.heldId[c] = id;
      this.heldVer[c] = s.ver[c]!;
      const store = this.store;
      const len = store.len[id]!;
      s.down[c] = store.down[id]!;
      s.upLen[c] = len;
      const up = s.up;
      const b = c * CAP;
      const cards = store.cards;
      const st = store.start[id]!;
      for (let j = 0; j < len; j++) up[b + j] = cards[st + j]!;
    }
    this.curId[c] = id;
    const e = 2 * c + this.base[c]!;
    this.cacheVer[e] = s.ver[c]!;
    this.cacheId[e] = id;
  }

  /** Length in words of the key stored at `words[off…]`, read without changing any state. */
  keyLength(words: Uint32Array, off: number): number {
    this.rpos = off * 2 + 1;
    for (let c = 0; c < this.ncols; c++) this.readId(words);
    return (this.rpos - off * 2 + 1) >> 1;
  }
}

/**
 * The evaluation's counts of column c of `s`, packed as ColumnStore.evalCounts holds them: face-down
 * cards, rank breaks << 10, suit breaks << 20 (two adjacent face-up cards of two runs make a suit
 * break when their ranks follow, R6, else a rank break), runs lying over face-down cards * 2^30,
 * empty (0 or 1) * 2^40.
 */
export function countColumn(s: SolverState, c: number): number {
  const d = s.down[c]!;
  const len = s.upLen[c]!;
  if (len === 0) return d + 1099511627776;
  const up = s.up;
  const b = c * CAP;
  let rb = 0;
  let sb = 0;
  let prev = up[b]!;
  for (let j = 1; j < len; j++) {
    const card = up[b + j]!;
    if (card !== prev - 1 || RANK0[prev] === 0) {
      if (RANK0[card]! + 1 === RANK0[prev]) sb++;
      else rb++;
    }
    prev = card;
  }
  return d + rb * 1024 + sb * 1048576 + (d > 0 ? rb + sb + 1 : 0) * 1073741824;
}

function grow8(a: Uint8Array, need: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
