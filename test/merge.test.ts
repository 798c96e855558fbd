/**
 * `spidersolve merge` (src/batch/merge.ts) on small databases written through the store (no solving):
 * natural keys and id remapping, idempotence, conflicts refused with the target untouched, errors
 * replaced by settled results (never the other way), foreign and newer files refused, the target
 * skipped when a glob names it, and the command's exit status and output.
 */
import { existsSync, linkSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planSeeds, type PlannedDeal } from '../src/batch/deals.js';
import { FileFault } from '../src/batch/faults.js';
import { mergeDatabases } from '../src/batch/merge.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from '../src/batch/schema.js';
import { recordFromError, recordFromOutcome, ResultStore, type ResultRecord, type StudyParams } from '../src/batch/store.js';
import type { WorkerOutcome } from '../src/batch/protocol.js';
import { InputError } from '../src/game/errors.js';
import { runInProcess } from './helpers/cli.js';
import { wonLine } from './helpers/won.js';

const VERSION = '9.9.9-test';
const BUDGET = 500;
const PARAMS: StudyParams = { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-6', maxPositions: BUDGET };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-merge-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const DEALS: PlannedDeal[] = planSeeds('spiderette', [1], [{ from: 1, to: 6 }]);

/**
 * A deterministic outcome of deal `d`: every third undecided, the others won with the deal's real
 * winning line, move count and scores (merge replays them); positions made up, within the budget.
 */
function outcome(d: PlannedDeal, positions = 100 + Number(d.key.split('-')[1]) * 7): WorkerOutcome {
  const won = positions % 3 !== 0;
  const w = won ? wonLine(d.key) : null;
  return {
    key: d.key, status: won ? 'won' : 'undecided', positions, elapsedMs: 1.5, line: w?.line ?? '',
    moveCount: w?.moveCount ?? null, classicScore: w?.classicScore ?? null, revealScore: w?.revealScore ?? null, peakBytes: 4096,
    solverVersion: VERSION, workerMs: 2,
  };
}

/**
 * A database holding one study, one finished run and the given records with their links to the study
 * (each at its seed's place in the plan, as a shard's batch leaves it).
 */
function shardDb(name: string, records: ResultRecord[], opts: { study?: string; params?: StudyParams; runStatus?: 'done' | 'running' } = {}): string {
  const path = join(dir, name);
  const s = ResultStore.openForWriting(path);
  try {
    const study = s.ensureStudy(opts.study ?? 'the-study', opts.params ?? PARAMS);
    const run = s.startRun(study, { workers: 1, solverVersion: VERSION, planned: records.length, skipped: 0 });
    s.writeResults(run, records, study, records.map((r) => ({ deal: r.deal, ord: Number(r.code.split('-')[1]) - 1, name: r.code })));
    if (opts.runStatus !== 'running') s.finishRun(run, 'done');
  } finally {
    s.close();
  }
  return path;
}

const won = (d: PlannedDeal, positions?: number) => recordFromOutcome(d, BUDGET, outcome(d, positions));

/**
 * Makes the `n`th (1-based) transaction that merges the inputs fail with SQLite's `code` and
 * `message`, as a lock held too long or a full disk makes it; returns the spy to restore.
 */
function failMergeOfInput(n: number, code: string, message: string) {
  const real = Database.prototype.transaction;
  let merging = 0;
  return vi.spyOn(Database.prototype, 'transaction').mockImplementation(function (this: Database.Database, fn: (...a: unknown[]) => unknown) {
    const t = real.call(this, fn as never);
    // (merge.ts mergeDatabases's transaction: the one that calls mergeOne)
    if (fn.toString().includes('mergeOne') && ++merging === n) {
      return Object.assign(() => t(), { immediate: () => { throw new Database.SqliteError(message, code); } }) as never;
    }
    return t;
  });
}

function table(path: string, sql: string): unknown[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

function refused(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('expected the merge to be refused');
}

describe('merge', () => {
  it('copies studies, runs and results of shards into one, remapping ids, and merging again adds nothing', () => {
    const a = shardDb('a.sqlite', DEALS.slice(0, 3).map((d) => won(d)));
    const b = shardDb('b.sqlite', DEALS.slice(3).map((d) => won(d)));
    const into = join(dir, 'ab.sqlite');
    const first = mergeDatabases(into, [a, b]);
    expect(first.created).toBe(true);
    expect(first.totals).toEqual({
      studies: { added: 1, present: 1, updated: 0 },
      runs: { added: 2, present: 0, updated: 0 },
      results: { added: 6, present: 0, updated: 0 },
      deal_names: { added: 6, present: 0, updated: 0 },
      study_deals: { added: 6, present: 0, updated: 0 },
    });
    expect(table(into, 'SELECT count(*) AS n FROM studies')).toEqual([{ n: 1 }]);
    // every result points at a run of the target, and every run at its study
    expect(table(into, 'SELECT count(*) AS n FROM results r JOIN runs u ON u.id = r.run_id JOIN studies s ON s.id = u.study_id')).toEqual([{ n: 6 }]);
    // the runs keep their uids, the links their places in the plan, under the target's study id
    const uids = [...table(a, 'SELECT uid FROM runs'), ...table(b, 'SELECT uid FROM runs')];
    expect(table(into, 'SELECT uid FROM runs ORDER BY id')).toEqual(uids);
    expect(table(into, "SELECT s.name, d.ord, d.name AS dealName FROM study_deals d JOIN studies s ON s.id = d.study_id ORDER BY d.ord")).toEqual(
      DEALS.map((d, i) => ({ name: 'the-study', ord: i, dealName: d.key })));
    // the same rows as the shards hold (ids and timing aside)
    const cols = 'code, status, positions, line, move_count, classic_score, reveal_score, peak_bytes, solver_version';
    const merged = table(into, `SELECT ${cols} FROM results ORDER BY code`);
    const parts = [...table(a, `SELECT ${cols} FROM results`), ...table(b, `SELECT ${cols} FROM results`)].sort((x, y) => String((x as { code: string }).code).localeCompare((y as { code: string }).code));
    expect(merged).toEqual(parts);

    const bytes = readFileSync(into);
    const again = mergeDatabases(into, [a, b]);
    expect(again.created).toBe(false);
    expect(again.totals).toEqual({
      studies: { added: 0, present: 2, updated: 0 },
      runs: { added: 0, present: 2, updated: 0 },
      results: { added: 0, present: 6, updated: 0 },
      deal_names: { added: 0, present: 6, updated: 0 },
      study_deals: { added: 0, present: 6, updated: 0 },
    });
    expect(table(into, 'SELECT count(*) AS n FROM results')).toEqual([{ n: 6 }]);
    expect(table(into, 'SELECT count(*) AS n FROM runs')).toEqual([{ n: 2 }]);
    expect(readFileSync(into).subarray(100).equals(bytes.subarray(100))).toBe(true); // pages unchanged past the header's change counter
  });

  it('a study whose plan grew in one copy (lines added to its deals file) takes the longer plan, in either order', () => {
    const params: StudyParams = { game: null, suits: null, dealsSpec: 'file:/x/deals.txt', maxPositions: BUDGET };
    const before = shardDb('plan3.sqlite', DEALS.slice(0, 3).map((d) => won(d)), { study: 'file', params: { ...params, planned: 3 } });
    const after = shardDb('plan6.sqlite', DEALS.map((d) => won(d)), { study: 'file', params: { ...params, planned: 6 } });
    for (const [name, order] of [['grown1.sqlite', [before, after]], ['grown2.sqlite', [after, before]]] as const) {
      const into = join(dir, name);
      mergeDatabases(into, [...order]);
      expect(table(into, "SELECT planned, (SELECT count(*) FROM study_deals) AS counted FROM studies WHERE name = 'file'")).toEqual([{ planned: 6, counted: 6 }]);
    }
  });

  it('refuses a conflict (same deal, budget and solver version, other result), names it, and leaves the target as it was', () => {
    const a = shardDb('c1.sqlite', DEALS.slice(0, 2).map((d) => won(d)));
    const into = join(dir, 'c-into.sqlite');
    mergeDatabases(into, [a]);
    const before = readFileSync(into);
    const b = shardDb('c2.sqlite', [won(DEALS[2]!), won(DEALS[1]!, 498)]);
    const c = shardDb('c3.sqlite', [won(DEALS[3]!)]);
    const m = refused(() => mergeDatabases(into, [c, b]));
    expect(m).toContain(`merge refused, nothing written to ${into}: 1 conflict`);
    expect(m).toContain(`deal SE1-2 at ${BUDGET} positions, solver ${VERSION}: positions 114 in ${into} but 498 in ${b}`);
    expect(readFileSync(into).equals(before)).toBe(true);
    // c came first and is fine, but nothing of it was written either
    expect(table(into, "SELECT count(*) AS n FROM results WHERE code = 'SE1-4'")).toEqual([{ n: 0 }]);
  });

  it('refuses a conflict between two inputs without creating the target', () => {
    const a = shardDb('d1.sqlite', [won(DEALS[0]!, 200)]);
    const b = shardDb('d2.sqlite', [won(DEALS[0]!, 201)]);
    const into = join(dir, 'never.sqlite');
    const w = wonLine('SE1-1');
    expect(refused(() => mergeDatabases(into, [a, b]))).toBe(
      `merge refused, nothing written to ${into}: 1 conflict (the same key with different values): deal SE1-1 at ${BUDGET} positions, solver ${VERSION}: ` +
        `status "won" in ${a} but "undecided" in ${b}, positions 200 in ${a} but 201 in ${b}, move_count ${w.moveCount} in ${a} but null in ${b}, ` +
        `line "${w.line.slice(0, 57)}..." in ${a} but null in ${b}, classic_score ${w.classicScore} in ${a} but null in ${b}, reveal_score ${w.revealScore} in ${a} but null in ${b}`,
    );
    expect(existsSync(into)).toBe(false);
  });

  it('refuses one study name with two sets of parameters', () => {
    const a = shardDb('e1.sqlite', [won(DEALS[0]!)]);
    const b = shardDb('e2.sqlite', [won(DEALS[1]!)], { params: { ...PARAMS, dealsSpec: 'seeds:1-7' } });
    // named field by field, as batch names them
    expect(refused(() => mergeDatabases(join(dir, 'e.sqlite'), [a, b]))).toContain(`study "the-study": deals "seeds:1-6" in ${a} but "seeds:1-7" in ${b}`);
    const c = shardDb('e3.sqlite', [won(DEALS[1]!)], { params: { ...PARAMS, maxPositions: BUDGET + 1 } });
    const m = refused(() => mergeDatabases(join(dir, 'e-late.sqlite'), [a, c]));
    expect(m).toContain(`study "the-study": budgets [${BUDGET}] in ${a} but [${BUDGET + 1}] in ${c}`);
    const d = shardDb('e4.sqlite', [won(DEALS[1]!)], { params: { ...PARAMS, dealsSpec: 'seeds:1-7', maxPositions: BUDGET + 1 } });
    expect(refused(() => mergeDatabases(join(dir, 'e-both.sqlite'), [a, d]))).toContain(`study "the-study": deals "seeds:1-6" in ${a} but "seeds:1-7" in ${d}, budgets [${BUDGET}] in ${a} but [${BUDGET + 1}] in ${d}`);
    // a blind study and a solve study of one name: each described whole, as batch describes them
    const blind = shardDb('e5.sqlite', [], { params: { ...PARAMS, maxPositions: 0, player: 'greedy', playerSeed: 7 } });
    expect(refused(() => mergeDatabases(join(dir, 'e-kind.sqlite'), [a, blind]))).toContain(
      `study "the-study": a solve study (budgets [${BUDGET}]) in ${a} but a blind study (player "greedy", player seed 7) in ${blind}`,
    );
    // two blind studies: the player seed by its name, a player's spec whole
    const seed8 = shardDb('e6.sqlite', [], { params: { ...PARAMS, maxPositions: 0, player: 'greedy', playerSeed: 8 } });
    expect(refused(() => mergeDatabases(join(dir, 'e-seed.sqlite'), [blind, seed8]))).toContain(`study "the-study": player seed 7 in ${blind} but 8 in ${seed8}`);
    const spec = 'sample:k=8,budget=20000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3';
    const sample = shardDb('e7.sqlite', [], { params: { ...PARAMS, maxPositions: 0, player: spec, playerSeed: 7 } });
    expect(refused(() => mergeDatabases(join(dir, 'e-player.sqlite'), [blind, sample]))).toContain(`study "the-study": player "greedy" in ${blind} but "${spec}" in ${sample}`);
  });

  it('replaces an error by a settled result, never a settled result by an error', () => {
    const errA = recordFromError(DEALS[0]!, BUDGET, 'worker ran out of memory', VERSION);
    const a = shardDb('f1.sqlite', [errA, won(DEALS[1]!)]);
    const b = shardDb('f2.sqlite', [won(DEALS[0]!), recordFromError(DEALS[1]!, BUDGET, 'boom', VERSION)]);
    const into = join(dir, 'f.sqlite');
    const s = mergeDatabases(into, [a, b]);
    expect(s.inputs[1]!.tables.results).toEqual({ added: 0, present: 1, updated: 1 });
    expect(table(into, 'SELECT code, status, error FROM results ORDER BY code')).toEqual([
      { code: 'SE1-1', status: won(DEALS[0]!).status, error: null },
      { code: 'SE1-2', status: won(DEALS[1]!).status, error: null },
    ]);
  });

  it('brings a run recorded as running up to date from a finished copy of it', () => {
    const path = shardDb('g.sqlite', [won(DEALS[0]!)], { runStatus: 'running' });
    const copy = join(dir, 'g-running.sqlite');
    writeFileSync(copy, readFileSync(path));
    const s = ResultStore.openForWriting(path);
    s.finishRun(1, 'done');
    s.close();
    // (the merged copy's run is still 'running' with a live pid: this process)
    const into = join(dir, 'g-into.sqlite');
    mergeDatabases(into, [copy]);
    expect(table(into, 'SELECT status FROM runs')).toEqual([{ status: 'running' }]);
    expect(mergeDatabases(into, [path]).totals.runs).toEqual({ added: 0, present: 0, updated: 1 });
    expect(table(into, 'SELECT status, finished_at IS NOT NULL AS finished FROM runs')).toEqual([{ status: 'done', finished: 1 }]);
  });

  it('a run that a batch on the target marked abandoned (merged while it ran) is brought up to date from the finished copy of it', () => {
    const path = shardDb('abandon-src.sqlite', [won(DEALS[0]!), won(DEALS[1]!)]);
    const into = join(dir, 'abandon-into.sqlite');
    mergeDatabases(into, [path]);
    // what markAbandoned leaves of a copy taken mid-run whose process a later batch on the target did not find
    const db = new Database(into);
    db.prepare("UPDATE runs SET status = 'abandoned', completed = 1, finished_at = NULL").run();
    db.close();
    expect(mergeDatabases(into, [path]).totals.runs).toEqual({ added: 0, present: 0, updated: 1 });
    expect(table(into, 'SELECT status, completed, finished_at IS NOT NULL AS finished FROM runs')).toEqual([{ status: 'done', completed: 2, finished: 1 }]);
    // an abandoned run stays so against a copy that is abandoned too, and no older
    expect(mergeDatabases(into, [path]).totals.runs).toEqual({ added: 0, present: 1, updated: 0 });
  });

  it('a deal planned at two places under two names, reached by two shards, is counted once at its first place, with both names', () => {
    const d = DEALS[0]!;
    const r = won(d);
    const linked = (name: string, ord: number, label: string): string => {
      const path = join(dir, name);
      const s = ResultStore.openForWriting(path);
      const study = s.ensureStudy('the-study', PARAMS);
      s.writeResults(s.startRun(study, { workers: 1, solverVersion: VERSION, planned: 1, skipped: 0 }), [r], study, [{ deal: r.deal, ord, name: label }]);
      s.close();
      return path;
    };
    const late = linked('k1.sqlite', 7, 'pysol:spiderette:99');
    const early = linked('k2.sqlite', 2, 'SE1-1');
    for (const [n, order] of [['k-a.sqlite', [late, early]], ['k-b.sqlite', [early, late]]] as const) {
      const into = join(dir, n);
      mergeDatabases(into, [...order]);
      expect(table(into, 'SELECT ord, name FROM study_deals')).toEqual([{ ord: 2, name: 'SE1-1' }]);
      expect(table(into, 'SELECT name FROM deal_names ORDER BY name')).toEqual([{ name: 'SE1-1' }, { name: 'pysol:spiderette:99' }]);
    }
  });

  it('merges a schema-1 file through a migrated copy, leaving the file itself as it was', () => {
    const v1 = join(dir, 'v1.sqlite');
    const db = new Database(v1);
    db.exec(MIGRATIONS[0]!.sql);
    db.pragma('user_version = 1');
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.exec(`
      INSERT INTO studies VALUES (1, 'old', 'spiderette', '1', 'seeds:1-2', ${BUDGET}, '{"game":"spiderette","suits":"1","deals":"seeds:1-2","maxPositions":${BUDGET}}', '2026-01-01T00:00:00Z');
      INSERT INTO runs VALUES (1, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 1, '${VERSION}', 'done', 2, 0, 2, 0);
      INSERT INTO results (code, game, suits, source_kind, seed, max_positions, status, positions, elapsed_ms, solver_version, run_id, created_at)
        VALUES ('SE1-1', 'spiderette', 1, 'seed', 1, ${BUDGET}, 'lost', 42, 1, '${VERSION}', 1, '2026-01-01T00:00:00Z');
    `);
    db.close();
    const before = readFileSync(v1);
    const into = join(dir, 'v1-into.sqlite');
    const s = mergeDatabases(into, [v1]);
    expect(s.totals.results).toEqual({ added: 1, present: 0, updated: 0 });
    expect(readFileSync(v1).equals(before)).toBe(true);
    // stored under the deal's identity, as the migration gives it
    expect(table(into, 'SELECT deal, code, status, positions FROM results')).toEqual([{ deal: won(DEALS[0]!).deal, code: 'SE1-1', status: 'lost', positions: 42 }]);
    expect(table(into, 'SELECT name, planned FROM studies')).toEqual([{ name: 'old', planned: 2 }]);
  });

  it('skips the target when a glob names it among other inputs, and another name of a file given before', () => {
    const a = shardDb('h1.sqlite', [won(DEALS[0]!)]);
    const into = join(dir, 'h.sqlite');
    mergeDatabases(into, [a]);
    const s = mergeDatabases(into, [into, a, `${dir}/./h1.sqlite`]);
    expect(s.inputs.map((i) => i.skipped)).toEqual(['it is the target', null, `given twice (as ${a})`]);
    expect(table(into, 'SELECT count(*) AS n FROM results')).toEqual([{ n: 1 }]);
    // another name of the target, or of an input, by a hard link (it was merged as an input)
    const hard = join(dir, 'h-hard.sqlite');
    linkSync(into, hard);
    const ah = join(dir, 'h1-hard.sqlite');
    linkSync(a, ah);
    expect(mergeDatabases(into, [hard, a, ah]).inputs.map((i) => i.skipped)).toEqual(['it is the target', null, `given twice (as ${a})`]);
    // the target alone, by either name: refused, and the file not changed by a byte
    const bytes = readFileSync(into);
    expect(() => mergeDatabases(into, [into, hard])).toThrow(`merge: input ${hard} is the --into database (${into}); give the databases to merge into it`);
    expect(readFileSync(into).equals(bytes)).toBe(true);
  });

  it('the target locked by another program, or a full disk, while the inputs are merged: one line naming the target, nothing merged (one transaction), the target as it was; merging again completes', () => {
    const a = shardDb('l1.sqlite', [won(DEALS[0]!)]);
    const b = shardDb('l2.sqlite', [won(DEALS[1]!)]);
    const c = shardDb('l3.sqlite', [won(DEALS[2]!)]);
    const into = join(dir, 'l.sqlite');
    mergeDatabases(into, [a]);
    const before = readFileSync(into);
    for (const [code, message, what] of [['SQLITE_BUSY', 'database is locked', 'another program (a merge or a batch) held it locked for too long'], ['SQLITE_FULL', 'database or disk is full', 'the disk is full']] as const) {
      // the merge's transaction fails, as when the write lock or the disk gives out
      const tx = failMergeOfInput(1, code, message);
      let err: unknown = null;
      try {
        mergeDatabases(into, [b, c]);
      } catch (e) {
        err = e;
      } finally {
        tx.mockRestore();
      }
      expect(err).toBeInstanceOf(FileFault);
      expect((err as Error).message).toBe(`merge: target ${into} (--into): ${what} (SQLite: ${message}); nothing was merged (the merge is one transaction, rolled back); ${code === 'SQLITE_BUSY' ? 'run the same merge again when the other program is done' : 'free some space, then run the same merge again'}`);
      expect(table(into, 'SELECT count(*) AS n FROM results')).toEqual([{ n: 1 }]);
      expect(readFileSync(into).subarray(100).equals(before.subarray(100))).toBe(true);
    }
    mergeDatabases(into, [b, c]);
    expect(table(into, 'SELECT count(*) AS n FROM results')).toEqual([{ n: 3 }]);
    // a new target whose merge fails is not left behind, empty
    const first = join(dir, 'l-first.sqlite');
    const tx = failMergeOfInput(1, 'SQLITE_FULL', 'database or disk is full');
    try {
      expect(() => mergeDatabases(first, [a, b])).toThrow(`merge: target ${first} (--into): the disk is full (SQLite: database or disk is full); nothing was merged (the merge is one transaction, rolled back); free some space, then run the same merge again`);
    } finally {
      tx.mockRestore();
    }
    expect(['', '-wal', '-shm'].map((x) => existsSync(first + x))).toEqual([false, false, false]);
    // a new target on a full disk: merge's words, and no empty file left behind (it left a 0-byte target)
    const fresh = join(dir, 'l-new.sqlite');
    const exec = vi.spyOn(Database.prototype, 'exec').mockImplementation(() => {
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    });
    try {
      expect(() => mergeDatabases(fresh, [a])).toThrow(`merge: target ${fresh} (--into): the disk is full while opening it (database or disk is full); nothing was merged and every result it held is kept; free some space, then run the same merge again`);
    } finally {
      exec.mockRestore();
    }
    expect(existsSync(fresh)).toBe(false);
  });

  it('refuses files that are not spidersolve databases, a newer schema, an empty file and a missing one', () => {
    const a = shardDb('i1.sqlite', [won(DEALS[0]!)]);
    const into = join(dir, 'i.sqlite');
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello\n');
    const foreign = join(dir, 'foreign.sqlite');
    new Database(foreign).exec('CREATE TABLE t (x)');
    const newer = shardDb('newer.sqlite', []);
    const n = new Database(newer);
    n.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    n.close();
    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    expect(refused(() => mergeDatabases(into, [a, text]))).toBe(`merge: input ${text}: not an SQLite database; left untouched`);
    expect(refused(() => mergeDatabases(into, [a, foreign]))).toBe(`merge: input ${foreign}: an SQLite database that is not a spidersolve results database; left untouched`);
    // the target is named as the target, and nothing speaks of a --db option merge does not have
    expect(refused(() => mergeDatabases(text, [a]))).toBe(`merge: target ${text} (--into): not an SQLite database; left untouched`);
    expect(refused(() => mergeDatabases(foreign, [a]))).toBe(`merge: target ${foreign} (--into): an SQLite database that is not a spidersolve results database; left untouched`);
    expect(refused(() => mergeDatabases(into, [a, newer]))).toContain(`schema version ${SCHEMA_VERSION + 1} is newer than this spidersolve knows`);
    expect(refused(() => mergeDatabases(into, [a, empty]))).toBe(`merge: input ${empty}: an empty file, not a spidersolve results database`);
    expect(refused(() => mergeDatabases(into, [a, join(dir, 'nope.sqlite')]))).toBe(`merge: input ${join(dir, 'nope.sqlite')}: no such file`);
    // an empty name is called empty, spaces and all, as --db '' and --deals '' are (it was "no such
    // file" for an input, and the target's message said "database" twice)
    expect(refused(() => mergeDatabases(into, [a, '']))).toBe('merge: input "": the file name is empty');
    expect(refused(() => mergeDatabases(into, [a, '  ']))).toBe('merge: input "  ": the file name is empty');
    expect(refused(() => mergeDatabases('', [a]))).toBe('merge: target "" (--into): the file name is empty');
    expect(refused(() => mergeDatabases('  ', [a]))).toBe('merge: target "  " (--into): the file name is empty');
    expect(existsSync(into)).toBe(false);
  });

  it('as a command: prints what it added, exits 2 with one line on a refusal', async () => {
    const a = shardDb('j1.sqlite', DEALS.slice(0, 2).map((d) => won(d)));
    const into = join(dir, 'j.sqlite');
    const run = (args: string[]) => runInProcess(['merge', ...args]);
    const ok = await run(['--into', into, a]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe(
      `merged 1 database into ${into} (new) in ${/in (\d+\.\d) s/.exec(ok.stdout)![1]} s\n` +
        `  ${a}: studies 1 added, 0 already there; runs 1 added, 0 already there; results 2 added, 0 already there; deal_names 2 added, 0 already there; study_deals 2 added, 0 already there\n` +
        '  in all: studies 1 added, 0 already there; runs 1 added, 0 already there; results 2 added, 0 already there; deal_names 2 added, 0 already there; study_deals 2 added, 0 already there\n' +
        '  study the-study: 2 deals counted\n',
    );
    // paths with control characters are shown with them escaped, not written to the terminal raw
    const esc = shardDb('k\u001b[31m.sqlite', DEALS.slice(0, 1).map((d) => won(d)));
    const escOut = await run(['--into', join(dir, 'k\u0007.sqlite'), esc]);
    expect(escOut.status).toBe(0);
    expect(escOut.stdout).not.toMatch(/[\u0007\u001b]/);
    expect(escOut.stdout).toContain(`into ${join(dir, 'k\\u{7}.sqlite')} (new)`);
    expect(escOut.stdout).toContain(`  ${join(dir, 'k\\u{1b}[31m.sqlite')}: studies 1 added`);
    // a study planned at 6 deals of which the shards merged hold 3: the summary says it is partial
    const planned = { ...PARAMS, planned: 6 };
    const s0 = shardDb('jp0.sqlite', DEALS.slice(0, 2).map((d) => won(d)), { study: 'sharded', params: planned });
    const s1 = shardDb('jp1.sqlite', DEALS.slice(2, 3).map((d) => won(d)), { study: 'sharded', params: planned });
    const part = await run(['--into', join(dir, 'jp.sqlite'), s0, s1]);
    expect(part.status).toBe(0);
    expect(part.stdout.trimEnd().split('\n').at(-1)).toBe('  study sharded: 3 of 6 planned deals counted (partial: missing shards or an unfinished run)');
    const json = await run(['--into', join(dir, 'jp.sqlite'), s0, s1, '--json']);
    expect((JSON.parse(json.stdout) as { studies: unknown[] }).studies).toEqual([{ name: 'sharded', planned: 6, counted: 3, stoppedAt: null, unfinished: 0, untilWidth: null, partial: true }]);
    // an open-ended study its --until-width rule has not stopped yet (an interrupted run): partial too
    const open = { ...PARAMS, dealsSpec: 'seeds:1-', untilWidth: 0.02 };
    const o0 = shardDb('jo0.sqlite', DEALS.slice(0, 2).map((d) => won(d)), { study: 'open', params: open });
    const openOut = await run(['--into', join(dir, 'jo.sqlite'), o0]);
    expect(openOut.stdout.trimEnd().split('\n').at(-1)).toBe(
      '  study open: 2 deals counted so far, before its --until-width 0.02 rule was met (partial: an open-ended study its rule has not stopped yet; run its batch command again to go on)',
    );
    // --help names every field --json prints (it listed none), and every table merged (it left out deal names)
    const help = (await run(['--help'])).stdout.replace(/\s+/g, ' ');
    const out = JSON.parse(json.stdout) as { inputs: { tables: Record<string, object> }[]; studies: object[] };
    const listed = [out, out.inputs[0]!, out.inputs[0]!.tables, out.inputs[0]!.tables.results!, out.studies[0]!].flatMap((o) => Object.keys(o));
    expect(listed).toHaveLength(24);
    const jsonHelp = /--json print one JSON object (\{.*\}) instead of the text summary/.exec(help)![1]!;
    for (const key of listed) expect(jsonHelp).toMatch(new RegExp(`[{ ]${key}[,:} ]`));
    expect(help).toContain('copy the studies, runs, results, deal names and study links of databases');
    expect(help).toContain('Exit codes: 0 merged, 2 refused (one line on stderr; the target is left as it was, nothing of any input merged), 1 internal error.');
    expect(help).toContain('each won line replayed through the rules engine to a win in its stored number of moves');
    expect(help).toContain('Then every input is merged in one transaction: all of them or, on any failure, none.');
    const bad = await run(['--into', into, a, join(dir, 'missing.sqlite'), '--json']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(`spidersolve: merge: input ${join(dir, 'missing.sqlite')}: no such file\n`);
    expect(JSON.parse(bad.stdout)).toEqual({ error: { code: 'bad-file', message: `merge: input ${join(dir, 'missing.sqlite')}: no such file` } });
  });
});
