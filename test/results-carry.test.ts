/**
 * A results row that goes on without its database (src/results/export.ts carryPlan, exportRow): a
 * new checkout has the committed CSV and summary but not the database, so a sitting runs the deals
 * after the committed ones (and the committed ones not yet at the top rung of a ladder that has grown
 * since) into a new database, and the export puts the committed deals in front of them. The CSV, the
 * rung counts and the search time must be the ones a single database of every deal gives. The
 * table's chart page is drawn from the committed files alone, as that database's report counts them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSeeds, type PlannedDeal } from '../src/batch/deals.js';
import { recordFromOutcome, ResultStore, type ResultRecord } from '../src/batch/store.js';
import { confirmCommand, parseResultsArgs, UsageError } from '../src/results/cli.js';
import { confirmRow, lossesCsv, lossesPath } from '../src/results/confirm.js';
import { carryPlan, committedDeals, countedDeals, exportRow, plannedList, readSummary, recordPlan, rungsOfDeals, summaryPath } from '../src/results/export.js';
import { findRow, type ResultsRow } from '../src/results/rows.js';
import { renderTable } from '../src/results/table.js';
import { committedHtml, committedReport, NO_TIMES } from '../src/results/chart.js';
import { SOLVER_VERSION } from '../src/solver/types.js';
import { captured, runResults } from './helpers/results.js';

const V = '9.9.9';
/** Spiderette 1 suit seeds, ladder 100, 400. */
const row: ResultsRow = {
  id: 'carry', title: 'Spiderette 1 suit (carry)', game: 'spiderette', suits: 1, source: { kind: 'seeds' }, count: 8,
  budgets: [100, 400], study: 'results-carry', db: 'data/results/carry.sqlite', csv: 'data/results/carry.csv', published: [],
};

function rec(d: PlannedDeal, budget: number, status: 'won' | 'lost' | 'undecided', positions: number, moves: number | null, ms: number): ResultRecord {
  return recordFromOutcome(d, budget, {
    key: d.key, status, positions, elapsedMs: ms, line: moves ? Array(moves).fill('1-2').join(' ') : '', moveCount: moves,
    classicScore: null, revealScore: null, peakBytes: positions * 100, solverVersion: V, workerMs: ms,
  });
}

/** The results of seeds 1-6: won at 100, won at 400, lost at 100, undecided, lost at 400, won at 100. */
function results(d: readonly PlannedDeal[]): ResultRecord[][] {
  return [
    [rec(d[0]!, 100, 'won', 40, 30, 5)],
    [rec(d[1]!, 100, 'undecided', 100, null, 7), rec(d[1]!, 400, 'won', 250, 35, 20)],
    [rec(d[2]!, 100, 'lost', 60, null, 6)],
    [rec(d[3]!, 100, 'undecided', 100, null, 8), rec(d[3]!, 400, 'undecided', 400, null, 30)],
    [rec(d[4]!, 100, 'undecided', 100, null, 9), rec(d[4]!, 400, 'lost', 333, null, 11)],
    [rec(d[5]!, 100, 'won', 70, 41, 4)],
  ];
}

/** Writes the row's database at `root` (as `r`'s) with the results of the given seeds, in that order of its plan (`extra`: more results). */
function writeDb(root: string, seeds: readonly number[], extra: (d: readonly PlannedDeal[]) => ResultRecord[] = () => [], r: ResultsRow = row): void {
  const all = planSeeds('spiderette', [1], [{ from: 1, to: 6 }]);
  const base = results(all);
  const d = seeds.map((n) => all[n - 1]!);
  const records = [...seeds.flatMap((n) => base[n - 1]!), ...extra(all)];
  mkdirSync(join(root, 'data/results'), { recursive: true });
  const s = ResultStore.openForWriting(join(root, r.db));
  const study = s.ensureStudy(r.study, { game: null, suits: null, dealsSpec: 'file:/dev/stdin', maxPositions: 100, budgets: [...r.budgets], planned: d.length });
  s.writeResults(null, records, study, d.map((x, i) => ({ deal: records.find((q) => q.code === x.key)!.deal, ord: i, name: x.key })));
  s.close();
}

const sitting = { endedAt: '2026-01-01T00:00:00Z', command: 'npm run results -- carry --limit 4', workers: 1, exit: 0, dealsBefore: 0, dealsAfter: 4, cpuSeconds: 2.5, wallSeconds: 3 };

/** A root whose committed files hold seeds 1-4 (exported from their database, which is then removed, as in a new checkout). */
function committedRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
  writeDb(root, [1, 2, 3, 4]);
  exportRow(row, root, V, sitting);
  rmSync(join(root, row.db));
  return root;
}

/** The same row with its ladder grown to 100, 400, 1600 since seeds 1-4 were committed. */
const grown: ResultsRow = { ...row, budgets: [100, 400, 1600] };

describe('a row carried over from its committed files', () => {
  it('what a new database carries: the committed deals, and runs again those below the top rung of the ladder', () => {
    const root = committedRoot();
    const committed = readSummary(summaryPath(row, root))!;
    expect(carryPlan(row, root, V)).toEqual({ deals: 4, rerun: [], searchSeconds: committed.searchSeconds, peakBytes: committed.peakBytes });
    expect(carryPlan(grown, root, V)).toMatchObject({ deals: 4, rerun: [4] });
    expect(plannedList(row, carryPlan(row, root, V), 6)).toBe('SE1-5\nSE1-6\n');
    expect(plannedList(grown, carryPlan(grown, root, V), 6)).toBe('SE1-4\nSE1-5\nSE1-6\n');
    expect(plannedList(grown, carryPlan(grown, root, V), 4)).toBe('SE1-4\n');
    expect(plannedList(row, carryPlan(row, root, V), 4)).toBe('');
    expect(plannedList(row, null, 2)).toBe('SE1-1\nSE1-2\n');
    // with its database here, what the summary recorded when it was begun; none: from the first deal
    writeDb(root, [5, 6]);
    expect(carryPlan(row, root, V)).toBeNull();
    recordPlan(row, root, { deals: 4, rerun: [], searchSeconds: 1, peakBytes: 2 });
    expect(carryPlan(row, root, V)).toEqual({ deals: 4, rerun: [], searchSeconds: 1, peakBytes: 2 });
    expect(readSummary(summaryPath(row, root))).toMatchObject({ counted: 4, sittings: [sitting] });
    // nothing committed: nothing carried
    expect(carryPlan(row, mkdtempSync(join(tmpdir(), 'spidersolve-carry-')), V)).toBeNull();
  });

  it('a row run again from its first deal counts only its own sittings: --rebuild drops the earlier ones, and so does another solver version', () => {
    const root = committedRoot();
    expect(readSummary(summaryPath(row, root))!.sittings).toEqual([sitting]);
    recordPlan(row, root, null);
    expect(readSummary(summaryPath(row, root))).toMatchObject({ counted: 4, sittings: [] });
    // the committed summary of another solver version: its sittings are not this version's
    const other = committedRoot();
    const path = summaryPath(row, other);
    writeFileSync(path, JSON.stringify({ ...readSummary(path)!, solverVersion: '0.0.1' }));
    writeDb(other, [1, 2, 3, 4, 5, 6]);
    const mine = { ...sitting, dealsBefore: 0, dealsAfter: 6, cpuSeconds: 3 };
    expect(exportRow(row, other, V, mine).sittings).toEqual([mine]);
  });

  it('exports the same CSV, rungs, counts and search time as one database of every deal, and says what it carried', () => {
    const root = committedRoot();
    const plan = carryPlan(row, root, V);
    recordPlan(row, root, plan);
    writeDb(root, [5, 6]);
    const s = exportRow(row, root, V, { ...sitting, dealsBefore: 4, dealsAfter: 6, cpuSeconds: 1 });
    const whole = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
    writeDb(whole, [1, 2, 3, 4, 5, 6]);
    const w = exportRow(row, whole, V);
    expect(readFileSync(join(root, row.csv), 'utf8')).toBe(readFileSync(join(whole, row.csv), 'utf8'));
    expect(readFileSync(join(root, row.csv), 'utf8').split('\n').slice(4, 7)).toEqual(['SE1-4,undecided,400,400,500,', 'SE1-5,lost,400,333,433,', 'SE1-6,won,100,70,70,41']);
    expect(s.rungs).toEqual(w.rungs);
    expect(s.top).toEqual({ ...w.top, budget: 400, deals: 6, won: 3, lost: 2, undecided: 1, errors: 0 });
    expect(s.rungs.map((r) => [r.budget, r.won, r.lost, r.undecided])).toEqual([[100, 2, 1, 3], [400, 3, 2, 1]]);
    expect([s.counted, s.unfinished, s.complete, s.searchSeconds, s.peakBytes]).toEqual([6, 0, false, w.searchSeconds, w.peakBytes]);
    expect(s.searchSeconds).toBe(0.1); // 5+7+20+6+8+30 ms carried, 9+11+4 ms new
    expect(s.carried).toEqual(plan);
    expect(w.carried).toBeUndefined();
    expect(s.sittings.map((x) => x.dealsAfter)).toEqual([4, 6]);
    // exported again: the same files (the carried part is the summary's, not counted twice)
    const again = exportRow(row, root, V);
    expect({ ...again, sittings: [] }).toEqual({ ...s, sittings: [] });
  });

  it('a grown ladder: the deal run again replaces its committed line, and the rungs are one database\'s', () => {
    const root = committedRoot();
    const plan = carryPlan(grown, root, V)!;
    recordPlan(grown, root, plan);
    // SE1-4 again (undecided at 100 and 400, won at 1600), then SE1-5 and SE1-6
    const again = (d: readonly PlannedDeal[]) => [rec(d[3]!, 1600, 'won', 900, 50, 40)];
    writeDb(root, [4, 5, 6], again, grown);
    const before = exportRow(grown, root, V);
    const whole = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
    writeDb(whole, [1, 2, 3, 4, 5, 6], again, grown);
    const w = exportRow(grown, whole, V);
    expect(readFileSync(join(root, row.csv), 'utf8')).toBe(readFileSync(join(whole, row.csv), 'utf8'));
    expect(readFileSync(join(root, row.csv), 'utf8').split('\n')[4]).toBe('SE1-4,won,1600,900,1400,50');
    expect(before.rungs).toEqual(w.rungs);
    expect(before.rungs.map((r) => [r.budget, r.won, r.lost, r.undecided])).toEqual([[100, 2, 1, 3], [400, 3, 2, 1], [1600, 4, 2, 0]]);
    expect([before.counted, before.unfinished, before.carried]).toEqual([6, 0, plan]);
    // the row's page says so
    const page = renderTable([grown], [before], () => readFileSync(join(root, row.csv), 'utf8'), () => null);
    expect(page).toContain('- Database: begun from the committed files, not from the first deal: the first 4 deals were counted in an earlier database, and their lines in `data/results/carry.csv` are as committed then; the one of them not yet at the top rung then was run again in it (SE1-4).');
    // before the database ran SE1-4 again, its committed line stands, and it is not yet at the top rung
    const early = committedRoot();
    recordPlan(grown, early, carryPlan(grown, early, V));
    writeDb(early, [5, 6], undefined, grown);
    const e = exportRow(grown, early, V);
    expect(readFileSync(join(early, row.csv), 'utf8').split('\n')[4]).toBe('SE1-4,undecided,400,400,500,');
    expect([e.counted, e.unfinished, e.complete, e.top!.undecided]).toEqual([6, 1, false, 1]);
  });

  it('the rung counts of deals by the ladder rule', () => {
    const deals = committedDeals(row, committedRoot(), 4, V);
    expect(deals.map((d) => [d.number, d.status, d.budget])).toEqual([[1, 'won', 100], [2, 'won', 400], [3, 'lost', 100], [4, 'undecided', 400]]);
    expect(rungsOfDeals(deals, [100, 400]).map((r) => [r.budget, r.deals, r.won, r.lost, r.undecided, r.floor, r.ceiling])).toEqual([[100, 4, 1, 1, 2, 0.25, 0.75], [400, 4, 2, 1, 1, 0.5, 0.75]]);
  });

  it('refuses committed files that do not hold the deals it carries, or hold another solver version\'s', () => {
    const root = committedRoot();
    expect(() => committedDeals(row, root, 5, V)).toThrow('data/results/carry.csv: holds 4 of the row\'s deals 1..5, not each once; the committed row cannot be carried over (git checkout data/results/carry.csv restores it)');
    expect(() => carryPlan(row, root, '1.0.0')).toThrow('row carry: the committed deals were counted by solver 9.9.9, not 1.0.0; they cannot be carried over: rebuild the row from its first deal (--rebuild)');
    const csv = join(root, row.csv);
    writeFileSync(csv, readFileSync(csv, 'utf8').replace('SE1-2,won', 'SE1-2,error'));
    expect(() => carryPlan(row, root, V)).toThrow('data/results/carry.csv: deal SE1-2 has status "error"; only settled deals are carried over');
  });

  it('confirm checks the losses of the whole row and keeps the answers the file holds for the carried ones', async () => {
    const root = committedRoot();
    recordPlan(row, root, carryPlan(row, root, V));
    writeDb(root, [5, 6]);
    expect(countedDeals(row, root, V)!.map((d) => d.deal)).toEqual(['SE1-1', 'SE1-2', 'SE1-3', 'SE1-4', 'SE1-5', 'SE1-6']);
    const old = { deal: 'SE1-3', solverPositions: 60, check: 'lost' as const, checkPositions: 61, checkBudget: 1000, checkSeconds: 0.5 };
    writeFileSync(join(root, lossesPath(row)), lossesCsv([old]));
    const searched: string[] = [];
    const checks = await confirmRow(row, root, V, 1000, undefined, { check: async (deal) => (searched.push(deal), { status: 'lost', positions: 7, elapsedMs: 1, peakBytes: 0, line: [] }) });
    expect(checks.map((c) => [c.deal, c.checkPositions])).toEqual([['SE1-3', 61], ['SE1-5', 7]]);
    expect(searched).toEqual(['SE1-5']);
  });

  it('confirm checks a row counted by another solver version than this one as it is committed (no refusal)', async () => {
    const root = committedRoot();
    recordPlan(row, root, carryPlan(row, root, V));
    writeDb(root, [5, 6]);
    expect(V).not.toBe(SOLVER_VERSION);
    const old = { deal: 'SE1-3', solverPositions: 60, check: 'lost' as const, checkPositions: 61, checkBudget: 1000, checkSeconds: 0.5 };
    writeFileSync(join(root, lossesPath(row)), lossesCsv([old]));
    const r = await captured(() => confirmCommand(row, root, 1000));
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      'results: carry loss 1/2 SE1-3: confirmed in 61 positions (the solve: 60), as the file had it (checked at 1,000)\n' +
      // (SE1-5 is stored lost by hand; within 1,000 positions the check does not decide it)
      'results: carry loss 2/2 SE1-5: undecided in 1,000 positions (the solve: 333)\n',
    );
    expect(r.stdout).toContain('2 losses checked without the solver\'s reductions (1 searched now at 1,000 positions, 1 answered before): 1 confirmed, 1 undecided, 0 contradicted');
  });
});

describe('npm run results -- ROW with no database', () => {
  it('--rebuild is taken once, with a row only', () => {
    expect(parseResultsArgs(['spiderette4', '--rebuild', '--limit', '10'])).toMatchObject({ kind: 'run', rebuild: true, limit: 10 });
    expect(parseResultsArgs(['spiderette4'])).not.toHaveProperty('rebuild');
    expect(() => parseResultsArgs(['spiderette4', '--rebuild', '--rebuild'])).toThrow(UsageError);
    expect(() => parseResultsArgs(['export', 'spiderette4', '--rebuild'])).toThrow(UsageError);
  });

  it('committed deals of another solver version are refused in one line, exit 2, nothing written', async () => {
    const real = findRow('spiderette1')!;
    const root = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
    mkdirSync(join(root, 'data/results'), { recursive: true });
    const summary = JSON.stringify({ row: real.id, solverVersion: '0.0.1', counted: 40, unfinished: 0, searchSeconds: 1, peakBytes: 1, sittings: [] });
    writeFileSync(summaryPath(real, root), summary);
    writeFileSync(join(root, real.csv), 'deal,status,budget,positions,total_positions,moves\n' + Array.from({ length: 40 }, (_, i) => `SE1-${i + 1},won,1000000,10,10,60\n`).join(''));
    const r = await runResults(['spiderette1', '--limit', '50'], root);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`results: row spiderette1: the committed deals were counted by solver 0.0.1, not ${SOLVER_VERSION}; they cannot be carried over: rebuild the row from its first deal (--rebuild)\n`);
    expect(existsSync(join(root, real.db))).toBe(false);
    expect(readFileSync(summaryPath(real, root), 'utf8')).toBe(summary);
  });

  it('a --limit the committed files already reach runs nothing and changes nothing', async () => {
    const real = findRow('spiderette1')!;
    const root = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
    mkdirSync(join(root, 'data/results'), { recursive: true });
    writeFileSync(summaryPath(real, root), JSON.stringify({ row: real.id, solverVersion: SOLVER_VERSION, counted: 40, unfinished: 0, searchSeconds: 1, peakBytes: 1, sittings: [] }));
    writeFileSync(join(root, real.csv), 'deal,status,budget,positions,total_positions,moves\n' + Array.from({ length: 40 }, (_, i) => `SE1-${i + 1},won,1000000,10,10,60\n`).join(''));
    const first = await runResults(['spiderette1', '--limit', '30'], root);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('results: Spiderette 1 suit: the row already counts 40 deals, each at every rung; nothing to run (a --limit above 40 goes on after them)\n');
    expect(existsSync(join(root, real.db))).toBe(false);
    // the whole row committed: it is complete, whatever the --limit, and a shard of it runs nothing either
    const summary = summaryPath(real, root);
    writeFileSync(summary, JSON.stringify({ row: real.id, solverVersion: SOLVER_VERSION, counted: 10000, unfinished: 0, searchSeconds: 1, peakBytes: 1, sittings: [] }));
    writeFileSync(join(root, real.csv), 'deal,status,budget,positions,total_positions,moves\n' + Array.from({ length: 10000 }, (_, i) => `SE1-${i + 1},won,1000000,10,10,60\n`).join(''));
    const was = readFileSync(summary, 'utf8');
    const runs = [await runResults(['spiderette1', '--limit', '10001'], root), await runResults(['spiderette1', '--shard', '0/2', '--limit', '3'], root)];
    expect(runs.map((x) => x.status)).toEqual([0, 0]);
    expect(runs.map((x) => x.stdout)).toEqual(Array(2).fill('results: Spiderette 1 suit: the row is complete (10,000 of 10,000 deals, each at every rung); nothing to run\n'));
    expect(readFileSync(summary, 'utf8')).toBe(was);
    expect(existsSync(join(root, 'data/results/shards'))).toBe(false);
  });

  it('an option before the row: "no row given"', () => {
    expect(() => parseResultsArgs(['--limit', '5'])).toThrow('no row given before --limit; give one of spider4, spider2, spider1, spiderette4, spiderette2, spiderette1 first');
    expect(() => parseResultsArgs(['--workers=2', 'spider1'])).toThrow('no row given before --workers; give one of');
  });
});

describe("the table's chart page from the committed files (src/results/chart.ts)", () => {
  it('counts every rung and won deal as the database report does, but without search times', () => {
    const whole = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
    writeDb(whole, [1, 2, 3, 4, 5, 6]);
    exportRow(row, whole, V);
    const store = ResultStore.openForReading(join(whole, row.db));
    const fromDb = store.reportWithEffort({ studies: [row.study] });
    store.close();
    const c = committedReport([row], whole);
    expect(c.rows).toEqual(fromDb.rows.map((r) => ({ ...r, medianMs: null, p95Ms: null })));
    expect(c.won).toEqual(fromDb.won.map((w) => ({ ...w, elapsedMs: null })));
    // seeds 1 and 6 won at 100 count at both rungs, seed 2 at 400 only
    expect(c.rows.map((r) => [r.budget, r.won, r.lost, r.undecided, r.medianPositions])).toEqual([[100, 2, 1, 3, 55], [400, 3, 2, 1, 70]]);
    expect(c.won.map((w) => [w.budget, w.positions, w.moveCount])).toEqual([[100, 40, 30], [400, 40, 30], [400, 250, 35], [100, 70, 41], [400, 70, 41]]);
  });

  it('writes the page with no database, says why it has no chart of times, and the same page twice', async () => {
    const root = committedRoot();
    expect(existsSync(join(root, row.db))).toBe(false);
    const html = await committedHtml([row], root, 'spidersolve test');
    expect(html).toContain('<h1>spidersolve win-rate table</h1>');
    expect(html).toContain('4 deals counted by 1 study in data/results/*.csv, the rows’ committed files (the rows of docs/results.md), solver 9.9.9.');
    expect(html).toContain(`<figure data-chart="time" data-absent>\n<h2>Solving time of won deals</h2>\n<p class="empty">${NO_TIMES}</p>`);
    expect(html.match(/<figure data-chart="(win-rate|proof-rate|positions|line-length)">/g)).toHaveLength(4);
    expect(html.match(/<tr><td class="l s">results-carry<\/td>/g)).toHaveLength(2);
    expect(await committedHtml([row], root, 'spidersolve test')).toBe(html);
    // a row with nothing committed is left out
    expect(committedReport([row], mkdtempSync(join(tmpdir(), 'spidersolve-carry-')))).toEqual({ rows: [], won: [] });
  });
});
