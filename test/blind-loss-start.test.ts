/**
 * A blind game on a deal that cannot be won at all: findLoss says the start was proven lost (R19),
 * and the game's words say no move lost it, not "unknown".
 */
import { describe, expect, it } from 'vitest';
import { playBlind } from '../src/blind/game.js';
import { findLoss } from '../src/blind/loss.js';
import { parsePlayerSpec } from '../src/blind/players/index.js';
import { lossText } from '../src/cli/blind.js';
import { dealPosition } from '../src/game/deal.js';
import { solve } from '../src/solver/solve.js';
import { SE1, SE4 } from './helpers/game.js';

describe('a deal lost from the start', () => {
  it('SE1-97 (proven lost in 72,953 positions): the start proven lost, so no move lost it', () => {
    const start = dealPosition(SE1, 97);
    expect(solve(start, { maxPositions: 200_000 })).toMatchObject({ status: 'lost', positions: 72_953 });
    const g = playBlind(start, parsePlayerSpec('greedy'), 1);
    expect(g.result).toBe('stuck');
    const loss = findLoss(start, g.line, 200_000);
    expect(loss).toMatchObject({ lastWinnable: null, exact: true, solves: 1, positions: 72_953 });
    expect(lossText(g, loss)).toBe('no move lost the deal: it cannot be won even seeing every card (the start proven lost, every reachable position examined within 200,000 positions)');
  });

  it('a start not settled within the budget stays unknown', () => {
    const start = dealPosition(SE4, 1011);
    const g = playBlind(start, parsePlayerSpec('greedy'), 1);
    const loss = findLoss(start, g.line, 100);
    expect(loss).toMatchObject({ lastWinnable: null, exact: false, solves: 1 });
    expect(lossText(g, loss)).toBe('where the deal was lost: unknown (no perfect-information win of the deal found within 100 positions)');
  });
});
