/**
 * The transposition table: every position the search has stored, kept exactly (key words in one
 * growing Uint32Array arena, no JS object per position), found by open addressing on a hash. A new
 * position is never mistaken for a stored one, since keys are compared word for word — which is what
 * makes a "lost" result sound (SOLVER-NOTES.md: a hash-only table can prune a win).
 *
 * Each stored position is a node 0, 1, 2, … with its key's offset in the arena and its parent node,
 * from which the winning line is rebuilt.
 */

/** Growable exact table of keys. */
export class PositionTable {
  /** Key words of all nodes, back to back. */
  arena: Uint32Array;
  /** Words of the arena in use. */
  used = 0;
  /** Arena offset of each node's key. */
  offsets: Uint32Array;
  /** Parent node of each node (the root is its own parent). */
  parents: Uint32Array;
  /** Number of nodes stored. */
  size = 0;
  private slots: Uint32Array; // node + 1, 0 = empty
  private mask: number;

  constructor(initialNodes = 1 << 14) {
    const n = Math.max(64, initialNodes);
    let cap = 1;
    while (cap < n * 2) cap <<= 1;
    this.slots = new Uint32Array(cap);
    this.mask = cap - 1;
    this.offsets = new Uint32Array(n);
    this.parents = new Uint32Array(n);
    this.arena = new Uint32Array(n * 8);
  }

  /** Bytes held by the table's arrays (allocated, not just used). */
  get bytes(): number {
    return this.arena.byteLength + this.offsets.byteLength + this.parents.byteLength + this.slots.byteLength;
  }

  /**
   * Looks the key `key[0..nw)` up; if absent, stores it with `parent` and returns the new node's id;
   * if present returns -1.
   */
  insert(key: Uint32Array, nw: number, parent: number): number {
    let h = 0x9e3779b9 ^ nw;
    for (let i = 0; i < nw; i++) {
      h = Math.imul(h ^ key[i]!, 0x85ebca6b);
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
    h ^= h >>> 15;
    const slots = this.slots;
    const arena = this.arena;
    const offsets = this.offsets;
    let i = h & this.mask;
    for (;;) {
      const s = slots[i]!;
      if (s === 0) break;
      const off = offsets[s - 1]!;
      let j = 0;
      while (j < nw && arena[off + j] === key[j]) j++;
      if (j === nw) return -1;
      i = (i + 1) & this.mask;
    }
    const node = this.size;
    if (node >= this.offsets.length) this.growNodes();
    if (this.used + nw > this.arena.length) this.growArena(nw);
    this.arena.set(key.subarray(0, nw), this.used);
    this.offsets[node] = this.used;
    this.parents[node] = parent;
    this.used += nw;
    slots[i] = node + 1;
    this.size = node + 1;
    if (this.size * 4 > this.slots.length * 3) this.rehash();
    return node;
  }

  private growNodes(): void {
    const n = Math.ceil(this.offsets.length * 1.5);
    const o = new Uint32Array(n);
    o.set(this.offsets);
    this.offsets = o;
    const p = new Uint32Array(n);
    p.set(this.parents);
    this.parents = p;
  }

  private growArena(need: number): void {
    const a = new Uint32Array(Math.ceil(Math.max(this.arena.length * 1.5, this.used + need + 1024)));
    a.set(this.arena.subarray(0, this.used));
    this.arena = a;
  }

  private rehash(): void {
    const cap = this.slots.length * 2;
    const slots = new Uint32Array(cap);
    const mask = cap - 1;
    const arena = this.arena;
    for (let node = 0; node < this.size; node++) {
      const off = this.offsets[node]!;
      const nw = (node + 1 < this.size ? this.offsets[node + 1]! : this.used) - off;
      let h = 0x9e3779b9 ^ nw;
      for (let i = 0; i < nw; i++) {
        h = Math.imul(h ^ arena[off + i]!, 0x85ebca6b);
        h ^= h >>> 13;
      }
      h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
      h ^= h >>> 15;
      let i = h & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = node + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
