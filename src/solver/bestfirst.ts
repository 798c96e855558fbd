/**
 * Best-first search over exact, packed positions (complete: exhaustive when the queue runs dry).
 *
 * Every child of an expanded position is stored once in the transposition table (a position counts
 * once, when first stored) and queued by its evaluation (KeyCodec.encode); the lowest evaluation is
 * expanded next, most recently queued first among equals. Expanding a position rebuilds it from its
 * key, so the queue holds only node ids. No move is ever left out except by the two sound reductions
 * of SolverState.generate, and positions are merged only when equal (or, once the stock is empty,
 * equal up to interchangeable columns), so an empty queue with no win proves the deal lost (R19).
 * The search is deterministic: integer evaluation, fixed move order, fixed tie-breaks.
 */
import { type ColumnStore, KeyCodec, type EvalWeights } from './key.js';
import { DEAL_MOVE, moveTag, NO_REVERSE, reverseTag, SolverState } from './state.js';
import { PositionTable } from './table.js';
import { moveOrder, PRUNED } from './search.js';
import type { Position } from '../game/position.js';

const EMPTY_BUCKET = new Int32Array(0);
const EMPTY_TAGS = new Uint8Array(0);

/**
 * Bucketed priority queue of node ids by small integer priority; LIFO within a bucket. Each entry
 * carries an 8-bit tag (`pop` leaves the popped entry's tag in `tag`).
 */
class BucketQueue {
  private buckets: Int32Array[] = [];
  private tags: Uint8Array[] = [];
  private lens: number[] = [];
  private min = Infinity;
  count = 0;
  bytes = 0;
  /** Tag of the entry last popped. */
  tag = 0;

  push(p: number, id: number, tag: number): void {
    while (this.buckets.length <= p) {
      this.buckets.push(EMPTY_BUCKET);
      this.tags.push(EMPTY_TAGS);
      this.lens.push(0);
    }
    let b = this.buckets[p]!;
    let t = this.tags[p]!;
    const l = this.lens[p]!;
    if (l === b.length) {
      const len = Math.max(16, Math.ceil(b.length * 1.25));
      const nb = new Int32Array(len);
      nb.set(b);
      const nt = new Uint8Array(len);
      nt.set(t);
      this.bytes += (len - b.length) * 5;
      this.buckets[p] = b = nb;
      this.tags[p] = t = nt;
    }
    b[l] = id;
    t[l] = tag;
    this.lens[p] = l + 1;
    this.count++;
    if (p < this.min) this.min = p;
  }

  pop(): number {
    if (this.count === 0) return -1;
    let p = this.min;
    while (this.lens[p] === 0) p++;
    this.min = p;
    this.count--;
    const l = this.lens[p]! - 1;
    this.lens[p] = l;
    this.tag = this.tags[p]![l]!;
    return this.buckets[p]![l]!;
  }
}

/** Raw outcome of a best-first search, before the line is rebuilt and checked. */
export interface BestFirstOutcome {
  readonly status: 'won' | 'lost' | 'undecided';
  /** Positions stored. */
  readonly positions: number;
  /** Node ids from the root to the winning position (won only). */
  readonly path: number[];
  /** Did the queue run dry (every position reachable with the moves searched was examined)? */
  readonly exhausted: boolean;
  /** With `keep`: up to `keep` nodes from which the stock may be dealt, best evaluation first. */
  readonly candidates: number[];
  readonly table: PositionTable;
  readonly codec: KeyCodec;
  /** Peak bytes of the table and queue. */
  readonly peakBytes: number;
}

/** Options of a best-first search. */
export interface BestFirstOptions {
  /** Evaluation weights (default DEFAULT_WEIGHTS). */
  readonly weights?: EvalWeights;
  /** Added to the priority of a position first reached by a move the heuristic pass would prune. */
  readonly penalty?: number;
  /** Leave out the moves the heuristic pass prunes (then the search proves nothing). */
  readonly prune?: boolean;
  /** Do not deal: explore one phase of the game (positions with the same stock). */
  readonly noDeal?: boolean;
  /** Keep the best `keep` positions from which a deal is legal (R12) as `candidates`. */
  readonly keep?: number;
  /** Column store to use (shared by the searches of a solve: no column is stored twice); default a new one. */
  readonly store?: ColumnStore;
}

/**
 * Searches from `start` until a win, exhaustion or `maxPositions` stored positions. With no options
 * it is complete and sound: `lost` means every reachable position was examined.
 */
export function bestFirstSearch(start: Position, maxPositions: number, opts: BestFirstOptions = {}): BestFirstOutcome {
  const state = new SolverState(start);
  const codec = new KeyCodec(state, opts.weights, true, opts.store);
  const table = new PositionTable(maxPositions, (a, o) => codec.keyLength(a, o));
  const queue = new BucketQueue();
  const moves = new Int32Array(1024);
  const penalty = opts.penalty ?? 0;
  const prune = opts.prune ?? false;
  const noDeal = opts.noDeal ?? false;
  const keep = opts.keep ?? 0;
  const sound = !prune && !noDeal;
  // best `keep` deal-ready nodes, kept sorted by (score, node)
  const candNodes = new Int32Array(keep + 1);
  const candScores = new Int32Array(keep + 1);
  let ncand = 0;
  const offer = (node: number, score: number): void => {
    if (keep === 0 || state.stockLeft === 0 || (ncand === keep && candScores[ncand - 1]! <= score)) return;
    for (let c = 0; c < state.ncols; c++) if (state.upLen[c] === 0) return;
    let i = ncand;
    while (i > 0 && candScores[i - 1]! > score) {
      candNodes[i] = candNodes[i - 1]!;
      candScores[i] = candScores[i - 1]!;
      i--;
    }
    candNodes[i] = node;
    candScores[i] = score;
    if (ncand < keep) ncand++;
  };
  const done = (status: BestFirstOutcome['status'], goal: number): BestFirstOutcome => {
    const path = goal >= 0 ? table.pathTo(goal) : [];
    const st = status === 'lost' && !sound ? 'undecided' : status;
    return { status: st, positions: table.size, exhausted: status === 'lost', path, candidates: Array.from(candNodes.subarray(0, ncand)), table, codec, peakBytes: table.bytes + codec.bytes + queue.bytes };
  };

  const nw0 = codec.encode(state);
  table.insert(codec.buf, nw0, 0);
  if (state.isWon()) return done('won', 0);
  offer(0, codec.score);
  queue.push(codec.score, 0, NO_REVERSE);
  if (maxPositions <= 1) return done('undecided', -1);

  for (;;) {
    const node = queue.pop();
    if (node < 0) return done('lost', -1);
    // a position whose parent move took cards from one card onto another, turning nothing up and
    // removing no suit, is tagged with the move back (from | to << 4, columns as decoded): that move
    // leads to the parent, which is stored, so it is not tried
    const back = queue.tag;
    codec.decode(table.arena, table.keyOffset(node), state);
    const n = state.generate(moves, true);
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      if (noDeal && m === DEAL_MOVE) continue;
      if (back !== NO_REVERSE && moveTag(m) === back) continue;
      let extra = 0;
      if (penalty > 0 || prune) {
        if (moveOrder(state, m, true) === PRUNED) {
          if (prune) continue;
          extra = penalty;
        }
      }
      const tok = state.apply(m);
      const nw = codec.encode(state);
      const id = table.insert(codec.buf, nw, node);
      if (id >= 0) {
        if (state.isWon()) return done('won', id);
        offer(id, codec.score);
        if (table.size >= maxPositions) return done('undecided', -1);
        let tag = tok === 0 && m !== DEAL_MOVE ? reverseTag(state, m) : NO_REVERSE;
        if (tag !== NO_REVERSE) tag = codec.decodedTag(tag, state);
        queue.push(codec.score + extra, id, tag);
      }
      state.undo(m, tok);
    }
  }
}

/**
 * Rebuilds the winning line of a best-first search, in the project's notation: from the start, at each
 * step the move whose resulting key equals the next node's key. `table` and `codec` are the search's
 * (keys name columns by the codec's ids). Throws Error when no move does (a defect).
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
