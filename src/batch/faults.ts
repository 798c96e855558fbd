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
