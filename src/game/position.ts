/**
 * A position: the tableau columns (face-down and face-up cards), the stock deals still to come and the
 * completed suits removed so far (docs/rules.md R3–R5, R11–R15). Positions are plain immutable-by-convention
 * data; the rules in rules.ts return new positions.
 */
import type { Card, Suit } from './cards.js';
import { CARD_KINDS } from './cards.js';
import type { Variant } from './variant.js';

/** One tableau column. `down` and `up` are listed bottom first; the last of `up` is the exposed card. */
export interface Column {
  readonly down: readonly Card[];
  readonly up: readonly Card[];
}

/** A position of a game. */
export interface Position {
  readonly variant: Variant;
  /** Exactly `variant.columns` columns, column 1 first. */
  readonly columns: readonly Column[];
  /**
   * The stock deals not yet made, next deal first. Deal k holds `variant.stockDeals[j]` cards for the
   * matching j (the last deals of the variant); card i of a deal lands on column i+1 (R12).
   */
  readonly stock: readonly (readonly Card[])[];
  /** Suits of the completed runs removed so far, in removal order (R14). */
  readonly removed: readonly Suit[];
}

/**
 * The starting position of a deal. `cards` is the deal's card order: column 1 bottom to top, column 2,
 * …, then each stock deal in order, card for column 1 first. The top card of each column is face up
 * (R3, R4). Throws RangeError if the length is not `variant.cards` (callers validate first).
 */
export function positionFromDeal(variant: Variant, cards: readonly Card[]): Position {
  if (cards.length !== variant.cards) throw new RangeError(`a ${variant.game} deal has ${variant.cards} cards, got ${cards.length}`);
  let i = 0;
  const columns: Column[] = variant.layout.map((n) => {
    const col = cards.slice(i, i + n);
    i += n;
    return { down: col.slice(0, -1), up: col.slice(-1) };
  });
  const stock = variant.stockDeals.map((n) => {
    const d = cards.slice(i, i + n);
    i += n;
    return d;
  });
  return { variant, columns, stock, removed: [] };
}

/**
 * The deal's card order of a starting position (inverse of positionFromDeal). Returns undefined if the
 * position is not a start (a face-up card under the top, a missing stock deal or a removed suit).
 */
export function dealCardsOf(pos: Position): Card[] | undefined {
  const v = pos.variant;
  if (pos.removed.length || pos.stock.length !== v.stockDeals.length) return undefined;
  const out: Card[] = [];
  for (let c = 0; c < v.columns; c++) {
    const col = pos.columns[c]!;
    if (col.up.length !== 1 || col.down.length + 1 !== v.layout[c]) return undefined;
    out.push(...col.down, ...col.up);
  }
  for (const d of pos.stock) out.push(...d);
  return out;
}

/** Number of cards of each kind (index = card value) on the tableau and in the stock. */
export function cardCounts(pos: Position): number[] {
  const n = new Array<number>(CARD_KINDS).fill(0);
  for (const col of pos.columns) {
    for (const c of col.down) n[c]!++;
    for (const c of col.up) n[c]!++;
  }
  for (const d of pos.stock) for (const c of d) n[c]!++;
  return n;
}

/** Number of face-down cards on the tableau. */
export function faceDownCount(pos: Position): number {
  return pos.columns.reduce((s, c) => s + c.down.length, 0);
}

/** Number of stock cards still to deal. */
export function stockCount(pos: Position): number {
  return pos.stock.reduce((s, d) => s + d.length, 0);
}

/** The game is won when the tableau and the stock are empty (R5). */
export function isWon(pos: Position): boolean {
  return pos.stock.length === 0 && pos.columns.every((c) => c.down.length === 0 && c.up.length === 0);
}

/** Are two positions of the same variant identical card for card? */
export function samePosition(a: Position, b: Position): boolean {
  if (a.variant !== b.variant || a.columns.length !== b.columns.length || a.stock.length !== b.stock.length) return false;
  const eq = (x: readonly number[], y: readonly number[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    a.columns.every((c, i) => eq(c.down, b.columns[i]!.down) && eq(c.up, b.columns[i]!.up)) &&
    a.stock.every((d, i) => eq(d, b.stock[i]!)) &&
    eq(a.removed, b.removed)
  );
}

/** Suit counts of removed runs, used to check composition: removed[s] = runs of suit s removed. */
export function removedBySuit(pos: Position): number[] {
  const n = [0, 0, 0, 0];
  for (const s of pos.removed) n[s]!++;
  return n;
}

