/**
 * The solver's progress line (SolveOptions.progress: the best position the beam search kept before
 * its first deal) and the blind players' way of filling an empty column for a deal (R12).
 */
import { describe, expect, it } from 'vitest';
import { observe } from '../src/blind/observation.js';
import { fillForDeal } from '../src/blind/players/greedy.js';
import { dealPosition } from '../src/game/deal.js';
import type { Position } from '../src/game/position.js';
import { playLine } from '../src/game/score.js';
import { KeyCodec } from '../src/solver/key.js';
import { solve } from '../src/solver/solve.js';
import { SolverState } from '../src/solver/state.js';
import { pos, SE1, SP4 } from './helpers/game.js';

/** The solver's evaluation of a position (key.ts: face-down card 2, break 1, empty column -2, completed suit -13). */
function score(p: Position): number {
  const s = new SolverState(p);
  const codec = new KeyCodec(s);
  codec.encode(s);
  return codec.score;
}

describe('solve with progress', () => {
  for (const [name, start, budget] of [
    ['SP4 seed 1', dealPosition(SP4, 1), 3000],
    ['SP4 seed 2', dealPosition(SP4, 2), 3000],
    ['SP4 seed 3', dealPosition(SP4, 3), 1500],
  ] as const) {
    it(`${name} at ${budget}: a line that replays without a deal to a position scoring 'gain' below the start; search unchanged`, () => {
      const plain = solve(start, { maxPositions: budget });
      const r = solve(start, { maxPositions: budget, progress: true });
      expect(plain.status).toBe('undecided');
      expect(plain.progress).toBeUndefined();
      // the progress line changes nothing else
      expect([r.status, r.positions, r.stages]).toEqual([plain.status, plain.positions, plain.stages]);
      const p = r.progress!;
      expect(p.line.length).toBeGreaterThan(0);
      expect(p.line).not.toContain('d');
      const played = playLine(start, p.line);
      if (!played.ok) throw new Error(played.error.message);
      expect(played.value.position.stock.length).toBe(start.stock.length);
      expect(p.gain).toBe(score(start) - score(played.value.position));
      expect(p.gain).toBeGreaterThan(0);
    });
  }

  it('a won solve has no progress line; one that cannot gain has an empty line and gain 0', () => {
    const won = solve(dealPosition(SE1, 3), { maxPositions: 100_000, progress: true });
    expect(won.status).toBe('won');
    expect(won.progress).toBeUndefined();
    // two kings and empty columns: every move leads to the same position (columns in any order)
    const still = pos(SE1, [['', 'KS'], ['', 'KH'], '', '', '', '', ''], []);
    const r = solve(still, { maxPositions: 1000, progress: true });
    expect(r.status).toBe('lost');
    expect(r.progress).toEqual({ line: [], gain: 0 });
  });
});

describe('fillForDeal', () => {
  it('fills an empty column that blocks the deal with a card that is not sitting naturally, not a whole column', () => {
    // column 3 empty; column 1: 9H on KS (not natural), column 2: QS alone (a whole column: never moved)
    const p = pos(SE1, [['', 'KS 9H'], ['', 'QS'], '', ['', 'JS'], ['', '10S'], ['', '8S'], ['', '7S']], [['AS', 'AS', 'AS', 'AS', 'AS', 'AS', 'AS']]);
    expect(fillForDeal(observe(p))).toEqual({ kind: 'move', from: 0, to: 2, count: 1 });
  });

  it('nothing when no deal is left', () => {
    const p = pos(SE1, [['', 'KS 9H'], ['', 'QS'], '', ['', 'JS'], ['', '10S'], ['', '8S'], ['', '7S']], []);
    expect(fillForDeal(observe(p))).toBeNull();
  });
});
