/**
 * Moves and the project's one move notation, used by every command that reads or writes moves.
 *
 * Notation (case-insensitive, shell-safe):
 * - `d` — deal from the stock (R12).
 * - `3-7` — move the movable group from column 3 onto the last card of column 7; the number of cards is
 *   whatever makes the group's head one rank below that card (R6, R9), so it is never ambiguous.
 * - `3-7x4` — the same with the card count given; required when column 7 is empty (R10), where any
 *   suffix of the movable group may go. A count may also be given onto a card; it must then agree.
 * Columns are numbered from 1. `makeMove` always writes the count for a move into an empty column and
 * never otherwise.
 */
import { err, ok, quoteInput, type Result } from './errors.js';

/** A move: a deal from the stock, or `count` cards from the end of column `from` to column `to` (0-based). */
export type Move = { readonly kind: 'deal' } | { readonly kind: 'move'; readonly from: number; readonly to: number; readonly count: number };

/** A move as parsed from text, before the position fills in an omitted count (`count` 0 = not given). */
export type MoveSpec = { readonly kind: 'deal' } | { readonly kind: 'move'; readonly from: number; readonly to: number; readonly count: number };

/** The deal move. */
export const DEAL: Move = Object.freeze({ kind: 'deal' as const });

/**
 * Text of a move in the project's notation. `toEmpty` says whether the target column was empty, which
 * makes the count part of the notation.
 */
export function makeMove(move: Move, toEmpty: boolean): string {
  if (move.kind === 'deal') return 'd';
  const base = `${move.from + 1}-${move.to + 1}`;
  return toEmpty ? `${base}x${move.count}` : base;
}

/**
 * The shape of a card move, `FROM-TO` or `FROM-TOxCOUNT` (any case): groups 1 and 2 the columns, 3 the
 * count, as digits (any number of them, leading zeros allowed: `05-4x01` is `5-4x1`); the values are
 * judged after (parseMove). Shared with the column numberings (numbering.ts), so that both read the
 * same texts as moves.
 */
export const MOVE_TEXT_RE = /^(\d+)-(\d+)(?:x(\d+))?$/i;

/** Digits as a message names them: leading zeros dropped, a long run of digits quoted and cut (quoteInput). */
export function digitsText(d: string): string {
  const t = d.replace(/^0+(?=\d)/, '');
  return t.length > 6 ? quoteInput(t) : t;
}

/**
 * Parses a move in the project's notation for a game of `columns` columns. The count is 0 when omitted.
 * Errors (code `bad-move`) name the text and what is wrong with it.
 */
export function parseMove(text: string, columns: number): Result<MoveSpec> {
  const t = text.trim().toLowerCase();
  if (t === 'd' || t === 'deal') return ok({ kind: 'deal' });
  const m = MOVE_TEXT_RE.exec(t);
  if (!m) return err('bad-move', `move ${quoteInput(text)}: not a move; write d (deal), FROM-TO (3-7) or FROM-TOxCOUNT (3-7x4)`);
  const from = Number(m[1]);
  const to = Number(m[2]);
  const count = m[3] === undefined ? 0 : Number(m[3]);
  for (const [c, d] of [[from, m[1]!], [to, m[2]!]] as const) {
    if (c < 1 || c > columns) return err('bad-move', `move ${quoteInput(text)}: column ${digitsText(d)} does not exist (columns are 1-${columns})`);
  }
  if (from === to) return err('bad-move', `move ${quoteInput(text)}: a move needs two different columns`);
  if (m[3] !== undefined && count < 1) return err('bad-move', `move ${quoteInput(text)}: the card count must be at least 1`);
  return ok({ kind: 'move', from: from - 1, to: to - 1, count });
}
