/**
 * A batch study: plans are dispatched to the solve pool with a bounded number in flight, results are
 * written to the store in batched transactions as they arrive, progress goes to the sink. This is
 * the only module that wires pool, store and progress together; the CLI parses and prints.
 *
 * Guarantees: deals already settled for (key, budget, solver version) are skipped (errors are run
 * again); a worker that throws or dies gives an `error` row and the batch goes on; on abort
 * (SIGINT/SIGTERM) nothing more is dispatched, in-flight tasks are cancelled and discarded, every
 * finished result is written, and the run is marked `interrupted` — also when the abort comes before
 * the first dispatch (already aborted, or queued while the synchronous set-up ran): then no deal runs; a killed process loses only the
 * results not yet flushed (at most `flushEvery` plus the in-flight ones).
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { SOLVER_VERSION } from '../solver/types.js';
import { dealName, plannedIdentity, type PlannedDeal } from './deals.js';
import { createSolvePool } from './pool.js';
import type { WorkerOutcome } from './protocol.js';
import { NO_PROGRESS, type ProgressCounts, type ProgressSink } from './progress.js';
import { statusAt, wilsonInterval, type ReportRow, type ResultStatus } from './report.js';
import { FileFault, isBusyDatabase, storageFaultKind } from './faults.js';
import { oneLine } from './schema.js';
import { fittingShard, shardAssignment, shardSize } from './shard.js';
import { InputError, pathForMessage, quoteInput } from '../game/errors.js';
import { BUSY_TIMEOUT_MS, HEARTBEAT_MS, recordFromError, recordFromOutcome, ResultStore, type DealLink, type ResultRecord, type StudyParams } from './store.js';

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
   * those left undecided at the next, and so on (report.ts statusAt says what a deal counts as).
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
  /** Worker threads, ≥ 1. */
  readonly workers: number;
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
   * Told once, with one line of text, when an `untilWidth` study has counted `widthNoteAfter` deals
   * and its band is still wider than twice `untilWidth` (it may never stop: see `widthNote`).
   */
  readonly onNote?: (text: string) => void;
  /** Deals counted before that note is considered; default WIDTH_NOTE_AFTER (tests use fewer). */
  readonly widthNoteAfter?: number;
}

/** Deals an --until-width study counts before it says that its band is far from narrow enough. */
export const WIDTH_NOTE_AFTER = 1000;

/**
 * How long, in all, a batch's writes may find its database locked by another program (a merge,
 * sqlite3, a backup) before the batch stops, milliseconds: each write waits at most BUSY_RETRY_MS,
 * the results wait in memory, and the workers go on, between tries. Before, the first
 * write that waited 10 s stopped the batch with "internal error: database is locked" (found by
 * helper-39).
 */
export const BUSY_GIVE_UP_MS = 10 * 60_000;

/**
 * The busy timeout of a batch's writes while it runs, milliseconds: short, so that a write that finds
 * the database locked by another program does not keep the process from its workers and from
 * signals for long; it is tried again every flushMs (see BUSY_GIVE_UP_MS). The set-up and the run's
 * last writes wait the full BUSY_TIMEOUT_MS.
 */
export const BUSY_RETRY_MS = 100;

/**
 * The note of an --until-width study whose band, after `n` deals, is still wider than twice the
 * width asked (`widths`: per game × suits), or null when every band is within twice the width. The
 * band runs from the floor's low end to the ceiling's high end, so it narrows only when most deals
 * are settled, won or lost; where losses are rarely proven (4 suits at a small budget) the ceiling
 * stays near 100% and the study may never stop.
 */
export function widthNote(width: number, n: number, widths: readonly (readonly [string, number])[]): string | null {
  const wide = widths.filter(([, w]) => w > 2 * width);
  if (wide.length === 0) return null;
  return `note: --until-width ${width}: after ${n} deals the band is still ${widthsText(wide, 2 * width)}, more than twice ${width}; ` +
    'it narrows only when most deals are settled (won or lost), and with few losses proven the ceiling stays high, so this study may never stop: ' +
    'a larger --max-positions settles more deals; Ctrl-C stops it (resumable)';
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
   * Why an open-ended --until-width study (`--seeds N-`) ended without its rule met: its seeds ran out
   * at the largest seed, and the band was still not narrower than the width (`seedsRanOut`); else null.
   */
  seedsRanOut: string | null;
  /** Wall time of the run. */
  elapsedMs: number;
  /** ran / wall seconds (0 when nothing ran). */
  dealsPerSecond: number;
  /** Sum of in-worker time (load + solve) of the deals that ran; with elapsedMs gives the overhead. */
  workerMs: number;
  /** The study's report (every rung, this solver version among others stored). */
  report: ReportRow[];
}

/**
 * A band as the rule's messages give it: 4 decimals, or as many more (up to 12) as it takes for the
 * printed value to compare with `against` (the width, or twice it) as the band does, so that a message
 * never reads false (found by helper-48: a band of 0.049990 was printed `0.0500 < 0.05`).
 */
export function bandText(w: number, against: number): string {
  const side = Math.sign(w - against);
  for (let d = 4; d < 12; d++) {
    const t = w.toFixed(d);
    if (Math.sign(Number(t) - against) === side) return t;
  }
  return w.toFixed(12);
}

/** The bands of the stopping rule as its messages give them: `0.5888 (spider 1 suit), …` (bandText). */
function widthsText(widths: readonly (readonly [string, number])[], against: number): string {
  return widths.map(([g, w]) => `${bandText(w, against)} (${g})`).join(', ');
}

/** `after N deals the band from the floor's 95% lower bound to the ceiling's 95% upper bound is …`, as the rule's messages say it. */
function bandAfter(n: number, widths: readonly (readonly [string, number])[], against: number): string {
  return `after ${n} deals the band from the floor's 95% lower bound to the ceiling's 95% upper bound is ${widthsText(widths, against)}`;
}

/** Per game × suits counts of the plan's prefix, for the stopping rule. */
interface PrefixCounts {
  n: number;
  won: number;
  open: number; // undecided + errors: not proven lost
}

/** The band of --until-width: from the floor's 95% lower bound to the ceiling's 95% upper bound. */
export function bandWidth(c: { n: number; won: number; open: number }): number {
  const f = wilsonInterval(c.won, c.n);
  const g = wilsonInterval(c.won + c.open, c.n);
  return f && g ? g[1] - f[0] : 1;
}

/**
 * Fewest deals of one shard a database must hold before refuseOtherShard infers that shard from them.
 * n deals of a shard of N also fit a shard of 2N by chance with probability 2^−(n−1), and n deals of
 * a whole study share a count by chance with probability about 1 − 1/ζ(n−1): some 2·10⁻⁶ at 20, where
 * 8 would refuse one resumed shard in a few hundred.
 */
export const SHARD_INFERENCE_MIN = 20;

/**
 * Refuses a shard run taken from a job array's environment (`shard`, K/N) into a database that holds
 * another shard of the study. Two cases:
 * - some of the study's deals there are not in shard K/N: the database was written with another
 *   count or index (`sbatch --array=2-3` resubmitting two tasks of `--array=0-3` reads as shards 0/2
 *   and 1/2; a Kubernetes Job's `--shard-count` changed), and this run would solve another set of
 *   deals into it (found by helper-58). Exact: any one such deal is proof.
 * - all of them fall in one shard of a count that N divides at least twice (fittingShard, with at
 *   least SHARD_INFERENCE_MIN of them): the database holds a narrower shard, which this run would
 *   widen N'/N times over. That is what a Slurm array task resubmitted on its own (`sbatch
 *   --array=7`) looks like: an array of one task reads as shard 0/1, the whole study.
 * Nothing is refused once the plan has grown since the database's study was planned (the split is
 * of another length). Throws InputError `bad-option`. (A shard given with --shard is the user's word,
 * and not checked: one database may take several shards in turn.)
 */
function refuseOtherShard(store: ResultStore, study: string, planned: number, shard: { readonly index: number; readonly count: number }, dbPath: string): void {
  const places = store.studyPlaces(study).filter((p) => p < planned);
  if (places.length === 0) return;
  // the split depends on the plan's length: a plan that grew since (lines added to its deals file,
  // which the study's next batch runs) splits every shard anew, and the shard this database holds
  // cannot be told (found by helper-60: every task of the same array was refused)
  const recorded = store.studyPlanned(study);
  if (recorded !== null && recorded !== planned) return;
  const fit = places.length >= SHARD_INFERENCE_MIN ? fittingShard(places, planned) : null;
  const give = (example: string) =>
    `a job array (or Indexed Job) resubmitted in part, or with another count, cannot tell the study's shard count, so give --shard K/N (the shard this database was written with, ${example}), or use another --db; nothing was run`;
  const assignment = shardAssignment(planned, shard.count);
  const outside = places.filter((p) => assignment[p] !== shard.index).length;
  if (outside > 0) {
    const was = fit && fit.count > 1 ? `, all of one shard of ${fit.count} (shard ${fit.index}/${fit.count}),` : '';
    throw new InputError(
      'bad-option',
      `database ${pathForMessage(dbPath)} holds ${places.length} deals of study ${quoteInput(study)}${was} of which ${outside} are not in this run's shard ${shard.index}/${shard.count}: ` +
        give(fit && fit.count > 1 ? `e.g. --shard ${fit.index}/${fit.count}` : 'as its run printed it'),
    );
  }
  if (!fit || fit.count < 2 * shard.count || fit.count % shard.count !== 0 || fit.index % shard.count !== shard.index) return;
  throw new InputError(
    'bad-option',
    `database ${pathForMessage(dbPath)} holds ${places.length} deals of study ${quoteInput(study)}, all of one shard of ${fit.count} (shard ${fit.index}/${fit.count}), but this run is shard ${shard.index}/${shard.count}, ` +
      `${fit.count / shard.count} times as many deals: ${give(`e.g. --shard ${fit.index}/${fit.count}`)}`,
  );
}

/**
 * Runs (or resumes) a study; see the module comment. Opens and closes the store itself; destroys the
 * pool in all cases. Throws InputError (bad database, study name clash) before anything runs, or the
 * store's error if a write fails (the run is then marked `failed` when possible).
 *
 * Each rung walks the plan in order. A deal is skipped when the database already says what it counts
 * as at that rung (report.ts statusAt: a result at this budget, a win or a loss at a smaller one, an
 * undecided at a larger one — stored by any study, under any name, with this solver version); at
 * rungs after the first, only deals undecided at the previous rung are looked at. Every deal the
 * first rung reaches is counted by the study (`study_deals`), solved now or not.
 */
export async function runBatch(opts: BatchOptions): Promise<BatchSummary> {
  const t0 = performance.now();
  const budgets = [...(opts.budgets ?? [opts.maxPositions])];
  for (let i = 1; i < budgets.length; i++) {
    if (!(budgets[i]! > budgets[i - 1]!)) throw new RangeError(`runBatch: budgets must increase, got ${budgets.join(',')}`);
  }
  if (opts.untilWidth !== undefined && budgets.length > 1) throw new RangeError('runBatch: untilWidth needs a single budget');
  const planned = Array.isArray(opts.deals) ? (opts.deals as readonly PlannedDeal[]).length : (opts.studyParams.planned ?? null);
  const shard = opts.shard && opts.shard.count > 1 ? opts.shard : null;
  if (shard && (planned === null || opts.untilWidth !== undefined)) throw new RangeError('runBatch: a shard needs a finite plan and no untilWidth');
  // the shard of each place of the plan, and the deals this run's shard holds (the run's `planned`)
  const assignment = shard ? shardAssignment(planned!, shard.count) : null;
  const runPlanned = shard ? shardSize(planned!, shard) : planned;
  const store = ResultStore.openForWriting(opts.dbPath, opts.busyTimeoutMs);
  // the study as the database spells its name (the same text in another Unicode form is the same study)
  const study = store.matchStudyName(opts.study);
  const progress = opts.progress ?? NO_PROGRESS;
  const counts: ProgressCounts = { won: 0, lost: 0, undecided: 0, errors: 0 };
  let runId = -1;
  let workerMs = 0;
  let ran = 0;
  let skipped = 0;
  let stopReason: string | null = null;
  let seedsRanOut: string | null = null;
  // deals this run solved after the place --until-width stopped the plan at
  let pastStop = 0;
  // results this run has written to the database
  let written = 0;
  // The abort listener goes in first and stays until the end, so that an abort at any moment counts:
  // before dispatch it stops the batch before any deal runs; during dispatch `stopDispatch` cancels.
  let interrupted = false;
  let stopDispatch: (() => void) | null = null;
  const onAbort = () => {
    interrupted = true;
    stopDispatch?.();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) interrupted = true;
  let pool: ReturnType<typeof createSolvePool> | undefined;
  let beat: NodeJS.Timeout | undefined;
  try {
    // a study re-run with other parameters is told which (a filter that changes the plan, too)
    store.checkStudyParams(study, { ...opts.studyParams, budgets, planned });
    // a plan of known deals (a deals file) must keep the deals a study already has at their places
    if (Array.isArray(opts.deals)) {
      const plan = opts.deals as readonly PlannedDeal[];
      if (plan.every((d) => d.deal !== undefined)) store.checkPlan(study, plan.map((d) => ({ deal: d.deal!, name: dealName(d) })));
    }
    if (opts.shard && opts.shardFromEnvironment && planned !== null) refuseOtherShard(store, study, planned, opts.shard, opts.dbPath);
    const studyId = store.ensureStudy(study, { ...opts.studyParams, budgets, planned });
    store.markAbandoned();
    runId = store.startRun(studyId, { workers: opts.workers, solverVersion: SOLVER_VERSION, planned: runPlanned ?? 0, skipped: 0 });
    beat = setInterval(() => {
      try {
        store.heartbeat(runId);
      } catch {
        // a busy or failing database: the next flush says so
      }
    }, HEARTBEAT_MS);
    beat.unref();
    // while it runs, a write that finds the database locked fails fast and is tried again (flush): a
    // write that waited out the busy timeout kept this thread from the workers' results, which sat
    // idle meanwhile (found by helper-40)
    store.setBusyTimeout(BUSY_RETRY_MS);

    // Everything up to here (and the caller's planning) is synchronous, so a signal that came in
    // meanwhile is still queued in the event loop: let it be handled before anything is dispatched.
    if (!interrupted) await new Promise<void>((r) => setImmediate(r));

    const maxInFlight = opts.maxInFlight ?? 2 * opts.workers;
    const flushEvery = opts.flushEvery ?? 64;
    let started = false;
    let done = 0;
    // with --until-width: the first place in the plan of each deal this run solved (to count those
    // solved past the rule's stop)
    const solvedOrds: number[] = [];
    // at the first rung: the first place in the plan of each deal this run solved (not an error)
    const solvedHere = new Set<number>();
    // deals to look at in the current rung (the plan, then those undecided at the previous rung), and
    // of those, how many were reached so far (solved or found settled): the progress bar's total and value
    let rungTotal = runPlanned ?? 0;
    // an open-ended plan: the deals the run went through (its `planned` when it finishes)
    let openPlanned = 0;
    let rungReached = 0;
    let undecidedNext = 0;
    const stopped = { value: false };
    let fatal: unknown = null;
    // the store can take no more results (its file is gone, or a write failed): later ones are discarded
    let storeDead = false;
    // places of the plan done at the end of the first rung but not linked, for they follow one that
    // was not done (stored, not counted: the next run counts them)
    let heldBack = 0;

    for (let rung = 0; rung < budgets.length && !interrupted && !stopped.value && stopReason === null; rung++) {
      const budget = budgets[rung]!;
      const prev = rung > 0 ? budgets[rung - 1]! : null;
      if (rung > 0) rungTotal = undecidedNext;
      rungReached = 0;
      undecidedNext = 0;
      let barShown = false;
      const buffer: ResultRecord[] = [];
      let links: DealLink[] = [];
      // The study's links (its counted deals) are written in the order of the plan, this run's places
      // (its shard's) a prefix at every moment: a deal done while one before it is still running waits
      // here, so that no stop — Ctrl-C, a kill -9, a lost node — leaves the quick deals after a slow one
      // counted without it (they made the floor read high; found by helper-46 for a stop, helper-50 for
      // a kill). `linkOrd`: the next place to link.
      const ready = new Map<number, DealLink[]>();
      let linkOrd = 0;
      const release = (done: readonly DealLink[]) => {
        for (const l of done) {
          const at = ready.get(l.ord);
          if (at) at.push(l);
          else ready.set(l.ord, [l]);
        }
        for (;;) {
          while (assignment && linkOrd < assignment.length && assignment[linkOrd] !== shard!.index) linkOrd++;
          const next = ready.get(linkOrd);
          if (!next) return;
          ready.delete(linkOrd);
          links.push(...next);
          linkOrd++;
        }
      };
      // deals in flight or written but not yet flushed, by identity: the names waiting on them
      const pending = new Map<string, DealLink[]>();
      let stopping = false;
      const cancel = new AbortController();
      setMaxListeners(maxInFlight + 16, cancel.signal);
      let wake!: () => void;
      const stoppedP = new Promise<void>((r) => (wake = r));
      const stop = () => {
        if (stopping) return;
        stopping = true;
        cancel.abort();
        wake();
      };
      stopDispatch = stop;
      if (interrupted) stop();

      // the stopping rule: statuses of the plan's prefix, in order
      const prefix = new Map<string, PrefixCounts>();
      const known = new Map<number, { group: string; status: ResultStatus }>();
      let nextOrd = 0;
      // the band of each game and suit count over the plan's prefix counted so far
      const prefixWidths = () => [...prefix.entries()].map(([g, x]) => [g, bandWidth(x)] as const);
      const advance = () => {
        if (opts.untilWidth === undefined || stopReason !== null) return;
        while (known.has(nextOrd)) {
          const k = known.get(nextOrd)!;
          known.delete(nextOrd);
          nextOrd++;
          let c = prefix.get(k.group);
          if (!c) prefix.set(k.group, (c = { n: 0, won: 0, open: 0 }));
          c.n++;
          if (k.status === 'won') c.won++;
          else if (k.status !== 'lost') c.open++;
          const widths = prefixWidths();
          if (nextOrd === (opts.widthNoteAfter ?? WIDTH_NOTE_AFTER) && opts.onNote) {
            const text = widthNote(opts.untilWidth, nextOrd, widths);
            if (text) opts.onNote(text);
          }
          if (widths.every(([, w]) => w < opts.untilWidth!)) {
            stopReason = `--until-width ${opts.untilWidth}: ${bandAfter(nextOrd, widths, opts.untilWidth)} < ${opts.untilWidth}`;
            stopAt = nextOrd;
            stop();
            return;
          }
        }
      };
      let stopAt = -1;
      const note = (ord: number, deal: PlannedDeal, status: ResultStatus) => {
        if (opts.untilWidth === undefined || rung > 0) return;
        known.set(ord, { group: `${deal.game} ${deal.suits} suit${deal.suits === 1 ? '' : 's'}`, status });
        advance();
      };

      const flush = (timed = false) => {
        if (storeDead) return;
        // the file at the path must still be the one this store writes (checked at every flush,
        // also when there is nothing to write: the timer runs every flushMs)
        const where = store.fileAtPath();
        if (where !== 'same') {
          storeDead = true;
          fatal = databaseGoneFault(store, where, runId, buffer.splice(0), written, studyId, links.splice(0));
          stop();
          return;
        }
        if (buffer.length === 0 && links.length === 0) return;
        // after a write that found the database locked, only the timer tries again (a write waits
        // the busy timeout each time it finds the lock)
        if (busySince !== null && !timed) return;
        const recs = buffer.splice(0);
        try {
          store.writeResults(runId, recs, studyId, links);
          written += recs.length;
          links = [];
          busySince = null;
          for (const r of recs) pending.delete(r.deal);
        } catch (e) {
          // another program holds the database locked (a merge, sqlite3): the results wait in memory
          // (the transaction was rolled back) for the next try, up to BUSY_GIVE_UP_MS in all
          buffer.unshift(...recs);
          if (isBusyDatabase(e)) {
            busySince ??= performance.now();
            if (performance.now() - busySince < (opts.busyGiveUpMs ?? BUSY_GIVE_UP_MS)) return;
          }
          storeDead = true;
          fatal = e;
          stop();
        }
      };
      // when the last write found the database locked: since when (performance.now()), else null
      let busySince: number | null = null;
      const timer = setInterval(() => flush(true), opts.flushMs ?? 500);
      timer.unref();

      const record = (r: ResultRecord, ms: number, waiting: DealLink[]) => {
        buffer.push(r);
        if (rung === 0) release(waiting);
        done++;
        rungReached++;
        if (r.status === 'undecided') undecidedNext++;
        workerMs += ms;
        if (r.status === 'error') counts.errors++;
        else counts[r.status]++;
        progress.update(rungReached, counts);
        if (buffer.length >= flushEvery) flush();
      };
      const onOutcome = (deal: PlannedDeal, ident: string, o: WorkerOutcome) => {
        // an answer that comes after the store stopped taking results is neither counted nor shown:
        // it could not be kept, so the deal is run again on resume, like a cancelled one
        if (storeDead) return;
        const waiting = pending.get(ident) ?? [];
        const r = o.key !== deal.key
          ? recordFromError(deal, budget, `the worker loaded ${o.key}, not ${deal.key} (did the file change?)`, SOLVER_VERSION, ident)
          : recordFromOutcome(deal, budget, o, ident);
        record(r, o.workerMs, waiting);
        if (waiting.length > 0) {
          const first = Math.min(...waiting.map((w) => w.ord));
          if (opts.untilWidth !== undefined) solvedOrds.push(first);
          if (rung === 0 && r.status !== 'error') solvedHere.add(first);
        }
        for (const w of waiting) note(w.ord, deal, r.status);
      };
      const onFailure = (deal: PlannedDeal, ident: string, e: unknown) => {
        // cancelled by us, or after the store stopped taking results: discarded, run again on resume
        if (stopping || storeDead) return;
        const waiting = pending.get(ident) ?? [];
        record(recordFromError(deal, budget, oneLine(e) || 'worker failed', SOLVER_VERSION, ident), 0, waiting);
        if (opts.untilWidth !== undefined && waiting.length > 0) solvedOrds.push(Math.min(...waiting.map((w) => w.ord)));
        for (const w of waiting) note(w.ord, deal, 'error');
      };

      const inflight = new Set<Promise<void>>();
      // the seed of the plan's last deal reached (an open range's end: the seeds ran out there)
      let lastSeed: number | null = null;
      try {
        let ord = -1;
        for (const deal of opts.deals) {
          ord++;
          lastSeed = deal.source.kind === 'seed' ? deal.source.seed : null;
          if (ord % 256 === 0) {
            // let signals, outcomes and timers in during a long walk over settled deals
            await new Promise<void>((r) => setImmediate(r));
          }
          if (stopping) break;
          if (assignment && assignment[ord] !== shard!.index) continue; // another shard's deal
          const name = dealName(deal);
          const ident = deal.deal ?? (deal.source.kind === 'file' ? undefined : store.identityByName(name)) ?? plannedIdentity(deal);
          const link: DealLink = { deal: ident, ord, name };
          // its other names in the plan: recorded among its names (the study links it once, at ord)
          const aliases: DealLink[] = (deal.aliases ?? []).map((a) => ({ deal: ident, ord, name: a }));
          const waiting = pending.get(ident);
          if (waiting) {
            // the same deal under another name of the plan, in flight: counted with it
            waiting.push(link, ...aliases);
            continue;
          }
          const results = store.resultsOf(ident, SOLVER_VERSION);
          if (prev !== null && statusAt(results, prev)?.status !== 'undecided') continue;
          const now = statusAt(results, budget);
          if (now && now.status !== 'error') {
            rungReached++;
            if (now.status === 'undecided') undecidedNext++;
            if (rung === 0) {
              skipped++;
              release([link, ...aliases]);
              if (links.length >= flushEvery * 4) flush();
              note(ord, deal, now.status);
            }
            continue;
          }
          if (!barShown) {
            // one bar a rung: the deals this rung looks at
            if (started) progress.stop();
            started = barShown = true;
            progress.start(rungTotal);
            progress.update(rungReached, counts);
          }
          if (!pool) {
            pool = createSolvePool({ workers: opts.workers, workerFile: opts.workerFile, maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb });
            // Piscina reports the answer of a task cancelled while that answer was already on its way as an
            // 'error' event of the pool (an uncaught exception without a listener): the deal was cancelled
            // and is run again on resume, so that one is ignored; any other pool error stops the batch.
            pool.on('error', (e: unknown) => {
              if (oneLine(e).startsWith('Unexpected message from Worker')) return;
              fatal ??= e;
              stopDispatch?.();
            });
          }
          pending.set(ident, [link, ...aliases]);
          while (inflight.size >= maxInFlight && !stopping) await Promise.race([...inflight, stoppedP]);
          if (stopping) {
            pending.delete(ident);
            break;
          }
          const p: Promise<void> = pool
            .run({ ref: deal.ref, maxPositions: budget }, { signal: cancel.signal })
            .then((o) => onOutcome(deal, ident, o), (e: unknown) => onFailure(deal, ident, e))
            .finally(() => inflight.delete(p));
          inflight.add(p);
        }
        await Promise.allSettled([...inflight]);
      } finally {
        clearInterval(timer);
        stopDispatch = null;
        flush(true);
        // results kept back by a locked database: tried again every flushMs until written or given up
        if (!storeDead && busySince !== null && buffer.length + links.length > 0) {
          const quit = interrupted ? 'a second Ctrl-C quits without them' : 'Ctrl-C twice quits without them';
          opts.onNote?.(`the database is locked by another program: waiting to store ${buffer.length} result${buffer.length === 1 ? '' : 's'} (up to ${Math.round((opts.busyGiveUpMs ?? BUSY_GIVE_UP_MS) / 60_000)} minutes in all; ${quit})`);
        }
        while (!storeDead && busySince !== null && buffer.length + links.length > 0) {
          await new Promise((r) => setTimeout(r, opts.flushMs ?? 500));
          flush(true);
        }
      }
      // done but not linked: after a place that was not done (cancelled in flight, or past a stop)
      if (rung === 0) heldBack = ready.size;
      // the run's last writes (its counts, its status) wait out a lock as the set-up did
      store.setBusyTimeout(opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS);
      if (fatal) throw fatal;
      if (stopAt >= 0) {
        store.stopStudyAt(studyId, stopAt);
        // deals after the stop that finished before the cancel reached them: stored, not counted
        pastStop = solvedOrds.filter((o) => o >= stopAt).length;
      }
      // an open-ended plan (seeds N-): the run's planned deals are those it went through, the plan's
      // prefix the rule stopped at, or the deals reached before an interruption (not 0)
      if (rung === 0 && runPlanned === null) openPlanned = stopAt >= 0 ? stopAt : rungReached;
      // an open seed range walked to its end, every deal counted, without the rule met: say so
      if (rung === 0 && opts.untilWidth !== undefined && planned === null && stopReason === null && !stopping && !interrupted && lastSeed !== null) {
        seedsRanOut = `seeds ran out at ${lastSeed} (the largest seed) before --until-width ${opts.untilWidth} was met: ${bandAfter(nextOrd, prefixWidths(), opts.untilWidth)}`;
        // the plan has an end after all: the study is whole with what it counts (not partial)
        store.closeOpenPlan(studyId, nextOrd);
      }
    }
    if (started) progress.stop();
    ran = done;
    const where = store.fileAtPath();
    if (where !== 'same') throw databaseGoneFault(store, where, runId, [], written);
    // a stopped run counts a prefix of its plan: the deals done after one it cancelled in flight
    // (often the slowest: an undecided one takes the whole budget) are left for the next run to count
    // (the links are written as a prefix already; this unlinks what an older version's run left)
    const mine = shard ? (o: number) => assignment![o] === shard.index : () => true;
    let uncounted = interrupted ? heldBack + store.keepCountedPrefix(studyId, mine) : 0;
    if (interrupted && budgets.length === 1) {
      // a stopped run of one budget: its counts from what the study counts now, so that the deals
      // settled before it, those it ran and those left make the plan (found by helper-55: a run stopped
      // before its walk reached the settled deals said 0 were settled, and one that found an earlier
      // run's uncounted deal called it settled and its own): settled, the counted places it did not
      // solve; uncounted, the deals it solved that the study does not count
      const counted = new Set(store.studyPlaces(study));
      uncounted = [...solvedHere].filter((o) => mine(o) && !counted.has(o)).length;
      skipped = store.settledPlaces(studyId, budgets[0]!, SOLVER_VERSION).filter((o) => mine(o) && !solvedHere.has(o)).length;
    }
    store.heartbeat(runId, { planned: runPlanned ?? openPlanned, skipped });
    store.finishRun(runId, interrupted ? 'interrupted' : 'done', stopReason ?? seedsRanOut);
    const report = store.report({ studies: [study] });
    // what this solver has of the study (results of an older solver do not make it whole)
    const info = store.studies([study], SOLVER_VERSION)[0];
    // a shard's summary counts its own deals: those of its places of the plan that are settled
    const plannedNow = shard ? runPlanned : (info?.planned ?? planned);
    const settledNow = !info ? null : shard ? store.settledPlaces(studyId, budgets[budgets.length - 1]!, SOLVER_VERSION).filter((o) => assignment![o] === shard.index).length : info.settled;
    const elapsedMs = performance.now() - t0;
    return {
      study, studyId, runId, db: opts.dbPath,
      game: opts.studyParams.game, suits: opts.studyParams.suits,
      maxPositions: budgets[0]!, budgets, workers: opts.workers, solverVersion: SOLVER_VERSION,
      planned: plannedNow, skipped, ran,
      ...counts,
      remaining: plannedNow === null || settledNow === null ? null : plannedNow - settledNow,
      counted: info ? info.counted : null,
      uncounted,
      pastStop,
      unfinished: info ? info.unfinished : null,
      interrupted,
      stopReason,
      untilWidth: opts.untilWidth ?? null,
      seedsRanOut,
      elapsedMs: Math.round(elapsedMs * 10) / 10,
      dealsPerSecond: ran > 0 ? Math.round((ran / (elapsedMs / 1000)) * 100) / 100 : 0,
      workerMs: Math.round(workerMs * 10) / 10,
      report,
    };
  } catch (e) {
    let marked = runId < 0 || e instanceof FileFault; // a deleted database's run was marked in the old file
    if (!marked) {
      try {
        store.finishRun(runId, 'failed');
        marked = true;
      } catch {
        // the store itself is failing; the error below says why
      }
    }
    throw storageFault(e, store.path, written, runId < 0 ? null : marked) ?? e;
  } finally {
    if (beat) clearInterval(beat);
    opts.signal?.removeEventListener('abort', onAbort);
    try {
      await pool?.destroy();
    } finally {
      store.close();
    }
  }
}

/**
 * A FileFault for a batch stopped by the disk (`storageFaultKind`: full, or an I/O error), or by
 * another program holding the database locked past BUSY_GIVE_UP_MS (isBusyDatabase), while it
 * wrote `path`, saying which file, what was kept (every result written before: `written` of this
 * run), what became of the run (`marked`: marked failed, or could not be; null when no run was
 * started yet) and how to go on; null when `e` is no such fault.
 */
function storageFault(e: unknown, path: string, written: number, marked: boolean | null): FileFault | null {
  const run = marked === null ? '' : marked ? '; the run is marked failed' : '; the run could not be marked failed: it shows as running, then (once this process has ended) as abandoned';
  if (isBusyDatabase(e)) {
    const why = `another program held it locked for too long (${String((e as { code?: unknown }).code)}: ${oneLine(e)})`;
    if (marked === null) return new FileFault(path, `database ${path}: ${why}; nothing was run; run the same command again when the other program is done`);
    return new FileFault(path, `database ${path}: ${why}; the batch stopped: every result stored before it is kept (${written} of this run), the deals it had solved since are run again when it resumes${run}; run the same command again when the other program is done`);
  }
  const kind = storageFaultKind(e);
  if (kind === null) return null;
  const code = String((e as { code?: unknown }).code);
  const what = kind === 'full' ? `the disk is full (${code})` : `the disk reported an I/O error (${code}: ${oneLine(e)})`;
  const kept = kind === 'full'
    ? `every result stored before it is kept (${written} of this run)`
    : `every result stored before it is kept as far as the disk kept it (${written} of this run)`;
  const next = kind === 'full' ? 'free some space, then run the same command again to resume' : 'check the disk, then run the same command again to resume';
  return new FileFault(path, `database ${path}: ${what}; the batch stopped: ${kept}${run}; ${next}`);
}

/**
 * The fault of a batch whose database file was deleted, or replaced by another file, while it ran
 * (`where`). The connection still holds the old file: the results not yet written (`pending`), and the
 * links of deals to study `studyId` not yet written (`links`), go into it, the run is marked failed there, and the whole old file is copied (VACUUM INTO) beside the path
 * as `<path>.rescued-<UTC time>.sqlite`, so that nothing is lost; nothing is written to the path.
 * The message says what happened, where the results are and how to go on.
 */
function databaseGoneFault(store: ResultStore, where: 'deleted' | 'replaced', runId: number, pending: readonly ResultRecord[], written: number, studyId: number | null = null, links: readonly DealLink[] = []): FileFault {
  const path = store.path;
  let stored = written;
  let rescue: string | null = null;
  let why = '';
  try {
    // with the study's links of those deals, so that the rescued study counts them (found by
    // helper-42: it held 10 results and counted 6)
    if (pending.length > 0 || links.length > 0) {
      store.writeResults(runId, pending, studyId, links);
      stored += pending.length;
    }
    store.finishRun(runId, 'failed');
    const target = `${path}.rescued-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}.sqlite`;
    store.saveCopy(target);
    rescue = target;
  } catch (e) {
    why = oneLine(e);
  }
  const what = where === 'deleted' ? 'was deleted (or moved away)' : 'was replaced by another file';
  const kept = rescue
    ? `the ${stored} results of this run, with every result the old file held, are saved in ${rescue}; to go on, move that file back to ${path} (or give --db ${rescue}) and run the same command again`
    : `the ${stored} results of this run went with the old file (a copy could not be saved: ${why}); run the same command again to redo them`;
  return new FileFault(path, `database ${path} ${what} while the batch was writing it; stopped, nothing was written to ${where === 'deleted' ? 'that path' : 'the new file'}; ${kept}`);
}

/**
 * Signals that stop a batch as Ctrl-C does; SIGHUP is the terminal or ssh session closing (Node
 * resets every signal to its default at start, so `nohup` does not keep SIGHUP away from it: without
 * a handler a hang-up ended a batch at once, its unwritten results lost).
 */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * An AbortSignal fired by the first SIGINT, SIGTERM or SIGHUP (calling `onFirst` with the signal's
 * name); a second one exits the process at once with status 130 (the database stays consistent:
 * every write is a transaction). Writes to stderr that fail are ignored, and after a SIGHUP (the
 * terminal may be gone) those to stdout too, so that the batch still stores its finished results and marks its run
 * interrupted (where it wrote to a terminal, the caller then ends the process by SIGHUP: see batch.ts). Call
 * `dispose` to remove the handlers.
 */
export function abortOnSignals(onFirst?: (name: NodeJS.Signals) => void): { signal: AbortSignal; dispose(): void; readonly hungUp: boolean } {
  const ctl = new AbortController();
  const ignore = () => {};
  let hungUp = false;
  // stderr carries only the progress bar and notes: a write that fails (a terminal that hung up, its
  // SIGHUP not handled yet) is dropped, not an uncaught error that ends the process before it stores
  process.stderr.on('error', ignore);
  const handler = (name: NodeJS.Signals) => {
    if (name === 'SIGHUP') {
      // (a terminal's hang-up may come twice, to the session and to its foreground group: never quits at once)
      if (hungUp) return;
      hungUp = true;
      process.stdout.on('error', ignore);
      if (ctl.signal.aborted) return;
    } else if (ctl.signal.aborted) process.exit(130);
    onFirst?.(name);
    ctl.abort();
  };
  for (const s of STOP_SIGNALS) process.on(s, handler);
  return {
    signal: ctl.signal,
    /** Has a SIGHUP come (first or after another signal)? */
    get hungUp() {
      return hungUp;
    },
    dispose() {
      for (const s of STOP_SIGNALS) process.off(s, handler);
      process.stderr.off('error', ignore);
    },
  };
}
