/**
 * The frames of the solution viewer: a line of play replayed through the rules engine (the same
 * functions `play` uses: parseMove, resolveMove, applyMove, classicScore, revealScore), one frame per
 * position, start included. The page only draws these frames; every rule is applied here, in Node.
 *
 * Cards are written as in the JSON position form (`10H`, `KS`: rank then suit letter), suits as
 * their letters (`S H D C`), columns numbered from 1.
 */
import { makeCard, SUIT_LETTERS, type Card } from '../game/cards.js';
import { describeMove } from '../game/describe.js';
import { ok, type Result } from '../game/errors.js';
import { lineNames, toNumbering, type Numbering } from '../game/numbering.js';
import { isWon, type Position } from '../game/position.js';
import { applyMove, moveText } from '../game/rules.js';
import { classicScore, lineMove, revealScore } from '../game/score.js';

/** One column as shown: face-down and face-up cards, bottom card first. */
export interface FrameColumn {
  readonly down: readonly string[];
  readonly up: readonly string[];
}

/** One position of the line, with what the move that led to it did. */
export interface ViewFrame {
  /** Moves played so far: 0 for the start, k after the k-th move. */
  readonly step: number;
  /** The move that led here, in the project's notation (`3-7`, `d`, `3-7x4`) and the line's column numbering; null at the start. */
  readonly move: string | null;
  /** That move in words, judged against the position before it (as `moves` prints); null at the start. */
  readonly words: string | null;
  /** Cards turned face up by that move (R11, R15): column (from 1) and card. */
  readonly turnedUp: readonly { readonly column: number; readonly card: string }[];
  /** Suits (letters) completed and removed by that move (R14). */
  readonly completed: readonly string[];
  /** Cards the move laid down, to highlight: column (from 1) and how many cards at its end. */
  readonly landed: readonly { readonly column: number; readonly count: number }[];
  readonly columns: readonly FrameColumn[];
  /** Cards of each stock deal still to come, next deal first (R12). */
  readonly stock: readonly (readonly string[])[];
  /** Suits (letters) of the completed runs removed so far, in removal order, including any removed before the line. */
  readonly removed: readonly string[];
  /** Face-down cards turned up since the start of the line. */
  readonly flips: number;
  /** Classic score (R16) after `step` moves: 500 − moves + 100 × suits removed (those before the line too, as `play` counts). */
  readonly classic: number;
  /** Reveal score (R17): 100 × suits removed + 5 × cards turned up. */
  readonly reveal: number;
  /** Is the game won here (R5)? */
  readonly won: boolean;
}

function cards(cs: readonly Card[]): string[] {
  return cs.map((c) => makeCard(c));
}

function frameOf(pos: Position, step: number, flips: number, extra: Pick<ViewFrame, 'move' | 'words' | 'turnedUp' | 'completed' | 'landed'>): ViewFrame {
  return {
    step,
    ...extra,
    columns: pos.columns.map((c) => ({ down: cards(c.down), up: cards(c.up) })),
    stock: pos.stock.map(cards),
    removed: pos.removed.map((s) => SUIT_LETTERS[s]),
    flips,
    classic: classicScore(step, pos.removed.length),
    reveal: revealScore(flips, pos.removed.length),
    won: isWon(pos),
  };
}

/**
 * The frames of `line` played from `start`: `line.length + 1` frames, frame k being the position after
 * k moves with the scores `play` prints for the first k moves. Stops at the first move that does not
 * parse or is illegal, with the same InputError `play` gives (`bad-move` or `illegal-move`, naming
 * the move, its place in the line and the rule). `line` is in spidersolve's column numbering; with
 * `shown.numbering` (a PySolFC deal's, numbering.ts) each frame's move and words name the columns as
 * that numbering does, and `shown.cardName` names the cards in the words (as `play` does); the
 * frames' columns stay in spidersolve's order.
 */
export function lineFrames(start: Position, line: readonly string[], shown: { numbering?: Numbering; cardName?: (c: Card) => string } = {}): Result<ViewFrame[]> {
  let pos = start;
  let flips = 0;
  const frames: ViewFrame[] = [frameOf(pos, 0, 0, { move: null, words: null, turnedUp: [], completed: [], landed: [] })];
  // an error names the moves as the numbering writes them
  const numbering = shown.numbering;
  const names = numbering && lineNames(line.map((m) => toNumbering(m, numbering)), numbering);
  for (let i = 0; i < line.length; i++) {
    const text = line[i]!;
    const r = lineMove(pos, text, i, names);
    if (!r.ok) return r;
    const move = r.value;
    const notation = shown.numbering ? toNumbering(moveText(pos, move), shown.numbering) : moveText(pos, move);
    // a deal says how many deals are left after it (describeMove, as `moves` lists it, counts before)
    const words =
      move.kind === 'deal'
        ? `deal ${pos.stock[0]!.length} cards from the stock onto columns 1-${pos.stock[0]!.length}; ${pos.stock.length - 1 === 0 ? 'the stock is now empty' : `${pos.stock.length - 1} deal${pos.stock.length - 1 === 1 ? '' : 's'} left`}`
        : describeMove(pos, move, shown.numbering, shown.cardName);
    const next = applyMove(pos, move);
    const after = next.position;
    const turnedUp: { column: number; card: string }[] = [];
    after.columns.forEach((c, j) => {
      if (c.down.length < pos.columns[j]!.down.length) turnedUp.push({ column: j + 1, card: makeCard(c.up[0]!) });
    });
    // what was laid down, unless a completed run took it away again
    const landed: { column: number; count: number }[] = [];
    if (move.kind === 'deal') {
      pos.stock[0]!.forEach((_, j) => {
        if (after.columns[j]!.up.length > pos.columns[j]!.up.length) landed.push({ column: j + 1, count: 1 });
      });
    } else if (after.columns[move.to]!.up.length === pos.columns[move.to]!.up.length + move.count) {
      landed.push({ column: move.to + 1, count: move.count });
    }
    flips += next.effects.flips;
    pos = after;
    frames.push(
      frameOf(pos, i + 1, flips, {
        move: notation,
        words,
        turnedUp,
        completed: next.effects.removed.map((s) => SUIT_LETTERS[s]),
        landed,
      }),
    );
  }
  return ok(frames);
}
