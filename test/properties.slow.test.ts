/**
 * Properties of the rules engine over random play in all six variants (fast-check): a random deal
 * (a permutation of the variant's fresh deck), then a random walk of up to 150 moves chosen among
 * legalMoves. At every step the engine is checked against the rules of record (docs/rules.md) and
 * against a small reference model written here from the rules alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeCardValue, rankOf, suitOf, type Card, type Suit } from '../src/game/cards.js';
import { parseMove, type Move } from '../src/game/move.js';
import {
  cardCounts,
  faceDownCount,
  positionFromDeal,
  removedBySuit,
  samePosition,
  type Column,
  type Position,
} from '../src/game/position.js';
import { applyMove, legalMoves, moveText, resolveMove, type MoveEffects } from '../src/game/rules.js';
import { ALL_VARIANTS, type Variant } from '../src/game/variant.js';
import { deckOf } from './helpers/game.js';

const MAX_STEPS = 150;

/**
 * fast-check options shared by every property: a time limit that also caps shrinking, since each run
 * replays a whole walk (a failure found before the limit is still reported, with the smallest
 * counterexample reached so far).
 */
const LIMIT = { plugins: [fc.interruptAfterTimeLimit(30_000)] };

// ---------------------------------------------------------------------------------------------------
// A reference model, written from docs/rules.md without using rules.ts.

/** Do these cards descend by one rank at a time, all of one suit (R7)? */
function isSuitedRun(cards: readonly Card[]): boolean {
  for (let i = 1; i < cards.length; i++) {
    if (suitOf(cards[i]!) !== suitOf(cards[i - 1]!) || rankOf(cards[i]!) !== rankOf(cards[i - 1]!) - 1) return false;
  }
  return true;
}

/** Every legal move by the rules: any suffix that is a suited run (R7, R8), onto a card one rank higher or into an empty column (R6, R9, R10); the deal when there is stock and no empty column (R12). */
function referenceLegal(p: Position): Move[] {
  const out: Move[] = [];
  const cols = p.columns;
  for (let from = 0; from < cols.length; from++) {
    const up = cols[from]!.up;
    for (let count = 1; count <= up.length; count++) {
      const group = up.slice(up.length - count);
      if (!isSuitedRun(group)) break;
      for (let to = 0; to < cols.length; to++) {
        if (to === from) continue;
        const t = cols[to]!;
        const empty = t.down.length === 0 && t.up.length === 0;
        if (empty || rankOf(t.up[t.up.length - 1]!) === rankOf(group[0]!) + 1) out.push({ kind: 'move', from, to, count });
      }
    }
  }
  if (p.stock.length > 0 && cols.every((c) => c.down.length + c.up.length > 0)) out.push({ kind: 'deal' });
  return out;
}

/** Removes a K..A run of one suit ending the column (R14), then turns up an uncovered card (R11, R15). */
function referenceSettle(col: { down: Card[]; up: Card[] }, removed: Suit[]): number {
  const n = col.up.length;
  if (n >= 13) {
    const tail = col.up.slice(n - 13);
    if (rankOf(tail[0]!) === 13 && isSuitedRun(tail)) {
      removed.push(suitOf(tail[0]!));
      col.up = col.up.slice(0, n - 13);
    }
  }
  if (col.up.length === 0 && col.down.length > 0) {
    col.up = [col.down[col.down.length - 1]!];
    col.down = col.down.slice(0, -1);
    return 1;
  }
  return 0;
}

/** The position after a legal move, by the rules (R9–R15). */
function referenceApply(p: Position, m: Move): { position: Position; effects: MoveEffects } {
  const cols = p.columns.map((c) => ({ down: [...c.down], up: [...c.up] }));
  const removed: Suit[] = [];
  const removedFrom: number[] = [];
  let flips = 0;
  let stock = p.stock;
  const settleAt = (i: number) => {
    const before = removed.length;
    flips += referenceSettle(cols[i]!, removed);
    if (removed.length > before) removedFrom.push(i);
  };
  if (m.kind === 'deal') {
    p.stock[0]!.forEach((c, i) => cols[i]!.up.push(c));
    stock = p.stock.slice(1);
    for (let i = 0; i < p.stock[0]!.length; i++) settleAt(i);
  } else {
    const src = cols[m.from]!;
    const group = src.up.splice(src.up.length - m.count, m.count);
    cols[m.to]!.up.push(...group);
    settleAt(m.from);
    settleAt(m.to);
  }
  return {
    position: { variant: p.variant, columns: cols as Column[], stock, removed: [...p.removed, ...removed] },
    effects: { flips, removed, removedFrom },
  };
}

// ---------------------------------------------------------------------------------------------------

const key = (m: Move): string => (m.kind === 'deal' ? 'd' : `${m.from + 1}-${m.to + 1}x${m.count}`);
const sortedKeys = (ms: readonly Move[]): string[] => ms.map(key).sort();

/** A random deal of a variant: a permutation of its fresh deck (R2). */
function shuffledDeckArb(v: Variant): fc.Arbitrary<Card[]> {
  return fc.shuffledSubarray(deckOf(v), { minLength: v.cards, maxLength: v.cards });
}

/** A fresh deck with a few random swaps: deals with many same-suit neighbours, so runs form and complete more often. */
function lightDeckArb(v: Variant): fc.Arbitrary<Card[]> {
  const index = fc.nat({ max: v.cards - 1 });
  return fc.array(fc.tuple(index, index), { maxLength: 30 }).map((swaps) => {
    const deck = deckOf(v);
    for (const [i, j] of swaps) [deck[i], deck[j]] = [deck[j]!, deck[i]!];
    return deck;
  });
}

/**
 * A position that is no start but holds all the variant's cards: up to three K..2 runs of one suit lie
 * face up at the end of columns (their Aces are elsewhere: face up, face down or in the stock), the other
 * cards are spread over the columns (last card of each face up) and some of the last stock deals.
 * Walks from here complete suits often, in every variant (R14).
 */
function preparedArb(v: Variant): fc.Arbitrary<Position> {
  return fc
    .record({
      deck: shuffledDeckArb(v),
      runs: fc.array(fc.record({ suit: fc.constantFrom(...v.suitList), col: fc.nat({ max: v.columns - 1 }) }), { minLength: 1, maxLength: 3 }),
      deals: fc.nat({ max: v.stockDeals.length }),
      spread: fc.array(fc.nat({ max: v.columns - 1 }), { minLength: v.cards, maxLength: v.cards }),
    })
    .map(({ deck, runs, deals, spread }) => {
      const rest = deck.slice();
      const placed: { col: number; cards: Card[] }[] = [];
      for (const { suit, col } of runs) {
        const run: Card[] = [];
        for (let rank = 13; rank >= 2; rank--) run.push(makeCardValue(suit, rank));
        if (!run.every((c) => rest.includes(c))) continue;
        for (const c of run) rest.splice(rest.indexOf(c), 1);
        placed.push({ col, cards: run });
      }
      // Keep the last `deals` stock deals, or fewer if the columns would not get a card each.
      let kept = deals;
      const size = (k: number) => v.stockDeals.slice(v.stockDeals.length - k).reduce((a, b) => a + b, 0);
      while (kept > 0 && rest.length - size(kept) < v.columns) kept--;
      const stockCards = rest.splice(rest.length - size(kept));
      const stock: Card[][] = [];
      for (const n of v.stockDeals.slice(v.stockDeals.length - kept)) stock.push(stockCards.splice(0, n));
      const piles: Card[][] = Array.from({ length: v.columns }, (_, i) => [rest[i]!]);
      rest.slice(v.columns).forEach((c, i) => piles[spread[i]!]!.push(c));
      const columns = piles.map((pile) => ({ down: pile.slice(0, -1), up: pile.slice(-1) }));
      for (const { col, cards } of placed) columns[col]!.up.push(...cards);
      return { variant: v, columns, stock, removed: [] } satisfies Position;
    });
}

/** Where walks start: a random deal (most often), a lightly shuffled deal, or a prepared position. */
function startArb(v: Variant): fc.Arbitrary<Position> {
  return fc.oneof(
    { weight: 2, arbitrary: shuffledDeckArb(v).map((d) => positionFromDeal(v, d)) },
    { weight: 1, arbitrary: lightDeckArb(v).map((d) => positionFromDeal(v, d)) },
    { weight: 1, arbitrary: preparedArb(v) },
  );
}

/**
 * The choices of a walk: one number per step. `build` biases the walk towards moves that extend a
 * same-suit run without breaking one, then towards moves into an empty column that uncover something,
 * seven times in eight; otherwise (and always without `build`) the move is picked uniformly.
 */
const walkArb = fc.record({
  build: fc.boolean(),
  picks: fc.array(fc.nat({ max: 1_000_000 }), { minLength: 0, maxLength: MAX_STEPS, size: 'max' }),
});

/** Does this move put a group on a card of its own suit, without taking it off one (a building move)? */
function isBuilding(p: Position, m: Move): boolean {
  if (m.kind !== 'move') return false;
  const t = p.columns[m.to]!.up;
  const src = p.columns[m.from]!.up;
  if (t.length === 0) return false;
  const head = src[src.length - m.count]!;
  if (suitOf(t[t.length - 1]!) !== suitOf(head)) return false;
  if (src.length === m.count) return true;
  const below = src[src.length - m.count - 1]!;
  return !(suitOf(below) === suitOf(head) && rankOf(below) === rankOf(head) + 1);
}

function pick(p: Position, moves: readonly Move[], n: number, build: boolean): Move {
  if (build && n % 8 !== 0) {
    const building = moves.filter((m) => isBuilding(p, m));
    if (building.length > 0) return building[n % building.length]!;
    const uncovering = moves.filter((m) => m.kind === 'move' && p.columns[m.to]!.up.length === 0 && p.columns[m.from]!.up.length === m.count && p.columns[m.from]!.down.length > 0);
    if (uncovering.length > 0) return uncovering[n % uncovering.length]!;
  }
  return moves[n % moves.length]!;
}

/** Plays a walk, calling `check` on every position reached (the start included) with the move about to be played. */
function walk(
  start: Position,
  picks: readonly number[],
  build: boolean,
  visit: (p: Position, moves: Move[]) => void,
  step?: (before: Position, move: Move, after: Position, effects: MoveEffects) => void,
): Position {
  let p = start;
  for (const n of picks) {
    const moves = legalMoves(p);
    visit(p, moves);
    if (moves.length === 0) return p;
    const m = pick(p, moves, n, build);
    const { position, effects } = applyMove(p, m);
    step?.(p, m, position, effects);
    p = position;
  }
  visit(p, legalMoves(p));
  return p;
}

// ---------------------------------------------------------------------------------------------------
// Invariants.

/** Cards are conserved: on the table and in the stock, plus 13 per removed run, is the variant's full composition (R2, R14). */
function checkConservation(p: Position): void {
  const v = p.variant;
  const counts = cardCounts(p);
  const removed = removedBySuit(p);
  const expected = new Array<number>(52).fill(0);
  for (const s of v.suitList) for (let r = 0; r < 13; r++) expected[s * 13 + r] = v.copies;
  const actual = counts.map((n, c) => n + removed[Math.floor(c / 13)]!);
  expect(actual).toEqual(expected);
}

/** No column shows a face-down card without a face-up card above it (R11, R15). */
function checkNoHiddenTop(p: Position): void {
  for (const c of p.columns) if (c.down.length > 0) expect(c.up.length).toBeGreaterThan(0);
}

/** Every generated move is legal: its text parses and resolves to the same move. */
function checkGeneratedLegal(p: Position, moves: readonly Move[]): void {
  for (const m of moves) {
    const text = moveText(p, m);
    const spec = parseMove(text, p.columns.length);
    if (!spec.ok) expect.fail(`generated move ${key(m)} written as "${text}" does not parse: ${spec.error.message}`);
    const r = resolveMove(p, spec.value, text);
    if (!r.ok) expect.fail(`generated move ${key(m)} ("${text}") is refused: ${r.error.message}`);
    if (key(r.value) !== key(m)) expect.fail(`generated move ${key(m)} ("${text}") resolves to ${key(r.value)}`);
  }
}

/**
 * Every legal move is generated: every syntactically possible move text (every from/to pair with the
 * count omitted and with every count 1..column length + 1, and the deal) is tried; resolveMove must
 * accept exactly the moves legalMoves lists, in exactly the texts that name them (into an empty column
 * only with its count; onto a card with the count omitted or equal to the one that fits).
 */
function checkEnumeration(p: Position, moves: readonly Move[]): void {
  // Most specs are refused, and each refusal builds an Error: skip the stack traces, which cost most of the time.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    enumerate(p, moves);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function enumerate(p: Position, moves: readonly Move[]): void {
  const n = p.columns.length;
  const accepted: string[] = [];
  for (let from = 0; from < n; from++) {
    const maxCount = p.columns[from]!.down.length + p.columns[from]!.up.length + 1;
    for (let to = 0; to < n; to++) {
      if (to === from) continue;
      for (let count = 0; count <= maxCount; count++) {
        const text = count === 0 ? `${from + 1}-${to + 1}` : `${from + 1}-${to + 1}x${count}`;
        const spec = parseMove(text, n);
        if (!spec.ok) expect.fail(`"${text}" does not parse: ${spec.error.message}`);
        const r = resolveMove(p, spec.value, text);
        if (r.ok) accepted.push(`${text}=${key(r.value)}`);
        else if (r.error.code !== 'illegal-move') expect.fail(`"${text}": error code ${r.error.code}`);
      }
    }
  }
  const deal = resolveMove(p, { kind: 'deal' }, 'd');
  if (deal.ok) accepted.push(`d=${key(deal.value)}`);
  const expected: string[] = [];
  for (const m of moves) {
    if (m.kind === 'deal') {
      expected.push('d=d');
      continue;
    }
    const base = `${m.from + 1}-${m.to + 1}`;
    const toEmpty = p.columns[m.to]!.up.length === 0;
    if (!toEmpty) expected.push(`${base}=${key(m)}`);
    expected.push(`${base}x${m.count}=${key(m)}`);
  }
  expect(accepted.sort()).toEqual(expected.sort());
}

/** The step from one position to the next agrees with the rules' own accounting. */
function checkStep(before: Position, move: Move, after: Position, effects: MoveEffects): void {
  // Face-down cards only ever turn up, one flip per card (R11, R15).
  expect(faceDownCount(after)).toBe(faceDownCount(before) - effects.flips);
  expect(effects.flips).toBeGreaterThanOrEqual(0);
  // The removed suits are recorded in order.
  expect(after.removed).toEqual([...before.removed, ...effects.removed]);
  // Removed runs are K..A of one suit: what left the game is exactly 13 cards, one of each rank, per removed suit (R14).
  const afterCounts = cardCounts(after);
  const diff = cardCounts(before).map((n, c) => n - afterCounts[c]!);
  const expectedDiff = new Array<number>(52).fill(0);
  for (const s of effects.removed) for (let r = 0; r < 13; r++) expectedDiff[s * 13 + r]!++;
  expect(diff).toEqual(expectedDiff);
  // And the whole step agrees with the reference model, card for card.
  const ref = referenceApply(before, move);
  expect(samePosition(after, ref.position)).toBe(true);
  expect(effects).toEqual(ref.effects);
  // The stock shrinks by one deal on a deal only.
  expect(after.stock.length).toBe(before.stock.length - (move.kind === 'deal' ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------------

/** Totals over all walks of a variant, to show the walks reach the interesting cases. */
interface Tally {
  steps: number;
  deals: number;
  removals: number;
  emptyTargets: number;
}

/** Every check on one position of a walk and its legal moves. */
function checkPosition(p: Position, moves: Move[]): void {
  checkConservation(p);
  checkNoHiddenTop(p);
  expect(sortedKeys(moves)).toEqual(sortedKeys(referenceLegal(p)));
  checkGeneratedLegal(p, moves);
}

describe.each(ALL_VARIANTS.map((v) => [`${v.game}-${v.suits}`, v] as const))('random play in %s', (_name, v) => {
  it('conserves cards, only turns cards up, removes only K..A of one suit, never hides a column top, and matches a reference model', () => {
    const tally: Tally = { steps: 0, deals: 0, removals: 0, emptyTargets: 0 };
    fc.assert(
      fc.property(startArb(v), walkArb, (start, { build, picks }) => {
        walk(
          start,
          picks,
          build,
          checkPosition,
          (before, move, after, effects) => {
            checkStep(before, move, after, effects);
            tally.steps++;
            if (move.kind === 'deal') tally.deals++;
            else if (before.columns[move.to]!.up.length === 0) tally.emptyTargets++;
            tally.removals += effects.removed.length;
          },
        );
      }),
      { ...LIMIT, numRuns: 80 },
    );
    // The walks must exercise deals and moves into empty columns; removals are checked when they occur.
    expect(tally.deals).toBeGreaterThan(0);
    expect(tally.emptyTargets).toBeGreaterThan(0);
  });

  it('resolveMove accepts exactly the moves legalMoves lists, among every possible move text', () => {
    fc.assert(
      fc.property(startArb(v), walkArb, (start, { build, picks }) => {
        walk(start, picks, build, checkEnumeration);
      }),
      { ...LIMIT, numRuns: 30 },
    );
  });

  it('completes suits on walks from prepared positions, every removal checking out (fixed seed, so never vacuous)', () => {
    let removals = 0;
    fc.assert(
      fc.property(preparedArb(v), walkArb, (start, { picks }) => {
        walk(start, picks, true, checkPosition, (before, move, after, effects) => {
          checkStep(before, move, after, effects);
          removals += effects.removed.length;
        });
      }),
      { ...LIMIT, numRuns: 40, seed: 1129 },
    );
    expect(removals).toBeGreaterThan(0);
  });
});
