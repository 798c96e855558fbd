/**
 * Rough edges of the command line, in process: `export --out` refuses a file named for another
 * format.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './helpers/cli.js';
import { makeLostDb } from './helpers/db.js';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough4-'));
  db = join(dir, 'lost.sqlite');
  makeLostDb(db);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('export --out: a file named for another format is refused', () => {
  it('.json, .md, .markdown, .html, .htm (any case): exit 2, one line, nothing written', async () => {
    const cases: [string, string][] = [
      ['e.json', 'json for JSON'], ['e.md', 'md for Markdown'], ['e.markdown', 'md for Markdown'],
      ['e.html', 'html for HTML'], ['e.htm', 'html for HTML'], ['E.JSON', 'json for JSON'],
    ];
    for (const [name, hint] of cases) {
      const out = join(dir, 'refused', name);
      for (const more of [[], ['--summary']]) {
        const r = await runInProcess(['export', '--db', db, '--out', out, ...more]);
        expect([r.status, r.stdout, r.stderr]).toEqual([
          2, '',
          `spidersolve: option --out "${out}": export writes CSV only; name the file .csv (or give another name), or use spidersolve report --format ${hint}\n`,
        ]);
      }
    }
    expect(existsSync(join(dir, 'refused'))).toBe(false);
  });

  it('.csv, .txt and a name without an extension are written', async () => {
    for (const name of ['e.csv', 'e.txt', 'e']) {
      const out = join(dir, 'taken', name);
      const r = await runInProcess(['export', '--db', db, '--out', out]);
      expect([r.status, r.stdout]).toEqual([0, '']);
      expect(r.stderr).toMatch(new RegExp(`^spidersolve: wrote ${out.replace(/[.\\/]/g, '\\$&')}: CSV, 3 rows `));
    }
    expect(readdirSync(join(dir, 'taken')).sort()).toEqual(['e', 'e.csv', 'e.txt']);
  });
});
