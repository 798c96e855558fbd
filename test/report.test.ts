import { describe, expect, it } from 'vitest';
import { percentile, ReportAccumulator, roundTo, summarize, wilsonInterval, type ReportInput, type ReportRow } from '../src/batch/report.js';
import type { BlindReportRow } from '../src/batch/blind.js';
import { blindRatePoints } from '../src/report/blindChart.js';
import { BLIND_TABLE_HEADERS, blindCells, blindTableShape, formatBlindTable } from '../src/report/blindText.js';
import { formatCsv, formatJson, formatMarkdown, formatReport, formatTable, REPORT_COLUMNS, partialStudyNotes, rowsAsRecords } from '../src/report/text.js';

describe('partialStudyNotes', () => {
  it('warns of a study counting fewer deals than planned, and only of that', () => {
    expect(partialStudyNotes([
      { name: 'x', planned: 20, counted: 14, stoppedAt: null },
      { name: 'whole', planned: 20, counted: 20, stoppedAt: null },
      // open-ended with no rule (not a study batch makes): nothing to say
      { name: 'open', planned: null, counted: 3, stoppedAt: null },
      // stopped by --until-width on purpose: not partial
      { name: 'stopped', planned: 1000, counted: 400, stoppedAt: 400 },
      { name: 'big', planned: 32000, counted: 31000, stoppedAt: null },
    ])).toEqual([
      'study x: 14 of 20 planned deals counted (partial: missing shards or an unfinished run)',
      'study big: 31,000 of 32,000 planned deals counted (partial: missing shards or an unfinished run)',
    ]);
  });

  it('warns of an open-ended study its --until-width rule has not stopped yet, not of one it stopped', () => {
    expect(partialStudyNotes([
      { name: 'going', planned: null, counted: 1345, stoppedAt: null, untilWidth: 0.02 },
      // stopped by its rule: the plan is the prefix it stopped at
      { name: 'done', planned: 900, counted: 900, stoppedAt: 900, untilWidth: 0.02 },
      // its seeds ran out: the plan is every deal it went through
      { name: 'ran-out', planned: 6, counted: 6, stoppedAt: null, untilWidth: 0.01 },
    ])).toEqual([
      'study going: 1,345 deals counted so far, before its --until-width 0.02 rule was met (partial: an open-ended study its rule has not stopped yet; run its batch command again to go on)',
    ]);
  });
});

describe('wilsonInterval (Wilson 1927)', () => {
  it('8/10 gives [0.4902, 0.9433]', () => {
    const [lo, hi] = wilsonInterval(8, 10)!;
    expect(lo).toBeCloseTo(0.4902, 4);
    expect(hi).toBeCloseTo(0.9433, 4);
  });

  // Published values: R. G. Newcombe, "Two-sided confidence intervals for the single proportion:
  // comparison of seven methods", Statistics in Medicine 17 (1998) 857–872, Table II, method 3
  // (score interval without continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0.0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [29, 29, 0.883, 1.0],
  ])('%i/%i matches Newcombe 1998: [%f, %f]', (k, n, lo, hi) => {
    const ci = wilsonInterval(k, n)!;
    expect(ci[0]).toBeCloseTo(lo, 4);
    expect(ci[1]).toBeCloseTo(hi, 4);
  });

  it('is exactly 0 at k = 0 and 1 at k = n, null for n = 0', () => {
    expect(wilsonInterval(0, 7)![0]).toBe(0);
    expect(wilsonInterval(7, 7)![1]).toBe(1);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('refuses k > n, negatives and fractions', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
  });
});

describe('percentile (Hyndman & Fan type 7)', () => {
  it('interpolates between closest ranks', () => {
    expect(percentile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([100, 200, 300, 400, 1000], 0.95)).toBeCloseTo(880, 9); // h = 3.8: 400 + 0.8·600
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([1, 2], 0)).toBe(1);
    expect(percentile([1, 2], 1)).toBe(2);
    // same as numpy.percentile([1..20], 95) = 19.05
    expect(percentile(Array.from({ length: 20 }, (_, i) => i + 1), 0.95)).toBeCloseTo(19.05, 9);
  });
  it('is null on an empty list and refuses q outside [0, 1]', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(() => percentile([1], 1.5)).toThrow(RangeError);
  });
});

/** Hand-counted fixture. */
function fixture(): ReportInput[] {
  const sp = (status: ReportInput['status'], positions: number | null, ms: number | null, solverVersion = '1.0.0'): ReportInput => ({
    game: 'spider', suits: 2, budget: 1000, solverVersion, status, positions, elapsedMs: ms,
  });
  return [
    // spider 2 suits, budget 1000: 5 won, 2 lost, 2 undecided, 1 error = 10 deals
    sp('won', 400, 2), sp('won', 100, 5), sp('lost', 50, 0.1), sp('won', 1000, 4), sp('undecided', 1000, 9),
    sp('error', null, null), sp('won', 300, 3), sp('lost', 60, 0.2), sp('undecided', 1000, 8), sp('won', 200, 1),
    // the same group under another solver version is another row
    sp('won', 5, 0.5, '2.0.0'),
    // spiderette 1 suit, budget 1000: 2 lost
    { game: 'spiderette', suits: 1, budget: 1000, solverVersion: '1.0.0', status: 'lost', positions: 9, elapsedMs: 1 },
    { game: 'spiderette', suits: 1, budget: 1000, solverVersion: '1.0.0', status: 'lost', positions: 9, elapsedMs: 1 },
    // spider 2 suits, budget 500 (sorts before 1000): 1 undecided
    { game: 'spider', suits: 2, budget: 500, solverVersion: '1.0.0', status: 'undecided', positions: 500, elapsedMs: 2 },
  ];
}

describe('summarize', () => {
  it('groups by game × suits × budget × solver version, in order', () => {
    const rows = summarize(fixture());
    expect(rows.map((r) => [r.game, r.suits, r.budget, r.solverVersion])).toEqual([
      ['spider', 2, 500, '1.0.0'],
      ['spider', 2, 1000, '1.0.0'],
      ['spider', 2, 1000, '2.0.0'],
      ['spiderette', 1, 1000, '1.0.0'],
    ]);
  });

  it('counts, floor, Wilson interval, ceiling and percentiles of a hand-counted group', () => {
    const r = summarize(fixture())[1]!;
    expect(r).toMatchObject({ deals: 10, won: 5, lost: 2, undecided: 2, errors: 1, floor: 0.5 });
    // 5/10: centre 0.5, half 1.96/1.38415·√(0.025 + 0.0096) = 0.2634
    expect(r.ciLow).toBeCloseTo(0.2366, 4);
    expect(r.ciHigh).toBeCloseTo(0.7634, 4);
    // errors are unknown outcomes: (5 won + 2 undecided + 1 error) / 10
    expect(r.ceiling).toBeCloseTo(0.8, 12);
    // won positions sorted 100 200 300 400 1000; won times 1 2 3 4 5
    expect(r.medianPositions).toBe(300);
    expect(r.p95Positions).toBeCloseTo(880, 9);
    expect(r.medianMs).toBe(3);
    expect(r.p95Ms).toBeCloseTo(4.8, 9);
  });

  it('a group with no won deal has floor 0, null percentiles, and ceiling from undecided only', () => {
    const rows = summarize(fixture());
    const lost = rows[3]!;
    expect(lost).toMatchObject({ deals: 2, won: 0, lost: 2, floor: 0, ciLow: 0, ceiling: 0, medianPositions: null, p95Ms: null });
    // 0/2: high = 2·(z²/2n)/(1 + z²/n) = 1.9207/2.9207
    expect(lost.ciHigh).toBeCloseTo(0.6576, 4);
    expect(rows[0]).toMatchObject({ deals: 1, undecided: 1, floor: 0, ceiling: 1 });
  });

  it('the accumulator gives the same rows as summarize, whatever the order of input', () => {
    const acc = new ReportAccumulator();
    for (const r of [...fixture()].reverse()) acc.add(r);
    expect(acc.rows()).toEqual(summarize(fixture()));
  });

  it('an empty input gives no rows', () => {
    expect(summarize([])).toEqual([]);
    expect(formatTable([])).toBe('no results\n');
    // md says so too; csv keeps its header row, json is an empty array (docs/commands.md: spidersolve report)
    expect(formatMarkdown([])).toBe('no results\n');
    expect(formatCsv([])).toBe(`${REPORT_COLUMNS.join(',')}\r\n`);
    expect(formatJson([])).toBe('[]\n');
  });
});

describe('formats', () => {
  const rows = summarize(fixture());

  it('json is an array of row objects with exactly the documented fields, fractions rounded to 6 decimals', () => {
    const parsed = JSON.parse(formatJson(rows)) as Record<string, unknown>[];
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed).toHaveLength(4);
    expect(Object.keys(parsed[1]!)).toEqual([
      'study', 'game', 'suits', 'budget', 'deals', 'won', 'lost', 'undecided', 'errors', 'floor', 'ciLow', 'ciHigh',
      'ceiling', 'ceilingLow', 'ceilingHigh', 'medianPositions', 'p95Positions', 'medianMs', 'p95Ms', 'solverVersion',
    ]);
    expect(parsed[1]).toEqual({
      study: '', game: 'spider', suits: 2, budget: 1000, deals: 10, won: 5, lost: 2, undecided: 2, errors: 1,
      floor: 0.5, ciLow: 0.236593, ciHigh: 0.763407, ceiling: 0.8, ceilingLow: 0.490162, ceilingHigh: 0.943318,
      medianPositions: 300, p95Positions: 880, medianMs: 3, p95Ms: 4.8, solverVersion: '1.0.0',
    });
    expect(parsed[3]!.medianPositions).toBeNull();
    expect(parsed[3]!.ciHigh).toBe(0.65762); // 0.6576197724933469
    expect(formatReport(rows, 'json')).toBe(formatJson(rows));
  });

  it('csv has a header row, CRLF line ends, empty cells for nulls (RFC 4180)', () => {
    const csv = formatCsv(rows);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(REPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(rows.length + 2); // header, rows, '' after the last CRLF
    expect(lines[2]).toBe(',spider,2,1000,10,5,2,2,1,0.5,0.236593,0.763407,0.8,0.490162,0.943318,300,880,3,4.8,1.0.0');
    expect(lines[4]).toBe(',spiderette,1,1000,2,0,2,0,0,0,0,0.65762,0,0,0.65762,,,,,1.0.0');
  });

  it('csv and json round away floating-point noise: rates to 6 decimals, positions and ms to 1', () => {
    const noisy: ReportRow = {
      study: 's', game: 'spider', suits: 4, budget: 200000, deals: 3, won: 1, lost: 2, undecided: 0, errors: 0,
      floor: 1 / 3, ciLow: 0.06149194472039505, ciHigh: 0.7923403991979151, ceiling: 1 / 3,
      ceilingLow: 0.06149194472039505, ceilingHigh: 0.7923403991979151,
      medianPositions: 120974.29999999992, p95Positions: 0.1 + 0.2, medianMs: 12.349999999999, p95Ms: 7.0000000000000009,
      solverVersion: '1.0.0',
    };
    const csv = formatCsv([noisy]).split('\r\n');
    expect(csv[1]).toBe('s,spider,4,200000,3,1,2,0,0,0.333333,0.061492,0.79234,0.333333,0.061492,0.79234,120974.3,0.3,12.3,7,1.0.0');
    expect(JSON.parse(formatJson([noisy]))).toEqual([{
      study: 's', game: 'spider', suits: 4, budget: 200000, deals: 3, won: 1, lost: 2, undecided: 0, errors: 0,
      floor: 0.333333, ciLow: 0.061492, ciHigh: 0.79234, ceiling: 0.333333, ceilingLow: 0.061492, ceilingHigh: 0.79234,
      medianPositions: 120974.3, p95Positions: 0.3, medianMs: 12.3, p95Ms: 7, solverVersion: '1.0.0',
    }]);
    expect(formatJson([noisy])).not.toMatch(/\d{8}/); // no run of noise digits anywhere
    // the records (also the report of `batch --json`) carry the same rounded numbers; nulls stay null
    expect(rowsAsRecords([{ ...noisy, medianMs: null }])[0]).toMatchObject({ floor: 0.333333, medianPositions: 120974.3, medianMs: null });
    // the table is unchanged: percentages and whole positions from the unrounded row
    expect(formatTable([noisy])).toContain('33.3%');
  });

  it('roundTo rounds as toFixed does and returns a plain number', () => {
    expect(roundTo(120974.29999999992, 1)).toBe(120974.3);
    expect(roundTo(0.30000000000000004, 1)).toBe(0.3);
    expect(roundTo(2 / 3, 6)).toBe(0.666667);
    expect(roundTo(1e-9, 6)).toBe(0);
    expect(roundTo(42, 1)).toBe(42);
  });

  it('table and markdown show percentages and one line per row', () => {
    const t = formatTable(rows).trimEnd().split('\n');
    expect(t).toHaveLength(5);
    expect(t[2]).toMatch(/^\s*spider\s+2\s+1000\s+10\s+5\s+2\s+2\s+1\s+50\.0%\s+23\.7%\s+76\.3%\s+80\.0%\s+49\.0%\s+94\.3%\s+300\s+880\s+3\.0\s+4\.8\s+1\.0\.0$/);
    const md = formatMarkdown(rows).trimEnd().split('\n');
    expect(md).toHaveLength(6);
    expect(md[1]).toMatch(/^\| --- \| --- \| ---: \|/);
    expect(md[3]).toContain('| 50.0% |');
  });

  it('the text table pads by the width a terminal shows: a wide (CJK) or combining-mark name keeps the columns aligned', () => {
    const names = ['日本語の研究', 'e\u0301te\u0301', 'ascii'];
    const t = formatTable(rows.slice(0, 1).flatMap((r) => names.map((study) => ({ ...r, study })))).trimEnd().split('\n');
    // the game column starts at the same terminal column on every row: names of 12, 3 and 5 columns, padded to 12, then two spaces
    const at = (line: string) => line.indexOf('spider');
    expect(t.slice(1).map((l) => l.slice(0, at(l)))).toEqual(['日本語の研究  ', 'e\u0301te\u0301' + ' '.repeat(11), 'ascii' + ' '.repeat(9)]);
  });

  it('markdown shows a study name literally: a pipe does not split its row, and no HTML passes', () => {
    const odd = rows.map((r) => ({ ...r, study: 'x|y <b>&_*`[1]\\~~' }));
    const md = formatMarkdown(odd).trimEnd().split('\n');
    expect(md[2]!.startsWith('| x\\|y &lt;b&gt;&amp;\\_\\*\\`\\[1\\]\\\\\\~\\~ | spider | 2 |')).toBe(true);
    // as many unescaped cell borders as the header has
    const borders = (line: string) => line.replace(/\\\\|\\\|/g, '').split('|').length;
    expect(borders(md[2]!)).toBe(borders(md[0]!));
  });
});

describe("the blind report's table (src/report/blindText.ts)", () => {
  const row = (study: string, version = 'blind-7/solver-3.9.0'): BlindReportRow => ({
    study, game: 'spider', suits: 4, player: 'greedy', playerSeed: 1, version, deals: 10, won: 3, stuck: 7, errors: 0,
    winRate: 0.3, ciLow: 0.1078, ciHigh: 0.6032, meanCompleted: 1.5, meanMoves: 120.4, meanCpuMs: 2500,
    piDeals: 10, piWon: 10, piLost: 0, piRate: 1, piLow: 0.7225, piHigh: 1,
  });

  it('gives each cell of a row, rates with their intervals as percentages', () => {
    expect(blindCells(row('s'))).toEqual(['s', 'spider', '4', 'greedy', '1', '10', '3', '7', '0', '30.0% [10.8%, 60.3%]', '1.50', '120', '2.5 s', '10/10', '100.0% [72.3%, 100.0%]']);
  });

  it('adds a version column only when the rows hold more than one version', () => {
    expect(blindTableShape([row('a'), row('b')]).headers).toEqual(BLIND_TABLE_HEADERS);
    const two = blindTableShape([row('a'), row('b', 'blind-6/solver-3.9.0')]);
    expect(two.headers.slice(4, 7)).toEqual(['seed', 'version', 'deals']);
    // names left-aligned; the suit count, the seed and the figures right-aligned
    expect(two.left.slice(0, 7)).toEqual([true, true, false, true, false, true, false]);
  });

  it('aligns a study name of wide characters by the width a terminal gives it', () => {
    const lines = formatBlindTable([row('研究'), row('abcd')]).trimEnd().split('\n');
    // 研究 takes four columns, as abcd does: the game column starts at the same place on both lines
    expect(lines[1]!.indexOf('spider') + 2).toBe(lines[2]!.indexOf('spider'));
  });

  it('escapes a study name in Markdown as the solve table does', () => {
    const md = formatBlindTable([row('a|b *c*')], true).split('\n');
    expect(md[2]).toMatch(/^\| a\\\|b \\\*c\\\* \| spider \| 4 \| greedy \| 1 \| 10 \| 3 \| 7 \| 0 \| 30\.0% \[10\.8%, 60\.3%\] \|/);
    expect(md[1]).toBe('| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  });
});

describe("the blind chart's rows (src/report/blindChart.ts)", () => {
  const row = (study: string, playerSeed: number, version = 'blind-7/solver-3.9.0'): BlindReportRow => ({
    study, game: 'spider', suits: 1, player: 'sample:k=2,budget=2000', playerSeed, version, deals: 4, won: 2, stuck: 2, errors: 0,
    winRate: 0.5, ciLow: 0.15, ciHigh: 0.85, meanCompleted: 4, meanMoves: 100, meanCpuMs: 10, piDeals: 0, piWon: 0, piLost: 0, piRate: null, piLow: null, piHigh: null,
  });

  it('a line a row: two player seeds (or versions) of one study are named apart', () => {
    expect(blindRatePoints([row('s', 1)]).map((p) => p.group)).toEqual(['s: spider 1 suit, sample']);
    expect(blindRatePoints([row('s', 1), row('s', 2)]).map((p) => p.group)).toEqual(['s: spider 1 suit, sample, seed 1', 's: spider 1 suit, sample, seed 2']);
    expect(blindRatePoints([row('s', 1), row('s', 1, 'blind-6/solver-3.9.0')]).map((p) => p.group)).toEqual(['s: spider 1 suit, sample, blind-7/solver-3.9.0', 's: spider 1 suit, sample, blind-6/solver-3.9.0']);
  });
});
