/**
 * Scores and move counts (docs/rules.md R16, R17) and the replay of a line of play.
 */
import { isWon, type Position } from './position.js';
import { applyMove, moveText, resolveMove } from './rules.js';
import { parseMove, type Move } from './move.js';
import { err, ok, type Result } from './errors.js';

/** Classic score (R16): 500, −1 a move or deal, +100 a completed suit; no floor. `undos` cost 1 each. */
export function classicScore(moves: number, completedSuits: number, undos = 0): number {
  return 500 - moves - undos + 100 * completedSuits;
}

/** Reveal score (R17): +100 a completed suit, +5 a face-down card turned up; moves are free. */
export function revealScore(flips: number, completedSuits: number): number {
  return 100 * completedSuits + 5 * flips;
}

/** The outcome of playing a line of moves from a position. */
export interface PlayedLine {
  /** The position after the last move played. */
  readonly position: Position;
  /** The moves played, in the project's notation (counts filled in). */
  readonly moves: readonly string[];
  /** Face-down cards turned up along the line. */
  readonly flips: number;
  /** Completed suits removed along the line (not counting those removed before the start). */
  readonly completed: number;
  /** Classic score of the line (R16). */
  readonly classic: number;
  /** Reveal score of the line (R17). */
  readonly reveal: number;
  /** Is the game won at the end (R5)? */
  readonly won: boolean;
}

/**
 * How errors name the moves of a line written in another column numbering (numbering.ts: a PySolFC
 * deal's): `texts[i]` is move i as written, `column(c)` the number written for column c (0-based).
 */
export interface LineNames {
  readonly texts: readonly string[];
  readonly column: (c: number) => number;
}

/**
 * Move i of a line, `text` in the project's notation, parsed and checked against `pos` (R6–R12). The
 * error (`bad-move` or `illegal-move`) names the move, and its columns, as `names` says it was written
 * (default: as `text`), and ends "(move i+1 of the line)".
 */
export function lineMove(pos: Position, text: string, i: number, names?: LineNames): Result<Move> {
  const written = names?.texts[i] ?? text;
  const spec = parseMove(text, pos.columns.length);
  if (!spec.ok) {
    // (a numbering maps columns one to one, so the text as written fails as the text does)
    const own = written === text ? spec : parseMove(written, pos.columns.length);
    return err(spec.error.code, `${(own.ok ? spec : own).error.message} (move ${i + 1} of the line)`);
  }
  const r = resolveMove(pos, spec.value, written, names?.column);
  return r.ok ? r : err(r.error.code, `${r.error.message} (move ${i + 1} of the line)`);
}

/**
 * Plays moves given as text (or Move values) from a position, stopping at the first one that does not
 * parse or is illegal: the error names that move, its place in the line and the rule it breaks.
 * The scores (R16, R17) count suits removed before the start too, as the game's completed suits, so
 * finishing a mid-game position scores as a won game does; moves and flips count from the start of
 * the line, and the field `completed` counts only the suits the line completes. `names`: see
 * LineNames (for the error only).
 */
export function playLine(start: Position, line: readonly (string | Move)[], names?: LineNames): Result<PlayedLine> {
  let pos = start;
  let flips = 0;
  const played: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const item = line[i]!;
    let move: Move;
    if (typeof item === 'string') {
      const r = lineMove(pos, item, i, names);
      if (!r.ok) return r;
      move = r.value;
    } else {
      const r = resolveMove(pos, item);
      if (!r.ok) return err(r.error.code, `${r.error.message} (move ${i + 1} of the line)`);
      move = r.value;
    }
    played.push(moveText(pos, move));
    const next = applyMove(pos, move);
    flips += next.effects.flips;
    pos = next.position;
  }
  const completed = pos.removed.length;
  return ok({
    position: pos,
    moves: played,
    flips,
    completed: completed - start.removed.length,
    classic: classicScore(played.length, completed),
    reveal: revealScore(flips, completed),
    won: isWon(pos),
  });
}
