/**
 * Iterative-widening beam search over the solve's one transposition table: heuristic while its beam
 * drops positions, complete once an iteration drops none.
 *
 * An iteration searches level by level from the start with a beam of `width` positions. Every child
 * of every position in the level is built (every legal move but for the sound reductions of
 * SolverState.generate — and, while iterations drop children anyway, the moves search.ts's pruning
 * leaves out, and the children that end a line of more than `idle` moves in a row without progress),
 * and scored (KeyCodec.encode, lower is better). The `width` best of those this iteration has not
 * visited yet are kept for the next level (a child is looked up in the table only when the selection
 * reaches it, so the many children that are not kept cost no lookup; a level with many children for
 * each place is keyed lazily, see LAZY_RATIO): first up
 * to a share of the width for each number of stock deals left, so that positions which have just
 * dealt (whose fresh cards score badly) are not crowded out by those that have not; then up to a
 * smaller share for each number of face-down cards left, so that positions which turned up more cards
 * are not crowded out by tidier ones; then up to a share of the width for each hidden set (the cards
 * still face down, see hiddenSet), so that many arrangements of the same few sets do not fill the
 * beam; then up to `perParent` children of each parent, so that one position's many shuffles do not
 * fill the beam; then the best of the rest. A kept child is visited
 * in the table (PositionTable.visit): stored, and counted, if new; entered again free if an earlier
 * iteration or the quick stage stored it. A child that is left out is not stored.
 * When an iteration fails, the next one searches again from the start with a wider beam, through
 * positions that are mostly stored already.
 *
 * An iteration that dropped no child and pruned no move (a line cut by the idle limit counts as
 * pruned) expanded every position it visited, and so every position reachable from the start: if it
 * found no win, the deal is **lost** (R19). One that dropped none but pruned some is followed by one
 * that prunes nothing and has no idle limit, or (BeamOptions.handOff, as `solve` runs it) ends the
 * beam search, for a complete search that expands each position once instead of once an iteration.
 * With handOff, a failed iteration that kept more positions than the budget has left ends it too
 * (BEAM_SHORT_HAND_OFF).
 * The search is deterministic: integer evaluation, fixed move order, stable ordering of equal scores.
 */
import type { Position } from '../game/position.js';
import { type ColumnStore, DEFAULT_WEIGHTS, type EvalWeights, KeyCodec } from './key.js';
import { moveOrder, PRUNE_BEAM, PRUNED } from './search.js';
import { DEAL_MOVE, moveTag, NO_REVERSE, reverseTag, SolverState } from './state.js';
import { FULL, type PositionTable } from './table.js';

/** Settings of the beam search (the defaults are what `solve` uses). */
export interface BeamOptions {
  /** Evaluation weights (default BEAM_WEIGHTS). */
  readonly weights?: EvalWeights;
  /** Width of the first iteration (default BEAM_FIRST_WIDTH). */
  readonly firstWidth?: number;
  /** Factor by which the width grows from one iteration to the next (default BEAM_GROWTH). */
  readonly growth?: number;
  /** Share of the width reserved for each number of stock deals left (default BEAM_DEAL_SHARE). */
  readonly dealShare?: number;
  /**
   * Share of the width reserved for each number of face-down cards left, after the deals' share
   * (default BEAM_DOWN_SHARE).
   */
  readonly downShare?: number;
  /** Leave out the moves search.ts's pruning leaves out, until an iteration drops no child (default true). */
  readonly prune?: boolean;
  /**
   * Most consecutive moves without progress (no card turned face-up, no suit completed, no deal) on a
   * line, while pruning (default BEAM_IDLE; 0 for no limit). Children beyond it are left out, as pruned.
   */
  readonly idle?: number;
  /**
   * Leave dead ends unexpanded (SolverState.deadEnd; default true). False, for measurement only,
   * expands them as any position (the solver before its version 3.9.0).
   */
  readonly deadEnds?: boolean;
  /**
   * Share of the width for each hidden set (see hiddenSet: which cards are still face down, with the
   * stock deals left and the suits removed), kept after the reserves for deals and face-down counts and
   * before the per-parent cap (default BEAM_HIDDEN_SHARE; 0: none). At least one place a set.
   */
  readonly hiddenShare?: number;
  /** Most children of one parent kept before the beam is filled with the best of the rest (default BEAM_PER_PARENT; 0: no cap). */
  readonly perParent?: number;
  /**
   * Candidates a place in the beam beyond which a level is keyed lazily (default LAZY_RATIO; 0:
   * every level but the first, Infinity: none). Changes the time a search takes, never its answer,
   * count or line.
   */
  readonly lazyRatio?: number;
  /**
   * Stop, answering `exhausted`, at the first iteration that dropped no child but pruned some: the
   * pruned search has then seen all it can reach, and the caller goes on with a complete search of
   * its own over the same table (solve: complete.ts); and (shortHandOff) after a failed iteration
   * that kept more positions than the budget has left. Default false: the beam goes on with
   * iterations that prune nothing, as wide as they need to drop nothing, and widens until the budget
   * is spent.
   */
  readonly handOff?: boolean;
  /**
   * With handOff: after a failed iteration, answer `exhausted` (the caller's complete search takes
   * the rest of the budget) when the budget left is less than this many times the positions the
   * iteration kept, all levels together (default BEAM_SHORT_HAND_OFF; 0: never).
   */
  readonly shortHandOff?: number;
}

/**
 * Evaluation of the beam search: the solver's default weights. Against the earlier weights
 * (down 6, rankBreak 3, suitBreak 2, stockCard 2, removed 20, empty 0, buried 5), on deals outside the
 * benchmark sets, at 1,000,000 positions: PySolFC Spiderette 1101–1300 181 won (earlier weights: 180) in 0.85 of
 * the positions, 1301–1500 169 (168) in 0.85; PySolFC Spider 4 suits 1101–1200 99 (98) in 0.77,
 * 1201–1300 100 (100) in 0.67; four-suit Spiderette seeds 3001–3100 90 (89); the same won and lost on
 * seeds 3001–3100 of SP1, SE1, SE2 and of SP2 at 167,000. Alternating two sets of weights between
 * iterations did no better.
 */
export const BEAM_WEIGHTS: EvalWeights = DEFAULT_WEIGHTS;
/** Width of the first iteration. */
export const BEAM_FIRST_WIDTH = 16;
/**
 * Growth of the width between iterations. Growth 3 and 4 (fewer re-expansions) won fewer four-suit
 * deals on PySolFC games 1031–1060 and seeds 2031–2070, or the same in as much time.
 */
export const BEAM_GROWTH = 2;
/**
 * Share of the width reserved for each number of stock deals left (0.05 and 0.25 won fewer on
 * PySolFC games 1013–1030; no reserve won fewer still in an earlier form of the search).
 */
export const BEAM_DEAL_SHARE = 0.125;
/**
 * Share of the width reserved for each number of face-down cards left, after the
 * share for each number of deals left: the best positions of each count are kept even when positions
 * that turned up fewer cards but hold them in better order outscore them. Chosen on deals outside the
 * benchmark sets, at 1,000,000 positions, against none: PySolFC Spiderette 1101–1300 186 won (184),
 * 1301–1500 178 (176), 1501–1700 184 (182), 3001–3100 94 (93), four-suit Spiderette seeds
 * 3001–3100 92 (91), two-suit seeds 3101–3300 195 (195), in 0.8–0.97 of the time (separate runs, so
 * rough); PySolFC Spider 1101–1200 99 (99) and 1201–1300 100 (100) in 0.62 of the time,
 * four-suit Spider seeds 3001–3100 99 (99) in 1.13. 0.05 and 0.1 won 3 and 1 fewer than 0.02 on
 * Spiderette 1101–1500.
 */
export const BEAM_DOWN_SHARE = 0.02;
/**
 * Most consecutive moves without progress on a line while pruning (see BeamOptions.idle). Without a
 * limit, a wide iteration could spend the rest of the budget shuffling runs back and forth for
 * thousands of levels (PySolFC Spider game 1115: one iteration, some 3,600 levels, 920,000
 * positions). 30 won the most of the 21 four-suit PySolFC games in 1101–1400 that a search without
 * the limit left undecided (12: 15, 20: 17, 30 and 45: 18 of 21, without a per-parent cap), outside the benchmark sets;
 * a limit growing by 2 or 4 an iteration did no better than a fixed one. At most 60,000 (the count is
 * kept in 16 bits).
 */
export const BEAM_IDLE = 30;
/**
 * Share of the width kept for each hidden set: after the reserves for deals left and
 * face-down counts, the best positions of each set of cards still face down (with the same stock deals
 * left and suits removed, see hiddenSet) are kept, up to this share of the width each (at least one
 * place a set), before the per-parent cap and the best of the rest. Positions of one hidden set differ
 * only in how their face-up cards lie: without a cap the beam fills with arrangements of the few sets
 * that score best, and it takes a wider beam to carry a set that scores worse now but turns more cards
 * later. Chosen on deals outside the benchmark sets, at 1,000,000 positions, against none:
 * PySolFC Spiderette 1101–1300 186 won (186), 1301–1500 177 (178), 1501–1700 187 (184), 1701–1900
 * 184 (183), the same lost; four-suit Spiderette seeds 3001–3100 93 (92); PySolFC Spider 4 suits
 * 1101–1200 100 (99), four-suit Spider seeds 3001–3060 60 (59); and in one process solving each deal
 * with both, two-suit Spiderette seeds 3001–3150 the same answers in 0.86 of the total time (median
 * 1.01), two-suit Spider seeds 3001–3200 at 167,000 all won in 0.76 (median 0.94), one-suit
 * Spiderette seeds 3001–3200 the same answers in about the same time (which of the two ran first
 * moved that ratio by as much as the change did). In a first form (sets hashed into 4,096
 * groups), 0.02 won 187, 176, 185 and 185 of the four PySolFC Spiderette sets, and 0.05 185 of
 * 1101–1300 and 183 of 1501–1700.
 */
export const BEAM_HIDDEN_SHARE = 0.01;
/**
 * Children of one parent kept before the beam is filled with the best of the rest. With the idle
 * limit of 30, a cap of 4 won 20 of those 21 games (2, 3 and 6: 19; none: 18) in half the time, and
 * no fewer than the search without the idle limit and the cap on PySolFC games 1001–1060 (Spider)
 * and 1101–1160 (Spiderette) and seeds 2001–2040 of four-suit Spider and Spiderette, in less time.
 */
export const BEAM_PER_PARENT = 4;
/**
 * When the budget left is short of a next iteration: with BeamOptions.handOff, a failed
 * iteration that kept more positions, all levels together, than this many times the budget left ends
 * the beam search, and the complete search spends what is left. The next iteration, twice as wide,
 * would store about as many new positions as this one kept, so it could not finish; and it costs
 * more than the complete search does for the same new positions, since it expands again every
 * position the iterations before it kept (on two-suit Spiderette seed 18, of the SE2 benchmark set,
 * whose 9th iteration kept 450,232 positions, the complete search stored the 444,564 left in
 * 0.43–0.59 s, where the 9th iteration had taken about 1.2 s; the whole solve took 0.56× the time,
 * each the best of two). So an undecided deal costs less, and the complete search may prove a loss
 * the beam could not.
 *
 * The price: the next iteration, cut short by the budget, may still reach a win before it runs out,
 * and that win is given up. Solving deals at many budgets: on about 5 of 85 Spiderette deals won by
 * the beam search there is a range of budgets, from the win's count up to 2–34% above it, where the
 * hand-over answers undecided and the search without it wins (two-suit seed 5069, in its test: won in
 * 31,542 positions without the hand-over at any budget from 31,542, with it from 32,880). At a given
 * budget few deals fall in such a range: against the search without it, one process solving each deal with both, on deals outside
 * the benchmark sets, at 1,000,000 positions every deal gave the same answer and count in two-suit
 * Spiderette seeds 3001–3700, four-suit 3001–3100, PySolFC Spiderette 1101–1400 and one-suit
 * Spiderette 3001–3300 (and every deal of the nine benchmark sets); at 100,000, one of 800 deals
 * changed (four-suit seed 3060, won at 98,064 without it; the others of four-suit 3001–3200,
 * two-suit 3001–3400 and PySolFC Spiderette 1101–1300 the same). The total time, where a deal was
 * left undecided in the beam: 0.84× (four-suit 3001–3100), 0.88–0.89× (PySolFC 1101–1400), 0.91×
 * (two-suit 3101–3700) at 1,000,000; 0.91× and 0.92× at 100,000. In Spider, four-suit seeds
 * 3001–3060, PySolFC 1101–1200 and two-suit seeds 3001–3200 at 167,000 were all won in the same
 * counts, even with a factor of 2. In Spiderette a factor of 2 gave up two wins at 1,000,000 (two-suit
 * seed 3459, won at 552,893 positions, and PySolFC game 1234, won at 860,986).
 */
export const BEAM_SHORT_HAND_OFF = 1;

/** Outcome of a beam search, before the line is rebuilt. */
export interface BeamOutcome {
  /**
   * `exhausted` (with BeamOptions.handOff only): an iteration that pruned moves dropped no child, or
   * one that failed kept more positions than the budget has left (BEAM_SHORT_HAND_OFF).
   */
  readonly status: 'won' | 'lost' | 'undecided' | 'exhausted';
  /** The won position's node (won only), whose parents lead back to the start. */
  readonly goal: number;
  /** Iterations run (the last one included). */
  readonly iterations: number;
  /** Width of the last iteration. */
  readonly width: number;
  /** The codec whose column ids the table's keys use (to rebuild the line). */
  readonly codec: KeyCodec;
  /** Peak bytes the search's own arrays used (a level's candidates and their keys, the beam), not the table's. */
  readonly peakBytes: number;
  /**
   * Why it answered `exhausted` (null otherwise): 'ran dry' (an iteration that pruned moves dropped no
   * child: the pruned search has seen all it can reach) or 'budget short' (a failed iteration kept more
   * positions than the budget has left, BEAM_SHORT_HAND_OFF).
   */
  readonly handedOver: 'ran dry' | 'budget short' | null;
  /**
   * The best position this search kept before its first deal: of the positions it kept with as many
   * stock deals left as the start, the one with the lowest score (KeyCodec.encode; the first met of
   * equal scores), or the start if none scored lower. Its node (whose parents lead back to the start),
   * its score, and the start's score.
   */
  readonly best: { readonly node: number; readonly value: number; readonly start: number };
}

/**
 * Growable parallel arrays of one level's candidates — score, the move from the parent, move-back tag,
 * stock deals left, face-down cards left, idle count, parent (its index in the level), and the offset
 * of the key in `keys` (keys are copied there: a candidate is stored in the table only if it is kept).
 * A level keyed lazily (see LAZY_RATIO) leaves keys and tags out: a candidate's key is built, by
 * playing its move again from its parent, only when the selection reaches it.
 */
class Candidates {
  score = new Int32Array(1024);
  move = new Int32Array(1024);
  tag = new Uint8Array(1024);
  deals = new Uint8Array(1024);
  down = new Uint8Array(1024);
  idle = new Uint16Array(1024);
  par = new Int32Array(1024);
  keyOff = new Int32Array(1024);
  /** Hidden set (hiddenSet), then, once the level is found, its group: a dense index per level. */
  hidden = new Int32Array(1024);
  keys = new Uint32Array(8192);
  keysUsed = 0;
  n = 0;

  push(score: number, move: number, tag: number, deals: number, idle: number, par: number, key: Uint32Array, nw: number, down: number, hidden: number): void {
    if (nw > 0 && this.keysUsed + nw > this.keys.length) {
      const k = new Uint32Array(Math.max(this.keys.length * 2, this.keysUsed + nw));
      k.set(this.keys);
      this.keys = k;
    }
    const ko = this.keysUsed;
    for (let j = 0; j < nw; j++) this.keys[ko + j] = key[j]!;
    this.keysUsed = ko + nw;
    if (this.n === this.score.length) {
      const len = this.n * 2;
      const g32 = (a: Int32Array) => {
        const b = new Int32Array(len);
        b.set(a);
        return b;
      };
      const g8 = (a: Uint8Array) => {
        const b = new Uint8Array(len);
        b.set(a);
        return b;
      };
      const g16 = (a: Uint16Array) => {
        const b = new Uint16Array(len);
        b.set(a);
        return b;
      };
      this.keyOff = g32(this.keyOff);
      this.hidden = g32(this.hidden);
      this.move = g32(this.move);
      this.par = g32(this.par);
      this.score = g32(this.score);
      this.tag = g8(this.tag);
      this.deals = g8(this.deals);
      this.down = g8(this.down);
      this.idle = g16(this.idle);
    }
    const i = this.n++;
    this.score[i] = score;
    this.move[i] = move;
    this.tag[i] = tag;
    this.deals[i] = deals;
    this.down[i] = down;
    this.idle[i] = idle;
    this.par[i] = par;
    this.keyOff[i] = ko;
    this.hidden[i] = hidden;
  }
}

/**
 * The search's arrays (candidates, level, selection), kept from one search to the next in a thread:
 * memory touched for the first time costs far more than memory reused (page faults), and a worker
 * solves deal after deal. They only grow; what a search reports is the bytes it used.
 */
interface Scratch {
  cand: Candidates;
  levelNode: Int32Array;
  levelTag: Uint8Array;
  levelIdle: Uint16Array;
  order: Int32Array;
  taken: Uint8Array;
  hist: Int32Array;
  groupSlots: Int32Array<ArrayBuffer>;
  groupKeys: Int32Array<ArrayBuffer>;
  groupCount: Int32Array;
}
let spareScratch: Scratch | null = null;
function newScratch(): Scratch {
  return { cand: new Candidates(), levelNode: new Int32Array(64), levelTag: new Uint8Array(64), levelIdle: new Uint16Array(64), order: new Int32Array(1024), taken: new Uint8Array(1024), hist: new Int32Array(256), groupSlots: new Int32Array(0), groupKeys: new Int32Array(0), groupCount: new Int32Array(64) };
}

/**
 * A level is keyed lazily when the level before it found more than LAZY_RATIO candidates for each
 * place in the beam: most of its candidates will then be left out, and scoring them alone (a card
 * move's child from its parent's column counts and those of the two columns the move changed,
 * KeyCodec.scoreCounts; a deal's child by KeyCodec.evaluate) costs less than keying them all; a
 * level that keeps most of its candidates keys them as it finds them, which saves playing the kept ones' moves again. Measured against keying
 * every candidate, the same answers and counts, both load orders of one
 * process averaged, on deals outside the benchmark sets: four-suit PySolFC Spider 1101–1120 at
 * 1,000,000 positions 0.87 of the time, two-suit Spider seeds 3001–3200 at 167,000 0.91, PySolFC
 * Spiderette 1101–1130 0.96, two-suit Spiderette seeds 3061–3180 1.00 (ratio 2: 0.89 on those Spider
 * seeds but 1.24 on these, whose levels keep most of their candidates; 8: 0.91 and 1.05).
 */
export const LAZY_RATIO = 4;

/**
 * A 32-bit hash of a position's hidden set: the face-down count of each column (face-down cards never
 * move, R11, so the counts name the cards still hidden), the stock deals left and the suits removed.
 * Two positions with the same hidden set differ only in their face-up cards. (Columns with face-down
 * cards keep their places in a key, KeyCodec, so the counts are the position's, in any column order.)
 * Two sets whose hashes collide share a group in the beam's choice, which only coarsens its cap: the
 * choice is heuristic, and deterministic either way.
 */
export function hiddenSet(s: SolverState): number {
  let h = Math.imul(s.removed + 1, 0x9e3779b1) ^ s.stockLeft;
  for (let c = 0; c < s.ncols; c++) {
    h = Math.imul(h ^ s.down[c]!, 0x85ebca6b);
    h ^= h >>> 13;
  }
  return h;
}

/**
 * Replaces the hidden sets of candidates 0..n-1 (Candidates.hidden) by dense group indexes (0, 1, …,
 * in order of first appearance). `slots` and `keys` are the hash table's scratch: returned, grown if
 * they were too small, with the number of groups and the table's size in use (`cap` slots).
 */
function groupHidden(c: Candidates, n: number, slots: Int32Array<ArrayBuffer>, keys: Int32Array<ArrayBuffer>): { slots: Int32Array<ArrayBuffer>; keys: Int32Array<ArrayBuffer>; groups: number; cap: number } {
  // a table of the least power of two over 2n, at the front of the scratch (only it is cleared)
  const cap = 1 << Math.ceil(Math.log2(2 * n + 1));
  if (slots.length < cap) {
    slots = new Int32Array(cap);
    keys = new Int32Array(cap);
  }
  const mask = cap - 1;
  slots.fill(0, 0, cap);
  let groups = 0;
  const h = c.hidden;
  for (let i = 0; i < n; i++) {
    const v = h[i]!;
    let j = (Math.imul(v, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const g = slots[j]!;
      if (g === 0) {
        slots[j] = ++groups;
        keys[j] = v;
        h[i] = groups - 1;
        break;
      }
      if (keys[j] === v) {
        h[i] = g - 1;
        break;
      }
      j = (j + 1) & mask;
    }
  }
  return { slots, keys, groups, cap };
}

/** Length in words of candidate i's key (keyed levels only). */
function keyLen(c: Candidates, i: number): number {
  return (i + 1 < c.n ? c.keyOff[i + 1]! : c.keysUsed) - c.keyOff[i]!;
}

/**
 * Runs iterations of widening beam search from `start` until a win, an iteration that dropped
 * nothing (lost), or a new position to store when `table` holds `maxPositions` already (undecided). The table may hold
 * positions stored earlier in the solve; keys name columns by `store`'s ids.
 */
export function beamSearch(start: Position, maxPositions: number, table: PositionTable, store: ColumnStore, opts: BeamOptions = {}): BeamOutcome {
  const state = new SolverState(start);
  const codec = new KeyCodec(state, opts.weights ?? BEAM_WEIGHTS, true, store);
  const growth = opts.growth ?? BEAM_GROWTH;
  const dealShare = opts.dealShare ?? BEAM_DEAL_SHARE;
  const downShare = opts.downShare ?? BEAM_DOWN_SHARE;
  let width = Math.max(1, Math.floor(opts.firstWidth ?? BEAM_FIRST_WIDTH));
  const moves = new Int32Array(1024);
  // the evaluation's counts of each column of the position being expanded (lazy levels)
  const colCounts = new Float64Array(state.ncols);
  // the arrays of the last search in this thread, already in memory, or new ones (see Scratch)
  const scratch = spareScratch ?? newScratch();
  spareScratch = null;
  const cand = scratch.cand;
  // the level being expanded: nodes and their move-back tags
  let levelNode = scratch.levelNode;
  let levelTag = scratch.levelTag;
  let levelIdle = scratch.levelIdle;
  let levelLen = 0;
  // selection scratch: candidates in order of score, which are taken, counts per score and per deals left
  let order = scratch.order;
  let taken = scratch.taken;
  let hist = scratch.hist;
  const perDeals = new Int32Array(state.totalDeals + 1);
  // (a position holds at most 104 cards, so fewer face down)
  const perDown = new Int32Array(256);
  let peak = 0;
  let iterations = 0;
  let prune = opts.prune ?? true;
  const idle = Math.min(60_000, opts.idle ?? BEAM_IDLE);
  const deadEnds = opts.deadEnds ?? true;
  const perParent = opts.perParent ?? BEAM_PER_PARENT;
  const hiddenShare = opts.hiddenShare ?? BEAM_HIDDEN_SHARE;
  const shortHandOff = opts.shortHandOff ?? BEAM_SHORT_HAND_OFF;
  // hidden-set grouping: its hash table (slots, keys) and the count kept of each group
  let groupSlots = scratch.groupSlots;
  let groupKeys = scratch.groupKeys;
  let groupCount = scratch.groupCount;
  // the hash table's words this search used (its scratch may be larger, from an earlier search)
  let groupWords = 0;
  let parCount = new Int32Array(64);
  // candidates found by the level before (for LAZY_RATIO)
  let lastFound = 0;
  const lazyRatio = opts.lazyRatio ?? LAZY_RATIO;

  // the best kept position before the first deal (BeamOutcome.best), the start until one scores lower
  const startDeals = state.stockLeft;
  let bestNode = -1;
  let bestValue = 0;
  let startValue = 0;
  const out = (status: BeamOutcome['status'], goal: number, handedOver: BeamOutcome['handedOver'] = null): BeamOutcome => {
    spareScratch = { cand, levelNode, levelTag, levelIdle, order, taken, hist, groupSlots, groupKeys, groupCount };
    return { status, goal, iterations, width, codec, peakBytes: peak, handedOver, best: { node: bestNode, value: bestValue, start: startValue } };
  };
  const nw0 = codec.encode(state);
  let root = table.find(codec.buf, nw0);
  if (root < 0) {
    if (table.size >= maxPositions) return out('undecided', -1);
    root = table.insert(codec.buf, nw0, 0);
  }
  table.setRoot(root, 0);
  // the start measured as its children are, from its key (a position whose cards are not all there,
  // such as a stock taken away, is decoded with the missing cards counted as removed)
  codec.decode(table.arena, table.keyOffset(root), state);
  codec.encode(state);
  startValue = bestValue = codec.score;
  bestNode = root;
  if (state.isWon()) return out('won', root);

  for (;;) {
    iterations++;
    const stamp = table.newStamp();
    table.setRoot(root, stamp);
    levelNode[0] = root;
    levelTag[0] = NO_REVERSE;
    levelIdle[0] = 0;
    levelLen = 1;
    const idleMax = prune && idle > 0 ? idle : 0x7fffffff;
    let dropped = false;
    let pruned = false;
    // positions this iteration kept, all levels together
    let keptAll = 0;
    while (levelLen > 0) {
      cand.n = 0;
      cand.keysUsed = 0;
      const lazy = lastFound > lazyRatio * width;
      for (let e = 0; e < levelLen; e++) {
        const node = levelNode[e]!;
        // the move back to the parent (columns as decoded) leads to a position this iteration visited
        const back = levelTag[e]!;
        const idleNext = levelIdle[e]! + 1;
        codec.decode(table.arena, table.keyOffset(node), state);
        // a dead end (SolverState.deadEnd) leads to no win: it is not expanded
        if (deadEnds && state.deadEnd()) continue;
        // a lazy level scores a card move's child from the parent's counts and those of the two
        // columns it changed; a move that turns no card up, completes no suit and deals no card
        // leaves the hidden set as it was
        let parentCounts = 0;
        if (lazy) {
          for (let c = 0; c < state.ncols; c++) {
            colCounts[c] = codec.columnCounts(state, c);
            parentCounts += colCounts[c]!;
          }
        }
        const parentHidden = hiddenShare > 0 ? hiddenSet(state) : 0;
        const n = state.generate(moves, true);
        for (let i = 0; i < n; i++) {
          const m = moves[i]!;
          if (back !== NO_REVERSE && moveTag(m) === back) continue;
          if (prune && m !== DEAL_MOVE && moveOrder(state, m, PRUNE_BEAM) === PRUNED) {
            pruned = true;
            continue;
          }
          const tok = state.apply(m);
          const childIdle = tok !== 0 || m === DEAL_MOVE ? 0 : idleNext;
          if (childIdle > idleMax) {
            state.undo(m, tok);
            pruned = true;
            continue;
          }
          if (state.isWon()) {
            const id = table.visit(codec.buf, codec.encode(state), node, stamp, 0, maxPositions);
            return id === FULL ? out('undecided', -1) : out('won', id);
          }
          // (a child this iteration visited already is not looked up here but when it is selected:
          // keep leaves it out, so it takes no room in the beam)
          const hidden = hiddenShare > 0 ? (tok === 0 && m !== DEAL_MOVE ? parentHidden : hiddenSet(state)) : 0;
          if (lazy) {
            if (m === DEAL_MOVE) codec.evaluate(state);
            else {
              const from = m & 31;
              const to = (m >> 5) & 31;
              codec.scoreCounts(state, parentCounts - colCounts[from]! - colCounts[to]! + codec.columnCounts(state, from) + codec.columnCounts(state, to));
            }
            cand.push(codec.score, m, NO_REVERSE, state.stockLeft, childIdle, e, codec.buf, 0, codec.downLeft, hidden);
          } else {
            const nw = codec.encode(state);
            let tag = tok === 0 && m !== DEAL_MOVE ? reverseTag(state, m) : NO_REVERSE;
            if (tag !== NO_REVERSE) tag = codec.decodedTag(tag);
            cand.push(codec.score, m, tag, state.stockLeft, childIdle, e, codec.buf, nw, codec.downLeft, hidden);
          }
          state.undo(m, tok);
        }
      }
      // select the next level: the best `width` by score (equal scores in the order they were met),
      // first up to `reserve` of each number of stock deals left, then the best of the rest; a kept
      // candidate is visited in the table (stored, and counted, if new); one that another parent of
      // this level reached first is not kept twice
      const nc = cand.n;
      lastFound = nc;
      if (order.length < nc) {
        order = new Int32Array(cand.score.length);
        taken = new Uint8Array(cand.score.length);
      }
      let lo = 0x7fffffff;
      let hi = 0;
      const sc = cand.score;
      for (let i = 0; i < nc; i++) {
        const v = sc[i]!;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (hi - lo + 2 > hist.length) hist = new Int32Array(hi - lo + 2);
      hist.fill(0, 0, hi - lo + 2);
      for (let i = 0; i < nc; i++) hist[sc[i]! - lo + 1]!++;
      for (let v = 1; v <= hi - lo + 1; v++) hist[v]! += hist[v - 1]!;
      for (let i = 0; i < nc; i++) order[hist[sc[i]! - lo]!++] = i;
      taken.fill(0, 0, nc);
      // from here on a candidate's score is not needed: a kept one's holds its node in the table
      const keptNode = cand.score;
      let total = 0;
      // the level entry whose position `state` holds (lazy levels)
      let held = levelLen - 1;
      // a lazy level's candidate i: its key, built in codec.buf by playing its move from its parent
      // and taking it back (its length returned); also sets its move-back tag
      const keyOf = (i: number): number => {
        const p = cand.par[i]!;
        if (p !== held) {
          codec.decode(table.arena, table.keyOffset(levelNode[p]!), state);
          held = p;
        }
        const m = cand.move[i]!;
        const tok = state.apply(m);
        const nw = codec.encode(state);
        let tag = tok === 0 && m !== DEAL_MOVE ? reverseTag(state, m) : NO_REVERSE;
        if (tag !== NO_REVERSE) tag = codec.decodedTag(tag);
        cand.tag[i] = tag;
        state.undo(m, tok);
        return nw;
      };
      // keeps candidate i: 1 if kept, 0 if this iteration has it already, -1 if it is new and the
      // budget is spent (the table holds maxPositions: one more is one too many)
      const keep = (i: number): number => {
        const parent = levelNode[cand.par[i]!]!;
        const id = lazy ? table.visit(codec.buf, keyOf(i), parent, stamp, 0, maxPositions) : table.visit(cand.keys, keyLen(cand, i), parent, stamp, cand.keyOff[i]!, maxPositions);
        taken[i] = 2;
        if (id === FULL) return -1;
        if (id < 0) return 0;
        if (cand.deals[i] === startDeals && cand.score[i]! < bestValue) {
          bestValue = cand.score[i]!;
          bestNode = id;
        }
        keptNode[i] = id;
        taken[i] = 1;
        total++;
        return 1;
      };
      // keeps, in order of score, candidates not taken yet while their group (group[i]) has fewer
      // than `cap` kept; false if the budget ran out
      const keepCapped = (group: Uint8Array | Int32Array, count: Int32Array, cap: number): boolean => {
        for (let k = 0; k < nc && total < width; k++) {
          const i = order[k]!;
          const g = group[i]!;
          if (taken[i] === 0 && count[g]! < cap) {
            const r = keep(i);
            if (r < 0) return false;
            count[g]! += r;
          }
        }
        return true;
      };
      const reserve = Math.floor(width * dealShare);
      if (reserve > 0) {
        perDeals.fill(0);
        if (!keepCapped(cand.deals, perDeals, reserve)) return out('undecided', -1);
      }
      const downReserve = Math.floor(width * downShare);
      if (downReserve > 0) {
        perDown.fill(0);
        if (!keepCapped(cand.down, perDown, downReserve)) return out('undecided', -1);
      }
      // (the passes below take nothing once the beam is full: their counts are not made then)
      if (hiddenShare > 0 && total < width) {
        const gh = groupHidden(cand, nc, groupSlots, groupKeys);
        groupSlots = gh.slots;
        groupKeys = gh.keys;
        groupWords = Math.max(groupWords, 2 * gh.cap + gh.groups);
        if (groupCount.length < gh.groups) groupCount = new Int32Array(gh.groups * 2);
        groupCount.fill(0, 0, gh.groups);
        for (let i = 0; i < nc; i++) if (taken[i] === 1) groupCount[cand.hidden[i]!]!++;
        if (!keepCapped(cand.hidden, groupCount, Math.max(1, Math.ceil(width * hiddenShare)))) return out('undecided', -1);
      }
      if (perParent > 0 && total < width) {
        if (parCount.length < levelLen) parCount = new Int32Array(levelLen * 2);
        parCount.fill(0, 0, levelLen);
        for (let i = 0; i < nc; i++) if (taken[i] === 1) parCount[cand.par[i]!]!++;
        if (!keepCapped(cand.par, parCount, perParent)) return out('undecided', -1);
      }
      for (let k = 0; k < nc && total < width; k++) {
        const i = order[k]!;
        if (taken[i] === 0 && keep(i) < 0) return out('undecided', -1);
      }
      // dropped: a candidate left out that this iteration has not visited
      for (let i = 0; i < nc && !dropped; i++) {
        if (taken[i] !== 0) continue;
        const f = lazy ? table.find(codec.buf, keyOf(i)) : table.find(cand.keys.subarray(cand.keyOff[i]!), keyLen(cand, i));
        if (f < 0 || table.stamp(f) !== stamp) dropped = true;
      }
      if (levelNode.length < total) {
        levelNode = new Int32Array(total);
        levelTag = new Uint8Array(total);
        levelIdle = new Uint16Array(total);
      }
      keptAll += total;
      levelLen = 0;
      for (let k = 0; k < nc; k++) {
        const i = order[k]!;
        if (taken[i] !== 1) continue;
        levelNode[levelLen] = keptNode[i]!;
        levelTag[levelLen] = cand.tag[i]!;
        levelIdle[levelLen++] = cand.idle[i]!;
      }
      // bytes in use: per candidate its score, move, tag, deals, face-down count, idle count, parent,
      // key offset, hidden set, order and taken, and its key (keyed levels); per kept position its
      // node, tag and idle count, and its count of children kept (as a parent at the next level); the
      // hidden sets' hash table and counts (the largest a level of this search used)
      peak = Math.max(peak, nc * 30 + cand.keysUsed * 4 + levelLen * 11 + groupWords * 4);
    }
    if (!dropped) {
      if (!pruned) return out('lost', -1);
      // nothing dropped but pruned moves: the caller's complete search, or an iteration that tries
      // every move
      if (opts.handOff) return out('exhausted', -1, 'ran dry');
      prune = false;
      continue;
    }
    // the budget left cannot hold the next iteration: the complete search spends it for less
    if (opts.handOff && shortHandOff > 0 && maxPositions - table.size < shortHandOff * keptAll) return out('exhausted', -1, 'budget short');
    width = Math.ceil(width * growth);
  }
}
