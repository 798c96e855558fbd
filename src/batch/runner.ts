/**
 * A batch study: plans are dispatched to the solve pool with a bounded number in flight, results are
 * written to the store in batched transactions as they arrive, progress goes to the sink; the CLI
 * parses and prints. `runBatch` runs the stages in order: planRun (the plan), BatchRun.open (the
 * store, the run's row; runState.ts, which also holds the pool, the progress sink, recording, the
 * summary and the faults), runRung for each rung of the budget ladder (rung.ts: dispatch), then
 * summarise.
 *
 * Guarantees: deals already settled for (key, budget, solver version) are skipped (errors are run
 * again); a worker that throws or dies gives an `error` row and the batch goes on; on abort
 * (SIGINT/SIGTERM) nothing more is dispatched, in-flight tasks are cancelled and discarded, every
 * finished result is written, and the run is marked `interrupted`, also when the abort comes before
 * the first dispatch (already aborted, or queued while the synchronous set-up ran): then no deal
 * runs. A killed process loses only the results not yet flushed (at most `flushEvery` plus the
 * in-flight ones).
 */
import { performance } from 'node:perf_hooks';
import type { PlannedDeal } from './deals.js';
import type { ProgressSink } from './progress.js';
import type { BlindReportRow } from './blind.js';
import type { ReportRow } from './report.js';
import { runRung } from './rung.js';
import { BatchRun, planRun, summarise } from './runState.js';
import { ResultStore, type StudyParams } from './store.js';

export { workersToStart } from './runState.js';
export { bandText, bandWidth } from './untilWidth.js';

/** Everything `runBatch` needs. */
export interface BatchOptions {
  /**
   * The study's planned deals in order, already checked (deals.ts `planStudy`). Iterated once per
   * rung, so it must be re-iterable (an array, or an object whose iterator starts afresh); it may be
   * endless with `untilWidth` (an open seed range).
   */
  readonly deals: Iterable<PlannedDeal>;
  /** Position budget of every deal (the first rung when `budgets` is given). */
  readonly maxPositions: number;
  /**
   * The budget ladder, increasing (default `[maxPositions]`): every deal is solved at the first rung,
   * those left undecided at the next, and so on (ladder.ts statusAt says what a deal counts as).
   */
  readonly budgets?: readonly number[];
  /**
   * Stopping rule: stop dispatching once, for every game × suits of the deals counted so far (a
   * prefix of the plan, in order), the band from the floor's 95% lower bound to the ceiling's 95%
   * upper bound is narrower than this. Single-rung studies only.
   */
  readonly untilWidth?: number;
  /**
   * Run only this shard of the plan (shard.ts): the deals at the plan's places that
   * `shardAssignment(planned, count)` gives to `index`. The plan is still walked whole, so each deal
   * keeps its place (`study_deals.ord`) and the study its parameters, as in an unsharded run; a
   * ladder works per shard (each deal's rungs are its own). Needs a finite plan and no `untilWidth`
   * (its rule reads the plan's prefix, which no shard sees).
   */
  readonly shard?: { readonly index: number; readonly count: number };
  /**
   * The shard came from a scheduler's environment (a job array's variables), not from `--shard`: it
   * is then refused on a database that holds another shard of the study (refuseOtherShard). An
   * explicit --shard is taken as given.
   */
  readonly shardFromEnvironment?: boolean;
  /**
   * A blind study: every deal is played blind (workers/blind.worker.ts) by this player — its canonical
   * spec (src/blind/players/index.ts specText) — with this player seed, and stored in
   * `blind_results` (blind.ts), one game per (deal, player, seed, version). A deal whose game is
   * stored (won or stuck) is skipped; an error is played again. Needs one budget (unused) and no
   * `untilWidth`.
   */
  readonly blind?: { readonly player: string; readonly seed: number };
  /**
   * Worker threads asked for, ≥ 1. The pool starts no more than the deals this run still has to run
   * (of its plan, its shard's; at least 1; runState.ts workersToStart, BatchRun.dealsToDo), whatever
   * is asked: a worker without a deal is only start-up time. The results are the same whatever the
   * count.
   */
  readonly workers: number;
  /** Told, once the study is open and before any deal runs, how many worker threads the run starts (BatchSummary.workers). */
  readonly onWorkers?: (workers: number) => void;
  /** Database file (created if absent). */
  readonly dbPath: string;
  /** Study name and the parameters that identify it (see ResultStore.ensureStudy). */
  readonly study: string;
  readonly studyParams: StudyParams;
  /** Aborting stops the batch, at any moment from before the call on (see the module comment). */
  readonly signal?: AbortSignal;
  /** Progress display; default none. */
  readonly progress?: ProgressSink;
  /** Worker module override (tests, benchmarks); default workers/solve.worker.{ts,js}. */
  readonly workerFile?: string;
  /** Most tasks handed to the pool at once; default 2 × workers. */
  readonly maxInFlight?: number;
  /** Write after this many results have arrived…; default 64. */
  readonly flushEvery?: number;
  /** …or after this long, milliseconds; default 500. */
  readonly flushMs?: number;
  /**
   * How long, in all, writes may find the database locked by another program before the batch stops
   * (milliseconds; default BUSY_GIVE_UP_MS): meanwhile the results wait in memory.
   */
  readonly busyGiveUpMs?: number;
  /** How long each statement waits for a lock another connection holds, milliseconds; default store.ts BUSY_TIMEOUT_MS (tests use less). */
  readonly busyTimeoutMs?: number;
  /** Heap limit of each worker, MiB (pool.ts); default Node's. */
  readonly maxOldGenerationSizeMb?: number;
  /**
   * Told notes for the user, one line of text each: with `untilWidth`, after `widthEstimateAfter`
   * deals counted and now and then after (widthEstimate.ts isEstimatePoint), how many more deals the
   * rule likely needs at the current rates (widthEstimate.ts estimateNote); once, after
   * `widthNoteAfter` deals, that the band is still wider than twice `untilWidth` (it may never stop:
   * see `widthNote`), unless an estimate is given at that count; and that results wait for a
   * database another program holds locked.
   */
  readonly onNote?: (text: string) => void;
  /** Deals counted before the note of a band wider than twice the width is considered; default WIDTH_NOTE_AFTER (tests use fewer). */
  readonly widthNoteAfter?: number;
  /** Deals counted before the first estimate of the deals the rule still needs; default ESTIMATE_FIRST (tests use fewer). */
  readonly widthEstimateAfter?: number;
  /**
   * Told when the run reaches each of its stages, for tests: `opened` (the study and the run opened
   * in the database), `pool` (the solve pool started), `dispatched` (the first deal handed to the
   * pool). The CLI passes its signal test hook (cli/signals.ts signalAtStage).
   */
  readonly onStage?: (stage: 'opened' | 'pool' | 'dispatched') => void;
}

/** What a batch did. Counts are deals; times milliseconds. */
export interface BatchSummary {
  study: string;
  studyId: number;
  runId: number;
  db: string;
  game: string | null;
  suits: string | null;
  maxPositions: number;
  /** The ladder's budgets (one for a single-budget study). */
  budgets: number[];
  /** Worker threads the run starts (when any deal runs): the workers asked for, at most the deals it still had to run (workersToStart). */
  workers: number;
  solverVersion: string;
  /** Deals in the study's plan (with --until-width: the deals counted when it stopped, or null while open). */
  planned: number | null;
  /**
   * Of those, already stored before this run (by any study, under any name): settled at the budget, or
   * with a ladder, with a result at the first rung, whatever it is (an undecided one may still run at
   * the next rungs). A stopped run of one budget counts instead the deals the study counts that it did
   * not solve, so that skipped + ran + remaining = planned + uncounted (+ errors).
   */
  skipped: number;
  /** Results this run stored (errors included), all rungs. */
  ran: number;
  won: number;
  lost: number;
  undecided: number;
  errors: number;
  /** Deals of the plan not yet settled at the last rung (to run on resume); null when the plan is open. */
  remaining: number | null;
  /**
   * Deals a stopped run solved and stored but left uncounted, for they follow a deal of the plan still
   * in flight when it stopped (store.ts keepCountedPrefix); the next run counts them. 0 if none.
   */
  uncounted: number;
  /**
   * Deals this run solved and stored past the place its --until-width rule stopped the plan at (they
   * had finished before the stop cancelled them): not counted by the study, now or later. 0 if none
   * (absent: 0).
   */
  pastStop?: number;
  /** Deals the study counts after the run (StudyInfo.counted; a shard's database: its own); null if unknown. */
  counted: number | null;
  /** Of those, deals its budget ladder has not yet taken to every rung (StudyInfo.unfinished); null if unknown. */
  unfinished: number | null;
  /** True when stopped by the signal. */
  interrupted: boolean;
  /** Why the batch stopped early when it did so by its stopping rule (--until-width), else null. */
  stopReason: string | null;
  /** The study's --until-width rule, or null (absent: none). */
  untilWidth?: number | null;
  /**
   * Why an --until-width study ended without its rule met, the band still not narrower than the
   * width: an open-ended one's seeds ran out at the largest seed, or a closed plan (a seed range, a
   * deals file) was counted to its end; else null.
   */
  seedsRanOut: string | null;
  /** Wall time of the run. */
  elapsedMs: number;
  /** ran / wall seconds (0 when nothing ran). */
  dealsPerSecond: number;
  /** Sum of in-worker time (load + solve) of the deals that ran; with elapsedMs gives the overhead. */
  workerMs: number;
  /** The study's report (every rung, this solver version among others stored); empty for a blind study. */
  report: ReportRow[];
  /** A blind study's report (blind.ts blindReport), its player and player seed; absent for a solve study. */
  blind?: BlindReportRow[];
  player?: string;
  playerSeed?: number;
}

/**
 * Runs (or resumes) a study; see the module comment. Opens and closes the store itself; destroys the
 * pool in all cases. Throws InputError (bad database, study name clash) before anything runs, or the
 * store's error if a write fails (the run is then marked `failed` when possible; a storage fault is
 * told as a FileFault, runFaults.ts).
 *
 * Each rung walks the plan in order (rung.ts). A deal is skipped when the database already says what
 * it counts as at that rung (ladder.ts statusAt: a result at this budget, a win or a loss at a smaller
 * one, an undecided at a larger one, stored by any study, under any name, with this solver version);
 * at rungs after the first, only deals undecided at the previous rung are looked at. Every deal the
 * first rung reaches is counted by the study (`study_deals`), solved now or not.
 */
export async function runBatch(opts: BatchOptions): Promise<BatchSummary> {
  const t0 = performance.now();
  const plan = planRun(opts);
  const run = new BatchRun(opts, plan, ResultStore.openForWriting(opts.dbPath, opts.busyTimeoutMs));
  try {
    await run.open();
    for (let rung = 0; rung < plan.budgets.length && !run.interrupted && run.stopReason === null; rung++) {
      await runRung(run, rung);
    }
    const uncounted = run.record();
    return summarise(run, uncounted, t0);
  } catch (e) {
    throw run.fault(e);
  } finally {
    await run.close();
  }
}
