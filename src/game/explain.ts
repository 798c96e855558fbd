/**
 * A line of play explained move by move, for people: what each move moves (the cards in words, from
 * which column onto which card), the card it turns up, the suit it completes and removes, the stock
 * deals left and the running scores (R16 classic, R17 reveal). Column numbers are shown in any
 * numbering (numbering.ts), so a PySolFC deal's line reads in PySolFC's columns.
 */
import { makeCard, SUIT_SYMBOLS, type Card, type Suit } from './cards.js';
import { err, ok, type Result } from './errors.js';
import { parseMove, type Move } from './move.js';
import { ownNumbering, type Numbering } from './numbering.js';
import { isWon, type Position } from './position.js';
import { applyMove, moveText, resolveMove } from './rules.js';
import { classicScore, revealScore } from './score.js';

/** One move of an explained line. Columns are numbers in the line's numbering (1-based). */
export interface ExplainedMove {
  /** 1 for the first move of the line. */
  number: number;
  /** The move in the notation, in the line's numbering. */
  move: string;
  kind: 'move' | 'deal';
  /** The cards moved (a deal: the cards dealt, onto columns in order), in words: `9♠`. */
  cards: string[];
  /** Source and target column (null for a deal). */
  from: number | null;
  to: number | null;
  /** The card moved onto, or null into an empty column (and for a deal). */
  onto: string | null;
  /** Face-down cards turned up by the move (R11, R15). */
  turnedUp: { column: number; card: string }[];
  /** Completed suits removed by the move (R14). */
  removed: { column: number; suit: string }[];
  /** Stock deals left after the move. */
  stockDealsLeft: number;
  /** Running scores after the move (as `play` counts them: suits removed before the line count too). */
  classicScore: number;
  revealScore: number;
  /** Is the game won after this move? */
  won: boolean;
  /** The whole move in one line of words. */
  text: string;
}

/** Options of `explainLine`. */
export interface ExplainOptions {
  /** Column numbering of the moves read and shown; default spidersolve's. */
  readonly numbering?: Numbering;
  /** A card in words; default `makeCard(card, true)` (`10♦`). */
  readonly card?: (card: Card) => string;
  /** A suit in words; default its symbol. */
  readonly suit?: (suit: Suit) => string;
}

/**
 * Explains a line of moves in spidersolve's notation (counts filled in or not) played from `start`,
 * move by move. The moves are read in spidersolve's numbering; the explanation shows
 * `opts.numbering`'s. Errors as `playLine` (the first move that does not parse or is illegal).
 */
export function explainLine(start: Position, line: readonly string[], opts: ExplainOptions = {}): Result<ExplainedMove[]> {
  const numbering = opts.numbering ?? ownNumbering(start.columns.length);
  const col = (i: number) => numbering.shown[i]!;
  const card = opts.card ?? ((c: Card) => makeCard(c, true));
  const suit = opts.suit ?? ((s: Suit) => SUIT_SYMBOLS[s]);
  const out: ExplainedMove[] = [];
  let pos = start;
  let flips = 0;
  for (let i = 0; i < line.length; i++) {
    const spec = parseMove(line[i]!, pos.columns.length);
    if (!spec.ok) return err(spec.error.code, `${spec.error.message} (move ${i + 1} of the line)`);
    const r = resolveMove(pos, spec.value, line[i]);
    if (!r.ok) return err(r.error.code, `${r.error.message} (move ${i + 1} of the line)`);
    const move: Move = r.value;
    const text = moveText(pos, move);
    const next = applyMove(pos, move);
    flips += next.effects.flips;
    const after = next.position;
    // which columns turned a card up, and where the completed suits were removed (applyMove says)
    const touched = move.kind === 'deal' ? pos.stock[0]!.map((_, c) => c) : [move.from, move.to];
    const turnedUp: { column: number; card: string }[] = [];
    for (const c of touched) {
      const now = after.columns[c]!;
      if (now.down.length < pos.columns[c]!.down.length) turnedUp.push({ column: col(c), card: card(now.up[0]!) });
    }
    const removed = next.effects.removed.map((s, k) => ({ column: col(next.effects.removedFrom[k]!), suit: suit(s) }));
    const completed = after.removed.length;
    let cards: string[];
    let words: string;
    let onto: string | null = null;
    if (move.kind === 'deal') {
      // listed by the shown column numbers, left to right (a deal lays one card on each column)
      const deal = pos.stock[0]!;
      const order = deal.map((_, c) => c).sort((a, b) => col(a) - col(b));
      cards = order.map((c) => card(deal[c]!));
      words = `deal ${cards.length} cards from the stock onto columns 1-${cards.length}: ${cards.join(' ')}`;
    } else {
      const src = pos.columns[move.from]!.up;
      cards = src.slice(src.length - move.count).map(card);
      const dst = pos.columns[move.to]!.up;
      onto = dst.length ? card(dst[dst.length - 1]!) : null;
      words = `${cards.join(' ')} from column ${col(move.from)} ${onto ? `onto ${onto} in column ${col(move.to)}` : `into empty column ${col(move.to)}`}`;
      if (pos.columns[move.from]!.up.length === move.count && pos.columns[move.from]!.down.length === 0) words += `, emptying column ${col(move.from)}`;
    }
    // a removal comes before the card it uncovers (R15)
    for (const x of removed) words += `; completes a suit of ${x.suit} in column ${x.column}, removed`;
    for (const t of turnedUp) words += `; turns up ${t.card} in column ${t.column}`;
    const shown = move.kind === 'deal' ? 'd' : text.replace(/^(\d+)-(\d+)/, `${col(move.from)}-${col(move.to)}`);
    out.push({
      number: i + 1, move: shown, kind: move.kind, cards,
      from: move.kind === 'deal' ? null : col(move.from), to: move.kind === 'deal' ? null : col(move.to), onto,
      turnedUp, removed, stockDealsLeft: after.stock.length,
      classicScore: classicScore(i + 1, completed), revealScore: revealScore(flips, completed), won: isWon(after),
      text: words,
    });
    pos = after;
  }
  return ok(out);
}

/**
 * The lines of text of an explained line: `  12  3-7    9♠ 8♠ 7♠ from column 3 onto 10♦ in column 7; …`
 * then the stock deals left and the running scores, aligned in columns.
 */
export function formatExplained(moves: readonly ExplainedMove[]): string[] {
  const nw = String(moves.length).length;
  const mw = Math.max(1, ...moves.map((m) => m.move.length));
  return moves.map((m) =>
    `${String(m.number).padStart(nw)}  ${m.move.padEnd(mw)}  ${m.text}  [stock ${m.stockDealsLeft}, classic ${m.classicScore}, reveal ${m.revealScore}${m.won ? ', won' : ''}]`);
}
