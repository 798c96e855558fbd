/**
 * The quick stage: depth-first search with a transposition table and cheap move ordering, restarted;
 * and the move pruning of the heuristic searches (`moveOrder` with PRUNE_QUICK, or PRUNE_BEAM in the beam search).
 *
 * A search enters a position once (PositionTable.visit, with a stamp of its own): a new position is
 * stored, and counted, when it is first entered; one stored earlier in the solve is entered again at
 * no cost to the budget; a position met again by another line of the same search is not entered again. At each position the moves are tried best first by
 * `moveOrder`, a cheap estimate of how much the move improves the position: turning up a face-down
 * card, completing a suit, joining cards of one suit, emptying a column; deals last. Without `prune`
 * every legal move is tried (but for the sound reductions of SolverState.generate) and the search is
 * complete; with `prune` it leaves out moves a player would not consider and proves nothing when it
 * runs dry. Deterministic: integer ordering, stable tie-breaks, seeded noise, no clocks.
 */
import { ColumnStore, KeyCodec } from './key.js';
import { CAP, DEAL_MOVE, groupMove, packMove, RANK0, SolverState, SPLIT_GROUP } from './state.js';
import { PositionTable } from './table.js';
import type { Position } from '../game/position.js';

/** Raw outcome of a search, before the line is written out and checked. */
export interface SearchOutcome {
  readonly status: 'won' | 'lost' | 'undecided';
  /** Positions this search stored in the table (new to it). */
  readonly positions: number;
  /** Positions this search entered (new or stored before). */
  readonly entered: number;
  /** Moves played from an entered position, whether they entered a position or met one this search had visited. */
  readonly tried: number;
  /** The line from the start to where the search stopped, packed (the winning line when won). */
  readonly moves: number[];
  /** Peak bytes of the table and the search stack. */
  readonly peakBytes: number;
  /**
   * restartSearch only: its pruned restarts ran dry (one of them tried every move it keeps, from every
   * position it entered, with no win): undecided all the same, since the pruning proves nothing.
   */
  readonly ranDry?: boolean;
}

/** Ordering weights (lower plays first). */
const FLIP = -12;
const COMPLETE = -40;
const JOIN_FROM_SUIT_BREAK = -2;
const JOIN_FROM_RANK_BREAK = -3;
const SPLIT_RUN = 4;
const TO_SUIT_BREAK = 2;
const EMPTY_COLUMN = -5;
const FILL_EMPTY = 5;
const DEAL = 30;
/**
 * moveOrder's answer for a move that a pruning search leaves out: one that splits a run of one suit
 * onto a card of another column without completing a suit there; and a lateral move (a group moved
 * off a card of the next rank and another suit onto a card that is not of its own suit, unless the
 * card it uncovers could at once take a card of its own suit) in Spider (two decks) always, and in
 * Spiderette (one deck) in the quick stage only (see PRUNE_BEAM and PRUNE_QUICK).
 */
export const PRUNED = 1 << 20;

/** moveOrder's pruning: none, every legal move is scored (the complete searches). */
export const PRUNE_NONE = 0;
/**
 * moveOrder's pruning in the beam search while it is heuristic: the run splits of PRUNED, and lateral
 * moves in games of two decks only. Lateral moves are kept in Spiderette (one deck), where they are
 * often the only way to reorder seven columns: on deals outside the benchmark sets at 1,000,000
 * positions, PySolFC Spiderette 1101–1300 won 184 (pruning them too: 181), 1301–1500 176 (169),
 * four-suit Spiderette seeds 3001–3100 91 (90). In Spider the same change won no more (PySolFC
 * 1101–1200 98 against 99, 1201–1300 100 and 100; seeds 3001–3100 of two and four suits the same)
 * and took 1.36× and 1.45× the time on those seeds.
 */
export const PRUNE_BEAM = 1;
/**
 * moveOrder's pruning in the quick stage's depth-first searches: the run splits of PRUNED and
 * lateral moves, in every game: unlike the beam, it leaves them out in Spiderette too, since a
 * depth-first line that tries them wanders. Measured against keeping them in Spiderette, on deals
 * outside the benchmark sets, at 1,000,000 positions: two-suit Spiderette seeds 3001–3100 and
 * 3101–3200 the same won, lost and undecided (96/3/1, 100/0/0) with a median of 2,557 and 1,276
 * positions a deal (keeping them: 2,791 and 1,626), and on 3101–3200, each deal's best of three
 * solves in one process, 0.65× the median time and 0.92× the total (the same solver against itself:
 * 1.03× and 0.99×); four-suit Spiderette seeds 3001–3100 93/3/4 and PySolFC Spiderette 1101–1300
 * 186/3/11 and 1301–1500 177/7/16, as when keeping them, in 0.98–1.08× the time (one run each). One suit has no
 * lateral move (the same positions), nor does Spider change (it pruned them already).
 */
export const PRUNE_QUICK = 2;
/** How moveOrder prunes: PRUNE_NONE, PRUNE_BEAM or PRUNE_QUICK. */
export type Prune = typeof PRUNE_NONE | typeof PRUNE_BEAM | typeof PRUNE_QUICK;
/**
 * moveOrder's score, pruning or not, of a move into an empty column that leaves part of a run behind
 * (fewer cards than the movable run): it splits a run and fills an empty column, and is never pruned.
 */
export const SPLIT_TO_EMPTY = SPLIT_RUN + FILL_EMPTY;

/**
 * A lateral move (a group from one card of the next rank to another of a different suit) is kept when
 * the card it uncovers can at once take a card of its own suit. Can `card` take a card of its own
 * suit, one rank lower, from the movable run of a column other than `a` and `b`?
 */
function receives(s: SolverState, card: number, a: number, b: number): boolean {
  if (RANK0[card] === 0) return false;
  const want = card - 1;
  for (let c = 0; c < s.ncols; c++) {
    if (c === a || c === b) continue;
    const len = s.upLen[c]!;
    if (len === 0) continue;
    const top = s.up[c * CAP + len - 1]!;
    if (want >= top && ((want / 13) | 0) === ((top / 13) | 0) && want - top < s.runLength(c)) return true;
  }
  return false;
}

/** Does the card move m complete a King-to-Ace run on its target? */
function completes(s: SolverState, m: number): boolean {
  const from = m & 31;
  const to = (m >> 5) & 31;
  const k = m >> 10;
  const len = s.upLen[from]!;
  const tl = s.upLen[to]!;
  if (tl === 0 || RANK0[s.up[from * CAP + len - 1]!] !== 0) return false;
  return s.up[to * CAP + tl - 1] === s.up[from * CAP + len - k]! + 1 && s.runLength(to) + k >= 13;
}

/**
 * Ordering score of a legal move in state `s` (lower is tried first), or PRUNED for a move that
 * `prune` (PRUNE_BEAM or PRUNE_QUICK) leaves out. Looks only at the cards the move touches, so it
 * costs a few array reads.
 */
export function moveOrder(s: SolverState, m: number, prune: Prune = PRUNE_NONE): number {
  if (m === DEAL_MOVE) return DEAL;
  const from = m & 31;
  const to = (m >> 5) & 31;
  const k = m >> 10;
  const up = s.up;
  const len = s.upLen[from]!;
  const head = up[from * CAP + len - k]!;
  let score = 0;
  if (len > k) {
    const below = up[from * CAP + len - k - 1]!;
    if (below === head + 1 && RANK0[head] !== 12) {
      score += SPLIT_RUN;
      if (prune && s.upLen[to]! > 0 && !completes(s, m)) return PRUNED;
    } else if (RANK0[below] === RANK0[head]! + 1) {
      score += JOIN_FROM_SUIT_BREAK;
      // a lateral move, pruned in a game of two decks, and in the quick stage (see PRUNED)
      if (prune && (prune === PRUNE_QUICK || s.completeSuits > 4) && s.upLen[to]! > 0 && up[to * CAP + s.upLen[to]! - 1] !== head + 1 && !receives(s, below, from, to)) return PRUNED;
    } else score += JOIN_FROM_RANK_BREAK;
  } else if (s.down[from]! > 0) score += FLIP;
  else score += EMPTY_COLUMN;
  const tl = s.upLen[to]!;
  if (tl === 0) score += FILL_EMPTY;
  else {
    const top = up[to * CAP + tl - 1]!;
    if (top !== head + 1) score += TO_SUIT_BREAK;
    else if (RANK0[head] === 0 || RANK0[up[from * CAP + len - 1]!] === 0) {
      // the group ends with an Ace: does it finish a King-to-Ace run on the target?
      const tailAce = RANK0[up[from * CAP + len - 1]!] === 0;
      if (tailAce && s.runLength(to) + k >= 13) score += COMPLETE;
    }
  }
  return score;
}

/**
 * The depth-first search's stack: per frame its moves, their scores and noise; per depth its frame,
 * move and undo token. A caller running many searches (restartSearch) passes one to each in turn.
 */
export interface SearchStack {
  moves: Int32Array;
  scores: Int32Array;
  noises: Int32Array;
  frameEnd: Int32Array;
  frameIdx: Int32Array;
  cur: Int32Array;
  toks: Int32Array;
}

/** A new, small stack (it grows as a search needs). */
export function newStack(): SearchStack {
  const a = (n: number) => new Int32Array(n);
  return { moves: a(1 << 12), scores: a(1 << 12), noises: a(1 << 12), frameEnd: a(256), frameIdx: a(256), cur: a(256), toks: a(256) };
}

/**
 * Searches from `start` until a win, exhaustion, `maxEntered` positions entered, `maxLeft` positions
 * left behind (entered, and no longer on the search's path: it backed out of them; default no limit),
 * or `table` holding `maxPositions` positions. The search enters each position once
 * (PositionTable.visit with a stamp of its own): a position stored by an earlier search on the table is entered again at no cost to the
 * budget. `prune` leaves out the moves moveOrder prunes with PRUNE_QUICK; `noise` (0..3) adds 0..noise to each move's
 * score, drawn from a generator seeded by `noiseSeed`. `table` and `store` default to new ones;
 * `stack` is the move stack to use, grown as needed and left in it for the next search (default a
 * new one). `skipBack` (default true; false for measurement only) leaves out, at each position
 * entered by a card move that turned up no card and removed no suit, the move back to the parent (a
 * position on this search's path, visited): it changes no answer, count or line, only `tried` and the
 * time. On seeds 3001–3040 of each of the six games (one search of
 * 20,000 positions with noise 3), 12–29% of the tries that met a visited position were such moves back,
 * and the searches tried 8–16% fewer moves. Throws RangeError for another `noise`.
 */
export function search(
  start: Position,
  maxPositions: number,
  prune = false,
  noiseSeed = 0,
  noise = 0,
  store: ColumnStore = new ColumnStore(),
  stack: SearchStack = newStack(),
  table?: PositionTable,
  maxEntered = maxPositions,
  skipBack = true,
  maxLeft = Infinity,
): SearchOutcome {
  // a group entry keeps 2 bits of noise a move
  if (!Number.isInteger(noise) || noise < 0 || noise > 3) throw new RangeError(`noise must be 0..3, not ${noise}`);
  // Deterministic tie-breaking noise for restarts (xorshift32 seeded by noiseSeed); none when noise is 0.
  let rs = (noiseSeed * 0x9e3779b1) | 1;
  // noise + 1 a power of two (1, 3): the remainder is the low bits
  const lowBits = (noise & (noise + 1)) === 0;
  const jitter = (): number => {
    rs ^= rs << 13;
    rs ^= rs >>> 17;
    rs ^= rs << 5;
    return lowBits ? rs & noise : (rs & 0x7fffffff) % (noise + 1);
  };
  const state = new SolverState(start);
  const codec = new KeyCodec(state, undefined, true, store);
  const tab = table ?? new PositionTable(maxPositions, (a, o) => codec.keyLength(a, o));
  const stamp = tab.newStamp();
  const size0 = tab.size;
  let entered = 0;
  let tried = 0;
  // each frame's untried moves (or group entries, see SolverState.generate) and their ordering
  // scores, side by side, and each group's noise, 2 bits a move (bits 2(k-1) for the move of k cards)
  // (every entry is written before it is read, so a stack from an earlier search serves as it is)
  let moves = stack.moves;
  let scores = stack.scores;
  let noises = stack.noises;
  let frameEnd = stack.frameEnd;
  let frameIdx = stack.frameIdx;
  // per depth: the move being tried and its undo token
  let cur = stack.cur;
  let toks = stack.toks;
  const scratch = new Int32Array(1024);
  let depth = 0;

  // the stack's arrays only grow: their size at the end is their peak
  const stackBytes = () => moves.byteLength * 3 + frameEnd.byteLength * 4;
  const line = (): number[] => Array.from(cur.subarray(0, depth));
  const done = (status: SearchOutcome['status']): SearchOutcome => {
    Object.assign(stack, { moves, scores, noises, frameEnd, frameIdx, cur, toks });
    return { status, positions: tab.size - size0, entered, tried, moves: line(), peakBytes: tab.bytes + codec.bytes + stackBytes() };
  };

  /**
   * Lists the moves of the current position as frame `depth` with their scores. The main loop tries
   * them in order of score, ties in the generator's order, picking the next one only when it is
   * needed: most frames try one or two moves of dozens, so sorting them all would be wasted.
   */
  const openFrame = (): void => {
    const start = depth === 0 ? 0 : frameEnd[depth - 1]!;
    if (start + 1024 > moves.length) {
      const nm = new Int32Array(moves.length * 2);
      nm.set(moves);
      moves = nm;
      const ns = new Int32Array(scores.length * 2);
      ns.set(scores);
      scores = ns;
      const nn = new Int32Array(noises.length * 2);
      nn.set(noises);
      noises = nn;
    }
    if (depth + 1 >= frameEnd.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      frameEnd = grow(frameEnd);
      frameIdx = grow(frameIdx);
      cur = grow(cur);
      toks = grow(toks);
    }
    const g = state.generate(scratch, true, true);
    // the move back to the parent (a card move that turned up and removed nothing: the same cards
    // back where they came from), whose position is on this search's path, visited: left out
    let back = -1;
    if (depth > 0 && skipBack) {
      const pm = cur[depth - 1]!;
      if (pm !== DEAL_MOVE && toks[depth - 1] === 0) back = packMove((pm >> 5) & 31, pm & 31, pm >> 10);
    }
    let n = start;
    for (let i = 0; i < g; i++) {
      let m = scratch[i]!;
      if (m === back) {
        // (its noise drawn all the same, as if it were listed, so that the noise of the moves after
        // it, and so the search, does not change)
        if (noise && moveOrder(state, m, prune ? PRUNE_QUICK : PRUNE_NONE) !== PRUNED) jitter();
        continue;
      }
      if (m & SPLIT_GROUP && m !== DEAL_MOVE) {
        // moves of fewer cards than the run into an empty column: each scores SPLIT_TO_EMPTY plus
        // its noise, drawn in the generator's order (largest first); the group scores its best
        let sc = 0;
        let best = 0;
        if (noise) {
          best = 3;
          for (let k = 31 - Math.clz32(m & 0x3ffc00) - 9; k >= 1; k--) {
            const j = jitter();
            sc |= j << (2 * (k - 1));
            if (j < best) best = j;
          }
        }
        if (back >= 0 && (m & 0x3ff) === (back & 0x3ff)) {
          // the move back is one of the group's: it leaves the group (its noise drawn all the same,
          // so that the noise of the moves after it does not change)
          m &= ~(1 << (9 + (back >> 10)));
          if (!(m & 0x3ffc00)) continue;
          if (noise) {
            best = 3;
            for (let k = 31 - Math.clz32(m & 0x3ffc00) - 9; k >= 1; k--) {
              if (m & (1 << (9 + k))) best = Math.min(best, (sc >> (2 * (k - 1))) & 3);
            }
          }
        }
        noises[n] = sc;
        scores[n] = SPLIT_TO_EMPTY + best;
        moves[n++] = m;
        continue;
      }
      const o = moveOrder(state, m, prune ? PRUNE_QUICK : PRUNE_NONE);
      if (o === PRUNED) continue;
      scores[n] = o + (noise ? jitter() : 0);
      moves[n++] = m;
    }
    frameIdx[depth] = start;
    frameEnd[depth] = n;
  };

  tab.visit(codec.buf, codec.encode(state), 0, stamp);
  entered++;
  if (state.isWon()) return done('won');
  if (tab.size >= maxPositions || entered >= maxEntered) return done('undecided');
  openFrame();

  for (;;) {
    const i = frameIdx[depth]!;
    const end = frameEnd[depth]!;
    if (i < end) {
      // the untried move of lowest score, the first of equals; moved to slot i with the moves
      // before it shifted up one, so the untried ones keep the generator's order
      let best = i;
      let bs = scores[i]!;
      for (let j = i + 1; j < end; j++) {
        if (scores[j]! < bs) {
          bs = scores[j]!;
          best = j;
        }
      }
      let m = moves[best]!;
      let last = true;
      if (m & SPLIT_GROUP && m !== DEAL_MOVE) {
        // the group's move of most cards among those of least noise; the group keeps the rest
        const g = m;
        const ns = noises[best]!;
        const low = bs - SPLIT_TO_EMPTY;
        let rest = 3;
        let k = 0;
        for (let kk = 31 - Math.clz32(g & 0x3ffc00) - 9; kk >= 1; kk--) {
          if (!(g & (1 << (9 + kk)))) continue;
          const j = (ns >> (2 * (kk - 1))) & 3;
          if (k === 0 && j === low) k = kk;
          else if (j < rest) rest = j;
        }
        m = groupMove(g, k);
        const left = g & ~(1 << (9 + k));
        if (left & 0x3ffc00) {
          last = false;
          moves[best] = left;
          scores[best] = SPLIT_TO_EMPTY + (noise ? rest : 0);
        }
      }
      if (last) {
        // the move leaves the list; the untried ones before it shift up one and keep their order
        for (let j = best; j > i; j--) {
          moves[j] = moves[j - 1]!;
          scores[j] = scores[j - 1]!;
          noises[j] = noises[j - 1]!;
        }
        frameIdx[depth] = i + 1;
      }
      tried++;
      const tok = state.apply(m);
      const nw = codec.encode(state);
      if (tab.visit(codec.buf, nw, 0, stamp) >= 0) {
        entered++;
        cur[depth] = m;
        toks[depth] = tok;
        depth++;
        codec.commit(state);
        if (state.isWon()) return done('won');
        // (entered − depth − 1: the positions entered that are no longer on the path, left behind)
        if (tab.size >= maxPositions || entered >= maxEntered || entered - depth - 1 >= maxLeft) return done('undecided');
        openFrame();
      } else {
        state.undo(m, tok);
      }
    } else {
      if (depth === 0) return done('lost');
      depth--;
      state.undo(cur[depth]!, toks[depth]!);
    }
  }
}

/**
 * Restart schedule of the heuristic pass: first budget, growth factor, ordering noise (0..NOISE added).
 *
 * The first restart's limit is 150 positions entered: an easy deal that
 * the first restart does not win is then tried again, with other noise, sooner. Measured against 500
 * on seeds outside the benchmark sets, one process solving each deal with both (the order
 * alternating), at 1,000,000 positions: median time per deal 0.71× and total 0.66× on one-suit Spider
 * seeds 3001–3200, 0.60× and 0.91× on one-suit Spiderette 3001–3200, 0.83× and 0.99× on two-suit
 * Spiderette 3001–3200, 1.05× and 1.00× on two-suit Spider 3001–3200 (0.92× and 0.88× on 3201–3400;
 * at 167,000 positions 0.88× and 0.88×); the same deals won, lost and undecided there and on PySolFC
 * Spiderette 1101–1300, Spider 1101–1200, four-suit Spiderette seeds 3001–3100 and Spider 3001–3060,
 * two-suit Spider 3001–3200 at 167,000, in 0.97–1.06 of the time (separate runs). Limits of 50 and
 * 100 were slower on two-suit Spider, 250 on the one-suit games.
 */
export const RESTART_FIRST = 150;
export const RESTART_GROWTH = 1.3;
export const RESTART_NOISE = 3;
/**
 * A restart also ends once it has left behind (entered and backed out of) this share of its limit:
 * 45 positions for the first restart's 150. A restart that wins goes almost straight
 * to the win: on two-suit Spiderette seeds 3001–3030 most winning restarts entered 80–330 positions (a
 * few 800–1,100) for lines of 70–130 moves, where the restarts that failed spent their limits backing
 * out of the subtree below an early choice. Ending those sooner gives the next restart, with other
 * noise, its turn. The limit of positions entered stays, for a search that wanders deeper without
 * backing out (in one-suit Spider a restart with no other limit went 10,000 positions deep). Measured
 * against restarts without this limit on seeds outside the benchmark sets, one process solving each deal with both (each
 * deal's best of three solves), at 1,000,000 positions: two-suit Spiderette seeds 3001–3200 0.69× the
 * median time a deal and 0.96× the total (median positions 1,196 against 1,809), 3201–3400 0.81× and
 * 0.91×, 3401–3600 (one solve each) 0.78× and 0.99×; two-suit Spider at 167,000, 3001–3200 0.84× and
 * 0.92×, 3201–3400 0.67× and 0.99×; one-suit Spiderette and Spider 0.93–1.00× the median and
 * 0.80–0.98× the total. The same deals won, lost and undecided in all of these and in two-suit Spider
 * 3001–3100, four-suit Spiderette 3001–3200, PySolFC Spiderette 1101–1300, four-suit Spider 3001–3040
 * and PySolFC Spider 1101–1140 (0.89–1.01× their totals, one solve each or two). Without the limit of
 * positions entered, one-suit Spider seeds 3201–3400 took 4.4× the total. A share of 0.23 (35 of 150)
 * did about as well (two-suit Spiderette 3201–3400 0.80× the median, two-suit Spider at 167,000
 * 0.64×).
 */
export const RESTART_LEFT = 0.3;

/**
 * The quick stage: pruned depth-first searches, restarted with a growing limit on the positions each
 * enters (and on those it leaves behind, RESTART_LEFT) and seeded tie-breaking noise in the move order
 * (restart k uses seed k; the first has no noise), until one wins, `share` new positions have been
 * stored in `table`, or the restarts have entered 4 × `share` positions in all. The restarts share the
 * table: a position one of them stored is entered again free by the next. Randomised restarts cut the
 * heavy tail of depth-first search (Gomes, Selman & Kautz, 1998); the seeds make them deterministic.
 * Returns won (with the line) or undecided, never lost (`ranDry` when a restart ran dry, which ends
 * the stage: noise reorders the moves, it adds none). `table` and `store` default to new ones.
 */
export function restartSearch(start: Position, share: number, store: ColumnStore = new ColumnStore(), table?: PositionTable): SearchOutcome {
  // restarts are many and short: they share one move stack
  const stack = newStack();
  let tab = table;
  if (!tab) {
    const codec = new KeyCodec(new SolverState(start), undefined, true, store);
    tab = new PositionTable(share, (a, o) => codec.keyLength(a, o));
  }
  const size0 = tab.size;
  const cap = size0 + share;
  let entered = 0;
  let tried = 0;
  let limit = RESTART_FIRST;
  let peak = 0;
  let ranDry = false;
  for (let k = 0; tab.size < cap && entered < 4 * share; k++) {
    const out = search(start, cap, true, k, k === 0 ? 0 : RESTART_NOISE, store, stack, tab, Math.floor(limit), true, Math.floor(limit * RESTART_LEFT));
    entered += out.entered;
    tried += out.tried;
    peak = Math.max(peak, out.peakBytes);
    if (out.status === 'won') return { ...out, positions: tab.size - size0, entered, tried, peakBytes: peak };
    // a pruned search that ran dry would run dry again: noise reorders moves, it adds none
    if (out.status === 'lost') {
      ranDry = true;
      break;
    }
    limit *= RESTART_GROWTH;
  }
  return { status: 'undecided', positions: tab.size - size0, entered, tried, moves: [], peakBytes: peak, ranDry };
}
