/**
 * The rules of record (docs/rules.md), one or more tests per rule id R1–R17, on hand-built positions
 * with exact expected values: move lists, resulting columns, scores.
 */
import { describe, expect, it } from 'vitest';
import { makeCard, parseCard, rankOf, suitOf } from '../src/game/cards.js';
import { parseMove, type Move } from '../src/game/move.js';
import {
  cardCounts,
  faceDownCount,
  isWon,
  positionFromDeal,
  removedBySuit,
  stockCount,
  type Position,
} from '../src/game/position.js';
import { applyMove, canDeal, completedRunSuit, legalMoves, movableLength, moveText, resolveMove } from '../src/game/rules.js';
import { classicScore, playLine, revealScore } from '../src/game/score.js';
import { ALL_VARIANTS, type Variant } from '../src/game/variant.js';
import { D, M, SE1, SE2, SE4, SP1, SP2, SP4, card, cards, deckOf, mulberry32, pos, run, shuffle, stockText, view } from './helpers/game.js';

/** Parses and resolves a move text against a position (what `playLine` does for one move). */
function resolve(p: Position, text: string) {
  const spec = parseMove(text, p.columns.length);
  if (!spec.ok) throw spec.error;
  return resolveMove(p, spec.value, text);
}

/** The error message of an illegal move text; fails the test if the move is legal. */
function refusal(p: Position, text: string): string {
  const r = resolve(p, text);
  expect(r.ok, `${text} should be refused`).toBe(false);
  if (r.ok) return '';
  expect(r.error.code).toBe('illegal-move');
  return r.error.message;
}

/** Plays one move given as text and returns the new position and its effects. */
function play(p: Position, text: string) {
  const r = resolve(p, text);
  if (!r.ok) throw r.error;
  return applyMove(p, r.value);
}

/** The legal moves as text, in legalMoves order. */
function movesText(p: Position): string[] {
  return legalMoves(p).map((m) => moveText(p, m));
}

/** Count of each card text in a position (tableau and stock), for composition checks. */
function compositionOf(p: Position): Record<string, number> {
  const out: Record<string, number> = {};
  cardCounts(p).forEach((n, c) => {
    if (n > 0) out[makeCard(c)] = n;
  });
  return out;
}

/** The composition docs/rules.md R2 gives: `copies` of each card of the listed suits. */
function expectedComposition(suits: string, copies: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of suits) for (const r of ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']) out[r + s] = copies;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The worked Spiderette position at the end of docs/rules.md, as a real deal: the face-down cards and the
// stock are the other 45 cards of the deck in fresh-deck order.

const SHOWN = ['4C', 'AC', '10H', 'QD', '3H', 'AS', '5H'];

function workedPosition(): Position {
  const shown = SHOWN.map(card);
  const rest = deckOf(SE4).filter((c) => !shown.includes(c));
  const order: number[] = [];
  let k = 0;
  for (let col = 0; col < 7; col++) {
    for (let i = 0; i < col; i++) order.push(rest[k++]!);
    order.push(shown[col]!);
  }
  order.push(...rest.slice(k));
  return positionFromDeal(SE4, order);
}

describe('the worked Spiderette position of docs/rules.md', () => {
  it('R4, R6, R12: is the documented start (4C, AC, 10H, QD, 3H, AS, 5H showing, 24 in the stock)', () => {
    const p = workedPosition();
    expect(view(p)).toEqual([
      '| 4C',
      '2S | AC',
      '3S 4S | 10H',
      '5S 6S 7S | QD',
      '8S 9S 10S JS | 3H',
      'QS KS AH 2H 4H | AS',
      '6H 7H 8H 9H JH QH | 5H',
    ]);
    expect(stockText(p)).toEqual(['KH AD 2D 3D 4D 5D 6D', '7D 8D 9D 10D JD KD 2C', '3C 5C 6C 7C 8C 9C 10C', 'JC QC KC']);
    expect(stockCount(p)).toBe(24);
    expect(p.removed).toEqual([]);
    expect(compositionOf(p)).toEqual(expectedComposition('SHDC', 1));
  });

  it('R6, R12: exactly two card moves are legal (4C onto 5H, 3H onto 4C) plus the deal', () => {
    const p = workedPosition();
    expect(legalMoves(p)).toEqual([M(1, 7, 1), M(5, 1, 1), D]);
    expect(movesText(p)).toEqual(['1-7', '5-1', 'd']);
    expect(canDeal(p)).toBe(true);
  });

  it('R10, R12: after 4C onto 5H column 1 is empty, the deal is refused, and any card may go to column 1', () => {
    const { position: q, effects } = play(workedPosition(), '1-7');
    expect(effects).toEqual({ flips: 0, removed: [], removedFrom: [] });
    expect(view(q)[0]).toBe('');
    expect(view(q)[6]).toBe('6H 7H 8H 9H JH QH | 5H 4C');
    expect(canDeal(q)).toBe(false);
    expect(refusal(q, 'd')).toBe('move "d": column 1 is empty, and the stock cannot be dealt while a column is empty (R12)');
    expect(legalMoves(q)).toEqual([M(2, 1, 1), M(3, 1, 1), M(4, 1, 1), M(5, 1, 1), M(5, 7, 1), M(6, 1, 1), M(7, 1, 1)]);
    expect(movesText(q)).toEqual(['2-1x1', '3-1x1', '4-1x1', '5-1x1', '5-7', '6-1x1', '7-1x1']);
  });

  it('R11, R16, R17: the line 5-1, d scores through playLine (1 flip, 2 moves)', () => {
    const r = playLine(workedPosition(), ['5-1x1', 'D']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.moves).toEqual(['5-1', 'd']);
    expect(r.value.flips).toBe(1);
    expect(r.value.completed).toBe(0);
    expect(r.value.classic).toBe(498);
    expect(r.value.reveal).toBe(5);
    expect(r.value.won).toBe(false);
    expect(view(r.value.position)).toEqual([
      '| 4C 3H KH',
      '2S | AC AD',
      '3S 4S | 10H 2D',
      '5S 6S 7S | QD 3D',
      '8S 9S 10S | JS 4D',
      'QS KS AH 2H 4H | AS 5D',
      '6H 7H 8H 9H JH QH | 5H 6D',
    ]);
    expect(stockCount(r.value.position)).toBe(17);
  });

  it('R12: playLine stops at a deal made while a column is empty, naming the rule and the move', () => {
    const r = playLine(workedPosition(), ['1-7', 'd']);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('illegal-move');
    expect(r.error.message).toBe(
      'move "d": column 1 is empty, and the stock cannot be dealt while a column is empty (R12) (move 2 of the line)',
    );
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R1 ranks', () => {
  it('R1: ranks run Ace 1 to King 13; suits and unicode forms agree', () => {
    expect(rankOf(card('AS'))).toBe(1);
    expect(rankOf(card('10H'))).toBe(10);
    expect(rankOf(card('KC'))).toBe(13);
    expect(suitOf(card('QD'))).toBe(2);
    expect(parseCard('Q\u2666')).toBe(card('QD'));
    expect(parseCard('1S')).toBe(card('AS'));
    expect(parseCard('11S')).toBeUndefined();
  });

  it('R1: no card is ever placed on an Ace, not even a King or a 2', () => {
    const p = pos(SE4, [['', 'AS'], ['', 'KH'], ['', '2D'], ['', '7C'], ['', 'AD'], ['4C', 'QH'], ['', '9S']]);
    // Aces go onto 2s; nothing goes onto an Ace.
    expect(legalMoves(p)).toEqual([M(1, 3, 1), M(5, 3, 1), M(6, 2, 1)]);
    expect(refusal(p, '3-1')).toBe('move "3-1": nothing is ever placed on an Ace (R1)');
    expect(refusal(p, '2-1')).toContain('(R1)');
    expect(refusal(p, '1-5')).toContain('(R1)');
  });

  it('R1: an Ace never goes on a King (no wrap)', () => {
    const p = pos(SE4, [['', 'KH'], ['', 'AS'], ['', 'KD'], ['', 'KC'], ['', 'KS'], ['', '5H'], ['', '9D']]);
    expect(legalMoves(p)).toEqual([]);
    expect(refusal(p, '2-1')).toBe('move "2-1": an Ace never goes on a King (R1)');
  });
});

describe('R2 compositions', () => {
  const table: [string, Variant, string, number][] = [
    ['spider-1', SP1, 'S', 8],
    ['spider-2', SP2, 'SH', 4],
    ['spider-4', SP4, 'SHDC', 2],
    ['spiderette-1', SE1, 'S', 4],
    ['spiderette-2', SE2, 'SH', 2],
    ['spiderette-4', SE4, 'SHDC', 1],
  ];

  it('R2: a shuffled 2-suit Spider deal from positionFromDeal holds 4 x 13 spades and 4 x 13 hearts', () => {
    const p = positionFromDeal(SP2, shuffle(deckOf(SP2), mulberry32(2)));
    expect(compositionOf(p)).toEqual(expectedComposition('SH', 4));
    const counts = cardCounts(p);
    expect(counts.slice(0, 13)).toEqual(new Array(13).fill(4));
    expect(counts.slice(13, 26)).toEqual(new Array(13).fill(4));
    expect(counts.slice(26)).toEqual(new Array(26).fill(0));
  });

  it.each(table)('R2: %s has the composition of the table, never a different number of cards', (_name, v, suits, copies) => {
    expect(v.cards).toBe(v.game === 'spider' ? 104 : 52);
    expect(v.copies).toBe(copies);
    const p = positionFromDeal(v, shuffle(deckOf(v), mulberry32(v.suits)));
    expect(compositionOf(p)).toEqual(expectedComposition(suits, copies));
    expect(cardCounts(p).reduce((a, b) => a + b, 0)).toBe(v.cards);
  });

  it('R2: all six variants are covered, in a fixed order', () => {
    expect(ALL_VARIANTS.map((v) => `${v.game}-${v.suits}`)).toEqual([
      'spider-1', 'spider-2', 'spider-4', 'spiderette-1', 'spiderette-2', 'spiderette-4',
    ]);
  });

  it('R2: cards of equal rank and suit are the same value', () => {
    const p = positionFromDeal(SP4, deckOf(SP4));
    expect(card('AS')).toBe(card('as'));
    expect(card('AS')).toBe(card('A\u2660'));
    expect(cardCounts(p)[card('AS')]).toBe(2);
  });
});

describe('R3, R4 layouts', () => {
  it('R3: Spider deals 6,6,6,6,5,5,5,5,5,5 with only the last card up, and a stock of 5 deals of 10', () => {
    for (const v of [SP1, SP2, SP4]) {
      const p = positionFromDeal(v, shuffle(deckOf(v), mulberry32(30 + v.suits)));
      expect(p.columns.map((c) => c.down.length + c.up.length)).toEqual([6, 6, 6, 6, 5, 5, 5, 5, 5, 5]);
      expect(p.columns.map((c) => c.up.length)).toEqual(new Array(10).fill(1));
      expect(faceDownCount(p)).toBe(44);
      expect(p.stock.map((d) => d.length)).toEqual([10, 10, 10, 10, 10]);
      expect(stockCount(p)).toBe(50);
    }
  });

  it('R3: the deal order fills column 1 bottom to top, then column 2, ..., then the stock deals', () => {
    const p = positionFromDeal(SP4, deckOf(SP4));
    const v = view(p);
    expect(v[0]).toBe('AS 2S 3S 4S 5S | 6S');
    expect(v[1]).toBe('7S 8S 9S 10S JS | QS');
    expect(v[2]).toBe('KS AH 2H 3H 4H | 5H');
    expect(v[4]).toBe('QH KH AD 2D | 3D');
    expect(v[7]).toBe('AC 2C 3C 4C | 5C');
    expect(v[9]).toBe('JC QC KC AS | 2S');
    expect(stockText(p)[0]).toBe('3S 4S 5S 6S 7S 8S 9S 10S JS QS');
    expect(stockText(p)[4]).toBe('4C 5C 6C 7C 8C 9C 10C JC QC KC');
  });

  it('R4: Spiderette deals 1..7 cards, 21 face down, 7 face up, and a stock of 7, 7, 7, 3', () => {
    const p = positionFromDeal(SE4, deckOf(SE4));
    expect(view(p)).toEqual([
      '| AS',
      '2S | 3S',
      '4S 5S | 6S',
      '7S 8S 9S | 10S',
      'JS QS KS AH | 2H',
      '3H 4H 5H 6H 7H | 8H',
      '9H 10H JH QH KH AD | 2D',
    ]);
    expect(faceDownCount(p)).toBe(21);
    expect(stockText(p)).toEqual(['3D 4D 5D 6D 7D 8D 9D', '10D JD QD KD AC 2C 3C', '4C 5C 6C 7C 8C 9C 10C', 'JC QC KC']);
    for (const v of [SE1, SE2]) {
      const q = positionFromDeal(v, shuffle(deckOf(v), mulberry32(40 + v.suits)));
      expect(q.columns.map((c) => [c.down.length, c.up.length])).toEqual([[0, 1], [1, 1], [2, 1], [3, 1], [4, 1], [5, 1], [6, 1]]);
      expect(q.stock.map((d) => d.length)).toEqual([7, 7, 7, 3]);
    }
  });
});

describe('R5 the goal', () => {
  it('R5: removing the fourth Spiderette suit with an empty stock wins the game', () => {
    const p = pos(SE1, [['', run('S', 2)], ['', 'AS'], '', '', '', '', ''], [], [0, 0, 0]);
    expect(isWon(p)).toBe(false);
    const r = playLine(p, ['2-1']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.won).toBe(true);
    expect(isWon(r.value.position)).toBe(true);
    expect(r.value.position.removed).toEqual([0, 0, 0, 0]);
    expect(r.value.position.removed.length).toBe(SE1.completeSuits);
    expect(r.value.completed).toBe(1);
    expect(r.value.classic).toBe(500 - 1 + 400);
    expect(r.value.reveal).toBe(400);
    expect(legalMoves(r.value.position)).toEqual([]);
  });

  it('R5: an empty tableau with stock left is not won; Spider needs 8 runs, Spiderette 4', () => {
    const p = pos(SE4, ['', '', '', '', '', '', ''], ['JC QC KC'], [0, 1, 2]);
    expect(isWon(p)).toBe(false);
    expect(SP1.completeSuits).toBe(8);
    expect(SP4.completeSuits).toBe(8);
    expect(SE2.completeSuits).toBe(4);
  });
});

describe('R6-R10 moves', () => {
  it('R6: placing ignores suit: 9H on 10S, a Q on either K', () => {
    const p = pos(SE4, [['', '10S'], ['', '9H'], ['', 'KD'], ['', 'QC'], ['', 'KH'], ['', '2S'], ['', '5D']], ['AH 3C 4D 6S 7H 8C JD']);
    expect(legalMoves(p)).toEqual([M(2, 1, 1), M(4, 3, 1), M(4, 5, 1), D]);
    const { position: q } = play(p, '2-1');
    expect(view(q).slice(0, 2)).toEqual(['| 10S 9H', '']);
  });

  it('R7: a mixed-suit run 9S 8S 7H moves only 7H, then 9S 8S together', () => {
    const p = pos(SE4, [['', '9S 8S 7H'], ['', '8D'], ['', '10C'], ['', 'KS'], ['', 'KH'], ['', 'KD'], ['', 'KC']]);
    expect(movableLength(p.columns[0]!.up)).toBe(1);
    expect(legalMoves(p)).toEqual([M(1, 2, 1)]);
    expect(refusal(p, '1-3')).toBe('move "1-3": the 3 cards that would fit are not one descending run of one suit (R7)');
    const { position: q } = play(p, '1-2');
    expect(view(q).slice(0, 3)).toEqual(['| 9S 8S', '| 8D 7H', '| 10C']);
    expect(movableLength(q.columns[0]!.up)).toBe(2);
    expect(legalMoves(q)).toEqual([M(1, 3, 2), M(2, 1, 1)]);
    const { position: r } = play(q, '1-3');
    expect(view(r).slice(0, 3)).toEqual(['', '| 8D 7H', '| 10C 9S 8S']);
  });

  it('R7: had it been 9S 8S 7S, all three move in one move', () => {
    const p = pos(SE4, [['', '9S 8S 7S'], ['', '8D'], ['', '10C'], ['', 'KS'], ['', 'KH'], ['', 'KD'], ['', 'KC']]);
    expect(movableLength(p.columns[0]!.up)).toBe(3);
    expect(legalMoves(p)).toEqual([M(1, 2, 1), M(1, 3, 3)]);
    const { position: q } = play(p, '1-3x3');
    expect(view(q).slice(0, 3)).toEqual(['', '| 8D', '| 10C 9S 8S 7S']);
  });

  it('R7: a group whose suits break can only be split where the suit changes', () => {
    const p = pos(SE4, [['', '9S 8S 7H 6H'], ['', '8C'], ['', '7D'], ['', '10D'], '', ['', 'KC'], ['', 'KH']]);
    expect(movableLength(p.columns[0]!.up)).toBe(2);
    expect(legalMoves(p)).toEqual([
      M(1, 2, 2), M(1, 3, 1), M(1, 5, 2), M(1, 5, 1),
      M(2, 5, 1), M(3, 2, 1), M(3, 5, 1), M(4, 5, 1), M(6, 5, 1), M(7, 5, 1),
    ]);
    expect(refusal(p, '1-5x3')).toBe('move "1-5x3": only 2 cards at the end of column 1 are one run of one suit (R7)');
    expect(refusal(p, '1-5x4')).toContain('(R7)');
    expect(refusal(p, '2-5x2')).toBe('move "2-5x2": only 1 card at the end of column 2 is one run of one suit (R7)');
    expect(refusal(p, '1-4')).toBe('move "1-4": the 4 cards that would fit are not one descending run of one suit (R7)');
    const { position: q } = play(p, '1-2');
    expect(view(q).slice(0, 2)).toEqual(['| 9S 8S', '| 8C 7H 6H']);
    expect(legalMoves(q)).toEqual([
      M(1, 4, 2), M(1, 5, 2), M(1, 5, 1),
      M(2, 1, 2), M(2, 3, 1), M(2, 5, 2), M(2, 5, 1),
      M(3, 1, 1), M(3, 5, 1), M(4, 5, 1), M(6, 5, 1), M(7, 5, 1),
    ]);
    const { position: r } = play(q, '1-4');
    expect(view(r).slice(0, 4)).toEqual(['', '| 8C 7H 6H', '| 7D', '| 10D 9S 8S']);
  });

  it('R8: cards are only taken from the end of a column', () => {
    const p = pos(SE4, [['', '5H 9S 8S'], ['', '6C'], ['', '10D'], ['', 'KS'], ['', 'KH'], ['', 'KD'], ['', 'KC']]);
    expect(legalMoves(p)).toEqual([M(1, 3, 2)]);
    expect(refusal(p, '1-2')).toBe('move "1-2": no movable group of column 1 starts one rank below the last card of column 2 (R6, R9)');
    expect(refusal(p, '1-2x3')).toContain('(R6, R9)');
    const { position: q } = play(p, '1-3');
    expect(view(q).slice(0, 3)).toEqual(['| 5H', '| 6C', '| 10D 9S 8S']);
    expect(legalMoves(q)).toEqual([M(1, 2, 1)]);
  });

  it('R9: a group lands like a single card: its head goes on a card one rank higher', () => {
    const p = pos(SE4, [['', '9S 8S 7S'], ['', '10H'], ['', '9D'], ['', '8C'], ['', 'KS'], ['', 'KH'], ['', 'KD']]);
    expect(legalMoves(p)).toEqual([M(1, 2, 3), M(1, 3, 2), M(1, 4, 1), M(3, 2, 1), M(4, 3, 1)]);
    expect(resolve(p, '1-2')).toEqual({ ok: true, value: M(1, 2, 3) });
    expect(resolve(p, '1-2x3')).toEqual({ ok: true, value: M(1, 2, 3) });
    expect(refusal(p, '1-2x2')).toBe('move "1-2x2": onto that card exactly 3 cards can go (R9)');
    expect(refusal(p, '1-3x3')).toContain('(R9)');
    expect(refusal(p, '1-4x2')).toBe('move "1-4x2": onto that card exactly 1 card can go (R9)');
    const { position: q } = play(p, '1-3');
    expect(view(q).slice(0, 3)).toEqual(['| 9S', '| 10H', '| 9D 8S 7S']);
  });

  it('R10: an empty column accepts any card or any suffix of a movable group, and the count is required', () => {
    const p = pos(SE4, [['', 'KH QH JH'], ['', '5C'], '', ['', '2D'], ['', '9S'], ['', '4S'], ['', '7C']], ['AS 2S 3S']);
    expect(legalMoves(p)).toEqual([
      M(1, 3, 3), M(1, 3, 2), M(1, 3, 1),
      M(2, 3, 1), M(4, 3, 1), M(5, 3, 1), M(6, 2, 1), M(6, 3, 1), M(7, 3, 1),
    ]);
    expect(movesText(p).slice(0, 3)).toEqual(['1-3x3', '1-3x2', '1-3x1']);
    expect(refusal(p, '1-3')).toBe('move "1-3": column 3 is empty, so say how many cards go there (1-3x3)');
    const { position: q } = play(p, '1-3x2');
    expect(view(q).slice(0, 3)).toEqual(['| KH', '| 5C', '| QH JH']);
  });

  it('R10: a King cannot go anywhere but an empty column', () => {
    const p = pos(SE4, [['4D', 'KS'], ['', '2C'], ['', '7H'], ['', 'JD'], ['', '9C'], ['', '5S'], ['', '3H']]);
    expect(legalMoves(p)).toEqual([M(2, 7, 1)]);
    expect(refusal(p, '1-4')).toBe('move "1-4": a King can only go into an empty column, and column 4 is not empty (R10)');
    expect(refusal(p, '1-3')).toContain('(R10)');
    const { position: q } = play(p, '2-7');
    expect(legalMoves(q)).toEqual([M(1, 2, 1), M(3, 2, 1), M(4, 2, 1), M(5, 2, 1), M(6, 2, 1), M(7, 2, 1)]);
    const { position: r, effects } = play(q, '1-2x1');
    expect(view(r).slice(0, 2)).toEqual(['| 4D', '| KS']);
    expect(effects.flips).toBe(1);
  });

  it('R10: a King-headed group moves only into an empty column', () => {
    const p = pos(SE4, [['', 'KH QH JH'], ['', '5C'], ['', '2D'], ['', '9S'], ['', '4S'], ['', '7C'], ['', 'JC']]);
    expect(legalMoves(p)).toEqual([M(5, 2, 1)]);
  });
});

describe('R11 flips', () => {
  it('R11: the face-down card under the last face-up card that leaves turns up; this is not a move', () => {
    const p = pos(SE4, [['5C', '4H'], ['', '5S'], ['', 'KS'], ['', 'KH'], ['', 'KD'], ['', 'KC'], ['', '9D']]);
    expect(legalMoves(p)).toEqual([M(1, 2, 1)]);
    const { position: q, effects } = play(p, '1-2');
    expect(effects).toEqual({ flips: 1, removed: [], removedFrom: [] });
    expect(view(q).slice(0, 2)).toEqual(['| 5C', '| 5S 4H']);
    expect(faceDownCount(p)).toBe(1);
    expect(faceDownCount(q)).toBe(0);
    const line = playLine(p, ['1-2']);
    expect(line.ok && line.value.moves).toEqual(['1-2']);
    expect(line.ok && line.value.classic).toBe(499);
    expect(line.ok && line.value.reveal).toBe(5);
  });

  it('R11: moving a whole face-up group off face-down cards flips exactly one card', () => {
    const p = pos(SE4, [['2C 3C', '9S 8S'], ['', '10H'], ['', 'KS'], ['', 'KH'], ['', 'KD'], ['', 'KC'], ['', '4D']]);
    const { position: q, effects } = play(p, '1-2');
    expect(effects.flips).toBe(1);
    expect(view(q).slice(0, 2)).toEqual(['2C | 3C', '| 10H 9S 8S']);
  });
});

describe('R12, R13 the stock', () => {
  it('R12: a deal puts one card face up on each column, first column to last (Spider, 10 cards)', () => {
    const p = positionFromDeal(SP4, deckOf(SP4));
    const { position: q, effects } = applyMove(p, D);
    expect(effects).toEqual({ flips: 0, removed: [], removedFrom: [] });
    expect(view(q)).toEqual([
      'AS 2S 3S 4S 5S | 6S 3S',
      '7S 8S 9S 10S JS | QS 4S',
      'KS AH 2H 3H 4H | 5H 5S',
      '6H 7H 8H 9H 10H | JH 6S',
      'QH KH AD 2D | 3D 7S',
      '4D 5D 6D 7D | 8D 8S',
      '9D 10D JD QD | KD 9S',
      'AC 2C 3C 4C | 5C 10S',
      '6C 7C 8C 9C | 10C JS',
      'JC QC KC AS | 2S QS',
    ]);
    expect(q.stock.length).toBe(4);
    expect(faceDownCount(q)).toBe(44);
  });

  it('R12: Spiderette deals 7, 7, 7, then its last deal puts cards on columns 1-3 only', () => {
    const r = playLine(positionFromDeal(SE4, deckOf(SE4)), ['d', 'd', 'd', 'd']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(view(r.value.position)).toEqual([
      '| AS 3D 10D 4C JC',
      '2S | 3S 4D JD 5C QC',
      '4S 5S | 6S 5D QD 6C KC',
      '7S 8S 9S | 10S 6D KD 7C',
      'JS QS KS AH | 2H 7D AC 8C',
      '3H 4H 5H 6H 7H | 8H 8D 2C 9C',
      '9H 10H JH QH KH AD | 2D 9D 3C 10C',
    ]);
    expect(r.value.position.stock).toEqual([]);
    expect(r.value.classic).toBe(496);
    expect(legalMoves(r.value.position)).not.toContainEqual(D);
    expect(refusal(r.value.position, 'd')).toBe('move "d": the stock is empty (R12)');
  });

  it('R12: a deal is refused while a column is empty', () => {
    const p = pos(SE4, [['', '5D'], ['', '9C'], '', ['', 'KS'], ['', 'QS'], ['2H', '8H'], ['', '6C']], ['AS 2S 3S 4S 5S 6S 7S', 'JC QC KC']);
    expect(canDeal(p)).toBe(false);
    expect(legalMoves(p)).not.toContainEqual(D);
    expect(refusal(p, 'd')).toBe('move "d": column 3 is empty, and the stock cannot be dealt while a column is empty (R12)');
  });

  it('R12: Spiderette\'s last 3-card deal is refused too while a column among 4-7 is empty', () => {
    for (const empty of [3, 4, 5, 6]) {
      const cols: ([string, string] | '')[] = [['', '5D'], ['', '9C'], ['', '2C'], ['', 'KS'], ['', 'QS'], ['2H', '8H'], ['', '6C']];
      cols[empty] = '';
      const p = pos(SE4, cols, ['JC QC KC']);
      expect(canDeal(p)).toBe(false);
      expect(legalMoves(p)).not.toContainEqual(D);
      expect(refusal(p, 'd')).toBe(`move "d": column ${empty + 1} is empty, and the stock cannot be dealt while a column is empty (R12)`);
    }
    const full = pos(SE4, [['', '5D'], ['', '9C'], ['', '2C'], ['', 'KS'], ['', 'QS'], ['2H', '8H'], ['', '6C']], ['JC QC KC']);
    expect(canDeal(full)).toBe(true);
    const { position: q } = applyMove(full, D);
    expect(view(q)).toEqual(['| 5D JC', '| 9C QC', '| 2C KC', '| KS', '| QS', '2H | 8H', '| 6C']);
    expect(q.stock).toEqual([]);
  });

  it('R12: with fewer cards on the table than columns the stock can never be dealt again', () => {
    // Four cards for seven columns: explore every reachable position; none may deal.
    const start = pos(SE4, [['', 'KS'], ['', 'QH'], ['', 'JS'], ['', '10H'], '', '', ''], ['AC 2C 3C 4C 5C 6C 7C']);
    const key = (p: Position) => view(p).join('/');
    const seen = new Set([key(start)]);
    const queue = [start];
    while (queue.length > 0) {
      const p = queue.pop()!;
      expect(canDeal(p)).toBe(false);
      for (const m of legalMoves(p)) {
        expect(m.kind).toBe('move');
        const q = applyMove(p, m).position;
        if (!seen.has(key(q))) {
          seen.add(key(q));
          queue.push(q);
        }
      }
    }
    expect(seen.size).toBeGreaterThan(100);
  });

  it('R13: a deal covers whatever the columns end with, Aces and runs included, face up', () => {
    const p = pos(SE4, [['', '2S AS'], ['3D', '9S 8S'], ['', 'KH'], ['', '5C'], ['', 'JD'], ['', '10D'], ['6H', '4H']], ['7H 4C QH 9C 2D 6D AH']);
    expect(movableLength(p.columns[1]!.up)).toBe(2);
    const { position: q, effects } = applyMove(p, D);
    expect(effects).toEqual({ flips: 0, removed: [], removedFrom: [] });
    expect(view(q)).toEqual(['| 2S AS 7H', '3D | 9S 8S 4C', '| KH QH', '| 5C 9C', '| JD 2D', '| 10D 6D', '6H | 4H AH']);
    expect(movableLength(q.columns[1]!.up)).toBe(1);
    expect(movableLength(q.columns[2]!.up)).toBe(2);
  });
});

describe('R14, R15 completed suits', () => {
  it('R14: a move that puts the Ace on K..2 of its suit removes the run at once', () => {
    const p = pos(SE4, [['', run('S', 2)], ['', 'AS'], ['', 'KH'], ['', 'KD'], ['', 'KC'], ['', '5H'], ['', '9D']]);
    const { position: q, effects } = play(p, '2-1');
    expect(effects).toEqual({ flips: 0, removed: [0], removedFrom: [0] });
    expect(view(q)).toEqual(['', '', '| KH', '| KD', '| KC', '| 5H', '| 9D']);
    expect(q.removed).toEqual([0]);
    expect(removedBySuit(q)).toEqual([1, 0, 0, 0]);
  });

  it('R14: a group move that completes a suit removes it; the run need not be alone in the column', () => {
    const p = pos(SE2, [['4S', 'JS ' + run('H', 8)], ['', run('H', 1, 7)], ['', 'KS'], ['', 'QS'], ['', '2S'], ['', '9S'], ['', '3S']]);
    expect(movableLength(p.columns[1]!.up)).toBe(7);
    expect(legalMoves(p)).toContainEqual(M(2, 1, 7));
    const { position: q, effects } = play(p, '2-1');
    expect(effects).toEqual({ flips: 0, removed: [1], removedFrom: [0] });
    expect(view(q).slice(0, 2)).toEqual(['4S | JS', '']);
  });

  it('R14: a deal that completes suits in two columns removes both, then the flips follow', () => {
    const p = pos(
      SP2,
      [['5H', run('S', 2)], ['9S 7H', run('H', 2)], ['', '3S'], ['', '4H'], ['', '6S'], ['', '8H'], ['', '10S'], ['', 'JH'], ['', 'QS'], ['', '9H']],
      ['AS AH 7S 6H 2S 3H 4S 8S JS 10H', 'KS KS KH KH QH QH JS JH 10S 10H'],
    );
    expect(canDeal(p)).toBe(true);
    const { position: q, effects } = applyMove(p, D);
    expect(effects).toEqual({ flips: 2, removed: [0, 1], removedFrom: [0, 1] });
    expect(q.removed).toEqual([0, 1]);
    expect(view(q)).toEqual([
      '| 5H', '9S | 7H', '| 3S 7S', '| 4H 6H', '| 6S 2S', '| 8H 3H', '| 10S 4S', '| JH 8S', '| QS JS', '| 9H 10H',
    ]);
    expect(q.stock.length).toBe(1);
    const line = playLine(p, ['d']);
    expect(line.ok && [line.value.flips, line.value.completed, line.value.classic, line.value.reveal]).toEqual([2, 2, 699, 210]);
  });

  it('R14: a mixed-suit King-to-Ace run stays on the table', () => {
    const p = pos(SE4, [['', run('S', 2)], ['', 'AH'], ['', 'KH'], ['', 'KD'], ['', 'KC'], ['', '5H'], ['', '9D']]);
    const { position: q, effects } = play(p, '2-1');
    expect(effects).toEqual({ flips: 0, removed: [], removedFrom: [] });
    expect(q.columns[0]!.up.length).toBe(13);
    expect(view(q)[0]).toBe('| ' + run('S', 2) + ' AH');
    expect(completedRunSuit(q.columns[0]!.up)).toBe(-1);
    expect(movableLength(q.columns[0]!.up)).toBe(1);
    expect(q.removed).toEqual([]);
    const alternating = cards('KS QH JS 10H 9S 8H 7S 6H 5S 4H 3S 2H AS');
    expect(completedRunSuit(alternating)).toBe(-1);
  });

  it('R14: completedRunSuit finds K..A of one suit at the end of a column, only there, only all 13', () => {
    expect(completedRunSuit(cards(run('D')))).toBe(2);
    expect(completedRunSuit(cards('9C ' + run('H')))).toBe(1);
    expect(completedRunSuit(cards(run('H', 1, 12)))).toBe(-1);
    expect(completedRunSuit(cards(run('H') + ' 9C'))).toBe(-1);
  });

  it('R15: a run removed from above face-down cards uncovers one, which turns up; reveal scoring counts it', () => {
    const p = pos(SE1, [['4S 9S', run('S', 2)], ['7S', 'AS'], ['', '6S'], ['', '10S'], ['', 'QS'], ['', '3S'], ['', '5S']]);
    const { position: q, effects } = play(p, '2-1');
    expect(effects).toEqual({ flips: 2, removed: [0], removedFrom: [0] });
    expect(view(q)).toEqual(['4S | 9S', '| 7S', '| 6S', '| 10S', '| QS', '| 3S', '| 5S']);
    const r = playLine(p, ['2-1']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.moves).toEqual(['2-1']);
    expect(r.value.flips).toBe(2);
    expect(r.value.completed).toBe(1);
    expect(r.value.classic).toBe(599);
    expect(r.value.reveal).toBe(110);
  });

  it('R15: a run removed from above other face-up cards flips nothing', () => {
    const p = pos(SE4, [['3C', '9D ' + run('S', 2)], ['', 'AS'], ['', 'KH'], ['', 'KD'], ['', 'KC'], ['', '5H'], ['', '8D']]);
    const { position: q, effects } = play(p, '2-1');
    expect(effects).toEqual({ flips: 0, removed: [0], removedFrom: [0] });
    expect(view(q).slice(0, 2)).toEqual(['3C | 9D', '']);
    expect(legalMoves(q)).toContainEqual(M(7, 1, 1));
  });
});

describe('R16, R17 scores', () => {
  it('R16: the documented examples: 847, 730, and 500 - moves + 800 for a won Spider game', () => {
    expect(classicScore(53, 4)).toBe(847);
    expect(classicScore(70, 3)).toBe(730);
    expect(classicScore(120, 8)).toBe(500 - 120 + 800);
    expect(classicScore(0, 0)).toBe(500);
  });

  it('R16: no floor, and each undo costs 1', () => {
    expect(classicScore(650, 0)).toBe(-150);
    expect(classicScore(10, 1, 3)).toBe(587);
  });

  it('R16: every move and every deal of a line costs 1; a flip costs nothing', () => {
    const p = positionFromDeal(SE4, deckOf(SE4));
    // From the fresh-deck start: AS onto 2H or 2D, 2H or 2D onto 3S, or deal.
    expect(movesText(p)).toEqual(['1-5', '1-7', '5-2', '7-2', 'd']);
    const r = playLine(p, ['7-2', 'd', 'd']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.moves).toEqual(['7-2', 'd', 'd']);
    expect(r.value.flips).toBe(1);
    expect(r.value.classic).toBe(497);
    expect(r.value.reveal).toBe(5);
  });

  it('R17: reveal scoring is +100 a suit and +5 a flip; moves are free', () => {
    expect(revealScore(0, 0)).toBe(0);
    expect(revealScore(21, 4)).toBe(505);
    expect(revealScore(44, 8)).toBe(1020);
    expect(revealScore(3, 1)).toBe(115);
  });

  it('R17: playLine reveal score of a line with a removal and three flips', () => {
    // 2-1 removes spades and flips 9S (col 1) and 7S (col 2); 3-2 then moves 6S onto 7S and flips 8S.
    const p = pos(SE1, [['4S 9S', run('S', 2)], ['7S', 'AS'], ['8S', '6S'], ['', '10S'], ['', 'QS'], ['', '3S'], ['', '5S']]);
    const r = playLine(p, ['2-1', '3-2']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.flips).toBe(3);
    expect(r.value.reveal).toBe(115);
    expect(r.value.classic).toBe(598);
    expect(view(r.value.position).slice(0, 3)).toEqual(['4S | 9S', '| 7S 6S', '| 8S']);
  });
});

describe('resolveMove errors name the rule', () => {
  const p = pos(SE4, [['', '9S 8S 7H 6H'], ['', 'AD'], '', ['', '10C'], ['', 'KH'], ['', '8D'], ['', '2D']], ['AS 2S 3S 4S 5S 6S 7S']);
  const cases: [string, string, string][] = [
    ['R1', '7-2', 'move "7-2": nothing is ever placed on an Ace (R1)'],
    ['R1', '2-5', 'move "2-5": an Ace never goes on a King (R1)'],
    ['R6', '2-6', 'move "2-6": no movable group of column 2 starts one rank below the last card of column 6 (R6, R9)'],
    ['R10', '5-4', 'move "5-4": a King can only go into an empty column, and column 4 is not empty (R10)'],
    ['R7', '1-4', 'move "1-4": the 4 cards that would fit are not one descending run of one suit (R7)'],
    ['R7', '1-3x3', 'move "1-3x3": only 2 cards at the end of column 1 are one run of one suit (R7)'],
    ['R9', '1-6x1', 'move "1-6x1": onto that card exactly 2 cards can go (R9)'],
    ['R12', 'd', 'move "d": column 3 is empty, and the stock cannot be dealt while a column is empty (R12)'],
  ];
  it.each(cases)('%s: %s is refused with the rule named', (_rule, text, message) => {
    expect(refusal(p, text)).toBe(message);
  });

  it('R12: an empty stock is refused with the rule named', () => {
    const q = pos(SE4, [['', '5D'], ['', '9C'], ['', '2C'], ['', 'KS'], ['', 'QS'], ['2H', '8H'], ['', '6C']]);
    expect(refusal(q, 'd')).toBe('move "d": the stock is empty (R12)');
  });

  it('R8: a move from an empty column is refused', () => {
    expect(refusal(p, '3-4')).toBe('move "3-4": column 3 is empty, so it has no card to move (R8)');
  });

  it('R9: resolveMove of a Move value (no text) names the move in notation', () => {
    const r = resolveMove(p, M(1, 6, 1) as Move);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('move "1-6x1": onto that card exactly 2 cards can go (R9)');
  });
});
