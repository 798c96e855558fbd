import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../src/game/errors.js';
import type { PlannedDeal } from '../src/batch/deals.js';
import type { WorkerOutcome } from '../src/batch/protocol.js';
import { APPLICATION_ID, inspectDatabaseFile, migrate, MIGRATIONS, SCHEMA_VERSION } from '../src/batch/schema.js';
import { paramsDiff, recordFromError, recordFromOutcome, ResultStore, type StoredRow, type StudyParams } from '../src/batch/store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const deal = (seed: number, suits: 1 | 2 | 4 = 1): PlannedDeal => ({
  key: `SP${suits}-${seed}`, ref: `SP${suits}-${seed}`, game: 'spider', suits, source: { kind: 'seed', seed },
});
const outcome = (key: string, status: WorkerOutcome['status'], positions = 10): WorkerOutcome => ({
  key, status, positions, elapsedMs: 1.5, line: status === 'won' ? 'a b c' : '', moveCount: status === 'won' ? 3 : null,
  classicScore: status === 'won' ? 1297 : null, revealScore: status === 'won' ? 1020 : null, peakBytes: 99,
  solverVersion: '1.0.0', workerMs: 2,
});
const params: StudyParams = { game: 'spider', suits: '1', dealsSpec: 'seeds:1-3', maxPositions: 100 };

/** Asserts that f throws an InputError `bad-file` naming the file, and that the file is unchanged. */
function expectRefusedUntouched(path: string, f: () => unknown, pattern: RegExp): void {
  const before = readFileSync(path);
  const mtime = statSync(path).mtimeMs;
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(InputError);
  expect((caught as InputError).code).toBe('bad-file');
  expect((caught as InputError).message).toContain(path);
  expect((caught as InputError).message).toMatch(pattern);
  expect((caught as InputError).message).not.toContain('\n');
  expect(readFileSync(path).equals(before)).toBe(true);
  expect(statSync(path).mtimeMs).toBe(mtime);
}

describe('schema', () => {
  it('two processes migrating a new file at once: the second, which read version 0 before the first wrote, applies nothing', () => {
    const path = join(dir, 'race.sqlite');
    const first = new Database(path);
    const second = new Database(path);
    // the second connection reads the version, then the first migrates before the second takes the lock
    let raced = false;
    const racing = new Proxy(second, {
      get(target, prop) {
        if (prop !== 'pragma') return Reflect.get(target, prop, target);
        return (sql: string, o?: { simple?: boolean }) => {
          const v = target.pragma(sql, o);
          if (!raced && sql === 'user_version') {
            raced = true;
            expect(migrate(first)).toBe(MIGRATIONS.length);
          }
          return v;
        };
      },
    });
    expect(migrate(racing)).toBe(0);
    expect(raced).toBe(true);
    expect(second.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    first.close();
    second.close();
  });

  it('a new file gets every migration, the marker and WAL mode', () => {
    const path = join(dir, 'sub', 'dir', 'r.sqlite');
    expect(inspectDatabaseFile(path)).toEqual({ kind: 'absent' });
    const store = ResultStore.openForWriting(path);
    store.ensureStudy('st', params); // WAL from the first write on, while a batch writes
    const peek = new Database(path, { readonly: true });
    expect(peek.pragma('journal_mode', { simple: true })).toBe('wal');
    peek.close();
    store.close();
    expect(inspectDatabaseFile(path)).toEqual({ kind: 'ours', version: SCHEMA_VERSION, walMode: false });
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    // a clean close leaves WAL mode: one self-contained file
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(['blind_results', 'deal_names', 'results', 'runs', 'studies', 'study_deals']);
    db.close();
  });

  it('migrations are numbered 1, 2, … without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('re-opening applies nothing and keeps the data', () => {
    const path = join(dir, 'r.sqlite');
    const s = ResultStore.openForWriting(path);
    s.writeResults(null, [recordFromOutcome(deal(1), 100, outcome('SP1-1', 'won'))]);
    s.close();
    const t = ResultStore.openForWriting(path);
    expect([...t.settledKeys(100, '1.0.0')]).toEqual(['SP1-1']);
    t.close();
  });

  it('an empty file and an empty SQLite database are adopted', () => {
    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    expect(inspectDatabaseFile(empty)).toEqual({ kind: 'fresh' });
    ResultStore.openForWriting(empty).close();
    expect(inspectDatabaseFile(empty).kind).toBe('ours');
    const bare = join(dir, 'bare.sqlite');
    new Database(bare).pragma('user_version = 0');
    expect(inspectDatabaseFile(bare)).toEqual({ kind: 'fresh' });
  });

  it('a text file named .sqlite is refused, untouched', () => {
    const path = join(dir, 'x.sqlite');
    writeFileSync(path, 'hello, I am not a database\n');
    expectRefusedUntouched(path, () => ResultStore.openForWriting(path), /not an SQLite database/);
    expectRefusedUntouched(path, () => ResultStore.openForReading(path), /not an SQLite database/);
  });

  it('a foreign SQLite database (other tables, no marker) is refused, untouched', () => {
    const path = join(dir, 'foreign.sqlite');
    const db = new Database(path);
    db.exec('CREATE TABLE results (x TEXT); INSERT INTO results VALUES (1)');
    db.close();
    expectRefusedUntouched(path, () => ResultStore.openForWriting(path), /not a spidersolve results database/);
    expectRefusedUntouched(path, () => ResultStore.openForReading(path), /not a spidersolve results database/);
  });

  it('a newer schema version is refused, untouched', () => {
    const path = join(dir, 'newer.sqlite');
    ResultStore.openForWriting(path).close();
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.pragma('journal_mode = DELETE');
    db.close();
    expectRefusedUntouched(path, () => ResultStore.openForWriting(path), /newer than this spidersolve knows/);
  });

  it('a directory, and a path under a file, give one-line bad-file errors', () => {
    expect(() => ResultStore.openForWriting(dir)).toThrow(/is a directory/);
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    expect(() => ResultStore.openForWriting(join(file, 'r.sqlite'))).toThrow(InputError);
    expect(() => ResultStore.openForWriting(join(file, 'a', 'b', 'r.sqlite'))).toThrow(`database ${join(file, 'a', 'b', 'r.sqlite')}: cannot create directory ${join(file, 'a', 'b')} (${file} is not a directory)`);
    expect(() => ResultStore.openForWriting(join(file, 'r.sqlite'))).toThrow(`database ${join(file, 'r.sqlite')}: ${file} is not a directory`);
    expect(() => ResultStore.openForWriting('')).toThrow('database "": the file name is empty');
    expect(() => ResultStore.openForReading(' ')).toThrow('database " ": the file name is empty');
    expect(() => ResultStore.openForReading(join(file, 'r.sqlite'))).toThrow(`database ${join(file, 'r.sqlite')}: ${file} is not a directory`);
    expect(() => ResultStore.openForReading(join(dir, 'none.sqlite'))).toThrow(/no such file/);
  });

  it.runIf(existsSync('/proc/self'))('a directory that cannot be made under /proc is refused at once (Node\'s recursive mkdir would loop)', () => {
    expect(() => ResultStore.openForWriting('/proc/spidersolve-none/x/r.sqlite')).toThrow(/cannot create directory \/proc\/spidersolve-none\/x \(ENOENT/);
  });
});

/** Every stored row, ordered by its first name. */
function byCode(s: ResultStore): StoredRow[] {
  return [...s.allRows()].sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0));
}

describe('results', () => {
  it('stores every field; line and scores only for won deals', () => {
    const s = ResultStore.openForWriting(join(dir, 'r.sqlite'));
    const pysolDeal: PlannedDeal = { key: 'SP4X-ABC', ref: 'SP4X-ABC', game: 'spider', suits: 4, source: { kind: 'pysol', game: 'spider', number: 7 }, deal: 'SP4X-ABC' };
    const fileDeal: PlannedDeal = { key: 'POS:SE1:0123', ref: '/x/p.json', game: 'spiderette', suits: 1, source: { kind: 'file', path: '/x/p.json' }, deal: 'POS:SE1:0123' };
    s.writeResults(null, [
      recordFromOutcome(deal(1), 100, outcome('SP1-1', 'won')),
      recordFromOutcome(pysolDeal, 100, { ...outcome('SP4X-ABC', 'undecided'), line: 'junk', moveCount: 5 }),
      recordFromError(fileDeal, 100, 'boom', '1.0.0'),
    ]);
    const rows = byCode(s);
    expect(rows.map((r) => r.code)).toEqual(['POS:SE1:0123', 'SP1-1', 'SP4X-ABC']);
    rows.push(rows.shift()!);
    expect(rows[0]!.deal).toMatch(/^SP1X-/); // a seeded deal's identity is the explicit code of its cards
    expect(rows[0]).toMatchObject({
      game: 'spider', suits: 1, sourceKind: 'seed', seed: 1, pysolGame: null, maxPositions: 100, status: 'won',
      positions: 10, elapsedMs: 1.5, moveCount: 3, line: 'a b c', classicScore: 1297, revealScore: 1020, peakBytes: 99,
      error: null, solverVersion: '1.0.0', runId: null,
    });
    expect(rows[1]).toMatchObject({ sourceKind: 'pysol', pysolGame: 'spider', pysolNumber: 7, line: null, moveCount: null });
    expect(rows[2]).toMatchObject({ sourceKind: 'file', filePath: '/x/p.json', status: 'error', error: 'boom', positions: null });
    expect(rows[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    s.close();
  });

  it('an error is replaced by a later result; a settled result is never overwritten', () => {
    const s = ResultStore.openForWriting(join(dir, 'r.sqlite'));
    expect(s.writeResults(null, [recordFromError(deal(1), 100, 'first failure', '1.0.0'), recordFromOutcome(deal(2), 100, outcome('SP1-2', 'lost'))])).toBe(2);
    expect([...s.settledKeys(100, '1.0.0')]).toEqual(['SP1-2']);
    // retry: the error becomes a result, the settled deal is kept as it was
    expect(s.writeResults(null, [recordFromOutcome(deal(1), 100, outcome('SP1-1', 'won')), recordFromOutcome(deal(2), 100, outcome('SP1-2', 'won'))])).toBe(1);
    const rows = byCode(s);
    expect(rows.map((r) => [r.code, r.status, r.error])).toEqual([['SP1-1', 'won', null], ['SP1-2', 'lost', null]]);
    // an error never replaces a settled result either
    expect(s.writeResults(null, [recordFromError(deal(2), 100, 'late', '1.0.0')])).toBe(0);
    s.close();
  });

  it('the key is (deal, budget, solver version)', () => {
    const s = ResultStore.openForWriting(join(dir, 'r.sqlite'));
    s.writeResults(null, [
      recordFromOutcome(deal(1), 100, outcome('SP1-1', 'won')),
      recordFromOutcome(deal(1), 200, outcome('SP1-1', 'won')),
      recordFromOutcome(deal(1), 100, { ...outcome('SP1-1', 'won'), solverVersion: '2.0.0' }),
    ]);
    expect([...s.allRows()]).toHaveLength(3);
    expect([...s.settledKeys(100, '1.0.0')]).toEqual(['SP1-1']);
    expect([...s.settledKeys(300, '1.0.0')]).toEqual([]);
    // the same cards under another name (an explicit code) are the same deal: no new row
    const explicit = byCode(s)[0]!.deal;
    expect(s.writeResults(null, [recordFromOutcome({ key: explicit, ref: explicit, game: 'spider', suits: 1, source: { kind: 'code' } }, 100, outcome(explicit, 'won'))])).toBe(0);
    expect([...s.allRows()]).toHaveLength(3);
    s.close();
  });

  it('a study name typed in another Unicode form (é as one character, or e and a combining accent) names the same study', () => {
    const s = ResultStore.openForWriting(join(dir, 'nfc.sqlite'));
    const decomposed = 'Cafe\u0301';
    const composed = 'Caf\u00e9';
    const id = s.ensureStudy(decomposed, params);
    expect(s.ensureStudy(composed, params)).toBe(id);
    expect(s.matchStudyName(composed)).toBe(decomposed);
    expect(s.studies().map((x) => x.name)).toEqual([decomposed]);
    // an exact name wins over an equivalent one; an unknown name stays as given
    const other = s.ensureStudy(composed + ' 2', params);
    expect(other).not.toBe(id);
    expect(s.matchStudyName('nothing')).toBe('nothing');
    s.close();
  });

  it('runs count what they wrote; studies refuse a name with other parameters', () => {
    const path = join(dir, 'r.sqlite');
    const s = ResultStore.openForWriting(path);
    const id = s.ensureStudy('st', params);
    expect(s.ensureStudy('st', params)).toBe(id);
    expect(() => s.ensureStudy('st', { ...params, maxPositions: 200 })).toThrow(/study "st" exists .* other parameters: budgets \[\d+\] there, \[200\] in this run; choose another --study name \(a new study reuses every result stored for the same deals and budget; report --pool combines studies\)$/);
    expect(paramsDiff('{"game":"spider","untilWidth":null}', '{"game":"spiderette","untilWidth":0.01}')).toBe('game "spider" there, "spiderette" in this run; untilWidth none there, 0.01 in this run');
    expect(paramsDiff('{"game":null,"suits":null}', '{"game":"spiderette","suits":2}')).toBe('game any there, "spiderette" in this run; suits any there, 2 in this run');
    const run = s.startRun(id, { workers: 2, solverVersion: '1.0.0', planned: 3, skipped: 0 });
    s.writeResults(run, [recordFromOutcome(deal(1), 100, outcome('SP1-1', 'won')), recordFromError(deal(2), 100, 'x', '1.0.0')]);
    s.finishRun(run, 'interrupted');
    s.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT status, planned, completed, errors, workers, finished_at IS NOT NULL AS fin FROM runs').get()).toEqual({
      status: 'interrupted', planned: 3, completed: 2, errors: 1, workers: 2, fin: 1,
    });
    db.close();
  });

  it('a run marked abandoned while its process was silent runs again at its next heartbeat, and finishes without the note that it died', () => {
    const path = join(dir, 'revive.sqlite');
    const s = ResultStore.openForWriting(path);
    const run = s.startRun(s.ensureStudy('st', params), { workers: 1, solverVersion: '1.0.0', planned: 3, skipped: 0 });
    const other = new Database(path);
    const died = "UPDATE runs SET status = 'abandoned', finished_at = heartbeat_at, note = 'the process died (killed or crashed); its finished results are kept'";
    const row = () => other.prepare('SELECT status, note, finished_at IS NOT NULL AS fin FROM runs').get();
    // another process took this one for dead (it was stopped, or asleep, past the stale limit)
    other.exec(died);
    s.heartbeat(run);
    expect(row()).toEqual({ status: 'running', note: null, fin: 0 });
    other.exec(died);
    s.finishRun(run, 'done');
    expect(row()).toEqual({ status: 'done', note: null, fin: 1 });
    // a note of the run's own is kept
    other.exec("UPDATE runs SET status = 'running', note = 'stopped by --until-width'");
    s.heartbeat(run, { planned: 3, skipped: 1 });
    s.finishRun(run, 'done');
    expect(row()).toEqual({ status: 'done', note: 'stopped by --until-width', fin: 1 });
    other.close();
    s.close();
  });

  it('report and rows read the deals each study counts, per study, with filters', () => {
    const s = ResultStore.openForWriting(join(dir, 'r.sqlite'));
    const a = s.ensureStudy('a', params);
    const b = s.ensureStudy('b', { ...params, dealsSpec: 'seeds:1' });
    const recs = [
      recordFromOutcome(deal(1, 1), 100, outcome('SP1-1', 'won', 40)),
      recordFromOutcome(deal(2, 1), 100, outcome('SP1-2', 'lost')),
      recordFromOutcome(deal(1, 2), 100, outcome('SP2-1', 'undecided')),
      recordFromOutcome({ ...deal(1, 1), key: 'SE1-1', game: 'spiderette' }, 100, outcome('SE1-1', 'won')),
    ];
    s.writeResults(null, recs, a, recs.map((r, i) => ({ deal: r.deal, ord: i, name: r.code })));
    s.linkDeals(b, [{ deal: recs[0]!.deal, ord: 0, name: 'SP1-1' }]);
    expect(s.report().map((r) => `${r.study} ${r.game}/${r.suits}:${r.deals}`)).toEqual(['a spider/1:2', 'a spider/2:1', 'a spiderette/1:1', 'b spider/1:1']);
    expect(s.report({ game: 'spider', suits: [2] }).map((r) => r.deals)).toEqual([1]);
    expect(s.report({ studies: ['b'] }).map((r) => [r.study, r.won])).toEqual([['b', 1]]);
    expect(s.report({ pool: true, suits: [1], game: 'spider' }).map((r) => [r.study, r.deals])).toEqual([['a + b', 2]]);
    expect([...s.rows({ suits: [1], game: 'spider' })].map((r) => `${r.study}:${r.code}`)).toEqual(['a:SP1-1', 'a:SP1-2', 'b:SP1-1']);
    expect(s.report({ studies: ['a'], suits: [1], game: 'spider' })[0]).toMatchObject({ deals: 2, won: 1, lost: 1, medianPositions: 40 });
    s.close();
    const r = ResultStore.openForReading(join(dir, 'r.sqlite'));
    expect(r.report()[0]!.won).toBe(1);
    expect(r.studies().map((x) => [x.name, x.counted, x.settled])).toEqual([['a', 4, 4], ['b', 1, 1]]);
    r.close();
  });

  it('an empty file, or an SQLite database without tables, is refused for reading, untouched (a batch adopts it)', () => {
    const path = join(dir, 'empty.sqlite');
    writeFileSync(path, '');
    expectRefusedUntouched(path, () => ResultStore.openForReading(path), /: an empty file, not a spidersolve results database; left untouched \(run spidersolve batch first, or give another --db\)$/);
    expect(statSync(path).size).toBe(0);
    const bare = join(dir, 'bare-read.sqlite');
    new Database(bare).pragma('user_version = 0');
    expectRefusedUntouched(bare, () => ResultStore.openForReading(bare), /an empty file, not a spidersolve results database/);
  });
});
