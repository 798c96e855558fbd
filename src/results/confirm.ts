/**
 * The second check of a row's losses: every deal the row proved lost is searched again by
 * confirmLoss (src/solver/confirm.ts: the complete search alone, without the solver's reductions), and
 * the answers are written to `data/results/ROW-losses.csv` for the row's page (table.ts).
 *
 * The file's columns: deal (its name in the row), solver_positions (what the row's proof stored at its
 * budget), check (lost: confirmed; undecided: not within the check's budget; won: contradicted, the
 * winning line replays), check_positions, check_budget, check_seconds (wall time of the check).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { InputError } from '../game/errors.js';
import { loadDeal } from '../game/ref.js';
import { confirmLoss } from '../solver/confirm.js';
import type { SolveStatus } from '../solver/types.js';
import { parseCsvRecords, rowDeals, writeAtomically } from './export.js';
import type { ResultsRow } from './rows.js';

/** Default position budget of a loss's second check: the top of the rows' ladder (16,000,000). */
export const CHECK_BUDGET = 16_000_000;

/** One lost deal checked again. */
export interface LossCheck {
  readonly deal: string;
  /** Positions the row's proof of the loss stored. */
  readonly solverPositions: number;
  /** lost: confirmed; undecided: the check's budget ran out; won: the loss contradicted. */
  readonly check: SolveStatus;
  readonly checkPositions: number;
  readonly checkBudget: number;
  /** Wall time of the check, seconds. */
  readonly checkSeconds: number;
}

/** Path of a row's loss checks, relative to the project: `data/results/ROW-losses.csv`. */
export function lossesPath(row: ResultsRow): string {
  return row.csv.replace(/\.csv$/, '-losses.csv');
}

/** The CSV text of loss checks (header, then one line a deal). */
export function lossesCsv(checks: readonly LossCheck[]): string {
  return stringify(
    checks.map((c) => [c.deal, c.solverPositions, c.check, c.checkPositions, c.checkBudget, c.checkSeconds.toFixed(2)]),
    { header: true, columns: ['deal', 'solver_positions', 'check', 'check_positions', 'check_budget', 'check_seconds'] },
  );
}

/** Loss checks read back from lossesCsv's text (lines it cannot read are left out). */
export function parseLossesCsv(text: string): LossCheck[] {
  return (parseCsvRecords(text) as Record<string, string | undefined>[])
    .filter((r) => r.deal && (r.check === 'lost' || r.check === 'won' || r.check === 'undecided'))
    .map((r) => ({
      deal: r.deal!, solverPositions: Number(r.solver_positions), check: r.check as SolveStatus,
      checkPositions: Number(r.check_positions), checkBudget: Number(r.check_budget), checkSeconds: Number(r.check_seconds),
    }));
}

/**
 * Checks every deal row `row` proved lost (its database under `root`, results of `solverVersion`)
 * with confirmLoss at `budget` positions, one after the other in the row's order, and rewrites
 * lossesPath(row) after each. A deal the file has already answered (confirmed or contradicted, or left
 * undecided at this budget or more) is not checked again, unless the row's proof has changed since;
 * `onDeal` is told each answer as it comes, and whether it was the file's (`reused`). The file keeps
 * every answer it held: the deals of this run in the row's order, then the others as they were (a
 * deal the database no longer holds as lost, or an interrupted run's deals not reached yet).
 * Returns the checks of the row's losses, in its order. Throws InputError for a missing or damaged
 * database, or one without the row's study.
 */
export function confirmRow(row: ResultsRow, root: string, solverVersion: string, budget = CHECK_BUDGET, onDeal?: (c: LossCheck, index: number, of: number, reused: boolean) => void): LossCheck[] {
  const path = join(root, lossesPath(row));
  const before = new Map(existsSync(path) ? parseLossesCsv(readFileSync(path, 'utf8')).map((c) => [c.deal, c]) : []);
  const deals = rowDeals(row, join(root, row.db), solverVersion);
  if (deals === null) throw new InputError('bad-file', `database ${row.db} holds no study ${JSON.stringify(row.study)}: it is not this row's database; run npm run results -- ${row.id} to make it`);
  const lost = deals.filter((d) => d.status === 'lost');
  const out: LossCheck[] = [];
  // the file: this run's answers so far, then every other answer it held
  const write = () => {
    const done = new Set(out.map((c) => c.deal));
    writeAtomically(path, lossesCsv([...out, ...[...before.values()].filter((c) => !done.has(c.deal))]));
  };
  lost.forEach((d, i) => {
    const old = before.get(d.deal);
    if (old && old.solverPositions === d.positions && (old.check !== 'undecided' || old.checkBudget >= budget)) {
      out.push(old);
      onDeal?.(old, i, lost.length, true);
      return;
    }
    const loaded = loadDeal(d.deal);
    if (!loaded.ok) throw loaded.error;
    const c = confirmLoss(loaded.value.position, budget);
    const check: LossCheck = { deal: d.deal, solverPositions: d.positions ?? 0, check: c.status, checkPositions: c.positions, checkBudget: budget, checkSeconds: c.elapsedMs / 1000 };
    out.push(check);
    onDeal?.(check, i, lost.length, false);
    // written after each deal: an interrupted check keeps what it finished
    write();
  });
  write();
  return out;
}
