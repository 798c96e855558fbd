/**
 * Paths of the files spidersolve writes (the database, `--out` files): looking at them, and creating
 * their directories.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync, closeSync, createWriteStream, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync,
  readSync, realpathSync, renameSync, rmSync, statSync, type Stats,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * fs.statSync, or null when the path is absent or cannot be reached (a component above it is not a
 * directory: ENOTDIR).
 */
export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * The nearest ancestor of `path` (its folder, that folder's, …) that exists, if it is not a directory
 * — the file that stands in the way of creating `path` — else null.
 */
export function fileInTheWay(path: string): string | null {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const st = statOrNull(dir);
    if (st) return st.isDirectory() ? null : dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Creates `dir` and its missing parents (as `mkdir -p`), one level at a time from the nearest one
 * that exists. Throws the first level's fs error (ENOENT, EACCES, ENOTDIR…) when one cannot be made.
 * Node's own `mkdirSync(dir, { recursive: true })` never returns under some special file systems
 * (it loops on ENOENT under /proc), which would hang a command given such a path.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (let i = missing.length - 1; i >= 0; i--) mkdirSync(missing[i]!);
}

/** `path` made absolute from `from` (default the working directory) without folding `..` into it. */
function unresolved(path: string, from = process.cwd()): string {
  return isAbsolute(path) ? path : `${from}/${path}`;
}

/**
 * The absolute path of `path` with every symbolic link resolved — also when the path does not exist
 * (yet), or is a link to a file that does not exist: the missing tail is kept as written, and a
 * dangling link is followed to where it points (at most 40 links, as the kernel does). Two paths that
 * name the same file (through links, `..` or a relative form) give the same canonical path, whether
 * or not the file exists.
 */
export function canonicalPath(path: string, hops = 0): string {
  // absolute, but `..` left for the links to resolve, as the kernel does (`link/..` is the folder
  // above the link's target, not the folder holding the link)
  const abs = unresolved(path);
  try {
    // (the native realpath: the JavaScript one folds `..` before it follows the links)
    return realpathSync.native(abs);
  } catch {
    // a missing component, or a dangling link
  }
  let st: Stats | null = null;
  try {
    st = lstatSync(abs);
  } catch {
    // absent
  }
  if (st?.isSymbolicLink() && hops < 40) return canonicalPath(unresolved(readlinkSync(abs), dirname(abs)), hops + 1);
  const parent = dirname(abs);
  if (parent === abs) return abs;
  return join(canonicalPath(parent, hops), basename(abs));
}

/** The files SQLite keeps for a database at `db`: the file, its -wal, -shm and -journal files. */
export function databaseFiles(db: string): string[] {
  const real = canonicalPath(db);
  const out = new Set<string>();
  for (const base of [resolve(db), real]) for (const suffix of ['', '-wal', '-shm', '-journal']) out.add(base + suffix);
  return [...out];
}

/** The 16 bytes every SQLite database file begins with (sqlite.org/fileformat.html), as latin1 text. */
export const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * Does `path` name a regular file that begins as an SQLite database does (its 16-byte header string,
 * sqlite.org/fileformat.html), any program's? False when it is absent, not a regular file, shorter
 * or unreadable. Reads 16 bytes; changes nothing.
 */
export function isSqliteFile(path: string): boolean {
  if (!statOrNull(path)?.isFile()) return false;
  try {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(16);
      return readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === SQLITE_MAGIC;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * The SQLite database whose -wal, -shm or -journal file `path` names — by its own name or, through
 * links, by the file it leads to — when that database exists (isSqliteFile); else null. SQLite keeps
 * those files beside the database and deletes or rewrites them: nothing else may be written there.
 */
export function sqliteSidecarOf(path: string): string | null {
  for (const p of new Set([path, canonicalPath(path)])) {
    const m = /-(wal|shm|journal)$/.exec(p);
    if (m && isSqliteFile(p.slice(0, -m[0].length))) return p.slice(0, -m[0].length);
  }
  return null;
}

/**
 * The first of `files` that `out` names — the same path once links are resolved, or the same file
 * (device and inode: a hard link) — or null when it names none of them. Looks only; creates nothing.
 */
export function sameFileAs(out: string, files: readonly string[]): string | null {
  const outPath = canonicalPath(out);
  const outStat = statOrNull(out);
  for (const f of files) {
    if (canonicalPath(f) === outPath) return f;
    const st = outStat && statOrNull(f);
    if (st && outStat && st.dev === outStat.dev && st.ino === outStat.ino) return f;
  }
  return null;
}

/**
 * Writes a file so that a failed write never leaves half a file where a good one was: the content
 * goes to a temporary file in the same folder (`.<name>.<pid>-<random>.tmp`, the name cut to 50
 * characters when it is over 100 bytes), is flushed to disk,
 * then renamed over `path` in one step. `write` receives the temporary file's stream and resolves
 * when it has written everything (ending the stream, as `pipeline` does). On any failure the
 * temporary file is removed and the error is thrown, its message naming the file written instead of
 * the temporary one; the file at `path` is as it was.
 *
 * A link at `path` is kept: the file it points to is replaced. A path that exists and is not a
 * regular file (a device such as /dev/null, a FIFO) is written directly: it cannot be replaced. An
 * existing file keeps its permission bits. The caller has created the folder.
 */
export async function writeFileAtomically(path: string, write: (out: NodeJS.WritableStream) => Promise<void>): Promise<void> {
  const existing = statOrNull(path);
  if (existing && !existing.isFile()) {
    await write(createWriteStream(path));
    return;
  }
  const target = canonicalPath(path);
  // (a long name is cut in the temporary one, which must fit the 255 bytes a name may have)
  const name = basename(target);
  const tmp = join(dirname(target), `.${Buffer.byteLength(name) > 100 ? name.slice(0, 50) : name}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, 'wx', existing ? existing.mode & 0o7777 : 0o666);
    // the stream closes the descriptor when it is destroyed (autoClose off only keeps it open after
    // the stream finishes, for the fsync)
    const stream = createWriteStream('', { fd, autoClose: false });
    try {
      await write(stream);
      fsyncSync(fd);
    } finally {
      // a write that failed may leave one of the stream's writes in flight: destroy waits for it
      // before it closes the descriptor, which must not be closed under it (the write would land in,
      // or fail on, whatever file reuses the number next). What the stream reports after this is
      // moot: `write` has resolved or failed already.
      stream.on('error', () => {});
      if (!stream.closed) {
        await new Promise<void>((res) => {
          stream.once('close', () => res());
          stream.destroy();
        });
      }
    }
    if (existing) chmodSync(tmp, existing.mode & 0o7777);
    renameSync(tmp, target);
  } catch (e) {
    // in a folder this user cannot enter, removing fails as opening did (EACCES): the error to report
    // is the first one, and no temporary file was made
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing to remove
    }
    // the error names the file written, not the temporary one (a user never sees that name)
    if (e instanceof Error) e.message = e.message.split(tmp).join(target);
    throw e;
  }
}

/** `writeFileAtomically` of a whole text (UTF-8). */
export function writeTextAtomically(path: string, text: string): Promise<void> {
  return writeFileAtomically(path, (out) =>
    new Promise<void>((res, rej) => {
      out.on('error', rej);
      // (end's callback gets the stream's error first, before its 'error' event: a full disk must
      // not read as written)
      out.end(text, (e?: Error | null) => (e ? rej(e) : res()));
    }),
  );
}
