/**
 * Opening a results database: for a batch or a merge (created if absent, its schema migrated,
 * schema.ts) and for report and export (read-only where the schema is current). Every refusal is a
 * one-line InputError `bad-file` naming the file, or a FileFault when the disk or another program is
 * at fault (faults.ts); a file is refused untouched.
 */
import { accessSync, constants, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { InputError, pathForMessage } from '../game/errors.js';
import { damagedDatabaseMessage, FileFault, isBusyDatabase, isDamagedDatabase, noteDatabase, oneLine, storageFaultKind } from './faults.js';
import { databaseFiles, fileInTheWay, makeDirs, statOrNull } from './files.js';
import { checkSchema, inspectDatabaseFile, migrate, SCHEMA_VERSION } from './schema.js';

/** Default database path, relative to the working directory. */
export const DEFAULT_DB_PATH = 'data/results.sqlite';

/** How long a write waits for another process's lock before failing, milliseconds. */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * Removes `path` and its SQLite journal if they are empty files (0 bytes): what opening a new database
 * leaves when it fails before the first page is written (a full disk). Anything with content is
 * left alone.
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

/**
 * The connection of ResultStore.openForWriting, for a batch or a merge (creating the file and its
 * directory if needed): busy timeout, schema migrated to SCHEMA_VERSION, still in the file's journal
 * mode (the store switches to WAL at the first write, so that a run refused before it writes leaves
 * an existing file as it was). A foreign, unreadable or newer file is refused untouched, and an
 * unwritable place is refused, each with a one-line InputError `bad-file` naming the file; a lock
 * held too long or a failing disk is a FileFault. `busyTimeoutMs`: how long a statement waits for a
 * lock another connection holds (default BUSY_TIMEOUT_MS).
 */
export function openWritingConnection(path: string, busyTimeoutMs = BUSY_TIMEOUT_MS): Database.Database {
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
    return db;
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
 * The connection of ResultStore.openForReading, for report and export: read-only when the schema is
 * current (an older schema is migrated first). Throws InputError `bad-file` when there is no file,
 * when it is empty (0 bytes, or an SQLite database without tables: a new database only to a batch,
 * which sets it up; merge refuses such an input alike), or as openForWriting for a bad one. Nothing
 * is written to an empty file.
 */
export function openReadingConnection(path: string): Database.Database {
  const state = inspectDatabaseFile(path);
  if (state.kind === 'absent') {
    const file = fileInTheWay(path);
    if (file !== null) throw new InputError('bad-file', `database ${pathForMessage(path)}: ${file} is not a directory`);
    throw new InputError('bad-file', `database ${pathForMessage(path)}: no such file (run spidersolve batch first, or give --db)`);
  }
  if (state.kind === 'fresh') throw new InputError('bad-file', `database ${pathForMessage(path)}: an empty file, not a spidersolve results database; left untouched (run spidersolve batch first, or give another --db)`);
  if (state.version < SCHEMA_VERSION) {
    openWritingConnection(path).close();
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
    // be written: SQLite must make the -shm to read it, and fails at the first read ("attempt to
    // write a readonly database")
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
  return db;
}
