/**
 * The results store: one better-sqlite3 connection on the main thread (workers never see it).
 * WAL mode and a busy timeout, so another process may read (or write) the same file; every write is
 * one transaction, so a killed process leaves the file consistent and loses only what it had not
 * yet written. The schema and the checks made before opening are in schema.ts.
 */
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { InputError } from '../game/errors.js';
import type { PlannedDeal } from './deals.js';
import { FileFault, storageFaultKind } from './faults.js';
import { fileInTheWay, makeDirs, statOrNull } from './files.js';
import type { WorkerOutcome } from './protocol.js';
import { ReportAccumulator, type ReportInput, type ReportRow, type ResultStatus } from './report.js';
import { inspectDatabaseFile, migrate, oneLine, SCHEMA_VERSION } from './schema.js';
import type { WonEffort } from '../report/data.js';

/** Default database path, relative to the working directory. */
export const DEFAULT_DB_PATH = 'data/results.sqlite';

/** How long a write waits for another process's lock before failing, milliseconds. */
export const BUSY_TIMEOUT_MS = 10_000;

/** One row of `results`, with camelCase names (see the schema in schema.ts for each field). */
export interface ResultRecord {
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
  ['code', 'code'], ['game', 'game'], ['suits', 'suits'], ['source_kind', 'sourceKind'], ['seed', 'seed'],
  ['pysol_game', 'pysolGame'], ['pysol_number', 'pysolNumber'], ['file_path', 'filePath'],
  ['max_positions', 'maxPositions'], ['status', 'status'], ['positions', 'positions'], ['elapsed_ms', 'elapsedMs'],
  ['move_count', 'moveCount'], ['line', 'line'], ['classic_score', 'classicScore'], ['reveal_score', 'revealScore'],
  ['peak_bytes', 'peakBytes'], ['error', 'error'], ['solver_version', 'solverVersion'], ['run_id', 'runId'],
  ['created_at', 'createdAt'],
];

const SELECT_COLUMNS = RESULT_COLUMNS.map(([col, field]) => `${col} AS "${field}"`).join(', ');

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
export function recordFromOutcome(deal: PlannedDeal, maxPositions: number, o: WorkerOutcome): ResultRecord {
  const won = o.status === 'won';
  return {
    code: deal.key, game: deal.game, suits: deal.suits, ...sourceFields(deal), maxPositions,
    status: o.status, positions: o.positions, elapsedMs: o.elapsedMs,
    moveCount: won ? o.moveCount : null, line: won ? o.line : null,
    classicScore: won ? o.classicScore : null, revealScore: won ? o.revealScore : null,
    peakBytes: o.peakBytes, error: null, solverVersion: o.solverVersion,
  };
}

/** The record of a deal whose worker failed (threw, died, ran out of memory): status `error`. */
export function recordFromError(deal: PlannedDeal, maxPositions: number, message: string, solverVersion: string): ResultRecord {
  return {
    code: deal.key, game: deal.game, suits: deal.suits, ...sourceFields(deal), maxPositions,
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
  readonly maxPositions: number;
}

/** Result filter of report and export: by game and suit counts (absent = all). */
export interface ResultFilter {
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

/** Outcome of a run, as stored in `runs.status`. */
export type RunStatus = 'running' | 'done' | 'interrupted' | 'failed';

function nowIso(): string {
  return new Date().toISOString();
}

/** The results database. Open with `ResultStore.openForWriting` or `ResultStore.openForReading`. */
export class ResultStore {
  /** Path as given. */
  readonly path: string;
  readonly #db: Database.Database | null;
  /** Opened for writing and not yet switched to WAL mode (done at the first write). */
  #walPending: boolean;

  /** Device and inode of the file a writing connection opened (see `fileAtPath`). */
  readonly #ident: { dev: number; ino: number } | null;

  private constructor(path: string, db: Database.Database | null, walPending = false) {
    this.path = path;
    this.#db = db;
    this.#walPending = walPending;
    const st = db && !db.readonly ? statOrNull(path) : null;
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
   * `bad-file` naming the file.
   */
  static openForWriting(path: string): ResultStore {
    if (path.trim() === '') throw new InputError('bad-file', 'database "": the file name is empty');
    const state = inspectDatabaseFile(path);
    const dir = dirname(path);
    if (state.kind === 'absent') {
      const file = fileInTheWay(path);
      if (file !== null) {
        throw new InputError('bad-file', `database ${path}: ${file === dir ? `${dir} is not a directory` : `cannot create directory ${dir} (${file} is not a directory)`}`);
      }
      try {
        makeDirs(dir);
      } catch (e) {
        throw new InputError('bad-file', `database ${path}: cannot create directory ${dir} (${oneLine(e)})`);
      }
      try {
        accessSync(dir, constants.W_OK);
      } catch {
        throw new InputError('bad-file', `database ${path}: cannot create it, directory ${dir} is not writable`);
      }
    } else {
      for (const [what, p] of [[`directory ${dir}`, dir], ['the file', path]] as const) {
        try {
          accessSync(p, constants.W_OK);
        } catch {
          throw new InputError('bad-file', `database ${path}: cannot write to it, ${what} is read-only`);
        }
      }
    }
    let db: Database.Database | undefined;
    try {
      db = new Database(path);
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db);
      return new ResultStore(path, db, true);
    } catch (e) {
      db?.close();
      if (e instanceof InputError) throw e;
      const kind = storageFaultKind(e);
      if (kind !== null) {
        // not bad input: the disk failed (exit 1, see faults.ts)
        const what = kind === 'full' ? 'the disk is full' : 'the disk reported an I/O error';
        throw new FileFault(path, `database ${path}: ${what} while opening it (${oneLine(e)}); nothing was run and every result it held is kept; ${kind === 'full' ? 'free some space' : 'check the disk'}, then run the same command again`);
      }
      throw new InputError('bad-file', `database ${path}: cannot open it for writing (${oneLine(e)})`);
    }
  }

  /**
   * Opens for report and export: read-only when the schema is current (an older schema is migrated
   * first). Throws InputError `bad-file` when there is no file, or as openForWriting for a bad one.
   * An empty file gives a store with no results.
   */
  static openForReading(path: string): ResultStore {
    if (path.trim() === '') throw new InputError('bad-file', 'database "": the file name is empty');
    const state = inspectDatabaseFile(path);
    if (state.kind === 'absent') {
      const file = fileInTheWay(path);
      if (file !== null) throw new InputError('bad-file', `database ${path}: ${file} is not a directory`);
      throw new InputError('bad-file', `database ${path}: no such file (run spidersolve batch first, or give --db)`);
    }
    if (state.kind === 'fresh') return new ResultStore(path, null);
    if (state.version < SCHEMA_VERSION) {
      ResultStore.openForWriting(path).close();
    }
    try {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      return new ResultStore(path, db);
    } catch (e) {
      throw new InputError('bad-file', `database ${path}: cannot open it (${oneLine(e)})`);
    }
  }

  /** The connection of a store opened for writing (not on an empty file for reading). */
  #conn(): Database.Database {
    if (!this.#db) throw new Error('ResultStore: opened on an empty file for reading');
    return this.#db;
  }

  /** The connection, for a write: WAL mode is switched on before the first. */
  #w(): Database.Database {
    const db = this.#conn();
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
    if (!db?.open) return;
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
    this.#conn().prepare('VACUUM INTO ?').run(dest);
  }

  /**
   * Keys (`results.code`) already settled — won, lost or undecided — for this budget and solver
   * version. Errors are not settled: they are run again.
   */
  settledKeys(maxPositions: number, solverVersion: string): Set<string> {
    if (!this.#db) return new Set();
    const stmt = this.#db
      .prepare("SELECT code FROM results WHERE max_positions = ? AND solver_version = ? AND status <> 'error'")
      .pluck();
    return new Set(stmt.all(maxPositions, solverVersion) as string[]);
  }

  /**
   * The id of study `name`, created with `params` if new. Throws InputError `bad-option` if the
   * name exists with other parameters (naming both), so one name never mixes two designs.
   */
  ensureStudy(name: string, params: StudyParams): number {
    const json = JSON.stringify({ game: params.game, suits: params.suits, deals: params.dealsSpec, maxPositions: params.maxPositions });
    const find = (db: Database.Database): number | undefined => {
      const row = db.prepare('SELECT id, params FROM studies WHERE name = ?').get(name) as { id: number; params: string } | undefined;
      if (row && row.params !== json) {
        throw new InputError('bad-option', `study "${name}" exists in ${this.path} with other parameters (${row.params}); this run has ${json}; choose another --study name`);
      }
      return row?.id;
    };
    // a clash is refused before anything is written
    find(this.#conn());
    const db = this.#w();
    return db.transaction(() => {
      const id = find(db);
      if (id !== undefined) return id;
      const info = db
        .prepare('INSERT INTO studies (name, game, suits, deals_spec, max_positions, params, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(name, params.game, params.suits, params.dealsSpec, params.maxPositions, json, nowIso());
      return Number(info.lastInsertRowid);
    }).immediate();
  }

  /** Records the start of a run (status `running`); returns its id. */
  startRun(studyId: number, r: { workers: number; solverVersion: string; planned: number; skipped: number }): number {
    const info = this.#w()
      .prepare("INSERT INTO runs (study_id, started_at, workers, solver_version, status, planned, skipped) VALUES (?, ?, ?, ?, 'running', ?, ?)")
      .run(studyId, nowIso(), r.workers, r.solverVersion, r.planned, r.skipped);
    return Number(info.lastInsertRowid);
  }

  /** Sets a run's final status and finish time. */
  finishRun(runId: number, status: Exclude<RunStatus, 'running'>): void {
    this.#w().prepare('UPDATE runs SET status = ?, finished_at = ? WHERE id = ?').run(status, nowIso(), runId);
  }

  /**
   * Writes results in one transaction and counts them on the run. A new (code, budget, version)
   * row is inserted; an existing `error` row is replaced; an existing settled row is kept (so two
   * processes racing on one deal store it once). Returns the number of rows inserted or replaced.
   */
  writeResults(runId: number | null, records: readonly ResultRecord[]): number {
    if (records.length === 0) return 0;
    const db = this.#w();
    const upsert = db.prepare(`
      INSERT INTO results (code, game, suits, source_kind, seed, pysol_game, pysol_number, file_path, max_positions,
        status, positions, elapsed_ms, move_count, line, classic_score, reveal_score, peak_bytes, error, solver_version,
        run_id, created_at)
      VALUES (@code, @game, @suits, @sourceKind, @seed, @pysolGame, @pysolNumber, @filePath, @maxPositions,
        @status, @positions, @elapsedMs, @moveCount, @line, @classicScore, @revealScore, @peakBytes, @error, @solverVersion,
        @runId, @createdAt)
      ON CONFLICT (code, max_positions, solver_version) DO UPDATE SET
        game = excluded.game, suits = excluded.suits, source_kind = excluded.source_kind, seed = excluded.seed,
        pysol_game = excluded.pysol_game, pysol_number = excluded.pysol_number, file_path = excluded.file_path,
        status = excluded.status, positions = excluded.positions, elapsed_ms = excluded.elapsed_ms,
        move_count = excluded.move_count, line = excluded.line, classic_score = excluded.classic_score,
        reveal_score = excluded.reveal_score, peak_bytes = excluded.peak_bytes, error = excluded.error,
        run_id = excluded.run_id, created_at = excluded.created_at
      WHERE results.status = 'error'`);
    const bump = db.prepare('UPDATE runs SET completed = completed + ?, errors = errors + ? WHERE id = ?');
    return db.transaction(() => {
      const createdAt = nowIso();
      let changed = 0;
      let errors = 0;
      for (const r of records) {
        const info = upsert.run({ ...r, runId, createdAt });
        if (info.changes > 0) {
          changed++;
          if (r.status === 'error') errors++;
        }
      }
      if (runId !== null) bump.run(changed, errors, runId);
      return changed;
    }).immediate();
  }

  /**
   * Report inputs of the given keys for one budget and solver version (keys with no stored row are
   * left out). Used for the report of one study's deal list.
   */
  reportInputsFor(keys: Iterable<string>, maxPositions: number, solverVersion: string): ReportInput[] {
    if (!this.#db) return [];
    const stmt = this.#db.prepare(
      'SELECT game, suits, max_positions AS budget, solver_version AS solverVersion, status, positions, elapsed_ms AS elapsedMs FROM results WHERE code = ? AND max_positions = ? AND solver_version = ?',
    );
    const out: ReportInput[] = [];
    this.#db.transaction(() => {
      for (const k of keys) {
        const row = stmt.get(k, maxPositions, solverVersion) as ReportInput | undefined;
        if (row) out.push(row);
      }
    })();
    return out;
  }

  /**
   * The most useful stored outcome of one deal (its `results.code` key) for viewing it: a won row with
   * its line (the current solver version first, then the largest budget), else a lost row (a proof holds
   * at any budget), else null. Undecided and error rows are never returned. Used by `view --solve`.
   */
  storedOutcome(key: string, solverVersion: string): StoredOutcome | null {
    if (!this.#db) return null;
    const row = this.#db
      .prepare(
        `SELECT status, line, positions, max_positions AS maxPositions, solver_version AS solverVersion FROM results
         WHERE code = ? AND (status = 'lost' OR (status = 'won' AND line IS NOT NULL))
         ORDER BY status = 'won' DESC, solver_version = ? DESC, max_positions DESC, solver_version DESC LIMIT 1`,
      )
      .get(key, solverVersion) as StoredOutcome | undefined;
    return row ?? null;
  }

  #where(f: ResultFilter): { sql: string; args: (string | number)[] } {
    const parts: string[] = [];
    const args: (string | number)[] = [];
    if (f.game) {
      parts.push('game = ?');
      args.push(f.game);
    }
    if (f.suits && f.suits.length) {
      parts.push(`suits IN (${f.suits.map(() => '?').join(', ')})`);
      args.push(...f.suits);
    }
    return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args };
  }

  /** Report rows over every stored result passing the filter (streamed; see report.ts). */
  report(filter: ResultFilter = {}): ReportRow[] {
    const acc = new ReportAccumulator();
    if (!this.#db) return acc.rows();
    const w = this.#where(filter);
    const stmt = this.#db.prepare(
      `SELECT game, suits, max_positions AS budget, solver_version AS solverVersion, status, positions, elapsed_ms AS elapsedMs FROM results ${w.sql}`,
    );
    for (const r of stmt.iterate(...w.args)) acc.add(r as ReportInput);
    return acc.rows();
  }

  /**
   * The effort of every won deal passing the filter (positions, search time, winning-line length),
   * streamed in no particular order: what the report's charts need beyond the report rows.
   */
  *wonEffort(filter: ResultFilter = {}): IterableIterator<WonEffort> {
    if (!this.#db) return;
    const w = this.#where(filter);
    const stmt = this.#db.prepare(
      `SELECT game, suits, max_positions AS budget, solver_version AS solverVersion, positions, elapsed_ms AS elapsedMs, move_count AS moveCount FROM results ${w.sql ? `${w.sql} AND` : 'WHERE'} status = 'won'`,
    );
    yield* stmt.iterate(...w.args) as IterableIterator<WonEffort>;
  }

  /**
   * Every stored result passing the filter, ordered by game, suits, budget, solver version, then
   * source (seeds numerically) and code. Streamed: do not write to this store while iterating.
   */
  *rows(filter: ResultFilter = {}): IterableIterator<StoredRow> {
    if (!this.#db) return;
    const w = this.#where(filter);
    const stmt = this.#db.prepare(
      `SELECT ${SELECT_COLUMNS} FROM results ${w.sql} ORDER BY game, suits, max_positions, solver_version, source_kind, seed, pysol_game, pysol_number, code`,
    );
    yield* stmt.iterate(...w.args) as IterableIterator<StoredRow>;
  }
}
