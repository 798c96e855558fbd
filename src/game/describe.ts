/**
 * Moves described in words for people (the `moves` listing, the solution viewer's steps).
 */
import { makeCard } from './cards.js';
import type { Move } from './move.js';
import type { Numbering } from './numbering.js';
import type { Position } from './position.js';

/**
 * One line describing a legal move for people, judged against the position it is played from:
 * `move 5♦ from column 5 onto 6♣ in column 2, turns up a card`, `deal 7 cards from the stock onto
 * columns 1-7 (4 deals left)`. The move must be legal there (as legalMoves or resolveMove give it).
 * `numbering` shows columns as a numbering does (numbering.ts; default: from 1), `cardName` names a
 * card (default: rank and Unicode suit).
 */
export function describeMove(pos: Position, move: Move, numbering?: Numbering, cardName?: (c: number) => string): string {
  const card = cardName ?? ((c: number) => makeCard(c, true));
  const n = (i: number) => (numbering ? numbering.shown[i]! : i + 1);
  if (move.kind === 'deal') {
    const d = pos.stock[0]!;
    return `deal ${d.length} cards from the stock onto columns 1-${d.length} (${pos.stock.length} deal${pos.stock.length === 1 ? '' : 's'} left)`;
  }
  const src = pos.columns[move.from]!.up;
  const group = src.slice(src.length - move.count);
  const what = move.count === 1 ? card(group[0]!) : `${move.count} cards ${card(group[0]!)}..${card(group[group.length - 1]!)}`;
  const dst = pos.columns[move.to]!;
  const onto = dst.up.length === 0 ? `into empty column ${n(move.to)}` : `onto ${card(dst.up[dst.up.length - 1]!)} in column ${n(move.to)}`;
  const left = src.length - move.count;
  const after = left === 0 && pos.columns[move.from]!.down.length > 0 ? ', turns up a card' : left === 0 ? `, empties column ${n(move.from)}` : '';
  return `move ${what} from column ${n(move.from)} ${onto}${after}`;
}
