/**
 * The `greedy` blind player: a fast heuristic baseline that looks one move ahead in the visible
 * position and never uses its random generator (its games depend on the deal alone).
 *
 * Each legal card move gets a score from what it visibly does (observation.ts gives the legal moves):
 * - turns up a face-down card (R11): +100, less the face-down cards left in that column (the column
 *   nearest to empty first);
 * - empties a column (R10 makes an empty column the most useful thing on the tableau): +60;
 * - lands on a card of its own suit (an in-suit build, R7): +30;
 * - uncovers a card its group did not sit on naturally (rank below, R6): +5; plus 1 per card moved.
 * - moves into an empty column (toEmptyScore): +40 less the face-down cards left when it turns up a
 *   card; +20 when the card it uncovers can then go onto the next rank of its own suit.
 * Moves it never plays: one that completes a suit and leaves fewer cards on the table than columns
 * while a deal is left (the stock could never be dealt, R12: strandsStock); one that breaks an in-suit run (the group sits on the next rank of its suit); one that moves a group
 * off a card one rank higher onto another card of another suit (no gain); one into an empty column
 * that does neither of the above (unless that is the only way left to fill it for a deal, below); one
 * that leads back to a view already passed through since the last card turned up (no back-and-forth).
 * It plays the best move with a positive score (ties: the first in legalMoves order: source column,
 * target column, count); else it deals (R12); else, when an empty column blocks the deal, it fills it
 * with the group whose removal uncovers the most (a card not sitting naturally first, a group that would
 * break an in-suit run last: fillForDeal); else it stops. After IDLE_LIMIT moves without a card turned
 * up (or the limit its creator gives) it deals if it may, else fills an empty column for the deal,
 * else stops.
 */
import { type Card, rankOf, suitOf } from '../../game/cards.js';
import { completedRunSuit, stockStranded } from '../../game/rules.js';
import type { Move } from '../../game/move.js';
import { observationKey, observedMoves, type Observation } from '../observation.js';
import type { BlindPlayer, NoMoveReason, NoMoveWhy } from './types.js';

/** The visible state after a card move, as an observation key (no hidden card is needed: it stays hidden). */
function keyAfter(obs: Observation, m: Move & { kind: 'move' }): string {
  const cols = obs.columns.map((c) => ({ down: c.down, up: c.up.slice() }));
  const src = cols[m.from]!;
  const group = src.up.splice(src.up.length - m.count, m.count);
  cols[m.to]!.up.push(...group);
  // a column left with face-down cards and no face-up one will show a new card: mark it unknown
  return observationKey({ ...obs, columns: cols.map((c) => (c.up.length === 0 && c.down > 0 ? { down: c.down - 1, up: [-1] } : c)) });
}

/**
 * Where the group of the last `count` face-up cards `up` of a column sits: its first card (`head`), the
 * card under it (`below`, null when the group starts the face-up cards), whether it sits there
 * naturally (one rank lower, R6) and whether in suit too, an in-suit run that moving it breaks (R7).
 */
function groupBase(up: readonly Card[], count: number): { head: Card; below: Card | null; natural: boolean; breaksRun: boolean } {
  const n = up.length;
  const head = up[n - count]!;
  const below = n - count - 1 >= 0 ? up[n - count - 1]! : null;
  const natural = below !== null && rankOf(below) === rankOf(head) + 1;
  return { head, below, natural, breaksRun: natural && suitOf(below!) === suitOf(head) };
}

/** Score of a card move in the greedy order (see the module comment); -Infinity for moves never played. */
export function greedyScore(obs: Observation, m: Move & { kind: 'move' }): number {
  if (strandsStock(obs, m)) return -Infinity;
  const src = obs.columns[m.from]!;
  const dst = obs.columns[m.to]!;
  const { head, below, natural, breaksRun } = groupBase(src.up, m.count);
  const whole = m.count === src.up.length;
  const reveals = whole && src.down > 0;
  const empties = whole && src.down === 0;
  const toEmpty = dst.up.length === 0;
  if (toEmpty) return toEmptyScore(obs, m, below, breaksRun, reveals, whole);
  const onto = dst.up[dst.up.length - 1]!;
  const inSuit = suitOf(onto) === suitOf(head);
  // a group already sitting in suit gains nothing by moving, unless it uncovers or empties
  if (breaksRun && !whole) return -Infinity;
  let score = m.count;
  if (reveals) score += 100 - src.down;
  if (empties) score += 60;
  if (inSuit) score += 30;
  if (below !== null && !natural) score += 5;
  if (!reveals && !empties && natural && !inSuit) return -Infinity;
  return score;
}

/**
 * Does card move `m` complete a suit (R14) and leave fewer cards on the table than columns while the
 * stock holds a deal? Then the stock can never be dealt (R12: no deal while a column is empty) and the
 * game is lost, whatever comes after.
 */
export function strandsStock(obs: Observation, m: Move & { kind: 'move' }): boolean {
  const dst = obs.columns[m.to]!.up;
  // (no suit can complete with fewer than 13 cards at the end of the column: most moves stop here)
  if (obs.stockDeals.length === 0 || dst.length + m.count < 13) return false;
  const src = obs.columns[m.from]!.up;
  if (completedRunSuit([...dst, ...src.slice(src.length - m.count)]) < 0) return false;
  const cards = obs.columns.reduce((n, c) => n + c.down + c.up.length, 0);
  return stockStranded(cards - 13, obs.columns.length, obs.stockDeals.length);
}

/**
 * Score of a move into an empty column (R10: any movable group may go there), which spends the empty
 * column: played only when it turns up a face-down card (+40, less the face-down cards left in that
 * column, plus 1 per card moved), or when the card it uncovers can then go onto the next rank of its
 * own suit (+20, plus 1 per card moved): the exposed card of another column, or the last card of the
 * group moved, as the ace under a run K…2 goes onto its 2 once the run has moved, completing the suit
 * (R13). Never a whole column with nothing under it, nor a group that breaks an in-suit run.
 * -Infinity otherwise.
 */
function toEmptyScore(obs: Observation, m: Move & { kind: 'move' }, below: Card | null, breaksRun: boolean, reveals: boolean, whole: boolean): number {
  const src = obs.columns[m.from]!;
  if (reveals) return 40 - src.down + m.count;
  if (whole || below === null || breaksRun) return -Infinity;
  const wanted = (c: Card | undefined) => c !== undefined && suitOf(c) === suitOf(below) && rankOf(c) === rankOf(below) + 1;
  if (wanted(src.up[src.up.length - 1])) return 20 + m.count;
  for (let i = 0; i < obs.columns.length; i++) {
    if (i === m.from || i === m.to) continue;
    const up = obs.columns[i]!.up;
    if (wanted(up[up.length - 1])) return 20 + m.count;
  }
  return -Infinity;
}

/** Moves the greedy player makes without turning up a card before it deals or stops (a guard against long cycles). */
export const IDLE_LIMIT = 200;

/**
 * Why the greedy player refuses card move `m` of `obs` (NoMoveReason, the first that holds, in its
 * order), with `seen` the views it has passed through since the last card was turned up; null for a
 * move it would play (a positive score, not back to a seen view).
 */
export function refusalOf(obs: Observation, m: Move & { kind: 'move' }, seen: ReadonlySet<string>): NoMoveReason | null {
  const src = obs.columns[m.from]!;
  const toEmpty = obs.columns[m.to]!.up.length === 0;
  if (toEmpty && src.down === 0 && src.up.length === m.count) return 'whole column';
  if (seen.has(keyAfter(obs, m))) return 'back';
  if (strandsStock(obs, m)) return 'strands stock';
  if (greedyScore(obs, m) !== -Infinity) return null;
  if (groupBase(src.up, m.count).breaksRun) return 'breaks run';
  return toEmpty ? 'spends empty' : 'no gain';
}

/**
 * Why the greedy player answers no move in `obs` (NoMoveWhy): each legal card move's refusal
 * (refusalOf), or every legal move refused as `idle` when it has gone `idle` moves without a card
 * turned up (its limit; null when it has not), and why it does not deal.
 */
export function noMoveWhy(obs: Observation, seen: ReadonlySet<string>, idle: number | null): NoMoveWhy {
  const moves = observedMoves(obs);
  const counts = new Map<NoMoveReason, number>();
  for (const m of moves) {
    const r = idle !== null ? 'idle' : m.kind === 'move' ? refusalOf(obs, m, seen) : null;
    if (r !== null) counts.set(r, (counts.get(r) ?? 0) + 1);
  }
  const order: readonly NoMoveReason[] = ['back', 'whole column', 'strands stock', 'breaks run', 'no gain', 'spends empty', 'idle'];
  return {
    legal: moves.length,
    refused: order.filter((r) => counts.has(r)).map((reason) => ({ reason, count: counts.get(reason)! })),
    deal: obs.stockDeals.length === 0 ? 'none left' : 'blocked',
    idle,
  };
}

/**
 * Creates a greedy player (see the module comment). It keeps the views passed since the last card
 * turned up; after `idleLimit` moves without one (a whole number, IDLE_LIMIT by default) it deals if
 * it may, else fills an empty column for the deal, else stops.
 */
export function createGreedy(idleLimit: number = IDLE_LIMIT): BlindPlayer {
  let seen = new Set<string>();
  let hidden = -1;
  let idle = 0;
  let why: NoMoveWhy | null = null;
  const work = { solves: 0, positions: 0, plans: 0, fallbacks: 0 };
  const answer = (obs: Observation, m: Move | null, idled: boolean): Move | null => {
    why = m === null ? noMoveWhy(obs, seen, idled ? idleLimit : null) : null;
    return m;
  };
  return {
    work,
    whyNone: () => why,
    next(obs: Observation): Move | null {
      const h = obs.columns.reduce((s, c) => s + c.down, 0) + obs.stockDeals.length;
      if (h !== hidden) {
        seen = new Set();
        hidden = h;
        idle = 0;
      }
      if (++idle > idleLimit) {
        // no card turned up for too long: deal if it may, else fill an empty column for the deal,
        // else stop
        return answer(obs, observedMoves(obs).find((m) => m.kind === 'deal') ?? fillForDeal(obs, seen), true);
      }
      seen.add(observationKey(obs));
      const moves = observedMoves(obs);
      let best: Move | null = null;
      let bestScore = 0;
      for (const m of moves) {
        if (m.kind !== 'move') continue;
        const s = greedyScore(obs, m);
        if (s > bestScore && !seen.has(keyAfter(obs, m))) {
          best = m;
          bestScore = s;
        }
      }
      return answer(obs, best ?? moves.find((m) => m.kind === 'deal') ?? fillForDeal(obs, seen), false);
    },
  };
}

/**
 * When an empty column blocks the deal (R12: no deal while a column is empty), the move that fills one
 * for it: a group moved into an empty column, chosen to uncover what can be uncovered (a card not
 * sitting naturally first, a group that would break an in-suit run last); never a whole column, nor a
 * move to a view in `seen`. Null when no deal is left or no such move exists.
 */
export function fillForDeal(obs: Observation, seen: ReadonlySet<string> = new Set()): Move | null {
  if (obs.stockDeals.length === 0) return null;
  let fill: Move | null = null;
  let fillScore = -Infinity;
  for (const m of observedMoves(obs)) {
    if (m.kind !== 'move' || obs.columns[m.to]!.up.length !== 0) continue;
    const src = obs.columns[m.from]!;
    if (src.down === 0 && src.up.length === m.count) continue; // moves a whole column: nothing gained
    if (seen.has(keyAfter(obs, m))) continue;
    const { natural, breaksRun } = groupBase(src.up, m.count);
    const s = (src.down > 0 && m.count === src.up.length ? 100 : 0) + (natural ? 0 : 10) + (breaksRun ? -50 : 0) + m.count;
    if (s > fillScore) {
      fill = m;
      fillScore = s;
    }
  }
  return fill;
}
