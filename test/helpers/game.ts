/**
 * Shared test builders for the rules engine: cards from their text, hand-built positions, move values,
 * a readable view of columns, the fresh deck of a variant and a small seeded shuffle.
 */
import { makeCard, makeCardValue, parseCard, RANK_LABELS, type Card, type Suit } from '../../src/game/cards.js';
import { DEAL, type Move } from '../../src/game/move.js';
import type { Column, Position } from '../../src/game/position.js';
import { getVariant, type Variant } from '../../src/game/variant.js';

/** The six variants by short name. */
export const SP1 = getVariant('spider', 1);
export const SP2 = getVariant('spider', 2);
export const SP4 = getVariant('spider', 4);
export const SE1 = getVariant('spiderette', 1);
export const SE2 = getVariant('spiderette', 2);
export const SE4 = getVariant('spiderette', 4);

/** Cards as text: a space-separated string (`'KS QS JS'`, `''` for none) or an array of card texts. */
export type CardsText = string | readonly string[];

/** One card from its text (`10H`, `QS`, `A♣`); throws on a bad text so a typo fails loudly. */
export function card(text: string): Card {
  const c = parseCard(text);
  if (c === undefined) throw new Error(`test builder: "${text}" is not a card`);
  return c;
}

/** Several cards from their text, bottom (first) to top (last). */
export function cards(spec: CardsText): Card[] {
  const list = typeof spec === 'string' ? spec.split(/\s+/).filter((s) => s.length > 0) : spec;
  return list.map(card);
}

/** Text of the cards of one suit from `high` (default King) down to `low` (default Ace): `run('S')` is `'KS QS … AS'`. */
export function run(suit: 'S' | 'H' | 'D' | 'C', low = 1, high = 13): string {
  const out: string[] = [];
  for (let r = high; r >= low; r--) out.push(RANK_LABELS[r] + suit);
  return out.join(' ');
}

/** A column as `[down, up]` (text or card values), or `[]` / `''` for an empty column. */
export type ColumnSpec = readonly [CardsText | readonly Card[], CardsText | readonly Card[]] | readonly [] | '';

/**
 * A hand-built position: one `[down, up]` per column (exactly `variant.columns` of them), the stock deals
 * still to come (next first) and the suits already removed. Cards may be given as text or as values.
 */
export function pos(
  variant: Variant,
  columns: readonly ColumnSpec[],
  stock: readonly (CardsText | readonly Card[])[] = [],
  removed: readonly Suit[] = [],
): Position {
  if (columns.length !== variant.columns) {
    throw new Error(`test builder: ${variant.game} has ${variant.columns} columns, got ${columns.length}`);
  }
  const toCards = (x: CardsText | readonly Card[]): Card[] =>
    typeof x === 'string' ? cards(x) : x.length > 0 && typeof x[0] === 'number' ? [...(x as readonly Card[])] : cards(x as readonly string[]);
  const cols: Column[] = columns.map((c) => {
    if (c === '' || c.length === 0) return { down: [], up: [] };
    const down = toCards(c[0]!);
    const up = toCards(c[1]!);
    if (down.length > 0 && up.length === 0) throw new Error('test builder: a column with face-down cards needs a face-up card (R11)');
    return { down, up };
  });
  return { variant, columns: cols, stock: stock.map(toCards), removed: [...removed] };
}

/** A card move with 1-based columns, as legalMoves returns it. */
export function M(from: number, to: number, count = 1): Move {
  return { kind: 'move', from: from - 1, to: to - 1, count };
}

/** The deal move. */
export const D: Move = DEAL;

/** A column as text, `'5C 9S | 4H 3H'` (face-down | face-up); `''` for an empty column. */
export function colText(col: Column): string {
  const down = col.down.map((c) => makeCard(c)).join(' ');
  const up = col.up.map((c) => makeCard(c)).join(' ');
  if (!down && !up) return '';
  return down ? `${down} | ${up}` : `| ${up}`;
}

/** Every column of a position as text (see colText). */
export function view(p: Position): string[] {
  return p.columns.map(colText);
}

/** The stock deals as text, next deal first. */
export function stockText(p: Position): string[] {
  return p.stock.map((d) => d.map((c) => makeCard(c)).join(' '));
}

/**
 * The fresh deck of a variant (R2), built here independently of src/game/deal.ts: for each copy, for each
 * suit of the variant, Ace to King.
 */
export function deckOf(variant: Variant): Card[] {
  const out: Card[] = [];
  for (let copy = 0; copy < variant.copies; copy++) {
    for (const s of variant.suitList) for (let r = 1; r <= 13; r++) out.push(makeCardValue(s, r));
  }
  return out;
}

/** A small seeded generator (mulberry32): returns floats in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Fisher–Yates shuffle of a copy of `items` driven by `rand`. */
export function shuffle<T>(items: readonly T[], rand: () => number): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i >= 1; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
  return a;
}
