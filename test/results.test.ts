/**
 * The win-rate table's machinery (src/results): the rows as data, a row's export from a tiny results
 * database written with known results (the per-deal CSV, the summary, the winnable list with grades),
 * and the table generator on it, whose floor and ceiling must be the hand count's.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromLoaded, planSeeds, type PlannedDeal } from '../src/batch/deals.js';
import { recordFromOutcome, ResultStore, type ResultRecord } from '../src/batch/store.js';
import { loadDealOrThrow } from '../src/cli/common.js';
import { parseResultsArgs, sittingWorked, UsageError } from '../src/results/cli.js';
import { dealsCsv, exportRow, gradeOf, gradesOf, parseCsvRecords, readSummary, rowDeals, summaryPath, winnablePath, type DealResult } from '../src/results/export.js';
import { batchArgs, dealList, dealName, dealNumber, findRow, RESULTS_LADDER, RESULTS_ROWS, type ResultsRow } from '../src/results/rows.js';
import { bandPoints, pct, renderTable } from '../src/results/table.js';

describe('the rows', () => {
  it('are the six rows of the issue, with their deals, ladders, studies and databases', () => {
    expect(RESULTS_ROWS.map((r) => [r.id, r.game, r.suits, r.count, r.source.kind === 'pysol' ? r.source.pysol : 'seeds'])).toEqual([
      ['spider4', 'spider', 4, 32000, 'spider'],
      ['spider2', 'spider', 2, 10000, 'spider2'],
      ['spider1', 'spider', 1, 10000, 'spider1'],
      ['spiderette4', 'spiderette', 4, 10000, 'spiderette'],
      ['spiderette2', 'spiderette', 2, 10000, 'seeds'],
      ['spiderette1', 'spiderette', 1, 10000, 'seeds'],
    ]);
    for (const r of RESULTS_ROWS) {
      expect(r.budgets).toEqual(r.id === 'spider4' ? [1_000_000, 4_000_000, 16_000_000, 64_000_000] : [1_000_000, 4_000_000, 16_000_000]);
      expect(r.study).toBe(`results-${r.id}`);
      expect(r.db).toBe(`data/results/${r.id}.sqlite`);
      expect(r.csv).toBe(`data/results/${r.id}.csv`);
    }
    expect(RESULTS_LADDER).toEqual([1_000_000, 4_000_000, 16_000_000]);
    expect(findRow('spider4')!.published.map((p) => p.source.split(' ')[0])).toEqual(['plspider', 'Blake']);
    expect(findRow('spiderette4')!.published).toHaveLength(1);
    expect(findRow('spider3')).toBeUndefined();
  });

  it('name their deals as batch --deals reads them, and read the numbers back', () => {
    const sp = findRow('spider4')!;
    const se = findRow('spiderette2')!;
    expect(dealName(sp, 1)).toBe('pysol:spider:1');
    expect(dealName(sp, 32000)).toBe('pysol:spider:32000');
    expect(dealName(findRow('spiderette4')!, 7)).toBe('pysol:spiderette:7');
    expect(dealName(se, 7)).toBe('SE2-7');
    expect(dealName(findRow('spiderette1')!, 10000)).toBe('SE1-10000');
    expect(() => dealName(sp, 0)).toThrow(RangeError);
    expect(() => dealName(sp, 32001)).toThrow(RangeError);
    expect(dealList(se, 3)).toBe('SE2-1\nSE2-2\nSE2-3\n');
    expect(dealList(sp).split('\n')).toHaveLength(32001);
    expect(dealList(se, 20000).split('\n')).toHaveLength(10001);
    expect(dealNumber(sp, 'pysol:spider:14934')).toBe(14934);
    expect(dealNumber(sp, 'pysol:spider2:5')).toBeNull();
    expect(dealNumber(se, 'SE2-07')).toBeNull();
    expect(dealNumber(se, 'SE2-42')).toBe(42);
    // every deal of every row loads (the first and the last)
    for (const r of RESULTS_ROWS) for (const n of [1, r.count]) expect(loadDealOrThrow(dealName(r, n)).position.variant).toMatchObject({ game: r.game, suits: r.suits });
  });

  it('run as one batch command with the deals on standard input', () => {
    expect(batchArgs(findRow('spider1')!, 2)).toEqual([
      'batch', '--deals', '-', '--study', 'results-spider1', '--max-positions', '1000000,4000000,16000000',
      '--db', 'data/results/spider1.sqlite', '--workers', '2', '--no-shard',
    ]);
    expect(batchArgs(findRow('spider1')!)).not.toContain('--workers');
    expect(batchArgs(findRow('spider1')!, undefined, { index: 3, count: 8, db: 'shards/spider1-3.sqlite' }).slice(-5)).toEqual(['--max-positions', '1000000,4000000,16000000', '--db', 'shards/spider1-3.sqlite', '--shard', '3/8'].slice(-5));
  });

  it('the command line: a row with --workers and --limit, export, table; anything else refused', () => {
    expect(parseResultsArgs(['spider2', '--workers', '1', '--limit=200'])).toEqual({ kind: 'run', row: findRow('spider2'), workers: 1, limit: 200 });
    expect(parseResultsArgs(['table'])).toEqual({ kind: 'table' });
    expect(parseResultsArgs(['export', 'spider4'])).toEqual({ kind: 'export', row: findRow('spider4') });
    expect(parseResultsArgs([])).toEqual({ kind: 'usage' });
    expect(parseResultsArgs(['--help'])).toEqual({ kind: 'help' });
    expect(() => parseResultsArgs(['spider3'])).toThrow(/unknown row "spider3"; give one of spider4, spider2/);
    expect(() => parseResultsArgs(['spider4', '--limit', '0'])).toThrow(/option --limit "0": give a positive whole number/);
    expect(() => parseResultsArgs(['spider4', '--limit', '2', '--limit', '3'])).toThrow(UsageError);
    expect(() => parseResultsArgs(['spider4', '--shard-count', '2'])).toThrow(/^unknown option "--shard-count"; npm run results -- --help lists the commands and their options$/);
    expect(parseResultsArgs(['spider4', '--shard', '3/32'])).toEqual({ kind: 'run', row: findRow('spider4'), shard: { index: 3, count: 32, db: 'data/results/shards/spider4-3.sqlite', rooted: true } });
    expect(parseResultsArgs(['spider4', '--shard', '0/2', '--db', 's/x.sqlite'])).toMatchObject({ shard: { index: 0, count: 2, db: 's/x.sqlite' } });
    expect(() => parseResultsArgs(['spider4', '--shard', '2/2'])).toThrow(/option --shard "2\/2": give K\/N with 0 <= K < N/);
    expect(() => parseResultsArgs(['spider4', '--db', 'x.sqlite'])).toThrow(/option --db: only with --shard/);
    expect(parseResultsArgs(['merge', 'spider2', 'a.sqlite', 'b.sqlite'])).toEqual({ kind: 'merge', row: findRow('spider2'), files: ['a.sqlite', 'b.sqlite'] });
    expect(() => parseResultsArgs(['merge', 'spider2'])).toThrow(UsageError);
  });
});

/**
 * A tiny row (Spiderette 1 suit, seeds 1-5, ladder 100, 400) written by hand:
 * SE1-1 won at 100 (40 positions, 30 moves); SE1-2 undecided at 100, won at 400 (250 positions, 35
 * moves); SE1-3 lost at 100 (60 positions); SE1-4 undecided at 100 and at 400; SE1-5 undecided at 100
 * and not yet run at 400 (an interrupted ladder). At the top rung: 5 deals, 2 won, 1 lost, 2
 * undecided: floor 2/5, ceiling 4/5.
 */
const tiny: ResultsRow = {
  id: 'tiny', title: 'Spiderette 1 suit (test)', game: 'spiderette', suits: 1, source: { kind: 'seeds' }, count: 6,
  budgets: [100, 400], study: 'results-tiny', db: 'data/results/tiny.sqlite', csv: 'data/results/tiny.csv', published: [],
};
const V = '9.9.9';

function rec(d: PlannedDeal, budget: number, status: 'won' | 'lost' | 'undecided', positions: number, moves: number | null = null, ms = 10): ResultRecord {
  return recordFromOutcome(d, budget, {
    key: d.key, status, positions, elapsedMs: ms, line: moves ? Array(moves).fill('1-2').join(' ') : '', moveCount: moves,
    classicScore: null, revealScore: null, peakBytes: positions * 100, solverVersion: V, workerMs: ms,
  });
}

function writeDb(path: string, row: ResultsRow, deals: readonly PlannedDeal[], records: readonly ResultRecord[], names: readonly string[]): void {
  const s = ResultStore.openForWriting(path);
  const study = s.ensureStudy(row.study, { game: null, suits: null, dealsSpec: 'file:/dev/stdin', maxPositions: row.budgets[0]!, budgets: [...row.budgets], planned: deals.length });
  s.writeResults(null, records, study, deals.map((d, i) => ({ deal: records.find((r) => r.code === d.key)!.deal, ord: i, name: names[i]! })));
  s.close();
}

function tinyRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'spidersolve-results-'));
  const d = planSeeds('spiderette', [1], [{ from: 1, to: 5 }]);
  const records = [
    rec(d[0]!, 100, 'won', 40, 30, 5),
    rec(d[1]!, 100, 'undecided', 100, null, 7), rec(d[1]!, 400, 'won', 250, 35, 20),
    rec(d[2]!, 100, 'lost', 60, null, 6),
    rec(d[3]!, 100, 'undecided', 100, null, 8), rec(d[3]!, 400, 'undecided', 400, null, 30),
    rec(d[4]!, 100, 'undecided', 100, null, 9),
    // a result of another solver version is not this table's
    { ...rec(d[2]!, 100, 'won', 1, 1), solverVersion: '0.0.1' },
  ];
  writeDb(join(root, tiny.db), tiny, d, records, d.map((x) => x.key));
  return root;
}

describe('a row exported from its database', () => {
  it('gives each deal once, at the top rung, with the search that decided it and the effort in all', () => {
    const root = tinyRoot();
    const s = exportRow(tiny, root, V);
    expect(readFileSync(join(root, tiny.csv), 'utf8')).toBe(
      'deal,status,budget,positions,total_positions,moves\n' +
        'SE1-1,won,100,40,40,30\n' +
        'SE1-2,won,400,250,350,35\n' +
        'SE1-3,lost,100,60,60,\n' +
        'SE1-4,undecided,400,400,500,\n' +
        'SE1-5,undecided,100,100,100,\n',
    );
    expect(s).toMatchObject({ row: 'tiny', study: 'results-tiny', solverVersion: V, planned: 6, counted: 5, unfinished: 1, complete: false, peakBytes: 40000, grades: null });
    expect(s.searchSeconds).toBe(0.085); // 5+7+20+6+8+30+9 ms
    expect(s.top).toMatchObject({ budget: 400, deals: 5, won: 2, lost: 1, undecided: 2, errors: 0, floor: 0.4, ceiling: 0.8 });
    expect(s.top!.ciLow).toBeCloseTo(0.11762077423264783, 12);
    expect(s.top!.ciHigh).toBeCloseTo(0.769275718723987, 12);
    expect(s.top!.ceilingLow).toBeCloseTo(0.3755346297625253, 12);
    expect(s.top!.ceilingHigh).toBeCloseTo(0.9637758913675698, 12);
    expect(s.rungs.map((r) => [r.budget, r.won, r.lost, r.undecided])).toEqual([[100, 1, 1, 3], [400, 2, 1, 2]]);
    expect(readSummary(summaryPath(tiny, root))).toEqual(s);
  });

  it('keeps the sittings already recorded and adds the new one', () => {
    const root = tinyRoot();
    const sitting = { endedAt: '2026-01-01T00:00:00Z', command: 'npm run results -- tiny --limit 5', workers: 1, exit: 0, dealsBefore: 0, dealsAfter: 5, cpuSeconds: 2.5, wallSeconds: 3 };
    exportRow(tiny, root, V, sitting);
    const again = exportRow(tiny, root, V, { ...sitting, dealsBefore: 5, cpuSeconds: 0.5 });
    expect(again.sittings.map((x) => x.cpuSeconds)).toEqual([2.5, 0.5]);
    expect(exportRow(tiny, root, V).sittings).toHaveLength(2);
  });

  it('of an older solver only, gives no deals', () => {
    const root = tinyRoot();
    expect(rowDeals(tiny, join(root, tiny.db), '0.0.1')!.map((d) => [d.deal, d.status])).toEqual([['SE1-3', 'won']]);
    expect(exportRow(tiny, root, '1.0.0')).toMatchObject({ counted: 0, top: null, complete: false });
  });
});

describe('difficulty grades', () => {
  const won = (n: number, total: number): DealResult => ({ deal: `pysol:spider1:${n}`, number: n, status: 'won', budget: 100, positions: total, totalPositions: total, moves: 10 });
  it('split the won deals into fifths by total positions (percentiles, type 7)', () => {
    const deals = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((p, i) => won(i + 1, p));
    const g = gradesOf([...deals, { ...won(11, 5), status: 'lost' }])!;
    // h = 9q: 1.8 → 28, 3.6 → 46, 5.4 → 64, 7.2 → 82
    expect(g.cuts.map((c) => Math.round(c * 1e9) / 1e9)).toEqual([28, 46, 64, 82]);
    expect(g.counts).toEqual([2, 2, 2, 2, 2]);
    expect([1, 28, 29, 46, 82, 83, 1e9].map((p) => gradeOf(p, g.cuts))).toEqual([1, 1, 2, 2, 4, 5, 5]);
    expect(gradesOf([{ ...won(1, 5), status: 'undecided' }])).toBeNull();
    expect(dealsCsv([won(3, 7)])).toBe('deal,status,budget,positions,total_positions,moves\npysol:spider1:3,won,100,7,7,10\n');
  });

  it('are written for a PySolFC row as its list of winnable deals', () => {
    const row: ResultsRow = { ...tiny, id: 'tinyp', source: { kind: 'pysol', pysol: 'spider1' }, game: 'spider', suits: 1, study: 'results-tinyp', db: 'data/results/tinyp.sqlite', csv: 'data/results/tinyp.csv', count: 3 };
    const root = mkdtempSync(join(tmpdir(), 'spidersolve-results-'));
    const d = [1, 2, 3].map((n) => planFromLoaded(loadDealOrThrow(`pysol:spider1:${n}`)));
    const records = [rec(d[0]!, 100, 'won', 90, 20), rec(d[1]!, 100, 'won', 10, 21), rec(d[2]!, 100, 'undecided', 100), rec(d[2]!, 400, 'won', 300, 22)];
    writeDb(join(root, row.db), row, d, records, [1, 2, 3].map((n) => `pysol:spider1:${n}`));
    const s = exportRow(row, root, V);
    expect(s.complete).toBe(true);
    // totals 90, 10, 400: cuts at h = 2q over [10, 90, 400]: 0.4 → 42, 0.8 → 74, 1.2 → 152, 1.6 → 276
    expect(s.grades!.cuts.map((c) => Math.round(c * 1e9) / 1e9)).toEqual([42, 74, 152, 276]);
    expect(s.grades!.counts).toEqual([1, 0, 1, 0, 1]);
    expect(readFileSync(winnablePath(row, root), 'utf8')).toBe('pysol_number,grade,total_positions,moves\n1,3,90,20\n2,1,10,21\n3,5,400,22\n');
  });
});

describe('the table', () => {
  it('gives the hand count: deals, won, lost, undecided, floor and ceiling with their intervals, the band, the ladder', () => {
    const root = tinyRoot();
    const sitting = { endedAt: '2026-01-01T00:00:00Z', command: 'npm run results -- tiny --limit 5 --workers 1', workers: 1, exit: 130, dealsBefore: 0, dealsAfter: 5, cpuSeconds: 2, wallSeconds: 3 };
    const s = exportRow(tiny, root, V, sitting);
    const csv = readFileSync(join(root, tiny.csv), 'utf8');
    const md = renderTable([tiny], [s], () => csv);
    expect(md).toContain('| Spiderette 1 suit (test) | 5 of 6 | 2 | 1 | 2 | 40.000% (11.762%–76.928%) | 80.000% (37.553%–96.378%) | 84.62 pt | 100, 400 | 0.40 s | 9.9.9 | partial (1 not yet at every rung) |');
    // the run stopped before its upper rung reached one deal: said, with the command that finishes it
    expect(md).toContain('- Not yet at every rung: 1 of the 2 undecided deals (the run was stopped before its upper rungs reached them); `npm run results -- tiny --limit 5` finishes them.');
    expect(md).toContain('| 400 | 5 | 2 | 1 | 2 | 0 | 40.000% | 11.762%–76.928% | 80.000% | 37.553%–96.378% |');
    expect(md).toContain('| 100 | 5 | 1 | 1 | 3 | 0 | 20.000% |');
    expect(md).toContain('Lost (proven): SE1-3. Undecided: SE1-4, SE1-5.');
    expect(md).toContain('spidersolve batch --deals - --study results-tiny --max-positions 100,400 --db data/results/tiny.sqlite --no-shard');
    expect(md).toContain('CPU time: 2.0 s for the 5 deals run here, 0.400 s a deal');
    expect(md).toContain('## Method');
    expect(bandPoints(s.top)).toBeCloseTo((0.9637758913675698 - 0.11762077423264783) * 100, 10);
    expect(pct(0.99994)).toBe('99.994%');
    expect(pct(null)).toBe('–');
    expect(parseCsvRecords(csv)[1]).toEqual({ deal: 'SE1-2', status: 'won', budget: '400', positions: '250', total_positions: '350', moves: '35' });
  });

  it('says a row not run yet, and compares Spider 4 suits with plspider deal by deal', () => {
    const sp = findRow('spider4')!;
    const csv = 'deal,status,budget,positions,total_positions,moves\npysol:spider:1,won,1000000,5,5,100\npysol:spider:2,undecided,16000000,16000000,21000000,\n';
    const summary = { row: 'spider4', title: sp.title, game: 'spider', suits: 4, study: sp.study, solverVersion: V, budgets: sp.budgets, planned: 32000, counted: 2, unfinished: 0, complete: false,
      top: { budget: 16_000_000, deals: 2, won: 1, lost: 0, undecided: 1, errors: 0, floor: 0.5, ciLow: 0.1, ciHigh: 0.9, ceiling: 1, ceilingLow: 0.3, ceilingHigh: 1 }, rungs: [], searchSeconds: 1, peakBytes: null, grades: null, sittings: [] };
    const md = renderTable([sp, findRow('spider2')!], [summary, null], (r) => (r.id === 'spider4' ? csv : null));
    expect(md).toContain('| Spider 2 suits | 0 of 10,000 | | | | | | | 1M, 4M, 16M | | | not run |');
    expect(md).toContain("Of the 2 deals compared so far (numbers 1–2), this table does not win 1: 2 (undecided); plspider's page names none of them as not won (the deal it does not name may be among them).");
    expect(md).toContain('| Spider 4 suits | 1 won, 0 lost, 1 undecided of 2 (first 2 of 32,000): floor 50.000%, ceiling 100.000% | 31,998 of PySol numbers 1–32,000');
    expect(md).not.toContain('Both tables');
    // the whole set with 14934 and one other not won: which deal decides whether the two agree
    const whole = 'deal,status,budget,positions,total_positions,moves\n' + Array.from({ length: 32000 }, (_, i) => (i + 1 === 14934 || i + 1 === 1748 ? `pysol:spider:${i + 1},undecided,64000000,64000000,85000000,\n` : `pysol:spider:${i + 1},won,1000000,5,5,100\n`)).join('');
    const all = renderTable([sp], [{ ...summary, counted: 32000 }], () => whole);
    expect(all).toContain("this table does not win 2: 1748 (undecided), 14934 (undecided); plspider's page names 1 of them as not won");
    expect(all).toContain("Both tables leave 2 of the 32,000 deals not won. They agree deal for deal if the deal plspider's page does not name is 1748; if it is another, plspider won 1748 and this table did not.");
  });
});

describe('which sittings a row records (sittingWorked)', () => {
  it('records one that counted deals, one that only took deals up the ladder, and an interrupted one; not one that found all done', () => {
    // Spiderette 4 suits to 5,000: a sitting that ran only the 16M rung counts no new deal
    expect(sittingWorked({ counted: 5000, unfinished: 48 }, { counted: 5000, unfinished: 0 }, 0)).toBe(true);
    expect(sittingWorked({ counted: 3600, unfinished: 0 }, { counted: 5000, unfinished: 60 }, 0)).toBe(true);
    expect(sittingWorked({ counted: 5000, unfinished: 48 }, { counted: 5000, unfinished: 48 }, 130)).toBe(true);
    expect(sittingWorked({ counted: 5000, unfinished: 0 }, { counted: 5000, unfinished: 0 }, 0)).toBe(false);
  });
});
