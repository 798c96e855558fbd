/**
 * Dead ends (SolverState.deadEnd, docs/solver.md "Dead ends"): a position with the stock empty and no
 * empty column from which no card can turn up, no column empty and no suit complete, so that no win
 * is reachable. The test is only sound if it never calls a position dead from which such an event is
 * reachable: checked here by exhaustive searches through the rules engine, on hand-built positions and
 * on positions of random games of all six variants.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { dealPosition } from '../src/game/deal.js';
import type { Position } from '../src/game/position.js';
import { applyMove, legalMoves } from '../src/game/rules.js';
import type { Variant } from '../src/game/variant.js';
import { confirmLoss } from '../src/solver/confirm.js';
import { solve } from '../src/solver/solve.js';
import { SolverState } from '../src/solver/state.js';
import { pos, SE1, SE2, SE4, SP1, SP2, SP4 } from './helpers/game.js';

const dead = (p: Position) => new SolverState(p).deadEnd();

/**
 * Every position reachable from `p` by the rules engine, breadth-first, up to `limit` positions:
 * whether some move turns a card up, removes a suit or empties a column ('event'), none does ('none'),
 * or the positions outgrew the limit ('too large').
 */
function firstEvent(p: Position, limit: number): 'event' | 'none' | 'too large' {
  const key = (q: Position) => JSON.stringify([q.columns, q.stock]);
  const seen = new Set([key(p)]);
  const queue = [p];
  for (let head = 0; head < queue.length; head++) {
    const q = queue[head]!;
    for (const m of legalMoves(q)) {
      const { position, effects } = applyMove(q, m);
      if (effects.flips > 0 || effects.removed.length > 0 || position.columns.some((c) => c.up.length === 0 && c.down.length === 0)) return 'event';
      const k = key(position);
      if (seen.has(k)) continue;
      if (seen.size >= limit) return 'too large';
      seen.add(k);
      queue.push(position);
    }
  }
  return 'none';
}

// Spiderette, four suits, the stock empty. Columns 1-4: a King lowest over a face-down card, which
// only an empty column takes (R10), the Queen of spades moving between them; column 6: the 4 of hearts,
// every 5 face down; column 7: the 7 of clubs, every 8 face down; column 5 as each test gives it
const layout = (col5: readonly [string, string], stock: string[] = []) => pos(SE4, [
  ['2S', 'KS'], ['3S', 'KH'], ['4S', 'KD QS'], ['5S', 'KC'], col5, ['7S 5H 5D 5C', '4H'], ['8S 8H 8D', '7C'],
], stock);
// column 5: the Jack of hearts under the 10 of spades under the 9 of hearts, every other 10 and Jack
// face down: the 9 has nowhere to go (the 10 under it is the only one face up), so neither has the 10
const buried = layout(['6S 8C JS JD JC 10H 10D 10C', 'JH 10S 9H']);

describe('deadEnd: hand-built positions', () => {
  it('a position whose cards can only move between Kings is a dead end, and the rules engine agrees', () => {
    expect(legalMoves(buried).length).toBeGreaterThan(0);
    expect(dead(buried)).toBe(true);
    expect(firstEvent(buried, 10_000)).toBe('none');
    // the solver proves it lost in 2 positions (the start and one its quick stage stored; the beam
    // leaves the dead start unexpanded), the search without reductions over all 4 the Queen reaches
    expect(solve(buried, { maxPositions: 1000 })).toMatchObject({ status: 'lost', positions: 2 });
    expect(confirmLoss(buried, 1000)).toMatchObject({ status: 'lost', positions: 4 });
  });

  it('stops the tidying lines of a world whose stock was taken away: the blind player\'s vote without the stock solves without it', () => {
    // the Queen of spades can go onto the King of spades (a run, one evaluation point better); with
    // the dead ends the dead start is not expanded, so the progress line is empty
    expect(solve(buried, { maxPositions: 1000, progress: true }).progress).toEqual({ line: [], gain: 0 });
    expect(solve(buried, { maxPositions: 1000, progress: true }, { deadEnds: false }).progress).toEqual({ line: ['3-1'], gain: 1 });
  });

  it('is never a dead end while the stock holds a deal (R12), or with an empty column (R10)', () => {
    expect(dead(layout(['6S 8C JS JD JC 10H 10D 10C', 'JH 10S 9H'], ['AS AH AD AC 2H 2D 2C']))).toBe(false);
    const emptied = pos(SE4, [['2S', 'KS'], ['3S', 'KH'], ['4S', 'KD'], ['5S', 'KC QS'], ['6S 8C JS JD JC 10H 10D 10C', 'JH 10S 9H'], ['7S 5H 5D 5C', '4H'], ''] as const);
    expect(dead(emptied)).toBe(false);
  });

  it('follows runs: the cards on a column\'s lowest card move with it only as a run of its suit (R7)', () => {
    // the hearts Jack to 9 are a run: it goes onto the Queen of spades, and a card turns up
    const run = layout(['6S 8C JS JD JC 10D 10C', 'JH 10H 9H']);
    expect(dead(run)).toBe(false);
    expect(firstEvent(run, 10_000)).toBe('event');
    // the 10 of spades between them breaks the run, and it cannot leave (buried above)
    expect(dead(buried)).toBe(true);
  });

  it('is no dead end where a column\'s lowest card can reach a card one rank above it', () => {
    // the 10 of diamonds and the Jack of diamonds face up at the ends of columns 6 and 7: the 9 of
    // hearts goes onto the 10, the 10 of spades onto the Jack, the Jack of hearts onto the Queen of
    // spades, and column 5's card turns up
    const q = pos(SE4, [['2S', 'KS'], ['3S', 'KH'], ['4S', 'KD QS'], ['5S', 'KC'], ['6S 8C JS JC 10H 10C', 'JH 10S 9H'], ['7S 5H 5D 5C', '4H 10D'], ['8S 8H 8D', '7C JD']] as const);
    expect(dead(q)).toBe(false);
    expect(firstEvent(q, 10_000)).toBe('event');
    // the 10 of diamonds on the Jack of diamonds: the 9 goes onto it, but then no Jack is free for the
    // 10 of spades (the relaxation sees that too)
    const r = pos(SE4, [['2S', 'KS'], ['3S', 'KH'], ['4S', 'KD QS'], ['5S', 'KC'], ['6S 8C JS JC 10H 10C', 'JH 10S 9H'], ['7S 5H 5D 5C', '4H JD 10D'], ['8S 8H 8D', '7C']] as const);
    expect(dead(r)).toBe(true);
    expect(firstEvent(r, 10_000)).toBe('none');
  });

  it('is no dead end where a suit has a face-up card of every rank (it might complete, R14)', () => {
    const p = pos(SE4, [
      ['2S', 'KH QH JH 10H 9H 8H 7H'], ['3S', '6H 5H 4H 3H 2H'], ['4S', 'AH'], ['5S', 'KS'], ['6S', 'KD'], ['7S', 'KC'], ['8S', 'QS'],
    ] as const);
    expect(dead(p)).toBe(false);
    expect(firstEvent(p, 10_000)).toBe('event');
  });
});

/**
 * Positions of random games (seeded): random legal moves from seeded deal `seed`, until the stock is
 * empty and then `more` moves; returns the positions met once the stock is empty.
 */
function randomGame(v: Variant, seed: number, more: number): Position[] {
  const rng = xoroshiro128plus(seed);
  let p = dealPosition(v, seed);
  const out: Position[] = [];
  for (let i = 0; i < 2000 && out.length < more; i++) {
    const moves = legalMoves(p);
    if (moves.length === 0) break;
    p = applyMove(p, moves[unsafeUniformIntDistribution(0, moves.length - 1, rng)]!).position;
    if (p.stock.length === 0) out.push(p);
  }
  return out;
}

describe('deadEnd: sound on positions of random games', () => {
  it('never calls a position dead from which the rules engine reaches a card turned up, a suit removed or an empty column (all six variants)', () => {
    const checked = new Map<string, number>();
    for (const v of [SE1, SE2, SE4, SP1, SP2, SP4]) {
      let n = 0;
      for (let seed = 1; seed <= 60; seed++) {
        for (const p of randomGame(v, seed, 40)) {
          if (!dead(p)) continue;
          const e = firstEvent(p, 3000);
          expect(e).not.toBe('event');
          if (e === 'none') n++;
        }
      }
      checked.set(`${v.game} ${v.suits}`, n);
    }
    // dead ends met and checked to the end (so that the test checks something): in every variant but
    // one-suit Spider, whose random games, with 8 copies of each card, met none
    expect([...checked].filter(([, n]) => n === 0).map(([name]) => name)).toEqual(['spider 1']);
    expect([...checked.values()].reduce((a, b) => a + b)).toBeGreaterThan(1000);
  }, 120_000);
});

describe('deadEnd in the solver', () => {
  it('changes no answer: seeded Spiderette deals give the same settled answers with dead ends and without, in fewer positions when lost', () => {
    let lost = 0;
    for (const [v, from] of [[SE4, 1001], [SE2, 1001], [SE1, 1001]] as const) {
      for (let seed = from; seed < from + 12; seed++) {
        const p = dealPosition(v, seed);
        const a = solve(p, { maxPositions: 30_000 });
        const b = solve(p, { maxPositions: 30_000 }, { deadEnds: false });
        if (a.status !== 'undecided' && b.status !== 'undecided') expect(a.status).toBe(b.status);
        if (a.status === 'lost' && b.status === 'lost') {
          lost++;
          expect(a.positions).toBeLessThanOrEqual(b.positions);
        }
      }
    }
    expect(lost).toBeGreaterThan(0);
  }, 120_000);
});
