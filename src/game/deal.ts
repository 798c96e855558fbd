/**
 * Seeded deals: the project's own numbering of deals (docs/rules.md R2–R4, R18).
 *
 * A seeded deal is fixed by its variant and a seed 0..4294967295. The card order it produces is part of
 * the project's record (deal codes such as `SP2-1007`, stored study results), so **this algorithm must
 * never change**: not the generator, not the fresh-deck order, not the shuffle loop. Golden tests in
 * test/deal.test.ts pin several deals card for card; if one of them fails, the change is wrong.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { CARD_KINDS, makeCard, makeCardValue, SUIT_LETTERS, suitOf, type Card } from './cards.js';
import { positionFromDeal, type Position } from './position.js';
import type { Variant } from './variant.js';

/** Largest seed a seeded deal accepts (2^32 - 1). Seeds are integers 0..MAX_SEED. */
export const MAX_SEED = 4294967295;

/** Is this an integer seed in 0..MAX_SEED? */
export function isSeed(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= MAX_SEED;
}

/**
 * The fresh, unshuffled deck of a variant (R2): for copy 0..copies-1, for each suit of
 * `variant.suitList`, ranks Ace..King. Length `variant.cards`.
 */
export function freshDeck(variant: Variant): Card[] {
  const out: Card[] = [];
  for (let copy = 0; copy < variant.copies; copy++) {
    for (const suit of variant.suitList) {
      for (let rank = 1; rank <= 13; rank++) out.push(makeCardValue(suit, rank));
    }
  }
  return out;
}

/**
 * The card order of seeded deal `seed` of a variant, in the order `positionFromDeal` reads it: column 1
 * bottom to top, column 2, …, then each stock deal, card for column 1 first (R3, R4).
 *
 * Algorithm (frozen, see the module comment): start from `freshDeck(variant)`; the generator is
 * pure-rand 7.0.1's `xoroshiro128plus(seed | 0)` (the seed's 32 bits read as a signed int32, so seeds
 * 2^31..2^32-1 map to distinct negative int32 values); Fisher–Yates from the last index down to 1, each
 * step drawing `j = unsafeUniformIntDistribution(0, i, rng)` (uniform, unbiased) and swapping cards i
 * and j. The shuffled array is the deal order.
 *
 * Throws RangeError if `seed` is not an integer in 0..MAX_SEED (callers validate user input first).
 */
export function dealCards(variant: Variant, seed: number): Card[] {
  if (!isSeed(seed)) throw new RangeError(`seed ${seed}: not an integer in 0..${MAX_SEED}`);
  return shuffleInPlace(freshDeck(variant), xoroshiro128plus(seed | 0));
}

/**
 * Shuffles `items` in place with `rng` and returns it: Fisher–Yates from the last index down to 1, each
 * step drawing `j = unsafeUniformIntDistribution(0, i, rng)` and swapping items i and j (the deal's
 * algorithm, frozen: see dealCards). `rng` is a pure-rand generator, advanced in place.
 */
export function shuffleInPlace<T>(items: T[], rng: RandomGenerator): T[] {
  for (let i = items.length - 1; i >= 1; i--) {
    const j = unsafeUniformIntDistribution(0, i, rng);
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}

/** The starting position of seeded deal `seed` of a variant (R3, R4). Throws RangeError on a bad seed. */
export function dealPosition(variant: Variant, seed: number): Position {
  return positionFromDeal(variant, dealCards(variant, seed));
}

/**
 * Checks the composition of a set of cards against a variant (R2): every card of the variant's suits
 * must appear exactly `variant.copies` times, counting `removedRuns[s]` completed runs of suit s as one
 * copy of each card of suit s (R14), and no card of another suit may appear. `counts[c]` is the number
 * of cards of value c (see cardCounts in position.ts). Returns null when the composition is right, else
 * a one-line description of the first fault, meant to follow the name of the input: a card not in the
 * game first, then the first card with too many copies, then the first with too few, e.g.
 * `card 5H appears 5 times; a spider 2-suit game has 4 of each card`.
 */
export function compositionFault(variant: Variant, counts: readonly number[], removedRuns: readonly number[] = [0, 0, 0, 0]): string | null {
  const name = `a ${variant.game} ${variant.suits}-suit game`;
  const inGame = (c: number) => variant.suitList.includes(suitOf(c));
  const have = (c: number) => (counts[c] ?? 0) + (removedRuns[suitOf(c)] ?? 0);
  const note = (c: number) => (removedRuns[suitOf(c)] ? ' (counting its removed suits)' : '');
  for (let c = 0; c < CARD_KINDS; c++) {
    if (!inGame(c) && (counts[c] ?? 0) > 0) return `card ${makeCard(c)} is not in ${name} (suits ${variant.suitList.map((s) => SUIT_LETTERS[s]).join(' ')})`;
  }
  for (let c = 0; c < CARD_KINDS; c++) {
    if (inGame(c) && have(c) > variant.copies) return `card ${makeCard(c)} appears ${have(c)} times${note(c)}; ${name} has ${variant.copies} of each card`;
  }
  for (let c = 0; c < CARD_KINDS; c++) {
    const n = have(c);
    if (inGame(c) && n < variant.copies) return `card ${makeCard(c)} appears ${n} time${n === 1 ? '' : 's'}${note(c)}; ${name} has ${variant.copies} of each card`;
  }
  return null;
}
