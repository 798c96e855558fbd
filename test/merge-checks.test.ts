/**
 * `merge` checks what it copies (src/batch/verify.ts, src/batch/merge.ts): real shards made by the
 * batch code in-process (one-suit Spiderette at 10,000 positions, the real solver), then damaged by
 * writing bytes into the file (or, for damage SQLite cannot see, values written through SQLite), and
 * merged: a damaged input is refused in one line naming the file and its first bad row, exit 2,
 * nothing of any input merged; a failure while writing leaves the target as it was; a conflict with
 * rows another merge wrote meanwhile merges nothing; a merge with nothing new leaves the target's
 * bytes as they were.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { mergeDatabases } from '../src/batch/merge.js';
import { runBatch } from '../src/batch/runner.js';
import { ResultStore } from '../src/batch/store.js';
import { verifyDatabase } from '../src/batch/verify.js';
import { buildProgram, runProgram } from '../src/cli/main.js';
import { InputError } from '../src/game/errors.js';
import { SOLVER_VERSION } from '../src/solver/types.js';

/** The solver version as a regular expression matches it. */
const V = SOLVER_VERSION.replace(/\./g, '\\.');

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));
const BUDGET = 10_000;

let dir: string;
/** Spiderette one suit, seeds 1-20 at 10,000 positions (all won), as one batch leaves it. */
let shardA: string;
/** The same study's seeds 21-30, another shard's worth. */
let shardB: string;

/** Runs the real solver on one-suit Spiderette seeds `from`-`to` into a new database `name`. */
async function batch(name: string, from: number, to: number): Promise<string> {
  const db = join(dir, name);
  await runBatch({
    deals: planSeeds('spiderette', [1], [{ from, to }]),
    maxPositions: BUDGET,
    workers: 2,
    dbPath: db,
    study: 'se1',
    studyParams: { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-30', maxPositions: BUDGET, planned: 30 },
    workerFile: TEST_WORKER,
  });
  return db;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-merge-checks-'));
  shardA = await batch('a.sqlite', 1, 20);
  shardB = await batch('b.sqlite', 21, 30);
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A copy of `src` at `name` in the test folder. */
function copy(src: string, name: string): string {
  const p = join(dir, name);
  copyFileSync(src, p);
  return p;
}

/** Writes `bytes` into the file at byte `offset`, as a bad disk or a broken transfer does. */
function overwrite(path: string, offset: number, bytes: Buffer): void {
  const b = readFileSync(path);
  bytes.copy(b, offset);
  writeFileSync(path, b);
}

function sha(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function one(path: string, sql: string, ...args: unknown[]): unknown {
  const d = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return d.prepare(sql).pluck().get(...args);
  } finally {
    d.close();
  }
}

/** Runs `sql` on the database at `path` with CHECK constraints off (a value SQLite would refuse, as damage leaves it). */
function tamper(path: string, sql: string, ...args: unknown[]): void {
  const d = new Database(path);
  try {
    d.pragma('ignore_check_constraints = ON');
    d.prepare(sql).run(...args);
    d.pragma('journal_mode = DELETE');
  } finally {
    d.close();
  }
}

/** The message of the InputError `f` throws (fails when it throws anything else, or nothing). */
function refused(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return e.message;
  }
  throw new Error('expected the merge to be refused');
}

/** The merged content that the checks cover, without ids and times, for comparing two databases. */
function content(path: string): unknown[] {
  const d = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return [
      d.prepare('SELECT deal, code, game, suits, source_kind, seed, max_positions, status, positions, move_count, line, classic_score, reveal_score, error, solver_version FROM results ORDER BY deal, max_positions').all(),
      d.prepare('SELECT deal, name FROM deal_names ORDER BY deal, name').all(),
      d.prepare('SELECT s.name AS study, d.deal, d.ord, d.name FROM study_deals d JOIN studies s ON s.id = d.study_id ORDER BY d.ord').all(),
      d.prepare('SELECT name, params, max_positions, planned FROM studies ORDER BY name').all(),
    ];
  } finally {
    d.close();
  }
}

/** Runs the CLI in process with `args`; its exit code, stdout and stderr. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await runProgram(buildProgram(), args);
    return { code, out: out.mock.calls.map((c) => String(c[0])).join(''), err: err.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}

describe('the shards', () => {
  it('are real: 20 and 10 deals, nearly all won, and pass the checks', () => {
    expect(one(shardA, "SELECT group_concat(status || ' ' || n, ', ') FROM (SELECT status, count(*) AS n FROM results GROUP BY status ORDER BY status)")).toBe('undecided 1, won 19');
    expect(one(shardB, "SELECT group_concat(status || ' ' || n, ', ') FROM (SELECT status, count(*) AS n FROM results GROUP BY status ORDER BY status)")).toBe('won 10');
    for (const p of [shardA, shardB]) {
      const d = new Database(p, { readonly: true });
      expect(verifyDatabase(d)).toBeNull();
      d.close();
    }
  });
});

describe('a damaged input is refused before anything of it is copied (exit 2, one line naming the file and its first bad row)', () => {
  it('8 bytes written 10 bytes after the first SE1X- in the file (inside a deal code or an index of them): refused, nothing created', async () => {
    const bad = copy(shardA, 'repro.sqlite');
    // (at every copy of the bytes: a page may keep a stale copy of a cell in its free space, which
    // the file's layout decides)
    const b = readFileSync(bad);
    const at = b.indexOf('SE1X-');
    expect(at).toBeGreaterThan(0);
    for (let i = at; i >= 0; i = b.indexOf('SE1X-', i + 1)) overwrite(bad, i + 10, Buffer.from('QQQQQQQQ'));
    const into = join(dir, 'repro-into.sqlite');
    const r = await cli(['merge', '--into', into, bad]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^spidersolve: merge: input ${bad}: (damaged, refused: .+|the file is damaged \\(SQLite: .+\\)); nothing was written to ${into}; restore it from a copy[^\\n]*\\n$`));
    expect(existsSync(into)).toBe(false);
  });

  it('a won line with a move that does not exist ("9-9"), written over its first bytes: named by its row and move; the good input before it is not merged either', () => {
    const bad = copy(shardA, 'line.sqlite');
    const { id, code, line } = new Database(bad, { readonly: true }).prepare("SELECT id, code, line FROM results WHERE status = 'won' ORDER BY id LIMIT 1 OFFSET 4").get() as { id: number; code: string; line: string };
    // (every copy of the line: a page may keep a stale copy of a cell in its free space)
    const b = readFileSync(bad);
    const at = b.indexOf(line);
    expect(at).toBeGreaterThan(0);
    for (let i = at; i >= 0; i = b.indexOf(line, i + 1)) overwrite(bad, i, Buffer.from('9-9'));
    const into = join(dir, 'line-into.sqlite');
    mergeDatabases(into, [shardB]);
    const before = sha(into);
    const m = refused(() => mergeDatabases(into, [shardB, bad]));
    expect(m).toMatch(new RegExp(
      `^merge: input ${bad}: damaged, refused: results row ${id} \\(deal "${code}" at 10000 positions, solver "${V}"\\): its line does not replay to a win: ` +
        `move "9-9[x\\d]*": column 9 does not exist \\(columns are 1-7\\) \\(move 1 of the line\\); nothing was written to ${into}; restore it from a copy, or leave it out$`,
    ));
    expect(sha(into)).toBe(before);
  });

  it('a deal code whose check characters fail (QQQQ in it), a move count or a score that is not the line\'s, positions over the budget, a status SQLite\'s CHECK would refuse: each named', () => {
    const cases: [string, RegExp][] = [
      ["UPDATE results SET deal = substr(deal, 1, 20) || 'QQQQ' || substr(deal, 25) WHERE id = (SELECT id FROM results WHERE status = 'won' ORDER BY id LIMIT 1 OFFSET 0)", new RegExp(`results row \\d+ \\(deal "SE1-\\d+" at 10000 positions, solver "${V}"\\): deal code "SE1X-\\w+QQQQ\\w+": checksum does not match; the code is mistyped or damaged`)],
      ["UPDATE results SET move_count = move_count + 1 WHERE id = (SELECT id FROM results WHERE status = 'won' ORDER BY id LIMIT 1 OFFSET 1)", /results row \d+ \(deal "SE1-\d+" .*\): its line wins in \d+ moves, but its move count is \d+/],
      ["UPDATE results SET classic_score = 1 WHERE id = (SELECT id FROM results WHERE status = 'won' ORDER BY id LIMIT 1 OFFSET 2)", /results row \d+ .*: its line scores \d+ \(classic\) and \d+ \(reveal\), but its scores are 1 and \d+/],
      ["UPDATE results SET positions = max_positions + 1 WHERE id = (SELECT id FROM results WHERE status = 'won' ORDER BY id LIMIT 1 OFFSET 3)", /results row \d+ .*: 10001 positions at a budget of 10000/],
      ["UPDATE results SET status = 'maybe' WHERE id = (SELECT id FROM results WHERE status = 'won' ORDER BY id LIMIT 1 OFFSET 4)", /results row \d+ .*: its status is "maybe"/],
      ["UPDATE results SET status = 'lost' WHERE id = (SELECT id FROM results WHERE status = 'won' ORDER BY id LIMIT 1 OFFSET 5)", /results row \d+ .*: a lost result with move_count \d+/],
      ["UPDATE study_deals SET deal = replace(deal, 'SE1X-', 'SE2X-') WHERE ord = 2", /study_deals row \d+ \(deal "SE2X-\w+"\): deal code "SE2X-\w+": too short: 43 characters after "SE2X-"/],
    ];
    for (const [sql, want] of cases) {
      const bad = copy(shardA, 'values.sqlite');
      tamper(bad, sql);
      const into = join(dir, 'values-into.sqlite');
      const m = refused(() => mergeDatabases(into, [bad]));
      expect(m).toMatch(new RegExp(`^merge: input ${bad}: damaged, refused: `));
      expect(m).toMatch(want);
      expect(existsSync(into)).toBe(false);
    }
  });

  it('a line the target holds already is not replayed again, but the row\'s move count, scores, game and name are still checked against it', () => {
    const into = join(dir, 'known-into.sqlite');
    mergeDatabases(into, [shardA]);
    const won = "(SELECT id FROM results WHERE status = 'won' ORDER BY id LIMIT 1 OFFSET 2)";
    const cases: [string, RegExp][] = [
      [`UPDATE results SET move_count = move_count + 1, solver_version = '9' WHERE id = ${won}`, /results row \d+ .*: its line has (\d+) moves, but its move count is (\d+)$/],
      [`UPDATE results SET reveal_score = 7, solver_version = '9' WHERE id = ${won}`, /results row \d+ .*: its line scores \d+ \(classic\) and \d+ \(reveal\), but its scores are \d+ and 7$/],
      [`UPDATE results SET suits = 2, solver_version = '9' WHERE id = ${won}`, /results row \d+ .*: it is filed as "spiderette" with 2 suits, but its deal is spiderette with 1$/],
      [`UPDATE results SET code = 'SE1-999', solver_version = '9' WHERE id = ${won}`, /results row \d+ \(deal "SE1-999" .*\): its name "SE1-999" is not a name of its deal$/],
    ];
    for (const [sql, want] of cases) {
      const bad = copy(shardA, 'known.sqlite');
      tamper(bad, sql);
      const before = sha(into);
      const m = refused(() => mergeDatabases(into, [bad]));
      expect(m.replace(/; nothing was written to .*$/, '')).toMatch(want);
      expect(sha(into)).toBe(before);
    }
  });

  it('16 bytes of junk written at 60 places of a shard: each merge either refuses it (exit 2, nothing written) or copies only rows that pass the checks; never another error', async () => {
    const size = readFileSync(shardA).length;
    let refusedCount = 0;
    for (let k = 0; k < 60; k++) {
      const bad = copy(shardA, 'sweep.sqlite');
      const offset = 100 + Math.floor(((size - 116) * k) / 60);
      overwrite(bad, offset, Buffer.from(createHash('sha256').update(String(k)).digest().subarray(0, 16)));
      const into = copy(shardB, 'sweep-into.sqlite');
      const before = sha(into);
      const r = await cli(['merge', '--into', into, bad]);
      if (r.code === 2) {
        refusedCount++;
        expect(r.err).toMatch(new RegExp(`^spidersolve: merge: input ${bad}: [^\\n]+\\n$`));
        expect(sha(into)).toBe(before);
      } else {
        expect([k, r.code, r.err]).toEqual([k, 0, '']);
        // what was copied passes the checks: no row that a replay or a deal code refuses
        const d = new Database(into, { readonly: true });
        expect(verifyDatabase(d)).toBeNull();
        d.close();
      }
    }
    expect(refusedCount).toBeGreaterThan(0);
  });

  it('a shard cut short (its last 1000 bytes gone), or a NOT NULL column holding null: exit 2 naming the file, nothing merged (the good input before it neither)', async () => {
    const cut = copy(shardA, 'cut.sqlite');
    truncateSync(cut, readFileSync(cut).length - 1000);
    // a null where the schema says NOT NULL: the schema's text edited, a null written, the text put back
    const nul = copy(shardA, 'null.sqlite');
    // (unsafe mode lets a connection write the schema's text, as damage would)
    const d = new Database(nul);
    d.unsafeMode(true);
    d.pragma('journal_mode = DELETE');
    const sql = d.prepare("SELECT sql FROM sqlite_master WHERE name = 'results'").pluck().get() as string;
    d.pragma('writable_schema = ON');
    d.prepare("UPDATE sqlite_master SET sql = ? WHERE name = 'results'").run(sql.replace(/deal(\s+)TEXT NOT NULL/, 'deal$1TEXT'));
    d.close();
    const d2 = new Database(nul);
    d2.unsafeMode(true);
    d2.prepare('UPDATE results SET deal = NULL WHERE id = 2').run();
    d2.pragma('writable_schema = ON');
    d2.prepare("UPDATE sqlite_master SET sql = ? WHERE name = 'results'").run(sql);
    d2.close();
    for (const bad of [cut, nul]) {
      const into = join(dir, 'cut-into.sqlite');
      const r = await cli(['merge', '--into', into, shardB, bad]);
      expect([r.code, r.out]).toEqual([2, '']);
      expect(r.err).toMatch(new RegExp(`^spidersolve: merge: input ${bad}: (damaged, refused: SQLite's integrity check finds it damaged: .+|the file is damaged \\(SQLite: .+\\)); nothing was written to ${into}; restore it from a copy[^\\n]*\\n$`));
      expect(r.err).not.toContain('internal error');
      expect(existsSync(into)).toBe(false);
    }
    // SQLite's own words, on one line (its list starts "*** in database main ***" and a line break)
    expect(refused(() => mergeDatabases(join(dir, 'null-into.sqlite'), [nul]))).toBe(
      `merge: input ${nul}: damaged, refused: SQLite's integrity check finds it damaged: NULL value in results.deal; nothing was written to ${join(dir, 'null-into.sqlite')}; restore it from a copy, or leave it out`,
    );
  });
});

describe('a damaged target', () => {
  it('cut to half its size: exit 2, one line naming the target, the target and the input as they were', async () => {
    const into = copy(shardA, 'half-target.sqlite');
    truncateSync(into, Math.floor(readFileSync(into).length / 2));
    const before = sha(into);
    const input = sha(shardB);
    const r = await cli(['merge', '--into', into, shardB]);
    expect([r.code, r.out]).toEqual([2, '']);
    expect(r.err).toMatch(new RegExp(`^spidersolve: database ${into} is damaged \\(SQLite: [^)]+\\); restore it from a copy[^\\n]*\\n$`));
    expect([sha(into), sha(shardB)]).toEqual([before, input]);
  });
});

describe('two merges into one target at once', () => {
  it('a conflict with rows another merge wrote after this one checked its inputs: refused, nothing of this merge written (not its first input either), the other merge kept', () => {
    const into = join(dir, 'race.sqlite');
    // another copy of seed 21's result with other positions: it conflicts with shardB's
    const other = copy(shardB, 'race-other.sqlite');
    tamper(other, "UPDATE results SET positions = positions + 1 WHERE code = 'SE1-21'");
    tamper(other, "DELETE FROM results WHERE code <> 'SE1-21'");
    const real = ResultStore.openForWriting.bind(ResultStore);
    // the other merge runs between this merge's checks and its writing
    const spy = vi.spyOn(ResultStore, 'openForWriting').mockImplementationOnce((path: string, ms?: number) => {
      spy.mockImplementation(real);
      mergeDatabases(into, [other]);
      return real(path, ms);
    });
    let m: string;
    try {
      m = refused(() => mergeDatabases(into, [shardA, shardB]));
    } finally {
      spy.mockRestore();
    }
    expect(m).toMatch(new RegExp(`^merge into ${into} refused, nothing was merged: another program \\(a merge or a batch\\) wrote to it while this merge checked its inputs, and now deal "?SE1-21"? at 10000 positions, solver ${V} conflicts with ${shardB}: positions \\d+ there but \\d+ here$`));
    // the other merge's one result, and nothing of shardA
    expect(one(into, 'SELECT count(*) FROM results')).toBe(1);
    expect(one(into, "SELECT code FROM results")).toBe('SE1-21');
  });
});

describe('a WAL-mode input that SQLite cannot read here (its folder read-only, no -shm beside it)', () => {
  it('is refused in one line saying what to copy, exit 2, not an internal error', async () => {
    const wal = copy(shardB, 'wal.sqlite');
    const d = new Database(wal);
    d.pragma('journal_mode = WAL');
    d.close();
    // (as the read-only folder makes SQLite answer the first read of a non-root user)
    const real = Database.prototype.prepare;
    const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, sql: string) {
      if (this.name === wal && this.readonly && !/^\s*PRAGMA/i.test(sql)) throw new Database.SqliteError('attempt to write a readonly database', 'SQLITE_READONLY');
      return real.call(this, sql);
    });
    let r: Awaited<ReturnType<typeof cli>>;
    try {
      r = await cli(['merge', '--into', join(dir, 'wal-into.sqlite'), wal]);
    } finally {
      spy.mockRestore();
    }
    expect(r).toEqual({
      code: 2,
      out: '',
      err: `spidersolve: merge: input ${wal}: cannot read it here: it is in WAL mode (the batch that wrote it did not close it) and SQLite must make ${wal}-shm beside it, in a folder it cannot write; copy its -wal and -shm files with it, or merge it from a folder you can write (SQLite: attempt to write a readonly database); nothing was merged\n`,
    });
    expect(existsSync(join(dir, 'wal-into.sqlite'))).toBe(false);
  });
});

describe('a merge with nothing new', () => {
  it('leaves the target byte for byte as it was (its header\'s change counter too), and says what is there', async () => {
    const into = join(dir, 'noop.sqlite');
    expect((await cli(['merge', '--into', into, shardA, shardB])).code).toBe(0);
    const before = sha(into);
    const again = await cli(['merge', '--into', into, shardA, shardB]);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`  in all: studies 0 added, 2 already there; runs 0 added, 2 already there; results 0 added, 30 already there; deal_names 0 added, 30 already there; study_deals 0 added, 30 already there\n`);
    expect(sha(into)).toBe(before);
    // and one with something new still merges it
    const content0 = content(into);
    const c = copy(shardB, 'noop-new.sqlite');
    tamper(c, "UPDATE results SET solver_version = '3.8.1'");
    expect((await cli(['merge', '--into', into, c])).code).toBe(0);
    expect(sha(into)).not.toBe(before);
    expect((content(into)[0] as unknown[]).length).toBe((content0[0] as unknown[]).length + 10);
  });
});
