/**
 * One run of a batch (runner.ts runBatch) as the stages share it: the plan checked (`planRun`), the
 * state every rung adds to (`BatchRun`), the set-up that opens the study and the run in the store
 * (`BatchRun.open`), what the run records when its rungs are done (`BatchRun.record`), its summary
 * (`summarise`), and the one place where an error of the run becomes the user's fault message
 * (`BatchRun.fault`).
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Piscina } from 'piscina';
import { SOLVER_VERSION } from '../solver/types.js';
import { dealName, plannedIdentity, type PlannedDeal } from './deals.js';
import { FileFault, oneLine } from './faults.js';
import { createSolvePool } from './pool.js';
import type { PoolOutcome, PoolTask } from './protocol.js';
import { blindVersion } from './blind.js';
import { NO_PROGRESS, type ProgressCounts, type ProgressSink } from './progress.js';
import { databaseGoneFault, storageFault } from './runFaults.js';
import { statusAt } from './ladder.js';
import { shardAssignment, shardSize } from './shard.js';
import { refuseOtherShard } from './shardCheck.js';
import { HEARTBEAT_MS, type LiveRun, type ResultStore } from './store.js';
import { quoteInput } from '../game/errors.js';
import { bandAfter, dealsText, WidthRule } from './untilWidth.js';
import type { BatchOptions, BatchSummary } from './runner.js';

/**
 * How long, in all, a batch's writes may find its database locked by another program (a merge,
 * sqlite3, a backup) before the batch stops, milliseconds: each write waits at most BUSY_RETRY_MS,
 * and between tries the results wait in memory and the workers go on.
 */
export const BUSY_GIVE_UP_MS = 10 * 60_000;

/**
 * The busy timeout of a batch's writes while it runs, milliseconds: short, so that a write that finds
 * the database locked by another program does not keep the process from its workers and from
 * signals for long; it is tried again every flushMs (see BUSY_GIVE_UP_MS). The set-up and the run's
 * last writes wait the full BUSY_TIMEOUT_MS.
 */
export const BUSY_RETRY_MS = 100;

/** A batch's plan as checked before anything is opened (planRun). */
export interface RunPlan {
  /** The budget ladder, increasing (one budget without a ladder). */
  readonly budgets: readonly number[];
  /** Deals in the study's plan; null for an open-ended plan (seeds N- with untilWidth). */
  readonly planned: number | null;
  /** The shard this run takes (null: the whole plan, also for a shard count of 1). */
  readonly shard: { readonly index: number; readonly count: number } | null;
  /** The shard of each place of the plan (shard.ts shardAssignment), or null without a shard. */
  readonly assignment: Uint32Array | null;
  /** Deals of the plan this run's shard holds (the run's `planned`); null for an open-ended plan. */
  readonly runPlanned: number | null;
}

/**
 * Checks the options that need no database and works out the plan's shape (RunPlan). Throws
 * RangeError for budgets that do not increase, --until-width with a ladder, and a shard of an
 * open-ended plan or with --until-width (the CLI refuses these before, with InputErrors).
 */
export function planRun(opts: BatchOptions): RunPlan {
  const budgets = [...(opts.budgets ?? [opts.maxPositions])];
  for (let i = 1; i < budgets.length; i++) {
    if (!(budgets[i]! > budgets[i - 1]!)) throw new RangeError(`runBatch: budgets must increase, got ${budgets.join(',')}`);
  }
  if (opts.untilWidth !== undefined && budgets.length > 1) throw new RangeError('runBatch: untilWidth needs a single budget');
  if (opts.blind && (budgets.length > 1 || opts.untilWidth !== undefined)) throw new RangeError('runBatch: a blind study takes one budget and no untilWidth');
  const planned = Array.isArray(opts.deals) ? (opts.deals as readonly PlannedDeal[]).length : (opts.studyParams.planned ?? null);
  const shard = opts.shard && opts.shard.count > 1 ? opts.shard : null;
  if (shard && (planned === null || opts.untilWidth !== undefined)) throw new RangeError('runBatch: a shard needs a finite plan and no untilWidth');
  const assignment = shard ? shardAssignment(planned!, shard.count) : null;
  const runPlanned = shard ? shardSize(planned!, shard) : planned;
  return { budgets, planned, shard, assignment, runPlanned };
}

/**
 * The worker threads a run starts: `asked`, but no more than `toDo` (the deals this run still has to
 * run: at most its plan's, its shard's; BatchRun.dealsToDo) and at least 1; `asked` for an
 * open-ended plan (null). More threads than deals would only add start-up time and memory: a deal is
 * solved by one worker, so the results do not change.
 */
export function workersToStart(asked: number, toDo: number | null): number {
  return toDo === null ? asked : Math.max(1, Math.min(asked, toDo));
}

/**
 * The state of one run that its rungs share and add to (rung.ts), from the set-up to the summary.
 * Creating it adds the abort listener, which stays until `close`, so that an abort at any moment
 * counts: before dispatch it stops the batch before any deal runs; during dispatch `stopDispatch`
 * (the current rung's stop) cancels.
 */
export class BatchRun {
  readonly opts: BatchOptions;
  readonly plan: RunPlan;
  readonly store: ResultStore;
  /** The study as the database spells its name (the same text in another Unicode form is the same study). */
  readonly study: string;
  readonly progress: ProgressSink;
  readonly counts: ProgressCounts = { won: 0, lost: 0, undecided: 0, errors: 0 };
  /** The --until-width rule, or null. */
  readonly rule: WidthRule | null;
  studyId = -1;
  runId = -1;
  /**
   * Worker threads the pool starts: the workers asked for, no more than the deals of the plan, and
   * once the study is open (`open`) no more than the deals still to do (workersToStart).
   */
  workers: number;
  /** Sum of in-worker time of the deals that ran, milliseconds. */
  workerMs = 0;
  /** Results this run received (errors included), all rungs. */
  done = 0;
  /** Deals found settled at the first rung (see BatchSummary.skipped). */
  skipped = 0;
  /** Results this run has written to the database. */
  written = 0;
  interrupted = false;
  /** The current rung's stop, while it dispatches. */
  stopDispatch: (() => void) | null = null;
  pool: Piscina<PoolTask, PoolOutcome> | undefined;
  /** An error that stops the run (a pool error, a write that failed, the file gone): thrown after the rung. */
  fatal: unknown = null;
  /** The store can take no more results (its file is gone, or a write failed): later ones are discarded. */
  storeDead = false;
  seedsRanOut: string | null = null;
  /** Deals this run solved after the place --until-width stopped the plan at. */
  pastStop = 0;
  /**
   * Places of the plan done at the end of the first rung but not linked, for they follow one that
   * was not done (stored, not counted: the next run counts them).
   */
  heldBack = 0;
  /** An open-ended plan: the deals the run went through (its `planned` when it finishes). */
  openPlanned = 0;
  /** With --until-width: the first place in the plan of each deal this run solved (to count those past the rule's stop). */
  readonly solvedOrds: number[] = [];
  /** At the first rung: the first place in the plan of each deal this run solved (not an error). */
  readonly solvedHere = new Set<number>();
  /** Whether a deal was handed to the pool yet. */
  dispatched = false;
  /** Whether a progress bar was started (stopped when the rungs are done). */
  barStarted = false;
  /** Deals the current rung looks at (the plan, then those undecided at the previous rung): the bar's total. */
  rungTotal: number;
  /** Of those, how many were reached so far (solved or found settled): the bar's value. */
  rungReached = 0;
  /** Of those, how many are undecided: the next rung's total. */
  undecidedNext = 0;
  #beat: NodeJS.Timeout | undefined;
  readonly #onAbort = (): void => {
    this.interrupted = true;
    this.stopDispatch?.();
  };

  constructor(opts: BatchOptions, plan: RunPlan, store: ResultStore) {
    this.opts = opts;
    this.plan = plan;
    this.store = store;
    this.study = store.matchStudyName(opts.study);
    this.progress = opts.progress ?? NO_PROGRESS;
    this.rungTotal = plan.runPlanned ?? 0;
    this.workers = workersToStart(opts.workers, plan.runPlanned);
    this.rule = opts.untilWidth === undefined ? null : new WidthRule({ width: opts.untilWidth, noteAfter: opts.widthNoteAfter, estimateAfter: opts.widthEstimateAfter, onNote: opts.onNote });
    opts.signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (opts.signal?.aborted) this.interrupted = true;
  }

  /** The version the run stores its results under: the solver's, or a blind study's blind version (blind.ts blindVersion). */
  get version(): string {
    return this.opts.blind ? blindVersion() : SOLVER_VERSION;
  }

  /**
   * The places in the plan of the study's deals settled at `budget` under this run's version: a
   * solve study's (storeRead.ts settledPlaces), or a blind study's whose game is stored.
   */
  settledPlaces(budget: number): number[] {
    return this.opts.blind ? this.store.settledBlindPlaces(this.studyId, blindVersion()) : this.store.settledPlaces(this.studyId, budget, SOLVER_VERSION);
  }

  /** Why the batch stopped by its stopping rule, or null. */
  get stopReason(): string | null {
    return this.rule?.stopReason ?? null;
  }

  /**
   * The identity (`results.deal`) a planned deal is stored under: its own when the plan knows it, else
   * the one the database has for its name (a seeded code solved before), else the planned one.
   */
  identityOf(deal: PlannedDeal): string {
    return deal.deal ?? (deal.source.kind === 'file' ? undefined : this.store.identityByName(dealName(deal))) ?? plannedIdentity(deal);
  }

  /**
   * How many deals of this run's places (its shard's) some rung still has to run, counted up to
   * `enough` (the count stops there): those not settled at every budget of the ladder (report.ts
   * statusAt: nothing known, or an error, at some rung), or for a blind study without a stored game
   * (an error is played again). Places the study already counts as settled at every budget are passed
   * over without a look at their results; the others are looked up by their identity, in plan order,
   * so a run with few deals left reads little. Null for an open-ended plan. A deal undecided at a rung
   * whose next rung would settle it counts as to do: the count is never below the deals that run.
   */
  async dealsToDo(enough: number): Promise<number | null> {
    const { plan, store } = this;
    if (plan.runPlanned === null) return null;
    const blind = this.opts.blind;
    // the places settled at every budget (at the first, those settled at the others too)
    const [first, ...others] = plan.budgets.map((b) => new Set(this.settledPlaces(b)));
    const settled = new Set([...first!].filter((o) => others.every((s) => s.has(o))));
    let n = 0;
    let ord = -1;
    for (const deal of this.opts.deals) {
      ord++;
      // let a signal in during a long look over a large plan
      if (ord % 4096 === 4095) await nextTurn();
      if (n >= enough || this.interrupted) break;
      if (!this.mine(ord) || settled.has(ord)) continue;
      const ident = this.identityOf(deal);
      if (blind) {
        const st = store.blindStatusOf(ident, blind.player, blind.seed, blindVersion());
        if (st === null || st === 'error') n++;
        continue;
      }
      const results = store.resultsOf(ident, SOLVER_VERSION);
      if (plan.budgets.some((b) => {
        const st = statusAt(results, b);
        return st === null || st.status === 'error';
      })) n++;
    }
    return n;
  }

  /** Is the place `ord` of the plan this run's (its shard's, or any without a shard)? */
  mine(ord: number): boolean {
    return this.plan.assignment === null || this.plan.assignment[ord] === this.plan.shard!.index;
  }

  /**
   * Opens the study and the run in the store: checks the study's parameters and plan against what
   * is stored (InputError naming what differs, nothing written), refuses another shard's database
   * (shardCheck.ts), creates the study if new, marks dead runs abandoned, starts this run with its
   * heartbeat, and shortens the busy timeout for the writes while it runs (BUSY_RETRY_MS). Then lets
   * a signal queued during this synchronous work be handled, before anything is dispatched.
   */
  async open(): Promise<void> {
    const { opts, store, study } = this;
    const { budgets, planned, runPlanned } = this.plan;
    // a study re-run with other parameters is told which (a filter that changes the plan, too)
    store.checkStudyParams(study, { ...opts.studyParams, budgets, planned });
    // a plan of known deals (a deals file) must keep the deals a study already has at their places
    if (Array.isArray(opts.deals)) {
      const plan = opts.deals as readonly PlannedDeal[];
      if (plan.every((d) => d.deal !== undefined)) store.checkPlan(study, plan.map((d) => ({ deal: d.deal!, name: dealName(d) })));
    }
    if (opts.shard && opts.shardFromEnvironment && planned !== null) refuseOtherShard(store, study, planned, opts.shard, opts.dbPath);
    this.studyId = store.ensureStudy(study, { ...opts.studyParams, budgets, planned });
    store.markAbandoned();
    // another batch of the study at work on this database (not a shard's: shards split the deals):
    // both go on, told so
    if (!opts.shard) {
      const others = store.liveRuns(this.studyId);
      if (others.length > 0) opts.onNote?.(concurrentRunNote(study, others, Date.now(), opts.blind !== undefined));
    }
    // a resumed study with few deals left starts no more workers than those deals
    this.workers = workersToStart(this.workers, await this.dealsToDo(this.workers));
    opts.onWorkers?.(this.workers);
    this.runId = store.startRun(this.studyId, { workers: this.workers, solverVersion: this.version, planned: runPlanned ?? 0, skipped: 0 });
    this.#beat = setInterval(() => {
      try {
        store.heartbeat(this.runId);
      } catch {
        // a busy or failing database: the next flush says so
      }
    }, HEARTBEAT_MS);
    this.#beat.unref();
    // while it runs, a write that finds the database locked fails fast and is tried again (rung.ts
    // flush): a write that waited out the whole busy timeout would keep this thread from the
    // workers' results, which sit idle meanwhile
    store.setBusyTimeout(BUSY_RETRY_MS);
    opts.onStage?.('opened');
    // everything up to here (and the caller's planning) is synchronous, so a signal that came in
    // meanwhile is still queued in the event loop: let it be handled before anything is dispatched
    if (!this.interrupted) await nextTurn();
  }

  /**
   * The solve pool, started at the first deal that needs solving. Piscina reports the answer of a
   * task cancelled while that answer was already on its way as an 'error' event of the pool (an
   * uncaught exception without a listener): the deal was cancelled and is run again on resume, so
   * that one is ignored; any other pool error stops the batch.
   */
  ensurePool(): Piscina<PoolTask, PoolOutcome> {
    if (this.pool) return this.pool;
    const pool = createSolvePool({ workers: this.workers, workerFile: this.opts.workerFile, maxOldGenerationSizeMb: this.opts.maxOldGenerationSizeMb });
    pool.on('error', (e: unknown) => {
      if (oneLine(e).startsWith('Unexpected message from Worker')) return;
      this.fatal ??= e;
      this.stopDispatch?.();
    });
    this.pool = pool;
    this.opts.onStage?.('pool');
    return pool;
  }

  /**
   * Records the end of the run once its rungs are done: checks that the database file is still the
   * one it wrote (else the rescue of databaseGoneFault), makes a stopped run's study count a prefix
   * of its plan, and writes the run's counts and final status (done or interrupted, with the rule's
   * or the seeds' note). Returns the deals solved and stored but left uncounted (BatchSummary.uncounted).
   */
  record(): number {
    const { store, plan } = this;
    if (this.barStarted) this.progress.stop();
    const where = store.fileAtPath();
    if (where !== 'same') throw databaseGoneFault(store, where, this.runId, [], this.written);
    const mine = (o: number) => this.mine(o);
    // a stopped run counts a prefix of its plan: the deals done after one it cancelled in flight
    // (often the slowest: an undecided one takes the whole budget) are left for the next run to
    // count; the links are written as a prefix already, and this unlinks any a run left past a gap
    let uncounted = this.interrupted ? this.heldBack + store.keepCountedPrefix(this.studyId, mine) : 0;
    if (this.interrupted && plan.budgets.length === 1) {
      // a stopped run of one budget: its counts from what the study counts now, so that the deals
      // settled before it, those it ran and those left make the plan (also when it stopped before its
      // walk reached the settled deals, or found an earlier run's uncounted deal): settled, the
      // counted places it did not solve; uncounted, the deals it solved that the study does not count
      const counted = new Set(store.studyPlaces(this.study));
      uncounted = [...this.solvedHere].filter((o) => mine(o) && !counted.has(o)).length;
      this.skipped = this.settledPlaces(plan.budgets[0]!).filter((o) => mine(o) && !this.solvedHere.has(o)).length;
    }
    store.heartbeat(this.runId, { planned: plan.runPlanned ?? this.openPlanned, skipped: this.skipped });
    store.finishRun(this.runId, this.interrupted ? 'interrupted' : 'done', this.stopReason ?? this.seedsRanOut);
    return uncounted;
  }

  /**
   * Fault handling of the whole run, in one place: marks the run failed where it was started and
   * can be (a FileFault's run was marked where the fault was made), and returns the error to throw:
   * a FileFault saying what was kept and how to go on for a storage fault (runFaults.ts), else `e`.
   */
  fault(e: unknown): unknown {
    const started = this.runId >= 0;
    let marked = !started || e instanceof FileFault;
    if (!marked) {
      try {
        this.store.finishRun(this.runId, 'failed');
        marked = true;
      } catch {
        // the store itself is failing; the error returned says why
      }
    }
    return storageFault(e, this.store.path, this.written, started ? marked : null) ?? e;
  }

  /** Ends the run's timers and listener, destroys the pool and closes the store, in all cases. */
  async close(): Promise<void> {
    if (this.#beat) clearInterval(this.#beat);
    this.opts.signal?.removeEventListener('abort', this.#onAbort);
    try {
      await this.pool?.destroy();
    } finally {
      this.store.close();
    }
  }

  /**
   * Notes, after the first rung, what an open-ended plan (seeds N-) went through: the plan's prefix
   * the rule stopped at, or the deals reached before an interruption; and when its seeds ran out
   * without the rule met, says so and gives the study the plan it went through (whole, not partial).
   * A closed plan (a seed range, a deals file) counted to its end without the rule met is said so
   * too: the band asked for was not reached. `lastSeed`: the seed of the plan's last deal reached.
   */
  endOpenPlan(lastSeed: number | null, stopping: boolean): void {
    const rule = this.rule;
    if (this.plan.runPlanned === null) this.openPlanned = rule && rule.stopAt >= 0 ? rule.stopAt : this.rungReached;
    if (!rule || rule.stopReason !== null || stopping || this.interrupted) return;
    if (this.plan.planned === null && lastSeed !== null) {
      this.seedsRanOut = `seeds ran out at ${lastSeed} (the largest seed) before --until-width ${rule.width} was met: ${bandAfter(rule.counted, rule.widths(), rule.width)}`;
      this.store.closeOpenPlan(this.studyId, rule.counted);
    } else if (this.plan.planned !== null && rule.counted === this.plan.planned) {
      this.seedsRanOut = `the plan's ${dealsText(this.plan.planned)} ran out before --until-width ${rule.width} was met: ${bandAfter(rule.counted, rule.widths(), rule.width)}`;
    }
  }
}

/**
 * The summary of a run whose rungs are done and recorded (`uncounted`: BatchRun.record's), with the
 * study's report as the store has it now; `t0`: the run's start (performance.now()).
 */
export function summarise(run: BatchRun, uncounted: number, t0: number): BatchSummary {
  const { store, plan, opts, study } = run;
  const report = store.report({ studies: [study] });
  // what this solver has of the study (results of an older solver do not make it whole)
  const info = store.studies([study], SOLVER_VERSION)[0];
  const blind = opts.blind ? store.blindReport({ studies: [study] }) : undefined;
  // a shard's summary counts its own deals: those of its places of the plan that are settled
  const plannedNow = plan.shard ? plan.runPlanned : (info?.planned ?? plan.planned);
  const settledNow = !info ? null
    : plan.shard ? run.settledPlaces(plan.budgets[plan.budgets.length - 1]!).filter((o) => run.mine(o)).length
    : info.settled;
  const ran = run.done;
  const elapsedMs = performance.now() - t0;
  return {
    study, studyId: run.studyId, runId: run.runId, db: opts.dbPath,
    game: opts.studyParams.game, suits: opts.studyParams.suits,
    maxPositions: plan.budgets[0]!, budgets: [...plan.budgets], workers: run.workers, solverVersion: run.version,
    planned: plannedNow, skipped: run.skipped, ran,
    ...run.counts,
    remaining: plannedNow === null || settledNow === null ? null : plannedNow - settledNow,
    counted: info ? info.counted : null,
    uncounted,
    pastStop: run.pastStop,
    unfinished: info ? info.unfinished : null,
    interrupted: run.interrupted,
    stopReason: run.stopReason,
    untilWidth: opts.untilWidth ?? null,
    seedsRanOut: run.seedsRanOut,
    elapsedMs: Math.round(elapsedMs * 10) / 10,
    dealsPerSecond: ran > 0 ? Math.round((ran / (elapsedMs / 1000)) * 100) / 100 : 0,
    workerMs: Math.round(run.workerMs * 10) / 10,
    report,
    ...(blind ? { blind, player: opts.blind!.player, playerSeed: opts.blind!.seed } : {}),
  };
}

/**
 * The note for a batch started while another batch of the same study is running on the same
 * database (`others`, store.ts liveRuns): `note: another batch of study "S" is running on this
 * database (process 4242 on host h, last heartbeat 3 s ago); both go on: each result is stored once,
 * but the same deals may be solved twice (stop one to save the work)`; `played` for a blind study
 * (`blind`). `now`: milliseconds.
 */
export function concurrentRunNote(study: string, others: readonly LiveRun[], now = Date.now(), blind = false): string {
  const r = others[others.length - 1]!;
  const ago = Math.max(0, Math.round((now - Date.parse(r.heartbeatAt ?? r.startedAt)) / 1000));
  const who = [r.pid === null ? null : `process ${r.pid}`, r.host === null ? null : `on ${r.host}`].filter(Boolean).join(' ');
  const which = others.length === 1 ? 'another batch' : `${others.length} other batches`;
  return `note: ${which} of study ${quoteInput(study)} ${others.length === 1 ? 'is' : 'are'} running on this database (${who ? `${who}, ` : ''}last heartbeat ${ago} s ago); ` +
    `${others.length === 1 ? 'both' : 'all'} go on: each result is stored once, but the same deals may be ${blind ? 'played' : 'solved'} twice (stop one to save the work)`;
}
