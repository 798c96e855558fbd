/**
 * Rough edges of the command line, in process: an interrupted batch's partial line names the cause
 * that is true (an unfinished run; shards only for a sharded study), and a blind batch that counted
 * no game says "no results" as a solve batch does; an `--out` name with an extension no form has
 * (`report --out r.pdf`), or one `show` does not write (`show --out s.html`), gets a note on stderr;
 * an HTML page written to a terminal (`view`, `report --format html` with no --out) gets a note too;
 * a deals line naming a position file that is not there says where it looked, and names a file of
 * that name beside the deals file; a batch started while another batch of the same study runs on the
 * same database says so on stderr; default study names of an open seed range (`seeds-1-up`) and of
 * a pipe (`pipe-63`) read well, and studies made under the old names are still resumed; `--quiet`'s
 * help speaks of an interrupted batch only in `batch`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concurrentRunNote } from '../src/batch/runState.js';
import { ResultStore } from '../src/batch/store.js';
import { defaultStudyName, formatBatchSummary, parseBatchOptions } from '../src/cli/batch.js';
import { htmlOnTerminalNote } from '../src/cli/common.js';
import { runInProcess } from './helpers/cli.js';
import { oneDealSummary } from './helpers/summary.js';
import { makeLostDb } from './helpers/db.js';

let dir: string;
let lostDb: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough7-'));
  lostDb = join(dir, 'lost.sqlite');
  makeLostDb(lostDb);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A database with two studies of 20 deals and no result: `whole`, whose one run planned the whole
 * study and was interrupted, and `sharded`, whose one run planned 7 deals (a shard's). Returns the
 * store, open.
 */
function partialStudies(db: string): ResultStore {
  const store = ResultStore.openForWriting(db);
  const whole = store.ensureStudy('whole', { game: 'spiderette', suits: '4', dealsSpec: 'seeds:1-20', maxPositions: 1000, planned: 20 });
  store.finishRun(store.startRun(whole, { workers: 1, solverVersion: '1.0.0', planned: 20, skipped: 0 }), 'interrupted');
  const sharded = store.ensureStudy('sharded', { game: 'spiderette', suits: '4', dealsSpec: 'seeds:21-40', maxPositions: 1000, planned: 20 });
  store.finishRun(store.startRun(sharded, { workers: 1, solverVersion: '1.0.0', planned: 7, skipped: 0 }), 'done');
  return store;
}

describe('an interrupted batch says what is partial', () => {
  it('a run not of a shard: "an unfinished run", no shards named; a shard\'s run keeps both causes', () => {
    const summary = oneDealSummary({ study: 'seeds', planned: 20, ran: 5, won: 5, remaining: 15, counted: 5, interrupted: true });
    expect(formatBatchSummary(summary).trimEnd().split('\n').at(-1)).toBe('study seeds: 5 of 20 planned deals counted (partial: an unfinished run)');
    const shard = { shard: '0/3', index: 0, count: 3, source: '--shard 0/3', deals: 7, studyDeals: 20 };
    expect(formatBatchSummary({ ...summary, planned: 7, remaining: 2 }, 0, shard).trimEnd().split('\n').at(-1))
      .toBe('study seeds: 5 of 20 planned deals counted (partial: missing shards or an unfinished run)');
  });

  it('an interrupted blind batch that counted no game prints "no results", not an empty table', () => {
    const summary = oneDealSummary({
      study: 'b', planned: 20, ran: 0, won: 0, remaining: 20, counted: 0, interrupted: true, report: [], blind: [], player: 'greedy', playerSeed: 1,
    });
    const text = formatBatchSummary(summary);
    expect(text).toContain('\n\nno results\nstudy b: 0 of 20 planned deals counted (partial: an unfinished run)\n');
    expect(text).not.toContain('blind win rate');
    // the solve batch's form, for comparison
    expect(formatBatchSummary({ ...summary, blind: undefined })).toContain('\n\nno results\nstudy b: 0 of 20 planned deals counted (partial: an unfinished run)\n');
  });

  it('report: a study whose runs each planned the whole study is an unfinished run; one with a shard\'s run may miss shards', async () => {
    const db = join(dir, 'partial.sqlite');
    const store = partialStudies(db);
    expect(store.studies().map((s) => [s.name, s.sharded])).toEqual([['whole', false], ['sharded', true]]);
    store.close();
    const r = await runInProcess(['report', '--db', db]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('no results\n' +
      'study whole: 0 of 20 planned deals counted (partial: an unfinished run)\n' +
      'study sharded: 0 of 20 planned deals counted (partial: missing shards or an unfinished run)\n');
  });

  it('merge says the same of each study it merged: an unfinished run, or missing shards for a sharded study; its JSON is as before', async () => {
    const db = join(dir, 'partial-m.sqlite');
    partialStudies(db).close();
    const r = await runInProcess(['merge', '--into', join(dir, 'merged.sqlite'), db]);
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      '  study whole: 0 of 20 planned deals counted (partial: an unfinished run)',
      '  study sharded: 0 of 20 planned deals counted (partial: missing shards or an unfinished run)',
    ]);
    const j = await runInProcess(['merge', '--into', join(dir, 'merged2.sqlite'), db, '--json']);
    expect((JSON.parse(j.stdout) as { studies: unknown[] }).studies).toEqual([
      { name: 'whole', planned: 20, counted: 0, stoppedAt: null, unfinished: 0, untilWidth: null, partial: true },
      { name: 'sharded', planned: 20, counted: 0, stoppedAt: null, unfinished: 0, untilWidth: null, partial: true },
    ]);
  });
});

describe('--out with an extension no form has, or one the command does not write: a note, the file written', () => {
  /** The stderr lines of a run, the last (the "wrote" line) left out. */
  const notes = (stderr: string): string[] => stderr.trimEnd().split('\n').slice(0, -1);

  it('report --out r.pdf: the text table, with a note that .pdf names no form (and .txt fits)', async () => {
    const out = join(dir, 'r.pdf');
    const r = await runInProcess(['report', '--db', lostDb, '--out', out]);
    expect([r.status, notes(r.stderr)]).toEqual([0, [`spidersolve: note: ${out} holds the text table, though its extension .pdf names no form spidersolve writes (.txt fits it)`]]);
    expect(readFileSync(out, 'utf8')).toMatch(/^study +game +suits/);
    // --quiet drops it with the rest
    const q = await runInProcess(['report', '--db', lostDb, '--out', join(dir, 'q.pdf'), '--quiet']);
    expect([q.status, q.stderr]).toEqual([0, '']);
  });

  it('show SE4-7 --out s.html: text, with a note that the name says an HTML page; .pos for a position file; .txt and .json none', async () => {
    const html = join(dir, 's.html');
    const r = await runInProcess(['show', 'SE4-7', '--out', html]);
    expect([r.status, notes(r.stderr)]).toEqual([0, [`spidersolve: note: ${html} holds text, though its extension says an HTML page`]]);
    expect(readFileSync(html, 'utf8')).toMatch(/^deal SE4-7 /);
    const pos = join(dir, 's.pos');
    const p = await runInProcess(['show', 'SE4-7', '--format', 'position', '--out', pos]);
    expect([p.status, notes(p.stderr)]).toEqual([0, [`spidersolve: note: ${pos} holds a position file (text form), though its extension .pos names no form spidersolve writes (.txt fits it)`]]);
    for (const [name, format] of [['a.txt', 'text'], ['b.json', 'json'], ['c.txt', 'position'], ['d.json', 'position-json'], ['e', 'text']]) {
      const ok = await runInProcess(['show', 'SE4-7', '--format', format!, '--out', join(dir, name!)]);
      expect([ok.status, notes(ok.stderr)]).toEqual([0, []]);
    }
    const q = await runInProcess(['show', 'SE4-7', '--out', join(dir, 'q.html'), '--quiet']);
    expect([q.status, q.stderr]).toEqual([0, '']);
  });

  it('export --out e.tsv and view --out v.xhtml: a note naming the extensions that fit', async () => {
    const tsv = join(dir, 'e.tsv');
    const e = await runInProcess(['export', '--db', lostDb, '--out', tsv]);
    expect([e.status, notes(e.stderr)]).toEqual([0, [`spidersolve: note: ${tsv} holds CSV, though its extension .tsv names no form spidersolve writes (.csv or .txt fit it)`]]);
    expect(readFileSync(tsv, 'utf8')).toMatch(/^study,name,/);
    const xhtml = join(dir, 'v.xhtml');
    const v = await runInProcess(['view', 'SE4-7', '--out', xhtml]);
    expect([v.status, notes(v.stderr)]).toEqual([0, [`spidersolve: note: ${xhtml} holds an HTML page, though its extension .xhtml names no form spidersolve writes (.html or .htm fit it)`]]);
  });
});

describe('an HTML page written to a terminal: a note on stderr, the page on stdout all the same', () => {
  it('the note is given when stdout is a terminal, not to a pipe or a file, nor with --quiet', () => {
    expect(htmlOnTerminalNote(true, 14_237)).toBe('spidersolve: note: that was an HTML page (14 KB), for a browser; give --out FILE.html to write it to a file\n');
    expect(htmlOnTerminalNote(true, 330_000)).toContain('(322 KB)');
    expect(htmlOnTerminalNote(true, 100)).toContain('(1 KB)');
    expect(htmlOnTerminalNote(false, 14_237)).toBeNull();
    expect(htmlOnTerminalNote(undefined, 14_237)).toBeNull();
    expect(htmlOnTerminalNote(true, 14_237, true)).toBeNull();
  });

  it('view and report --format html to a pipe (as scripts run them): the page on stdout, no note', async () => {
    const v = await runInProcess(['view', 'SE4-7']);
    expect([v.status, v.stderr]).toEqual([0, '']);
    expect(v.stdout).toMatch(/^<!doctype html>/i);
    const r = await runInProcess(['report', '--db', lostDb, '--format', 'html']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^<!doctype html>/i);
  });
});

describe('a deals line naming a position file that is not there', () => {
  it('says the working folder it was looked for in, and names the file of that name beside the deals file', async () => {
    const work = join(dir, 'work');
    mkdirSync(join(work, 'trial'), { recursive: true });
    const pos = await runInProcess(['show', 'SE4-7', '--format', 'position']);
    writeFileSync(join(work, 'trial', 'se4-7.txt'), pos.stdout);
    writeFileSync(join(work, 'trial', 'deals.txt'), 'SE4-1\nSE4-2\nSE4-3\nse4-7.txt\n');
    const r = await runInProcess(['batch', '--deals', 'trial/deals.txt', '--db', join(dir, 'deals.sqlite')], { cwd: work });
    expect([r.status, r.stdout, r.stderr]).toEqual([2, '', 'spidersolve: --deals trial/deals.txt: 1 bad line (4), nothing was run: line 4: position file se4-7.txt: ' +
      `no such file in ${work} (the working folder; paths in a deals file are read from there), and not a deal code or pysol:GAME:N; there is one beside the deals file: trial/se4-7.txt\n`]);
    // a file with that line alone is a deals file gone wrong, not "not a deals file"
    writeFileSync(join(work, 'trial', 'one.txt'), 'se4-7.txt\n');
    const one = await runInProcess(['batch', '--deals', 'trial/one.txt', '--db', join(dir, 'deals.sqlite')], { cwd: work });
    expect([one.status, one.stderr]).toEqual([2, 'spidersolve: --deals trial/one.txt: 1 bad line (1), nothing was run: line 1: position file se4-7.txt: ' +
      `no such file in ${work} (the working folder; paths in a deals file are read from there), and not a deal code or pysol:GAME:N; there is one beside the deals file: trial/se4-7.txt\n`]);
  });

  it('with no such file beside it either: where it looked, nothing more; the path read from the working folder still works', async () => {
    const work = join(dir, 'work2');
    mkdirSync(join(work, 'trial'), { recursive: true });
    writeFileSync(join(work, 'trial', 'deals.txt'), 'SE4-1\nmissing.txt\n');
    const r = await runInProcess(['batch', '--deals', 'trial/deals.txt', '--db', join(dir, 'deals2.sqlite')], { cwd: work });
    expect([r.status, r.stderr]).toEqual([2, 'spidersolve: --deals trial/deals.txt: 1 bad line (2), nothing was run: line 2: position file missing.txt: ' +
      `no such file in ${work} (the working folder; paths in a deals file are read from there), and not a deal code or pysol:GAME:N\n`]);
  });
});

describe('two batches of one study at once on one database', () => {
  const NOTE = /^spidersolve: note: another batch of study "spiderette-1-seeds-1-2-at-100-positions" is running on this database \(process \d+ on [^,]+, last heartbeat \d+ s ago\); both go on: each result is stored once, but the same deals may be solved twice \(stop one to save the work\)$/m;

  it('the second is told, on stderr, while the first is alive; not once it has ended; nothing else changes', async () => {
    const db = join(dir, 'twice.sqlite');
    const args = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--max-positions', '100', '--workers', '1', '--db', db];
    const first = await runInProcess(args);
    expect([first.status, first.stderr]).toEqual([0, '']);
    // a run of the study marked running, by a process that is alive (this one), its heartbeat now
    const store = ResultStore.openForWriting(db);
    const ro = new Database(db, { readonly: true });
    const id = ro.prepare('SELECT id FROM studies').pluck().get() as number;
    ro.close();
    const running = store.startRun(id, { workers: 1, solverVersion: 'x', planned: 2, skipped: 0 });
    store.close();
    const second = await runInProcess(args);
    expect(second.status).toBe(0);
    expect(second.stderr).toMatch(NOTE);
    expect(second.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(second.stdout).toContain('deals 2: 2 already settled');
    // --quiet drops it
    expect((await runInProcess([...args, '--quiet'])).stderr).toBe('');
    // that run ended: no note
    const again = ResultStore.openForWriting(db);
    again.finishRun(running, 'interrupted');
    again.close();
    expect((await runInProcess(args)).stderr).toBe('');
  });

  it('the note names the other run\'s process, host and heartbeat; several are counted', () => {
    const now = Date.parse('2026-01-01T00:00:10Z');
    const run = { pid: 4242, host: 'node7', heartbeatAt: '2026-01-01T00:00:07Z', startedAt: '2026-01-01T00:00:00Z' };
    expect(concurrentRunNote('s', [run], now)).toBe('note: another batch of study "s" is running on this database (process 4242 on node7, last heartbeat 3 s ago); ' +
      'both go on: each result is stored once, but the same deals may be solved twice (stop one to save the work)');
    expect(concurrentRunNote('s', [run, { ...run, pid: null, host: null, heartbeatAt: null }], now))
      .toBe('note: 2 other batches of study "s" are running on this database (last heartbeat 10 s ago); all go on: each result is stored once, but the same deals may be solved twice (stop one to save the work)');
    // a blind study's games are played, not solved
    expect(concurrentRunNote('s', [run], now, true)).toContain('but the same deals may be played twice');
  });
});

describe('default study names of an open seed range and of a pipe', () => {
  const base = { db: 'x.sqlite', game: 'spiderette', suits: '1' };

  it('an open range reads `1-up`, not `1-` (which made `seeds-1--at`); its deals spec is unchanged', () => {
    const open = parseBatchOptions({ ...base, seeds: '1-', untilWidth: '0.5' });
    expect(open.study).toBe('spiderette-1-seeds-1-up-at-1M-positions-until-0.5');
    expect(open.studyParams.dealsSpec).toBe('seeds:1-');
    expect(open.legacyStudies).toEqual(['spiderette-1-seeds-1--at-1M-positions-until-0.5', 'spiderette-1-seeds-1--1M-positions-until-0.5']);
    expect(parseBatchOptions({ ...base, seeds: '1-5,100-', untilWidth: '0.1' }).study).toBe('spiderette-1-seeds-1-5,100-up-at-1M-positions-until-0.1');
  });

  it('a study begun under the old name is resumed under it; a new one takes the new name', () => {
    const db = join(dir, 'open-names.sqlite');
    const open = parseBatchOptions({ ...base, db, seeds: '1-', untilWidth: '0.5' });
    expect(defaultStudyName(open)).toBe('spiderette-1-seeds-1-up-at-1M-positions-until-0.5');
    const store = ResultStore.openForWriting(db);
    store.ensureStudy('spiderette-1-seeds-1--at-1M-positions-until-0.5', open.studyParams);
    store.close();
    expect(defaultStudyName(open)).toBe('spiderette-1-seeds-1--at-1M-positions-until-0.5');
    // another design (another width) under its own old name is not that study
    const other = parseBatchOptions({ ...base, db, seeds: '1-', untilWidth: '0.4' });
    expect(defaultStudyName(other)).toBe('spiderette-1-seeds-1-up-at-1M-positions-until-0.4');
  });

  it('--deals <(…) (/dev/fd/63) is named pipe-63, as --deals - is named stdin; its old name 63-… still resumes', () => {
    const pipe = parseBatchOptions({ db: join(dir, 'pipe.sqlite'), deals: '/dev/fd/63' }, process.env, 'SE1-5\n');
    expect(pipe.study).toBe('pipe-63-at-1M-positions');
    expect(pipe.studyParams.dealsSpec).toBe('file:/dev/fd/63');
    expect(pipe.legacyStudies).toEqual(['63-at-1M-positions', '63-1M-positions']);
    expect(parseBatchOptions({ db: 'x.sqlite', deals: '-' }, process.env, 'SE1-5\n').study).toBe('stdin-at-1M-positions');
    const store = ResultStore.openForWriting(pipe.dbPath);
    store.ensureStudy('63-at-1M-positions', pipe.studyParams);
    store.close();
    expect(defaultStudyName(pipe)).toBe('63-at-1M-positions');
  });
});

describe('--help', () => {
  it('--quiet keeps the clause on an interrupted batch in batch\'s help only', async () => {
    const clause = '(the resume line of an interrupted batch is kept)';
    const flat = async (cmd: string) => (await runInProcess([cmd, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(await flat('batch')).toContain(`--quiet print nothing on stderr but errors: no progress, notes or "wrote" line ${clause}`);
    for (const cmd of ['show', 'solve', 'hint', 'view', 'blind', 'report', 'export', 'merge']) {
      const help = await flat(cmd);
      expect([cmd, help.includes('--quiet print nothing on stderr but errors: no progress, notes or "wrote" line'), help.includes(clause)]).toEqual([cmd, true, false]);
    }
  });

  it('export says what it writes in its first line', async () => {
    const help = (await runInProcess(['export', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/^Usage: spidersolve export \[options\] write the studies' results as CSV \(RFC 4180\): one row per study, deal and budget, or the report rows \(--summary\) Options:/);
  });
});
