/**
 * One rung of a batch's budget ladder (runner.ts runBatch): walks the plan in order, skips the deals
 * the database already settles at this rung, dispatches the others to the pool with a bounded number
 * in flight, records each answer as it arrives and writes the results in batched transactions
 * (`flush`), keeping the study's links a prefix of its plan.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SOLVER_VERSION } from '../solver/types.js';
import { dealName, type PlannedDeal } from './deals.js';
import { isBusyDatabase, oneLine } from './faults.js';
import { blindRecordFromError, blindRecordFromOutcome, blindVersion, type BlindRecord } from './blind.js';
import type { PoolOutcome, PoolTask } from './protocol.js';
import { statusAt, type ResultStatus } from './ladder.js';
import { databaseGoneFault } from './runFaults.js';
import { BUSY_GIVE_UP_MS, type BatchRun } from './runState.js';
import { BUSY_TIMEOUT_MS, recordFromError, recordFromOutcome, type DealLink, type ResultRecord } from './store.js';
import { widthGroup } from './untilWidth.js';

/**
 * Runs rung `index` of the run's ladder (see the module comment): at the first rung every deal of
 * the plan (this shard's), at later ones those undecided at the rung before. A deal is skipped when
 * the database already says what it counts as at this rung (ladder.ts statusAt). Stops dispatching
 * on abort, on the stopping rule, or on a fatal error; waits for the deals in flight (cancelled when
 * stopping), writes what arrived (waiting out a lock up to BUSY_GIVE_UP_MS), then throws the fatal
 * error if there was one.
 */
export async function runRung(run: BatchRun, index: number): Promise<void> {
  const rung = new Rung(run, index);
  run.stopDispatch = () => rung.stop();
  if (run.interrupted) rung.stop();
  const timer = setInterval(() => rung.flush(true), run.opts.flushMs ?? 500);
  timer.unref();
  try {
    await rung.walk();
    await Promise.allSettled([...rung.inflight]);
  } finally {
    clearInterval(timer);
    run.stopDispatch = null;
    await rung.writeRest();
  }
  rung.finish();
}

/** The state of one rung while it runs (see runRung). */
class Rung {
  readonly run: BatchRun;
  readonly index: number;
  readonly budget: number;
  /** The budget of the rung before, or null at the first. */
  readonly prev: number | null;
  readonly maxInFlight: number;
  readonly flushEvery: number;
  /** Results received, not yet written (a blind study's games as BlindRecords). */
  readonly buffer: (ResultRecord | BlindRecord)[] = [];
  /** Links of deals to the study ready to be written: always the next places of the plan, in order. */
  links: DealLink[] = [];
  /**
   * Links of deals done while a place before them is still running, by place: they wait here, so that
   * no stop (Ctrl-C, a kill -9, a lost node) leaves the quick deals after a slow one counted without
   * it, which would make the floor read high.
   */
  readonly ready = new Map<number, DealLink[]>();
  /** The next place of the plan to link. */
  linkOrd = 0;
  /** Deals in flight or written but not yet flushed, by identity: the names waiting on them. */
  readonly pending = new Map<string, DealLink[]>();
  readonly inflight = new Set<Promise<void>>();
  stopping = false;
  readonly cancel = new AbortController();
  readonly #stopped: Promise<void>;
  #wake!: () => void;
  /** When the last write found the database locked: since when (performance.now()), else null. */
  busySince: number | null = null;
  /** The seed of the plan's last deal reached (an open range's end: the seeds ran out there). */
  lastSeed: number | null = null;
  #barShown = false;

  constructor(run: BatchRun, index: number) {
    this.run = run;
    this.index = index;
    this.budget = run.plan.budgets[index]!;
    this.prev = index > 0 ? run.plan.budgets[index - 1]! : null;
    this.maxInFlight = run.opts.maxInFlight ?? 2 * run.workers;
    this.flushEvery = run.opts.flushEvery ?? 64;
    if (index > 0) run.rungTotal = run.undecidedNext;
    run.rungReached = 0;
    run.undecidedNext = 0;
    setMaxListeners(this.maxInFlight + 16, this.cancel.signal);
    this.#stopped = new Promise<void>((r) => (this.#wake = r));
  }

  /** Stops dispatching and cancels the deals in flight (their answers are discarded: run again on resume). */
  stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.cancel.abort();
    this.#wake();
  }

  /** Walks the plan, dispatching each deal that needs solving at this rung, until the plan ends or the rung stops. */
  async walk(): Promise<void> {
    const { run } = this;
    let ord = -1;
    for (const deal of run.opts.deals) {
      ord++;
      this.lastSeed = deal.source.kind === 'seed' ? deal.source.seed : null;
      // let signals, outcomes and timers in during a long walk over settled deals
      if (ord % 256 === 0) await nextTurn();
      if (this.stopping) break;
      if (!run.mine(ord)) continue; // another shard's deal
      const todo = this.#consider(deal, ord);
      if (todo === null) continue;
      if (!(await this.#dispatch(deal, todo.ident, todo.links))) break;
    }
  }

  /**
   * What the rung does with the deal at place `ord`: null when nothing is to run (the same deal in
   * flight under another name of the plan, counted with it; not undecided at the rung before; or
   * already settled at this rung, counted at the first), else its identity and the links to write
   * when it is done.
   */
  #consider(deal: PlannedDeal, ord: number): { ident: string; links: DealLink[] } | null {
    const { run } = this;
    const name = dealName(deal);
    const ident = run.identityOf(deal);
    // its other names in the plan are recorded among its names (the study links it once, at ord)
    const links: DealLink[] = [{ deal: ident, ord, name }, ...(deal.aliases ?? []).map((a) => ({ deal: ident, ord, name: a }))];
    const waiting = this.pending.get(ident);
    if (waiting) {
      waiting.push(...links);
      return null;
    }
    const blind = run.opts.blind;
    if (blind) {
      // a blind study: the deal is settled when its game for this player, seed and version is stored
      const st = run.store.blindStatusOf(ident, blind.player, blind.seed, blindVersion());
      if (st === null || st === 'error') return { ident, links };
      run.rungReached++;
      run.skipped++;
      this.#release(links);
      if (this.links.length >= this.flushEvery * 4) this.flush();
      return null;
    }
    const results = run.store.resultsOf(ident, SOLVER_VERSION);
    if (this.prev !== null && statusAt(results, this.prev)?.status !== 'undecided') return null;
    const now = statusAt(results, this.budget);
    if (now && now.status !== 'error') {
      run.rungReached++;
      if (now.status === 'undecided') run.undecidedNext++;
      if (this.index === 0) {
        run.skipped++;
        this.#release(links);
        if (this.links.length >= this.flushEvery * 4) this.flush();
        this.#note(ord, deal, now.status);
      }
      return null;
    }
    return { ident, links };
  }

  /**
   * Hands a deal to the pool once fewer than maxInFlight are in flight; false when the rung stopped
   * meanwhile (the deal is not dispatched).
   */
  async #dispatch(deal: PlannedDeal, ident: string, links: DealLink[]): Promise<boolean> {
    const { run } = this;
    if (!this.#barShown) {
      // one bar a rung: the deals this rung looks at
      if (run.barStarted) run.progress.stop();
      run.barStarted = this.#barShown = true;
      run.progress.start(run.rungTotal, run.rungReached);
      run.progress.update(run.rungReached, run.counts);
    }
    const pool = run.ensurePool();
    this.pending.set(ident, links);
    while (this.inflight.size >= this.maxInFlight && !this.stopping) await Promise.race([...this.inflight, this.#stopped]);
    if (this.stopping) {
      this.pending.delete(ident);
      return false;
    }
    const blind = run.opts.blind;
    const task: PoolTask = blind ? { kind: 'blind', ref: deal.ref, player: blind.player, seed: blind.seed } : { ref: deal.ref, maxPositions: this.budget };
    const p: Promise<void> = pool
      .run(task, { signal: this.cancel.signal })
      .then((o) => this.#onOutcome(deal, ident, o), (e: unknown) => this.#onFailure(deal, ident, e))
      .finally(() => this.inflight.delete(p));
    this.inflight.add(p);
    if (!run.dispatched) {
      run.dispatched = true;
      run.opts.onStage?.('dispatched');
    }
    return true;
  }

  /** Takes the links of a done deal and moves every place now complete, in order, to `links`. */
  #release(done: readonly DealLink[]): void {
    const { run } = this;
    for (const l of done) {
      const at = this.ready.get(l.ord);
      if (at) at.push(l);
      else this.ready.set(l.ord, [l]);
    }
    for (;;) {
      while (run.plan.assignment && this.linkOrd < run.plan.assignment.length && !run.mine(this.linkOrd)) this.linkOrd++;
      const next = this.ready.get(this.linkOrd);
      if (!next) return;
      this.ready.delete(this.linkOrd);
      this.links.push(...next);
      this.linkOrd++;
    }
  }

  /** Tells the stopping rule (first rung only) the status of the deal at place `ord`; stops the rung when it is met. */
  #note(ord: number, deal: PlannedDeal, status: ResultStatus): void {
    if (this.index > 0 || !this.run.rule) return;
    if (this.run.rule.add(ord, widthGroup(deal.game, deal.suits), status)) this.stop();
  }

  /**
   * Writes the results received and the links ready, in one transaction. Checks first, at every call
   * (the timer's too, with nothing to write), that the file at the path is still the one this store
   * writes. A write that finds the database locked keeps the results in memory (the transaction was
   * rolled back) for the timer's next try (`timed`), up to BUSY_GIVE_UP_MS in all; any other failure,
   * and the file gone, stop the rung with a fatal error.
   */
  flush(timed = false): void {
    const { run } = this;
    if (run.storeDead) return;
    const where = run.store.fileAtPath();
    if (where !== 'same') {
      run.storeDead = true;
      const { solved, blind } = splitRecords(this.buffer.splice(0));
      run.fatal = databaseGoneFault(run.store, where, run.runId, solved, run.written, run.studyId, this.links.splice(0), blind);
      this.stop();
      return;
    }
    if (this.buffer.length === 0 && this.links.length === 0) return;
    // after a write that found the database locked, only the timer tries again (a write waits the
    // busy timeout each time it finds the lock)
    if (this.busySince !== null && !timed) return;
    const recs = this.buffer.splice(0);
    try {
      const { solved, blind } = splitRecords(recs);
      run.store.writeResults(run.runId, solved, run.studyId, this.links, blind);
      run.written += recs.length;
      this.links = [];
      this.busySince = null;
      for (const r of recs) this.pending.delete(r.deal);
    } catch (e) {
      this.buffer.unshift(...recs);
      if (isBusyDatabase(e)) {
        this.busySince ??= performance.now();
        if (performance.now() - this.busySince < (run.opts.busyGiveUpMs ?? BUSY_GIVE_UP_MS)) return;
      }
      run.storeDead = true;
      run.fatal = e;
      this.stop();
    }
  }

  /** Adds a result to the buffer, the counts and the bar; writes when flushEvery have arrived. */
  #record(r: ResultRecord | BlindRecord, ms: number, waiting: DealLink[]): void {
    const { run } = this;
    this.buffer.push(r);
    if (this.index === 0) this.#release(waiting);
    run.done++;
    run.rungReached++;
    if (r.status === 'undecided') run.undecidedNext++;
    run.workerMs += ms;
    if (r.status === 'error') run.counts.errors++;
    // (a blind game stuck is counted with the losses on the bar; the summary says stuck)
    else run.counts[r.status === 'stuck' ? 'lost' : r.status]++;
    run.progress.update(run.rungReached, run.counts);
    if (this.buffer.length >= this.flushEvery) this.flush();
  }

  /** A worker's answer. One that comes after the store stopped taking results is neither counted nor shown: it could not be kept, so the deal is run again on resume, like a cancelled one. */
  #onOutcome(deal: PlannedDeal, ident: string, o: PoolOutcome): void {
    const { run } = this;
    if (run.storeDead) return;
    const waiting = this.pending.get(ident) ?? [];
    const wrongDeal = `the worker loaded ${o.key}, not ${deal.key} (did the file change?)`;
    const blind = run.opts.blind;
    const r: ResultRecord | BlindRecord = blind
      ? (o.key !== deal.key || !('kind' in o) ? blindRecordFromError(deal, blind.player, blind.seed, o.key !== deal.key ? wrongDeal : 'the worker did not play the deal blind', ident) : blindRecordFromOutcome(deal, blind.seed, o, ident))
      : o.key !== deal.key || 'kind' in o
        ? recordFromError(deal, this.budget, o.key !== deal.key ? wrongDeal : 'the worker played the deal blind, not solved', SOLVER_VERSION, ident)
        : recordFromOutcome(deal, this.budget, o, ident);
    this.#record(r, o.workerMs, waiting);
    if (waiting.length > 0) {
      const first = Math.min(...waiting.map((w) => w.ord));
      if (run.rule) run.solvedOrds.push(first);
      if (this.index === 0 && r.status !== 'error') run.solvedHere.add(first);
    }
    for (const w of waiting) this.#note(w.ord, deal, r.status === 'stuck' ? 'lost' : r.status);
  }

  /** A worker that threw or died: an `error` row. A task cancelled by the rung's stop, or failing after the store stopped taking results, is discarded (run again on resume). */
  #onFailure(deal: PlannedDeal, ident: string, e: unknown): void {
    const { run } = this;
    if (this.stopping || run.storeDead) return;
    const waiting = this.pending.get(ident) ?? [];
    const message = oneLine(e) || 'worker failed';
    const blind = run.opts.blind;
    this.#record(blind ? blindRecordFromError(deal, blind.player, blind.seed, message, ident) : recordFromError(deal, this.budget, message, SOLVER_VERSION, ident), 0, waiting);
    if (run.rule && waiting.length > 0) run.solvedOrds.push(Math.min(...waiting.map((w) => w.ord)));
    for (const w of waiting) this.#note(w.ord, deal, 'error');
  }

  /**
   * Writes what is left once nothing is in flight; results kept back by a locked database are tried
   * again every flushMs until written or given up (BUSY_GIVE_UP_MS), with a note saying so.
   */
  async writeRest(): Promise<void> {
    const { run } = this;
    this.flush(true);
    const waitingOnLock = () => !run.storeDead && this.busySince !== null && this.buffer.length + this.links.length > 0;
    if (waitingOnLock()) {
      const quit = run.interrupted ? 'a second Ctrl-C quits without them' : 'Ctrl-C twice quits without them';
      const n = this.buffer.length;
      run.opts.onNote?.(`the database is locked by another program: waiting to store ${n} result${n === 1 ? '' : 's'} (up to ${Math.round((run.opts.busyGiveUpMs ?? BUSY_GIVE_UP_MS) / 60_000)} minutes in all; ${quit})`);
    }
    while (waitingOnLock()) {
      await new Promise((r) => setTimeout(r, run.opts.flushMs ?? 500));
      this.flush(true);
    }
  }

  /**
   * After the rung's last write: notes the first rung's places done but not linked, restores the
   * full busy timeout for the run's last writes, throws a fatal error, and records the rule's stop
   * (the study counts the prefix it stopped at; deals solved past it are stored, not counted) and
   * an open-ended plan's end.
   */
  finish(): void {
    const { run } = this;
    if (this.index === 0) run.heldBack = this.ready.size;
    run.store.setBusyTimeout(run.opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS);
    if (run.fatal) throw run.fatal;
    const stopAt = run.rule?.stopAt ?? -1;
    if (stopAt >= 0 && this.index === 0) {
      run.store.stopStudyAt(run.studyId, stopAt);
      // deals after the stop that finished before the cancel reached them: stored, not counted
      run.pastStop = run.solvedOrds.filter((o) => o >= stopAt).length;
    }
    if (this.index === 0) run.endOpenPlan(this.lastSeed, this.stopping);
  }
}

/** A buffer's records split by table: solves (`results`) and blind games (`blind_results`). */
function splitRecords(recs: readonly (ResultRecord | BlindRecord)[]): { solved: ResultRecord[]; blind: BlindRecord[] } {
  const solved: ResultRecord[] = [];
  const blind: BlindRecord[] = [];
  for (const r of recs) {
    if ('player' in r) blind.push(r);
    else solved.push(r);
  }
  return { solved, blind };
}
