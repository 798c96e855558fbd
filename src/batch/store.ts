/**
 * The results store: one better-sqlite3 connection on the main thread (workers never see it).
 * WAL mode and a busy timeout, so another process may read (or write) the same file; every write is
 * one transaction, so a killed process leaves the file consistent and loses only what it had not
 * yet written.
 *
 * ResultStore is the one handle the rest of the program holds; the work is split by concern:
 * - opening, the schema and its migration: openDatabase.ts, schema.ts, migrate2.ts;
 * - a study's parameters and plan checks: studyParams.ts;
 * - writing studies, runs, results and links: storeWrite.ts (a run's liveness: liveness.ts);
 * - reading studies, report and export rows: storeRead.ts;
 * - the result rows themselves: records.ts.
 */
import type Database from 'better-sqlite3';
import { InputError } from '../game/errors.js';
import type { WonEffort } from '../report/data.js';
import { statOrNull } from './files.js';
import { BUSY_TIMEOUT_MS, openReadingConnection, openWritingConnection } from './openDatabase.js';
import type { DealLink, ResultRecord, StoredRow } from './records.js';
import { blindReport, blindRows, blindStatusOf, settledBlindPlaces, type BlindRecord, type BlindReportRow, type BlindStatus, type BlindWalkRow } from './blind.js';
import type { ResultStatus } from './ladder.js';
import type { ReportRow, WonPositions } from './report.js';
import * as read from './storeRead.js';
import type { InputFile, LiveRun, ResultFilter, StoredOutcome, StudyInfo } from './storeRead.js';
import * as write from './storeWrite.js';
import type { RunStatus } from './liveness.js';
import { checkPlan, studyParamsJson, studyWith, type StudyParams } from './studyParams.js';

export { BUSY_TIMEOUT_MS, DEFAULT_DB_PATH } from './openDatabase.js';
export { RESULT_COLUMNS, recordFromError, recordFromOutcome, type DealLink, type ResultRecord, type StoredRow } from './records.js';
export { HEARTBEAT_MS, parseProcStat, processStartMs, processStat, runIsDead, STALE_MS, type RunInfo, type RunStatus } from './liveness.js';
export { paramsDiff, studyParamsJson, type StudyParams } from './studyParams.js';
export type { InputFile, LiveRun, ResultFilter, StoredOutcome, StudyInfo } from './storeRead.js';

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
   * Opens (creating the file and its directory if needed) for a batch or a merge: busy timeout,
   * schema migrated to SCHEMA_VERSION, and WAL mode from the first write on (a run refused before it
   * writes, e.g. on a study name clash, leaves an existing file as it was). A foreign, unreadable or
   * newer file is refused untouched, and an unwritable place is refused, each with a one-line
   * InputError `bad-file` naming the file (openDatabase.ts openWritingConnection). `busyTimeoutMs`:
   * how long a statement waits for a lock another connection holds (default BUSY_TIMEOUT_MS).
   */
  static openForWriting(path: string, busyTimeoutMs = BUSY_TIMEOUT_MS): ResultStore {
    return new ResultStore(path, openWritingConnection(path, busyTimeoutMs), true);
  }

  /**
   * Opens for report and export: read-only when the schema is current (an older schema is migrated
   * first). Throws InputError `bad-file` when there is no file, when it is empty (0 bytes, or an
   * SQLite database without tables: a new database only to a batch, which sets it up; merge refuses
   * such an input alike), or as openForWriting for a bad one. Nothing is written to an empty file.
   */
  static openForReading(path: string): ResultStore {
    return new ResultStore(path, openReadingConnection(path));
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
   * The connection, for a write by another module of src/batch (merge.ts copies rows of every table):
   * WAL mode is switched on first, as for this class's own writes.
   */
  writer(): Database.Database {
    return this.#w();
  }

  // ---- a batch's look-ups, while it walks its plan

  #resultsOf: Database.Statement | undefined;
  #byName: Database.Statement | undefined;

  /** The results of a deal (by identity) under one solver version, at every budget, smallest first. */
  resultsOf(deal: string, solverVersion: string): { budget: number; status: ResultStatus }[] {
    this.#resultsOf ??= this.#db.prepare('SELECT max_positions AS budget, status FROM results WHERE deal = ? AND solver_version = ? ORDER BY max_positions');
    return this.#resultsOf.all(deal, solverVersion) as { budget: number; status: ResultStatus }[];
  }

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

  // ---- studies: their parameters and plan (studyParams.ts), written by storeWrite.ts

  /**
   * The id of study `name` (in any Unicode form: matchStudyName), created with `params` if new.
   * Throws InputError `bad-option` if the name exists with other parameters (naming both), so one
   * name never mixes two designs; the clash is refused before anything is written.
   */
  ensureStudy(given: string, params: StudyParams): number {
    const name = this.matchStudyName(given);
    const json = studyParamsJson(params);
    studyWith(this.#db, this.path, name, json);
    return write.writeStudy(this.#w(), this.path, name, json, params);
  }

  /**
   * Refuses, as ensureStudy does, a study name (in any Unicode form) that exists with other parameters;
   * writes nothing. A batch checks this before the plan (checkPlan), so that a study re-run with other
   * parameters is told which, not that its deals changed.
   */
  checkStudyParams(given: string, params: StudyParams): void {
    studyWith(this.#db, this.path, this.matchStudyName(given), studyParamsJson(params));
  }

  /**
   * Checks a study's plan against the deals already linked to it (studyParams.ts checkPlan: a deals
   * file may gain lines at its end but not change, lose or reorder the ones already planned). Throws
   * InputError, nothing written.
   */
  checkPlan(name: string, plan: readonly { deal: string; name: string }[]): void {
    checkPlan(this.#db, this.path, name, plan);
  }

  /** Sets the --until-width stop of a study: it counts its first `n` deals of the plan only. */
  stopStudyAt(studyId: number, n: number): void {
    write.stopStudyAt(this.#w(), studyId, n);
  }

  /**
   * Gives an open-ended study (planned null: `--seeds N-` with --until-width) the plan of its first `n`
   * deals, when its seeds ran out at the largest seed before its rule was met: the study is then whole
   * (report.ts isPartial), not an unfinished run. A study with a plan keeps it.
   */
  closeOpenPlan(studyId: number, n: number): void {
    write.closeOpenPlan(this.#w(), studyId, n);
  }

  /** Makes study `studyId` count a prefix of its plan (storeWrite.ts keepCountedPrefix); returns how many deals it unlinked. */
  keepCountedPrefix(studyId: number, mine: (ord: number) => boolean): number {
    return write.keepCountedPrefix(this.#db, studyId, mine);
  }

  // ---- runs (storeWrite.ts; liveness: liveness.ts)

  /**
   * Records the start of a run (status `running`, this process's id and host, a heartbeat, and a
   * uid: a random UUID, its key across databases); returns its id.
   */
  startRun(studyId: number, r: { workers: number; solverVersion: string; planned: number; skipped: number }): number {
    return write.startRun(this.#w(), studyId, r);
  }

  /** Refreshes a running run's heartbeat (and, when given, its counts of planned and skipped deals). */
  heartbeat(runId: number, counts?: { planned: number; skipped: number }): void {
    write.heartbeat(this.#w(), runId, counts);
  }

  /** Sets a run's final status, finish time and an optional note (why it stopped). */
  finishRun(runId: number, status: Exclude<RunStatus, 'running'>, note: string | null = null): void {
    write.finishRun(this.#w(), runId, status, note);
  }

  /**
   * Marks every dead `running` run (see `runIsDead`) `abandoned`, its finish time its last heartbeat.
   * Returns how many it marked (nothing is written when none is dead).
   */
  markAbandoned(now = Date.now()): number {
    return write.markAbandoned(this.#db, () => this.#w(), now);
  }

  // ---- results

  /** Links deals to a study (and their names to the deals), in one transaction; existing links are kept. */
  linkDeals(studyId: number, links: readonly DealLink[]): void {
    if (links.length === 0) return;
    write.linkDeals(this.#w(), studyId, links);
  }

  /**
   * Writes results in one transaction and counts them on the run. A new (deal, budget, version)
   * row is inserted; an existing `error` row is replaced; an existing settled row is kept (so two
   * processes racing on one deal store it once). The study's `links` are written in the same
   * transaction. Returns the number of rows inserted or replaced.
   */
  writeResults(runId: number | null, records: readonly ResultRecord[], studyId: number | null = null, links: readonly DealLink[] = [], blind: readonly BlindRecord[] = []): number {
    if (records.length === 0 && links.length === 0 && blind.length === 0) return 0;
    return write.writeResults(this.#w(), runId, records, studyId, links, blind);
  }

  // ---- blind studies (blind.ts)

  /** The stored status of a deal's blind game for a player, seed and version (null: none stored). */
  blindStatusOf(deal: string, player: string, playerSeed: number, version: string): BlindStatus | null {
    return blindStatusOf(this.#db, deal, player, playerSeed, version);
  }

  /** The places in the plan of a blind study's deals whose game is stored (won or stuck) at `version`. */
  settledBlindPlaces(studyId: number, version: string): number[] {
    return settledBlindPlaces(this.#db, studyId, version);
  }

  /** The blind report (blind.ts blindReport): blind win rate next to the perfect-information rate of the same deals. */
  blindReport(filter: ResultFilter = {}): BlindReportRow[] {
    return blindReport(this.#db, filter);
  }

  /** The blind games the blind studies count, in plan order (blind.ts blindRows). Streamed: do not write while iterating. */
  blindRows(filter: ResultFilter = {}): IterableIterator<BlindWalkRow> {
    return blindRows(this.#db, filter);
  }

  // ---- reading studies (storeRead.ts)

  /**
   * The studies in the database (oldest first) with their runs (a dead `running` run shown
   * `abandoned`). `solverVersion`: count, settle and find unfinished only that solver's results (a
   * deal counts if it is linked and has a result of that version); default any version's.
   */
  studies(names?: readonly string[], solverVersion?: string): StudyInfo[] {
    return read.readStudies(this.#db, names, solverVersion);
  }

  /**
   * The runs of study `studyId` marked `running` that are alive now (another batch of the study at
   * work on this database: its process still there, or its heartbeat recent), oldest first.
   */
  liveRuns(studyId: number, now = Date.now()): LiveRun[] {
    return read.liveRuns(this.#db, studyId, now);
  }

  /** The places in the plan (`study_deals.ord`) of the deals study `name` counts so far (none if no such study). */
  studyPlaces(name: string): number[] {
    return read.studyPlaces(this.#db, name);
  }

  /**
   * The places in the plan of the study's deals that are settled at `budget`, the last rung
   * (storeRead.ts settledPlaces). `solverVersion`: only that solver's results count.
   */
  settledPlaces(studyId: number, budget: number, solverVersion?: string): number[] {
    return read.settledPlaces(this.#db, studyId, budget, solverVersion);
  }

  /**
   * The most useful stored outcome of one deal (its identity) for viewing it: a won row with its
   * line, else a lost row, else null (storeRead.ts storedOutcome). Used by `view --solve`.
   */
  storedOutcome(deal: string, solverVersion: string): StoredOutcome | null {
    return read.storedOutcome(this.#db, deal, solverVersion);
  }

  /** The planned count of study `name`: null when it is open-ended (not yet stopped) or absent. */
  studyPlanned(name: string): number | null {
    return read.studyPlanned(this.#db, name);
  }

  /** The id of a study by name, if it exists. */
  studyId(name: string): number | undefined {
    return read.studyIdOf(this.#db, name);
  }

  /**
   * The study name `name` stands for: itself when a study has exactly that name, else the name of the
   * one study whose name is the same text in another Unicode form (NFC), else `name` itself.
   */
  matchStudyName(name: string): string {
    return read.matchStudyName(this.#db, name);
  }

  /** Study names that are not in the database, of those given (for a one-line error). */
  unknownStudies(names: readonly string[]): string[] {
    return read.unknownStudies(this.#db, names);
  }

  /**
   * The deals files and position files the studies were planned from (storeRead.ts inputFiles):
   * what report and export must not write their --out over.
   */
  inputFiles(): InputFile[] {
    return read.inputFiles(this.#db);
  }

  // ---- report and export (storeRead.ts walk)

  /**
   * The report rows and the effort of every won deal they count (positions, search time, winning-line
   * length), in one walk (storeRead.ts reportWithEffort). What `report --format html` and `vega` need.
   */
  reportWithEffort(filter: ResultFilter = {}): { rows: ReportRow[]; won: WonEffort[] } {
    return read.reportWithEffort(this.#db, filter);
  }

  /**
   * Report rows: per study (or pooled), game, suits, rung of the budget ladder and solver version,
   * the cumulative counts at that rung (ladder.ts statusAt). Rows of different studies are never
   * merged unless `pool`.
   */
  report(filter: ResultFilter = {}): ReportRow[] {
    return read.accumulate(this.#db, filter).rows();
  }

  /** The positions of the won deals of every report row (same groups and order as `report`). */
  wonPositions(filter: ResultFilter = {}): WonPositions[] {
    return read.accumulate(this.#db, filter).wonPositions();
  }

  /**
   * The results the studies count, one row per study, deal and result used (a ladder's deal has one
   * per rung it was solved at), in plan order, with the study's name for the deal. With `pool`, each
   * result once. Streamed: do not write to this store while iterating.
   */
  rows(filter: ResultFilter = {}): IterableIterator<StoredRow & { study: string; name: string }> {
    return read.resultRows(this.#db, filter);
  }

  /** Every stored result, whatever study counts it (none, too), by deal, budget and solver version. */
  allRows(): IterableIterator<StoredRow> {
    return read.allRows(this.#db);
  }
}
