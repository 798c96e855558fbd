/**
 * Seeded deals (src/game/deal.ts): the fresh deck (R2), the frozen shuffle pinned card for card, the
 * layout (R3, R4) and the composition check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeCard } from '../src/game/cards.js';
import { compositionFault, dealCards, dealPosition, freshDeck, isSeed, MAX_SEED } from '../src/game/deal.js';
import { cardCounts, positionFromDeal, samePosition } from '../src/game/position.js';
import { ALL_VARIANTS, getVariant } from '../src/game/variant.js';

const SP4 = getVariant('spider', 4);
const SP2 = getVariant('spider', 2);
const SE1 = getVariant('spiderette', 1);
const SE4 = getVariant('spiderette', 4);

const text = (cs: readonly number[]) => cs.map((c) => makeCard(c));
const stockOf = (cs: readonly number[], n: number) => cs.slice(cs.length - n);

function counts(cs: readonly number[]): number[] {
  const n = new Array<number>(52).fill(0);
  for (const c of cs) n[c]!++;
  return n;
}

describe('freshDeck (R2)', () => {
  it('R2: spider 4 suits is copy 1 then copy 2, each S H D C, ranks A..K', () => {
    const d = freshDeck(SP4);
    expect(d).toHaveLength(104);
    expect(text(d.slice(0, 3))).toEqual(['AS', '2S', '3S']);
    expect(text(d.slice(12, 15))).toEqual(['KS', 'AH', '2H']);
    expect(text(d.slice(50, 54))).toEqual(['QC', 'KC', 'AS', '2S']);
  });
  it('R2: every variant has its number of cards and copies of each card of its suits', () => {
    for (const v of ALL_VARIANTS) {
      const d = freshDeck(v);
      expect(d).toHaveLength(v.cards);
      expect(compositionFault(v, counts(d))).toBeNull();
    }
  });
  it('R2: 1-suit spiderette is 4 x 13 spades', () => {
    expect(text(freshDeck(SE1)).filter((t) => t === 'QS')).toHaveLength(4);
    expect(freshDeck(SE1).every((c) => c < 13)).toBe(true);
  });
});

// Golden deals: computed once from the frozen algorithm. A change of generator, deck order or shuffle
// loop makes these fail; that change is wrong (deal codes and stored studies depend on them).
describe('dealCards golden deals (must never change)', () => {
  it('SP4-1 card for card', () => {
    const d = dealCards(SP4, 1);
    expect(d).toEqual([
      15, 31, 40, 8, 13, 41, 0, 20, 19, 30, 2, 32, 19, 4, 42, 25, 30, 25, 29, 32, 8, 33, 48, 21, 2, 5, 20, 17, 12, 3, 26, 3, 45, 33, 43,
      17, 49, 6, 11, 50, 39, 23, 41, 16, 24, 44, 13, 29, 28, 21, 0, 51, 12, 47, 38, 36, 18, 48, 39, 27, 35, 10, 9, 46, 49, 14, 46, 51,
      43, 7, 1, 28, 50, 9, 47, 6, 37, 42, 31, 26, 40, 14, 18, 27, 15, 23, 11, 44, 36, 7, 1, 35, 34, 24, 16, 34, 45, 4, 22, 38, 10, 5, 37,
      22,
    ]);
    expect(text(d.slice(0, 12))).toEqual(['3H', '6D', '2C', '9S', 'AH', '3C', 'AS', '8H', '7H', '5D', '3S', '7D']);
    expect(text(stockOf(d, 50))).toEqual([
      'KD', 'JD', '6H', '10C', 'AC', '2D', '10D', 'JS', '10S', '8C', 'JC', '2H', '8C', 'KC', '5C', '8S', '2S', '3D', 'QC', '10S', '9C',
      '7S', 'QD', '4C', '6D', 'AD', '2C', '2H', '6H', '2D', '3H', 'JH', 'QS', '6C', 'JD', '8S', '2S', '10D', '9D', 'QH', '4H', '9D', '7C',
      '5S', '10H', 'KD', 'JS', '6S', 'QD', '10H',
    ]);
  });
  it('SE1-7 card for card', () => {
    const d = dealCards(SE1, 7);
    expect(d).toEqual([
      7, 1, 5, 7, 11, 5, 7, 1, 6, 5, 1, 0, 8, 10, 4, 11, 12, 11, 9, 12, 5, 9, 1, 0, 3, 2, 2, 7, 4, 8, 11, 0, 10, 2, 9, 12, 6, 4, 3, 6, 8,
      6, 10, 4, 0, 8, 2, 10, 3, 12, 9, 3,
    ]);
    expect(text(d.slice(0, 12))).toEqual(['8S', '2S', '6S', '8S', 'QS', '6S', '8S', '2S', '7S', '6S', '2S', 'AS']);
    expect(text(stockOf(d, 24))).toEqual([
      '5S', '9S', 'QS', 'AS', 'JS', '3S', '10S', 'KS', '7S', '5S', '4S', '7S', '9S', '7S', 'JS', '5S', 'AS', '9S', '3S', 'JS', '4S', 'KS',
      '10S', '4S',
    ]);
  });
  it('SP2-1007 card for card', () => {
    const d = dealCards(SP2, 1007);
    expect(d).toEqual([
      15, 16, 25, 12, 11, 9, 1, 11, 9, 0, 20, 19, 22, 14, 20, 17, 0, 21, 14, 21, 3, 21, 16, 1, 6, 4, 3, 5, 22, 24, 6, 24, 18, 25, 2, 10,
      16, 13, 0, 13, 5, 5, 17, 17, 23, 11, 12, 12, 6, 8, 7, 25, 22, 19, 20, 13, 1, 2, 22, 5, 14, 2, 2, 15, 14, 7, 8, 23, 9, 17, 25, 18,
      10, 20, 8, 1, 9, 12, 24, 4, 8, 21, 10, 16, 15, 15, 7, 11, 18, 23, 6, 19, 3, 19, 24, 0, 13, 10, 23, 4, 18, 3, 7, 4,
    ]);
    expect(text(d.slice(0, 12))).toEqual(['3H', '4H', 'KH', 'KS', 'QS', '10S', '2S', 'QS', '10S', 'AS', '8H', '7H']);
    expect(text(stockOf(d, 50))).toEqual([
      '8H', 'AH', '2S', '3S', '10H', '6S', '2H', '3S', '3S', '3H', '2H', '8S', '9S', 'JH', '10S', '5H', 'KH', '6H', 'JS', '8H', '9S',
      '2S', '10S', 'KS', 'QH', '5S', '9S', '9H', 'JS', '4H', '3H', '3H', '8S', 'QS', '6H', 'JH', '7S', '7H', '4S', '7H', 'QH', 'AS', 'AH',
      'JS', 'JH', '5S', '6H', '4S', '8S', '5S',
    ]);
  });
  it('SE4-4294967295 (the largest seed, int32 -1 for the generator) card for card', () => {
    expect(dealCards(SE4, MAX_SEED)).toEqual([
      21, 14, 7, 30, 16, 37, 13, 10, 12, 47, 49, 35, 19, 23, 3, 29, 28, 2, 4, 32, 18, 43, 20, 9, 15, 6, 50, 8, 25, 44, 38, 42, 46, 39, 33,
      31, 40, 5, 17, 36, 27, 51, 48, 22, 0, 11, 41, 34, 45, 1, 26, 24,
    ]);
  });
  it('is deterministic and different seeds give different deals', () => {
    expect(dealCards(SP4, 42)).toEqual(dealCards(SP4, 42));
    expect(dealCards(SP4, 42)).not.toEqual(dealCards(SP4, 43));
    expect(dealCards(SE4, 0)).not.toEqual(dealCards(SE4, MAX_SEED));
    expect(dealCards(SE4, 2 ** 31)).not.toEqual(dealCards(SE4, 0));
  });
});

describe('dealCards and dealPosition', () => {
  it('R2: any seed gives a permutation of the variant deck (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SEED }), fc.constantFrom(...ALL_VARIANTS), (seed, v) => {
        expect(compositionFault(v, counts(dealCards(v, seed)))).toBeNull();
      }),
      { numRuns: 200 },
    );
  });
  it('R3: SP4-1 lays 6,6,6,6,5,5,5,5,5,5 with the top card face up and 5 stock deals of 10', () => {
    const p = dealPosition(SP4, 1);
    expect(p.columns.map((c) => c.down.length)).toEqual([5, 5, 5, 5, 4, 4, 4, 4, 4, 4]);
    expect(p.columns.map((c) => c.up.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(text(p.columns[0]!.down)).toEqual(['3H', '6D', '2C', '9S', 'AH']);
    expect(text(p.columns[0]!.up)).toEqual(['3C']);
    expect(text(p.columns[1]!.down)).toEqual(['AS', '8H', '7H', '5D', '3S']);
    expect(p.stock.map((d) => d.length)).toEqual([10, 10, 10, 10, 10]);
    expect(text(p.stock[0]!)).toEqual(['KD', 'JD', '6H', '10C', 'AC', '2D', '10D', 'JS', '10S', '8C']);
    expect(samePosition(p, positionFromDeal(SP4, dealCards(SP4, 1)))).toBe(true);
  });
  it('R4: SE1-7 lays 1..7 cards and stock deals 7, 7, 7, 3', () => {
    const p = dealPosition(SE1, 7);
    expect(p.columns.map((c) => c.down.length + c.up.length)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(text(p.columns[0]!.up)).toEqual(['8S']);
    expect(p.stock.map((d) => d.length)).toEqual([7, 7, 7, 3]);
    expect(text(p.stock[3]!)).toEqual(['KS', '10S', '4S']);
  });
  it('refuses seeds outside 0..4294967295 with RangeError', () => {
    expect(isSeed(0)).toBe(true);
    expect(isSeed(MAX_SEED)).toBe(true);
    expect(isSeed(-1)).toBe(false);
    expect(isSeed(2 ** 32)).toBe(false);
    expect(isSeed(1.5)).toBe(false);
    expect(() => dealCards(SP4, -1)).toThrow(RangeError);
    expect(() => dealCards(SP4, 2 ** 32)).toThrow(RangeError);
    expect(() => dealPosition(SP4, 0.5)).toThrow(RangeError);
  });
});

describe('compositionFault (R2, R14)', () => {
  it('names a card not in the game', () => {
    const c = counts(freshDeck(SP2));
    c[2 * 13 + 4]! += 1; // 5D
    expect(compositionFault(SP2, c)).toBe('card 5D is not in a spider 2-suit game (suits S H)');
  });
  it('names an extra card before a short one', () => {
    const c = counts(freshDeck(SP2));
    c[1 * 13 + 4]! += 1; // 5H extra
    c[0]! -= 1; // AS short
    expect(compositionFault(SP2, c)).toBe('card 5H appears 5 times; a spider 2-suit game has 4 of each card');
  });
  it('names a short card', () => {
    const c = counts(freshDeck(SE4));
    c[12]! -= 1; // KS
    expect(compositionFault(SE4, c)).toBe('card KS appears 0 times; a spiderette 4-suit game has 1 of each card');
  });
  it('R14: counts removed runs as one copy of each card of the suit', () => {
    const c = counts(freshDeck(SP4));
    for (let r = 0; r < 13; r++) c[13 + r]! -= 1; // one hearts run gone
    expect(compositionFault(SP4, c)).toBe('card AH appears 1 time; a spider 4-suit game has 2 of each card');
    expect(compositionFault(SP4, c, [0, 1, 0, 0])).toBeNull();
    expect(compositionFault(SP4, counts(freshDeck(SP4)), [0, 1, 0, 0])).toBe(
      'card AH appears 3 times (counting its removed suits); a spider 4-suit game has 2 of each card',
    );
  });
  it('cardCounts of a dealt position agrees', () => {
    expect(compositionFault(SP4, cardCounts(dealPosition(SP4, 9)))).toBeNull();
  });
});
