/**
 * Scores and move counts (RULES.md R16, R17) and the replay of a line of play.
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
 * Plays moves given as text (or Move values) from a position, stopping at the first one that does not
 * parse or is illegal: the error names that move, its place in the line and the rule it breaks.
 * The scores (R16, R17) count suits removed before the start too, as the game's completed suits, so
 * finishing a mid-game position scores as a won game does; moves and flips count from the start of
 * the line, and the field `completed` counts only the suits the line completes.
 */
export function playLine(start: Position, line: readonly (string | Move)[]): Result<PlayedLine> {
  let pos = start;
  let flips = 0;
  const played: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const item = line[i]!;
    let move: Move;
    if (typeof item === 'string') {
      const spec = parseMove(item, pos.columns.length);
      if (!spec.ok) return err(spec.error.code, `${spec.error.message} (move ${i + 1} of the line)`);
      const r = resolveMove(pos, spec.value, item);
      if (!r.ok) return err(r.error.code, `${r.error.message} (move ${i + 1} of the line)`);
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
