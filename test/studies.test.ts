/**
 * Studies as first-class objects (issue 11): reports per study, one deal one key, budget ladders, the
 * --until-width stopping rule, and the migration of a schema-1 database. Known answers come from the
 * test worker's fake outcomes (test/batch-fixtures/test.worker.ts), counted by hand below.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDealCode } from '../src/game/code.js';
import { dealCards, dealPosition } from '../src/game/deal.js';
import { positionToJson } from '../src/game/positionFile.js';
import { loadDeal } from '../src/game/ref.js';
import { getVariant } from '../src/game/variant.js';
import { planStudy, planSeeds, type PlannedDeal } from '../src/batch/deals.js';
import { bandText, bandWidth, runBatch, type BatchOptions } from '../src/batch/runner.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/batch/schema.js';
import { recordFromOutcome, ResultStore } from '../src/batch/store.js';
import { formatBatchSummary, formatStudies } from '../src/cli/batch.js';
import { isPartial, type ReportRow } from '../src/batch/report.js';
import { solve } from '../src/solver/solve.js';
import { withEnv } from './helpers/env.js';
import { runInProcess } from './helpers/cli.js';
import { wonLine } from './helpers/won.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function cli(...args: string[]) {
  const r = await runInProcess(args);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-studies-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function seedsStudy(db: string, study: string, game: 'spider' | 'spiderette', suits: (1 | 2 | 4)[], from: number, to: number, budgets: number[], over: Partial<BatchOptions> = {}): BatchOptions {
  return {
    deals: planSeeds(game, suits, [{ from, to }]),
    maxPositions: budgets[0]!,
    budgets,
    workers: 2,
    dbPath: db,
    study,
    studyParams: { game, suits: suits.join(','), dealsSpec: `seeds:${from}-${to}`, maxPositions: budgets[0]!, budgets },
    workerFile: TEST_WORKER,
    ...over,
  };
}

const FAKE = { SPIDERSOLVE_TEST_FAKE: '1' };
const LADDER = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_LADDER: '1' };

function counts(rows: readonly ReportRow[]): string[] {
  return rows.map((r) => `${r.study} ${r.game}/${r.suits} @${r.budget}: ${r.deals} deals, won ${r.won}, lost ${r.lost}, undecided ${r.undecided}, errors ${r.errors}`);
}

function readStore<T>(db: string, f: (s: ResultStore) => T): T {
  const s = ResultStore.openForReading(db);
  try {
    return f(s);
  } finally {
    s.close();
  }
}

describe('two studies in one database', () => {
  it('each study reports its own deals; a deal both plan is solved once and counted by both; --pool merges only when asked', async () => {
    const db = join(dir, 'two.sqlite');
    // fake outcomes by seed s: s % 4 = 0 won, 1 lost, 2 undecided, 3 won
    const a = await withEnv(FAKE, () => runBatch(seedsStudy(db, 'A', 'spider', [1], 1, 8, [77])));
    const b = await withEnv(FAKE, () => runBatch(seedsStudy(db, 'B', 'spider', [1], 5, 12, [77])));
    expect(a).toMatchObject({ planned: 8, skipped: 0, ran: 8 });
    expect(b).toMatchObject({ planned: 8, skipped: 4, ran: 4 }); // seeds 5-8 are A's results
    const rows = readStore(db, (s) => s.report());
    // A: seeds 1-8: lost 1 5, undecided 2 6, won 3 4 7 8.  B: seeds 5-12: lost 5 9, undecided 6 10, won 7 8 11 12.
    expect(counts(rows)).toEqual([
      'A spider/1 @77: 8 deals, won 4, lost 2, undecided 2, errors 0',
      'B spider/1 @77: 8 deals, won 4, lost 2, undecided 2, errors 0',
    ]);
    expect(rows[0]).toMatchObject({ floor: 0.5, ceiling: 0.75, medianPositions: 551 }); // won 301 401 701 801
    expect(rows[1]).toMatchObject({ floor: 0.5, ceiling: 0.75, medianPositions: 951 }); // won 701 801 1101 1201
    expect(counts(readStore(db, (s) => s.report({ studies: ['B'] })))).toEqual(['B spider/1 @77: 8 deals, won 4, lost 2, undecided 2, errors 0']);
    // pooled: seeds 1-12 once each: lost 1 5 9, undecided 2 6 10, won 3 4 7 8 11 12
    expect(counts(readStore(db, (s) => s.report({ pool: true })))).toEqual(['A + B spider/1 @77: 12 deals, won 6, lost 3, undecided 3, errors 0']);
    const studies = readStore(db, (s) => s.studies());
    expect(studies.map((s) => [s.name, s.planned, s.counted, s.settled, s.runs.map((r) => r.status)])).toEqual([
      ['A', 8, 8, 8, ['done']],
      ['B', 8, 8, 8, ['done']],
    ]);
    expect(studies[1]!.runs[0]).toMatchObject({ planned: 8, skipped: 4, completed: 4, workers: 2, pid: process.pid });
    expect(studies[1]!.runs[0]!.uid).toMatch(/^[0-9a-f-]{36}$/);
    // the same through the command line
    const one = await cli('report', '--db', db, '--study', 'B', '--format', 'json');
    expect((JSON.parse(one.stdout) as { study: string; deals: number }[]).map((r) => [r.study, r.deals])).toEqual([['B', 8]]);
    const both = await cli('report', '--db', db, '--study', 'A', '--study', 'B', '--pool', '--format', 'csv');
    expect(both.stdout.split('\r\n')[1]).toMatch(/^A \+ B,spider,1,77,12,6,3,3,0,0\.5,/);
    // the HTML report's head line counts the studies pooled, not its one pooled row ("1 study")
    const html = await cli('report', '--db', db, '--study', 'A', '--study', 'B', '--pool', '--format', 'html');
    expect(html.stdout).toContain(`<p class="meta">12 deals counted by 2 studies in ${db} (pooled studies A, B); pooled: a deal two studies share counts once, solver `);
    const unpooled = await cli('report', '--db', db, '--format', 'html');
    expect(unpooled.stdout).toContain(`<p class="meta">16 deals counted by 2 studies in ${db} (every study); a deal two studies share counts in each, solver `);
    const exported = await cli('export', '--csv', '--db', db, '--study', 'B');
    expect(exported.stdout.split('\r\n').slice(1, -1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(
      [5, 6, 7, 8, 9, 10, 11, 12].map((n) => `B,SP1-${n}`));
    expect(await cli('report', '--db', db, '--study', 'C')).toMatchObject({ status: 2, stderr: `spidersolve: option --study: no study "C" in ${db}; it holds "A", "B" (spidersolve studies lists them)\n` });
    // a name longer than any study's is quoted cut short, with its length (it was printed whole)
    expect(await cli('report', '--db', db, '--study', 'q'.repeat(3000))).toMatchObject({
      status: 2, stderr: `spidersolve: option --study: no study "${'q'.repeat(29)}…${'q'.repeat(10)}" (3,000 characters) in ${db}; it holds "A", "B" (spidersolve studies lists them)\n`,
    });
    // a name of spaces only is told it is empty, quoted as given (it was: no study ""), as batch tells it
    for (const cmd of [['report'], ['export', '--csv']]) {
      expect(await cli(...cmd, '--db', db, '--study', 'A', '--study', '  ')).toMatchObject({ status: 2, stdout: '', stderr: 'spidersolve: option --study "  ": the name is empty\n' });
    }
  });
});

describe('export of a study whose deals another study settled at a smaller budget', () => {
  it('shows the smaller budget the result was stored at (the ladder rule), and docs/commands.md says so where export is described', async () => {
    const db = join(dir, 'export-budgets.sqlite');
    // SPIDERSOLVE_TEST_LADDER: seed s needs 100·s positions; s % 4 = 2 never decided, s % 4 = 1 lost, the others won.
    // Small at 400: lost 1, undecided 2, won 3 4. Big at 2000: 1, 3, 4 count as settled at 400; only 2 is solved.
    await withEnv(LADDER, () => runBatch(seedsStudy(db, 'Small', 'spiderette', [1], 1, 4, [400])));
    const big = await withEnv(LADDER, () => runBatch(seedsStudy(db, 'Big', 'spiderette', [1], 1, 4, [2000])));
    expect(big).toMatchObject({ skipped: 3, ran: 1 });
    expect(counts(big.report)).toEqual(['Big spiderette/1 @2000: 4 deals, won 2, lost 1, undecided 1, errors 0']);
    const csv = (await cli('export', '--csv', '--db', db, '--study', 'Big')).stdout.split('\r\n').filter(Boolean).map((l) => l.split(','));
    const col = (name: string) => csv[0]!.indexOf(name);
    expect(csv.slice(1).map((r) => [r[col('name')], r[col('max_positions')], r[col('status')]])).toEqual([
      ['SE1-1', '400', 'lost'],
      ['SE1-2', '2000', 'undecided'],
      ['SE1-3', '400', 'won'],
      ['SE1-4', '400', 'won'],
    ]);
    const commands = readFileSync(join(ROOT, 'docs/commands.md'), 'utf8');
    const section = commands.slice(commands.indexOf('### `spidersolve export`'), commands.indexOf('### `spidersolve merge`'));
    expect(section.replace(/\s+/g, ' ')).toContain(
      "A row's `max_positions` is the budget its result was stored at, which may be smaller than the study's: by the ladder rule (above), " +
        'a deal won or proven lost at a smaller budget, by any study, is not solved again and counts at larger budgets',
    );
  });
});

describe('--pool over studies with different budgets', () => {
  it('a pooled row at budget B is the union of the rows at B of the pooled studies that have rung B; nothing from other studies', async () => {
    const db = join(dir, 'pool-budgets.sqlite');
    // SPIDERSOLVE_TEST_LADDER: seed s needs 100·s positions; s % 4 = 2 never decided, s % 4 = 1 lost, the others won.
    // F: seeds 1-12 at 400: lost 1, won 3 4, undecided 2 5-12.
    // L: seeds 1-2 at 1000, 2000: lost 1, undecided 2 (seed 2 solved at each rung).
    // T (not pooled): seeds 5-6 at 3000: lost 5, undecided 6.
    await withEnv(LADDER, () => runBatch(seedsStudy(db, 'F', 'spiderette', [1], 1, 12, [400])));
    await withEnv(LADDER, () => runBatch(seedsStudy(db, 'L', 'spiderette', [1], 1, 2, [1000, 2000])));
    await withEnv(LADDER, () => runBatch(seedsStudy(db, 'T', 'spiderette', [1], 5, 6, [3000])));
    const pooled = readStore(db, (s) => s.report({ studies: ['F', 'L'], pool: true }));
    // before the fix, @1000 and @2000 also counted F's wins 3 4 (won at 400) and T's undecided 6, not F's undecided 5 7-12
    expect(counts(pooled)).toEqual([
      'F + L spiderette/1 @400: 12 deals, won 2, lost 1, undecided 9, errors 0',
      'F + L spiderette/1 @1000: 2 deals, won 0, lost 1, undecided 1, errors 0',
      'F + L spiderette/1 @2000: 2 deals, won 0, lost 1, undecided 1, errors 0',
    ]);
    // the pooled rows are the per-study rows when the studies share no rung
    const apart = readStore(db, (s) => s.report({ studies: ['F', 'L'] }));
    expect(counts(apart).map((l) => l.replace(/^[FL] /, 'F + L '))).toEqual(counts(pooled));
    // export --summary gives the same rows as report
    const rep = await cli('report', '--db', db, '--study', 'F', '--study', 'L', '--pool', '--format', 'csv');
    const exp = await cli('export', '--csv', '--summary', '--db', db, '--study', 'F', '--study', 'L', '--pool');
    expect(exp.stdout).toBe(rep.stdout);
    expect(rep.stdout.split('\r\n').slice(1, -1).map((l) => l.split(',').slice(0, 5).join(','))).toEqual([
      'F + L,spiderette,1,400,12', 'F + L,spiderette,1,1000,2', 'F + L,spiderette,1,2000,2',
    ]);
    // per deal: each result once, none of T's
    const rows = await cli('export', '--csv', '--db', db, '--study', 'F', '--study', 'L', '--pool');
    expect(rows.stdout.split('\r\n').slice(1, -1).map((l) => `${l.split(',')[1]}@${l.split(',')[11]}`)).toEqual([
      'SE1-1@400', 'SE1-2@400', 'SE1-2@1000', 'SE1-2@2000', ...[3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => `SE1-${n}@400`),
    ]);
    // a study that shares a rung: the union, each deal once (F and F2 plan seeds 3-4 both)
    await withEnv(LADDER, () => runBatch(seedsStudy(db, 'F2', 'spiderette', [1], 3, 14, [400])));
    expect(counts(readStore(db, (s) => s.report({ studies: ['F', 'F2'], pool: true })))).toEqual([
      'F + F2 spiderette/1 @400: 14 deals, won 2, lost 1, undecided 11, errors 0',
    ]);
  });

  it('a study named twice counts once', async () => {
    const db = join(dir, 'pool-budgets.sqlite');
    const once = readStore(db, (s) => counts(s.report({ studies: ['F'] })));
    expect(once).toEqual(['F spiderette/1 @400: 12 deals, won 2, lost 1, undecided 9, errors 0']);
    expect(readStore(db, (s) => counts(s.report({ studies: ['F', 'F'] })))).toEqual(once);
    expect(readStore(db, (s) => counts(s.report({ studies: ['F', 'F'], pool: true })))).toEqual(once);
    const rep = await cli('report', '--db', db, '--study', 'F', '--study', 'F', '--format', 'csv');
    expect(rep.stdout.split('\r\n').slice(1, -1).map((l) => l.split(',').slice(0, 6).join(','))).toEqual(['F,spiderette,1,400,12,2']);
    const sum = await cli('export', '--csv', '--summary', '--db', db, '--study', 'F', '--study', ' F', '--pool');
    expect(sum.stdout.split('\r\n').slice(1, -1).map((l) => l.split(',').slice(0, 6).join(','))).toEqual(['F,spiderette,1,400,12,2']);
    const rows = await cli('export', '--csv', '--db', db, '--study', 'F', '--study', 'F');
    expect(rows.stdout.split('\r\n').slice(1, -1)).toHaveLength(12);
  });
});

describe('one deal, one key', () => {
  it('a seeded code and a position file of the same deal are one row, solved once, counted by both studies, with both names', async () => {
    const db = join(dir, 'same.sqlite');
    const v = getVariant('spider', 2);
    const file = join(dir, 'sp2-7.json');
    writeFileSync(file, JSON.stringify(positionToJson(dealPosition(v, 7))));
    const deals = join(dir, 'same-deal.txt');
    writeFileSync(deals, `${file}\nSP2-7\n`); // the same deal twice in one file, under two names: planned once
    const first = await runBatch({ ...seedsStudy(db, 'seeded', 'spider', [2], 7, 7, [3000]), workerFile: undefined });
    expect(first).toMatchObject({ ran: 1, skipped: 0 });
    const plan = planStudy({ kind: 'file', path: deals }, loadDeal);
    expect([...plan.deals].map((d) => d.key)).toEqual([makeDealCode(v, dealCards(v, 7))]);
    expect(plan.duplicates).toBe(1);
    const second = await runBatch({
      deals: plan.deals, maxPositions: 3000, workers: 2, dbPath: db, study: 'file',
      studyParams: { game: null, suits: null, dealsSpec: `file:${deals}`, maxPositions: 3000 },
    });
    expect(second).toMatchObject({ ran: 0, skipped: 1 });
    const raw = new Database(db, { readonly: true });
    const results = raw.prepare('SELECT deal, code, status FROM results').all() as { deal: string; code: string; status: string }[];
    expect(results).toHaveLength(1);
    expect(results[0]!.deal).toBe(makeDealCode(v, dealCards(v, 7)));
    expect(raw.prepare('SELECT name FROM deal_names ORDER BY name').pluck().all()).toEqual(['SP2-7', `file:${file}`]);
    expect(raw.prepare('SELECT s.name, sd.name AS dealName FROM study_deals sd JOIN studies s ON s.id = sd.study_id ORDER BY s.id').all()).toEqual([
      { name: 'seeded', dealName: 'SP2-7' },
      { name: 'file', dealName: `file:${file}` },
    ]);
    raw.close();
    const rows = readStore(db, (s) => s.report());
    expect(rows.map((r) => [r.study, r.deals, r.won + r.lost + r.undecided])).toEqual([['seeded', 1, 1], ['file', 1, 1]]);

    // a deals file alone naming it twice: planned once, solved once, both names recorded
    const alone = join(dir, 'same-alone.sqlite');
    const only = await runBatch({
      deals: plan.deals, maxPositions: 3000, workers: 1, dbPath: alone, study: 'file',
      studyParams: { game: null, suits: null, dealsSpec: `file:${deals}`, maxPositions: 3000 },
    });
    expect(only).toMatchObject({ ran: 1, skipped: 0 });
    const raw2 = new Database(alone, { readonly: true });
    expect(raw2.prepare('SELECT name FROM deal_names ORDER BY name').pluck().all()).toEqual(['SP2-7', `file:${file}`]);
    expect(raw2.prepare('SELECT count(*) FROM study_deals').pluck().get()).toBe(1);
    raw2.close();
  });
});

describe('budget ladders', () => {
  // SPIDERSOLVE_TEST_LADDER: seed s needs 100·s positions; s % 4 = 2 never decided, s % 4 = 1 lost, the others won.
  // Spiderette 1 suit, seeds 1-8, ladder 250, 500, 1000:
  //   @250:  lost 1;          won none;     undecided 2 3 4 5 6 7 8  (8 solved)
  //   @500:  lost 1 5;        won 3 4;      undecided 2 6 7 8        (7 solved: the undecided at 250)
  //   @1000: lost 1 5;        won 3 4 7 8;  undecided 2 6            (4 solved)
  const expected = [
    'L spiderette/1 @250: 8 deals, won 0, lost 1, undecided 7, errors 0',
    'L spiderette/1 @500: 8 deals, won 2, lost 2, undecided 4, errors 0',
    'L spiderette/1 @1000: 8 deals, won 4, lost 2, undecided 2, errors 0',
  ];

  it('solves every deal at the first rung and the undecided at the next; the report gives each rung\'s cumulative counts', async () => {
    const db = join(dir, 'ladder.sqlite');
    const s = await withEnv(LADDER, () => runBatch(seedsStudy(db, 'L', 'spiderette', [1], 1, 8, [250, 500, 1000])));
    expect(s).toMatchObject({ planned: 8, ran: 19, remaining: 0, budgets: [250, 500, 1000] });
    expect(counts(s.report)).toEqual(expected);
    // the summary counts deals and solves apart
    expect(formatBatchSummary(s)).toMatch(/^  deals 8: 0 already stored at the first rung \(won, lost or undecided there\), 19 solves over the 3 rungs run now in .* \([0-9.]+ solves\/s, 2 workers\); 8 of its deals done \(won or lost at a rung, or undecided at the last\), 0 left$/m);
    // stopped, its deals done and left make the plan, whatever the solves
    expect(formatBatchSummary({ ...s, planned: 100, skipped: 77, ran: 32, remaining: 56, interrupted: true })).toMatch(/; 44 of its deals done \(won or lost at a rung, or undecided at the last\), 56 left$/m);
    // the run's counts are of solves, and say so (a deal may be solved at several rungs)
    expect(formatBatchSummary(s)).toMatch(/^  this run's 19 solves: won \d+, lost \d+, undecided \d+, errors 0$/m);
    // repeats of the plan are said as the plan's kind has them
    expect(formatBatchSummary(s, 0, null, 2, 'seeds')).toMatch(/, 0 left; 2 deals of overlapping seed ranges planned once$/m);
    expect(formatBatchSummary(s, 0, null, 1)).toMatch(/, 0 left; 1 duplicate line of the file merged \(the same deal twice is planned once\)$/m);
    const raw = new Database(db, { readonly: true });
    expect(raw.prepare('SELECT max_positions AS b, count(*) AS n FROM results GROUP BY b ORDER BY b').all()).toEqual([
      { b: 250, n: 8 }, { b: 500, n: 7 }, { b: 1000, n: 4 },
    ]);
    raw.close();
    // the 95% intervals of the floor and the ceiling at the last rung: 4/8 and 6/8
    expect(s.report[2]).toMatchObject({ floor: 0.5, ceiling: 0.75 });
    expect(s.report[2]!.ciLow).toBeCloseTo(0.2152, 4);
    expect(s.report[2]!.ceilingHigh).toBeCloseTo(0.9285, 4);
    // won deals' positions per rung (for curves): the smallest budget that won each
    const won = readStore(db, (st) => st.wonPositions({ studies: ['L'] }));
    expect(won.map((w) => [w.budget, w.positions])).toEqual([[250, []], [500, [300, 400]], [1000, [300, 400, 700, 800]]]);
  });

  it('is the same with 1 and 2 workers, and resumes at any rung after an interruption', async () => {
    const one = join(dir, 'ladder1.sqlite');
    await withEnv(LADDER, () => runBatch(seedsStudy(one, 'L', 'spiderette', [1], 1, 8, [250, 500, 1000], { workers: 1 })));
    const db = join(dir, 'ladder-int.sqlite');
    const ctl = new AbortController();
    let bars = 0;
    const totals: number[] = [];
    // one progress bar a rung, its total the deals the rung looks at; stop during the second rung
    const progress = { start(n: number) { bars++; totals.push(n); }, update(n: number) { if (bars === 2 && n === 3) ctl.abort(); }, stop() {} };
    const first = await withEnv({ ...LADDER, SPIDERSOLVE_TEST_DELAY_MS: '3' }, () =>
      runBatch({ ...seedsStudy(db, 'L', 'spiderette', [1], 1, 8, [250, 500, 1000], { flushEvery: 1 }), signal: ctl.signal, progress }));
    expect(first.interrupted).toBe(true);
    expect(totals).toEqual([8, 7]);
    expect(first.ran).toBeGreaterThanOrEqual(11);
    expect(first.ran).toBeLessThan(19);
    // every rung of the interrupted run counts all 8 deals: those the ladder has not taken there yet
    // count undecided (they were left out, and the upper rungs' floors read high)
    expect(first.report.map((r) => [r.budget, r.deals, r.won + r.lost + r.undecided + r.errors])).toEqual([[250, 8, 8], [500, 8, 8], [1000, 8, 8]]);
    const unfinished = readStore(db, (st) => st.studies()[0]!.unfinished);
    expect(first.unfinished).toBe(unfinished);
    expect(unfinished).toBeGreaterThan(0);
    expect(formatBatchSummary(first).trimEnd().split('\n').at(-1)).toBe(
      `study L: ${unfinished} of 8 deals not yet solved at every rung of the ladder (partial: an unfinished run); they count as undecided at the rungs they have not reached`,
    );
    const second = await withEnv(LADDER, () => runBatch(seedsStudy(db, 'L', 'spiderette', [1], 1, 8, [250, 500, 1000])));
    expect(second.ran).toBe(19 - first.ran);
    expect(counts(second.report)).toEqual(expected);
    const norm = (path: string) => {
      const d = new Database(path, { readonly: true });
      const r = d.prepare('SELECT deal, max_positions, status, positions FROM results ORDER BY deal, max_positions').all();
      d.close();
      return r;
    };
    expect(norm(db)).toEqual(norm(one));
    expect(readStore(one, (s) => counts(s.report()))).toEqual(expected);
    const runs = readStore(db, (s) => s.studies()[0]!.runs.map((r) => r.status));
    expect(runs).toEqual(['interrupted', 'done']);
  });

  it('counts, at each rung of an unfinished ladder, the deals not taken there yet as undecided, and says how many there are (report, studies, merge)', async () => {
    const db = join(dir, 'ladder-unfinished.sqlite');
    const store = ResultStore.openForWriting(db);
    const study = store.ensureStudy('U', { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-5', maxPositions: 250, budgets: [250, 500, 1000], planned: 5 });
    const deals = planSeeds('spiderette', [1], [{ from: 1, to: 5 }]);
    // (a won result with its deal's real line: merge replays it)
    const rec = (i: number, budget: number, status: 'won' | 'lost' | 'undecided', positions: number) =>
      recordFromOutcome(deals[i]!, budget, {
        key: deals[i]!.key, status, positions, elapsedMs: 1, line: '', moveCount: null,
        classicScore: null, revealScore: null, peakBytes: 0, solverVersion: '9.9.9', workerMs: 1,
        ...(status === 'won' ? wonLine(deals[i]!.key) : {}),
      });
    // seed 1 won at 250; 2 undecided at 250, not yet run at 500, won at 1000 (as another study may
    // leave it: the middle rung is still to run); 3 undecided at 250, lost at 500;
    // 4 undecided at 250 and 500, not yet run at 1000; 5 undecided at 250, 500 and 1000
    const records = [
      rec(0, 250, 'won', 90), rec(1, 250, 'undecided', 250), rec(1, 1000, 'won', 900), rec(2, 250, 'undecided', 250), rec(2, 500, 'lost', 400),
      rec(3, 250, 'undecided', 250), rec(3, 500, 'undecided', 500), rec(4, 250, 'undecided', 250), rec(4, 500, 'undecided', 500), rec(4, 1000, 'undecided', 1000),
    ];
    store.writeResults(null, records, study, deals.map((d, i) => ({ deal: records.find((r) => r.code === d.key)!.deal, ord: i, name: d.key })));
    expect(store.studies()[0]).toMatchObject({ planned: 5, counted: 5, settled: 4, unfinished: 2 });
    expect(counts(store.report({ studies: ['U'] }))).toEqual([
      'U spiderette/1 @250: 5 deals, won 1, lost 0, undecided 4, errors 0',
      'U spiderette/1 @500: 5 deals, won 1, lost 1, undecided 3, errors 0',
      'U spiderette/1 @1000: 5 deals, won 2, lost 1, undecided 2, errors 0',
    ]);
    // export's rows are the results stored, each once (seed 2's undecided at 250 is not repeated at the rungs above)
    expect([...store.rows({ studies: ['U'] })].map((r) => `${r.code}@${r.maxPositions}`)).toEqual(['SE1-1@250', 'SE1-2@250', 'SE1-2@1000', 'SE1-3@250', 'SE1-3@500', 'SE1-4@250', 'SE1-4@500', 'SE1-5@250', 'SE1-5@500', 'SE1-5@1000']);
    store.close();
    const note = 'study U: 2 of 5 deals not yet solved at every rung of the ladder (partial: an unfinished run); they count as undecided at the rungs they have not reached';
    const rep = await cli('report', '--db', db);
    expect(rep.status).toBe(0);
    expect(rep.stdout.trimEnd().split('\n').at(-1)).toBe(note);
    expect((await cli('studies', '--db', db)).stdout).toContain('  deals planned 5, counted 5, settled 4, not yet at every rung 2\n');
    const merged = join(dir, 'ladder-unfinished-merged.sqlite');
    const m = await cli('merge', '--into', merged, db);
    expect(m.status).toBe(0);
    expect(m.stdout.trimEnd().split('\n').at(-1)).toBe(`  ${note}`);
    expect(JSON.parse((await cli('merge', '--into', merged, db, '--json')).stdout).studies).toEqual([{ name: 'U', planned: 5, counted: 5, stoppedAt: null, unfinished: 2, untilWidth: null, partial: true }]);
  });

  it('says whether a study is whole per solver version: an older solver\'s results do not make a newer one\'s rows whole', async () => {
    const db = join(dir, 'versions.sqlite');
    const store = ResultStore.openForWriting(db);
    const study = store.ensureStudy('V', { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-4', maxPositions: 250, planned: 4 });
    const deals = planSeeds('spiderette', [1], [{ from: 1, to: 4 }]);
    const rec = (i: number, version: string) => recordFromOutcome(deals[i]!, 250, {
      key: deals[i]!.key, status: 'won', positions: 10, elapsedMs: 1, line: 'd', moveCount: 1, classicScore: null, revealScore: null, peakBytes: 0, solverVersion: version, workerMs: 1,
    });
    // solver 1.0.0 solved all four; 2.0.0, stopped, two of them
    const records = [0, 1, 2, 3].map((i) => rec(i, '1.0.0')).concat([rec(0, '2.0.0'), rec(1, '2.0.0')]);
    store.writeResults(null, records, study, [0, 1, 2, 3].map((o) => ({ deal: records[o]!.deal, ord: o, name: deals[o]!.key })));
    expect(store.studies(['V'])[0]).toMatchObject({ counted: 4, settled: 4 });
    expect(store.studies(['V'], '2.0.0')[0]).toMatchObject({ counted: 2, settled: 2, unfinished: 0 });
    expect(store.studies(['V'], '1.0.0')[0]).toMatchObject({ counted: 4, settled: 4 });
    expect(store.settledPlaces(study, 250, '2.0.0').sort((a, b) => a - b)).toEqual([0, 1]);
    store.close();
    const rep = await cli('report', '--db', db);
    expect(rep.status).toBe(0);
    expect(rep.stdout.trimEnd().split('\n').at(-1)).toBe('study V (solver 2.0.0): 2 of 4 planned deals counted (partial: missing shards or an unfinished run)');
    expect(rep.stdout).not.toContain('(solver 1.0.0)');
    // the machine-read forms say it in each row, a column `partial` (only the text forms did)
    expect(JSON.parse((await cli('report', '--db', db, '--format', 'json')).stdout).map((r: { solverVersion: string; deals: number; partial: boolean }) => [r.solverVersion, r.deals, r.partial])).toEqual([['1.0.0', 4, false], ['2.0.0', 2, true]]);
    const csv = (await cli('report', '--db', db, '--format', 'csv')).stdout.split('\r\n');
    expect(csv[0]!.endsWith(',solverVersion,partial')).toBe(true);
    expect(csv.slice(1, 3).map((l) => l.split(',').slice(-2).join(','))).toEqual(['1.0.0,false', '2.0.0,true']);
    expect((await cli('export', '--csv', '--summary', '--db', db)).stdout.split('\r\n').slice(1, 3).map((l) => l.split(',').at(-1))).toEqual(['false', 'true']);
    // a pooled row is partial when a study it pools is
    const whole = ResultStore.openForWriting(db);
    const w = whole.ensureStudy('W', { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-1', maxPositions: 250, planned: 1 });
    whole.writeResults(null, [rec(0, '2.0.0')], w, [{ deal: records[0]!.deal, ord: 0, name: deals[0]!.key }]);
    whole.close();
    const pooled = async (...args: string[]) => JSON.parse((await cli('report', '--db', db, '--pool', '--format', 'json', ...args)).stdout).map((r: { solverVersion: string; partial: boolean }) => [r.solverVersion, r.partial]);
    expect(await pooled()).toEqual([['1.0.0', false], ['2.0.0', true]]);
    // (W's one deal is V's first, which both solvers solved)
    expect(await pooled('--study', 'W')).toEqual([['1.0.0', false], ['2.0.0', false]]);
    // a partial study of another suit count makes its own rows partial, not the one-suit rows, and a
    // row's flag does not change with --suits
    const other = ResultStore.openForWriting(db);
    const x = other.ensureStudy('X4', { game: 'spiderette', suits: '4', dealsSpec: 'seeds:1-2', maxPositions: 250, planned: 2 });
    const d4 = planSeeds('spiderette', [4], [{ from: 1, to: 2 }]);
    const r4 = recordFromOutcome(d4[0]!, 250, { key: d4[0]!.key, status: 'won', positions: 10, elapsedMs: 1, line: 'd', moveCount: 1, classicScore: null, revealScore: null, peakBytes: 0, solverVersion: '2.0.0', workerMs: 1 });
    other.writeResults(null, [r4], x, [{ deal: r4.deal, ord: 0, name: d4[0]!.key }]);
    other.close();
    const bySuits = async (...args: string[]) => JSON.parse((await cli('report', '--db', db, '--pool', '--format', 'json', ...args)).stdout).map((r: { suits: number; solverVersion: string; partial: boolean }) => [r.suits, r.solverVersion, r.partial]);
    expect(await bySuits('--study', 'W', '--study', 'X4')).toEqual([[1, '1.0.0', false], [1, '2.0.0', false], [4, '2.0.0', true]]);
    expect(await bySuits('--study', 'W', '--study', 'X4', '--suits', '1')).toEqual([[1, '1.0.0', false], [1, '2.0.0', false]]);
    expect(await bySuits('--study', 'W', '--study', 'X4', '--suits', '4')).toEqual([[4, '2.0.0', true]]);
  });

  it('report --game/--suits that leave a partial study out leave its line out; those that keep it keep it', async () => {
    const db = join(dir, 'filtered-partial.sqlite');
    const store = ResultStore.openForWriting(db);
    const study = store.ensureStudy('F', { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-4', maxPositions: 250, planned: 4 });
    const deals = planSeeds('spiderette', [1], [{ from: 1, to: 4 }]);
    const records = [0, 1].map((i) => recordFromOutcome(deals[i]!, 250, {
      key: deals[i]!.key, status: 'won', positions: 10, elapsedMs: 1, line: 'd', moveCount: 1, classicScore: null, revealScore: null, peakBytes: 0, solverVersion: '1.0.0', workerMs: 1,
    }));
    store.writeResults(null, records, study, [0, 1].map((o) => ({ deal: records[o]!.deal, ord: o, name: deals[o]!.key })));
    store.close();
    const note = 'study F: 2 of 4 planned deals counted (partial: missing shards or an unfinished run)';
    for (const args of [[], ['--game', 'spiderette'], ['--suits', '1,2'], ['--game', 'spiderette', '--suits', '1']]) {
      const r = await cli('report', '--db', db, ...args);
      expect([r.status, r.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, note]);
    }
    for (const args of [['--game', 'spider'], ['--suits', '2,4'], ['--game', 'spiderette', '--suits', '4']]) {
      const r = await cli('report', '--db', db, ...args);
      expect(r.status).toBe(0);
      expect(r.stdout).not.toContain('partial');
    }
  });

  it('a stopped run counts a prefix of its plan: the deals after the first it lacks are unlinked (results kept), a shard by its own places', () => {
    const db = join(dir, 'prefix.sqlite');
    const store = ResultStore.openForWriting(db);
    const study = store.ensureStudy('P', { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-8', maxPositions: 250, planned: 8 });
    const deals = planSeeds('spiderette', [1], [{ from: 1, to: 8 }]);
    const rec = (i: number) => recordFromOutcome(deals[i]!, 250, {
      key: deals[i]!.key, status: 'won', positions: 10, elapsedMs: 1, line: 'd', moveCount: 1, classicScore: null, revealScore: null, peakBytes: 0, solverVersion: '9.9.9', workerMs: 1,
    });
    // places 0, 1, 3, 4, 6 done; 2 and 5 were in flight when the run stopped
    const done = [0, 1, 3, 4, 6];
    const records = done.map(rec);
    store.writeResults(null, records, study, done.map((o, k) => ({ deal: records[k]!.deal, ord: o, name: deals[o]!.key })));
    // a shard holding the odd places: its first gap is 5, so it unlinks nothing after it of its own
    expect(store.keepCountedPrefix(study, (o) => o % 2 === 1)).toBe(0);
    expect(store.studyPlaces('P')).toEqual([0, 1, 3, 4, 6]);
    // the whole plan: the first gap is 2, so 3, 4 and 6 are unlinked; their results stay
    expect(store.keepCountedPrefix(study, () => true)).toBe(3);
    expect(store.studyPlaces('P')).toEqual([0, 1]);
    expect([...store.allRows()]).toHaveLength(5);
    expect(store.keepCountedPrefix(study, () => true)).toBe(0);
    store.close();
  });

  it('starts above a budget the database already holds a deal at', async () => {
    const db = join(dir, 'ladder-above.sqlite');
    // another study solved seeds 1-8 at 500: won 3 4, lost 1 5, undecided 2 6 7 8
    const before = await withEnv(LADDER, () => runBatch(seedsStudy(db, 'at500', 'spiderette', [1], 1, 8, [500])));
    expect(before.ran).toBe(8);
    // a ladder 250, 1000: a win or loss at 500 does not need 1000; an undecided at 500 counts undecided at 250
    const s = await withEnv(LADDER, () => runBatch(seedsStudy(db, 'L2', 'spiderette', [1], 1, 8, [250, 1000])));
    // @250: seed 1 is lost at 100 ≤ 250 but the database only holds 500; 1 3 4 5 need a solve at 250
    // (nothing known at ≤ 250 for them), 2 6 7 8 are undecided at 500 ≥ 250 → skipped. @1000: 2 3 4 5 6 7 8
    // are undecided at 250 → 3 4 5 won/lost at 500 ≤ 1000 (no solve), 2 6 7 8 solved at 1000.
    expect(s).toMatchObject({ skipped: 4, ran: 8 });
    expect(counts(s.report)).toEqual([
      'L2 spiderette/1 @250: 8 deals, won 0, lost 1, undecided 7, errors 0',
      'L2 spiderette/1 @1000: 8 deals, won 4, lost 2, undecided 2, errors 0',
    ]);
  });
});

describe('a budget ladder with the real solver', () => {
  it('Spiderette 2 suits, seeds 1-10, rungs 300, 3,000, 10,000: the per-rung counts of direct solves, with 1 and 2 workers', async () => {
    // direct solves: won at 300: 5; at 3,000: 2 3 5 8 9; at 10,000: all but 1 6 10,
    // undecided at 10,000; nothing lost (so 10 + 9 + 5 = 24 solves)
    const v = getVariant('spiderette', 2);
    const budgets = [300, 3000, 10000];
    const direct = new Map<string, string>();
    const at = (seed: number, b: number) => {
      const k = `${seed}@${b}`;
      if (!direct.has(k)) direct.set(k, solve(dealPosition(v, seed), { maxPositions: b }).status);
      return direct.get(k)!;
    };
    const reference = budgets.map((b) => {
      const c = { won: 0, lost: 0, undecided: 0 };
      for (let seed = 1; seed <= 10; seed++) {
        const seen = budgets.filter((x) => x <= b).map((x) => at(seed, x));
        c[seen.includes('won') ? 'won' : seen.includes('lost') ? 'lost' : 'undecided']++;
      }
      return `R spiderette/2 @${b}: 10 deals, won ${c.won}, lost ${c.lost}, undecided ${c.undecided}, errors 0`;
    });
    // (checked against the direct solves, not numbers: another solver version may decide other deals)
    const undecided = reference.map((r) => Number(/undecided (\d+)/.exec(r)![1]));
    expect(undecided[0]).toBeGreaterThan(undecided[2]!); // the ladder decides more as the budget grows
    const rowsOf = (path: string) => {
      const d = new Database(path, { readonly: true });
      const r = d.prepare('SELECT deal, code, max_positions, status, positions, line FROM results ORDER BY code, max_positions').all();
      d.close();
      return r;
    };
    const dbs = [join(dir, 'real-ladder-1.sqlite'), join(dir, 'real-ladder-2.sqlite')];
    for (const [i, db] of dbs.entries()) {
      const s = await runBatch({ ...seedsStudy(db, 'R', 'spiderette', [2], 1, 10, budgets), workers: i + 1, workerFile: undefined });
      expect(s).toMatchObject({ ran: 10 + undecided[0]! + undecided[1]!, remaining: 0 }); // every deal, then the undecided
      expect(counts(s.report)).toEqual(reference);
    }
    expect(rowsOf(dbs[1]!)).toEqual(rowsOf(dbs[0]!));
  });
});

describe('--until-width', () => {
  it('stops at the first deal where the band from the floor\'s lower bound to the ceiling\'s upper bound is narrower than asked', async () => {
    const db = join(dir, 'width.sqlite');
    // fake outcomes: lost, undecided, won, won, … by seed. After 19 deals: won 9, open 5 → band 0.6086;
    // after 20 (seed 20): won 10, open 5 → Wilson low of 10/20 = 0.2993, high of 15/20 = 0.8881, band 0.5888 < 0.6.
    expect(bandWidth({ n: 19, won: 9, open: 5 })).toBeCloseTo(0.60864, 4);
    expect(bandWidth({ n: 20, won: 10, open: 5 })).toBeCloseTo(0.58884, 4);
    const plan = planStudy({ kind: 'seeds', game: 'spider', suits: [1], ranges: [{ from: 1, to: 4294967295, open: true }] }, loadDeal);
    expect(plan.planned).toBeNull();
    const opts: BatchOptions = {
      deals: plan.deals, maxPositions: 77, untilWidth: 0.6, workers: 2, dbPath: db, study: 'W', workerFile: TEST_WORKER,
      studyParams: { game: 'spider', suits: '1', dealsSpec: 'seeds:1-', maxPositions: 77, untilWidth: 0.6 },
    };
    const s = await withEnv(FAKE, () => runBatch(opts));
    expect(s.stopReason).toMatch(/^--until-width 0\.6: after 20 deals the band .* is 0\.5888 \(spider 1 suit\) < 0\.6$/);
    expect(s).toMatchObject({ planned: 20, remaining: 0, interrupted: false });
    expect(counts(s.report)).toEqual(['W spider/1 @77: 20 deals, won 10, lost 5, undecided 5, errors 0']);
    // deals past the stop that finished before it (in flight with 2 workers) are said apart
    expect(s.ran).toBe(20 + s.pastStop!);
    const info = readStore(db, (st) => st.studies()[0]!);
    expect(info).toMatchObject({ stoppedAt: 20, counted: 20, planned: 20 });
    expect(info.runs[0]!.note).toBe(s.stopReason);
    // the run of an open-ended plan planned the deals it went through, not 0
    expect(info.runs[0]!.planned).toBe(20);
    // running it again stops at the same deal, solving nothing new that counts
    const again = await withEnv(FAKE, () => runBatch(opts));
    expect(again.stopReason).toBe(s.stopReason);
    expect(counts(again.report)).toEqual(counts(s.report));
    expect([s.seedsRanOut, again.seedsRanOut]).toEqual([null, null]);
  });
});

describe('bandText', () => {
  it('prints 4 decimals, or as many more as it takes to compare with the width as the band does', () => {
    expect(bandText(0.58884, 0.6)).toBe('0.5888');
    expect(bandText(0.04999, 0.05)).toBe('0.04999');
    expect(bandText(0.049999999, 0.05)).toBe('0.049999999');
    expect(bandText(0.050004, 0.05)).toBe('0.050004');
    expect(bandText(0.05, 0.05)).toBe('0.0500');
    expect(bandText(0.2000004, 0.2)).toBe('0.2000004');
  });
});

describe('--until-width on an open seed range, interrupted', () => {
  it('leaves the study partial, with the note report prints, until a run goes on to its rule', async () => {
    const db = join(dir, 'open-interrupted.sqlite');
    const ctl = new AbortController();
    let updates = 0;
    const opts: BatchOptions = {
      deals: planStudy({ kind: 'seeds', game: 'spider', suits: [1], ranges: [{ from: 1, to: 4294967295, open: true }] }, loadDeal).deals,
      maxPositions: 77, untilWidth: 0.6, workers: 2, dbPath: db, study: 'O', workerFile: TEST_WORKER,
      studyParams: { game: 'spider', suits: '1', dealsSpec: 'seeds:1-', maxPositions: 77, untilWidth: 0.6 },
    };
    const s = await withEnv(FAKE, () => runBatch({ ...opts, signal: ctl.signal, progress: { start: () => {}, update: () => { if (++updates === 5) ctl.abort(); }, stop: () => {} } }));
    expect(s).toMatchObject({ interrupted: true, planned: null, untilWidth: 0.6 });
    const info = readStore(db, (st) => st.studies()[0]!);
    expect(info).toMatchObject({ planned: null, stoppedAt: null, untilWidth: 0.6 });
    // (a stopped run counts a prefix of its plan: the deals after one it cancelled in flight wait)
    expect(info.counted).toBeLessThan(20);
    expect(isPartial(info)).toBe(true);
    // a budget with no shorter form is written once (it was "77 (77) positions")
    expect(formatStudies([info])).toContain('  budget 77 positions; until the band is narrower than 0.6\n');
    expect(formatStudies([info])).toContain(`  deals planned open-ended (not yet stopped by its rule: partial), counted ${info.counted}, settled ${info.counted}\n`);
    expect(formatBatchSummary(s).trimEnd().split('\n').at(-1)).toBe(
      `study O: ${info.counted} deals counted so far, before its --until-width 0.6 rule was met (partial: an open-ended study its rule has not stopped yet; run its batch command again to go on)`,
    );
    // the same command again goes on to the rule (20 deals, as in the test above): whole
    const again = await withEnv(FAKE, () => runBatch(opts));
    expect(again).toMatchObject({ interrupted: false, planned: 20, remaining: 0 });
    const after = readStore(db, (st) => st.studies()[0]!);
    expect(after).toMatchObject({ planned: 20, stoppedAt: 20, counted: 20 });
    expect(isPartial(after)).toBe(false);
    expect(formatStudies([after])).toContain('  deals planned 20, counted 20, settled 20; stopped by --until-width after 20\n');
  });
});

describe('--until-width on an open seed range that runs out', () => {
  it('says the seeds ran out at the largest seed, with the band it reached; the run is done and its note says so; not so for a closed range or a study its rule stopped', async () => {
    const db = join(dir, 'ran-out.sqlite');
    // fake outcomes of seeds 4294967290…4294967295 (s % 4 = 2, 3, 0, 1, 2, 3): undecided, won, won, lost, undecided, won
    const band = bandWidth({ n: 6, won: 3, open: 2 });
    expect(band).toBeCloseTo(0.7823, 3);
    const plan = planStudy({ kind: 'seeds', game: 'spider', suits: [1], ranges: [{ from: 4294967290, to: 4294967295, open: true }] }, loadDeal);
    expect(plan.planned).toBeNull();
    const opts: BatchOptions = {
      deals: plan.deals, maxPositions: 77, untilWidth: 0.01, workers: 2, dbPath: db, study: 'top', workerFile: TEST_WORKER,
      studyParams: { game: 'spider', suits: '1', dealsSpec: 'seeds:4294967290-', maxPositions: 77, untilWidth: 0.01 },
    };
    const s = await withEnv(FAKE, () => runBatch(opts));
    const why = `seeds ran out at 4294967295 (the largest seed) before --until-width 0.01 was met: after 6 deals the band from the floor's 95% lower bound ` +
      `to the ceiling's 95% upper bound is ${band.toFixed(4)} (spider 1 suit)`;
    expect(s).toMatchObject({ seedsRanOut: why, stopReason: null, interrupted: false, ran: 6 });
    expect(counts(s.report)).toEqual(['top spider/1 @77: 6 deals, won 3, lost 1, undecided 2, errors 0']);
    const info = readStore(db, (st) => st.studies()[0]!);
    // the seeds ran out: the plan is the 6 deals it went through, and the study is whole (no partial note)
    expect(info).toMatchObject({ stoppedAt: null, counted: 6, planned: 6 });
    expect(isPartial(info)).toBe(false);
    expect(info.runs[0]).toMatchObject({ status: 'done', note: why, planned: 6 });
    // again: nothing to solve, the same answer
    const again = await withEnv(FAKE, () => runBatch(opts));
    expect(again).toMatchObject({ seedsRanOut: why, ran: 0, skipped: 6, planned: 6, remaining: 0 });
    // a closed range that ends before the band is narrow enough ran its whole plan, and says the rule was not met
    const closed = await withEnv(FAKE, () => runBatch({
      ...seedsStudy(join(dir, 'ran-out-closed.sqlite'), 'C', 'spider', [1], 4294967290, 4294967295, [77]), untilWidth: 0.01,
      studyParams: { game: 'spider', suits: '1', dealsSpec: 'seeds:4294967290-4294967295', maxPositions: 77, untilWidth: 0.01 },
    }));
    expect(closed).toMatchObject({
      seedsRanOut: `the plan's 6 deals ran out before --until-width 0.01 was met: after 6 deals the band from the floor's 95% lower bound to the ceiling's 95% upper bound is ${band.toFixed(4)} (spider 1 suit)`,
      stopReason: null, planned: 6, remaining: 0,
    });
  });
});

describe('--until-width far from its width', () => {
  it('says once, after the deals it looks at, that a band wider than twice the width may never narrow; not when it is within twice', async () => {
    // fake outcomes by seed s: s % 4 = 0 won, 1 lost, 2 undecided, 3 won; after 40 deals: won 20, open 10
    const band = bandWidth({ n: 40, won: 20, open: 10 });
    expect(band).toBeCloseTo(0.5061, 3);
    const run = async (width: number, db: string) => {
      const notes: string[] = [];
      const s = await withEnv(FAKE, () => runBatch({
        ...seedsStudy(db, 'N', 'spider', [1], 1, 60, [77]), untilWidth: width, widthNoteAfter: 40, onNote: (t) => notes.push(t),
        studyParams: { game: 'spider', suits: '1', dealsSpec: 'seeds:1-60', maxPositions: 77, untilWidth: width },
      }));
      return { s, notes };
    };
    const wide = await run(0.2, join(dir, 'width-note.sqlite'));
    expect(wide.s).toMatchObject({ stopReason: null, planned: 60, remaining: 0 });
    expect(wide.notes).toEqual([
      `note: --until-width 0.2: after 40 deals the band is still ${band.toFixed(4)} (spider 1 suit), more than twice 0.2; it narrows only when most deals ` +
        'are settled (won or lost), and with few losses proven the ceiling stays high, so this study may never stop: a larger --max-positions settles more deals; Ctrl-C stops it (resumable)',
    ]);
    const near = await run(0.3, join(dir, 'width-no-note.sqlite')); // 0.5061 < 2 × 0.3: no note
    expect(near.notes).toEqual([]);
    expect(near.s.stopReason).toBeNull();
  });
});

describe('schema 1 → 2', () => {
  it('migrates a schema-1 database: every result kept under its deal\'s identity, names and study links backfilled, a dead run abandoned', () => {
    const path = join(dir, 'v1.sqlite');
    const db = new Database(path);
    db.exec(MIGRATIONS[0]!.sql);
    db.pragma('user_version = 1');
    db.pragma(`application_id = ${0x5370536f}`);
    const v = getVariant('spider', 2);
    const explicit = makeDealCode(v, dealCards(v, 7));
    db.exec(`
      INSERT INTO studies VALUES (1, 'seeds', 'spider', '2', 'seeds:6-8', 1000, '{"game":"spider","suits":"2","deals":"seeds:6-8","maxPositions":1000}', '2026-01-01T00:00:00Z');
      INSERT INTO studies VALUES (2, 'file', NULL, NULL, 'file:/x/d.txt', 1000, '{"game":null,"suits":null,"deals":"file:/x/d.txt","maxPositions":1000}', '2026-01-01T00:00:00Z');
      INSERT INTO runs VALUES (1, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 2, '2.2.0', 'done', 3, 0, 2, 0);
      INSERT INTO runs VALUES (2, 2, '2026-01-01T00:02:00Z', NULL, 2, '2.2.0', 'running', 2, 0, 2, 0);
    `);
    const ins = db.prepare(`INSERT INTO results (code, game, suits, source_kind, seed, file_path, max_positions, status, positions, elapsed_ms, solver_version, run_id, created_at)
      VALUES (?, 'spider', 2, ?, ?, ?, 1000, ?, 10, 1, '2.2.0', ?, '2026-01-01T00:00:00Z')`);
    ins.run('SP2-6', 'seed', 6, null, 'won', 1);
    ins.run('SP2-7', 'seed', 7, null, 'undecided', 1);
    ins.run(explicit, 'file', null, '/x/sp2-7.json', 'undecided', 2); // the same deal as SP2-7, from a file
    ins.run('SP2-8', 'seed', 8, null, 'lost', 2); // stored by the file study; the seeds study planned it too
    db.close();

    const store = ResultStore.openForWriting(path);
    store.close();
    const m = new Database(path, { readonly: true });
    expect(m.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const rows = m.prepare('SELECT deal, code, status FROM results ORDER BY code').all() as { deal: string; code: string; status: string }[];
    expect(rows.map((r) => [r.code, r.status])).toEqual([['SP2-6', 'won'], ['SP2-7', 'undecided'], ['SP2-8', 'lost']]);
    expect(rows[1]!.deal).toBe(explicit);
    expect(m.prepare('SELECT name FROM deal_names WHERE deal = ? ORDER BY name').pluck().all(explicit)).toEqual(['SP2-7', 'file:/x/sp2-7.json']);
    expect(m.prepare('SELECT study_id, name, ord FROM study_deals ORDER BY study_id, ord').all()).toEqual([
      { study_id: 1, name: 'SP2-6', ord: 0 }, { study_id: 1, name: 'SP2-7', ord: 1 }, { study_id: 1, name: 'SP2-8', ord: 2 },
      { study_id: 2, name: 'file:/x/sp2-7.json', ord: 0 }, { study_id: 2, name: 'SP2-8', ord: 1 },
    ]);
    expect(m.prepare('SELECT id, status, length(uid) AS n FROM runs ORDER BY id').all()).toEqual([
      { id: 1, status: 'done', n: 32 }, { id: 2, status: 'abandoned', n: 32 },
    ]);
    expect(m.prepare('SELECT budgets, params FROM studies WHERE id = 1').get()).toEqual({
      budgets: '1000', params: '{"game":"spider","suits":"2","deals":"seeds:6-8","budgets":[1000],"untilWidth":null}',
    });
    m.close();
    expect(readStore(path, (s) => counts(s.report()))).toEqual([
      'seeds spider/2 @1000: 3 deals, won 1, lost 1, undecided 1, errors 0',
      'file spider/2 @1000: 2 deals, won 0, lost 1, undecided 1, errors 0',
    ]);
    // the same study re-run with the same parameters is the same study
    const w = ResultStore.openForWriting(path);
    expect(w.ensureStudy('seeds', { game: 'spider', suits: '2', dealsSpec: 'seeds:6-8', maxPositions: 1000 })).toBe(1);
    w.close();
  });
});

void ({} as PlannedDeal);

describe('batch options of studies', () => {
  const base = { db: 'x.sqlite' };
  it('default study names are short and say the budget in words', async () => {
    const { parseBatchOptions } = await import('../src/cli/batch.js');
    expect(parseBatchOptions({ ...base, game: 'spider', suits: '4', seeds: '1-1000' }).study).toBe('spider-4-seeds-1-1000-at-1M-positions');
    expect(parseBatchOptions({ ...base, game: 'spider', suits: '1,2', seeds: '1-50', maxPositions: '200000' }).study).toBe('spider-1,2-seeds-1-50-at-200k-positions');
    const ladder = parseBatchOptions({ ...base, game: 'spiderette', suits: '4', seeds: '7', maxPositions: '1000000,4000000,16000000' });
    expect(ladder).toMatchObject({ study: 'spiderette-4-seeds-7-at-1M,4M,16M-positions', budgets: [1000000, 4000000, 16000000], maxPositions: 1000000 });
    const open = parseBatchOptions({ ...base, game: 'spider', suits: '4', seeds: '1-', untilWidth: '0.01' });
    expect(open).toMatchObject({ study: 'spider-4-seeds-1-up-at-1M-positions-until-0.01', untilWidth: 0.01 });
    expect(open.studyParams.planned).toBeNull();
    const file = join(dir, 'my-deals.txt');
    writeFileSync(file, 'SE4-1\n');
    expect(parseBatchOptions({ ...base, deals: file, maxPositions: '1500000' }).study).toBe('my-deals-at-1.5M-positions');
    expect(parseBatchOptions({ ...base, deals: file, game: 'spiderette' }).study).toBe('my-deals-spiderette-at-1M-positions');
  });

  it('refuses a ladder that does not increase, an open range without --until-width, and --until-width with a ladder', async () => {
    const { parseBatchOptions } = await import('../src/cli/batch.js');
    const msg = (o: Record<string, string>) => {
      try {
        parseBatchOptions({ ...base, game: 'spider', suits: '4', seeds: '1-10', ...o });
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(msg({ maxPositions: '4000000,1000000' })).toBe('option --max-positions "4000000,1000000": a ladder\'s budgets must increase (4000000 then 1000000)');
    expect(msg({ seeds: '1-' })).toBe('option --seeds "1-": an open range "1-" needs --until-width (the rule that stops the study)');
    expect(msg({ maxPositions: '1000,2000', untilWidth: '0.1' })).toBe('option --until-width: give one budget with it (--max-positions N), not a ladder');
    expect(msg({ untilWidth: '1.5' })).toMatch(/^option --until-width "1.5": give a width above 0 and below 1/);
    expect(msg({ untilWidth: '1e-2' })).toBe('option --until-width "1e-2": give a width above 0 and below 1 as a plain decimal, such as 0.01 (one percentage point; not 1e-2 or 1%)');
    expect(msg({ untilWidth: '0' })).toMatch(/^option --until-width "0": give a width above 0 and below 1/);
    expect(msg({ untilWidth: '0.05' })).toBe('accepted');
  });
});
