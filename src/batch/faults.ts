/**
 * Faults of the files a command works on that are neither bad input nor a defect of the program: the
 * disk is full, the disk reports an I/O error, the database file was deleted or replaced while a batch
 * wrote it. main.ts prints the message as it is (`spidersolve: <message>`, one line, no "internal
 * error") and exits 1.
 */

/** A fault of a file (see the module comment); `message` is one line for the user. */
export class FileFault extends Error {
  /** The file concerned. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.name = 'FileFault';
    this.path = path;
  }
}

/**
 * What kind of storage fault an error from SQLite or the file system is: `full` (SQLITE_FULL,
 * ENOSPC, EDQUOT), `io` (SQLITE_IOERR*, EIO), or null for anything else.
 */
export function storageFaultKind(e: unknown): 'full' | 'io' | null {
  const code = typeof e === 'object' && e !== null ? String((e as { code?: unknown }).code ?? '') : '';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'full';
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'io';
  return null;
}

/**
 * Is `e` SQLite saying that another connection held a database locked past the busy timeout
 * (SQLITE_BUSY…, SQLITE_LOCKED…)? Not a defect: another program (a merge, sqlite3, another batch)
 * had the file.
 */
export function isBusyDatabase(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? String((e as { code?: unknown }).code ?? '') : '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

/** The databases this process has opened, as given (see `damagedDatabaseMessage`). */
const opened: string[] = [];
/** Has this process opened a database for writing (see `databaseFaultMessage`)? */
let openedForWriting = false;

/**
 * Notes that the database at `path` was opened (`writing`: for writing), so that a message about a
 * damaged file can name it, and one about a lock can say whether anything could have been written.
 */
export function noteDatabase(path: string, writing = true): void {
  if (!opened.includes(path)) opened.push(path);
  if (writing) openedForWriting = true;
}

/**
 * Forgets the databases noted by `noteDatabase`, so that the messages of the next command run in this
 * process name only the databases that run opened (main.ts runProgram calls it at the start of each
 * run; the tests run many commands in one process).
 */
export function forgetDatabases(): void {
  opened.length = 0;
  openedForWriting = false;
}

/**
 * Is `e` SQLite saying that a database file is damaged (SQLITE_CORRUPT…, or SQLITE_NOTADB past its
 * first page)? A truncated or overwritten file is bad input, not a defect of the program.
 */
export function isDamagedDatabase(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? String((e as { code?: unknown }).code ?? '') : '';
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/**
 * One line for a damaged database (isDamagedDatabase): `path`, else the database this process
 * opened, or the ones it opened when there were several (merge), SQLite's words, and what to do.
 */
export function damagedDatabaseMessage(e: unknown, path?: string): string {
  const why = e instanceof Error ? e.message : String(e);
  return `${whichDatabase(path, 'is damaged')} (SQLite: ${why}); restore it from a copy (sqlite3's .recover command may save what it still holds)`;
}

/** `database X <what>`: `path`, else the one database this process opened, or the ones it opened. */
function whichDatabase(path: string | undefined, what: string): string {
  if (path !== undefined) return `database ${path} ${what}`;
  if (opened.length === 1) return `database ${opened[0]} ${what}`;
  return opened.length > 1 ? `one of the databases ${opened.join(', ')} ${what}` : `a database ${what}`;
}

/**
 * One line for a database fault that reached a command other than batch (which says more, see
 * runFaults.ts): another program held it locked past the busy timeout (isBusyDatabase), or the disk was
 * full or failed (storageFaultKind). Names the database as damagedDatabaseMessage does; every
 * command writes in transactions, so what it had not finished was rolled back, and a command that
 * only reads (`readOnly`, default: no database of this process was opened for writing: report,
 * export, studies) says it changed nothing.
 */
export function databaseFaultMessage(e: unknown, path?: string, readOnly = !openedForWriting): string {
  const why = e instanceof Error ? e.message : String(e);
  const kind = storageFaultKind(e);
  const undone = readOnly ? 'the command only reads it, so nothing was changed' : 'what the command had not finished was rolled back';
  if (kind === 'full') return `${whichDatabase(path, 'could not be written: the disk is full')} (SQLite: ${why}); ${undone}; free some space, then run it again`;
  if (kind === 'io') return `${whichDatabase(path, readOnly ? 'could not be read: the disk reported an I/O error' : 'could not be written: the disk reported an I/O error')} (SQLite: ${why}); ${undone}; check the disk, then run it again`;
  return `${whichDatabase(path, 'was locked by another program')} for longer than the command waits (SQLite: ${why}); ${undone}; run it again when the other program is done`;
}

/** An error's message on one line (its line breaks and the blanks around them as one space). */
export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/\s*\n\s*/g, ' ').trim();
}
