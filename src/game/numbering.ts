/**
 * Column numberings of moves. spidersolve numbers its own layout's columns 1..n (R3, R4); a PySolFC
 * deal (`pysol:…`) is laid out differently in PySolFC (pysol.ts: our Spider columns 1–10 are
 * PySolFC's 1, 4, 7, 10, 2, 3, 5, 6, 8, 9), so a line meant to be played in PySolFC is written with
 * PySolFC's column numbers. A numbering turns the move notation (move.ts) between the two; deals
 * (`d`) and counts (`x4`) are the same in both.
 */
import { err, ok, quoteInput, type Result } from './errors.js';
import { digitsText, MOVE_TEXT_RE } from './move.js';
import type { LineNames } from './score.js';

/** A column numbering: `shown[i]` is the number shown for spidersolve's column i+1. */
export interface Numbering {
  /** `pysol` (PySolFC's columns) or `spidersolve` (this project's). */
  readonly name: 'pysol' | 'spidersolve';
  readonly shown: readonly number[];
}

/** spidersolve's own numbering of `columns` columns (the identity). */
export function ownNumbering(columns: number): Numbering {
  return { name: 'spidersolve', shown: Array.from({ length: columns }, (_, i) => i + 1) };
}

/**
 * PySolFC's numbering from a PySolFC deal's column map (`PysolDeal.columnMap`: the PySolFC column,
 * 1-based, that became our column i+1). Throws RangeError if the map is not a permutation of 1..n.
 */
export function pysolNumbering(columnMap: readonly number[]): Numbering {
  const n = columnMap.length;
  if ([...columnMap].sort((a, b) => a - b).some((c, i) => c !== i + 1)) throw new RangeError(`pysolNumbering: not a permutation of 1..${n}: ${columnMap.join(',')}`);
  return { name: 'pysol', shown: [...columnMap] };
}

/** The count part of a move as written (`x04`: `x04`, kept for parseMove to judge), or '' without one. */
function countText(digits: string | undefined): string {
  return digits === undefined ? '' : `x${digits}`;
}

/** A move of spidersolve's notation written in `numbering` (`d` and any text that is not a card move are kept). */
export function toNumbering(move: string, numbering: Numbering): string {
  const m = MOVE_TEXT_RE.exec(move.trim());
  if (!m) return move;
  const f = numbering.shown[Number(m[1]) - 1];
  const t = numbering.shown[Number(m[2]) - 1];
  return f === undefined || t === undefined ? move : `${f}-${t}${countText(m[3])}`;
}

/**
 * A move written in `numbering` turned into spidersolve's notation. Error `bad-move` for a column the
 * game does not have (naming the numbering); anything else that is not a card move is kept, for the
 * move parser to judge.
 */
export function fromNumbering(move: string, numbering: Numbering): Result<string> {
  const m = MOVE_TEXT_RE.exec(move.trim());
  if (!m) return ok(move);
  const back = (c: number): number => numbering.shown.indexOf(c) + 1;
  const f = back(Number(m[1]));
  const t = back(Number(m[2]));
  if (f === 0 || t === 0) {
    const bad = f === 0 ? m[1] : m[2];
    return err('bad-move', `move ${quoteInput(move)}: column ${digitsText(bad!)} does not exist (columns are 1-${numbering.shown.length}${numbering.name === 'pysol' ? ', PySolFC\'s numbering' : ''})`);
  }
  return ok(`${f}-${t}${countText(m[3])}`);
}

/**
 * How errors name the moves of a line for a reader of `numbering` (score.ts LineNames): each move as
 * `written` there (one text a move), and each column by its number there.
 */
export function lineNames(written: readonly string[], numbering: Numbering): LineNames {
  return { texts: written, column: (c) => numbering.shown[c] ?? c + 1 };
}
