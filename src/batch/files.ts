/**
 * Directory creation for the files spidersolve writes (the database, `--out` files).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

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
