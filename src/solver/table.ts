/**
 * The transposition table: every position the search has stored, kept exactly (key words in one
 * growing Uint32Array arena, no JS object per position), found by open addressing on a hash. A new
 * position is never mistaken for a stored one, since keys are compared word for word — which is what
 * makes a "lost" result sound (SOLVER-NOTES.md: a hash-only table can prune a win).
 *
 * A stored position (a *node*) is named by its offset in the arena, where one header word (the parent
 * node, from which a winning line is rebuilt) is followed by the key's words. Memory per position: the
 * key, one header word and the hash slots (4 bytes a slot, at most 70% full). A slot holds the node's
 * key offset in its low bits (as many as the arena's length needs) and, in the bits left over, a few
 * bits of the key's hash: a probe reads a stored key only when they match, which spares most of the
 * cache misses of a large table, and costs no memory.
 */

/** Gives the length in words of the key stored at `arena[off…]` (keys are self-delimiting). */
export type KeyLength = (arena: Uint32Array, off: number) => number;

function hashKey(words: Uint32Array, off: number, nw: number): number {
  let h = 0x9e3779b9 ^ nw;
  for (let i = 0; i < nw; i++) {
    h = Math.imul(h ^ words[off + i]!, 0x85ebca6b);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
  return h ^ (h >>> 15);
}

/** Bits needed to write every offset below `n` (at least 1). */
function bitsFor(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(n)));
}

/** Largest share of slots in use before the slots grow (linear probing stays short below it). */
const MAX_LOAD = 0.7;
/** Positions the first grown table has room for, and its slots. */
const EARLY_POSITIONS = 1 << 16;
const EARLY_SLOTS = Math.ceil(EARLY_POSITIONS / MAX_LOAD) + 1;
/** Slots of the second growth when that many are expected: room for 2^22 positions, 24 MB. */
const PRESIZE_SLOTS = Math.ceil((1 << 22) / MAX_LOAD) + 1;

/** Maps a 32-bit hash onto 0..cap-1 by multiplication (Lemire's fast range reduction), any cap. */
function slotOf(h: number, cap: number): number {
  return Math.min(cap - 1, Math.floor(((h >>> 0) * cap) / 4294967296));
}

/** Growable exact table of keys. */
export class PositionTable {
  /** Header and key words of all nodes, back to back. */
  arena: Uint32Array;
  /** Words of the arena in use. */
  used = 0;
  /** Number of nodes stored. */
  size = 0;
  /** Per slot: 0 (empty), or the node's key offset (node + 1) | hash bits << offBits. */
  private slots: Uint32Array;
  /** Bits of a slot that hold the key offset (enough for any offset into the arena), 16..32. */
  private offBits = 16;
  /** Hash of the key last located. */
  private lastHash = 0;
  private readonly keyLength: KeyLength;
  private readonly expected: number;

  /**
   * `expected`: how many positions the caller may store. Room for up to 2^10 of them is made at once,
   * then slots for up to 2^16, then slots for all `expected` (up to 2^22, then fourfold): a search
   * that stored 2^16 × 0.7 positions most likely goes on, and each rehash reads every key again. The
   * arena grows by a quarter. Neither grows much past `expected`, so a search that stops early (a
   * phase that runs dry) costs little. `keyLength` lets the table rehash when it grows.
   */
  constructor(expected: number, keyLength: KeyLength) {
    const n = Math.max(64, Math.min(expected, 1 << 10));
    this.slots = new Uint32Array(Math.ceil(n / MAX_LOAD) + 1);
    this.arena = new Uint32Array(Math.max(1024, Math.min(expected, 1 << 10) * 8));
    this.offBits = Math.max(16, bitsFor(this.arena.length));
    this.keyLength = keyLength;
    this.expected = expected;
  }

  /** Bytes held by the table's arrays (allocated, not just used). */
  get bytes(): number {
    return this.arena.byteLength + this.slots.byteLength;
  }

  /** Parent node of a node (the root, node 0, is its own parent). */
  parent(node: number): number {
    return this.arena[node]!;
  }

  /** The nodes from the root (node 0) down to `node`, following the parents. */
  pathTo(node: number): number[] {
    const path: number[] = [];
    for (let n = node; ; n = this.parent(n)) {
      path.push(n);
      if (n === 0) break;
    }
    return path.reverse();
  }

  /** Arena offset of a node's key. */
  keyOffset(node: number): number {
    return node + 1;
  }

  /**
   * The slot that holds the key `key[0..nw)`, or the empty slot where it would go; leaves the key's
   * hash in `lastHash`.
   */
  private locate(key: Uint32Array, nw: number): number {
    const slots = this.slots;
    const cap = slots.length;
    const arena = this.arena;
    const h = hashKey(key, 0, nw);
    let i = slotOf(h, cap);
    const ob = this.offBits;
    // the slot index comes from the hash's high bits, the tag from its low ones
    const tag = ob === 32 ? 0 : (h << ob) >>> 0;
    this.lastHash = h;
    const mask = ob === 32 ? 0xffffffff : (1 << ob) - 1;
    for (;;) {
      const s = slots[i]!;
      if (s === 0) return i;
      if (ob === 32 || s >>> ob === tag >>> ob) {
        const o = (s & mask) >>> 0; // node + 1 = key offset
        let j = 0;
        while (j < nw && arena[o + j] === key[j]) j++;
        if (j === nw) return i;
      }
      if (++i === cap) i = 0;
    }
  }

  /** The slot value of a node whose key has hash h: its key offset, and h's low bits above it. */
  private slotValue(h: number, node: number): number {
    return ((this.offBits === 32 ? 0 : h << this.offBits) | (node + 1)) >>> 0;
  }

  /** Node of a slot in use. */
  private nodeOf(s: number): number {
    return this.offBits === 32 ? s - 1 : (s & ((1 << this.offBits) - 1)) - 1;
  }

  /** The node whose key is `key[0..nw)`, or -1 if none. */
  find(key: Uint32Array, nw: number): number {
    const s = this.slots[this.locate(key, nw)]!;
    return s === 0 ? -1 : this.nodeOf(s);
  }

  /**
   * Looks the key `key[0..nw)` up; if absent, stores it with `parent` and returns the new node;
   * if present returns -1.
   */
  insert(key: Uint32Array, nw: number, parent: number): number {
    const i = this.locate(key, nw);
    if (this.slots[i] !== 0) return -1;
    const node = this.used;
    let arena = this.arena;
    if (node + 1 + nw > arena.length) arena = this.growArena(nw + 1);
    arena[node] = parent;
    for (let j = 0; j < nw; j++) arena[node + 1 + j] = key[j]!;
    this.used = node + 1 + nw;
    this.slots[i] = this.slotValue(this.lastHash, node);
    this.size++;
    if (this.size > this.slots.length * MAX_LOAD) this.rehash();
    return node;
  }

  private growArena(need: number): Uint32Array {
    // grow by a quarter, but not much past what the expected number of positions will need
    let len = Math.max(this.arena.length * 1.25, this.used + need + 1024, Math.min(this.expected, EARLY_POSITIONS) * 8);
    if (this.size > 1000 && this.size < this.expected) len = Math.min(len, Math.max(this.used + need + 1024, (this.used / this.size) * this.expected * 1.01));
    const a = new Uint32Array(Math.ceil(len));
    a.set(this.arena.subarray(0, this.used));
    this.arena = a;
    const ob = bitsFor(a.length);
    if (ob > this.offBits) {
      // offsets need more bits: each slot keeps the low bits of its hash that still fit
      const slots = this.slots;
      const old = this.offBits;
      const mask = (1 << old) - 1;
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i]!;
        if (s !== 0) slots[i] = ob === 32 ? s & mask : (((s >>> old) << ob) | (s & mask)) >>> 0;
      }
      this.offBits = ob;
    }
    return a;
  }

  private rehash(): void {
    // from the first table to room for 2^16 positions, then straight to room for all expected (up
    // to 2^22, then fourfold: fewer rehashes, shorter probes than doubling); past `expected`, double
    const fit = Math.ceil(this.expected / MAX_LOAD) + 1;
    const need = Math.ceil(this.size / MAX_LOAD);
    const next = this.slots.length < EARLY_SLOTS ? EARLY_SLOTS : Math.max(this.slots.length * 4, PRESIZE_SLOTS);
    const cap = this.size >= this.expected ? need * 2 : Math.max(need + 2, Math.min(next, fit));
    const slots = new Uint32Array(cap);
    const arena = this.arena;
    for (let node = 0; node < this.used; ) {
      const nw = this.keyLength(arena, node + 1);
      const h = hashKey(arena, node + 1, nw);
      let i = slotOf(h, cap);
      while (slots[i] !== 0) if (++i === cap) i = 0;
      slots[i] = this.slotValue(h, node);
      node += 1 + nw;
    }
    this.slots = slots;
  }
}
