/**
 * Moves in words: describeMove (the `moves` listing, the viewer's steps) and explainLine (`play
 * --explain`) say what a move does besides moving cards, in the order it happens: a completed suit is
 * removed (R14) before the card it covered turns up (R15, R11).
 */
import { describe, expect, it } from 'vitest';
import { describeMove } from '../src/game/describe.js';
import { explainLine } from '../src/game/explain.js';
import { legalMoves } from '../src/game/rules.js';
import { D, M, SE1, SE2, SP2, pos, run } from './helpers/game.js';

describe('describeMove', () => {
  it('R14, R15: a move that completes a suit says so, then the cards it turns up (not named)', () => {
    // 2-1: A♠ onto K♠..2♠ completes spades in column 1, which turns up 9S there; column 2 turns up 7S
    const p = pos(SE1, [['4S 9S', run('S', 2)], ['7S', 'AS'], ['8S', '6S'], ['', '10S'], ['', 'QS'], ['', '3S'], ['', '5S']]);
    expect(describeMove(p, M(2, 1))).toBe('move A♠ from column 2 onto 2♠ in column 1, completes and removes a suit of ♠ in column 1, turns up 2 cards');
  });

  it('R14: a group move that completes a suit and empties the column it left', () => {
    const p = pos(SE2, [['4S', 'JS ' + run('H', 8)], ['', run('H', 1, 7)], ['', 'KS'], ['', 'QS'], ['', '2S'], ['', '9S'], ['', '3S']]);
    expect(describeMove(p, M(2, 1, 7))).toBe('move 7 cards 7♥..A♥ from column 2 onto 8♥ in column 1, completes and removes a suit of ♥ in column 1, empties column 2');
  });

  it('R14: a deal that completes suits in two columns names both, then the two cards turned up', () => {
    const p = pos(
      SP2,
      [['5H', run('S', 2)], ['9S 7H', run('H', 2)], ['', '3S'], ['', '4H'], ['', '6S'], ['', '8H'], ['', '10S'], ['', 'JH'], ['', 'QS'], ['', '9H']],
      ['AS AH 7S 6H 2S 3H 4S 8S JS 10H', 'KS KS KH KH QH QH JS JH 10S 10H'],
    );
    expect(describeMove(p, D)).toBe(
      'deal 10 cards from the stock onto columns 1-10 (1 deal left after it), completes and removes a suit of ♠ in column 1, completes and removes a suit of ♥ in column 2, turns up 2 cards',
    );
  });

  it('a plain move says nothing more; one that leaves its column empty says so', () => {
    const p = pos(SE1, [['4S 9S', run('S', 2)], ['7S', 'AS'], ['8S', '6S'], ['', '10S'], ['', 'QS'], ['', '3S'], ['', '5S']]);
    expect(legalMoves(p)).toEqual(expect.arrayContaining([M(1, 6, 1), M(7, 3, 1)]));
    expect(describeMove(p, M(1, 6, 1))).toBe('move 2♠ from column 1 onto 3♠ in column 6');
    expect(describeMove(p, M(7, 3, 1))).toBe('move 5♠ from column 7 onto 6♠ in column 3, empties column 7');
  });
});

describe('explainLine', () => {
  it('R15: the card a removed suit uncovered is turned up after the removal is told', () => {
    const p = pos(SE1, [['4S 9S', run('S', 2)], ['7S', 'AS'], ['8S', '6S'], ['', '10S'], ['', 'QS'], ['', '3S'], ['', '5S']]);
    const r = explainLine(p, ['2-1']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value[0]!.text).toBe('A♠ from column 2 onto 2♠ in column 1; completes a suit of ♠ in column 1, removed; turns up 7♠ in column 2; turns up 9♠ in column 1');
    expect(r.value[0]!.removed).toEqual([{ column: 1, suit: '♠' }]);
    expect(r.value[0]!.turnedUp).toEqual([{ column: 2, card: '7♠' }, { column: 1, card: '9♠' }]);
  });
});
