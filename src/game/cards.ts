/**
 * Cards, suits and ranks (docs/rules.md R1, R2).
 *
 * A card is a small integer `suit * 13 + (rank - 1)`, 0..51, so that every card of one rank and
 * suit is the same value: copies are indistinguishable for play (R2).
 */

/** Suit index: 0 spades, 1 hearts, 2 diamonds, 3 clubs. 1-suit games use spades only, 2-suit games spades and hearts (R2). */
export type Suit = 0 | 1 | 2 | 3;

/** A card: `suit * 13 + (rank - 1)`, an integer 0..51. */
export type Card = number;

/** Number of distinct card values. */
export const CARD_KINDS = 52;

/** Suit letters in index order, as used in every text form: S, H, D, C. */
export const SUIT_LETTERS = ['S', 'H', 'D', 'C'] as const;
/** Unicode suit symbols in index order: ♠ ♥ ♦ ♣. */
export const SUIT_SYMBOLS = ['\u2660', '\u2665', '\u2666', '\u2663'] as const;
/** Rank labels indexed by rank 1..13 (index 0 unused): A 2 … 10 J Q K (R1). */
export const RANK_LABELS = ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] as const;

/** Rank of a card, 1 (Ace, lowest) to 13 (King, highest) (R1). */
export function rankOf(card: Card): number {
  return (card % 13) + 1;
}

/** Suit index of a card, 0..3. */
export function suitOf(card: Card): Suit {
  return Math.floor(card / 13) as Suit;
}

/** Builds a card from a suit index 0..3 and a rank 1..13. */
export function makeCardValue(suit: Suit, rank: number): Card {
  return suit * 13 + (rank - 1);
}

/**
 * Text of a card: rank then suit letter, `AS`, `10H`, `QD` (the shape of test/fixtures/pysol), or with
 * `unicode` the suit symbol, `Q♦`.
 */
export function makeCard(card: Card, unicode = false): string {
  return RANK_LABELS[rankOf(card)] + (unicode ? SUIT_SYMBOLS[suitOf(card)] : SUIT_LETTERS[suitOf(card)]);
}

const RANK_BY_LABEL: Record<string, number> = {
  A: 1, '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9, '10': 10, T: 10, J: 11, Q: 12, K: 13,
};
const SUIT_BY_CHAR: Record<string, Suit> = {
  S: 0, H: 1, D: 2, C: 3, '\u2660': 0, '\u2665': 1, '\u2666': 2, '\u2663': 3, '\u2664': 0, '\u2661': 1, '\u2662': 2, '\u2667': 3,
};

/**
 * Parses a card: rank (`A` or `1`, `2`…`10` or `T`, `J`, `Q`, `K`) then suit (`S H D C` or `♠ ♥ ♦ ♣`),
 * case-insensitive. Returns undefined when the text is not a card.
 */
export function parseCard(text: string): Card | undefined {
  const t = text.trim().toUpperCase();
  if (t.length < 2) return undefined;
  const suit = SUIT_BY_CHAR[t.slice(-1)];
  const rank = RANK_BY_LABEL[t.slice(0, -1)];
  if (suit === undefined || rank === undefined) return undefined;
  return makeCardValue(suit, rank);
}
