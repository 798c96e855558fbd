/**
 * Issue #12, "no command may destroy or silently lose results, and every fault says what happened":
 * one test (or more) per item, each failing before its fix; the commands run in-process
 * (test/helpers/cli.ts runInProcess). Slow ones (real batches) are in trust.slow.test.ts.
 */
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planDealsFile, planSeeds } from '../src/batch/deals.js';
import { describeJsonValue, pathForMessage, quoteInput } from '../src/game/errors.js';
import { parseMove } from '../src/game/move.js';
import { loadDeal } from '../src/game/ref.js';
import { formatPosition, parseIntOption } from '../src/cli/common.js';
import { speedText } from '../src/cli/solve.js';
import { databaseFaultMessage, FileFault, isBusyDatabase } from '../src/batch/faults.js';
import { canonicalPath, writeFileAtomically, writeTextAtomically } from '../src/batch/files.js';
import type { ProgressSink } from '../src/batch/progress.js';
import { runBatch, type BatchOptions, type BatchSummary } from '../src/batch/runner.js';
import { ResultStore } from '../src/batch/store.js';
import { checkOutPath, formatBatchSummary } from '../src/cli/batch.js';
import { REPORT_LEGEND } from '../src/report/text.js';
import { expectOneLineError, expectUnchanged, ROOT as ROOT_DIR, runInProcess as cli, snapshot } from './helpers/cli.js';
import { countIn, makeLostDb } from './helpers/db.js';
import { withEnv } from './helpers/env.js';
import { oneDealSummary } from './helpers/summary.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-trust-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('#12.1 --out that names the results database is refused before anything is written', () => {
  it('report and export refuse the database, its -wal and -shm, through links, hard links and .., the files untouched', async () => {
    const sub = join(dir, 'out1');
    mkdirSync(join(sub, 'x'), { recursive: true });
    const db = join(sub, 'a.sqlite');
    makeLostDb(db);
    // a reader holds the file open in WAL mode, so that the -wal and -shm files exist
    const holder = new Database(db);
    holder.pragma('journal_mode = WAL');
    holder.prepare("UPDATE results SET positions = 6 WHERE code = 'SP1-1'").run();
    const files = [db, `${db}-wal`, `${db}-shm`];
    const before = files.map(snapshot);
    symlinkSync('a.sqlite', join(sub, 'link-db'));
    symlinkSync(`${db}-wal`, join(sub, 'link-wal'));
    symlinkSync('a.sqlite-journal', join(sub, 'dangling-journal')); // points at no file (yet)
    linkSync(db, join(sub, 'hard'));
    const outs: [string, RegExp][] = [
      [db, /is the results database .*a\.sqlite; writing there would destroy the results, so nothing was written/],
      [join(sub, 'x', '..', 'a.sqlite'), /is the results database/],
      [`${db}-wal`, /a\.sqlite-wal, a file of the results database/],
      [`${db}-shm`, /a\.sqlite-shm, a file of the results database/],
      [join(sub, 'link-db'), /is the results database/],
      [join(sub, 'link-wal'), /a\.sqlite-wal, a file of the results database/],
      [join(sub, 'dangling-journal'), /a\.sqlite-journal, a file of the results database/],
      [join(sub, 'hard'), /is the results database/],
    ];
    try {
      // each path through the helper both commands use (no process: quick)…
      for (const [out, pattern] of outs) expect(() => checkOutPath(out, db)).toThrow(pattern);
      expect(() => checkOutPath(db, join(sub, 'link-db'))).toThrow(/is the results database/); // --db through a link
      expect(() => checkOutPath(join(sub, 'other.md'), db)).not.toThrow();
      // …and the commands as a user runs them
      const runs = await Promise.all([
        cli(['report', '--db', db, '--out', db]),
        cli(['export', '--csv', '--db', db, '--out', db]),
        cli(['export', '--csv', '--summary', '--db', db, '--out', join(sub, 'link-wal')]),
      ]);
      expectOneLineError(runs[0]!, /^spidersolve: option --out ".*a\.sqlite": is the results database .*a\.sqlite; writing there would destroy the results, so nothing was written: give another file name\n$/);
      expectOneLineError(runs[1]!, /is the results database/);
      expectOneLineError(runs[2]!, /a\.sqlite-wal, a file of the results database/);
      files.forEach((f, i) => expectUnchanged(f, before[i]!));
      expect(readdirSync(sub).sort()).toEqual(['a.sqlite', 'a.sqlite-shm', 'a.sqlite-wal', 'dangling-journal', 'hard', 'link-db', 'link-wal', 'x']);
    } finally {
      holder.close();
    }
    expect(new Database(db, { readonly: true }).prepare('SELECT count(*) FROM results').pluck().get()).toBe(3);
  });

  it('report, export and view refuse an --out that is another SQLite database or one of its files, whoever made it; the files untouched (export --out data/results.sqlite replaced the default database with CSV)', async () => {
    const sub = join(dir, 'out-other');
    mkdirSync(sub);
    const db = join(sub, 'a.sqlite');
    const other = join(sub, 'all.sqlite');
    makeLostDb(db);
    makeLostDb(other);
    const foreign = join(sub, 'foreign.db');
    const f = new Database(foreign);
    f.exec('CREATE TABLE t (x)');
    f.close();
    const wal = join(sub, 'all.sqlite-wal');
    writeFileSync(wal, 'not really a log');
    const files = [other, foreign, wal];
    const before = files.map(snapshot);
    expect(() => checkOutPath(other, db)).toThrow(/^option --out ".*all\.sqlite": is an SQLite database; writing there would destroy it, so nothing was written: give another file name$/);
    expect(() => checkOutPath(foreign, db)).toThrow(/is an SQLite database; writing there would destroy it/);
    expect(() => checkOutPath(wal, db)).toThrow(/^option --out ".*all\.sqlite-wal": is a file of the SQLite database ".*all\.sqlite"; writing there would destroy it/);
    // a file that only starts like one, an empty file and a missing one are fine
    writeFileSync(join(sub, 'short'), 'SQLite format');
    writeFileSync(join(sub, 'empty.sqlite'), '');
    for (const ok of ['short', 'empty.sqlite', 'new.csv', 'new.sqlite-wal']) expect(() => checkOutPath(join(sub, ok), db)).not.toThrow();
    const runs = await Promise.all([
      cli(['export', '--csv', '--db', db, '--out', other]),
      cli(['report', '--db', db, '--out', foreign]),
      cli(['export', '--csv', '--summary', '--db', db, '--out', wal]),
      cli(['view', 'SP1-1', '--out', other]),
    ]);
    expectOneLineError(runs[0]!, /^spidersolve: option --out ".*all\.sqlite": is an SQLite database; writing there would destroy it, so nothing was written: give another file name\n$/);
    expectOneLineError(runs[1]!, /foreign\.db": is an SQLite database/);
    expectOneLineError(runs[2]!, /is a file of the SQLite database/);
    expectOneLineError(runs[3]!, /all\.sqlite": is an SQLite database/);
    files.forEach((file, i) => expectUnchanged(file, before[i]!));
    expect(new Database(other, { readonly: true }).prepare('SELECT count(*) FROM results').pluck().get()).toBe(3);
  });

  it('an --out or a database path that is another database\'s -wal, -shm or -journal file, by name or through a link (also a dangling one), is refused; the files untouched (report --out through a link to a -wal file destroyed that database\'s last commits)', async () => {
    const sub = join(dir, 'out-sidecar');
    mkdirSync(sub);
    const db = join(sub, 'a.sqlite');
    const other = join(sub, 'b.sqlite');
    makeLostDb(db);
    makeLostDb(other);
    writeFileSync(`${other}-wal`, 'a log');
    symlinkSync('b.sqlite-wal', join(sub, 'notes.md'));
    symlinkSync('b.sqlite-journal', join(sub, 'dangling.md')); // no -journal file there
    const files = [other, `${other}-wal`];
    const before = files.map(snapshot);
    for (const out of [join(sub, 'notes.md'), join(sub, 'dangling.md')]) {
      expect(() => checkOutPath(out, db)).toThrow(/is a file of the SQLite database ".*b\.sqlite"; writing there would destroy it/);
    }
    const runs = await Promise.all([
      cli(['report', '--db', db, '--out', join(sub, 'notes.md')]),
      cli(['merge', '--into', `${other}-journal`, db]),
      cli(['batch', '--db', `${other}-wal`, '--game', 'spider', '--suits', '1', '--seeds', '1', '--max-positions', '100']),
      cli(['report', '--db', join(sub, 'dangling.md')]),
    ]);
    expectOneLineError(runs[0]!, /notes\.md": is a file of the SQLite database ".*b\.sqlite"; writing there would destroy it/);
    expectOneLineError(runs[1]!, /^spidersolve: merge: target .*b\.sqlite-journal \(--into\): is a file SQLite keeps beside the database .*b\.sqlite \(and deletes\); left untouched: give a database's own path\n$/);
    expectOneLineError(runs[2]!, /database .*b\.sqlite-wal: is a file SQLite keeps beside the database .*b\.sqlite/);
    expectOneLineError(runs[3]!, /dangling\.md: is a file SQLite keeps beside the database/);
    files.forEach((file, i) => expectUnchanged(file, before[i]!));
    expect(readdirSync(sub).sort()).toEqual(['a.sqlite', 'b.sqlite', 'b.sqlite-wal', 'dangling.md', 'notes.md']);
  });

  it('--out through a linked folder and .. is the file the kernel names (link/.. is above the link\'s target): another database there is refused, and a report goes there', async () => {
    const sub = join(dir, 'out-dotdot');
    const far = join(dir, 'out-dotdot-far');
    mkdirSync(join(far, 'y'), { recursive: true });
    mkdirSync(sub);
    const db = join(sub, 'a.sqlite');
    makeLostDb(db);
    makeLostDb(join(sub, 'victim.sqlite'));
    symlinkSync(join(far, 'y'), join(sub, 'd3'));
    const before = snapshot(join(sub, 'victim.sqlite'));
    // d3/.. is out-dotdot-far, where there is no victim.sqlite: written there, not over the one beside d3
    // (joined by hand: path.join would fold d3/.. away)
    const r = await cli(['report', '--db', db, '--out', `${join(sub, 'd3')}/../victim.sqlite`]);
    expect(r.status).toBe(0);
    expectUnchanged(join(sub, 'victim.sqlite'), before);
    expect(readFileSync(join(far, 'victim.sqlite'), 'utf8')).toMatch(/st/);
    // and a database there is refused
    makeLostDb(join(far, 'other.sqlite'));
    const other = snapshot(join(far, 'other.sqlite'));
    expectOneLineError(await cli(['report', '--db', db, '--out', `${join(sub, 'd3')}/../other.sqlite`]), /other\.sqlite": is an SQLite database/);
    expectUnchanged(join(far, 'other.sqlite'), other);
  });

  it('a temporary file of a long --out name fits the 255 bytes a name may have; a failed write names the file, not the temporary one', async () => {
    const sub = join(dir, 'out-long');
    mkdirSync(sub);
    const long = join(sub, `${'r'.repeat(250)}.md`);
    await writeTextAtomically(long, 'report\n');
    expect(readFileSync(long, 'utf8')).toBe('report\n');
    expect(readdirSync(sub)).toEqual([`${'r'.repeat(250)}.md`]);
    // a folder that is not there (the caller makes it; here none did): the message names the file
    const err = await writeTextAtomically(join(sub, 'missing', 'x.md'), 'x').then(() => null, (e: Error) => e);
    expect(err?.message).toMatch(/^ENOENT: no such file or directory, open '.*out-long\/missing\/x\.md'$/);
  });

  it('reports and exports replace an existing file through a temporary file: no temporary file is left behind', async () => {
    const sub = join(dir, 'out2');
    mkdirSync(sub);
    const db = join(sub, 'r.sqlite');
    makeLostDb(db);
    const md = join(sub, 'r.md');
    const csv = join(sub, 'r.csv');
    // (earlier outputs of the tool: a file it did not write is refused, cli-rough-edges-2.test.ts)
    writeFileSync(md, '| study | game |\n' + 'old report, much longer than the new one '.repeat(100));
    writeFileSync(csv, 'study,old');
    chmodSync(csv, 0o640);
    symlinkSync('r.csv', join(sub, 'link.csv'));
    const [a, b] = await Promise.all([
      cli(['report', '--db', db, '--format', 'md', '--out', md]),
      cli(['export', '--csv', '--db', db, '--out', join(sub, 'link.csv')]),
    ]);
    expect(a).toMatchObject({ status: 0, stdout: '', stderr: `spidersolve: wrote ${md}: Markdown report, 1 row of 1 study\n` });
    expect(b).toMatchObject({ status: 0, stdout: '', stderr: `spidersolve: wrote ${join(sub, 'link.csv')}: CSV, 3 rows (one a study, deal and budget)\n` });
    expect(readFileSync(md, 'utf8')).toMatch(/^\| study \| game \| suits \|[^]*\| st \| spider \| 1 \| 100 \| 3 \|[^]*\n$/);
    expect(readFileSync(md, 'utf8')).not.toContain('old report');
    expect(readFileSync(csv, 'utf8').split('\r\n')).toHaveLength(5);
    expect(statSync(csv).mode & 0o777).toBe(0o640); // the file's permissions are kept
    expect(readdirSync(sub).sort()).toEqual(['link.csv', 'r.csv', 'r.md', 'r.sqlite']); // the link is kept, no .tmp
  });

  it('a write that fails halfway leaves the old file whole and no temporary file', async () => {
    const sub = join(dir, 'out3');
    mkdirSync(sub);
    const target = join(sub, 'keep.csv');
    writeFileSync(target, 'the good old file\n');
    await expect(writeFileAtomically(target, async (out) => {
      out.write('half a new fi');
      await new Promise((r) => setTimeout(r, 10));
      throw new Error('disk went away');
    })).rejects.toThrow('disk went away');
    expect(readFileSync(target, 'utf8')).toBe('the good old file\n');
    expect(readdirSync(sub)).toEqual(['keep.csv']);
    await writeTextAtomically(target, 'new\n');
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(readdirSync(sub)).toEqual(['keep.csv']);
  });

  it('a write that fails with a write still in flight: the next file gets none of it, and nothing crashes', async () => {
    // (the stream's own writes go on after `write` throws: the descriptor must outlive them, or the
    // next file opened, reusing its number, gets their bytes, or they fail with EBADF)
    const sub = join(dir, 'out4');
    mkdirSync(sub);
    for (let n = 0; n < 20; n++) {
      const target = join(sub, `k${n}.csv`);
      writeFileSync(target, 'old\n');
      await expect(writeFileAtomically(target, async (out) => {
        out.write('x'.repeat(1 << 20));
        await new Promise((r) => setTimeout(r, 0));
        throw new Error('disk went away');
      })).rejects.toThrow('disk went away');
      await writeTextAtomically(target, 'new\n');
      expect(readFileSync(target, 'utf8')).toBe('new\n');
    }
    expect(readdirSync(sub).sort()).toEqual(Array.from({ length: 20 }, (_, n) => `k${n}.csv`).sort());
  });

  it('canonicalPath resolves links, .. and missing tails alike', () => {
    const sub = join(dir, 'canon');
    mkdirSync(join(sub, 'real'), { recursive: true });
    symlinkSync('real', join(sub, 'via'));
    symlinkSync(join(sub, 'real', 'nothing-yet'), join(sub, 'dangling'));
    const real = canonicalPath(join(sub, 'real'));
    expect(canonicalPath(join(sub, 'via', 'f.txt'))).toBe(join(real, 'f.txt'));
    expect(canonicalPath(join(sub, 'via', 'missing', '..', 'f.txt'))).toBe(join(real, 'f.txt'));
    expect(canonicalPath(join(sub, 'dangling'))).toBe(join(real, 'nothing-yet'));
    expect(canonicalPath(join(sub, 'via', 'no', 'such', 'dir', 'f'))).toBe(join(real, 'no', 'such', 'dir', 'f'));
  });
});

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

/** Options of a fake batch of Spider 1-suit seeds 1..n (the test worker): a write every 5 results, none on a timer. */
function fakeBatch(db: string, n: number, progress?: ProgressSink): BatchOptions {
  return {
    deals: planSeeds('spider', [1], [{ from: 1, to: n }]),
    maxPositions: 77, workers: 2, dbPath: db, study: `fake-${n}`,
    studyParams: { game: 'spider', suits: '1', dealsSpec: `seeds:1-${n}`, maxPositions: 77 },
    workerFile: TEST_WORKER, flushEvery: 5, flushMs: 60_000, progress,
  };
}

describe('#12.2 a database deleted or replaced while a batch runs', () => {
  const env = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '5' };

  it('deleted: the batch stops with a FileFault, writes nothing at the path and saves every result in a rescued copy', async () => {
    const sub = join(dir, 'gone1');
    mkdirSync(sub);
    const db = join(sub, 'r.sqlite');
    let done = 0;
    const progress: ProgressSink = {
      start() {},
      stop() {},
      update(d) {
        done = d;
        if (d === 12) for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
      },
    };
    const err = await withEnv(env, () => runBatch(fakeBatch(db, 300, progress))).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(FileFault);
    expect((err as Error).message).toMatch(new RegExp(`^database ${db} was deleted \\(or moved away\\) while the batch was writing it; stopped, nothing was written to that path; the \\d+ results of this run, with every result the old file held, are saved in ${db}\\.rescued-\\d{8}T\\d{6}Z\\.sqlite; to go on, move that file back`));
    const files = readdirSync(sub);
    expect(files).toEqual([expect.stringMatching(/^r\.sqlite\.rescued-\d{8}T\d{6}Z\.sqlite$/)]);
    const rescued = join(sub, files[0]!);
    // every result that came back before the stop is in the copy (the deals still running were cancelled)
    expect(done).toBeGreaterThanOrEqual(12);
    expect(done).toBeLessThan(300);
    expect(countIn(rescued)).toBe(done);
    expect((err as Error).message).toContain(`the ${done} results of this run`);
    expect(countIn(rescued, 'SELECT status FROM runs')).toBe('failed');
    // and its study counts them as a stopped run does, every one up to the first place of the plan not
    // done (those written before the stop only, it was): place i is seed i + 1
    const d = new Database(rescued, { readonly: true, fileMustExist: true });
    const stored = new Set(d.prepare('SELECT code FROM results').pluck().all() as string[]);
    const places = d.prepare('SELECT ord FROM study_deals ORDER BY ord').pluck().all() as number[];
    d.close();
    let prefix = 0;
    while (stored.has(`SP1-${prefix + 1}`)) prefix++;
    expect(places).toEqual(Array.from({ length: prefix }, (_, i) => i));
    // the copy is a spidersolve database: a batch resumes from it, running only what is missing
    const resumed = await withEnv(env, () => runBatch({ ...fakeBatch(rescued, 300), progress: undefined }));
    expect(resumed).toMatchObject({ skipped: done, ran: 300 - done, remaining: 0 });
  });

  it('replaced: the new file is left as it is, the results go to the rescued copy', async () => {
    const sub = join(dir, 'gone2');
    mkdirSync(sub);
    const db = join(sub, 'r.sqlite');
    const other = join(sub, 'other.sqlite');
    makeLostDb(other);
    const before = snapshot(other);
    const progress: ProgressSink = {
      start() {},
      stop() {},
      update(d) {
        if (d === 7) renameSync(other, db);
      },
    };
    const err = await withEnv(env, () => runBatch(fakeBatch(db, 300, progress))).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(FileFault);
    expect((err as Error).message).toMatch(/was replaced by another file while the batch was writing it; stopped, nothing was written to the new file; the \d+ results of this run, with every result the old file held, are saved in /);
    expectUnchanged(db, before);
    expect(countIn(db)).toBe(3);
  });

});

describe('#12.5 a full disk or an I/O error while a batch writes', () => {
  it('the disk full while the database is opened (its schema written): a FileFault naming the file, not bad input', () => {
    const db = join(dir, 'full-at-open.sqlite');
    const exec = vi.spyOn(Database.prototype, 'exec').mockImplementation(() => {
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    });
    try {
      expect(() => ResultStore.openForWriting(db)).toThrow(FileFault);
      expect(() => ResultStore.openForWriting(db)).toThrow(`database ${db}: the disk is full while opening it (database or disk is full); nothing was run and every result it held is kept; free some space, then run the same command again`);
      // the new file it could not set up is not left behind, empty (a merge left a 0-byte target)
      expect(existsSync(db)).toBe(false);
    } finally {
      exec.mockRestore();
    }
  });

  it('a lock held too long or a full disk under report or merge: one line naming the database (main.ts), not "internal error"', () => {
    const busy = new Database.SqliteError('database is locked', 'SQLITE_BUSY');
    expect(isBusyDatabase(busy)).toBe(true);
    expect(isBusyDatabase(new Database.SqliteError('database table is locked', 'SQLITE_LOCKED_SHAREDCACHE'))).toBe(true);
    expect(isBusyDatabase(new Database.SqliteError('database or disk is full', 'SQLITE_FULL'))).toBe(false);
    expect(databaseFaultMessage(busy, 'a.sqlite', false)).toBe('database a.sqlite was locked by another program for longer than the command waits (SQLite: database is locked); what the command had not finished was rolled back; run it again when the other program is done');
    expect(databaseFaultMessage(new Database.SqliteError('database or disk is full', 'SQLITE_FULL'), 'a.sqlite', false)).toBe('database a.sqlite could not be written: the disk is full (SQLite: database or disk is full); what the command had not finished was rolled back; free some space, then run it again');
    // a command that only reads (report, export, studies) says it changed nothing, not "rolled back"
    expect(databaseFaultMessage(busy, 'a.sqlite', true)).toBe('database a.sqlite was locked by another program for longer than the command waits (SQLite: database is locked); the command only reads it, so nothing was changed; run it again when the other program is done');
    expect(databaseFaultMessage(new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_READ'), 'a.sqlite', true)).toBe('database a.sqlite could not be read: the disk reported an I/O error (SQLite: disk I/O error); the command only reads it, so nothing was changed; check the disk, then run it again');
  });

  const env = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '2' };

  /** Runs a fake batch whose third write (and, with `finishFails`, the run's final update) fails with `code`. */
  async function failingBatch(name: string, code: string, message: string, finishFails: boolean) {
    const db = join(dir, `${name}.sqlite`);
    const write = ResultStore.prototype.writeResults;
    const finish = ResultStore.prototype.finishRun;
    let calls = 0;
    const w = vi.spyOn(ResultStore.prototype, 'writeResults').mockImplementation(function (this: ResultStore, ...a) {
      if (++calls === 3) throw new Database.SqliteError(message, code);
      return write.apply(this, a);
    });
    const f = vi.spyOn(ResultStore.prototype, 'finishRun').mockImplementation(function (this: ResultStore, ...a) {
      if (finishFails) throw new Database.SqliteError(message, code);
      return finish.apply(this, a);
    });
    try {
      const err = await withEnv(env, () => runBatch(fakeBatch(db, 200))).then(() => null, (e: unknown) => e);
      return { db, err: err as Error };
    } finally {
      w.mockRestore();
      f.mockRestore();
    }
  }

  it('disk full: names the file, says the 10 results written are kept, the run is marked failed, and how to resume', async () => {
    const { db, err } = await failingBatch('full', 'SQLITE_FULL', 'database or disk is full', false);
    expect(err).toBeInstanceOf(FileFault);
    expect(err.message).toBe(`database ${db}: the disk is full (SQLITE_FULL); the batch stopped: every result stored before it is kept (10 of this run); the run is marked failed; free some space, then run the same command again to resume`);
    expect(countIn(db)).toBe(10); // two writes of 5 (flushEvery)
    expect(countIn(db, 'SELECT status FROM runs')).toBe('failed');
  });

  it('I/O error: the same, and says when the run could not be marked failed', async () => {
    const { db, err } = await failingBatch('io', 'SQLITE_IOERR_WRITE', 'disk I/O error', true);
    expect(err).toBeInstanceOf(FileFault);
    expect(err.message).toBe(`database ${db}: the disk reported an I/O error (SQLITE_IOERR_WRITE: disk I/O error); the batch stopped: every result stored before it is kept as far as the disk kept it (10 of this run); the run could not be marked failed: it shows as running, then (once this process has ended) as abandoned; check the disk, then run the same command again to resume`);
    expect(countIn(db)).toBe(10);
  });
});

describe('#12.7 a refused foreign database gets no file created beside it', () => {
  it('a WAL-mode SQLite file of another program: refused from its header, no -wal or -shm made, bytes untouched', async () => {
    const sub = join(dir, 'foreign');
    mkdirSync(sub);
    const db = join(sub, 'theirs.sqlite');
    const d = new Database(db);
    d.pragma('journal_mode = WAL');
    d.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep');");
    d.close(); // a clean close: one file, still marked WAL in its header
    expect(readFileSync(db)[18]).toBe(2);
    expect(readdirSync(sub)).toEqual(['theirs.sqlite']);
    const before = snapshot(db);
    const refused = /^database .*theirs\.sqlite: an SQLite database that is not a spidersolve results database; left untouched \(use another --db path\)$/;
    expect(() => ResultStore.openForWriting(db)).toThrow(refused);
    expect(() => ResultStore.openForReading(db)).toThrow(refused);
    const [b, r] = await Promise.all([
      cli(['batch', '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '77', '--db', db]),
      cli(['report', '--db', db]),
    ]);
    expectOneLineError(b, /not a spidersolve results database; left untouched/);
    expectOneLineError(r, /not a spidersolve results database; left untouched/);
    expect(readdirSync(sub)).toEqual(['theirs.sqlite']);
    expectUnchanged(db, before);
  });

  // (its shared-memory index, -shm, may get a reader's marks: that is how SQLite readers work)
  it('the same while the other program has it open (its -wal and -shm exist): nothing is created, the file and its -wal left as they are', () => {
    const sub = join(dir, 'foreign-open');
    mkdirSync(sub);
    const db = join(sub, 'theirs.sqlite');
    const d = new Database(db);
    try {
      d.pragma('journal_mode = WAL');
      d.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep');");
      const files = [db, `${db}-wal`];
      const before = files.map(snapshot);
      expect(() => ResultStore.openForWriting(db)).toThrow(/not a spidersolve results database/);
      files.forEach((f, i) => expectUnchanged(f, before[i]!));
      expect(readdirSync(sub).sort()).toEqual(['theirs.sqlite', 'theirs.sqlite-shm', 'theirs.sqlite-wal']);
    } finally {
      d.close();
    }
  });

  it('an empty WAL-mode SQLite file is still taken as a fresh database, and one of ours is still ours', () => {
    const sub = join(dir, 'blank-wal');
    mkdirSync(sub);
    const blank = join(sub, 'blank.sqlite');
    const d = new Database(blank);
    d.pragma('journal_mode = WAL');
    d.close();
    const s = ResultStore.openForWriting(blank);
    s.close();
    const ours = join(sub, 'ours.sqlite');
    makeLostDb(ours);
    expect(countIn(ours)).toBe(3);
    const again = ResultStore.openForReading(ours);
    expect(again.report()).toHaveLength(1);
    again.close();
    expect(countIn(blank)).toBe(0);
  });
});

describe('#12.8 a JSON position file nested thousands deep', () => {
  const deep = (n: number) => ({
    'columns.json': `{"columns":[{"faceUp":[${'['.repeat(n)}${']'.repeat(n)}]}]}`,
    'game.json': `{"game":${'['.repeat(n)}${']'.repeat(n)},"columns":[]}`,
    'removed.json': `{"columns":[],"removed":[${'{"a":'.repeat(n)}1${'}'.repeat(n)}]}`,
    'top.json': `${'['.repeat(n)}${']'.repeat(n)}`,
  });

  it('is a one-line error naming the file and the field, not a stack overflow', () => {
    const sub = join(dir, 'deep');
    mkdirSync(sub);
    const expected: Record<string, string> = {
      'columns.json': 'field "columns[0].faceUp[0]": an array (1 item) is not a card; write rank then suit, e.g. "10S"',
      'game.json': 'field "game": an array (1 item) is not "spider" or "spiderette"',
      'removed.json': 'field "removed[0]": an object is not a suit letter (S H D C)',
      'top.json': ': expected a JSON object with a "columns" array',
    };
    for (const [name, text] of Object.entries(deep(20_000))) {
      const path = join(sub, name);
      writeFileSync(path, text);
      const r = loadDeal(path);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toBe(`position file ${path}${expected[name]!.startsWith(':') ? '' : ' '}${expected[name]}`);
    }
  });

  it('batch --deals naming such a file, and show: exit 2, one line', async () => {
    const sub = join(dir, 'deep-cli');
    mkdirSync(sub);
    const file = join(sub, 'deep.json');
    writeFileSync(file, deep(10_000)['columns.json']);
    const deals = join(sub, 'deals.txt');
    writeFileSync(deals, `${file}\n`);
    const [b, s] = await Promise.all([
      cli(['batch', '--deals', deals, '--db', join(sub, 'r.sqlite')]),
      cli(['show', file]),
    ]);
    expectOneLineError(b, /^spidersolve: --deals .*deals\.txt: 1 bad line \(1\), nothing was run: line 1: position file .*deep\.json field "columns\[0\]\.faceUp\[0\]": an array \(1 item\) is not a card/);
    expectOneLineError(s, /^spidersolve: position file .*deep\.json field "columns\[0\]\.faceUp\[0\]": an array \(1 item\) is not a card/);
    expect(readdirSync(sub).sort()).toEqual(['deals.txt', 'deep.json']);
  });
});

describe('#12.9 errors state the fault and quote a short, printable excerpt', () => {
  it('a 100,000-character code, option value, move or file name is cut to its start and end, with its length', () => {
    const code = `SP4X-${'A'.repeat(100_000)}`;
    const r = loadDeal(code);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toBe(`deal code "SP4X-${'A'.repeat(92)}…${'A'.repeat(32)}" (100,005 characters): too long: 100000 characters after "SP4X-", a spider 4-suit code has exactly 120 (115 payload + 5 check)`);
    }
    const path = `Q${'q'.repeat(99_999)}`;
    const f = loadDeal(path);
    expect(f.ok).toBe(false);
    if (!f.ok) expect(f.error.message).toMatch(/^position file "Qq{28}…q{10}" \(100,000 characters\): the name is too long for the file system \(ENAMETOOLONG\)$/);
    expect(() => parseIntOption('max-positions', '9'.repeat(5000), 1, 10)).toThrow(/^option --max-positions "9{29}…9{10}" \(5,000 characters\): must be 1\.\.10$/);
    const m = parseMove(`x${'\u0007'.repeat(3)}${'y'.repeat(500)}`, 7);
    expect(m.ok).toBe(false);
    if (!m.ok) expect(m.error.message).toMatch(/^move "x\?\?\?y{25}…y{10}" \(504 characters\): not a move;/);
    // a whole explicit code is short enough to be quoted whole
    expect(quoteInput(`SP4X-${'1'.repeat(120)}`, 130)).toBe(`"SP4X-${'1'.repeat(120)}"`);
    expect(quoteInput('tab\there\u0000')).toBe('"tab?here?"');
    // invisible format characters: U+202E would reorder the rest of the terminal line
    expect(quoteInput('SP2-1\u202e\u200b\u2066x')).toBe('"SP2-1???x"');
    // and the blank fillers that show as nothing
    expect(quoteInput('SP2-1\u3164\u115f\u034f0')).toBe('"SP2-1???0"');
    expect(pathForMessage('a\u202eb.txt')).toBe('"a?b.txt"');
    // a JSON number out of range reads as Infinity, which JSON writes as null
    expect(describeJsonValue(JSON.parse('1e400'))).toBe('a number out of range');
    expect(describeJsonValue(-0.5)).toBe('-0.5');
  });

  it('a binary deals file is refused as a whole in one short line', async () => {
    const sub = join(dir, 'binary');
    mkdirSync(sub);
    const file = join(sub, 'deals.bin');
    const bytes = Buffer.alloc(3000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 256;
    writeFileSync(file, Buffer.concat([Buffer.from('SE4-1\nSE4-2\n'), bytes]));
    expect(() => planDealsFile(file, loadDeal)).toThrow(/^--deals .*deals\.bin: not a text file \((a zero byte|bytes that are not UTF-8 text) at line 3\); give a text file of deal codes/);
    const r = await cli(['batch', '--deals', file, '--db', join(sub, 'r.sqlite')]);
    expectOneLineError(r, /^spidersolve: --deals .*deals\.bin: not a text file/);
    expect(r.stderr.length).toBeLessThan(300);
  });
});

describe('#12.10 the answer a user would expect, or a clear refusal', () => {
  it('play with an empty line, and show --json --format text, are refused in one line', async () => {
    const [empty, spaces, both, agree] = await Promise.all([
      cli(['play', 'SE4-7', '']),
      cli(['play', 'SE4-7', ' , ']),
      cli(['show', 'SE4-7', '--json', '--format', 'text']),
      cli(['show', 'SE4-7', '--json', '--format', 'json']),
    ]);
    for (const r of [empty, spaces]) expectOneLineError(r, /^spidersolve: play: no moves given \(the line is empty\); give moves such as 5-2 d/);
    expectOneLineError(both, /^spidersolve: options --json and --format "text" ask for different outputs; give one of them\n$/);
    expect(agree.status).toBe(0);
    expect(JSON.parse(agree.stdout)).toMatchObject({ code: 'SE4-7' });
  });

  it('a database path that is a device (/dev/null) is refused, not read as an empty database', () => {
    expect(() => ResultStore.openForReading('/dev/null')).toThrow(/^database \/dev\/null: not a regular file \(a device, pipe or socket cannot hold a database\); give a file path$/);
    expect(() => ResultStore.openForWriting('/dev/null')).toThrow(/not a regular file/);
  });

  it('a solve shorter than a second gives no positions/s figure', () => {
    expect(speedText(65, 30)).toBe('under a second: too short for a positions/s figure');
    expect(speedText(999_999, 999)).toBe('under a second: too short for a positions/s figure');
    expect(speedText(1_500_000, 2500)).toBe('600,000 positions/s');
  });

  it('the removed line counts completed runs: 0 of 8 in two-suit Spider, 0 of 4 in four-suit Spiderette', () => {
    const sp2 = loadDeal('SP2-3');
    const se4 = loadDeal('SE4-7');
    expect(sp2.ok && se4.ok).toBe(true);
    if (sp2.ok && se4.ok) {
      expect(formatPosition(sp2.value.position, false).at(-1)).toBe('removed: none (0 of 8 runs completed)');
      expect(formatPosition(se4.value.position, false).at(-1)).toBe('removed: none (0 of 4 runs completed)');
    }
  });
});

describe('#12.11 the main job reads once, with its columns explained', () => {
  it("the README's first command prints the table once (no cat of the same report) and the batch explains floor, CI, ceiling and p95 under it", () => {
    const readme = readFileSync(join(ROOT_DIR, 'README.md'), 'utf8');
    const first = /```sh\n(npm ci && [^\n]*)\n```/.exec(readme)![1]!;
    expect(first).toBe('npm ci && npx spidersolve batch --deals data/pysol-sample.txt --study pysol-sample && npx spidersolve report --study pysol-sample --format md --out reports/pysol-sample.md');
    const lines = formatBatchSummary(oneDealSummary()).trimEnd().split('\n');
    expect(lines.at(-REPORT_LEGEND.length - 1)).toMatch(/^\s*spider\s+1\s+100\s+1\s+1\s/);
    expect(lines.slice(-REPORT_LEGEND.length)).toEqual([...REPORT_LEGEND]);
    expect(REPORT_LEGEND.join(' ')).toMatch(/floor = won \/ deals.*CI = its 95% Wilson interval.*ceiling = .*95th percentile \(p95\)/);
  });

  it("an interrupted batch's table ends with the line report prints for a partial study", () => {
    const summary = oneDealSummary({ study: 'intr', planned: 200, ran: 13, won: 13, remaining: 187, counted: 13, interrupted: true });
    const lines = formatBatchSummary(summary).trimEnd().split('\n');
    expect(lines.at(-1)).toBe('study intr: 13 of 200 planned deals counted (partial: an unfinished run)');
    expect(formatBatchSummary({ ...summary, interrupted: false, remaining: 0 }).trimEnd().split('\n').at(-1)).toBe(REPORT_LEGEND.at(-1));
  });

  it("a shard's table ends with the line report prints for its database: the shard's deals of the study's plan", () => {
    const shard = { shard: '0/3', index: 0, count: 3, source: '--shard 0/3', deals: 4, studyDeals: 12 };
    const summary = oneDealSummary({ study: 'sh', planned: 4, ran: 4, won: 4, remaining: 0, counted: 4 });
    expect(formatBatchSummary(summary, 0, shard).trimEnd().split('\n').at(-1)).toBe('study sh: 4 of 12 planned deals counted (partial: missing shards or an unfinished run)');
    // one shard of one: the whole study
    expect(formatBatchSummary(summary, 0, { ...shard, shard: '0/1', count: 1, studyDeals: 4 }).trimEnd().split('\n').at(-1)).toBe(REPORT_LEGEND.at(-1));
  });

  it('names a budget of one position in the singular', () => {
    const lines = (o: Partial<BatchSummary>) => formatBatchSummary(oneDealSummary(o)).split('\n');
    expect(lines({ maxPositions: 1, budgets: [1] })).toContain('  budget 1 position, solver 1.0.0, database d.sqlite');
    expect(lines({})).toContain('  budget 100 positions, solver 1.0.0, database d.sqlite');
  });

  it('a batch its --until-width rule stopped says how many deals it solved past the stop (stored, not counted)', () => {
    const summary = oneDealSummary({ study: 'w', planned: 20, ran: 80, won: 60, remaining: 0, counted: 20, pastStop: 60, stopReason: '--until-width 0.6: …' });
    const lines = formatBatchSummary(summary).split('\n');
    // the deals line adds up: 20 counted in the plan, 80 run now of which 60 past the stop
    expect(lines.find((l) => l.startsWith('  deals'))).toMatch(/^  deals 20: 0 already settled, 80 run now \(60 of them past the rule's stop: stored, not counted\) in /);
    expect(lines.find((l) => l.startsWith('  this run'))).toBe('  this run: won 60, lost 0, undecided 0, errors 0');
  });

  it("an interrupted open-ended batch's table ends with the line report prints for it (its rule not met yet)", () => {
    const summary = oneDealSummary({ study: 'open', planned: null, ran: 345, won: 345, remaining: null, counted: 345, interrupted: true, untilWidth: 0.02 });
    expect(formatBatchSummary(summary).trimEnd().split('\n').at(-1)).toBe(
      'study open: 345 deals counted so far, before its --until-width 0.02 rule was met (partial: an open-ended study its rule has not stopped yet; run its batch command again to go on)',
    );
    // stopped by its rule (not interrupted): whole
    expect(formatBatchSummary({ ...summary, interrupted: false, planned: 345, remaining: 0 }).trimEnd().split('\n').at(-1)).toBe(REPORT_LEGEND.at(-1));
  });
});

describe('#12.12 the quick and the slow suite', () => {
  it('npm test skips test/*.slow.test.ts, npm run test:slow runs only them, and CI runs the README line: both', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toBe("vitest run --exclude 'test/**/*.slow.test.ts'");
    expect(pkg.scripts['test:slow']).toBe('vitest run slow.test');
    const ci = readFileSync(join(ROOT_DIR, '.ci/run'), 'utf8');
    expect(ci).toMatch(/\nnpm ci\nnpm run typecheck\nnpm test\nnpm run test:slow\n/);
    expect(readFileSync(join(ROOT_DIR, 'README.md'), 'utf8')).toContain('```sh\nnpm ci && npm test && npm run test:slow\n```');
    // the whole-process, browser and cluster tests are among them
    expect(readdirSync(join(ROOT_DIR, 'test')).filter((f) => f.endsWith('.slow.test.ts'))).toEqual(expect.arrayContaining(['batch-cli-process.slow.test.ts', 'batch-cli.slow.test.ts', 'cli-game.slow.test.ts', 'cluster.slow.test.ts', 'properties.slow.test.ts', 'report-html.slow.test.ts', 'runs.slow.test.ts', 'trust.slow.test.ts', 'view.slow.test.ts']));
  });
});
