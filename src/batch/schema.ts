/**
 * The results database: its schema as an ordered list of migrations, the marker that tells our files
 * from foreign ones, and the checks made before a file is opened for writing.
 *
 * Versioning: `PRAGMA user_version` holds the schema version (the number of migrations applied);
 * `PRAGMA application_id` holds `APPLICATION_ID`, our marker. Opening applies the missing migrations
 * in order, all in one transaction. A file is refused, untouched, when it is not an SQLite database,
 * when it is an SQLite database with tables but without our marker (someone else's), or when its
 * schema version is newer than this program knows.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { InputError, pathForMessage } from '../game/errors.js';
import { SQLITE_MAGIC, sqliteSidecarOf, statOrNull } from './files.js';
import { oneLine } from './faults.js';
import { migrateToV2 } from './migrate2.js';

/** Our marker in `PRAGMA application_id`: the bytes "SpSo" (0x5370536F). */
export const APPLICATION_ID = 0x5370536f;

/** One step of the schema: applied when the file's `user_version` is below `version`. */
export interface Migration {
  /** Schema version after this step: 1, 2, … without gaps. */
  readonly version: number;
  /** One line for docs/commands.md and for people reading the code. */
  readonly description: string;
  /** SQL run inside the migration transaction. */
  readonly sql: string;
  /**
   * Optional JS step run after `sql`, in the same transaction (with foreign-key checks off, as SQLite
   * requires for rebuilding a table): for a backfill SQL cannot compute, such as a deal's identity.
   */
  readonly run?: (db: Database.Database) => void;
}

/** Every migration, oldest first. Append only: never edit a released step, add a new one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'studies, runs and per-deal results',
    sql: `
      CREATE TABLE studies (
        id            INTEGER PRIMARY KEY,
        name          TEXT NOT NULL UNIQUE,
        game          TEXT,                 -- 'spider' | 'spiderette'; NULL when a deals file mixes games
        suits         TEXT,                 -- suit counts, e.g. '1,2,4'; NULL when not restricted
        deals_spec    TEXT NOT NULL,        -- 'seeds:1-1000' or 'file:/absolute/path'
        max_positions INTEGER NOT NULL,     -- position budget of every deal of the study
        params        TEXT NOT NULL,        -- all of the above as canonical JSON (compared on re-run)
        created_at    TEXT NOT NULL         -- ISO 8601 UTC
      );
      CREATE TABLE runs (
        id             INTEGER PRIMARY KEY,
        study_id       INTEGER NOT NULL REFERENCES studies(id),
        started_at     TEXT NOT NULL,
        finished_at    TEXT,                -- NULL while running, or if the process was killed
        workers        INTEGER NOT NULL,
        solver_version TEXT NOT NULL,
        status         TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed')),
        planned        INTEGER NOT NULL,    -- deals in the study's list
        skipped        INTEGER NOT NULL,    -- of those, already settled when the run started
        completed      INTEGER NOT NULL DEFAULT 0, -- results this run wrote (errors included)
        errors         INTEGER NOT NULL DEFAULT 0  -- of those, errors
      );
      CREATE TABLE results (
        id             INTEGER PRIMARY KEY,
        code           TEXT NOT NULL,       -- deal code; 'POS:<tag><suits>:<hash>' for a mid-game position
        game           TEXT NOT NULL CHECK (game IN ('spider', 'spiderette')),
        suits          INTEGER NOT NULL CHECK (suits IN (1, 2, 4)),
        source_kind    TEXT NOT NULL CHECK (source_kind IN ('seed', 'pysol', 'code', 'file')),
        seed           INTEGER,             -- source_kind 'seed'
        pysol_game     TEXT,                -- source_kind 'pysol': 'spider', 'spider2', 'spider1', 'spiderette'
        pysol_number   INTEGER,             -- source_kind 'pysol'
        file_path      TEXT,                -- source_kind 'file' (absolute)
        max_positions  INTEGER NOT NULL,    -- the budget
        status         TEXT NOT NULL CHECK (status IN ('won', 'lost', 'undecided', 'error')),
        positions      INTEGER,             -- distinct positions stored; NULL for errors
        elapsed_ms     REAL,                -- in-worker search time; NULL for errors
        move_count     INTEGER,             -- won only: moves of the line, deals included (R16)
        line           TEXT,                -- won only: the moves, space-separated
        classic_score  INTEGER,             -- won only (R16)
        reveal_score   INTEGER,             -- won only (R17)
        peak_bytes     INTEGER,
        error          TEXT,                -- status 'error' only: the message
        solver_version TEXT NOT NULL,
        run_id         INTEGER REFERENCES runs(id),
        created_at     TEXT NOT NULL,       -- ISO 8601 UTC
        UNIQUE (code, max_positions, solver_version)
      );
      CREATE INDEX results_by_group ON results (game, suits, max_positions, solver_version, status);
    `,
  },
  {
    version: 2,
    description: 'one deal one key (results keyed by the deal\'s cards), the names a deal was reached by, the deals each study counts, budget ladders, run liveness (pid, host, heartbeat; status abandoned)',
    // Natural keys, independent of integer ids (what `merge` matches rows by):
    //   studies       name
    //   runs          uid (a random UUID written when the run starts)
    //   results       (deal, max_positions, solver_version)
    //   deal_names    (deal, name)
    //   study_deals   (study name via study_id, deal)
    // `deal` is the deal's identity: the explicit deal code of its start position (SP4X-…, whatever
    // named it: a seeded code, pysol:…, a position file), or POS:<tag><suits>:<hash> for a mid-game
    // position (deals.ts dealIdentity).
    sql: `
      ALTER TABLE studies ADD COLUMN budgets TEXT;      -- the ladder, e.g. '1000000,4000000' (NULL in v1 rows: max_positions alone)
      ALTER TABLE studies ADD COLUMN until_width REAL;  -- the stopping rule's width, or NULL
      ALTER TABLE studies ADD COLUMN planned INTEGER;   -- deals in the plan; NULL when open-ended (seeds N-)
      ALTER TABLE studies ADD COLUMN stopped_at INTEGER; -- --until-width: deals counted when the band became narrow enough
      CREATE TABLE runs_v2 (
        id             INTEGER PRIMARY KEY,
        uid            TEXT NOT NULL UNIQUE, -- random UUID: the run's key across databases
        study_id       INTEGER NOT NULL REFERENCES studies(id),
        started_at     TEXT NOT NULL,
        finished_at    TEXT,                -- NULL while running; set when done, interrupted, failed or found abandoned
        workers        INTEGER NOT NULL,
        solver_version TEXT NOT NULL,
        status         TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed', 'abandoned')),
        planned        INTEGER NOT NULL,
        skipped        INTEGER NOT NULL,
        completed      INTEGER NOT NULL DEFAULT 0,
        errors         INTEGER NOT NULL DEFAULT 0,
        pid            INTEGER,             -- process id of the batch (NULL for v1 runs)
        host           TEXT,                -- os.hostname() of that process
        heartbeat_at   TEXT,                -- last sign of life, ISO 8601 UTC (refreshed every few seconds)
        note           TEXT                 -- why it stopped (e.g. the --until-width rule), or NULL
      );
      INSERT INTO runs_v2 (id, uid, study_id, started_at, finished_at, workers, solver_version, status, planned, skipped, completed, errors)
        SELECT id, lower(hex(randomblob(16))), study_id, started_at, finished_at, workers, solver_version,
               CASE status WHEN 'running' THEN 'abandoned' ELSE status END, planned, skipped, completed, errors FROM runs;
      CREATE TABLE results_v2 (
        id             INTEGER PRIMARY KEY,
        deal           TEXT NOT NULL,       -- the deal's identity (see above)
        code           TEXT NOT NULL,       -- the name it was first stored under: deal code, or POS:… for a mid-game position
        game           TEXT NOT NULL CHECK (game IN ('spider', 'spiderette')),
        suits          INTEGER NOT NULL CHECK (suits IN (1, 2, 4)),
        source_kind    TEXT NOT NULL CHECK (source_kind IN ('seed', 'pysol', 'code', 'file')),
        seed           INTEGER,
        pysol_game     TEXT,
        pysol_number   INTEGER,
        file_path      TEXT,
        max_positions  INTEGER NOT NULL,
        status         TEXT NOT NULL CHECK (status IN ('won', 'lost', 'undecided', 'error')),
        positions      INTEGER,
        elapsed_ms     REAL,
        move_count     INTEGER,
        line           TEXT,                -- won only: the moves in spidersolve's column numbering
        classic_score  INTEGER,
        reveal_score   INTEGER,
        peak_bytes     INTEGER,
        error          TEXT,
        solver_version TEXT NOT NULL,
        run_id         INTEGER REFERENCES runs(id),
        created_at     TEXT NOT NULL,
        UNIQUE (deal, max_positions, solver_version)
      );
      CREATE TABLE deal_names (
        deal TEXT NOT NULL,                 -- the deal's identity
        name TEXT NOT NULL,                 -- a name it was reached by: SP2-7, pysol:spider2:5, file:/abs/path, an explicit code
        UNIQUE (deal, name)
      );
      CREATE INDEX deal_names_by_name ON deal_names (name);
      CREATE TABLE study_deals (
        study_id INTEGER NOT NULL REFERENCES studies(id),
        deal     TEXT NOT NULL,             -- the deal's identity
        ord      INTEGER NOT NULL,          -- its place in the study's plan (0-based)
        name     TEXT NOT NULL,             -- the name the study reached it by
        UNIQUE (study_id, deal)
      );
      CREATE INDEX study_deals_by_deal ON study_deals (deal);
    `,
    run: migrateToV2,
  },
  {
    version: 3,
    description: 'blind studies: a study may name a blind player (canonical spec) and its seed; blind games in blind_results, one per (deal, player, player seed, version)',
    // Natural key of blind_results: (deal, player, player_seed, version). A study with `player` set is
    // a blind study: it counts its deals' blind_results of that player and seed, never `results`.
    // Existing rows are untouched (player NULL: a solve study), so a database's solve studies report alike.
    sql: `
      ALTER TABLE studies ADD COLUMN player TEXT;          -- canonical player spec (src/blind players/index.ts specText), NULL for a solve study
      ALTER TABLE studies ADD COLUMN player_seed INTEGER;  -- the player's seed, NULL for a solve study
      CREATE TABLE blind_results (
        id             INTEGER PRIMARY KEY,
        deal           TEXT NOT NULL,       -- the deal's identity (as results.deal)
        code           TEXT NOT NULL,       -- the name it was first stored under
        game           TEXT NOT NULL CHECK (game IN ('spider', 'spiderette')),
        suits          INTEGER NOT NULL CHECK (suits IN (1, 2, 4)),
        source_kind    TEXT NOT NULL CHECK (source_kind IN ('seed', 'pysol', 'code', 'file')),
        seed           INTEGER,
        pysol_game     TEXT,
        pysol_number   INTEGER,
        file_path      TEXT,
        player         TEXT NOT NULL,       -- canonical player spec, e.g. 'greedy', 'sample:k=8,budget=20000,plan=prefix,escalate=2,hop=0'
        player_seed    INTEGER NOT NULL,    -- the player's own random seed
        version        TEXT NOT NULL,       -- blind version: 'blind-<players' version>/solver-<solver version>'
        status         TEXT NOT NULL CHECK (status IN ('won', 'stuck', 'error')),
        completed      INTEGER,             -- suits completed at the end (8 of 8 when won); NULL for errors
        move_count     INTEGER,             -- moves played, deals included; NULL for errors
        line           TEXT,                -- the moves played, space-separated (spidersolve's numbering); '' for none
        solves         INTEGER,             -- perfect-information solves the player ran
        positions      INTEGER,             -- positions those solves stored
        cpu_ms         REAL,                -- in-worker time of the game, milliseconds (one thread: its CPU time)
        error          TEXT,                -- status 'error' only: the message
        run_id         INTEGER REFERENCES runs(id),
        created_at     TEXT NOT NULL,
        UNIQUE (deal, player, player_seed, version)
      );
      CREATE INDEX blind_results_by_group ON blind_results (game, suits, player, player_seed, version, status);
    `,
  },
];

/** Schema version this program writes and reads: the last migration's. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** What `inspectDatabaseFile` found. */
export type DatabaseFileState =
  /** No file at the path. */
  | { kind: 'absent' }
  /** An empty file or an SQLite database with no tables and no marker: ours to initialise. */
  | { kind: 'fresh' }
  /**
   * One of ours, at `version` (≤ SCHEMA_VERSION); `walMode`: its header says WAL mode (bytes 18 and
   * 19 are 2), as a file a killed batch left is.
   */
  | { kind: 'ours'; version: number; walMode: boolean };

/**
 * Looks at a database file without changing it or creating anything beside it: the header bytes
 * (magic, application id, schema version, schema cookie) decide, and a read-only connection is opened
 * only for a file whose newest state may be in its -wal file (one that exists already).
 * Throws InputError `bad-file`, one line naming the file, when the name is empty (or only spaces),
 * the path is a directory or another database's -wal, -shm or -journal file (sqliteSidecarOf), the
 * file is not an SQLite database, is someone else's database, has a
 * schema newer than SCHEMA_VERSION, or cannot be read.
 */
export function inspectDatabaseFile(path: string): DatabaseFileState {
  // every database path passes here (--db, merge's inputs and --into): an empty name is said so alike
  if (path.trim() === '') throw new InputError('bad-file', `database ${pathForMessage(path)}: the file name is empty`);
  // `results/`: a folder's name, not a file's (SQLite would create the file `results`, which the
  // same path then does not find for reading)
  if (/[\\/]$/.test(path)) throw new InputError('bad-file', `database ${pathForMessage(path)}: ends in /, so it names a folder; give a file name (such as ${pathForMessage(`${path}results.sqlite`)})`);
  // another database's -wal, -shm or -journal file (SQLite deletes or rewrites it: results there are lost)
  const owner = sqliteSidecarOf(path);
  if (owner !== null) throw new InputError('bad-file', `database ${pathForMessage(path)}: is a file SQLite keeps beside the database ${pathForMessage(owner)} (and deletes); left untouched: give a database's own path`);
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new InputError('bad-file', `database ${pathForMessage(path)}: is a directory`);
    // /dev/null, a FIFO, a terminal: reads as empty, keeps nothing
    if (!st.isFile()) throw new InputError('bad-file', `database ${pathForMessage(path)}: not a regular file (a device, pipe or socket cannot hold a database); give a file path`);
    size = st.size;
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
    throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot read it (${oneLine(e)})`);
  }
  if (size === 0) return { kind: 'fresh' };
  const head = Buffer.alloc(100);
  let got: number;
  try {
    const fd = openSync(path, 'r');
    try {
      got = readSync(fd, head, 0, 100, 0);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot read it (${oneLine(e)})`);
  }
  if (head.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) {
    throw new InputError('bad-file', `database ${pathForMessage(path)}: not an SQLite database; left untouched (use another --db path)`);
  }
  if (got < 100) throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot read it as SQLite (the header is cut short at ${got} bytes); left untouched`);
  // Decided from the header where it can be: opening a WAL-mode file, even read-only, creates its
  // -wal and -shm files beside it, which a refused file must not get. The header (page 1) is written
  // whole by each checkpoint, so in the main file it shows the state of some committed transaction.
  const headerAppId = head.readUInt32BE(68);
  const headerVersion = head.readUInt32BE(60);
  const schemaCookie = head.readUInt32BE(40); // 0 until a table (or any schema object) is created
  const walExists = statOrNull(`${path}-wal`) !== null;
  const walMode = head[18] === 2 && head[19] === 2;
  if (headerAppId !== APPLICATION_ID) {
    // our marker is set in the transaction that creates our tables: a file with a schema and no marker
    // in its header is someone else's, whatever its -wal holds
    if (schemaCookie !== 0 || headerVersion !== 0 || headerAppId !== 0) {
      throw new InputError('bad-file', `database ${pathForMessage(path)}: an SQLite database that is not a spidersolve results database; left untouched (use another --db path)`);
    }
    // a blank header and no -wal: an empty database, ours to initialise
    if (!walExists) return { kind: 'fresh' };
    // a blank header with a -wal (a batch killed before its first checkpoint): only the WAL can say
  } else if (!walExists) {
    if (headerVersion > SCHEMA_VERSION) {
      throw new InputError('bad-file', `database ${pathForMessage(path)}: schema version ${headerVersion} is newer than this spidersolve knows (${SCHEMA_VERSION}); upgrade spidersolve`);
    }
    return { kind: 'ours', version: headerVersion, walMode };
  }
  let appId: number;
  let version: number;
  let tables: number;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      appId = db.pragma('application_id', { simple: true }) as number;
      version = db.pragma('user_version', { simple: true }) as number;
      tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch (e) {
    const why = oneLine(e);
    if (/readonly|read-only/i.test(why)) {
      // a WAL-mode file (left by a killed batch) in a place where its -shm file cannot be created
      throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot open it read-only (${why}); it was left in WAL mode, so its directory must be writable`);
    }
    throw new InputError('bad-file', `database ${pathForMessage(path)}: cannot read it as SQLite (${why}); left untouched`);
  }
  if ((appId >>> 0) !== APPLICATION_ID) {
    if (tables === 0 && version === 0 && appId === 0) return { kind: 'fresh' };
    throw new InputError('bad-file', `database ${pathForMessage(path)}: an SQLite database that is not a spidersolve results database; left untouched (use another --db path)`);
  }
  if (version > SCHEMA_VERSION) {
    throw new InputError('bad-file', `database ${pathForMessage(path)}: schema version ${version} is newer than this spidersolve knows (${SCHEMA_VERSION}); upgrade spidersolve`);
  }
  return { kind: 'ours', version, walMode };
}

/**
 * Applies the migrations the open database lacks, in order, in one transaction, and sets the marker.
 * Returns the number of migrations applied. The caller has checked the file with inspectDatabaseFile.
 */
export function migrate(db: Database.Database): number {
  if (!MIGRATIONS.some((m) => m.version > (db.pragma('user_version', { simple: true }) as number))) return 0;
  // rebuilding a table (a migration's JS step) needs foreign-key checks off; they are checked at the end
  const fk = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    // The version is read again inside the write transaction: two processes opening a new file at once
    // both see version 0 outside it, and only the first to take the lock may apply the migrations.
    return db.transaction(() => {
      const current = db.pragma('user_version', { simple: true }) as number;
      const todo = MIGRATIONS.filter((m) => m.version > current);
      for (const m of todo) {
        db.exec(m.sql);
        m.run?.(db);
        db.pragma(`user_version = ${m.version}`);
      }
      if (todo.length === 0) return 0;
      const bad = db.pragma('foreign_key_check') as unknown[];
      if (bad.length > 0) throw new Error(`migration left ${bad.length} broken references`);
      db.pragma(`application_id = ${APPLICATION_ID | 0}`);
      return todo.length;
    }).immediate();
  } finally {
    if (fk) db.pragma('foreign_keys = ON');
  }
}

/** Per table of the current schema, its column names (built once, from MIGRATIONS on an empty database). */
let expectedTables: Map<string, string[]> | null = null;

/** The tables (not SQLite's own) of an open database and their column names. */
function tablesOf(db: Database.Database): Map<string, string[]> {
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  return new Map(names.map((n) => [n, (db.pragma(`table_info("${n.replace(/"/g, '""')}")`) as { name: string }[]).map((c) => c.name)]));
}

/**
 * What the open database `db` at SCHEMA_VERSION lacks of its schema: `table deal_names is missing`,
 * `column positions of table results is missing`, or null when it has every table and column (more
 * are allowed). A file whose table was dropped by hand passes the header checks; without this check
 * it would fail later as an internal error, after a batch had written a study and a run to it.
 */
export function missingSchema(db: Database.Database): string | null {
  if (expectedTables === null) {
    const mem = new Database(':memory:');
    try {
      migrate(mem);
      expectedTables = tablesOf(mem);
    } finally {
      mem.close();
    }
  }
  const have = tablesOf(db);
  for (const [table, columns] of expectedTables) {
    const got = have.get(table);
    if (!got) return `table ${table} is missing`;
    const lost = columns.filter((c) => !got.includes(c));
    if (lost.length) return `column${lost.length > 1 ? 's' : ''} ${lost.join(', ')} of table ${table} ${lost.length > 1 ? 'are' : 'is'} missing`;
  }
  return null;
}

/**
 * Refuses (InputError `bad-file`) a database at SCHEMA_VERSION that lacks a table or column of it
 * (missingSchema): `database FILE: is damaged (table deal_names is missing); left untouched;
 * restore it from a copy`. Runs before anything is written.
 */
export function checkSchema(db: Database.Database, path: string): void {
  const missing = missingSchema(db);
  if (missing !== null) throw new InputError('bad-file', `database ${pathForMessage(path)}: is damaged (${missing}); left untouched; restore it from a copy`);
}
