/**
 * The transposition table: every position the search has stored, kept exactly (key words in one
 * growing Uint32Array arena, no JS object per position), found by open addressing on a hash. A new
 * position is never mistaken for a stored one, since keys are compared word for word — which is what
 * makes a "lost" result sound (a table that compares hashes alone can prune a win; docs/solver.md, reductions).
 *
 * One table serves every stage of a solve, so a position counts once, when it is first stored, whichever
 * stage meets it. A stored position (a *node*) is named by its offset in the arena, where two header
 * words — the parent node (from which a winning line is rebuilt) and the *stamp* of the last search
 * iteration that visited it — are followed by the key's words. `visit` lets each iteration of a search
 * enter a position once: a node stored or visited by an earlier iteration is entered again at no cost
 * to the budget, with its parent rewritten. Memory per position: the key, two header words and the hash
 * slots (4 bytes a slot, at most 70% full). A slot holds the node's
 * key offset in its low bits (as many as the arena's length needs) and, in the bits left over, a few
 * bits of the key's hash: a probe reads a stored key only when they match, which spares most of the
 * cache misses of a large table, and costs no memory.
 */

import { isAllocationFailure, PROGRESS_EVERY, SolverMemoryError } from './types.js';

/** PositionTable.visit's answer for a new position that the table has no room for (its budget is spent). */
export const FULL = -2;

/** Header words before a node's key: the parent node, then the stamp. */
export const HEADER_WORDS = 2;

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
/** The table calls `onGrow` each time its size is a multiple of PROGRESS_MASK + 1 (types.ts PROGRESS_EVERY). */
const PROGRESS_MASK = PROGRESS_EVERY - 1;
/** Positions the first grown table has room for, and its slots. */
const EARLY_POSITIONS = 1 << 16;
const EARLY_SLOTS = Math.ceil(EARLY_POSITIONS / MAX_LOAD) + 1;

/** Maps a 32-bit hash onto 0..cap-1 by multiplication (Lemire's fast range reduction), any cap. */
function slotOf(h: number, cap: number): number {
  return Math.min(cap - 1, Math.floor(((h >>> 0) * cap) / 4294967296));
}

/**
 * Memory a released table leaves for the next one (module-level: one per worker thread). On the
 * machines measured, memory touched for the first time costs far more than copying into memory already
 * touched (page faults: some 7 ms a megabyte here), so a worker solving deal after deal reuses its
 * largest arena and slots. It changes no result, and `bytes` counts what the table would have
 * allocated, not the reused buffer's size.
 */
const spare: { arena: ArrayBuffer | null; slots: ArrayBuffer | null } = { arena: null, slots: null };

/** A zeroed Uint32Array of n words, in the spare slots buffer if it is large enough. */
function takeSlots(n: number): Uint32Array {
  const b = spare.slots;
  if (b !== null && b.byteLength >= n * 4) {
    spare.slots = null;
    return new Uint32Array(b, 0, n).fill(0);
  }
  return new Uint32Array(n);
}

/** Offers a slots array's buffer as the spare (the larger one is kept). */
function giveSlots(a: Uint32Array): void {
  const b = a.buffer as ArrayBuffer;
  if (spare.slots === null || spare.slots.byteLength < b.byteLength) spare.slots = b;
}

/** Growable exact table of keys. */
export class PositionTable {
  /** Header and key words of all nodes, back to back. */
  arena: Uint32Array;
  /** Words of the arena in use. */
  used = 0;
  /** Number of nodes stored. */
  size = 0;
  /** Per slot: 0 (empty), or the node's key offset (node + HEADER_WORDS) | hash bits << offBits. */
  private slots: Uint32Array;
  /** Bits of a slot that hold the key offset (enough for any offset into the arena), 16..32. */
  private offBits = 16;
  /** Stamps handed out so far (newStamp). */
  private stamps = 0;
  /** The buffer under the arena, which may be longer than the arena (a spare taken over). */
  private backing: ArrayBuffer | null;
  /** Hash of the key last located. */
  private lastHash = 0;
  private readonly keyLength: KeyLength;
  private readonly expected: number;
  /**
   * Called with the size each time it reaches a multiple of PROGRESS_MASK + 1 (solve.ts passes
   * SolveOptions.onProgress here); null for none.
   */
  onGrow: ((size: number) => void) | null = null;

  /**
   * `expected`: how many positions the caller may store (the budget). Room for up to 2^10 of them is
   * made at once, then slots for up to 2^16, then the slots double (each rehash reads every key again,
   * some 2 reads a key in all). The arena grows by a quarter. Neither grows much past `expected`, so
   * a solve that stores a small part of its budget holds little. `keyLength` lets the table rehash.
   */
  constructor(expected: number, keyLength: KeyLength) {
    const n = Math.max(64, Math.min(expected, 1 << 10));
    this.slots = takeSlots(Math.ceil(n / MAX_LOAD) + 1);
    this.backing = spare.arena;
    spare.arena = null;
    this.arena = this.arenaOf(Math.max(1024, Math.min(expected, 1 << 10) * 8));
    this.offBits = Math.max(16, bitsFor(this.arena.length));
    this.keyLength = keyLength;
    this.expected = expected;
  }

  /**
   * An arena of `len` words holding the current arena's words in use: a longer view of the backing
   * buffer when it has room (nothing to copy), else a new buffer, with the words copied.
   */
  private arenaOf(len: number): Uint32Array {
    const b = this.backing;
    if (b !== null && b.byteLength >= len * 4) return new Uint32Array(b, 0, len);
    const a = new Uint32Array(len);
    if (this.arena) a.set(this.arena.subarray(0, this.used));
    this.backing = a.buffer;
    return a;
  }

  /**
   * Leaves the table's arena and slots to the next table made in this thread (the spare), if they are
   * larger than the spare. The table must not be used after.
   */
  release(): void {
    if (this.backing !== null && (spare.arena === null || spare.arena.byteLength < this.backing.byteLength)) spare.arena = this.backing;
    this.backing = null;
    giveSlots(this.slots);
  }

  /** Bytes of the table's arrays as allocated for it (a reused spare counts as the size it is used at). */
  get bytes(): number {
    return this.arena.byteLength + this.slots.byteLength;
  }

  /** Parent node of a node (a root is its own parent). */
  parent(node: number): number {
    return this.arena[node]!;
  }

  /** Stamp of a node: the last search iteration that visited it (0: none). */
  stamp(node: number): number {
    return this.arena[node + 1]!;
  }

  /** A stamp no iteration of a search on this table has used yet (1, 2, …). */
  newStamp(): number {
    return ++this.stamps;
  }

  /** Makes `node` a root visited by iteration `stamp` (its own parent). */
  setRoot(node: number, stamp: number): void {
    this.arena[node] = node;
    this.arena[node + 1] = stamp;
  }

  /** The nodes from the root down to `node`, following the parents. */
  pathTo(node: number): number[] {
    const path: number[] = [];
    for (let n = node; ; n = this.parent(n)) {
      path.push(n);
      if (this.parent(n) === n) break;
    }
    return path.reverse();
  }

  /** Arena offset of a node's key. */
  keyOffset(node: number): number {
    return node + HEADER_WORDS;
  }

  /**
   * The slot that holds the key `key[0..nw)`, or the empty slot where it would go; leaves the key's
   * hash in `lastHash`.
   */
  private locate(key: Uint32Array, nw: number, ko = 0): number {
    const slots = this.slots;
    const cap = slots.length;
    const arena = this.arena;
    const h = hashKey(key, ko, nw);
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
        const o = (s & mask) >>> 0; // node + HEADER_WORDS = key offset
        let j = 0;
        while (j < nw && arena[o + j] === key[ko + j]) j++;
        if (j === nw) return i;
      }
      if (++i === cap) i = 0;
    }
  }

  /** The slot value of a node whose key has hash h: its key offset, and h's low bits above it. */
  private slotValue(h: number, node: number): number {
    return ((this.offBits === 32 ? 0 : h << this.offBits) | (node + HEADER_WORDS)) >>> 0;
  }

  /** Node of a slot in use. */
  private nodeOf(s: number): number {
    return this.offBits === 32 ? s - HEADER_WORDS : (s & ((1 << this.offBits) - 1)) - HEADER_WORDS;
  }

  /** The node whose key is `key[0..nw)`, or -1 if none. */
  find(key: Uint32Array, nw: number): number {
    const s = this.slots[this.locate(key, nw)]!;
    return s === 0 ? -1 : this.nodeOf(s);
  }

  /**
   * Looks the key `key[0..nw)` up; if absent, stores it with `parent` (and `stamp`) and returns the
   * new node; if present returns -1.
   */
  insert(key: Uint32Array, nw: number, parent: number, stamp = 0): number {
    const i = this.locate(key, nw);
    if (this.slots[i] !== 0) return -1;
    return this.store(i, key, nw, parent, stamp);
  }

  /**
   * Visits the key `key[ko..ko+nw)` for search iteration `stamp` (>= 1) coming from `parent`: stores it if
   * absent (the table grows by one position), or enters it again if an earlier iteration (another
   * stamp) stored or visited it, which costs nothing; either way its parent becomes `parent`, its stamp
   * `stamp`, and the node is returned. Returns -1 if this iteration has visited it already, and FULL
   * (nothing stored) if it is absent and the table holds `room` positions already (the budget: a
   * search stops when it needs one position more than its budget, not when it has stored the last
   * one it may, so a budget equal to a deal's reachable positions can still prove it lost, R19).
   */
  visit(key: Uint32Array, nw: number, parent: number, stamp: number, ko = 0, room = Infinity): number {
    const i = this.locate(key, nw, ko);
    const s = this.slots[i]!;
    if (s === 0) return this.size >= room ? FULL : this.store(i, key, nw, parent, stamp, ko);
    const node = this.nodeOf(s);
    const arena = this.arena;
    if (arena[node + 1] === stamp) return -1;
    arena[node] = parent;
    arena[node + 1] = stamp;
    return node;
  }

  /** Stores a new node in the free slot i. */
  private store(i: number, key: Uint32Array, nw: number, parent: number, stamp: number, ko = 0): number {
    const node = this.used;
    let arena = this.arena;
    if (node + HEADER_WORDS + nw > arena.length) arena = this.growArena(nw + HEADER_WORDS);
    arena[node] = parent;
    arena[node + 1] = stamp;
    const k0 = node + HEADER_WORDS;
    for (let j = 0; j < nw; j++) arena[k0 + j] = key[ko + j]!;
    this.used = k0 + nw;
    this.slots[i] = this.slotValue(this.lastHash, node);
    this.size++;
    if (this.size > this.slots.length * MAX_LOAD) this.rehash();
    if ((this.size & PROGRESS_MASK) === 0 && this.onGrow !== null) this.onGrow(this.size);
    return node;
  }

  private growArena(need: number): Uint32Array {
    // grow by a quarter, but not much past what the expected number of positions will need
    let len = Math.max(this.arena.length * 1.25, this.used + need + 1024, Math.min(this.expected, EARLY_POSITIONS) * 8);
    if (this.size > 1000 && this.size < this.expected) len = Math.min(len, Math.max(this.used + need + 1024, (this.used / this.size) * this.expected * 1.01));
    const a = this.arenaOf(Math.ceil(len));
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
    // from the first table to room for 2^16 positions, then doubling, never past room for all
    // expected until they are stored (a solve stores what its search keeps, often a small part of
    // its budget: slots made for the whole budget at once would cost more than the positions)
    const fit = Math.ceil(this.expected / MAX_LOAD) + 1;
    const need = Math.ceil(this.size / MAX_LOAD);
    const next = this.slots.length < EARLY_SLOTS ? EARLY_SLOTS : this.slots.length * 2;
    const cap = this.size >= this.expected ? need * 2 : Math.max(need + 2, Math.min(next, fit));
    const slots = takeSlots(cap);
    const arena = this.arena;
    for (let node = 0; node < this.used; ) {
      const nw = this.keyLength(arena, node + HEADER_WORDS);
      const h = hashKey(arena, node + HEADER_WORDS, nw);
      let i = slotOf(h, cap);
      while (slots[i] !== 0) if (++i === cap) i = 0;
      slots[i] = this.slotValue(h, node);
      node += HEADER_WORDS + nw;
    }
    giveSlots(this.slots);
    this.slots = slots;
  }
}

/**
 * What a search that threw `e` over `table` throws on: when `e` is an allocation failure
 * (types.ts isAllocationFailure), the table is released and a SolverMemoryError with its size and
 * bytes (plus `otherBytes`: the column store's) is returned; any other error is returned as it is.
 */
export function memoryFault(e: unknown, table: PositionTable, otherBytes: number): unknown {
  if (!isAllocationFailure(e)) return e;
  const fault = new SolverMemoryError(table.size, table.bytes + otherBytes);
  table.onGrow = null;
  table.release();
  return fault;
}
