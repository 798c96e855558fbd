/**
 * The greedy blind player's moves into an empty column (players/greedy.ts toEmptyScore): it spends an
 * empty column to turn up a face-down card, or to free a card that then goes onto the next rank of its
 * own suit; it never moves a whole column with nothing under it, nor breaks an in-suit run, into one.
 */
import { describe, expect, it } from 'vitest';
import { playBlind } from '../src/blind/game.js';
import { observe } from '../src/blind/observation.js';
import { createGreedy, greedyScore } from '../src/blind/players/greedy.js';
import { M, pos, run, SE1, SE4 } from './helpers/game.js';

describe('greedy and an empty column', () => {
  it('the end game A under K…2 with the stock empty: the run goes to an empty column, the ace onto its 2, the suit is completed (R10, R13)', () => {
    // three suits removed; column 1: AS under KS…2S; six empty columns; no stock
    const p = pos(SE1, [['', `AS ${run('S', 2)}`], '', '', '', '', '', ''], [], [0, 0, 0]);
    const obs = observe(p);
    // moving KS…2S (12 cards) frees the ace, which then goes onto 2S in suit: 20 + 12
    expect(greedyScore(obs, { kind: 'move', from: 0, to: 1, count: 12 })).toBe(32);
    // moving the whole column into an empty one gains nothing
    expect(greedyScore(obs, { kind: 'move', from: 0, to: 1, count: 13 })).toBe(-Infinity);
    expect(createGreedy().next(obs)).toEqual(M(1, 2, 12));
    const g = playBlind(p, { name: 'greedy' }, 1);
    expect(g.result).toBe('won');
    expect(g.line).toEqual(['1-2x12', '1-2']);
  });

  it('turns up a face-down card through an empty column: 40 less the face-down cards left, plus the cards moved', () => {
    // column 1: two face-down cards under 9H 8H; column 2 empty; nothing else takes 9H
    const p = pos(SE4, [['5S 6S', '9H 8H'], '', ['', 'KS'], ['', 'KC'], ['', 'KD'], ['', 'AC'], ['', 'AD']], []);
    const obs = observe(p);
    expect(greedyScore(obs, { kind: 'move', from: 0, to: 1, count: 2 })).toBe(40 - 2 + 2);
    // only 8H: breaks the in-suit run 9H 8H, never
    expect(greedyScore(obs, { kind: 'move', from: 0, to: 1, count: 1 })).toBe(-Infinity);
    expect(createGreedy().next(obs)).toEqual(M(1, 2, 2));
  });

  it('does not spend an empty column when the freed card has nowhere to go in suit', () => {
    // column 1: 7D under 5S; no 8D is showing and 5S is not an 8D: the move frees 7D for nothing
    const p = pos(SE4, [['', '7D 5S'], '', ['', 'KS'], ['', 'KC'], ['', 'KD'], ['', 'AC'], ['', 'AD']], []);
    expect(greedyScore(observe(p), { kind: 'move', from: 0, to: 1, count: 1 })).toBe(-Infinity);
  });
});
