/**
 * Moves described in words for people (the `moves` listing, the solution viewer's steps).
 */
import { makeCard, makeCardValue } from './cards.js';
import type { Move } from './move.js';
import type { Numbering } from './numbering.js';
import type { Position } from './position.js';
import { applyMove } from './rules.js';

/**
 * One line describing a legal move for people, judged against the position it is played from:
 * `move 5♦ from column 5 onto 6♣ in column 2, turns up a card`, `deal 7 cards from the stock onto
 * columns 1-7 (3 deals left after it)` (`(no deals left after it)` for the stock's last),
 * then what the move does besides moving cards, in the order it happens:
 * the suits it completes and removes (R14: `completes and removes a suit of ♠ in column 2`), the columns
 * it empties, and the face-down cards it turns up (R11, R15; not named: `moves` lists what a player
 * sees). The move must be legal there (as legalMoves or resolveMove give it). `numbering` shows
 * columns as a numbering does (numbering.ts; default: from 1), `cardName` names a card (default: rank
 * and Unicode suit; a suit is named as its Ace is, less the `A`).
 */
export function describeMove(pos: Position, move: Move, numbering?: Numbering, cardName?: (c: number) => string): string {
  const card = cardName ?? ((c: number) => makeCard(c, true));
  const n = (i: number) => (numbering ? numbering.shown[i]! : i + 1);
  let words: string;
  if (move.kind === 'deal') {
    const d = pos.stock[0]!;
    // the deals left after this one (the stock's last deal leaves none)
    const left = pos.stock.length - 1;
    words = `deal ${d.length} cards from the stock onto columns 1-${d.length} (${left === 0 ? 'no deals' : left === 1 ? '1 deal' : `${left} deals`} left after it)`;
  } else {
    const src = pos.columns[move.from]!.up;
    const group = src.slice(src.length - move.count);
    const what = move.count === 1 ? card(group[0]!) : `${move.count} cards ${card(group[0]!)}..${card(group[group.length - 1]!)}`;
    const dst = pos.columns[move.to]!;
    const onto = dst.up.length === 0 ? `into empty column ${n(move.to)}` : `onto ${card(dst.up[dst.up.length - 1]!)} in column ${n(move.to)}`;
    words = `move ${what} from column ${n(move.from)} ${onto}`;
  }
  const { position: after, effects } = applyMove(pos, move);
  const events = effects.removed.map((suit, k) => `completes and removes a suit of ${card(makeCardValue(suit, 1)).replace(/^A/, '')} in column ${n(effects.removedFrom[k]!)}`);
  after.columns.forEach((c, i) => {
    if (c.up.length === 0 && pos.columns[i]!.up.length > 0) events.push(`empties column ${n(i)}`);
  });
  if (effects.flips > 0) events.push(effects.flips === 1 ? 'turns up a card' : `turns up ${effects.flips} cards`);
  return [words, ...events].join(', ');
}
