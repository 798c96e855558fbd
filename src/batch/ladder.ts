/**
 * The budget ladder's rule: what a deal counts as at one rung of a study's ladder of budgets, from
 * the results stored for it at any budgets. The batch runs a rung only for the deals it says nothing
 * of (rung.ts); the report and the results table count each deal by it (storeRead.ts,
 * ../results/export.ts), so that a study counts the same however its ladder was run.
 */

/** Outcome stored for one deal: the three solver outcomes (R19) or `error` (the worker failed). */
export type ResultStatus = 'won' | 'lost' | 'undecided' | 'error';

/** One stored result of a deal at one budget (the fields the ladder needs). */
export interface BudgetResult {
  readonly budget: number;
  readonly status: ResultStatus;
}

/**
 * What a deal counts as at budget `b`, from its stored results (one solver version) at any budgets
 * (docs/rules.md R19: won and lost are proofs, undecided is not):
 * - won, if it was won at some budget ≤ b (the smallest such result is returned);
 * - else lost, if it was proven lost at some budget ≤ b;
 * - else undecided, if it was undecided at some budget ≥ b (a larger budget did not decide it; counting
 *   it undecided at b keeps the floor a lower bound and the ceiling an upper bound);
 * - else error, if its result at exactly b is an error (run again on resume);
 * - else null: nothing is known at b yet (the deal must be solved at b).
 * A ladder solves at rung b only the deals for which this is null or an error.
 */
export function statusAt<T extends BudgetResult>(results: readonly T[], b: number): T | null {
  let best: T | null = null;
  for (const r of results) if (r.status === 'won' && r.budget <= b && (!best || r.budget < best.budget)) best = r;
  if (best) return best;
  for (const r of results) if (r.status === 'lost' && r.budget <= b && (!best || r.budget < best.budget)) best = r;
  if (best) return best;
  for (const r of results) if (r.status === 'undecided' && r.budget >= b && (!best || r.budget < best.budget)) best = r;
  if (best) return best;
  for (const r of results) if (r.status === 'error' && r.budget === b) return r;
  return null;
}

/**
 * What a deal that an interrupted budget ladder has not taken to rung `b` yet (statusAt is null there)
 * counts as at b in a report: its result at the largest budget below b that is undecided or an error,
 * or null if it has none (a deal with nothing known at b that is not part of an unfinished ladder).
 * Counting it undecided keeps the rung's floor a lower bound and its ceiling an upper bound, and the
 * rung's row counts every deal of the study (counting only the deals the ladder has reached would bias
 * the floor upwards).
 */
export function highestBelow<T extends BudgetResult>(results: readonly T[], b: number): T | null {
  let best: T | null = null;
  for (const r of results) if ((r.status === 'undecided' || r.status === 'error') && r.budget < b && (!best || r.budget > best.budget)) best = r;
  return best;
}
