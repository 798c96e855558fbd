/**
 * The rules engine: legal moves and their effects, exactly as docs/rules.md says. Every rule of
 * play lives here and nowhere else; the solver has its own fast move generator, tested against this one.
 */
import { rankOf, suitOf, type Card, type Suit } from './cards.js';
import { DEAL, makeMove, type Move, type MoveSpec } from './move.js';
import { err, ok, type Result } from './errors.js';
import type { Column, Position } from './position.js';

/**
 * Length of the movable group at the end of a column: the longest suffix of face-up cards that descend
 * by one rank at a time and are all of one suit (R7, R8). 0 for an empty column.
 */
export function movableLength(up: readonly Card[]): number {
  const n = up.length;
  if (n === 0) return 0;
  let k = 1;
  while (k < n) {
    const lower = up[n - k]!;
    const upper = up[n - k - 1]!;
    if (upper !== lower + 1 || suitOf(upper) !== suitOf(lower)) break;
    k++;
  }
  return k;
}

/** Is any column empty? While one is, the stock cannot be dealt (R12). */
export function hasEmptyColumn(pos: Position): boolean {
  return pos.columns.some((c) => c.up.length === 0 && c.down.length === 0);
}

/** May the stock be dealt now? Needs a deal left and no empty column (R12). */
export function canDeal(pos: Position): boolean {
  return pos.stock.length > 0 && !hasEmptyColumn(pos);
}

/**
 * Can the stock never be dealt again? With `dealsLeft` deals in it and `cardsOnTable` cards on the
 * tableau, fewer cards than `columns` cannot fill every column, and a deal needs every column filled
 * (R12), whatever moves follow.
 */
export function stockStranded(cardsOnTable: number, columns: number, dealsLeft: number): boolean {
  return dealsLeft > 0 && cardsOnTable < columns;
}

/**
 * All legal moves of a position, in a fixed order: card moves by source column, then target column,
 * then count (largest first); the deal last. Moves into an empty column list every suffix of the
 * movable group (R10); onto a card, only the one suffix whose head is one rank lower (R6, R9).
 */
export function legalMoves(pos: Position): Move[] {
  const moves: Move[] = [];
  const cols = pos.columns;
  for (let from = 0; from < cols.length; from++) {
    const up = cols[from]!.up;
    const len = movableLength(up);
    if (len === 0) continue;
    for (let to = 0; to < cols.length; to++) {
      if (to === from) continue;
      const target = cols[to]!;
      if (target.up.length === 0) {
        // An empty column (a column with face-down cards always shows a face-up card, R11).
        for (let count = len; count >= 1; count--) moves.push({ kind: 'move', from, to, count });
      } else {
        const count = rankOf(target.up[target.up.length - 1]!) - rankOf(up[up.length - 1]!);
        if (count >= 1 && count <= len) moves.push({ kind: 'move', from, to, count });
      }
    }
  }
  if (canDeal(pos)) moves.push(DEAL);
  return moves;
}

/**
 * Checks a parsed move against a position and fills in an omitted count. The error (code
 * `illegal-move`) names the move (as `text` if given) and the rule it breaks; `column` gives the
 * number it names column i (0-based) by (default i + 1; a PySolFC deal's numbering, numbering.ts, to
 * answer in the numbers the move was written in).
 */
export function resolveMove(pos: Position, spec: MoveSpec, text?: string, column: (i: number) => number = (i) => i + 1): Result<Move> {
  const name = `move "${text ?? (spec.kind === 'deal' ? 'd' : `${column(spec.from)}-${column(spec.to)}${spec.count ? `x${spec.count}` : ''}`)}"`;
  if (spec.kind === 'deal') {
    if (pos.stock.length === 0) return err('illegal-move', `${name}: the stock is empty (R12)`);
    const empty = pos.columns.findIndex((c) => c.up.length === 0);
    if (empty >= 0) return err('illegal-move', `${name}: column ${column(empty)} is empty, and the stock cannot be dealt while a column is empty (R12)`);
    return ok(DEAL);
  }
  const { from, to } = spec;
  if (from >= pos.columns.length || to >= pos.columns.length) return err('illegal-move', `${name}: no such column`);
  const up = pos.columns[from]!.up;
  if (up.length === 0) return err('illegal-move', `${name}: column ${column(from)} is empty, so it has no card to move (R8)`);
  const len = movableLength(up);
  const target = pos.columns[to]!;
  if (target.up.length === 0) {
    if (spec.count === 0) return err('illegal-move', `${name}: column ${column(to)} is empty, so say how many cards go there (${column(from)}-${column(to)}x${len})`);
    if (spec.count > len) return err('illegal-move', `${name}: only ${len === 1 ? '1 card' : `${len} cards`} at the end of column ${column(from)} ${len === 1 ? 'is' : 'are'} one run of one suit (R7)`);
    return ok({ kind: 'move', from, to, count: spec.count });
  }
  const onto = target.up[target.up.length - 1]!;
  const need = rankOf(onto) - rankOf(up[up.length - 1]!);
  if (rankOf(onto) === 1) return err('illegal-move', `${name}: nothing is ever placed on an Ace (R1)`);
  if (need < 1 || need > len) {
    if (need >= 1 && need <= up.length) return err('illegal-move', `${name}: the ${need} cards that would fit are not one descending run of one suit (R7)`);
    // a lone card that can never go there: the rule that says so
    const card = rankOf(up[up.length - 1]!);
    if (card === 13) return err('illegal-move', `${name}: a King can only go into an empty column, and column ${column(to)} is not empty (R10)`);
    if (card === 1 && len === 1 && rankOf(onto) === 13) return err('illegal-move', `${name}: an Ace never goes on a King (R1)`);
    return err('illegal-move', `${name}: no movable group of column ${column(from)} starts one rank below the last card of column ${column(to)} (R6, R9)`);
  }
  if (spec.count !== 0 && spec.count !== need) return err('illegal-move', `${name}: onto that card exactly ${need === 1 ? '1 card' : `${need} cards`} can go (R9)`);
  return ok({ kind: 'move', from, to, count: need });
}

/** What a move or deal did besides moving cards: flips (R11, R15) and completed suits removed (R14). */
export interface MoveEffects {
  /** Face-down cards turned face up. */
  readonly flips: number;
  /** Suits of the completed runs removed, in column order. */
  readonly removed: readonly Suit[];
  /** The column (0-based) each of those runs was removed from, in the same order. */
  readonly removedFrom: readonly number[];
}

/** If a column ends with K..A of one suit (13 face-up cards), the run's suit, else -1 (R14). */
export function completedRunSuit(up: readonly Card[]): number {
  const n = up.length;
  if (n < 13) return -1;
  const ace = up[n - 1]!;
  if (rankOf(ace) !== 1) return -1;
  return movableLength(up) >= 13 ? suitOf(ace) : -1;
}

/** Removes a completed run (R14) and flips the uncovered card (R11, R15). */
function settle(col: Column, removed: Suit[]): { col: Column; flips: number } {
  let { down, up } = col;
  let flips = 0;
  const s = completedRunSuit(up);
  if (s >= 0) {
    up = up.slice(0, -13);
    removed.push(s as Suit);
  }
  if (up.length === 0 && down.length > 0) {
    up = down.slice(-1);
    down = down.slice(0, -1);
    flips++;
  }
  return { col: { down, up }, flips };
}

/**
 * Plays a legal move (as returned by legalMoves or resolveMove) and applies the automatic flips and
 * completed-suit removals that follow (R11–R15). Does not check legality.
 */
export function applyMove(pos: Position, move: Move): { position: Position; effects: MoveEffects } {
  const columns = pos.columns.slice();
  const removedNow: Suit[] = [];
  const removedFrom: number[] = [];
  let flips = 0;
  let stock = pos.stock;
  // settles column i as `col`: what it removed is recorded as removed from column i
  const settleAt = (i: number, col: Column) => {
    const r = settle(col, removedNow);
    while (removedFrom.length < removedNow.length) removedFrom.push(i);
    columns[i] = r.col;
    flips += r.flips;
  };
  if (move.kind === 'deal') {
    const deal = pos.stock[0]!;
    stock = pos.stock.slice(1);
    deal.forEach((card, i) => {
      const col = columns[i]!;
      settleAt(i, { down: col.down, up: [...col.up, card] });
    });
  } else {
    const src = columns[move.from]!;
    const moving = src.up.slice(src.up.length - move.count);
    const dst = columns[move.to]!;
    settleAt(move.from, { down: src.down, up: src.up.slice(0, src.up.length - move.count) });
    settleAt(move.to, { down: dst.down, up: [...dst.up, ...moving] });
  }
  return {
    position: { variant: pos.variant, columns, stock, removed: [...pos.removed, ...removedNow] },
    effects: { flips, removed: removedNow, removedFrom },
  };
}

/** The text of a legal move in the project's notation, judged against the position it is played from. */
export function moveText(pos: Position, move: Move): string {
  return makeMove(move, move.kind === 'move' && pos.columns[move.to]!.up.length === 0);
}
