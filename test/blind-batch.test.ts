/**
 * Blind studies (`batch --player`, src/batch/blind.ts): games stored one per deal, player, seed and
 * version, as playBlind plays them; a stopped study resumed without playing its finished deals again;
 * the same games whatever the number of workers or shards; the blind report's figures; merge's copy
 * and check of blind games; and a database of the schema before blind studies opened and reported as
 * before.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { playBlind } from '../src/blind/game.js';
import { parsePlayerSpec, specText } from '../src/blind/players/index.js';
import { blindVersion, type BlindReportRow, type StoredBlindRow } from '../src/batch/blind.js';
import { planSeeds } from '../src/batch/deals.js';
import { mergeDatabases } from '../src/batch/merge.js';
import type { ProgressSink } from '../src/batch/progress.js';
import { wilsonInterval } from '../src/batch/report.js';
import { runBatch, type BatchOptions } from '../src/batch/runner.js';
import { SCHEMA_VERSION } from '../src/batch/schema.js';
import { ResultStore } from '../src/batch/store.js';
import { formatBatchSummary, parseBatchOptions } from '../src/cli/batch.js';
import { main } from '../src/cli/main.js';
import { InputError } from '../src/game/errors.js';
import { dealPosition } from '../src/game/deal.js';
import { getVariant } from '../src/game/variant.js';
import { solve } from '../src/solver/solve.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-blind-batch-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const SEEDS: [number, number] = [1, 6];
/** A sample player small enough for a quick test, yet one that draws on its random generator. */
const SAMPLE = 'sample:k=2,budget=100,escalate=0';
/** The deals of the sample player's tests (fewer: each game runs solves). */
const FEW: [number, number] = [1, 4];

function options(db: string, player: string, over: Partial<BatchOptions> = {}, seeds: [number, number] = SEEDS): BatchOptions {
  const [from, to] = seeds;
  const spec = specText(parsePlayerSpec(player));
  return {
    deals: planSeeds('spiderette', [1], [{ from, to }]),
    maxPositions: 0,
    workers: 1,
    dbPath: db,
    study: `blind-${spec}-${from}-${to}`,
    studyParams: { game: 'spiderette', suits: '1', dealsSpec: `seeds:${from}-${to}`, maxPositions: 0, player: spec, playerSeed: 7 },
    blind: { player: spec, seed: 7 },
    ...over,
  };
}

/** Every blind game stored, by deal, without the fields that differ between runs (time, run, creation). */
function games(db: string): Omit<StoredBlindRow, 'cpuMs' | 'runId' | 'createdAt'>[] {
  const s = new Database(db, { readonly: true });
  try {
    const rows = s.prepare('SELECT * FROM blind_results ORDER BY deal, player, player_seed').all() as Record<string, unknown>[];
    return rows.map((r) => ({
      deal: r.deal, code: r.code, game: r.game, suits: r.suits, sourceKind: r.source_kind, seed: r.seed, pysolGame: r.pysol_game, pysolNumber: r.pysol_number,
      filePath: r.file_path, player: r.player, playerSeed: r.player_seed, version: r.version, status: r.status, completed: r.completed,
      moveCount: r.move_count, line: r.line, solves: r.solves, positions: r.positions, error: r.error,
    })) as Omit<StoredBlindRow, 'cpuMs' | 'runId' | 'createdAt'>[];
  } finally {
    s.close();
  }
}

/** Runs a command line in-process (main), expecting exit 0; what it wrote on stdout and on stderr. */
async function run(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await main(args)).toBe(0);
    const text = (spy: typeof out) => spy.mock.calls.map((c) => String(c[0])).join('');
    return { stdout: text(out), stderr: text(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** The games playBlind plays of Spiderette 1-suit seeds `from..to` with `player` seeded 7, by seed. */
function expectedGames(player: string, from = SEEDS[0], to = SEEDS[1]) {
  const v = getVariant('spiderette', 1);
  const out = new Map<number, ReturnType<typeof playBlind>>();
  for (let seed = from; seed <= to; seed++) out.set(seed, playBlind(dealPosition(v, seed), parsePlayerSpec(player), 7));
  return out;
}

describe('batch --player: a blind study', () => {
  it('stores one game per deal, as playBlind plays it, and runs nothing again', async () => {
    const db = join(dir, 'greedy.sqlite');
    const s = await runBatch(options(db, 'greedy'));
    expect(s.ran).toBe(6);
    const want = expectedGames('greedy');
    const got = games(db);
    expect(got).toHaveLength(6);
    for (const g of got) {
      const w = want.get(g.seed!)!;
      expect(g).toMatchObject({ player: 'greedy', playerSeed: 7, version: blindVersion(), status: w.result, completed: w.completed, moveCount: w.line.length, line: w.line.join(' '), solves: 0, positions: 0, error: null });
    }
    expect(s.won).toBe([...want.values()].filter((g) => g.result === 'won').length);
    expect(s.blind).toHaveLength(1);
    const again = await runBatch(options(db, 'greedy'));
    expect([again.ran, again.skipped, again.remaining]).toEqual([0, 6, 0]);
    expect(formatBatchSummary(again)).toContain('played blind by greedy, player seed 7');
  });

  it('a study of a non-default end game (endhop=0, endk=3) plays that player, stores its games under its spec, and settles', async () => {
    const db = join(dir, 'endhop0.sqlite');
    const player = `${SAMPLE},endhop=0,endk=3`;
    const spec = specText(parsePlayerSpec(player));
    expect(spec).toBe('sample:k=2,budget=100,plan=prefix,escalate=0,hop=0,eval=progress,endhop=0,endk=3');
    const s = await runBatch(options(db, player, {}, FEW));
    expect([s.ran, s.remaining]).toEqual([4, 0]);
    const want = expectedGames(player, ...FEW);
    for (const g of games(db)) {
      const w = want.get(g.seed!)!;
      expect(g).toMatchObject({ player: spec, status: w.result, moveCount: w.line.length, line: w.line.join(' ') });
    }
    const again = await runBatch(options(db, player, {}, FEW));
    expect([again.ran, again.skipped, again.remaining]).toEqual([0, 4, 0]);
  });

  it('a stopped study resumes without playing its finished deals again', async () => {
    const db = join(dir, 'resume.sqlite');
    const stop = new AbortController();
    // stops the study once two games are in
    const progress: ProgressSink = { start() {}, update(done) { if (done >= 2) stop.abort(); }, stop() {} };
    const first = await runBatch(options(db, 'greedy', { signal: stop.signal, progress, maxInFlight: 1, flushEvery: 1 }));
    expect(first.interrupted).toBe(true);
    const stored = new Database(db, { readonly: true });
    const before = stored.prepare('SELECT id, deal, created_at FROM blind_results ORDER BY id').all() as { id: number; deal: string; created_at: string }[];
    stored.close();
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(6);
    const second = await runBatch(options(db, 'greedy'));
    expect(second.interrupted).toBe(false);
    // the finished deals were not played again: their rows are the same rows, and only the rest ran
    expect(second.ran).toBe(6 - before.length);
    expect(second.skipped).toBe(before.length);
    const after = new Database(db, { readonly: true });
    for (const b of before) expect(after.prepare('SELECT id, deal, created_at FROM blind_results WHERE id = ?').get(b.id)).toEqual(b);
    expect(after.prepare('SELECT count(*) FROM blind_results').pluck().get()).toBe(6);
    after.close();
    // and the games are those one uninterrupted run plays
    const want = expectedGames('greedy');
    for (const g of games(db)) expect([g.status, g.line]).toEqual([want.get(g.seed!)!.result, want.get(g.seed!)!.line.join(' ')]);
  });

  it('plays the same games with 1 worker and with 2', async () => {
    const one = join(dir, 'w1.sqlite');
    const two = join(dir, 'w2.sqlite');
    await runBatch(options(one, SAMPLE, { workers: 1 }, FEW));
    await runBatch(options(two, SAMPLE, { workers: 2 }, FEW));
    expect(games(two)).toEqual(games(one));
    expect(games(one).some((g) => (g.solves ?? 0) > 0)).toBe(true);
  });

  it('pooled (report --pool), a row names only the studies of its player and seed', async () => {
    const db = join(dir, 'pooled.sqlite');
    await runBatch(options(db, 'greedy', { study: 'g1' }, [1, 2]));
    await runBatch(options(db, 'greedy', { study: 'g2' }, [3, 4]));
    await runBatch(options(db, 'greedy', { study: 'other seed', studyParams: { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-2', maxPositions: 0, player: 'greedy', playerSeed: 8 }, blind: { player: 'greedy', seed: 8 } }, [1, 2]));
    // the same player and seed in two suits: its row of two suits names that study alone
    await runBatch(options(db, 'greedy', { study: 'g3', deals: planSeeds('spiderette', [2], [{ from: 1, to: 2 }]), studyParams: { game: 'spiderette', suits: '2', dealsSpec: 'seeds:1-2', maxPositions: 0, player: 'greedy', playerSeed: 7 } }, [1, 2]));
    const s = ResultStore.openForReading(db);
    try {
      expect(s.blindReport({ pool: true }).map((r) => [r.study, r.suits, r.playerSeed, r.deals])).toEqual([['g1 + g2', 1, 7, 4], ['other seed', 1, 8, 2], ['g3', 2, 7, 2]]);
      expect(s.blindReport().map((r) => [r.study, r.deals])).toEqual([['g1', 2], ['g2', 2], ['other seed', 2], ['g3', 2]]);
    } finally {
      s.close();
    }
  });

  it('pooled, a solve row is not partial for a blind study, nor a blind row for a study of other suits; the CSV note names the studies', async () => {
    const db = join(dir, 'pooled-partial.sqlite');
    // a shard of a blind study: short of its plan
    await runBatch(options(db, 'greedy', { shard: { index: 0, count: 2 } }));
    // the same deals solved, whole
    await runBatch({
      deals: planSeeds('spiderette', [1], [{ from: SEEDS[0], to: SEEDS[1] }]), maxPositions: 300, workers: 1, dbPath: db, study: 'solves',
      studyParams: { game: 'spiderette', suits: '1', dealsSpec: `seeds:${SEEDS[0]}-${SEEDS[1]}`, maxPositions: 300 },
    });
    const rows = JSON.parse((await run(['report', '--json', '--pool', '--db', db])).stdout) as { kind?: string; partial: boolean }[];
    expect(rows.map((r) => [r.kind ?? 'solve', r.partial])).toEqual([['solve', false], ['blind', true]]);
    // the blind study by its own name, not the pooled row's label
    expect((await run(['report', '--format', 'csv', '--pool', '--db', db])).stderr).toMatch(/for it: --study blind-greedy-1-6\n$/);
  });

  it('two shards merged hold the same games and report as one run', async () => {
    const whole = join(dir, 'whole.sqlite');
    const a = join(dir, 'shard0.sqlite');
    const b = join(dir, 'shard1.sqlite');
    const into = join(dir, 'merged.sqlite');
    await runBatch(options(whole, SAMPLE, {}, FEW));
    await runBatch(options(a, SAMPLE, { shard: { index: 0, count: 2 } }, FEW));
    await runBatch(options(b, SAMPLE, { shard: { index: 1, count: 2 } }, FEW));
    expect(games(a).length).toBeGreaterThan(0);
    expect(games(a).length + games(b).length).toBe(4);
    mergeDatabases(into, [a, b]);
    expect(games(into)).toEqual(games(whole));
    const report = (p: string) => {
      const s = ResultStore.openForReading(p);
      try {
        return s.blindReport().map(({ meanCpuMs, ...r }) => (void meanCpuMs, r));
      } finally {
        s.close();
      }
    };
    expect(report(into)).toEqual(report(whole));
    // a shard's database counts part of the study's plan: its blind rows say so in JSON and CSV (as
    // the text's partial line does); the merged database's do not
    const printed = async (args: string[]) => (await run(args)).stdout;
    const partialOf = async (p: string) => (JSON.parse(await printed(['report', '--json', '--db', p])) as { kind?: string; partial?: boolean }[]).filter((r) => r.kind === 'blind').map((r) => r.partial);
    expect(await partialOf(a)).toEqual([true]);
    expect(await partialOf(into)).toEqual([false]);
    const csv = (await printed(['report', '--format', 'csv', '--db', a])).trim().split('\r\n');
    expect(csv[0]!.endsWith(',piHigh,partial')).toBe(true);
    expect(csv[1]!.endsWith(',true')).toBe(true);
    // merging again adds nothing
    const again = mergeDatabases(into, [a, b]);
    expect(again.totals.blind_results).toEqual({ added: 0, present: 4, updated: 0 });
  });

  it('refuses --max-positions, --until-width and a bad spec with --player; names the study by its player', () => {
    const base = { game: 'spiderette', suits: '1', seeds: '1-6', db: join(dir, 'x.sqlite') };
    expect(() => parseBatchOptions({ ...base, player: 'greedy', maxPositions: '1000' })).toThrow(/--player and --max-positions/);
    expect(() => parseBatchOptions({ ...base, player: 'greedy', untilWidth: '0.1' })).toThrow(/--player and --until-width/);
    expect(() => parseBatchOptions({ ...base, player: 'sample:k=0' })).toThrow(InputError);
    expect(() => parseBatchOptions({ ...base, playerSeed: '3' })).toThrow(/--player-seed: give it with --player/);
    const req = parseBatchOptions({ ...base, player: 'Sample:budget=300,k=2', playerSeed: '9' });
    expect(req.blind).toEqual({ player: 'sample:k=2,budget=300,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3', seed: 9 });
    expect(req.study).toBe('spiderette-1-seeds-1-6-blind-sample:k=2,budget=300,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3-seed-9');
  });
});

describe('the blind report', () => {
  it('gives the blind win rate with its Wilson interval next to the perfect-information rate of the same deals', async () => {
    const db = join(dir, 'report.sqlite');
    await runBatch(options(db, 'greedy', {}, [1, 8]));
    // a solve study of the first five of the same deals, at a small budget
    const BUDGET = 3000;
    await runBatch({
      deals: planSeeds('spiderette', [1], [{ from: 1, to: 5 }]), maxPositions: BUDGET, workers: 1, dbPath: db, study: 'solved',
      studyParams: { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-5', maxPositions: BUDGET },
    });
    const want = expectedGames('greedy', 1, 8);
    const won = [...want.values()].filter((g) => g.result === 'won').length;
    const v = getVariant('spiderette', 1);
    const pi = [1, 2, 3, 4, 5].map((seed) => solve(dealPosition(v, seed), { maxPositions: BUDGET }).status);
    const piWon = pi.filter((st) => st === 'won').length;
    const s = ResultStore.openForReading(db);
    let rows: BlindReportRow[];
    try {
      rows = s.blindReport();
    } finally {
      s.close();
    }
    expect(rows).toHaveLength(1);
    const [lo, hi] = wilsonInterval(won, 8)!;
    const [plo, phi] = wilsonInterval(piWon, 5)!;
    const completed = [...want.values()].reduce((n, g) => n + g.completed, 0) / 8;
    const moves = [...want.values()].reduce((n, g) => n + g.line.length, 0) / 8;
    expect(moves).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({
      study: 'blind-greedy-1-8', game: 'spiderette', suits: 1, player: 'greedy', playerSeed: 7, deals: 8, won, stuck: 8 - won, errors: 0,
      winRate: won / 8, ciLow: lo, ciHigh: hi, meanCompleted: completed, meanMoves: moves,
      piDeals: 5, piWon, piLost: pi.filter((st) => st === 'lost').length, piRate: piWon / 5, piLow: plo, piHigh: phi,
    });
    // the solve report leaves the blind study out, and the blind table follows the solve table in `report`
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['report', '--db', db])).toBe(0);
      const text = out.mock.calls.map((c) => String(c[0])).join('');
      expect(text).toContain('blind play');
      expect(text).toMatch(new RegExp(`blind-greedy-1-8\\s+spiderette\\s+1\\s+greedy\\s+7\\s+8\\s+${won}\\s+${8 - won}\\s+0\\s+${((won / 8) * 100).toFixed(1)}%`));
      // suits done and moves/game follow the interval
      expect(text).toMatch(new RegExp(`\\]\\s+${completed.toFixed(2)}\\s+${moves.toFixed(0)}\\s+`));
      expect(text.split('\n').filter((l) => l.startsWith('solved '))).toHaveLength(1);
      expect(text).not.toMatch(/^blind-greedy-1-8 .* 0 +positions/m);
      out.mockClear();
      expect(await main(['export', '--csv', '--db', db])).toBe(0);
      const csv = out.mock.calls.map((c) => String(c[0])).join('').trim().split('\r\n');
      expect(csv[0]!.endsWith(',player,player_seed,completed,solves')).toBe(true);
      // 5 solves and 8 blind games
      expect(csv.filter((l) => l.startsWith('solved,'))).toHaveLength(5);
      expect(csv.filter((l) => l.startsWith('blind-greedy-1-8,'))).toHaveLength(8);
      // a summary CSV holds one kind of row: the solve rows, and a note names the blind study left out
      const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        out.mockClear();
        expect(await main(['export', '--csv', '--summary', '--db', db])).toBe(0);
        const summary = out.mock.calls.map((c) => String(c[0])).join('').trim().split('\r\n');
        expect(summary.slice(1).map((l) => l.split(',')[0])).toEqual(['solved']);
        expect(err.mock.calls.map((c) => String(c[0])).join('')).toBe('spidersolve: note: 1 row of blind play left out of this CSV (its columns differ); for it: --study blind-greedy-1-8\n');
        // given the blind study alone, the summary is its blind row
        out.mockClear();
        expect(await main(['export', '--csv', '--summary', '--db', db, '--study', 'blind-greedy-1-8'])).toBe(0);
        const blindCsv = out.mock.calls.map((c) => String(c[0])).join('').trim().split('\r\n');
        expect(blindCsv).toHaveLength(2);
        const cell = (name: string) => blindCsv[1]!.split(',')[blindCsv[0]!.split(',').indexOf(name)];
        expect([cell('study'), cell('game'), cell('suits'), cell('player'), cell('deals'), cell('won')]).toEqual(['blind-greedy-1-8', 'spiderette', '1', 'greedy', '8', String(won)]);
      } finally {
        err.mockRestore();
      }
    } finally {
      out.mockRestore();
    }
  });
});

describe('merge and blind games', () => {
  it('refuses a blind game whose line does not reach its recorded end: one line naming the file and the row, exit 2', async () => {
    const good = join(dir, 'm-good.sqlite');
    await runBatch(options(good, 'greedy'));
    const bad = join(dir, 'm-bad.sqlite');
    copyFileSync(good, bad);
    const w = new Database(bad);
    const row = w.prepare('SELECT id, code, completed FROM blind_results ORDER BY id LIMIT 1').get() as { id: number; code: string; completed: number };
    w.prepare('UPDATE blind_results SET completed = completed + 1 WHERE id = ?').run(row.id);
    w.close();
    const into = join(dir, 'm-into.sqlite');
    expect(() => mergeDatabases(into, [bad])).toThrow(new RegExp(`input .*m-bad\\.sqlite.*blind_results row ${row.id} \\(deal "${row.code}" played blind by "greedy".*its line ends with ${row.completed} suits completed, but it records ${row.completed + 1}`));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['merge', '--into', into, bad])).toBe(2);
      const text = err.mock.calls.map((c) => String(c[0])).join('');
      expect(text.trim().split('\n')).toHaveLength(1);
      expect(text).toMatch(/m-bad\.sqlite.*blind_results row/);
    } finally {
      err.mockRestore();
      out.mockRestore();
    }
    // a stuck game recorded won is refused too
    const won = join(dir, 'm-won.sqlite');
    copyFileSync(good, won);
    const w2 = new Database(won);
    w2.prepare("UPDATE blind_results SET status = 'won' WHERE status = 'stuck' AND id = (SELECT min(id) FROM blind_results WHERE status = 'stuck')").run();
    w2.close();
    expect(() => mergeDatabases(join(dir, 'm-into2.sqlite'), [won])).toThrow(/a won game whose line ends with \d of 4 suits completed, not won/);
  });

  it('refuses a blind game whose player is not a stored spec, or whose version is not blind-N/solver-X.Y.Z', async () => {
    const good = join(dir, 'p-good.sqlite');
    await runBatch(options(good, 'greedy'));
    const edit = (name: string, sql: string): string => {
      const file = join(dir, name);
      copyFileSync(good, file);
      const w = new Database(file);
      w.prepare(sql).run();
      w.close();
      return file;
    };
    const typo = edit('p-typo.sqlite', "UPDATE blind_results SET player = 'sampel' WHERE id = (SELECT min(id) FROM blind_results)");
    expect(() => mergeDatabases(join(dir, 'p-into1.sqlite'), [typo])).toThrow(/p-typo\.sqlite.*blind_results row \d+.*its player "sampel" is not a player spec as a batch stores it/);
    // a spec that parses but is not written as a batch writes it (every parameter, fixed order)
    const loose = edit('p-loose.sqlite', "UPDATE blind_results SET player = 'sample:k=2' WHERE id = (SELECT min(id) FROM blind_results)");
    expect(() => mergeDatabases(join(dir, 'p-into2.sqlite'), [loose])).toThrow(/its player "sample:k=2" is not a player spec as a batch stores it/);
    const version = edit('p-version.sqlite', "UPDATE blind_results SET version = 'blind-9/solver-0' WHERE id = (SELECT min(id) FROM blind_results)");
    expect(() => mergeDatabases(join(dir, 'p-into3.sqlite'), [version])).toThrow(/its version is "blind-9\/solver-0", not blind-N\/solver-X\.Y\.Z/);
    // the good one merges
    expect(() => mergeDatabases(join(dir, 'p-into4.sqlite'), [good])).not.toThrow();
  });
});

describe('a database of the schema before blind studies', () => {
  it('opens, is brought to the current schema, and reports and exports exactly as before', async () => {
    const db = join(dir, 'v2.sqlite');
    await runBatch({
      deals: planSeeds('spiderette', [1], [{ from: 1, to: 4 }]), maxPositions: 3000, workers: 1, dbPath: db, study: 'old',
      studyParams: { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-4', maxPositions: 3000 },
    });
    const capture = async (args: string[]) => (await run(args)).stdout;
    const report = await capture(['report', '--db', db]);
    const csv = await capture(['export', '--csv', '--db', db]);
    // back to schema 2: what migration 3 added, removed
    const old = join(dir, 'v2-old.sqlite');
    copyFileSync(db, old);
    const w = new Database(old);
    w.exec('DROP TABLE blind_results; ALTER TABLE studies DROP COLUMN player; ALTER TABLE studies DROP COLUMN player_seed;');
    w.pragma('user_version = 2');
    w.close();
    expect(await capture(['report', '--db', old])).toBe(report);
    expect(await capture(['export', '--csv', '--db', old])).toBe(csv);
    expect(report).not.toContain('blind');
    const r = new Database(old, { readonly: true });
    expect(r.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(3);
    r.close();
  });
});
