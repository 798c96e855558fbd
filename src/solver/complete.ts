/**
 * The complete stage: a breadth-first search over the solve's one table, with every legal move (but
 * for the sound reductions of SolverState.generate), each position expanded once.
 *
 * It runs once the pruned beam search has run dry (solve.ts), so most of what it meets is stored
 * already: a position the earlier stages stored is entered again at no cost to the budget, a new one is
 * stored, and counted, when first met. A position is expanded once (PositionTable.visit with a stamp
 * of its own), so when the queue runs dry with no win, every position reachable from the start has
 * been expanded and the deal is **lost** (docs/rules.md R19).
 *
 * Breadth-first, not depth-first: its memory is a queue of table nodes and their moves back, 5 bytes
 * a position at most, where a depth-first search keeps each frame's untried moves along a path that,
 * in a complete search of a large space, grows as long as the space allows (a depth-first search from
 * the start of two-suit Spider seed 5 was 18,374 moves deep at 1,000,000 positions, its stack 104 MB).
 * Deterministic: the queue is first in, first out, children in the generator's order.
 */
import type { Position } from '../game/position.js';
import { type ColumnStore, KeyCodec } from './key.js';
import { DEAL_MOVE, moveTag, NO_REVERSE, reverseTag, SolverState } from './state.js';
import { FULL, type PositionTable } from './table.js';

/** Outcome of the complete stage, before the line is rebuilt. */
export interface CompleteOutcome {
  readonly status: 'won' | 'lost' | 'undecided';
  /** The won position's node (won only), whose parents lead back to the start. */
  readonly goal: number;
  /** The codec whose column ids the table's keys use (to rebuild the line). */
  readonly codec: KeyCodec;
  /** Peak bytes of the queue (the table's and the column store's not counted). */
  readonly peakBytes: number;
  /** Moves played from an expanded position, whether they met a new position or one this search had visited. */
  readonly tried: number;
}

/**
 * Expands every position reachable from `start` once, breadth-first, until a win, the queue running
 * dry (lost), or a new position to store when `table` holds `maxPositions` already (undecided: a
 * table exactly full still lets the search run dry and answer lost). The table may hold positions
 * stored earlier in the solve; keys name columns by `store`'s ids. `skipBack` (default true; false
 * for measurement only): a queued position reached by a card move that turned up no card and removed
 * no suit keeps the move back to its parent (1 byte in the queue), and does not try it, since it meets
 * a position this search visited (no answer, count or line changes, only `tried` and the time).
 * `reductions` (default true): the sound reductions of SolverState.generate, the canonical key of
 * interchangeable columns (KeyCodec) and the dead ends (SolverState.deadEnd: a child that is one is not
 * stored); false searches every legal move, keeps columns in their order and stores every position
 * (confirm.ts: the second check of a loss); a table searched without them must not hold keys written
 * with them. `deadEnds` (default `reductions`): the dead ends alone; false, for measurement only,
 * stores and searches them as any position (the solver before its version 3.9.0).
 */
export function completeSearch(start: Position, maxPositions: number, table: PositionTable, store: ColumnStore, skipBack = true, reductions = true, deadEnds = reductions): CompleteOutcome {
  const state = new SolverState(start);
  const codec = new KeyCodec(state, undefined, reductions, store);
  const moves = new Int32Array(1024);
  let queue = new Int32Array(1024);
  // per queued node, the move back to its parent (a tag, state.ts moveTag, columns as decoded) when
  // there is one: it leads to a position this search visited, so it is not tried
  let backs = new Uint8Array(1024);
  let head = 0;
  let tail = 0;
  let tried = 0;
  const stamp = table.newStamp();
  const out = (status: CompleteOutcome['status'], goal: number): CompleteOutcome => ({ status, goal, codec, peakBytes: queue.byteLength + backs.byteLength, tried });
  const nw0 = codec.encode(state);
  let root = table.find(codec.buf, nw0);
  if (root < 0) {
    if (table.size >= maxPositions) return out('undecided', -1);
    root = table.insert(codec.buf, nw0, 0);
  }
  table.setRoot(root, stamp);
  if (state.isWon()) return out('won', root);
  queue[tail] = root;
  backs[tail++] = NO_REVERSE;
  while (head < tail) {
    const back = backs[head]!;
    const node = queue[head++]!;
    codec.decode(table.arena, table.keyOffset(node), state);
    const n = state.generate(moves, reductions);
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      if (back !== NO_REVERSE && moveTag(m) === back) continue;
      tried++;
      const tok = state.apply(m);
      // a dead end (no card can turn up, no column empty, no suit complete: SolverState.deadEnd) leads to
      // no win, and is neither stored nor searched
      if (deadEnds && state.deadEnd()) {
        state.undo(m, tok);
        continue;
      }
      const id = table.visit(codec.buf, codec.encode(state), node, stamp, 0, maxPositions);
      const won = id >= 0 && state.isWon();
      // (written out as beam.ts writes it twice: a KeyCodec method for it, called there, took some
      // 8% more time on SE2's undecided deals 18 and 34, V8 not inlining it in the beam's hot loop)
      let tag = NO_REVERSE;
      if (skipBack && id >= 0 && tok === 0 && m !== DEAL_MOVE) {
        tag = reverseTag(state, m);
        if (tag !== NO_REVERSE) tag = codec.decodedTag(tag);
      }
      state.undo(m, tok);
      // a new position beyond the budget: the search stops short of every reachable position
      if (id === FULL) return out('undecided', -1);
      if (id < 0) continue;
      if (won) return out('won', id);
      if (tail === queue.length) {
        // the queue's dead front (expanded nodes) goes first; it doubles only when over half full
        if (head > queue.length >> 1) {
          queue.copyWithin(0, head, tail);
          backs.copyWithin(0, head, tail);
          tail -= head;
          head = 0;
        } else {
          const q = new Int32Array(queue.length * 2);
          q.set(queue);
          queue = q;
          const b = new Uint8Array(backs.length * 2);
          b.set(backs);
          backs = b;
        }
      }
      queue[tail] = id;
      backs[tail++] = tag;
    }
  }
  return out('lost', -1);
}
