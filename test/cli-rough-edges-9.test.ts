/**
 * Rough edges of the command line, in process: a report that `--game` or `--suits` leaves empty says
 * on stderr what the database (or the studies named) holds instead, in every format; one with no
 * results at all says nothing more. (A deal code with no seed, `SE1`, is in ref.test.ts; a player spec with no colon,
 * `sample k=8`, in blind.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/batch/store.js';
import { runInProcess } from './helpers/cli.js';
import { makeLostDb } from './helpers/db.js';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough9-'));
  db = join(dir, 'lost.sqlite');
  makeLostDb(db);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a report its filter leaves empty says what there is', () => {
  it('--game spiderette on a database of one-suit Spider: "no results", exit 0, and a note naming spider 1 suit', async () => {
    const r = await runInProcess(['report', '--db', db, '--game', 'spiderette']);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'no results\n', 'spidersolve: note: --game spiderette matches no results; the database holds results for spider 1 suit\n']);
  });

  it('--game and --suits together, in JSON too; --study names the study', async () => {
    const r = await runInProcess(['report', '--db', db, '--game', 'spider', '--suits', '4,2', '--json']);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '[]\n', 'spidersolve: note: --game spider --suits 2,4 matches no results; the database holds results for spider 1 suit\n']);
    const s = await runInProcess(['report', '--db', db, '--suits', '2', '--study', 'st']);
    expect(s.stderr).toBe('spidersolve: note: --suits 2 matches no results; the study named holds results for spider 1 suit\n');
  });

  it('the HTML report and its Vega specs say it too', async () => {
    const html = await runInProcess(['report', '--db', db, '--game', 'spiderette', '--format', 'vega']);
    expect([html.status, html.stderr]).toEqual([0, 'spidersolve: note: --game spiderette matches no results; the database holds results for spider 1 suit\n']);
  });

  it('no note under --quiet, none where the filter matches, none for a database with no results at all', async () => {
    expect((await runInProcess(['report', '--db', db, '--game', 'spiderette', '--quiet'])).stderr).toBe('');
    const found = await runInProcess(['report', '--db', db, '--game', 'spider', '--suits', '1']);
    expect([found.status, found.stderr, found.stdout.split('\n')[1]!.split(/\s+/).slice(0, 8)]).toEqual([0, '', ['st', 'spider', '1', '100', '3', '0', '3', '0']]);
    const empty = join(dir, 'empty.sqlite');
    ResultStore.openForWriting(empty).close();
    const e = await runInProcess(['report', '--db', empty, '--game', 'spiderette']);
    expect([e.status, e.stdout, e.stderr]).toEqual([0, 'no results\n', '']);
  });
});
