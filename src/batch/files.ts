/**
 * Paths of the files spidersolve writes (the database, `--out` files): looking at them, and creating
 * their directories.
 */
import { existsSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

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
