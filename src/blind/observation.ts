/**
 * What a blind player sees (docs/rules.md R18: a player's own view hides the face-down cards and the
 * stock): the face-up cards of each column, how many face-down cards each column has, the sizes of the
 * stock deals still to come, the completed suits, the moves played so far, and the multiset of cards
 * not yet seen (the deck less the face-up cards and the removed suits).
 *
 * An Observation holds no hidden card by construction: `observe` copies only the face-up cards and the
 * counts. Legal moves are computed from it alone (`observedMoves`): no rule of play (R6–R12) needs a
 * face-down card's value, only whether a column is empty (R10, R12) and how many deals are left.
 */
import { CARD_KINDS, type Card, type Suit } from '../game/cards.js';
import type { Move } from '../game/move.js';
import type { Column, Position } from '../game/position.js';
import { legalMoves, movableLength } from '../game/rules.js';
import { freshDeck } from '../game/deal.js';
import type { Variant } from '../game/variant.js';

/** One column as a player sees it. */
export interface ObservedColumn {
  /** Number of face-down cards (their values are hidden). */
  readonly down: number;
  /** Face-up cards, bottom first; the last is the exposed card. */
  readonly up: readonly Card[];
}

/** Everything a blind player is told about a position. */
export interface Observation {
  readonly variant: Variant;
  /** `variant.columns` columns, column 1 first. */
  readonly columns: readonly ObservedColumn[];
  /** Sizes of the stock deals still to come, next deal first (R12); their cards are hidden. */
  readonly stockDeals: readonly number[];
  /** Suits of the completed runs removed so far, in removal order (R14). */
  readonly removed: readonly Suit[];
  /** Moves (deals included) played so far in this game. */
  readonly moves: number;
  /**
   * Cards not yet seen: `unseen[c]` copies of card value c (0..51) are face down or in the stock. Their
   * sum is the number of face-down cards plus the stock's cards.
   */
  readonly unseen: readonly number[];
}

/**
 * The Observation of a position after `moves` moves: face-up cards and counts only. The unseen cards
 * are the variant's deck (R2) less the face-up cards and the 13 cards of each removed suit (R14).
 */
export function observe(pos: Position, moves = 0): Observation {
  const unseen = new Array<number>(CARD_KINDS).fill(0);
  for (const c of freshDeck(pos.variant)) unseen[c]!++;
  for (const col of pos.columns) for (const c of col.up) unseen[c]!--;
  for (const s of pos.removed) for (let r = 0; r < 13; r++) unseen[s * 13 + r]!--;
  return {
    variant: pos.variant,
    columns: pos.columns.map((c) => ({ down: c.down.length, up: c.up.slice() })),
    stockDeals: pos.stock.map((d) => d.length),
    removed: pos.removed.slice(),
    moves,
    unseen,
  };
}

/** Placeholder value of a hidden card in a `shadowPosition` (never a real card value). */
export const HIDDEN: Card = -1;

/**
 * A Position with the observation's visible cards and every hidden card `HIDDEN` (-1): enough for the
 * rules engine's move generation (legalMoves reads only face-up cards and column/stock sizes), never to
 * be played through a move that turns a card up.
 */
export function shadowPosition(obs: Observation): Position {
  return {
    variant: obs.variant,
    columns: obs.columns.map((c): Column => ({ down: new Array<Card>(c.down).fill(HIDDEN), up: c.up })),
    stock: obs.stockDeals.map((n) => new Array<Card>(n).fill(HIDDEN)),
    removed: obs.removed,
  };
}

/** The legal moves of the observed position, in legalMoves's order (rules.ts; R6–R12). */
export function observedMoves(obs: Observation): Move[] {
  return legalMoves(shadowPosition(obs));
}

/**
 * Does a move turn up a hidden card when played from the observed position? A deal always does (its
 * cards come from the stock, R12); a card move does when it leaves a column with face-down cards and no
 * face-up card (R11), counting a completed suit it removes from the source (R14, R15 cannot empty the
 * target: the target keeps the cards under the removed run or turns one up, which also counts).
 */
export function revealsCard(obs: Observation, move: Move): boolean {
  if (move.kind === 'deal') return true;
  const src = obs.columns[move.from]!;
  if (src.down > 0 && src.up.length === move.count) return true;
  // a completed run formed on the target and removed, uncovering a face-down card there
  const dst = obs.columns[move.to]!;
  if (dst.down > 0) {
    const moving = src.up.slice(src.up.length - move.count);
    const after = [...dst.up, ...moving];
    if (after.length === 13 && movableLength(after) === 13) return true;
  }
  return false;
}

/** A key of the visible state (columns and stock size, not moves): equal keys, same view. */
export function observationKey(obs: Observation): string {
  return `${obs.columns.map((c) => `${c.down}:${c.up.join('.')}`).join('/')}|${obs.stockDeals.length}|${obs.removed.length}`;
}

/** Number of hidden cards (face-down and stock) in an observation. */
export function hiddenCount(obs: Observation): number {
  return obs.columns.reduce((s, c) => s + c.down, 0) + obs.stockDeals.reduce((s, n) => s + n, 0);
}

/**
 * A completion of the observation: a Position whose visible part is the observation's and whose hidden
 * cards are the unseen cards in the order `order` gives them (a permutation of the unseen multiset,
 * filling column 1's face-down cards bottom first, then column 2's, …, then the stock deals in order).
 * Throws RangeError if `order` has the wrong length.
 */
export function completion(obs: Observation, order: readonly Card[]): Position {
  if (order.length !== hiddenCount(obs)) throw new RangeError(`a completion needs ${hiddenCount(obs)} cards, got ${order.length}`);
  let i = 0;
  const columns = obs.columns.map((c): Column => {
    const down = order.slice(i, i + c.down);
    i += c.down;
    return { down, up: c.up };
  });
  const stock = obs.stockDeals.map((n) => {
    const d = order.slice(i, i + n);
    i += n;
    return d;
  });
  return { variant: obs.variant, columns, stock, removed: obs.removed };
}

/** The unseen cards as a list, lowest card value first, each repeated by its count. */
export function unseenList(obs: Observation): Card[] {
  const out: Card[] = [];
  obs.unseen.forEach((n, c) => {
    for (let k = 0; k < n; k++) out.push(c);
  });
  return out;
}
