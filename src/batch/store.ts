/**
 * The results store: one better-sqlite3 connection on the main thread (workers never see it).
 * WAL mode and a busy timeout, so another process may read (or write) the same file; every write is
 * one transaction, so a killed process leaves the file consistent and loses only what it had not
 * yet written. The schema and the checks made before opening are in schema.ts.
 */
import { randomUUID } from 'node:crypto';
import { accessSync, constants, readFileSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';
import { InputError, pathForMessage } from '../game/errors.js';
import { dealName, plannedIdentity, type PlannedDeal } from './deals.js';
import { damagedDatabaseMessage, FileFault, isBusyDatabase, isDamagedDatabase, noteDatabase, storageFaultKind } from './faults.js';
import { databaseFiles, fileInTheWay, makeDirs, statOrNull } from './files.js';
import type { WorkerOutcome } from './protocol.js';
import { highestBelow, ReportAccumulator, statusAt, type ReportInput, type ReportRow, type ResultStatus, type WonPositions } from './report.js';
import { checkSchema, inspectDatabaseFile, migrate, oneLine, SCHEMA_VERSION } from './schema.js';
import type { WonEffort } from '../report/data.js';

/** Default database path, relative to the working directory. */
export const DEFAULT_DB_PATH = 'data/results.sqlite';

/** How long a write waits for another process's lock before failing, milliseconds. */
export const BUSY_TIMEOUT_MS = 10_000;

/** One row of `results`, with camelCase names (see the schema in schema.ts for each field). */
export interface ResultRecord {
  /** The deal's identity (deals.ts dealIdentity): the results key with the budget and solver version. */
  deal: string;
  code: string;
  game: string;
  suits: number;
  sourceKind: 'seed' | 'pysol' | 'code' | 'file';
  seed: number | null;
  pysolGame: string | null;
  pysolNumber: number | null;
  filePath: string | null;
  maxPositions: number;
  status: ResultStatus;
  positions: number | null;
  elapsedMs: number | null;
  moveCount: number | null;
  line: string | null;
  classicScore: number | null;
  revealScore: number | null;
  peakBytes: number | null;
  error: string | null;
  solverVersion: string;
}

/** A stored row: the record plus the run that wrote it and when (ISO 8601 UTC). */
export interface StoredRow extends ResultRecord {
  runId: number | null;
  createdAt: string;
}

/** Column names of `results` in export order, paired with the ResultRecord/StoredRow field. */
export const RESULT_COLUMNS: readonly (readonly [string, keyof StoredRow])[] = [
  ['deal', 'deal'], ['code', 'code'], ['game', 'game'], ['suits', 'suits'], ['source_kind', 'sourceKind'], ['seed', 'seed'],
  ['pysol_game', 'pysolGame'], ['pysol_number', 'pysolNumber'], ['file_path', 'filePath'],
  ['max_positions', 'maxPositions'], ['status', 'status'], ['positions', 'positions'], ['elapsed_ms', 'elapsedMs'],
  ['move_count', 'moveCount'], ['line', 'line'], ['classic_score', 'classicScore'], ['reveal_score', 'revealScore'],
  ['peak_bytes', 'peakBytes'], ['error', 'error'], ['solver_version', 'solverVersion'], ['run_id', 'runId'],
  ['created_at', 'createdAt'],
];

const SELECT_COLUMNS = RESULT_COLUMNS.map(([col, field]) => `${col} AS "${field}"`).join(', ');
const SELECT_R_COLUMNS = RESULT_COLUMNS.map(([col, field]) => `r.${col} AS "${field}"`).join(', ');
/** The columns the report's walk reads (not the lines, errors and names: a third less to sort and copy). */
const SELECT_REPORT_COLUMNS = RESULT_COLUMNS.filter(([col]) => ['deal', 'game', 'suits', 'max_positions', 'status', 'positions', 'elapsed_ms', 'move_count', 'solver_version'].includes(col))
  .map(([col, field]) => `r.${col} AS "${field}"`).join(', ');

function sourceFields(deal: PlannedDeal): Pick<ResultRecord, 'sourceKind' | 'seed' | 'pysolGame' | 'pysolNumber' | 'filePath'> {
  const s = deal.source;
  return {
    sourceKind: s.kind,
    seed: s.kind === 'seed' ? s.seed : null,
    pysolGame: s.kind === 'pysol' ? s.game : null,
    pysolNumber: s.kind === 'pysol' ? s.number : null,
    filePath: s.kind === 'file' ? s.path : null,
  };
}

/** The record of a deal the worker solved. Line/move/score fields are kept only for won deals. */
export function recordFromOutcome(deal: PlannedDeal, maxPositions: number, o: WorkerOutcome, identity: string = plannedIdentity(deal)): ResultRecord {
  const won = o.status === 'won';
  return {
    deal: identity, code: deal.key, game: deal.game, suits: deal.suits, ...sourceFields(deal), maxPositions,
    status: o.status, positions: o.positions, elapsedMs: o.elapsedMs,
    moveCount: won ? o.moveCount : null, line: won ? o.line : null,
    classicScore: won ? o.classicScore : null, revealScore: won ? o.revealScore : null,
    peakBytes: o.peakBytes, error: null, solverVersion: o.solverVersion,
  };
}

/** The record of a deal whose worker failed (threw, died, ran out of memory): status `error`. */
export function recordFromError(deal: PlannedDeal, maxPositions: number, message: string, solverVersion: string, identity: string = plannedIdentity(deal)): ResultRecord {
  return {
    deal: identity, code: deal.key, game: deal.game, suits: deal.suits, ...sourceFields(deal), maxPositions,
    status: 'error', positions: null, elapsedMs: null, moveCount: null, line: null,
    classicScore: null, revealScore: null, peakBytes: null, error: message, solverVersion,
  };
}

/** Parameters that identify a study; a re-run under the same name must give the same ones. */
export interface StudyParams {
  readonly game: string | null;
  /** Suit counts, e.g. `1,2,4`; null when a deals file is not restricted. */
  readonly suits: string | null;
  /** `seeds:<spec>` or `file:<absolute path>`. */
  readonly dealsSpec: string;
  /** The budget of the first rung (the only one without a ladder). */
  readonly maxPositions: number;
  /** The ladder's budgets, increasing; absent = `[maxPositions]`. */
  readonly budgets?: readonly number[];
  /** The stopping rule's width (--until-width), or absent. */
  readonly untilWidth?: number | null;
  /** Deals in the plan; absent when not known before (an open-ended seed range). */
  readonly planned?: number | null;
}

/**
 * What the refusal of a study's other parameters adds after "choose another --study name": that a new
 * study costs no solving of what is stored (found by helper-54: a user growing a seeds study to more
 * deals was told only to pick another name).
 */
const NEW_STUDY_NOTE = '(a new study reuses every result stored for the same deals and budget; report --pool combines studies)';

/**
 * How two studies' parameters (studyParamsJson forms, the stored one first) clash, for an error:
 * `diff`, the fields that differ (`suits "1" there, "2" in this run`, joined by "; "; an absent value
 * is `any` for game and suits, `none` for the others; both whole if
 * either does not parse); `hint`, when they differ only in the path of a deals file of the same
 * name, that a study names its deals file by its absolute path (the same command run on a moved copy
 * of the file is another study), ending "or " before the error's "choose another --study name"; else "".
 */
function paramsClash(stored: string, given: string): { diff: string; hint: string } {
  let a: Record<string, unknown>;
  let b: Record<string, unknown>;
  try {
    a = JSON.parse(stored) as Record<string, unknown>;
    b = JSON.parse(given) as Record<string, unknown>;
  } catch {
    return { diff: `${stored} there; this run has ${given}`, hint: '' };
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  // an absent field is "any" for the game and suits (a deals file's study takes the file's), "none" else (found by helper-42: it read "null")
  const show = (k: string, v: unknown) => (v === null || v === undefined ? (k === 'game' || k === 'suits' ? 'any' : 'none') : JSON.stringify(v));
  const diff = keys.map((k) => `${k} ${show(k, a[k])} there, ${show(k, b[k])} in this run`).join('; ');
  const file = (v: unknown) => (typeof v === 'string' && v.startsWith('file:') ? v.slice(5) : null);
  const fa = file(a.deals);
  const fb = file(b.deals);
  const moved = keys.length === 1 && keys[0] === 'deals' && fa !== null && fb !== null && basename(fa) === basename(fb);
  return { diff, hint: moved ? `a study names its deals file by its absolute path: give --deals ${fa}, or ` : '' };
}

/** The fields in which two studies' parameters differ (paramsClash's `diff`). */
export function paramsDiff(stored: string, given: string): string {
  return paramsClash(stored, given).diff;
}

/** The canonical JSON of a study's parameters, compared when a study name is used again. */
export function studyParamsJson(p: StudyParams): string {
  return JSON.stringify({ game: p.game, suits: p.suits, deals: p.dealsSpec, budgets: p.budgets ?? [p.maxPositions], untilWidth: p.untilWidth ?? null });
}

/**
 * Which results report and export read: the deals counted by the named studies (absent or empty:
 * every study), one set of rows per study unless `pool`, then restricted by game and suit counts.
 */
export interface ResultFilter {
  readonly studies?: readonly string[];
  /** One set of rows over the union of the studies' deals (each deal once), naming every study pooled. */
  readonly pool?: boolean;
  readonly game?: string;
  readonly suits?: readonly number[];
}

/** A stored won or lost result of one deal (see `ResultStore.storedOutcome`). */
export interface StoredOutcome {
  status: 'won' | 'lost';
  /** Space-separated winning line; null when lost. */
  line: string | null;
  positions: number | null;
  maxPositions: number;
  solverVersion: string;
}

/** The note markAbandoned writes on a run whose process died (heartbeat and finishRun drop it). */
const DIED_NOTE = 'the process died (killed or crashed); its finished results are kept';

/** Outcome of a run, as stored in `runs.status`. */
export type RunStatus = 'running' | 'done' | 'interrupted' | 'failed' | 'abandoned';

/** A run's heartbeat is refreshed this often while it runs, milliseconds. */
export const HEARTBEAT_MS = 10_000;

/**
 * A `running` run whose heartbeat is older than this is dead (abandoned), milliseconds: on another
 * host this is the only sign; on this host a process id that is no longer alive is enough.
 */
export const STALE_MS = 120_000;

/** One row of `runs` (see schema.ts), with the status as it really is (a dead `running` run is `abandoned`). */
export interface RunInfo {
  uid: string;
  startedAt: string;
  finishedAt: string | null;
  workers: number;
  solverVersion: string;
  status: RunStatus;
  planned: number;
  skipped: number;
  completed: number;
  errors: number;
  pid: number | null;
  host: string | null;
  heartbeatAt: string | null;
  note: string | null;
}

/** A study as `spidersolve studies` lists it. */
export interface StudyInfo {
  name: string;
  game: string | null;
  suits: string | null;
  deals: string;
  budgets: number[];
  untilWidth: number | null;
  /** Deals in the plan (null: open-ended and not yet stopped). */
  planned: number | null;
  /** Deals the study counts (stored or found already stored). */
  counted: number;
  /** Of those, settled at the last rung: won or lost at any rung, or undecided at the last. */
  settled: number;
  /** Deals counted when --until-width stopped it, or null. */
  stoppedAt: number | null;
  /**
   * Of the deals counted, those the budget ladder has not yet taken to every rung: at some rung above
   * the first, undecided below it, nothing at or above it, neither won nor lost at or below it (an
   * interrupted ladder; a rung in the middle counts too, when another study settled the last). 0 for
   * one budget.
   */
  unfinished: number;
  createdAt: string;
  runs: RunInfo[];
}

/**
 * SQL: does the study deal `sd` have a result settled at the budget `b` (an SQL parameter, `@last`): won or
 * lost at or below it, or undecided at or above it (report.ts statusAt). `ver`: versionFilter's.
 */
function settledAt(b: string, ver: string): string {
  return `EXISTS (SELECT 1 FROM results r WHERE r.deal = sd.deal${ver} AND (
        (r.status IN ('won', 'lost') AND r.max_positions <= ${b}) OR (r.status = 'undecided' AND r.max_positions >= ${b})))`;
}

/** SQL: the condition on `r` that keeps one solver version's results (parameter `@v`), or none. */
function versionFilter(solverVersion: string | undefined): string {
  return solverVersion === undefined ? '' : ' AND r.solver_version = @v';
}

/** A link of a deal to a study (see `study_deals`). */
export interface DealLink {
  deal: string;
  /** Place in the study's plan. */
  ord: number;
  /** The name the study reached it by (deals.ts dealName). */
  name: string;
}

/**
 * Is a `running` run dead? On this host: its process is gone (or its heartbeat is stale: the id was
 * reused). Elsewhere: its heartbeat is older than STALE_MS. A run with no process id (schema 1) is dead.
 */
export function runIsDead(r: { status: string; pid: number | null; host: string | null; heartbeatAt: string | null; startedAt: string }, now = Date.now()): boolean {
  if (r.status !== 'running') return false;
  if (r.pid === null) return true;
  const beat = Date.parse(r.heartbeatAt ?? r.startedAt);
  const stale = !(now - beat <= STALE_MS);
  if (r.host === hostname()) {
    if (r.pid === process.pid) return false;
    try {
      process.kill(r.pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
    const proc = processStat(r.pid);
    if (proc !== null) {
      // a process that has exited but whose parent has not reaped it yet (a zombie) is gone: signal 0
      // still finds it (found by helper-42: a killed batch showed as running while its parent lived)
      if (proc.state === 'Z' || proc.state === 'X') return true;
      // a live process that started before the run did is the run's own, however long it has been
      // silent (stopped with Ctrl-Z, a laptop asleep: found by helper-39); one that started after it
      // took a dead run's process id
      return proc.startMs > Date.parse(r.startedAt) + PROCESS_START_SLACK_MS;
    }
  }
  return stale;
}

/** Allowance for the rounding of a process's start time as processStartMs reads it, milliseconds. */
const PROCESS_START_SLACK_MS = 2_000;

/**
 * What Linux's /proc says of process `pid` of this host: its state (/proc/PID/stat field 3: `R`
 * running, `S` sleeping, `T` stopped, `Z` exited but not yet reaped by its parent, …) and when it
 * started, in milliseconds since the epoch (field 22, its start in clock ticks after boot, at Linux's
 * USER_HZ of 100 a second, plus /proc/stat's btime, whole seconds). Null where /proc cannot be read
 * (another system, or the process gone).
 */
export function processStat(pid: number): { state: string; startMs: number } | null {
  try {
    const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (stat === null || !btime) return null;
    return { state: stat.state, startMs: Number(btime[1]) * 1000 + stat.startTicks * 10 };
  } catch {
    return null;
  }
}

/**
 * The state (field 3) and start time in clock ticks after boot (field 22) of a /proc/PID/stat line,
 * or null if it is not one. The command name (field 2) is in parentheses and may itself hold spaces
 * and parentheses, so the fields after it are counted from its last `)`.
 */
export function parseProcStat(text: string): { state: string; startTicks: number } | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0] ?? '';
  const startTicks = Number(fields[22 - 3]);
  if (!/^[A-Za-z]$/.test(state) || !Number.isInteger(startTicks)) return null;
  return { state, startTicks };
}

/** When process `pid` of this host started (milliseconds since the epoch; see processStat), or null. */
export function processStartMs(pid: number): number | null {
  return processStat(pid)?.startMs ?? null;
}

/**
 * Removes `path` and its SQLite journal if they are empty files (0 bytes): what opening a new database
 * leaves when it fails before the first page is written (a full disk left a 0-byte target; found by
 * helper-39). Anything with content is left alone.
 */
function removeIfEmpty(path: string): void {
  for (const p of databaseFiles(path)) {
    const st = statOrNull(p);
    if (st === null || !st.isFile() || st.size !== 0) continue;
    try {
      unlinkSync(p);
    } catch {
      // left as it is: an empty file holds no results
    }
  }
}

function sourceOf(r: ResultRecord): PlannedDeal['source'] {
  switch (r.sourceKind) {
    case 'seed': return { kind: 'seed', seed: r.seed ?? 0 };
    case 'pysol': return { kind: 'pysol', game: r.pysolGame ?? '', number: r.pysolNumber ?? 0 };
    case 'file': return { kind: 'file', path: r.filePath ?? '' };
    default: return { kind: 'code' };
  }
}

function nowIso(): string {
  return new Date().toISOString();
}

/** The results database. Open with `ResultStore.openForWriting` or `ResultStore.openForReading`. */
export class ResultStore {
  /** Path as given. */
  readonly path: string;
  readonly #db: Database.Database;
  /** Opened for writing and not yet switched to WAL mode (done at the first write). */
  #walPending: boolean;

  /** Device and inode of the file a writing connection opened (see `fileAtPath`). */
  readonly #ident: { dev: number; ino: number } | null;

  private constructor(path: string, db: Database.Database, walPending = false) {
    this.path = path;
    this.#db = db;
    this.#walPending = walPending;
    const st = !db.readonly ? statOrNull(path) : null;
    this.#ident = st ? { dev: st.dev, ino: st.ino } : null;
  }

  /**
   * Whether the file this store writes is still the one at its path: `same`, `deleted` (no file
   * there now) or `replaced` (another file there: another device or inode). A store opened for
   * reading always answers `same`. Looks only (one stat).
   */
  fileAtPath(): 'same' | 'deleted' | 'replaced' {
    if (!this.#ident) return 'same';
    const st = statOrNull(this.path);
    if (!st) return 'deleted';
    return st.dev === this.#ident.dev && st.ino === this.#ident.ino ? 'same' : 'replaced';
  }

  /**
   * Opens (creating the file and its directory if needed) for a batch: busy timeout, schema migrated
   * to SCHEMA_VERSION, and WAL mode from the first write on (a run refused before it writes, e.g. on
   * a study name clash, leaves an existing file as it was). A foreign, unreadable or newer file is
   * refused untouched, and an unwritable place is refused, each with a one-line InputError
   * `bad-file` naming the file. `busyTimeoutMs`: how long a statement waits for a lock another
   * connection holds (default BUSY_TIMEOUT_MS).
   */
  static openForWriting(path: string, busyTimeoutMs = BUSY_TIMEOUT_MS): ResultStore {
    const state = inspectDatabaseFile(path);
    const dir = dirname(path);
    if (state.kind === 'absent') {
      const file = fileInTheWay(path);
      if (file !== null) {
        throw new InputError('bad-file', `database ${pathForMessage(path)}: ${file === dir ? `${dir} is not a directory` : `cannot create directory ${dir} (${file} is not a directory)`}`);
      }
      try {
        makeDirs(dir);
      } catch (e) {
        throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot create directory ${dir} (${oneLine(e)})`);
      }
      try {
        accessSync(dir, constants.W_OK);
      } catch {
        throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot create it, directory ${dir} is not writable`);
      }
    } else {
      for (const [what, p] of [[`directory ${dir}`, dir], ['the file', path]] as const) {
        try {
          accessSync(p, constants.W_OK);
        } catch {
          throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot write to it, ${what} is read-only`);
        }
      }
    }
    let db: Database.Database | undefined;
    noteDatabase(path);
    try {
      db = new Database(path);
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db);
      // a file with the marker but a table or column gone (dropped by hand) is refused before any write
      checkSchema(db, path);
      return new ResultStore(path, db, true);
    } catch (e) {
      db?.close();
      // a file this call created and could not set up (a full disk) is not left behind, empty
      if (state.kind === 'absent') removeIfEmpty(path);
      if (e instanceof InputError) throw e;
      if (isBusyDatabase(e)) {
        // another program holds the file locked (a merge, sqlite3): not bad input (exit 1, see faults.ts)
        throw new FileFault(path, `database ${pathForMessage(path)}: another program held it locked for too long while opening it (SQLite: ${oneLine(e)}); nothing was run and every result it held is kept; run the same command again when the other program is done`);
      }
      const kind = storageFaultKind(e);
      if (kind !== null) {
        // not bad input: the disk failed (exit 1, see faults.ts)
        const what = kind === 'full' ? 'the disk is full' : 'the disk reported an I/O error';
        throw new FileFault(path, `database ${pathForMessage(path)}: ${what} while opening it (${oneLine(e)}); nothing was run and every result it held is kept; ${kind === 'full' ? 'free some space' : 'check the disk'}, then run the same command again`);
      }
      if (isDamagedDatabase(e)) throw new InputError('bad-file', damagedDatabaseMessage(e, path));
      throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot open it for writing (${oneLine(e)})`);
    }
  }

  /**
   * Opens for report and export: read-only when the schema is current (an older schema is migrated
   * first). Throws InputError `bad-file` when there is no file, when it is empty (0 bytes, or an
   * SQLite database without tables: a new database only to a batch, which sets it up; merge refuses
   * such an input alike), or as openForWriting for a bad one. Nothing is written to an empty file.
   */
  static openForReading(path: string): ResultStore {
    const state = inspectDatabaseFile(path);
    if (state.kind === 'absent') {
      const file = fileInTheWay(path);
      if (file !== null) throw new InputError('bad-file', `database ${pathForMessage(path)}: ${file} is not a directory`);
      throw new InputError('bad-file', `database ${pathForMessage(path)}: no such file (run spidersolve batch first, or give --db)`);
    }
    if (state.kind === 'fresh') throw new InputError('bad-file', `database ${pathForMessage(path)}: an empty file, not a spidersolve results database; left untouched (run spidersolve batch first, or give another --db)`);
    if (state.version < SCHEMA_VERSION) {
      ResultStore.openForWriting(path).close();
    }
    noteDatabase(path, false);
    let db: Database.Database;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true });
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    } catch (e) {
      throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot open it (${oneLine(e)})`);
    }
    try {
      // a file left in WAL mode (its batch killed) without its -shm beside it, in a folder that cannot
      // be written: SQLite must make the -shm to read it, and fails at the first read (found by
      // helper-59: "internal error: attempt to write a readonly database")
      try {
        db.prepare('SELECT count(*) FROM sqlite_master').get();
      } catch (e) {
        if (!String((e as { code?: unknown }).code ?? '').startsWith('SQLITE_READONLY')) throw e;
        throw new InputError(
          'bad-file',
          state.walMode
            ? `database ${pathForMessage(path)}: cannot read it here: it is in WAL mode (the batch that wrote it did not close it) and SQLite must make ${pathForMessage(`${path}-shm`)} beside it, in a folder it cannot write; ` +
                `copy its -wal and -shm files with it, or read it from a folder you can write (SQLite: ${oneLine(e)}); left untouched`
            : `database ${pathForMessage(path)}: cannot read it here: SQLite must write beside it, in a folder it cannot write; read it from a folder you can write (SQLite: ${oneLine(e)}); left untouched`,
        );
      }
      checkSchema(db, path);
    } catch (e) {
      db.close();
      throw e;
    }
    return new ResultStore(path, db);
  }

  /**
   * How long a statement waits for a lock another connection holds, milliseconds (SQLite's
   * busy_timeout): a batch shortens it while another program holds the database, so that its tries
   * do not keep the process from its workers' results and from signals.
   */
  setBusyTimeout(ms: number): void {
    this.#db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`);
  }

  /** The connection, for a write: WAL mode is switched on before the first. */
  #w(): Database.Database {
    const db = this.#db;
    if (this.#walPending) {
      // switching to WAL writes the file's header, so it waits for the first write
      this.#walPending = false;
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new InputError('bad-file', `database ${this.path}: cannot switch to WAL mode (journal_mode is ${String(mode)})`);
    }
    return db;
  }

  /**
   * Closes the connection. A writing connection first tries to leave WAL mode (this succeeds only
   * when no other connection is open), so that a cleanly closed file is one self-contained file
   * that can be read anywhere, even from a read-only directory. Idempotent.
   */
  close(): void {
    const db = this.#db;
    if (!db.open) return;
    if (!db.readonly && !this.#walPending) {
      try {
        db.pragma('busy_timeout = 0');
        db.pragma('journal_mode = DELETE');
      } catch {
        // another connection is open: it stays in WAL mode, which is as safe
      }
    }
    db.close();
  }

  /**
   * Copies the whole database, as this connection sees it, into a new file `dest` (VACUUM INTO: one
   * self-contained file, marker and schema version included). Throws SQLite's error when `dest`
   * exists or cannot be written.
   */
  saveCopy(dest: string): void {
    this.#db.prepare('VACUUM INTO ?').run(dest);
  }

  /**
   * The results of a deal (by identity) under one solver version, at every budget, smallest first.
   */
  resultsOf(deal: string, solverVersion: string): { budget: number; status: ResultStatus }[] {
    this.#resultsOf ??= this.#db.prepare('SELECT max_positions AS budget, status FROM results WHERE deal = ? AND solver_version = ? ORDER BY max_positions');
    return this.#resultsOf.all(deal, solverVersion) as { budget: number; status: ResultStatus }[];
  }

  #resultsOf: Database.Statement | undefined;
  #byName: Database.Statement | undefined;

  /** The identity of a deal already reached by this name (a seeded code, pysol:…), if any. */
  identityByName(name: string): string | undefined {
    this.#byName ??= this.#db.prepare('SELECT deal FROM deal_names WHERE name = ? LIMIT 1').pluck();
    return this.#byName.get(name) as string | undefined;
  }

  /**
   * Keys (`results.code`) already settled — won, lost or undecided — for exactly this budget and
   * solver version. Errors are not settled: they are run again.
   */
  settledKeys(maxPositions: number, solverVersion: string): Set<string> {
    const stmt = this.#db
      .prepare("SELECT code FROM results WHERE max_positions = ? AND solver_version = ? AND status <> 'error'")
      .pluck();
    return new Set(stmt.all(maxPositions, solverVersion) as string[]);
  }

  /**
   * The id of study `name`, created with `params` if new. Throws InputError `bad-option` if the
   * name exists with other parameters (naming both), so one name never mixes two designs.
   */
  ensureStudy(given: string, params: StudyParams): number {
    // a study named in another Unicode form is the same study
    const name = this.matchStudyName(given);
    const json = studyParamsJson(params);
    const find = (db: Database.Database): number | undefined => this.#studyWith(db, name, json);
    // a clash is refused before anything is written
    find(this.#db);
    const db = this.#w();
    return db.transaction(() => {
      const id = find(db);
      if (id !== undefined) {
        if (params.planned != null) db.prepare('UPDATE studies SET planned = ? WHERE id = ?').run(params.planned, id);
        return id;
      }
      const budgets = params.budgets ?? [params.maxPositions];
      const info = db
        .prepare('INSERT INTO studies (name, game, suits, deals_spec, max_positions, params, created_at, budgets, until_width, planned) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(name, params.game, params.suits, params.dealsSpec, budgets[0], json, nowIso(), budgets.join(','), params.untilWidth ?? null, params.planned ?? null);
      return Number(info.lastInsertRowid);
    }).immediate();
  }

  /**
   * Refuses, as ensureStudy does, a study name (in any Unicode form) that exists with other parameters;
   * writes nothing. A batch checks this before the plan (checkPlan), so that a study re-run with other
   * parameters is told which, not that its deals changed.
   */
  checkStudyParams(given: string, params: StudyParams): void {
    this.#studyWith(this.#db, this.matchStudyName(given), studyParamsJson(params));
  }

  /** The id of study `name` if it exists with parameters `json` (studyParamsJson), undefined if it does not exist; throws InputError `bad-option` naming what differs if it exists with others. */
  #studyWith(db: Database.Database, name: string, json: string): number | undefined {
    const row = db.prepare('SELECT id, params FROM studies WHERE name = ?').get(name) as { id: number; params: string } | undefined;
    if (row && row.params !== json) {
      const clash = paramsClash(row.params, json);
      throw new InputError('bad-option', `study "${name}" exists in ${this.path} with other parameters: ${clash.diff}; ${clash.hint}choose another --study name ${NEW_STUDY_NOTE}`);
    }
    return row?.id;
  }

  /**
   * Checks a study's plan against the deals already linked to it (a study planned from a deals file):
   * each deal stored at place `ord` must be the plan's deal at that place (identity, as `study_deals.deal`),
   * so a file may gain lines at its end but not change, lose or reorder the ones already planned.
   * Nothing happens for a study not in the database. Throws InputError (nothing written) naming the
   * first place that differs (or that its position file now holds another deal) and how many do; for
   * a study of standard input, the fix is a --study name of the list's own.
   */
  checkPlan(name: string, plan: readonly { deal: string; name: string }[]): void {
    const row = this.#db.prepare('SELECT id, deals_spec FROM studies WHERE name = ?').get(name) as { id: number; deals_spec: string } | undefined;
    if (!row) return;
    const links = this.#db.prepare('SELECT deal, ord, name FROM study_deals WHERE study_id = ? ORDER BY ord').all(row.id) as DealLink[];
    const differ = links.filter((l) => plan[l.ord]?.deal !== l.deal);
    if (differ.length === 0) return;
    const first = differ[0]!;
    const now = plan[first.ord];
    // the same name, another deal: a position file edited since (a deal code names its deal)
    const was = now === undefined ? `the list now ends at ${plan.length}` : now.name === first.name ? 'the list still names it, but the file now holds another deal' : `the list now gives ${now.name}`;
    // deals read from standard input: every list piped in gets the same study name by default
    const fix = row.deals_spec === 'file:/dev/stdin'
      ? 'a study of deals read from standard input keeps the deals it was planned with: give this list its own --study name (nothing was written)'
      : 'lines may be added at the end, not changed, removed or reordered: restore the list, or give another --study name (nothing was written)';
    throw new InputError(
      'bad-option',
      `study "${name}" in ${this.path}: its deals changed since it was planned: deal ${first.ord + 1} of the plan was ${first.name}, ${was}` +
        `${differ.length > 1 ? ` (${differ.length} planned deals differ)` : ''}; ${fix}`,
    );
  }

  /**
   * Records the start of a run (status `running`, this process's id and host, a heartbeat); returns
   * its id and uid (a random UUID, its key across databases).
   */
  startRun(studyId: number, r: { workers: number; solverVersion: string; planned: number; skipped: number }): number {
    const now = nowIso();
    const info = this.#w()
      .prepare("INSERT INTO runs (uid, study_id, started_at, workers, solver_version, status, planned, skipped, pid, host, heartbeat_at) VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)")
      .run(randomUUID(), studyId, now, r.workers, r.solverVersion, r.planned, r.skipped, process.pid, hostname(), now);
    return Number(info.lastInsertRowid);
  }

  /** Refreshes a running run's heartbeat (and, when given, its counts of planned and skipped deals). */
  heartbeat(runId: number, counts?: { planned: number; skipped: number }): void {
    const db = this.#w();
    // a run another process marked abandoned while this one was silent (stopped, asleep, on a host
    // whose heartbeats it could not see) is running again, without the note that it died
    const revive = "status = 'running', finished_at = NULL, note = CASE WHEN note = @died THEN NULL ELSE note END";
    const where = "WHERE id = @id AND status IN ('running', 'abandoned')";
    if (counts) db.prepare(`UPDATE runs SET heartbeat_at = @now, planned = @planned, skipped = @skipped, ${revive} ${where}`).run({ now: nowIso(), planned: counts.planned, skipped: counts.skipped, id: runId, died: DIED_NOTE });
    else db.prepare(`UPDATE runs SET heartbeat_at = @now, ${revive} ${where}`).run({ now: nowIso(), id: runId, died: DIED_NOTE });
  }

  /** Sets a run's final status, finish time and an optional note (why it stopped). */
  finishRun(runId: number, status: Exclude<RunStatus, 'running'>, note: string | null = null): void {
    // (a note that the run died, written while this process was silent, is not true: it is dropped)
    this.#w().prepare('UPDATE runs SET status = @status, finished_at = @now, heartbeat_at = @now, note = coalesce(@note, CASE WHEN note = @died THEN NULL ELSE note END) WHERE id = @id').run({ status, now: nowIso(), note, id: runId, died: DIED_NOTE });
  }

  /**
   * Marks every dead `running` run (see `runIsDead`) `abandoned`, its finish time its last heartbeat.
   * Returns how many it marked.
   */
  markAbandoned(now = Date.now()): number {
    const db = this.#db;
    const running = db.prepare("SELECT id, status, pid, host, heartbeat_at AS heartbeatAt, started_at AS startedAt FROM runs WHERE status = 'running'").all() as
      { id: number; status: string; pid: number | null; host: string | null; heartbeatAt: string | null; startedAt: string }[];
    const dead = running.filter((r) => runIsDead(r, now));
    if (dead.length === 0) return 0;
    const w = this.#w();
    const mark = w.prepare("UPDATE runs SET status = 'abandoned', finished_at = coalesce(heartbeat_at, started_at), note = coalesce(note, ?) WHERE id = ? AND status = 'running'");
    w.transaction(() => {
      for (const r of dead) mark.run(DIED_NOTE, r.id);
    }).immediate();
    return dead.length;
  }

  /** Sets the --until-width stop of a study: it counts its first `n` deals of the plan only. */
  stopStudyAt(studyId: number, n: number): void {
    const db = this.#w();
    db.transaction(() => {
      db.prepare('DELETE FROM study_deals WHERE study_id = ? AND ord >= ?').run(studyId, n);
      db.prepare('UPDATE studies SET stopped_at = ?, planned = ? WHERE id = ?').run(n, n, studyId);
    }).immediate();
  }

  /**
   * Gives an open-ended study (planned null: `--seeds N-` with --until-width) the plan of its first `n`
   * deals, when its seeds ran out at the largest seed before its rule was met: the study is then whole
   * (report.ts isPartial), not an unfinished run. A study with a plan keeps it.
   */
  closeOpenPlan(studyId: number, n: number): void {
    this.#w().prepare('UPDATE studies SET planned = ? WHERE id = ? AND planned IS NULL').run(n, studyId);
  }

  /** Links deals to a study (and their names to the deals), in one transaction; existing links are kept. */
  linkDeals(studyId: number, links: readonly DealLink[]): void {
    if (links.length === 0) return;
    const db = this.#w();
    db.transaction(() => this.#link(db, studyId, links)).immediate();
  }

  #link(db: Database.Database, studyId: number, links: readonly DealLink[]): void {
    const link = db.prepare('INSERT OR IGNORE INTO study_deals (study_id, deal, ord, name) VALUES (?, ?, ?, ?)');
    const name = db.prepare('INSERT OR IGNORE INTO deal_names (deal, name) VALUES (?, ?)');
    for (const l of links) {
      link.run(studyId, l.deal, l.ord, l.name);
      name.run(l.deal, l.name);
    }
  }

  /**
   * Writes results in one transaction and counts them on the run. A new (code, budget, version)
   * row is inserted; an existing `error` row is replaced; an existing settled row is kept (so two
   * processes racing on one deal store it once). Returns the number of rows inserted or replaced.
   */
  writeResults(runId: number | null, records: readonly ResultRecord[], studyId: number | null = null, links: readonly DealLink[] = []): number {
    if (records.length === 0 && links.length === 0) return 0;
    const db = this.#w();
    const upsert = db.prepare(`
      INSERT INTO results (deal, code, game, suits, source_kind, seed, pysol_game, pysol_number, file_path, max_positions,
        status, positions, elapsed_ms, move_count, line, classic_score, reveal_score, peak_bytes, error, solver_version,
        run_id, created_at)
      VALUES (@deal, @code, @game, @suits, @sourceKind, @seed, @pysolGame, @pysolNumber, @filePath, @maxPositions,
        @status, @positions, @elapsedMs, @moveCount, @line, @classicScore, @revealScore, @peakBytes, @error, @solverVersion,
        @runId, @createdAt)
      ON CONFLICT (deal, max_positions, solver_version) DO UPDATE SET
        code = excluded.code, game = excluded.game, suits = excluded.suits, source_kind = excluded.source_kind, seed = excluded.seed,
        pysol_game = excluded.pysol_game, pysol_number = excluded.pysol_number, file_path = excluded.file_path,
        status = excluded.status, positions = excluded.positions, elapsed_ms = excluded.elapsed_ms,
        move_count = excluded.move_count, line = excluded.line, classic_score = excluded.classic_score,
        reveal_score = excluded.reveal_score, peak_bytes = excluded.peak_bytes, error = excluded.error,
        run_id = excluded.run_id, created_at = excluded.created_at
      WHERE results.status = 'error'`);
    const bump = db.prepare('UPDATE runs SET completed = completed + ?, errors = errors + ?, heartbeat_at = ? WHERE id = ?');
    const name = db.prepare('INSERT OR IGNORE INTO deal_names (deal, name) VALUES (?, ?)');
    return db.transaction(() => {
      const createdAt = nowIso();
      let changed = 0;
      let errors = 0;
      for (const r of records) {
        const info = upsert.run({ ...r, runId, createdAt });
        name.run(r.deal, dealName({ key: r.code, source: sourceOf(r) }));
        if (info.changes > 0) {
          changed++;
          if (r.status === 'error') errors++;
        }
      }
      if (runId !== null) bump.run(changed, errors, createdAt, runId);
      if (studyId !== null) this.#link(db, studyId, links);
      return changed;
    }).immediate();
  }

  /**
   * The studies in the database (oldest first) with their runs (a dead `running` run shown
   * `abandoned`). `solverVersion`: count, settle and find unfinished only that solver's results (a
   * deal counts if it is linked and has a result of that version); default any version's.
   */
  studies(names?: readonly string[], solverVersion?: string): StudyInfo[] {
    const db = this.#db;
    const all = db.prepare('SELECT id, name, game, suits, deals_spec AS deals, budgets, max_positions AS budget, until_width AS untilWidth, planned, stopped_at AS stoppedAt, created_at AS createdAt FROM studies ORDER BY id').all() as
      { id: number; name: string; game: string | null; suits: string | null; deals: string; budgets: string | null; budget: number; untilWidth: number | null; planned: number | null; stoppedAt: number | null; createdAt: string }[];
    const runs = db.prepare('SELECT uid, started_at AS startedAt, finished_at AS finishedAt, workers, solver_version AS solverVersion, status, planned, skipped, completed, errors, pid, host, heartbeat_at AS heartbeatAt, note FROM runs WHERE study_id = ? ORDER BY id');
    // with a solver version, only its results count (a study solved again by a newer solver is
    // counted, settled and unfinished as that solver has it; found by helper-46)
    const ver = versionFilter(solverVersion);
    const v = solverVersion === undefined ? {} : { v: solverVersion };
    const counted = db.prepare(solverVersion === undefined ? 'SELECT count(*) FROM study_deals WHERE study_id = @id'
      : `SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id AND EXISTS (SELECT 1 FROM results r WHERE r.deal = sd.deal${ver})`).pluck();
    const settled = db.prepare(`SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id AND ${settledAt('@last', ver)}`).pluck();
    // deals some rung above the first has not reached yet: at that rung, not settled, and an
    // undecided result below it (report.ts statusAt null, highestBelow not)
    const rungTest = (k: number) => `(NOT ${settledAt(`@b${k}`, ver)}
        AND EXISTS (SELECT 1 FROM results r WHERE r.deal = sd.deal${ver} AND r.status = 'undecided' AND r.max_positions < @b${k}))`;
    const unfinishedOf = (id: number, rungs: readonly number[]): number =>
      rungs.length === 0 ? 0 : (db.prepare(`SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id AND (${rungs.map((_, k) => rungTest(k)).join(' OR ')})`).pluck()
        .get({ id, ...v, ...Object.fromEntries(rungs.map((b, k) => [`b${k}`, b])) }) as number);
    const now = Date.now();
    const out: StudyInfo[] = [];
    for (const s of all) {
      if (names && names.length && !names.includes(s.name)) continue;
      const budgets = (s.budgets ?? String(s.budget)).split(',').map(Number);
      const last = budgets[budgets.length - 1]!;
      out.push({
        name: s.name, game: s.game, suits: s.suits, deals: s.deals, budgets, untilWidth: s.untilWidth,
        planned: s.planned, counted: counted.get({ id: s.id, ...v }) as number, settled: settled.get({ id: s.id, last, ...v }) as number,
        stoppedAt: s.stoppedAt, unfinished: unfinishedOf(s.id, budgets.slice(1)), createdAt: s.createdAt,
        runs: (runs.all(s.id) as RunInfo[]).map((r) => (runIsDead(r, now) ? { ...r, status: 'abandoned' as const } : r)),
      });
    }
    return out;
  }

  /** The places in the plan (`study_deals.ord`) of the deals study `name` counts so far (none if no such study). */
  studyPlaces(name: string): number[] {
    return this.#db.prepare('SELECT sd.ord FROM study_deals sd JOIN studies s ON s.id = sd.study_id WHERE s.name = ? ORDER BY sd.ord').pluck().all(name) as number[];
  }

  /**
   * Makes study `studyId` count a prefix of its plan: finds the first place below `end` that `mine`
   * accepts and the study does not count (a deal still in flight when a run was stopped), and unlinks
   * the deals at the places after it that `mine` accepts (their results stay stored; a later run
   * finds them and counts them again). A run stopped with deals in flight had counted the quick deals
   * dispatched after the slow ones it cancelled, so its floor read high (found by helper-46: 18 of 18
   * won, where the deals left out were the undecided ones). `mine`: the places of the run's plan (a
   * shard's, or all). Returns how many deals it unlinked.
   */
  keepCountedPrefix(studyId: number, mine: (ord: number) => boolean): number {
    const db = this.#db;
    const places = db.prepare('SELECT ord FROM study_deals WHERE study_id = ? ORDER BY ord').pluck().all(studyId) as number[];
    const counted = new Set(places);
    // (a first gap after the last counted place leaves nothing after it to unlink)
    const last = places.length ? places[places.length - 1]! : -1;
    let gap = -1;
    for (let o = 0; o < last; o++) {
      if (mine(o) && !counted.has(o)) {
        gap = o;
        break;
      }
    }
    if (gap < 0) return 0;
    const after = places.filter((o) => o > gap && mine(o));
    if (after.length === 0) return 0;
    const del = db.prepare('DELETE FROM study_deals WHERE study_id = ? AND ord = ?');
    db.transaction(() => {
      for (const o of after) del.run(studyId, o);
    }).immediate();
    return after.length;
  }

  /**
   * The places in the plan (`study_deals.ord`) of the study's deals that are settled at `budget`, the
   * last rung (a win or a loss at or below it, an undecided at or above it; as `studies` counts them).
   * A shard's summary counts its own among them. `solverVersion`: only that solver's results count.
   */
  settledPlaces(studyId: number, budget: number, solverVersion?: string): number[] {
    return this.#db.prepare(`SELECT sd.ord FROM study_deals sd WHERE sd.study_id = @id AND ${settledAt('@b', versionFilter(solverVersion))}`).pluck()
      .all({ id: studyId, b: budget, ...(solverVersion === undefined ? {} : { v: solverVersion }) }) as number[];
  }

  /**
   * The most useful stored outcome of one deal (its identity, `results.deal`: deals.ts dealIdentity)
   * for viewing it: a won row with its line (the current solver version first, then the largest
   * budget), else a lost row (a proof holds at any budget), else null. Undecided and error rows are
   * never returned. Used by `view --solve`.
   */
  storedOutcome(deal: string, solverVersion: string): StoredOutcome | null {
    const row = this.#db
      .prepare(
        `SELECT status, line, positions, max_positions AS maxPositions, solver_version AS solverVersion FROM results
         WHERE deal = ? AND (status = 'lost' OR (status = 'won' AND line IS NOT NULL))
         ORDER BY status = 'won' DESC, solver_version = ? DESC, max_positions DESC, solver_version DESC LIMIT 1`,
      )
      .get(deal, solverVersion) as StoredOutcome | undefined;
    return row ?? null;
  }

  /** The planned count of study `name`: null when it is open-ended (not yet stopped) or absent. */
  studyPlanned(name: string): number | null {
    return (this.#db.prepare('SELECT planned FROM studies WHERE name = ?').pluck().get(name) as number | null | undefined) ?? null;
  }

  /** The id of a study by name, if it exists. */
  studyId(name: string): number | undefined {
    return this.#db.prepare('SELECT id FROM studies WHERE name = ?').pluck().get(name) as number | undefined;
  }

  /**
   * The connection, for a write by another module of src/batch (merge.ts copies rows of every table):
   * WAL mode is switched on first, as for this class's own writes.
   */
  writer(): Database.Database {
    return this.#w();
  }

  /** Study names that are not in the database, of those given (for a one-line error). */
  /**
   * The study name `name` stands for: itself when a study has exactly that name, else the name of the
   * one study whose name is the same text in another Unicode form (NFC: "é" typed as one character or
   * as e and a combining accent), else `name` itself.
   */
  matchStudyName(name: string): string {
    const db = this.#db;
    if (db.prepare('SELECT 1 FROM studies WHERE name = ?').pluck().get(name) !== undefined) return name;
    const nfc = name.normalize('NFC');
    const same = (db.prepare('SELECT name FROM studies').pluck().all() as string[]).filter((n) => n.normalize('NFC') === nfc);
    return same.length === 1 ? same[0]! : name;
  }

  unknownStudies(names: readonly string[]): string[] {
    const has = this.#db.prepare('SELECT 1 FROM studies WHERE name = ?').pluck();
    return names.filter((n) => has.get(n) === undefined);
  }

  /**
   * The report rows and the effort of every won deal they count (positions, search time, winning-line
   * length), in one walk: each won deal in the row it counts in — per study (or pooled), game, suits,
   * rung of the budget ladder and solver version (a deal won at a lower rung counts at every higher
   * one, with the result it was won in). What `report --format html` and `vega` need.
   */
  reportWithEffort(filter: ResultFilter = {}): { rows: ReportRow[]; won: WonEffort[] } {
    const won: WonEffort[] = [];
    const acc = this.#accumulate(filter, (label, budget, row) => {
      if (row.status === 'won') {
        won.push({ study: label, game: row.game, suits: row.suits, budget, solverVersion: row.solverVersion, positions: row.positions, elapsedMs: row.elapsedMs, moveCount: row.moveCount });
      }
    });
    return { rows: acc.rows(), won };
  }

  /**
   * The row groups of report and export: one per study (or one pooling all, with `pool`), each with
   * its study ids, the rungs of each study, and the group's rungs (the union of the studies' budgets).
   * A name given twice counts once.
   */
  #groups(f: ResultFilter): { label: string; ids: number[]; rungsOf: Map<number, Set<number>>; budgets: number[] }[] {
    const rows = this.#db.prepare('SELECT id, name, budgets, max_positions AS budget FROM studies ORDER BY id').all() as
      { id: number; name: string; budgets: string | null; budget: number }[];
    const names = f.studies && f.studies.length ? [...new Set(f.studies)] : null;
    const chosen = names ? names.map((n) => rows.find((r) => r.name === n)).filter((r) => r !== undefined) : rows;
    const budgetsOf = (r: (typeof rows)[number]) => (r.budgets ?? String(r.budget)).split(',').map(Number);
    if (chosen.length === 0) return [];
    const group = (label: string, members: typeof rows) => {
      const rungsOf = new Map(members.map((r) => [r.id, new Set(budgetsOf(r))]));
      const budgets = [...new Set(members.flatMap(budgetsOf))].sort((a, b) => a - b);
      return { label, ids: members.map((r) => r.id), rungsOf, budgets };
    };
    if (f.pool) return [group(chosen.map((r) => r.name).join(' + '), chosen)];
    return chosen.map((r) => group(r.name, [r]));
  }

  /**
   * Walks the deals of each group with their results: for every deal (once per group, in plan order),
   * solver version and rung, the result it counts as at that rung (report.ts statusAt; for a deal an
   * interrupted ladder has not taken there yet, its highest undecided or error result below the rung,
   * report.ts highestBelow), if any. A deal
   * counts at a rung only if one of the group's studies that plans it has that rung: a pooled row at
   * budget B is the union (each deal once) of the rows at B of the pooled studies whose budgets include
   * B, never a deal that only a study without rung B plans.
   * Streamed: do not write to this store while iterating.
   */
  *#walk(f: ResultFilter, columns: string = SELECT_R_COLUMNS): Generator<{ label: string; name: string; budget: number; row: StoredRow }> {
    for (const g of this.#groups(f)) {
      const parts: string[] = [];
      const args: (string | number)[] = [...g.ids];
      if (f.game) {
        parts.push('r.game = ?');
        args.push(f.game);
      }
      if (f.suits && f.suits.length) {
        parts.push(`r.suits IN (${f.suits.map(() => '?').join(', ')})`);
        args.push(...f.suits);
      }
      const stmt = this.#db.prepare(
        `SELECT sd.name AS "studyName", sd.sids AS "studyIds", ${columns}
         FROM (SELECT deal, min(ord) AS ord, min(name) AS name, group_concat(DISTINCT study_id) AS sids FROM study_deals WHERE study_id IN (${g.ids.map(() => '?').join(', ')}) GROUP BY deal) sd
         JOIN results r ON r.deal = sd.deal ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''}
         ORDER BY sd.ord, sd.deal, r.solver_version, r.max_positions`,
      );
      type Raw = StoredRow & { studyName: string; studyIds: string };
      let batch: (Raw & { budget: number })[] = [];
      const emit = function* (rows: typeof batch) {
        const sids = String(rows[0]!.studyIds).split(',').map(Number);
        for (const b of g.budgets) {
          if (!sids.some((id) => g.rungsOf.get(id)?.has(b))) continue;
          // a deal an interrupted ladder has not taken to rung b yet counts there as its highest
          // result below b says (undecided, or an error): the rung's row still counts every deal, and
          // its floor stays a lower bound and its ceiling an upper bound (StudyInfo.unfinished)
          const sel = statusAt(rows, b) ?? highestBelow(rows, b);
          if (sel) yield { label: g.label, name: sel.studyName, budget: b, row: sel };
        }
      };
      for (const raw of stmt.iterate(...args) as IterableIterator<Raw>) {
        const row = { ...raw, budget: raw.maxPositions };
        if (batch.length && (batch[0]!.deal !== row.deal || batch[0]!.solverVersion !== row.solverVersion)) {
          yield* emit(batch);
          batch = [];
        }
        batch.push(row);
      }
      if (batch.length) yield* emit(batch);
    }
  }

  /** The report's accumulator over the walk; `each` also sees every counted result (report --format html). */
  #accumulate(f: ResultFilter, each?: (label: string, budget: number, row: StoredRow) => void): ReportAccumulator {
    const acc = new ReportAccumulator();
    for (const { label, budget, row } of this.#walk(f, SELECT_REPORT_COLUMNS)) {
      acc.add({ study: label, game: row.game, suits: row.suits, budget, solverVersion: row.solverVersion, status: row.status, positions: row.positions, elapsedMs: row.elapsedMs } satisfies ReportInput);
      each?.(label, budget, row);
    }
    return acc;
  }

  /**
   * Report rows: per study (or pooled), game, suits, rung of the budget ladder and solver version,
   * the cumulative counts at that rung (report.ts statusAt). Rows of different studies are never
   * merged unless `pool`.
   */
  report(filter: ResultFilter = {}): ReportRow[] {
    return this.#accumulate(filter).rows();
  }

  /** The positions of the won deals of every report row (same groups and order as `report`). */
  wonPositions(filter: ResultFilter = {}): WonPositions[] {
    return this.#accumulate(filter).wonPositions();
  }

  /**
   * The results the studies count, one row per study, deal and result used (a ladder's deal has one
   * per rung it was solved at), in plan order, with the study's name for the deal. With `pool`, each
   * result once. Streamed: do not write to this store while iterating.
   */
  *rows(filter: ResultFilter = {}): IterableIterator<StoredRow & { study: string; name: string }> {
    let seen = new Set<string>();
    let label = '';
    for (const w of this.#walk(filter)) {
      if (w.label !== label) {
        label = w.label;
        seen = new Set();
      }
      const k = `${w.row.deal}\u0000${w.row.maxPositions}\u0000${w.row.solverVersion}`;
      if (seen.has(k)) continue;
      seen.add(k);
      const { studyName, studyIds, budget, ...row } = w.row as StoredRow & { studyName: string; studyIds: string; budget: number };
      void studyName, studyIds, budget;
      yield { study: w.label, name: w.name, ...row };
    }
  }

  /** Every stored result, whatever study counts it (none, too), by deal, budget and solver version. */
  *allRows(): IterableIterator<StoredRow> {
    yield* this.#db.prepare(`SELECT ${SELECT_COLUMNS} FROM results ORDER BY deal, max_positions, solver_version`).iterate() as IterableIterator<StoredRow>;
  }
}
