/**
 * The solver against known answers (issue: solver), its move generator against the rules engine's,
 * and its exactness against an independent exhaustive search through the rules engine.
 */
import { describe, expect, it } from 'vitest';
import { dealPosition } from '../src/game/deal.js';
import { cardCounts, isWon, type Position } from '../src/game/position.js';
import { applyMove, legalMoves, moveText } from '../src/game/rules.js';
import type { Move } from '../src/game/move.js';
import { playLine } from '../src/game/score.js';
import { ALL_VARIANTS } from '../src/game/variant.js';
import { ColumnStore, KeyCodec } from '../src/solver/key.js';
import { moveOrder, PRUNE_BEAM, PRUNE_NONE, PRUNE_QUICK, PRUNED, restartSearch, RESTART_LEFT, search, SPLIT_TO_EMPTY } from '../src/solver/search.js';
import { beamSearch, hiddenSet } from '../src/solver/beam.js';
import { completeSearch } from '../src/solver/complete.js';
import { solve } from '../src/solver/solve.js';
import { lineText, rebuildLine, shortenLine } from '../src/solver/line.js';
import { CAP, DEAL_MOVE, groupMove, moveTag, NO_REVERSE, packMove, reverseTag, SolverState, SPLIT_GROUP } from '../src/solver/state.js';
import { PositionTable } from '../src/solver/table.js';
import { SOLVER_VERSION } from '../src/solver/types.js';
import { cards, type ColumnSpec, mulberry32, pos, run, SE1, SE2, SE4, SP1, SP2, SP4 } from './helpers/game.js';

/** Exhaustive search through the rules engine alone (string keys), for small positions. */
function bruteForce(start: Position, limit = 30_000): 'won' | 'lost' | 'too large' {
  const seen = new Set<string>();
  const key = (p: Position) => JSON.stringify([p.columns, p.stock.length]);
  const stack: Position[] = [start];
  seen.add(key(start));
  while (stack.length) {
    const p = stack.pop()!;
    if (isWon(p)) return 'won';
    for (const m of legalMoves(p)) {
      const q = applyMove(p, m).position;
      const k = key(q);
      if (!seen.has(k)) {
        if (seen.size >= limit) return 'too large';
        seen.add(k);
        stack.push(q);
      }
    }
  }
  return 'lost';
}

/** Runs the beam search alone from `p` over a new table: its outcome and the table. */
function beamOver(p: Position, max: number, opts?: Parameters<typeof beamSearch>[4]) {
  const store = new ColumnStore();
  const codec = new KeyCodec(new SolverState(p), undefined, true, store);
  const table = new PositionTable(1000, (a, o) => codec.keyLength(a, o));
  return { out: beamSearch(p, max, table, store, opts), table };
}

/**
 * Number of distinct positions (solver keys) reachable from `start`, by a plain breadth-first search
 * over its own table: what a complete search must store, each position once.
 */
function reachable(start: Position, limit = 1_000_000): number {
  const s = new SolverState(start);
  const codec = new KeyCodec(s);
  const table = new PositionTable(limit, (a, o) => codec.keyLength(a, o));
  const moves = new Int32Array(1024);
  const queue = [table.insert(codec.buf, codec.encode(s), 0)];
  for (let q = 0; q < queue.length; q++) {
    codec.decode(table.arena, table.keyOffset(queue[q]!), s);
    const n = s.generate(moves, true);
    for (let i = 0; i < n; i++) {
      const tok = s.apply(moves[i]!);
      const node = table.insert(codec.buf, codec.encode(s), 0);
      if (node >= 0) queue.push(node);
      s.undo(moves[i]!, tok);
    }
    if (table.size > limit) throw new Error('reachable: too many positions');
  }
  return table.size;
}

function same(s: SolverState, p: Position): boolean {
  for (let c = 0; c < s.ncols; c++) {
    const col = p.columns[c]!;
    if (s.down[c] !== col.down.length || s.upLen[c] !== col.up.length) return false;
    for (let i = 0; i < col.up.length; i++) if (s.up[c * CAP + i] !== col.up[i]) return false;
  }
  return s.stockLeft === p.stock.length && s.removed === p.removed.length;
}

/** A copy of `s` whose columns have versions no codec has seen (a codec's key of it is built uncached). */
function copyState(s: SolverState, into: SolverState): SolverState {
  into.up.set(s.up);
  into.upLen.set(s.upLen);
  into.down.set(s.down);
  into.stockLeft = s.stockLeft;
  into.removed = s.removed;
  into.touchAll();
  return into;
}

/** The key words of `s`, built by `codec` uncached (from a copy with fresh versions). */
function uncachedKey(codec: KeyCodec, s: SolverState, scratch: SolverState): number[] {
  return Array.from(codec.buf.subarray(0, codec.encode(copyState(s, scratch))));
}

function packedText(s: SolverState, m: number): string {
  if (m === DEAL_MOVE) return 'd';
  const to = (m >> 5) & 31;
  return `${(m & 31) + 1}-${to + 1}${s.upLen[to] === 0 ? `x${m >> 10}` : ''}`;
}

/** A Spiderette 1-suit endgame where only the stock holds the Aces, so the one deal completes a suit. */
const needsDeal = pos(
  SE1,
  [['', run('S', 2)], ['', 'QS'], ['', 'JS'], ['', '10S'], ['', '9S'], ['', '8S'], ['2S 3S 4S 5S 6S', '7S']],
  ['AS AS KS'],
  [0, 0],
);

describe('solver: known answers', () => {
  it('wins a position one move from a win, with that move', () => {
    const p = pos(SE1, [['', run('S', 2)], ['', 'AS'], '', '', '', '', ''], [], [0, 0, 0]);
    const r = solve(p, { maxPositions: 1000 });
    expect(r.status).toBe('won');
    expect(r.line).toEqual(['2-1']);
    expect(r.moveCount).toBe(1);
    expect(r.classicScore).toBe(500 - 1 + 400);
    expect(r.revealScore).toBe(400);
  });

  it('reports an already won position as won with an empty line', () => {
    const p = pos(SE1, ['', '', '', '', '', '', ''], [], [0, 0, 0, 0]);
    const r = solve(p);
    expect(r).toMatchObject({ status: 'won', line: [], positions: 1, moveCount: 0 });
  });

  it('proves a small position lost: no card can move, no stock', () => {
    const p = pos(
      SE4,
      [['QC', 'KC'], ['10C', 'JC'], ['8C', '9C'], ['6C', '7C'], ['4C', '5C'], ['2C', '3C'], ['', 'AC']],
      [],
      [0, 1, 2],
    );
    const r = solve(p, { maxPositions: 1000 });
    expect(r.status).toBe('lost');
    expect(r.line).toEqual([]);
    expect(bruteForce(p)).toBe('lost');
  });

  it('finds a win that needs a deal to complete a suit (R12, R14)', () => {
    expect(cardCounts(needsDeal).reduce((a, b) => a + b, 0)).toBe(26);
    const r = solve(needsDeal, { maxPositions: 100_000 });
    expect(r.status).toBe('won');
    const at = r.line.indexOf('d');
    expect(at).toBeGreaterThanOrEqual(0);
    const before = playLine(needsDeal, r.line.slice(0, at));
    const after = playLine(needsDeal, r.line.slice(0, at + 1));
    expect(before.ok && before.value.completed).toBe(0);
    expect(after.ok && after.value.completed).toBe(1);
    const all = playLine(needsDeal, r.line);
    expect(all.ok && all.value.won).toBe(true);
  });

  it("decides a Spiderette position by its last 3-card deal: the stock's order makes it won or lost (R4, R12)", () => {
    // Same tableau as needsDeal; with the Aces dealt onto columns 2 and 3 it is won, with a King dealt
    // onto the K..2 run of column 1 and nothing to clear it, the exhaustive search finds no win.
    const lostOrder = pos(
      SE1,
      [['', run('S', 2)], ['', 'QS'], ['', 'JS'], ['', '10S'], ['', '9S'], ['', '8S'], ['2S 3S 4S 5S 6S', '7S']],
      ['KS AS AS'],
      [0, 0],
    );
    const won = solve(needsDeal, { maxPositions: 100_000 });
    const other = solve(lostOrder, { maxPositions: 100_000 });
    expect(won.status).toBe('won');
    expect(other.status).toBe(bruteForce(lostOrder));
  });

  it('answers undecided when the budget is too small, having stored exactly the budget', () => {
    const r = solve(dealPosition(SP4, 1), { maxPositions: 50 });
    expect(r.status).toBe('undecided');
    expect(r.positions).toBe(50);
    expect(r.line).toEqual([]);
  });

  it('is deterministic: same deal and budget give the same result, position count, line and peak bytes, whatever was solved before', () => {
    // won by the beam search, in 16,594 positions
    const a = solve(dealPosition(SP4, 3), { maxPositions: 100_000 });
    // a larger solve in between leaves larger buffers to reuse: nothing reported changes
    solve(dealPosition(SP4, 6), { maxPositions: 100_000 });
    const b = solve(dealPosition(SP4, 3), { maxPositions: 100_000 });
    expect(a.status).toBe('won');
    expect(b.status).toBe(a.status);
    expect(b.positions).toBe(a.positions);
    expect(b.line).toEqual(a.line);
    expect(b.peakBytes).toBe(a.peakBytes);
  });

  it(`gives solver ${SOLVER_VERSION}'s results: status, positions and line length of fixed deals (change them only with a version bump)`, () => {
    // a change to what the search does must bump SOLVER_VERSION (stored results are keyed by it);
    // a change to how fast it does it must leave these alone
    const golden: [typeof SP1, number, number, string, number, number][] = [
      // (quick stage: SP1-2, SP2-7, SP2-2 and SE2-3; the beam search: the others, and the complete
      // stage the loss)
      [SP1, 2, 20_000, 'won', 120, 115],
      [SP2, 7, 20_000, 'won', 761, 186],
      [SP2, 2, 100_000, 'won', 8_010, 181],
      [SP4, 6, 100_000, 'won', 17_593, 200],
      [SE2, 3, 20_000, 'won', 1_505, 108],
      [SE4, 3, 150_000, 'won', 19_929, 106],
      [SE4, 4, 150_000, 'won', 38_234, 120],
      [SE4, 1011, 200_000, 'lost', 2_972, 0],
    ];
    for (const [v, seed, max, status, positions, moves] of golden) {
      const r = solve(dealPosition(v, seed), { maxPositions: max });
      expect([v.game, v.suits, seed, r.status, r.positions, r.line.length]).toEqual([v.game, v.suits, seed, status, positions, moves]);
    }
    expect(SOLVER_VERSION).toBe('3.9.0');
  });

  it('solves without the hidden-set share with hiddenShare 0: the beam keeps no place for each hidden set', () => {
    // with the share, this Spider deal is won in 17,593 positions; without it the beam takes 49,809,
    // with a line of 192 moves
    const old = { hiddenShare: 0 };
    const a = solve(dealPosition(SP4, 6), { maxPositions: 100_000 }, old);
    expect([a.status, a.positions, a.line.length]).toEqual(['won', 49_809, 192]);
    // a Spiderette deal, whose quick stage leaves lateral moves out (PRUNE_QUICK)
    const b = solve(dealPosition(SE4, 3), { maxPositions: 150_000 }, old);
    expect([b.status, b.positions, b.line.length]).toEqual(['won', 16_168, 147]);
  });

  it('gives positions the same hidden set when only their face-up cards differ, and another when a face-down count, the stock or the suits removed differ', () => {
    const cols = (first: string): Parameters<typeof pos>[1] => [['3S 4S', first], ['5S', 'KS'], ['', 'QS'], ['', 'JS'], ['', '10S'], ['', '9S'], ['', '8S']];
    const h = (p: Position) => hiddenSet(new SolverState(p));
    const base = h(pos(SE1, cols('AS'), ['2S 2S 6S'], [0]));
    // other face-up cards, the same cards face down: the same set
    expect(h(pos(SE1, cols('7S'), ['2S 2S 6S'], [0]))).toBe(base);
    expect(h(pos(SE1, [['3S 4S', 'AS'], ['5S', 'QS'], ['', 'KS'], ['', 'JS'], ['', '10S'], ['', '9S'], ['', '8S']], ['2S 2S 6S'], [0]))).toBe(base);
    // one card fewer face down in column 1, the stock dealt, a suit more removed: other sets
    expect(h(pos(SE1, [['3S', '4S AS'], ['5S', 'KS'], ['', 'QS'], ['', 'JS'], ['', '10S'], ['', '9S'], ['', '8S']], ['2S 2S 6S'], [0]))).not.toBe(base);
    expect(h(pos(SE1, cols('AS'), [], [0]))).not.toBe(base);
    expect(h(pos(SE1, cols('AS'), ['2S 2S 6S'], [0, 0]))).not.toBe(base);
  });

  it('replays every win it reports through the rules engine (seeded Spiderette 1-suit deals)', () => {
    let wins = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const p = dealPosition(SE1, seed);
      const r = solve(p, { maxPositions: 20_000 });
      if (r.status !== 'won') continue;
      wins++;
      const played = playLine(p, r.line);
      expect(played.ok && played.value.won).toBe(true);
      expect(played.ok && played.value.classic).toBe(r.classicScore);
    }
    expect(wins).toBeGreaterThan(0);
  });
});

describe('solver: one table, the quick stage and the beam search', () => {
  it('proves a seeded Spiderette deal lost (SE4-1011) by a complete search, agreeing with an exhaustive search through the rules engine, storing each reachable position once', () => {
    const p = dealPosition(SE4, 1011);
    expect(bruteForce(p, 100_000)).toBe('lost');
    const r = solve(p, { maxPositions: 200_000 });
    expect(r.status).toBe('lost');
    expect(r.line).toEqual([]);
    // the dead ends the complete stage meets are not stored: 2,972 of the 7,462 reachable positions
    expect([reachable(p), r.positions]).toEqual([7462, 2972]);
    // with dead ends searched as any position, the quick stage and every iteration of the beam met
    // every reachable position; each counts once
    expect(solve(p, { maxPositions: 200_000 }, { deadEnds: false })).toMatchObject({ status: 'lost', positions: 7462 });
  });

  it('counts a position once however many iterations visit it: the budget is the table\'s size', () => {
    const p = dealPosition(SE4, 1011);
    const n = reachable(p);
    // (dead ends expanded as any position, so that the beam stores every reachable position)
    const { out, table } = beamOver(p, 1_000_000, { firstWidth: 1, deadEnds: false });
    expect(out.status).toBe('lost');
    expect(out.iterations).toBeGreaterThan(5);
    expect(table.size).toBe(n);
    // one position short of the reachable count, the same search cannot prove it
    const { out: short, table: t2 } = beamOver(p, n - 1, { firstWidth: 1, deadEnds: false });
    expect(short.status).toBe('undecided');
    expect(t2.size).toBe(n - 1);
    // a budget of exactly the reachable count is enough (a search stops when it needs one position
    // more, not when it has stored the last one allowed)
    const { out: exact, table: t3 } = beamOver(p, n, { firstWidth: 1, deadEnds: false });
    expect([exact.status, t3.size]).toEqual(['lost', n]);
  });

  it('the idle limit and the per-parent cap never make a loss: an iteration they cut is followed by one without them', () => {
    const beam = (p: Position, o: Parameters<typeof beamSearch>[4]) => {
      const { out, table } = beamOver(p, 1_000_000, o);
      return [out.status, out.iterations, table.size];
    };
    // clubs left, no face-down card: every win is 3C onto 4C, 2C onto 3C, then AC completes the suit,
    // two moves without progress first; no move here is one the pruning leaves out
    const p = pos(SE4, [['', 'KC QC JC 10C 9C 8C 7C 6C 5C 4C'], ['', 'AC 2C'], ['', '3C'], '', '', '', ''], [], [0, 1, 2]);
    // at most 1 move without progress: the first iteration is wide enough to drop nothing, but its
    // lines were cut, so it proves nothing; the second, without the limit, wins
    expect(beam(p, { idle: 1, firstWidth: 1000 })).toEqual(['won', 2, expect.any(Number)]);
    expect(beam(p, { idle: 2, firstWidth: 1000 })[0]).toBe('won');
    // SE4-1011 is lost: the harshest settings still end in the exact proof over its reachable positions
    // (dead ends expanded as any position)
    const lost = dealPosition(SE4, 1011);
    const n = reachable(lost); // 7,462
    expect(beam(lost, { idle: 1, perParent: 1, firstWidth: 100_000, deadEnds: false })).toEqual(['lost', 2, n]);
    expect(beam(lost, { idle: 1, perParent: 1, firstWidth: 1, deadEnds: false })).toEqual(['lost', 12, n]);
    expect(beam(lost, { deadEnds: false })).toEqual(['lost', 8, n]);
  });

  it('the complete stage alone expands every reachable position once: lost over exactly the reachable ones, undecided one short, a win with a line rebuilt from the table', () => {
    const over = (p: Position, max: number) => {
      const store = new ColumnStore();
      const codec = new KeyCodec(new SolverState(p), undefined, true, store);
      const table = new PositionTable(1000, (a, o) => codec.keyLength(a, o));
      // (dead ends stored and searched as any position)
      return { out: completeSearch(p, max, table, store, true, true, false), table };
    };
    const lost = dealPosition(SE4, 1011);
    const n = reachable(lost); // 7,462
    const all = over(lost, 1_000_000);
    expect([all.out.status, all.table.size]).toEqual(['lost', n]);
    const short = over(lost, n - 1);
    expect([short.out.status, short.table.size]).toEqual(['undecided', n - 1]);
    const exact = over(lost, n);
    expect([exact.out.status, exact.table.size]).toEqual(['lost', n]);
    const p = pos(SE4, [['', 'KC QC JC 10C 9C 8C 7C 6C 5C 4C'], ['', 'AC 2C'], ['', '3C'], '', '', '', ''], [], [0, 1, 2]);
    const won = over(p, 1000);
    expect(won.out.status).toBe('won');
    const line = rebuildLine(p, won.table.pathTo(won.out.goal), won.table, won.out.codec);
    expect(line).toEqual(['2-3', '2-3', '3-1']); // breadth-first: a shortest win
    expect(playLine(p, line)).toMatchObject({ ok: true, value: { won: true } });
  });

  it('once the pruned beam search runs dry, the complete stage takes over: it proves the loss in the same count as beam iterations that prune nothing, and finds a win they would find', () => {
    // SE4-1011 is lost: the beam alone, handing off, stops at its first iteration that drops nothing
    // (dead ends stored and searched as any position, so that both complete searches store every
    // reachable one)
    const lost = dealPosition(SE4, 1011);
    const n = reachable(lost); // 7,462
    const all = { deadEnds: false };
    const { out, table } = beamOver(lost, 1_000_000, { handOff: true, ...all });
    expect(out.status).toBe('exhausted');
    expect(out.iterations).toBe(7);
    expect(table.size).toBeLessThan(n);
    // the solve proves it lost over every reachable position, whichever complete search it runs
    const bfs = solve(lost, { maxPositions: 200_000 }, all);
    const beam = solve(lost, { maxPositions: 200_000 }, { complete: 'beam', ...all });
    expect([bfs.status, bfs.positions]).toEqual(['lost', n]);
    expect([beam.status, beam.positions]).toEqual(['lost', n]);
    // one position short of the reachable count, neither can prove it; exactly the count, both do
    // (a search stops when it needs one position more than the budget, not once the table holds it)
    expect([solve(lost, { maxPositions: n - 1 }, all).status, solve(lost, { maxPositions: n - 1 }, { complete: 'beam', ...all }).status]).toEqual(['undecided', 'undecided']);
    for (const complete of ['breadth-first', 'beam'] as const) {
      const r = solve(lost, { maxPositions: n }, { complete, ...all });
      expect([r.status, r.positions]).toEqual(['lost', n]);
    }
    // a budget below the quick stage's least (10,000) is the quick stage's whole: a table it fills goes on to the later stages
    expect(n).toBeLessThan(10_000);
    const r = solve(lost, { maxPositions: n }, all);
    expect([r.status, r.positions, r.line]).toEqual(['lost', n, []]);
    // clubs left: the win needs two moves without progress, so a beam cut at one runs dry, and the
    // complete search wins (no quick stage here, which would win it at once)
    const p = pos(SE4, [['', 'KC QC JC 10C 9C 8C 7C 6C 5C 4C'], ['', 'AC 2C'], ['', '3C'], '', '', '', ''], [], [0, 1, 2]);
    expect(beamOver(p, 1000, { idle: 1, firstWidth: 1000, handOff: true }).out.status).toBe('exhausted');
    const won = solve(p, { maxPositions: 1000 }, { quickShare: 0, idle: 1, firstWidth: 1000 });
    expect(won.status).toBe('won');
    expect(won.line).toEqual(['2-3', '2-3', '3-1']);
    expect(won.moveCount).toBe(3);
  });

  it('hands off to the complete stage when the budget left cannot hold the next iteration, and still spends the whole budget', () => {
    // SE4-1001 at 20,000: the 4th iteration leaves 2,723 positions of budget, fewer than it kept
    const p = dealPosition(SE4, 1001);
    const short = beamOver(p, 20_000, { handOff: true });
    expect([short.out.status, short.out.iterations, short.table.size]).toEqual(['exhausted', 4, 17_277]);
    // without the test (shortHandOff 0), a 5th iteration runs into the budget
    const full = beamOver(p, 20_000, { handOff: true, shortHandOff: 0 });
    expect([full.out.status, full.out.iterations, full.table.size]).toEqual(['undecided', 5, 20_000]);
    // the test only ends a beam that hands off: alone, the beam goes on as before
    expect(beamOver(p, 20_000).out.status).toBe('undecided');
    // the solve's complete stage spends the rest: undecided only when the budget is spent
    const r = solve(p, { maxPositions: 20_000 });
    expect([r.status, r.positions]).toEqual(['undecided', 20_000]);
  });

  it('reports its stages: the new positions each stored (together the solve\'s count), beam iterations, and how each ended', () => {
    const stages = (p: Position, max: number, tuning = {}) => {
      const r = solve(p, { maxPositions: max }, tuning);
      expect(r.stages.reduce((n, st) => n + st.positions, 0)).toBe(r.positions);
      return [r.status, r.stages.map((st) => [st.stage, st.positions, st.iterations, st.end])];
    };
    expect(stages(dealPosition(SE1, 1), 1_000_000)).toEqual(['won', [['quick', 65, null, 'won']]]);
    expect(stages(dealPosition(SP4, 3), 1_000_000)).toEqual(['won', [['quick', 10_000, null, 'share spent'], ['beam', 6594, 2, 'won']]]);
    // SE4-1011 is lost: the quick stage's pruned restarts run dry, then the pruned beam does, and the
    // complete stage proves it over the reachable positions that are not dead ends (2,972 of 7,462)
    expect(stages(dealPosition(SE4, 1011), 1_000_000)).toEqual(['lost', [['quick', 1364, null, 'ran dry'], ['beam', 1112, 6, 'ran dry'], ['complete', 496, null, 'lost']]]);
    // at exactly that count the beam's next iteration would not fit: it hands over sooner, and the
    // complete stage, which stores no dead end, proves the loss in fewer positions (2,679)
    expect(stages(dealPosition(SE4, 1011), 2972)).toEqual(['lost', [['quick', 1364, null, 'ran dry'], ['beam', 607, 4, 'budget short'], ['complete', 708, null, 'lost']]]);
    // with dead ends searched as any position, at exactly the 7,462 reachable positions the beam's next
    // iteration would not fit: it hands over sooner, and the proof is the same
    expect(stages(dealPosition(SE4, 1011), 7462, { deadEnds: false })).toEqual(['lost', [['quick', 1364, null, 'ran dry'], ['beam', 2956, 6, 'budget short'], ['complete', 3142, null, 'lost']]]);
    expect(stages(dealPosition(SE4, 1001), 20_000)).toEqual(['undecided', [['quick', 10_000, null, 'share spent'], ['beam', 9154, 3, 'budget short'], ['complete', 846, null, 'budget spent']]]);
    // a budget the quick stage fills: the later stages still run, over the positions it stored, and spend nothing
    expect(stages(dealPosition(SE4, 1001), 100)).toEqual(['undecided', [['quick', 100, null, 'budget spent'], ['beam', 0, 1, 'budget spent']]]);
    // the beam spends the budget to the last position and hands over; the complete stage stores none
    expect(stages(dealPosition(SE4, 53), 11_982, { deadEnds: false })).toEqual(['undecided', [['quick', 10_000, null, 'share spent'], ['beam', 1982, 2, 'budget short'], ['complete', 0, null, 'budget spent']]]);
  });

  it('the price of the hand-off: a win the next iteration would reach just inside the budget is given up', () => {
    // SE2-5069: without the hand-over (shortHandOff 0) it is won in 31,540 positions at any budget
    // from 31,540; with it the beam hands over before that iteration at budgets up to 32,879
    // (undecided, the budget spent), and from 32,880 wins as without it
    const p = dealPosition(SE2, 5069);
    const at = (max: number, shortHandOff?: number) => {
      const r = solve(p, { maxPositions: max }, shortHandOff === undefined ? {} : { shortHandOff });
      return [r.status, r.positions, r.line.length];
    };
    expect(at(40_000, 0)).toEqual(['won', 31_540, 76]);
    expect(at(31_540, 0)).toEqual(['won', 31_540, 76]);
    expect(at(31_539, 0)).toEqual(['undecided', 31_539, 0]);
    expect(at(31_540)).toEqual(['undecided', 31_540, 0]);
    expect(at(32_879)).toEqual(['undecided', 32_879, 0]);
    expect(at(32_880)).toEqual(['won', 31_540, 76]);
  });

  it('never answers lost from a pruned search: the quick stage that runs dry is undecided', () => {
    const p = pos(
      SE4,
      [['QC', 'KC'], ['10C', 'JC'], ['8C', '9C'], ['6C', '7C'], ['4C', '5C'], ['2C', '3C'], ['', 'AC']],
      [],
      [0, 1, 2],
    );
    expect(search(p, 1000, true).status).toBe('lost');
    expect(restartSearch(p, 1000).status).toBe('undecided');
    expect(solve(p, { maxPositions: 1000 }).status).toBe('lost');
  });

  it('the beam search alone wins seeded 2-suit Spider deals, with lines rebuilt from the table that replay to a win', () => {
    for (const seed of [1, 2, 3]) {
      const p = dealPosition(SP2, seed);
      const { out: r, table } = beamOver(p, 167_000);
      expect(r.status).toBe('won');
      const line = rebuildLine(p, table.pathTo(r.goal), table, r.codec);
      const played = playLine(p, line);
      expect(played.ok && played.value.won).toBe(true);
    }
  });

  it('keying a level lazily (scoring its children, keying those it keeps) changes no answer, count or line: always lazy, never lazy and the default agree', () => {
    // won and lost deals of both games, and a deal cut by its budget
    const cases: [Position, number][] = [
      [dealPosition(SP2, 1), 167_000],
      [dealPosition(SP4, 8), 30_000],
      [dealPosition(SP4, 6), 30_000],
      [dealPosition(SE4, 1011), 50_000],
      [dealPosition(SE4, 6), 30_000],
    ];
    const statuses = new Set<string>();
    for (const [p, max] of cases) {
      const runs = [0, Infinity, undefined].map((lazyRatio) => {
        const { out, table } = beamOver(p, max, { lazyRatio });
        return { status: out.status, size: table.size, iterations: out.iterations, line: out.status === 'won' ? rebuildLine(p, table.pathTo(out.goal), table, out.codec) : [] };
      });
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[2]).toEqual(runs[0]);
      statuses.add(runs[0]!.status);
    }
    expect([...statuses].sort()).toEqual(['lost', 'undecided', 'won']);
  });

  it('the depth-first search leaves out the move back to the parent: the same answer, counts and line, with its noise, in fewer tries', () => {
    // pruning and not: the pruned one-suit search lists no move back here (a run split onto a card is pruned)
    const cases = [[SE1, false], [SE2, true], [SE2, false], [SE4, true], [SP1, true], [SP2, true], [SP4, true], [SP4, false]] as const;
    for (const [v, prune] of cases) {
      const p = dealPosition(v, 7);
      const run = (skipBack: boolean) => search(p, 5000, prune, 3, 3, new ColumnStore(), undefined, undefined, 5000, skipBack);
      const without = run(false);
      const skip = run(true);
      expect([skip.status, skip.positions, skip.entered, skip.moves]).toEqual([without.status, without.positions, without.entered, without.moves]);
      expect(skip.tried).toBeLessThan(without.tried);
      // every try enters a position or meets a visited one: no fewer than those entered (less the start)
      expect(skip.tried).toBeGreaterThanOrEqual(skip.entered - 1);
    }
  });

  it('the complete stage leaves out the move back to the parent: the same answer and count (SE4-1011 lost in 7,462), the same line, in fewer tries', () => {
    // (dead ends stored and searched as any position)
    const over = (p: Position, max: number, skipBack: boolean) => {
      const store = new ColumnStore();
      const codec = new KeyCodec(new SolverState(p), undefined, true, store);
      const table = new PositionTable(1000, (a, o) => codec.keyLength(a, o));
      const out = completeSearch(p, max, table, store, skipBack, true, false);
      return { out, size: table.size, line: out.status === 'won' ? rebuildLine(p, table.pathTo(out.goal), table, out.codec) : [] };
    };
    const lost = dealPosition(SE4, 1011);
    const a = over(lost, 1_000_000, false);
    const b = over(lost, 1_000_000, true);
    expect([a.out.status, a.size, b.out.status, b.size]).toEqual(['lost', 7462, 'lost', 7462]);
    expect(b.out.tried).toBeLessThan(a.out.tried);
    // the stock empty, its columns are sorted in the key: the move back is found by the columns as decoded
    const p = pos(SE4, [['', 'KC QC JC 10C 9C 8C 7C 6C 5C 4C'], ['', 'AC 2C'], ['', '3C'], '', '', '', ''], [], [0, 1, 2]);
    const w0 = over(p, 1000, false);
    const w1 = over(p, 1000, true);
    expect(w1.line).toEqual(['2-3', '2-3', '3-1']);
    expect([w1.out.status, w1.size, w1.line]).toEqual([w0.out.status, w0.size, w0.line]);
    expect(w1.out.tried).toBeLessThan(w0.out.tried);
  });

  it('ends a depth-first search once it has left maxLeft positions behind, and the quick stage ends each restart so', () => {
    const p = dealPosition(SE2, 3001);
    const run = (maxLeft: number) => search(p, 100_000, true, 0, 0, new ColumnStore(), undefined, undefined, 150, true, maxLeft);
    // left behind: entered, and no longer on the path (the line's positions are its moves plus the start)
    const left = (o: ReturnType<typeof run>) => o.entered - o.moves.length - 1;
    // checked as it enters a position: it stops at the first one entered with 10 or more behind it
    const ten = run(10);
    expect([ten.status, ten.entered, ten.moves.length, left(ten)]).toEqual(['undecided', 47, 35, 11]);
    const many = run(45);
    expect([many.status, many.entered, left(many)]).toEqual(['undecided', 80, 46]);
    // without it, the limit of 150 positions entered ends the search, 114 of them left behind
    const none = run(Infinity);
    expect([none.status, none.entered, left(none)]).toEqual(['undecided', 150, 114]);
    // the restarts, each ending at 0.3 of its limit left behind: won in 248 positions (restarts that
    // run to their limits take 422, winning in the third restart)
    const r = restartSearch(p, 10_000);
    expect([r.status, r.positions]).toEqual(['won', 248]);
    expect(RESTART_LEFT).toBe(0.3);
    const played = playLine(p, lineText(p, r.moves));
    expect(played.ok && played.value.won).toBe(true);
  });

  it('the quick stage wins a 1-suit Spider deal in few positions, and the same seed gives the same line', () => {
    const p = dealPosition(SP1, 1);
    const a = restartSearch(p, 50_000);
    const b = restartSearch(p, 50_000);
    expect(a.status).toBe('won');
    expect(a.positions).toBeLessThan(50_000);
    expect(b.positions).toBe(a.positions);
    expect(lineText(p, b.moves)).toEqual(lineText(p, a.moves));
    const played = playLine(p, lineText(p, a.moves));
    expect(played.ok && played.value.won).toBe(true);
  });
});

describe('solver: move generation and packed positions', () => {
  it('takes back a deal that completed a suit after a later deal was played and taken back: each deal keeps its own undo record (SE1-77274)', () => {
    // the first deal's Ace completes column 1's run (R14) and turns up its face-down card (R11); the
    // second deal completes nothing: one shared record made the first deal's undo forget both
    const p = pos(SE1, [['5S', 'KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S'], ['', '9S'], ['', '9S'], ['', '9S'], ['', '10S'], ['', '10S'], ['', '10S']], ['AS 3S 3S 3S 3S 4S 4S', '7S 7S 7S 8S 8S 8S 6S']);
    const s = new SolverState(p);
    const snap = () => JSON.stringify([Array.from(s.down), Array.from({ length: s.ncols }, (_, c) => Array.from(s.up.subarray(c * CAP, c * CAP + s.upLen[c]!))), s.stockLeft, s.removed]);
    const start = snap();
    const t1 = s.apply(DEAL_MOVE);
    expect([s.removed, s.down[0], s.upLen[0], s.up[0]]).toEqual([1, 0, 1, cards('5S')[0]]);
    const afterFirst = snap();
    const t2 = s.apply(DEAL_MOVE);
    s.undo(DEAL_MOVE, t2);
    expect(snap()).toBe(afterFirst);
    s.undo(DEAL_MOVE, t1);
    expect(snap()).toBe(start);
    // and in the quick stage, whose depth-first line takes deals back so: SE1-77274 is won with a line
    // that replays (it was "won" with one that did not)
    const r = solve(dealPosition(SE1, 77274), { maxPositions: 1000 });
    expect([r.status, r.positions, r.moveCount]).toEqual(['won', 72, 57]);
  });

  it('grouped generation lists the same moves in the same order, a run\'s splits into an empty column as one entry, each of which scores SPLIT_TO_EMPTY pruning or not (the depth-first pass scores groups without moveOrder)', () => {
    const rand = mulberry32(7);
    const buf = new Int32Array(1024);
    const gbuf = new Int32Array(1024);
    let checked = 0;
    let groups = 0;
    for (const v of ALL_VARIANTS) {
      for (let seed = 1; seed <= 6; seed++) {
        const s = new SolverState(dealPosition(v, seed));
        for (let step = 0; step < 200; step++) {
          const n = s.generate(buf, true);
          if (n === 0) break;
          const g = s.generate(gbuf, true, true);
          const expanded: number[] = [];
          for (let i = 0; i < g; i++) {
            const e = gbuf[i]!;
            if (e === DEAL_MOVE || !(e & SPLIT_GROUP)) {
              expanded.push(e);
              continue;
            }
            groups++;
            const to = (e >> 5) & 31;
            expect(s.upLen[to]).toBe(0);
            for (let k = 12; k >= 1; k--) {
              if (!(e & (1 << (9 + k)))) continue;
              const m = groupMove(e, k);
              expect(k).toBeLessThan(s.runLength(e & 31));
              expect(moveOrder(s, m, PRUNE_QUICK)).toBe(SPLIT_TO_EMPTY);
              expect(moveOrder(s, m, PRUNE_BEAM)).toBe(SPLIT_TO_EMPTY);
              expect(moveOrder(s, m, PRUNE_NONE)).toBe(SPLIT_TO_EMPTY);
              expanded.push(m);
              checked++;
            }
          }
          expect(expanded).toEqual(Array.from(buf.subarray(0, n)));
          s.apply(buf[Math.floor(rand() * n)]!);
        }
      }
    }
    expect(groups).toBeGreaterThan(200); // 213 with these seeds
    expect(checked).toBeGreaterThan(500); // 567 with these seeds
  });

  it('prunes a lateral move (8S off 9H onto another 9H) in Spider always, in Spiderette only in the quick stage, and keeps it when the card it uncovers can take a card of its own suit', () => {
    const cols = (n: number, extra: ColumnSpec[] = []): ColumnSpec[] => [['AS', '9H 8S'], ['AH', '9H'], ...extra, ...Array.from({ length: n - 2 - extra.length }, (): ColumnSpec => ['', 'KS'])];
    const lateral = packMove(0, 1, 1);
    const se = new SolverState(pos(SE2, cols(7)));
    expect(moveOrder(se, lateral, PRUNE_NONE)).toBe(0);
    expect(moveOrder(se, lateral, PRUNE_BEAM)).toBe(0);
    expect(moveOrder(se, lateral, PRUNE_QUICK)).toBe(PRUNED);
    const sp = new SolverState(pos(SP2, cols(10)));
    expect(moveOrder(sp, lateral, PRUNE_NONE)).toBe(0);
    expect(moveOrder(sp, lateral, PRUNE_BEAM)).toBe(PRUNED);
    expect(moveOrder(sp, lateral, PRUNE_QUICK)).toBe(PRUNED);
    // an 8H on top elsewhere could go onto the 9H the move uncovers: kept
    const recv = new SolverState(pos(SE2, cols(7, [['', '8H']])));
    expect(moveOrder(recv, lateral, PRUNE_QUICK)).toBe(0);
  });

  it('the depth-first search takes noise of 0 to 3 only (a group keeps 2 bits of noise a move)', () => {
    expect(() => search(dealPosition(SP1, 1), 100, true, 1, 4)).toThrow(RangeError);
    expect(search(dealPosition(SP1, 1), 100, true, 1, 3).positions).toBe(100);
  });

  it('generates exactly the rules engine\'s legal moves, and make/unmake restores, on 10,000+ random positions of all six variants', () => {
    const rand = mulberry32(2026);
    let checked = 0;
    let reversed = 0;
    let moved = 0;
    const buf = new Int32Array(1024);
    const buf2 = new Int32Array(1024);
    for (const v of ALL_VARIANTS) {
      for (let seed = 1; seed <= 14; seed++) {
        let p = dealPosition(v, seed);
        const s = new SolverState(p);
        const codec = new KeyCodec(s);
        const s2 = new SolverState(p);
        const scratch = new SolverState(p);
        for (let step = 0; step < 150; step++) {
          const expected = legalMoves(p).map((m) => moveText(p, m)).sort();
          const n = s.generate(buf, false);
          const got = Array.from(buf.subarray(0, n), (m) => packedText(s, m)).sort();
          expect(got).toEqual(expected);
          // children's keys are built from the parent's cached columns (in place, or beside them after commit)
          codec.encode(s);
          if (step % 2) codec.commit(s);
          for (let i = 0; i < n; i++) {
            const tok = s.apply(buf[i]!);
            // the key built from cached columns equals the key built uncached
            const nw = codec.encode(s);
            const cached = Array.from(codec.buf.subarray(0, nw));
            const score = codec.score;
            expect(uncachedKey(codec, s, scratch)).toEqual(cached);
            expect(codec.score).toBe(score);
            // the move back that the best-first search skips leads to the parent, in decoded columns
            if (tok === 0 && buf[i] !== DEAL_MOVE) {
              let tag = reverseTag(s, buf[i]!);
              if (tag !== NO_REVERSE) {
                codec.encode(s);
                tag = codec.decodedTag(tag);
                const child = codec.buf.slice(0, nw + 1);
                const back = new SolverState(p);
                codec.decode(child, 0, back);
                const nb = back.generate(buf2, true);
                const mv = Array.from(buf2.subarray(0, nb)).filter((x) => moveTag(x) === tag);
                expect(mv.length).toBe(1);
                back.apply(mv[0]!);
                s.undo(buf[i]!, tok);
                expect(uncachedKey(codec, back, scratch)).toEqual(uncachedKey(codec, s, scratch));
                reversed++;
                continue;
              }
            }
            s.undo(buf[i]!, tok);
          }
          expect(same(s, p)).toBe(true);
          // the key decodes to the same position
          const nw = codec.encode(s);
          const key = codec.buf.slice(0, nw);
          expect(codec.keyLength(key, 0)).toBe(nw);
          codec.decode(key, 0, s2);
          expect(Array.from(codec.buf.subarray(0, codec.encode(s2)))).toEqual(Array.from(key));
          // children of a decoded position: keys built from the columns cached by decode
          codec.decode(key, 0, s2);
          // the lazy beam's parent counts, column by column, and hidden set
          const colCounts = Array.from({ length: s2.ncols }, (_, c) => codec.columnCounts(s2, c));
          const parentCounts = colCounts.reduce((a, b) => a + b, 0);
          const parentHidden = hiddenSet(s2);
          const n2 = s2.generate(buf2, true);
          for (let i = 0; i < n2; i++) {
            const m = buf2[i]!;
            const tok = s2.apply(m);
            // the lazy beam's score of a child, from the parent's cached columns and the changed ones' cards
            codec.evaluate(s2);
            const lazyScore = codec.score;
            const lazyDown = codec.downLeft;
            // and from the parent's counts less the moved columns' before the move, plus theirs after it
            let movedScore = lazyScore;
            let movedDown = lazyDown;
            if (m !== DEAL_MOVE) {
              const from = m & 31;
              const to = (m >> 5) & 31;
              codec.scoreCounts(s2, parentCounts - colCounts[from]! - colCounts[to]! + codec.columnCounts(s2, from) + codec.columnCounts(s2, to));
              movedScore = codec.score;
              movedDown = codec.downLeft;
              moved++;
            }
            // a move that turns no card up, completes no suit and deals none keeps the hidden set
            if (tok === 0 && m !== DEAL_MOVE) expect(hiddenSet(s2)).toBe(parentHidden);
            const nw2 = codec.encode(s2);
            expect(lazyScore).toBe(codec.score);
            expect(lazyDown).toBe(codec.downLeft);
            expect(movedScore).toBe(codec.score);
            expect(movedDown).toBe(codec.downLeft);
            const cached = Array.from(codec.buf.subarray(0, nw2));
            expect(uncachedKey(codec, s2, scratch)).toEqual(cached);
            s2.undo(buf2[i]!, tok);
          }
          if (p.stock.length > 0) expect(same(s2, p)).toBe(true);
          checked++;
          const legal = legalMoves(p);
          if (!legal.length) break;
          const mv = legal[Math.floor(rand() * legal.length)]!;
          const text = moveText(p, mv);
          const idx = Array.from(buf.subarray(0, n)).findIndex((m) => packedText(s, m) === text);
          s.apply(buf[idx]!);
          p = applyMove(p, mv).position;
          expect(same(s, p)).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10_000);
    expect(reversed).toBeGreaterThan(1000);
    expect(moved).toBeGreaterThan(10_000);
    // (some seconds of CPU, the most of any quick test: the longer limit is for a machine shared with other work)
  }, 300_000);

  it('keys are canonical among the columns no deal left reaches: permuting those with no face-down card gives the same key', () => {
    const a = pos(SE4, [['', 'KC QC'], ['', '5H'], ['3D', '9S'], '', ['', '7D'], ['', 'AS'], ['', '2C']], [], [0, 1]);
    const b = pos(SE4, [['', '7D'], ['', 'AS'], ['3D', '9S'], ['', '2C'], '', ['', 'KC QC'], ['', '5H']], [], [0, 1]);
    // (ids name columns within one codec: both keys come from one)
    const k = new KeyCodec(new SolverState(a));
    const ka = Array.from(k.buf.subarray(0, k.encode(new SolverState(a))));
    const kb = Array.from(k.buf.subarray(0, k.encode(new SolverState(b))));
    expect(kb).toEqual(ka);
    // ... but not while the stock still deals card i onto column i
    const c = pos(SE4, [['', 'KC QC'], ['', '5H'], ['3D', '9S'], ['', '4S'], ['', '7D'], ['', 'AS'], ['', '2C']], [['JH', 'JD', 'JS']], [0]);
    const d = pos(SE4, [['', '5H'], ['', 'KC QC'], ['3D', '9S'], ['', '4S'], ['', '7D'], ['', 'AS'], ['', '2C']], [['JH', 'JD', 'JS']], [0]);
    const kc = new KeyCodec(new SolverState(c));
    const n1 = kc.encode(new SolverState(c));
    const first = Array.from(kc.buf.subarray(0, n1));
    const n2 = kc.encode(new SolverState(d));
    expect(Array.from(kc.buf.subarray(0, n2))).not.toEqual(first);
    // ... except among the columns that no deal left reaches: Spiderette's last deal covers columns
    // 1-3 only (R12), so columns 4-7 with no face-down card are interchangeable before it
    const e = pos(SE4, [['', 'KC QC'], ['', '5H'], ['3D', '9S'], ['', '7D'], ['', '4S'], ['', '2C'], ['', 'AS']], [['JH', 'JD', 'JS']], [0]);
    const n3 = kc.encode(new SolverState(e));
    expect(Array.from(kc.buf.subarray(0, n3))).toEqual(first);
  });

  it('interchangeable columns whose first three runs are equal are ordered by their fourth run', () => {
    // two decks, stock empty: every column is interchangeable; runs KC, QH, JS, then 10D or 9D
    const ten = ['', 'KC QH JS 10D'] as const;
    const nine = ['', 'KC QH JS 9D'] as const;
    const a = pos(SP4, [ten, '', nine, '', '', '', '', '', '', ''], [], [0, 1, 2, 3, 0, 1]);
    const b = pos(SP4, ['', nine, '', '', '', '', '', ten, '', ''], [], [0, 1, 2, 3, 0, 1]);
    const k = new KeyCodec(new SolverState(a));
    const ka = Array.from(k.buf.subarray(0, k.encode(new SolverState(a))));
    expect(Array.from(k.buf.subarray(0, k.encode(new SolverState(b))))).toEqual(ka);
    // decoded, the sorted columns come out in order: 9D's column (the lower fourth run) first
    const s = new SolverState(a);
    k.decode(Uint32Array.from(ka), 0, s);
    const up = (c: number) => Array.from(s.up.subarray(c * CAP, c * CAP + s.upLen[c]!));
    const filled = [...Array(10).keys()].filter((c) => s.upLen[c]! > 0);
    const src = new SolverState(a);
    const cardsAt = (c: number) => Array.from(src.up.subarray(c * CAP, c * CAP + 4));
    expect(filled.map(up)).toEqual([cardsAt(2), cardsAt(0)]);
    expect(cardsAt(2)).not.toEqual(cardsAt(0));
  });

  it('moves into an empty column go to the first of the interchangeable empty ones only, and to each of the others (R12)', () => {
    // Spiderette with only the 3-card deal left: empty columns 2 (which the deal reaches), 4 and 6
    const p = pos(SE4, [['', 'KC QC'], '', ['3D', '9S'], '', ['', '7D'], '', ['2H', 'AS']], [['JH', 'JD', 'JS']], [0]);
    const intoEmpty = (reduce: boolean) => {
      const s = new SolverState(p);
      const buf = new Int32Array(256);
      const n = s.generate(buf, reduce);
      const out: string[] = [];
      for (const m of buf.subarray(0, n)) {
        const to = (m >> 5) & 31;
        if (m !== DEAL_MOVE && s.upLen[to] === 0) out.push(`${(m & 31) + 1}-${to + 1}x${m >> 10}`);
      }
      return out;
    };
    expect(intoEmpty(false)).toEqual(['1-2x2', '1-2x1', '1-4x2', '1-4x1', '1-6x2', '1-6x1', '3-2x1', '3-4x1', '3-6x1', '5-2x1', '5-4x1', '5-6x1', '7-2x1', '7-4x1', '7-6x1']);
    // column 6 is column 4's twin; column 5 (no face-down card) moved whole into 4 is the same
    // position with the two columns swapped, so that move is left out too
    expect(intoEmpty(true)).toEqual(['1-2x2', '1-2x1', '1-4x2', '1-4x1', '3-2x1', '3-4x1', '5-2x1', '7-2x1', '7-4x1']);
  });

  it('keys name columns by id: past 2^15 distinct columns an id takes two units, and keys still measure and decode right', () => {
    const p = dealPosition(SE4, 1);
    const s = new SolverState(p);
    const back = new SolverState(p);
    const codec = new KeyCodec(s);
    const lengths = new Set<number>();
    for (let i = 0; i < 40_000; i++) {
      // column 1 gets 40,000 different contents of three cards
      s.upLen[0] = 3;
      s.up[0] = i % 52;
      s.up[1] = Math.floor(i / 52) % 52;
      s.up[2] = Math.floor(i / 2704) % 52;
      s.touchAll();
      const nw = codec.encode(s);
      const key = codec.buf.slice(0, nw + 1);
      expect(codec.keyLength(key, 0)).toBe(nw);
      lengths.add(nw);
      if (i % 997 === 0 || i >= 39_990) {
        codec.decode(key, 0, back);
        expect(Array.from(back.up.subarray(0, 3))).toEqual(Array.from(s.up.subarray(0, 3)));
        for (let c = 1; c < 7; c++) expect([back.down[c], back.upLen[c]]).toEqual([s.down[c], s.upLen[c]]);
      }
    }
    expect(codec.store.size).toBe(40_000 + 6);
    // stock and mask, 7 ids: 8 units, 4 words; with an id past 2^15, 9 units, 5 words
    expect([...lengths].sort()).toEqual([4, 5]);
  });

  it('the evaluation is the documented sum: face-down cards, rank and suit breaks, stock cards, removed suits, empty columns, buried runs', () => {
    const rand = mulberry32(99);
    const buf = new Int32Array(1024);
    const w = { down: 7, rankBreak: 5, suitBreak: 3, stockCard: 2, removed: 20, empty: 11, buried: 13 };
    let checked = 0;
    for (const v of ALL_VARIANTS) {
      const s = new SolverState(dealPosition(v, 3));
      const codec = new KeyCodec(s, w);
      for (let step = 0; step < 300; step++) {
        codec.encode(s);
        // the same sum counted card by card
        let down = 0;
        let rankBreaks = 0;
        let suitBreaks = 0;
        let empties = 0;
        let buried = 0;
        for (let c = 0; c < s.ncols; c++) {
          const len = s.upLen[c]!;
          down += s.down[c]!;
          if (len === 0) empties++;
          let runs = len > 0 ? 1 : 0;
          for (let i = 1; i < len; i++) {
            const lower = s.up[c * CAP + i]!;
            const upper = s.up[c * CAP + i - 1]!;
            if (upper === lower + 1 && lower % 13 !== 12) continue;
            runs++;
            if (lower % 13 + 1 === upper % 13) suitBreaks++;
            else rankBreaks++;
          }
          if (s.down[c]! > 0) buried += runs;
        }
        let stockCards = 0;
        if (s.stockLeft > 0) stockCards = s.stockStart[s.totalDeals]! - s.stockStart[s.totalDeals - s.stockLeft]!;
        const expected = w.removed * s.completeSuits + w.empty * s.ncols + w.down * down + w.rankBreak * rankBreaks + w.suitBreak * suitBreaks + w.stockCard * stockCards - w.removed * s.removed - w.empty * empties + w.buried * buried;
        expect(codec.score).toBe(expected);
        // evaluate, with no column cached (every column counted from its cards), sums the same
        const fresh = new KeyCodec(s, w);
        fresh.evaluate(s);
        expect(fresh.score).toBe(expected);
        expect(fresh.downLeft).toBe(down);
        checked++;
        const n = s.generate(buf, true);
        if (n === 0) break;
        s.apply(buf[Math.floor(rand() * n)]!);
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('a key has room for 10 columns and 63 stock deals: a codec for more is refused', () => {
    const shape = (ncols: number, totalDeals: number) => ({ ncols, totalDeals, completeSuits: 8 }) as unknown as SolverState;
    expect(() => new KeyCodec(shape(11, 5))).toThrow(RangeError);
    expect(() => new KeyCodec(shape(10, 64))).toThrow(RangeError);
    expect(new KeyCodec(shape(10, 63)).ncols).toBe(10);
  });

  it('the table stores keys exactly: equal keys are found, different keys sharing a prefix are not merged', () => {
    const t = new PositionTable(16, () => 3);
    const k1 = Uint32Array.from([1, 2, 3]);
    const k2 = Uint32Array.from([1, 2, 4]);
    expect(t.insert(k1, 3, 0)).toBe(0);
    expect(t.insert(k2, 3, 0)).toBe(5); // two header words, then the 3 key words
    expect(t.parent(5)).toBe(0);
    expect(t.insert(k1, 3, 0)).toBe(-1);
    for (let i = 0; i < 5000; i++) t.insert(Uint32Array.from([i, i * 7, 99]), 3, 0);
    expect(t.size).toBe(5002);
    expect(t.insert(Uint32Array.from([4999, 4999 * 7, 99]), 3, 0)).toBe(-1);
  });

  it('the table finds every key as it grows: its arena outgrows the offset bits of its slots (hash bits give way) and its slots are rehashed', () => {
    // made for 1,000 positions: 100,000 make the slots grow (rehash) and the arena outgrow 16 offset bits
    const t = new PositionTable(1_000, () => 3);
    const key = (i: number) => Uint32Array.from([i, i ^ 0x5555, 7]);
    // 100,000 nodes of 5 words; every key stays found at every size
    for (let i = 0; i < 100_000; i++) {
      expect(t.insert(key(i), 3, i)).toBe(i * 5);
      expect(t.find(key(i >> 1), 3)).toBe((i >> 1) * 5);
    }
    for (let i = 0; i < 100_000; i += 997) {
      expect(t.find(key(i), 3)).toBe(i * 5);
      expect(t.insert(key(i), 3, 0)).toBe(-1);
      expect(t.parent(i * 5)).toBe(i);
    }
    expect(t.find(key(100_000), 3)).toBe(-1);
    expect(t.size).toBe(100_000);
  });

  it('visit enters a position once an iteration: stored once (counted once), entered again free by a later stamp, with its parent rewritten', () => {
    const t = new PositionTable(16, () => 2);
    const a = Uint32Array.from([7, 8]);
    const b = Uint32Array.from([0, 7, 9]);
    const s1 = t.newStamp();
    const s2 = t.newStamp();
    expect(s2).toBe(s1 + 1);
    const na = t.visit(a, 2, 0, s1);
    expect([na, t.size, t.stamp(na)]).toEqual([0, 1, s1]);
    expect(t.visit(a, 2, 0, s1)).toBe(-1);
    // a key read at an offset
    const nb = t.visit(b, 2, na, s1, 1);
    expect([nb, t.size, t.parent(nb)]).toEqual([4, 2, na]);
    // the next iteration enters both again without storing them, from another parent
    expect(t.visit(a, 2, 0, s2)).toBe(na);
    expect(t.visit(Uint32Array.from([7, 9]), 2, 99, s2)).toBe(nb);
    expect([t.size, t.parent(nb), t.stamp(nb)]).toEqual([2, 99, s2]);
    expect(t.visit(a, 2, 0, s2)).toBe(-1);
    t.setRoot(na, s2);
    expect(t.pathTo(na)).toEqual([na]);
  });

  it('shortenLine cuts loops and takes one-move shortcuts to later positions of a winning line', () => {
    const p = pos(SE1, [['', run('S', 2)], ['', 'AS'], '', '', '', '', ''], [], [0, 0, 0]);
    // out to an empty column and back, then the win: the loop goes
    const loop = ['2-3x1', '3-2x1', '2-1'];
    expect(playLine(p, loop).ok).toBe(true);
    expect(shortenLine(p, loop)).toEqual(['2-1']);
    // a detour through column 4: one move reaches the end at once
    const detour = ['2-4x1', '4-1'];
    expect(shortenLine(p, detour)).toEqual(['2-1']);
    // a line already short is kept
    expect(shortenLine(p, ['2-1'])).toEqual(['2-1']);
  });

  it('shortenLine takes the shortcuts a plain search of the positions along the line finds (random lines in every variant)', () => {
    // the reference: positions compared card for card through the rules engine, every legal move
    // tried at each step, the farthest later position taken (at most one move reaches a position)
    const keyOf = (q: Position) => JSON.stringify([q.columns, q.stock.length]);
    const reference = (positions: readonly Position[], moves: readonly Move[]): string[] => {
      const last = new Map<string, number>();
      positions.forEach((q, i) => last.set(keyOf(q), i));
      const out: string[] = [];
      let cur = positions[0]!;
      let i = 0;
      while (i < moves.length) {
        const same = last.get(keyOf(cur))!;
        if (same > i) {
          i = same;
          continue;
        }
        let best = i + 1;
        let bestMove = moves[i]!;
        for (const m of legalMoves(cur)) {
          const j = last.get(keyOf(applyMove(cur, m).position)) ?? -1;
          if (j > best) {
            best = j;
            bestMove = m;
          }
        }
        out.push(moveText(cur, bestMove));
        cur = applyMove(cur, bestMove).position;
        i = best;
      }
      return out;
    };
    let cut = 0;
    for (const v of ALL_VARIANTS) {
      for (const seed of [1, 2]) {
        const rnd = mulberry32(seed * 7919 + v.columns * 31 + v.suits);
        let p = dealPosition(v, seed);
        const positions = [p];
        const moves: Move[] = [];
        const line: string[] = [];
        for (let k = 0; k < 250; k++) {
          const ms = legalMoves(p);
          if (ms.length === 0) break;
          const m = ms[Math.floor(rnd() * ms.length)]!;
          line.push(moveText(p, m));
          p = applyMove(p, m).position;
          positions.push(p);
          moves.push(m);
        }
        const expected = reference(positions, moves);
        expect(shortenLine(positions[0]!, line), `${v.game}-${v.suits} seed ${seed}`).toEqual(expected);
        if (expected.length < line.length) cut++;
      }
    }
    // (random play wanders: nearly every line has a shortcut)
    expect(cut).toBeGreaterThanOrEqual(10);
  });

  it('shortenLine takes a shortcut that turns a card up, and jumps over a detour before a deal', () => {
    // JH goes to column 3, turning up column 1's QS, then on to column 2: one move does both
    const p = pos(SE2, [['QS', 'JH'], ['', 'QH'], ['', 'QS'], ['', 'KH'], ['', 'KS'], ['', 'KH'], ['', 'KS']]);
    expect(shortenLine(p, ['1-3', '3-2'])).toEqual(['1-2']);
    // out to column 2 and back, then the deal: the detour goes
    const q = pos(SE1, [['', 'KS'], ['', 'QS'], ['', 'JS'], ['', 'TS'], ['', '9S'], ['', '8S'], ['', '7S']], [['AS', '2S', '3S']], [0, 0]);
    expect(shortenLine(q, ['2-1', '1-2x1', 'd'])).toEqual(['d']);
  });

  it('solve reports shortened lines that still replay to a win', () => {
    const p = dealPosition(SP2, 5);
    const r = solve(p, { maxPositions: 100_000 });
    expect(r.status).toBe('won');
    expect(shortenLine(p, r.line)).toEqual(r.line);
    const played = playLine(p, r.line);
    expect(played.ok && played.value.won).toBe(true);
  });

  it('lineText writes the notation with counts into empty columns only', () => {
    const p = pos(SE1, [['', run('S', 2)], ['', 'AS'], '', '', '', '', ''], [], [0, 0, 0]);
    const out = search(p, 100, false);
    expect(out.status).toBe('won');
    expect(lineText(p, out.moves)).toEqual(['2-1']);
  });
});
