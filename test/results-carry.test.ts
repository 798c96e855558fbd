/**
 * A results row that goes on without its database (src/results/export.ts carriedDeals, rowBase): a
 * new checkout has the committed CSV and summary but not the database, so a sitting runs the deals
 * after the committed ones into a new database, and the export puts the committed deals in front of
 * them. The CSV, the rung counts and the search time must be the ones a single database of every
 * deal gives.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSeeds, type PlannedDeal } from '../src/batch/deals.js';
import { recordFromOutcome, ResultStore, type ResultRecord } from '../src/batch/store.js';
import { parseResultsArgs, resultsMain, UsageError } from '../src/results/cli.js';
import { confirmRow, lossesCsv, lossesPath } from '../src/results/confirm.js';
import { carriedDeals, countedDeals, databaseBase, exportRow, readSummary, rowBase, rungsOfDeals, summaryPath } from '../src/results/export.js';
import { dealList, findRow, type ResultsRow } from '../src/results/rows.js';

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

/** Writes the row's database at `root` with seeds from..to (places 0.. in its plan). */
function writeDb(root: string, from: number, to: number): void {
  const d = planSeeds('spiderette', [1], [{ from, to }]);
  const all = results(planSeeds('spiderette', [1], [{ from: 1, to: 6 }]));
  const records = all.slice(from - 1, to).flat();
  mkdirSync(join(root, 'data/results'), { recursive: true });
  const s = ResultStore.openForWriting(join(root, row.db));
  const study = s.ensureStudy(row.study, { game: null, suits: null, dealsSpec: 'file:/dev/stdin', maxPositions: 100, budgets: [100, 400], planned: d.length });
  s.writeResults(null, records, study, d.map((x, i) => ({ deal: records.find((r) => r.code === x.key)!.deal, ord: i, name: x.key })));
  s.close();
}

const sitting = { endedAt: '2026-01-01T00:00:00Z', command: 'npm run results -- carry --limit 4', workers: 1, exit: 0, dealsBefore: 0, dealsAfter: 4, cpuSeconds: 2.5, wallSeconds: 3 };

/** A root whose committed files hold seeds 1-4 (exported from their database, which is then removed, as in a new checkout). */
function committedRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
  writeDb(root, 1, 4);
  exportRow(row, root, V, sitting);
  rmSync(join(root, row.db));
  return root;
}

describe('a row carried over from its committed files', () => {
  it('where a sitting starts: the database\'s own base, else the committed deals', () => {
    const root = committedRoot();
    expect(databaseBase(row, join(root, row.db))).toBeNull();
    expect(rowBase(row, root)).toBe(4);
    writeDb(root, 5, 6);
    expect(databaseBase(row, join(root, row.db))).toBe(4);
    expect(rowBase(row, root)).toBe(4);
    const whole = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
    writeDb(whole, 1, 6);
    expect(databaseBase(row, join(whole, row.db))).toBe(0);
    // nothing committed, no database: from the first deal
    expect(rowBase(row, mkdtempSync(join(tmpdir(), 'spidersolve-carry-')))).toBe(0);
    expect(dealList(row, 6, 4)).toBe('SE1-5\nSE1-6\n');
    expect(dealList(row, 4, 4)).toBe('');
  });

  it('exports the same CSV, rungs, counts and search time as one database of every deal, and says what it carried', () => {
    const root = committedRoot();
    const committed = readSummary(summaryPath(row, root))!;
    writeDb(root, 5, 6);
    const s = exportRow(row, root, V, { ...sitting, dealsBefore: 4, dealsAfter: 6, cpuSeconds: 1 });
    const whole = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
    writeDb(whole, 1, 6);
    const w = exportRow(row, whole, V);
    expect(readFileSync(join(root, row.csv), 'utf8')).toBe(readFileSync(join(whole, row.csv), 'utf8'));
    expect(readFileSync(join(root, row.csv), 'utf8').split('\n').slice(4, 7)).toEqual(['SE1-4,undecided,400,400,500,', 'SE1-5,lost,400,333,433,', 'SE1-6,won,100,70,70,41']);
    expect(s.rungs).toEqual(w.rungs);
    expect(s.top).toEqual({ ...w.top, budget: 400, deals: 6, won: 3, lost: 2, undecided: 1, errors: 0 });
    expect(s.rungs.map((r) => [r.budget, r.won, r.lost, r.undecided])).toEqual([[100, 2, 1, 3], [400, 3, 2, 1]]);
    expect([s.counted, s.unfinished, s.complete, s.searchSeconds, s.peakBytes]).toEqual([6, 0, false, w.searchSeconds, w.peakBytes]);
    expect(s.searchSeconds).toBe(0.1); // 5+7+20+6+8+30 ms carried, 9+11+4 ms new
    expect(s.carried).toEqual({ deals: 4, searchSeconds: committed.searchSeconds, peakBytes: committed.peakBytes });
    expect(w.carried).toBeUndefined();
    expect(s.sittings.map((x) => x.dealsAfter)).toEqual([4, 6]);
    // exported again: the same files (the carried part is the summary's, not counted twice)
    const again = exportRow(row, root, V);
    expect({ ...again, sittings: [] }).toEqual({ ...s, sittings: [] });
  });

  it('the rung counts of deals by the ladder rule', () => {
    const deals = carriedDeals(row, committedRoot(), 4, V);
    expect(deals.map((d) => [d.number, d.status, d.budget])).toEqual([[1, 'won', 100], [2, 'won', 400], [3, 'lost', 100], [4, 'undecided', 400]]);
    expect(rungsOfDeals(deals, [100, 400]).map((r) => [r.budget, r.deals, r.won, r.lost, r.undecided, r.floor, r.ceiling])).toEqual([[100, 4, 1, 1, 2, 0.25, 0.75], [400, 4, 2, 1, 1, 0.5, 0.75]]);
  });

  it('refuses committed files that do not hold the deals it carries, or hold another solver version\'s', () => {
    const root = committedRoot();
    expect(() => carriedDeals(row, root, 5, V)).toThrow('data/results/carry.csv: holds 4 of the row\'s deals 1..5, not each once; the committed row cannot be carried over (git checkout data/results/carry.csv restores it)');
    expect(() => carriedDeals(row, root, 4, '1.0.0')).toThrow('row carry: the committed deals were counted by solver 9.9.9, not 1.0.0; they cannot be carried over: rebuild the row from its first deal');
    const csv = join(root, row.csv);
    writeFileSync(csv, readFileSync(csv, 'utf8').replace('SE1-2,won', 'SE1-2,error'));
    expect(() => carriedDeals(row, root, 4, V)).toThrow('data/results/carry.csv: deal SE1-2 has status "error"; only settled deals are carried over');
    // a committed row left with deals part way up the ladder is not carried
    const p = summaryPath(row, root);
    writeFileSync(p, JSON.stringify({ ...readSummary(p), unfinished: 1 }));
    expect(() => rowBase(row, root)).toThrow('row carry: the committed row has 1 deals not yet at every rung of its ladder, and its database (data/results/carry.sqlite) is not here');
  });

  it('confirm checks the losses of the whole row and keeps the answers the file holds for the carried ones', async () => {
    const root = committedRoot();
    writeDb(root, 5, 6);
    expect(countedDeals(row, root, V)!.map((d) => d.deal)).toEqual(['SE1-1', 'SE1-2', 'SE1-3', 'SE1-4', 'SE1-5', 'SE1-6']);
    const old = { deal: 'SE1-3', solverPositions: 60, check: 'lost' as const, checkPositions: 61, checkBudget: 1000, checkSeconds: 0.5 };
    writeFileSync(join(root, lossesPath(row)), lossesCsv([old]));
    const searched: string[] = [];
    const checks = await confirmRow(row, root, V, 1000, undefined, { check: async (deal) => (searched.push(deal), { status: 'lost', positions: 7, elapsedMs: 1, peakBytes: 0, line: [] }) });
    expect(checks.map((c) => [c.deal, c.checkPositions])).toEqual([['SE1-3', 61], ['SE1-5', 7]]);
    expect(searched).toEqual(['SE1-5']);
  });
});

describe('npm run results -- ROW with no database', () => {
  it('--rebuild is taken once, with a row only', () => {
    expect(parseResultsArgs(['spiderette4', '--rebuild', '--limit', '10'])).toMatchObject({ kind: 'run', rebuild: true, limit: 10 });
    expect(parseResultsArgs(['spiderette4'])).not.toHaveProperty('rebuild');
    expect(() => parseResultsArgs(['spiderette4', '--rebuild', '--rebuild'])).toThrow(UsageError);
    expect(() => parseResultsArgs(['export', 'spiderette4', '--rebuild'])).toThrow(UsageError);
  });

  it('a --limit the committed files already reach runs nothing and changes nothing', async () => {
    const real = findRow('spiderette1')!;
    const root = mkdtempSync(join(tmpdir(), 'spidersolve-carry-'));
    mkdirSync(join(root, 'data/results'), { recursive: true });
    writeFileSync(summaryPath(real, root), JSON.stringify({ row: real.id, solverVersion: V, counted: 40, unfinished: 0, sittings: [] }));
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((t: string) => (out.push(String(t)), true)) as typeof process.stdout.write;
    try {
      expect(await resultsMain(['spiderette1', '--limit', '30'], root)).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(out.join('')).toBe('results: Spiderette 1 suit: the committed row already counts its first 40 deals; nothing to run (a larger --limit goes on after them)\n');
    expect(existsSync(join(root, real.db))).toBe(false);
  });
});
