/**
 * The six variants as data: Spider and Spiderette, each in 1, 2 and 4 suits (docs/rules.md R2–R5, R12).
 * Nothing in the rules engine tests a game by name; it reads these fields.
 */
import type { Suit } from './cards.js';

/** Game name as used on the command line and in every stored result. */
export type GameName = 'spider' | 'spiderette';
/** Number of suits in play (R2). */
export type SuitCount = 1 | 2 | 4;

/** Everything that differs between the variants. */
export interface Variant {
  readonly game: GameName;
  readonly suits: SuitCount;
  /** Two-letter game tag used in deal codes: `SP` or `SE`. */
  readonly tag: 'SP' | 'SE';
  /** Number of tableau columns: 10 Spider (R3), 7 Spiderette (R4). */
  readonly columns: number;
  /** Cards dealt to each column at the start, left to right; the last of each is face up (R3, R4). */
  readonly layout: readonly number[];
  /** Size of each stock deal in order; deal k lays one card on each of columns 1..size (R3, R4, R12). */
  readonly stockDeals: readonly number[];
  /** Suits in play, in the order used to build a fresh deck (R2). */
  readonly suitList: readonly Suit[];
  /** Copies of each (rank, suit) card: total cards / (13 * suits) (R2). */
  readonly copies: number;
  /** Total cards: 104 Spider, 52 Spiderette (R2). */
  readonly cards: number;
  /** Complete suits to remove to win: 8 Spider, 4 Spiderette (R5). */
  readonly completeSuits: number;
}

const SUIT_LISTS: Record<SuitCount, readonly Suit[]> = { 1: [0], 2: [0, 1], 4: [0, 1, 2, 3] };

function makeVariant(game: GameName, suits: SuitCount): Variant {
  const spider = game === 'spider';
  const cards = spider ? 104 : 52;
  return Object.freeze({
    game,
    suits,
    tag: spider ? 'SP' : 'SE',
    columns: spider ? 10 : 7,
    layout: Object.freeze(spider ? [6, 6, 6, 6, 5, 5, 5, 5, 5, 5] : [1, 2, 3, 4, 5, 6, 7]),
    stockDeals: Object.freeze(spider ? [10, 10, 10, 10, 10] : [7, 7, 7, 3]),
    suitList: SUIT_LISTS[suits],
    copies: cards / (13 * suits),
    cards,
    completeSuits: cards / 13,
  });
}

/** All six variants, keyed `spider-1` … `spiderette-4`. */
export const VARIANTS: Readonly<Record<string, Variant>> = Object.freeze(
  Object.fromEntries(
    (['spider', 'spiderette'] as const).flatMap((g) =>
      ([1, 2, 4] as const).map((s) => [`${g}-${s}`, makeVariant(g, s)]),
    ),
  ),
);

/** The variant for a game and suit count. */
export function getVariant(game: GameName, suits: SuitCount): Variant {
  return VARIANTS[`${game}-${suits}`]!;
}

/** All six variants in a fixed order (spider 1, 2, 4, spiderette 1, 2, 4). */
export const ALL_VARIANTS: readonly Variant[] = Object.freeze(Object.values(VARIANTS));

/** Is this a game name? */
export function isGameName(s: string): s is GameName {
  return s === 'spider' || s === 'spiderette';
}

/** Is this a suit count? */
export function isSuitCount(n: number): n is SuitCount {
  return n === 1 || n === 2 || n === 4;
}
