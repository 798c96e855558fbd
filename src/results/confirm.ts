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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { stringify } from 'csv-stringify/sync';
import { InputError } from '../game/errors.js';
import { loadDeal } from '../game/ref.js';
import { RUNNING_FROM_SOURCE, workerExecArgv } from '../batch/pool.js';
import { confirmLoss, type ConfirmResult } from '../solver/confirm.js';
import type { SolveStatus } from '../solver/types.js';
import { committedRow, countedDeals, parseCsvRecords, writeAtomically } from './export.js';
import { shownPath, type ResultsRow } from './rows.js';

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

/**
 * Loss checks read back from lossesCsv's text. Lines it cannot read are left out (so their deals are
 * checked again): no deal, a check other than lost, won or undecided, or a count, budget or time that
 * is not a number.
 */
export function parseLossesCsv(text: string): LossCheck[] {
  const num = (v: string | undefined) => (v !== undefined && /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN);
  return (parseCsvRecords(text) as Record<string, string | undefined>[])
    .filter((r) => r.deal && (r.check === 'lost' || r.check === 'won' || r.check === 'undecided'))
    .map((r) => ({
      deal: r.deal!, solverPositions: num(r.solver_positions), check: r.check as SolveStatus,
      checkPositions: num(r.check_positions), checkBudget: num(r.check_budget), checkSeconds: num(r.check_seconds),
    }))
    .filter((c) => [c.solverPositions, c.checkPositions, c.checkBudget, c.checkSeconds].every(Number.isFinite));
}

/**
 * How a loss is searched again: `deal` (its name in the row) with confirmLoss at `budget` positions.
 * Rejects with the error of a deal that cannot be loaded, or with an AbortError once `signal` fires
 * (the search stopped, where the checker can stop it).
 */
export type LossChecker = (deal: string, budget: number, signal?: AbortSignal) => Promise<ConfirmResult>;

/** The LossChecker of this thread: the search runs to its end, so a signal counts only between deals. */
export const inThreadLossChecker: LossChecker = async (deal, budget) => {
  const loaded = loadDeal(deal);
  if (!loaded.ok) throw loaded.error;
  return confirmLoss(loaded.value.position, budget);
};

/**
 * What the confirm worker (workers/confirm.worker.ts) answers: the result, or the fault that kept it
 * from one: `load` (the deal cannot be loaded) or `memory` (SolverMemoryError), with its message (a
 * message crosses threads intact; an error's class does not).
 */
export type ConfirmAnswer = { readonly result: ConfirmResult } | { readonly fault: 'load' | 'memory'; readonly message: string };

/**
 * A LossChecker that searches in a worker thread (workers/confirm.worker.ts, a Piscina pool of one
 * thread, as the batch's solve pool: pool.ts), so that the main thread hears a signal during a long
 * search: when `signal` fires the task is aborted, which ends its thread, and the check rejects with
 * an AbortError. A deal that cannot be loaded rejects with an InputError; a search that ran out of
 * memory (SolverMemoryError in the worker) with an Error saying so and what to do. `close` ends the
 * pool (call it when done).
 */
export function workerLossChecker(): { check: LossChecker; close(): Promise<void> } {
  const file = fileURLToPath(new URL(`../../workers/confirm.worker.${RUNNING_FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url));
  const pool = new Piscina<{ deal: string; budget: number }, ConfirmAnswer>({
    filename: pathToFileURL(file).href, minThreads: 1, maxThreads: 1, idleTimeout: 60_000, execArgv: workerExecArgv(file),
  });
  const check: LossChecker = async (deal, budget, signal) => {
    const answer = await pool.run({ deal, budget }, signal ? { signal } : {});
    if ('result' in answer) return answer.result;
    if (answer.fault === 'load') throw new InputError('bad-file', `deal ${deal}: ${answer.message}`);
    throw new Error(`deal ${deal}: ${answer.message}; give a smaller --budget, or check it on a machine with more memory`);
  };
  return { check, close: () => pool.destroy() };
}

/** Options of confirmRow. */
export interface ConfirmOptions {
  /** Stops the checks (Ctrl-C): no deal is begun after it fires, and the one under way is dropped where `check` can stop it. */
  readonly signal?: AbortSignal;
  /** Told once, before the first answer, how many losses the row holds. */
  readonly onPlan?: (losses: number) => void;
  /** How each loss is searched (default inThreadLossChecker). */
  readonly check?: LossChecker;
}

/**
 * Checks every deal row `row` proved lost (its database under `root`, results of `solverVersion`)
 * with confirmLoss at `budget` positions, one after the other in the row's order, and rewrites
 * lossesPath(row) after each. A deal the file has already answered (confirmed or contradicted, or left
 * undecided at this budget or more) is not checked again, even where the row's proof has changed
 * since (another solver version: the check searches the deal without the solver, so its answer
 * stands; the file takes the new proof's count); `onDeal` is told each answer as it comes, and
 * whether it was the file's (`reused`). The file keeps every answer it held: the deals of this run in the row's order, then the others as they were (a
 * deal the database no longer holds as lost, or an interrupted run's deals not reached yet).
 * When `o.signal` fires the checks stop: every answer already written is kept, the deal under way is
 * left for the next run (the same call resumes), and the checks so far are returned (`signal.aborted`
 * tells the caller that they are not all).
 * Resolves with the checks of the row's losses, in its order. Rejects with InputError for a missing
 * or damaged database, or one without the row's study.
 */
export async function confirmRow(
  row: ResultsRow, root: string, solverVersion: string, budget = CHECK_BUDGET,
  onDeal?: (c: LossCheck, index: number, of: number, reused: boolean) => void, o: ConfirmOptions = {},
): Promise<LossCheck[]> {
  const path = join(root, lossesPath(row));
  const before = new Map(existsSync(path) ? parseLossesCsv(readFileSync(path, 'utf8')).map((c) => [c.deal, c]) : []);
  // (with the deals carried over from the committed files: their answers in the file are kept; with
  // no database, the committed files' deals)
  const deals = existsSync(join(root, row.db)) ? countedDeals(row, root, solverVersion) : committedRow(row, root, solverVersion);
  if (deals === null) throw new InputError('bad-file', `database ${shownPath(root, row.db)} holds no study ${JSON.stringify(row.study)}: it is not this row's database; run npm run results -- ${row.id} to make it`);
  const lost = deals.filter((d) => d.status === 'lost');
  o.onPlan?.(lost.length);
  // a row without losses has nothing to check: no file is made for it
  if (lost.length === 0 && !existsSync(path)) return [];
  const out: LossCheck[] = [];
  const check = o.check ?? inThreadLossChecker;
  // the file: this run's answers so far, then every other answer it held
  const write = () => {
    const done = new Set(out.map((c) => c.deal));
    writeAtomically(path, lossesCsv([...out, ...[...before.values()].filter((c) => !done.has(c.deal))]));
  };
  for (const [i, d] of lost.entries()) {
    const found = before.get(d.deal);
    if (found && (found.check !== 'undecided' || found.checkBudget >= budget)) {
      // the check searches the deal, not the proof: its answer stands when the proof changes (another
      // solver version), and takes the proof's count
      const old = { ...found, solverPositions: d.positions ?? 0 };
      out.push(old);
      onDeal?.(old, i, lost.length, true);
      continue;
    }
    // a turn of the event loop, so that a signal that came during the last search is heard
    await new Promise((r) => setImmediate(r));
    if (o.signal?.aborted) break;
    let c: ConfirmResult;
    try {
      c = await check(d.deal, budget, o.signal);
    } catch (e) {
      if (o.signal?.aborted) break;
      throw e;
    }
    const answer: LossCheck = { deal: d.deal, solverPositions: d.positions ?? 0, check: c.status, checkPositions: c.positions, checkBudget: budget, checkSeconds: c.elapsedMs / 1000 };
    out.push(answer);
    onDeal?.(answer, i, lost.length, false);
    // written after each deal: an interrupted check keeps what it finished
    write();
  }
  write();
  return out;
}
