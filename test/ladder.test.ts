/**
 * The budget ladder's rule (src/batch/ladder.ts, docs/commands.md "budget ladder"): what a deal counts
 * as at one rung from its results at any budgets. Won and lost are proofs and hold at every larger
 * budget; undecided holds at every smaller one; an error only at its own budget.
 */
import { describe, expect, it } from 'vitest';
import { highestBelow, statusAt, type BudgetResult } from '../src/batch/ladder.js';

const r = (budget: number, status: BudgetResult['status']): BudgetResult => ({ budget, status });

describe('statusAt: what a deal counts as at rung b', () => {
  it('won at the smallest budget it was won at, and at every larger rung', () => {
    const rs = [r(400, 'won'), r(100, 'undecided'), r(1600, 'won')];
    expect(statusAt(rs, 400)).toEqual(r(400, 'won'));
    expect(statusAt(rs, 6400)).toEqual(r(400, 'won'));
    // below the win, the undecided result at 100 counts (a larger budget decided it, this one did not)
    expect(statusAt(rs, 100)).toEqual(r(100, 'undecided'));
    expect(statusAt(rs, 50)).toEqual(r(100, 'undecided'));
  });

  it('lost from the budget it was proven lost at; nothing known below it', () => {
    const rs = [r(400, 'lost')];
    expect(statusAt(rs, 400)).toEqual(r(400, 'lost'));
    expect(statusAt(rs, 1600)).toEqual(r(400, 'lost'));
    expect(statusAt(rs, 100)).toBeNull();
  });

  it('undecided at b when undecided at b or a larger budget (the smallest such); unknown above it', () => {
    const rs = [r(1600, 'undecided'), r(400, 'undecided')];
    expect(statusAt(rs, 100)).toEqual(r(400, 'undecided'));
    expect(statusAt(rs, 800)).toEqual(r(1600, 'undecided'));
    expect(statusAt(rs, 6400)).toBeNull();
  });

  it('an error only at its own budget (run again on resume), and never over a proof', () => {
    expect(statusAt([r(400, 'error')], 400)).toEqual(r(400, 'error'));
    expect(statusAt([r(400, 'error')], 100)).toBeNull();
    expect(statusAt([r(400, 'error')], 1600)).toBeNull();
    expect(statusAt([r(400, 'error'), r(100, 'won')], 400)).toEqual(r(100, 'won'));
    expect(statusAt([r(400, 'error'), r(1600, 'undecided')], 400)).toEqual(r(1600, 'undecided'));
  });

  it('nothing stored: nothing known', () => {
    expect(statusAt([], 100)).toBeNull();
  });
});

describe('highestBelow: a deal an interrupted ladder has not taken to rung b yet', () => {
  it('counts as its result at the largest budget below b that is undecided or an error', () => {
    const rs = [r(100, 'undecided'), r(400, 'error')];
    expect(highestBelow(rs, 1600)).toEqual(r(400, 'error'));
    expect(highestBelow(rs, 400)).toEqual(r(100, 'undecided'));
    expect(highestBelow(rs, 100)).toBeNull();
    expect(highestBelow([r(100, 'won')], 400)).toBeNull();
  });
});
