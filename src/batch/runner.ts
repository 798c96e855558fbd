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
import type { PlannedDeal } from './deals.js';
import { createSolvePool } from './pool.js';
import type { WorkerOutcome } from './protocol.js';
import { NO_PROGRESS, type ProgressCounts, type ProgressSink } from './progress.js';
import { summarize, type ReportRow } from './report.js';
import { FileFault, storageFaultKind } from './faults.js';
import { oneLine } from './schema.js';
import { recordFromError, recordFromOutcome, ResultStore, type ResultRecord, type StudyParams } from './store.js';

/** Everything `runBatch` needs. */
export interface BatchOptions {
  /** The study's deals, already checked (deals.ts). */
  readonly deals: readonly PlannedDeal[];
  /** Position budget of every deal. */
  readonly maxPositions: number;
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
  /** Heap limit of each worker, MiB (pool.ts); default Node's. */
  readonly maxOldGenerationSizeMb?: number;
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
  workers: number;
  solverVersion: string;
  /** Deals in the study's list. */
  planned: number;
  /** Of those, already settled before this run. */
  skipped: number;
  /** Results this run stored (errors included). */
  ran: number;
  won: number;
  lost: number;
  undecided: number;
  errors: number;
  /** Deals of the list still without a settled result (to run on resume). */
  remaining: number;
  /** True when stopped by the signal. */
  interrupted: boolean;
  /** Wall time of the run. */
  elapsedMs: number;
  /** ran / wall seconds (0 when nothing ran). */
  dealsPerSecond: number;
  /** Sum of in-worker time (load + solve) of the deals that ran; with elapsedMs gives the overhead. */
  workerMs: number;
  /** The report of the study's whole deal list (stored rows, this budget and solver version). */
  report: ReportRow[];
}

/**
 * Runs (or resumes) a study; see the module comment. Opens and closes the store itself; destroys the
 * pool in all cases. Throws InputError (bad database, study name clash) before anything runs, or the
 * store's error if a write fails (the run is then marked `failed` when possible).
 */
export async function runBatch(opts: BatchOptions): Promise<BatchSummary> {
  const t0 = performance.now();
  const store = ResultStore.openForWriting(opts.dbPath);
  const progress = opts.progress ?? NO_PROGRESS;
  const counts: ProgressCounts = { won: 0, lost: 0, undecided: 0, errors: 0 };
  let runId = -1;
  let workerMs = 0;
  let ran = 0;
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
  try {
    const studyId = store.ensureStudy(opts.study, opts.studyParams);
    const settled = store.settledKeys(opts.maxPositions, SOLVER_VERSION);
    const todo = opts.deals.filter((d) => !settled.has(d.key));
    runId = store.startRun(studyId, { workers: opts.workers, solverVersion: SOLVER_VERSION, planned: opts.deals.length, skipped: opts.deals.length - todo.length });

    // Everything up to here (and the caller's planning) is synchronous, so a signal that came in
    // meanwhile is still queued in the event loop: let it be handled before anything is dispatched.
    if (todo.length > 0 && !interrupted) await new Promise<void>((r) => setImmediate(r));

    if (todo.length > 0 && !interrupted) {
      pool = createSolvePool({ workers: opts.workers, workerFile: opts.workerFile, maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb });
      const maxInFlight = opts.maxInFlight ?? 2 * opts.workers;
      const flushEvery = opts.flushEvery ?? 64;
      const buffer: ResultRecord[] = [];
      let fatal: unknown = null;
      let stopping = false;
      const cancel = new AbortController();
      // every in-flight task listens to this one signal
      setMaxListeners(maxInFlight + 16, cancel.signal);
      let wake!: () => void;
      const stopped = new Promise<void>((r) => (wake = r));
      const stop = () => {
        if (stopping) return;
        stopping = true;
        cancel.abort();
        wake();
      };
      stopDispatch = stop;
      // Piscina reports the answer of a task cancelled while that answer was already on its way as an
      // 'error' event of the pool (an uncaught exception without a listener): the deal was cancelled
      // and is run again on resume, so that one is ignored; any other pool error stops the batch.
      pool.on('error', (e: unknown) => {
        if (oneLine(e).startsWith('Unexpected message from Worker')) return;
        fatal ??= e;
        stop();
      });

      const flush = () => {
        if (fatal) return;
        // the file at the path must still be the one this store writes (checked at every flush,
        // also when there is nothing to write: the timer runs every flushMs)
        const where = store.fileAtPath();
        if (where !== 'same') {
          fatal = databaseGoneFault(store, where, runId, buffer.splice(0), written);
          stop();
          return;
        }
        if (buffer.length === 0) return;
        try {
          const batch = buffer.splice(0);
          store.writeResults(runId, batch);
          written += batch.length;
        } catch (e) {
          fatal = e;
          stop();
        }
      };
      const timer = setInterval(flush, opts.flushMs ?? 500);
      timer.unref();

      let done = 0;
      const record = (r: ResultRecord, ms: number) => {
        buffer.push(r);
        done++;
        workerMs += ms;
        if (r.status === 'error') counts.errors++;
        else counts[r.status]++;
        progress.update(done, counts);
        if (buffer.length >= flushEvery) flush();
      };
      const onOutcome = (deal: PlannedDeal, o: WorkerOutcome) => {
        if (o.key !== deal.key) {
          record(recordFromError(deal, opts.maxPositions, `the worker loaded ${o.key}, not ${deal.key} (did the file change?)`, SOLVER_VERSION), o.workerMs);
        } else {
          record(recordFromOutcome(deal, opts.maxPositions, o), o.workerMs);
        }
      };
      const onFailure = (deal: PlannedDeal, e: unknown) => {
        if (stopping) return; // cancelled by us: discarded, run again on resume
        record(recordFromError(deal, opts.maxPositions, oneLine(e) || 'worker failed', SOLVER_VERSION), 0);
      };

      progress.start(todo.length);
      const inflight = new Set<Promise<void>>();
      try {
        for (const deal of todo) {
          while (inflight.size >= maxInFlight && !stopping) await Promise.race([...inflight, stopped]);
          if (stopping) break;
          const p: Promise<void> = pool
            .run({ ref: deal.ref, maxPositions: opts.maxPositions }, { signal: cancel.signal })
            .then((o) => onOutcome(deal, o), (e: unknown) => onFailure(deal, e))
            .finally(() => inflight.delete(p));
          inflight.add(p);
        }
        await Promise.allSettled([...inflight]);
      } finally {
        clearInterval(timer);
        stopDispatch = null;
        flush();
        progress.stop();
      }
      ran = done;
      if (fatal) throw fatal;
    }

    const where = store.fileAtPath();
    if (where !== 'same') throw databaseGoneFault(store, where, runId, [], written);
    store.finishRun(runId, interrupted ? 'interrupted' : 'done');
    const after = store.reportInputsFor(opts.deals.map((d) => d.key), opts.maxPositions, SOLVER_VERSION);
    const settledNow = after.filter((r) => r.status !== 'error').length;
    const elapsedMs = performance.now() - t0;
    return {
      study: opts.study, studyId, runId, db: opts.dbPath,
      game: opts.studyParams.game, suits: opts.studyParams.suits,
      maxPositions: opts.maxPositions, workers: opts.workers, solverVersion: SOLVER_VERSION,
      planned: opts.deals.length, skipped: opts.deals.length - todo.length, ran,
      ...counts,
      remaining: opts.deals.length - settledNow,
      interrupted,
      elapsedMs: Math.round(elapsedMs * 10) / 10,
      dealsPerSecond: ran > 0 ? Math.round((ran / (elapsedMs / 1000)) * 100) / 100 : 0,
      workerMs: Math.round(workerMs * 10) / 10,
      report: summarize(after),
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
    opts.signal?.removeEventListener('abort', onAbort);
    try {
      await pool?.destroy();
    } finally {
      store.close();
    }
  }
}

/**
 * A FileFault for a batch stopped by the disk (`storageFaultKind`: full, or an I/O error) while it
 * wrote `path`, saying which file, what was kept (every result written before: `written` of this
 * run), what became of the run (`marked`: marked failed, or could not be; null when no run was
 * started yet) and how to go on; null when `e` is no such fault.
 */
function storageFault(e: unknown, path: string, written: number, marked: boolean | null): FileFault | null {
  const kind = storageFaultKind(e);
  if (kind === null) return null;
  const code = String((e as { code?: unknown }).code);
  const what = kind === 'full' ? `the disk is full (${code})` : `the disk reported an I/O error (${code}: ${oneLine(e)})`;
  const kept = kind === 'full'
    ? `every result stored before it is kept (${written} of this run)`
    : `every result stored before it is kept as far as the disk kept it (${written} of this run)`;
  const run = marked === null ? '' : marked ? '; the run is marked failed' : '; the run could not be marked failed and shows as running';
  const next = kind === 'full' ? 'free some space, then run the same command again to resume' : 'check the disk, then run the same command again to resume';
  return new FileFault(path, `database ${path}: ${what}; the batch stopped: ${kept}${run}; ${next}`);
}

/**
 * The fault of a batch whose database file was deleted, or replaced by another file, while it ran
 * (`where`). The connection still holds the old file: the results not yet written (`pending`) go into
 * it, the run is marked failed there, and the whole old file is copied (VACUUM INTO) beside the path
 * as `<path>.rescued-<UTC time>.sqlite`, so that nothing is lost; nothing is written to the path.
 * The message says what happened, where the results are and how to go on.
 */
function databaseGoneFault(store: ResultStore, where: 'deleted' | 'replaced', runId: number, pending: readonly ResultRecord[], written: number): FileFault {
  const path = store.path;
  let stored = written;
  let rescue: string | null = null;
  let why = '';
  try {
    if (pending.length > 0) {
      store.writeResults(runId, pending);
      stored += pending.length;
    }
    store.finishRun(runId, 'failed');
    const target = `${path}.rescued-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}.sqlite`;
    store.saveCopy(target);
    rescue = target;
  } catch (e) {
    why = oneLine(e);
  }
  const what = where === 'deleted' ? 'was deleted' : 'was replaced by another file';
  const kept = rescue
    ? `the ${stored} results of this run, with every result the old file held, are saved in ${rescue}; to go on, move that file back to ${path} (or give --db ${rescue}) and run the same command again`
    : `the ${stored} results of this run went with the old file (a copy could not be saved: ${why}); run the same command again to redo them`;
  return new FileFault(path, `database ${path} ${what} while the batch was writing it; stopped, nothing was written to ${where === 'deleted' ? 'that path' : 'the new file'}; ${kept}`);
}

/**
 * An AbortSignal fired by the first SIGINT or SIGTERM (calling `onFirst` with the signal's name);
 * a second one exits the process at once with status 130 (the database stays consistent: every
 * write is a transaction). Call `dispose` to remove the handlers.
 */
export function abortOnSignals(onFirst?: (name: NodeJS.Signals) => void): { signal: AbortSignal; dispose(): void } {
  const ctl = new AbortController();
  const handler = (name: NodeJS.Signals) => {
    if (ctl.signal.aborted) process.exit(130);
    onFirst?.(name);
    ctl.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: ctl.signal,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
