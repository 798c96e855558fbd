/**
 * The second check of a loss (src/solver/confirm.ts): the complete search alone, without the solver's
 * reductions, against known answers and against a count of reachable positions made through the rules
 * engine alone.
 */
import { describe, expect, it } from 'vitest';
import { dealPosition } from '../src/game/deal.js';
import { isWon, type Position } from '../src/game/position.js';
import { applyMove, legalMoves } from '../src/game/rules.js';
import { playLine } from '../src/game/score.js';
import { completeSearch } from '../src/solver/complete.js';
import { confirmLoss } from '../src/solver/confirm.js';
import { ColumnStore, KeyCodec } from '../src/solver/key.js';
import { solve } from '../src/solver/solve.js';
import { SolverState } from '../src/solver/state.js';
import { PositionTable } from '../src/solver/table.js';
import { pos, SE4 } from './helpers/game.js';

/** Distinct positions reachable from `start` through the rules engine (string keys), or null past `limit`; and whether one is won. */
function reachableByRules(start: Position, limit: number): { count: number; won: boolean } | null {
  const key = (p: Position) => JSON.stringify([p.columns, p.stock.length]);
  const seen = new Set<string>([key(start)]);
  const stack = [start];
  let won = false;
  while (stack.length) {
    const p = stack.pop()!;
    if (isWon(p)) won = true;
    for (const m of legalMoves(p)) {
      const q = applyMove(p, m).position;
      const k = key(q);
      if (seen.has(k)) continue;
      if (seen.size >= limit) return null;
      seen.add(k);
      stack.push(q);
    }
  }
  return { count: seen.size, won };
}

/** The complete stage alone from `p` over a new table, with or without the reductions: its answer and count. */
function completeAlone(p: Position, reductions: boolean): { status: string; positions: number } {
  const store = new ColumnStore();
  const lengths = new KeyCodec(new SolverState(p), undefined, reductions, store);
  const table = new PositionTable(100_000, (a, o) => lengths.keyLength(a, o));
  const out = completeSearch(p, 100_000, table, store, true, reductions);
  return { status: out.status, positions: table.size };
}

// Three suits removed, the Clubs left: won in four moves (10C-9C, 8C and 7C..2C onto the King's
// run, then the Ace turned up), with three empty columns the reductions treat as one (SolverState.generate).
const nearWin = pos(SE4, [['', 'KC QC JC'], ['', '10C 9C'], ['', '8C'], ['AC', '7C 6C 5C 4C 3C 2C'], [], [], []], [], [0, 1, 2]);

describe('confirmLoss: the complete search without reductions', () => {
  it('confirms the loss of SE4-1011, storing exactly the positions the rules engine reaches (7,462)', () => {
    const p = dealPosition(SE4, 1011);
    const byRules = reachableByRules(p, 100_000);
    expect(byRules).toEqual({ count: 7462, won: false });
    const c = confirmLoss(p, 100_000);
    expect(c.status).toBe('lost');
    expect(c.positions).toBe(7462);
    expect(c.line).toEqual([]);
    // the solver itself stores no dead end of the complete stage (SolverState.deadEnd): 2,972 of them
    expect(solve(p, { maxPositions: 100_000 })).toMatchObject({ status: 'lost', positions: 2972 });
  });

  it('contradicts a claimed loss of a won position: the win, with a line that replays, found without the reductions', () => {
    const c = confirmLoss(nearWin, 100_000);
    expect(c.status).toBe('won');
    expect(c.line).toEqual(['2-1', '3-1', '4-1', '4-1']);
    const played = playLine(nearWin, c.line);
    expect(played.ok && played.value.won).toBe(true);
    // breadth-first to the same win, the search with the reductions stores 701 positions, without them 28,572
    expect(completeAlone(nearWin, true)).toEqual({ status: 'won', positions: 701 });
    expect(completeAlone(nearWin, false)).toEqual({ status: 'won', positions: c.positions });
    expect(c.positions).toBe(28_572);
  });

  it('answers undecided, having stored exactly its budget, when the positions outgrow it', () => {
    const c = confirmLoss(dealPosition(SE4, 1011), 1000);
    expect(c).toMatchObject({ status: 'undecided', positions: 1000 });
  });
});
