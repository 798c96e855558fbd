/**
 * The HTML report and the charts' data (src/report/*) on a small study counted by hand: a database
 * written straight with known results, then `report --format html` and `--format vega` as a user runs
 * them. The charts' data must equal the hand count (win rates and intervals, the points of the
 * proof-rate curve, the spreads), and the HTML file must load nothing from the network.
 * (That every chart draws in a real browser is checked in report-html.slow.test.ts.)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { summarize, wilsonInterval, type ReportRow } from '../src/batch/report.js';
import { recordFromError, recordFromOutcome, ResultStore, type ResultRecord } from '../src/batch/store.js';
import { chartData, chartStudyNames, MAX_CHART_STUDY, MAX_CURVE_POINTS, proofCurve, shortCount } from '../src/report/data.js';
import { renderSvg, reportCharts } from '../src/report/charts.js';
import { runInProcess } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-report-html-'));

async function cli(...args: string[]) {
  const r = await runInProcess(args);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The hand-counted study: Spiderette 1 suit, seeds 1-10, budget 10,000: 5 won (positions 100, 100,
 * 300, 1,000, 5,000; times 1, 2, 3, 4, 50 ms; lines 40, 50, 60, 70, 80 moves), 1 lost, 3 undecided,
 * 1 error. And Spider 2 suits, seeds 1-4, budget 10,000: 2 won (positions 50 and 700), 2 undecided.
 */
const BUDGET = 10_000;
function studyRecords(): ResultRecord[] {
  const se = planSeeds('spiderette', [1], [{ from: 1, to: 10 }]);
  const sp = planSeeds('spider', [2], [{ from: 1, to: 4 }]);
  const out = (deal: (typeof se)[number], status: 'won' | 'lost' | 'undecided', positions: number, ms: number, moves: number | null) =>
    recordFromOutcome(deal, BUDGET, {
      key: deal.key, status, positions, elapsedMs: ms, line: moves ? Array(moves).fill('d').join(' ') : '',
      moveCount: moves, classicScore: null, revealScore: null, peakBytes: 0, solverVersion: '2.2.0', workerMs: ms,
    });
  return [
    out(se[0]!, 'won', 100, 1, 40), out(se[1]!, 'won', 100, 2, 50), out(se[2]!, 'won', 300, 3, 60),
    out(se[3]!, 'won', 1000, 4, 70), out(se[4]!, 'won', 5000, 50, 80),
    out(se[5]!, 'lost', 2000, 9, null),
    out(se[6]!, 'undecided', BUDGET, 90, null), out(se[7]!, 'undecided', BUDGET, 91, null), out(se[8]!, 'undecided', BUDGET, 92, null),
    recordFromError(se[9]!, BUDGET, 'worker died', '2.2.0'),
    out(sp[0]!, 'won', 50, 5, 100), out(sp[1]!, 'won', 700, 7, 120),
    out(sp[2]!, 'undecided', BUDGET, 60, null), out(sp[3]!, 'undecided', BUDGET, 61, null),
  ];
}

function studyDb(): string {
  const db = join(dir, `study-${Math.random().toString(36).slice(2)}.sqlite`);
  const store = ResultStore.openForWriting(db);
  const study = store.ensureStudy('hand', { game: null, suits: null, dealsSpec: 'file:/hand-counted', maxPositions: BUDGET });
  const records = studyRecords();
  store.writeResults(null, records, study, records.map((r, i) => ({ deal: r.deal, ord: i, name: r.code })));
  store.close();
  return db;
}

function rowsOf(records: ResultRecord[]): ReportRow[] {
  return summarize(records.map((r) => ({ game: r.game, suits: r.suits, budget: r.maxPositions, solverVersion: r.solverVersion, status: r.status, positions: r.positions, elapsedMs: r.elapsedMs })));
}

describe('chart data of the hand-counted study', () => {
  const records = studyRecords();
  const rows = rowsOf(records);
  const won = records.filter((r) => r.status === 'won').map((r) => ({ game: r.game, suits: r.suits, budget: r.maxPositions, solverVersion: r.solverVersion, positions: r.positions, elapsedMs: r.elapsedMs, moveCount: r.moveCount }));
  const d = chartData(rows, won);

  it('labels the groups by game and suits (one budget, one solver version: neither named)', () => {
    expect(d.groups).toEqual(['spider 2 suits', 'spiderette 1 suit']);
  });

  it('win rates: floor 5/10 and ceiling 9/10 with their Wilson intervals; 2/4 and 4/4', () => {
    const se = d.winRate.filter((p) => p.group === 'spiderette 1 suit');
    expect(se.map((p) => [p.measure, p.rate, p.count, p.deals])).toEqual([['floor', 0.5, 5, 10], ['ceiling', 0.9, 9, 10]]);
    expect([se[0]!.low, se[0]!.high]).toEqual(wilsonInterval(5, 10));
    expect([se[1]!.low, se[1]!.high]).toEqual(wilsonInterval(9, 10));
    const sp = d.winRate.filter((p) => p.group === 'spider 2 suits');
    expect(sp.map((p) => [p.measure, p.rate])).toEqual([['floor', 0.5], ['ceiling', 1]]);
    expect(sp[1]!.high).toBe(1);
  });

  it('proof-rate curve: the share of all deals won within B, at each won deal\'s count, then the budget', () => {
    const se = d.proof.filter((p) => p.group === 'spiderette 1 suit').map((p) => [p.positions, p.won, p.share]);
    expect(se).toEqual([[100, 2, 0.2], [300, 3, 0.3], [1000, 4, 0.4], [5000, 5, 0.5], [BUDGET, 5, 0.5]]);
    const sp = d.proof.filter((p) => p.group === 'spider 2 suits').map((p) => [p.positions, p.share]);
    expect(sp).toEqual([[50, 0.25], [700, 0.5], [BUDGET, 0.5]]);
    expect(d.budgets).toEqual([{ group: 'spider 2 suits', budget: BUDGET, floor: 0.5 }, { group: 'spiderette 1 suit', budget: BUDGET, floor: 0.5 }]);
  });

  it('the line-length axis writes moves as whole numbers, at every width (110, not 1.1e+2)', async () => {
    const long = won.map((w, i) => ({ ...w, moveCount: 110 + 10 * i }));
    for (const layout of ['narrow', 'medium', 'wide'] as const) {
      const chart = reportCharts(chartData(rows, long), layout).find((c) => c.id === 'line-length')!;
      const labels = [...(await renderSvg(chart.spec, false)).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
      const ticks = labels.filter((t) => /^[0-9.,e+]+$/.test(t));
      expect(ticks.length, layout).toBeGreaterThan(2);
      for (const t of ticks) expect(t, layout).toMatch(/^[0-9]{1,3}(,[0-9]{3})*$/);
    }
  });

  it('spreads of won deals: time, positions and line length (medians equal the report\'s)', () => {
    const t = d.timeMs.find((s) => s.group === 'spiderette 1 suit')!;
    // p95: h = 4 × 0.95 = 3.8, so 4 + 0.8 × (50 − 4) = 40.8 (type 7)
    expect(t).toEqual({ group: 'spiderette 1 suit', n: 5, min: 1, q1: 2, median: 3, q3: 4, p95: expect.closeTo(40.8, 9), max: 50 });
    const p = d.positions.find((s) => s.group === 'spiderette 1 suit')!;
    expect([p.min, p.q1, p.median, p.q3, p.max]).toEqual([100, 100, 300, 1000, 5000]);
    const m = d.lineLength.find((s) => s.group === 'spiderette 1 suit')!;
    expect([m.n, m.min, m.median, m.max]).toEqual([5, 40, 60, 80]);
    const row = rows.find((r) => r.game === 'spiderette')!;
    expect([t.median, p.median, t.p95, p.p95]).toEqual([row.medianMs, row.medianPositions, row.p95Ms, row.p95Positions]);
  });

  it('names the budget and the solver version in the labels only when they differ', () => {
    const two = rowsOf([...records, ...records.map((r) => ({ ...r, maxPositions: 1_000_000 }))]);
    const labels = chartData(two, []).series;
    expect(labels).toEqual(['spider 2 suits @ 10k', 'spider 2 suits @ 1M', 'spiderette 1 suit @ 10k', 'spiderette 1 suit @ 1M']);
    expect([shortCount(1_000_000), shortCount(200_000), shortCount(1_500), shortCount(167_000), shortCount(1_234)]).toEqual(['1M', '200k', '1.5k', '167k', '1,234']);
  });

  it('rows of two studies with long names read apart in the charts: the study on one line (cut in its middle), the game and suits on the next', async () => {
    const base = rowsOf(records);
    const names = ['spiderette-1,2-seeds-1-5-20k-positions', 'spiderette-1,2-seeds-6-10-20k-positions'];
    const rows = names.flatMap((study) => base.map((r) => ({ ...r, study })));
    const chart = reportCharts(chartData(rows, [])).find((c) => c.id === 'win-rate')!;
    const svg = await renderSvg(chart.spec);
    const texts = [...svg.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>|<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? m[2]);
    for (const t of ['spiderette-1,2-seeds-1-5-20k-posi…', 'spiderette-1,2-seeds-6-10-20k-pos…', 'spiderette 1 suit', 'spider 2 suits']) expect(texts).toContain(t);
    // no axis title beside the labels (it was drawn over them)
    expect(texts).not.toContain('game and suit count');
  });

  it('long study names keep the part where they differ, with the start of what they share (cut in their middle, two names read the same)', () => {
    const ladder = ['spiderette-2-seeds-1-10-1k-3k-10k-positions', 'spiderette-2-seeds-11-20-1k-3k-10k-positions'];
    expect([...chartStudyNames(ladder).values()]).toEqual(['spiderette-2-seeds-1-10-1k-3k-10k…', 'spiderette-2-seeds-11-20-1k-3k-10…']);
    // short names stay whole; a long one that shares nothing with them is cut in its middle
    expect([...chartStudyNames(['a', 'b', 'pysol-spider-games-1-500-at-1000000-positions']).values()]).toEqual(['a', 'b', 'pysol-spider-game…000000-positions']);
    // a long shared start is cut in its middle, next to the part that differs
    const deep = ['the-very-long-shared-start-of-names-x1', 'the-very-long-shared-start-of-names-y2'];
    expect([...chartStudyNames(deep).values()]).toEqual(['the-very-long-sh…start-of-names-x1', 'the-very-long-sh…start-of-names-y2']);
    // names that differ in more than fits are cut in their middle; one name alone likewise
    expect([...chartStudyNames(['x'.repeat(40) + 'a', 'y'.repeat(40) + 'b']).values()]).toEqual(['x'.repeat(17) + '…' + 'x'.repeat(15) + 'a', 'y'.repeat(17) + '…' + 'y'.repeat(15) + 'b']);
    // names that differ at their end in words sharing a last letter keep it: `-alpha`, not `-alph…`
    const greek = 'a-very-long-study-name-that-someone-typed-for-their-research-on-spider-solitaire-with-four-suits-and-seeds-1-to-20-alpha';
    expect([...chartStudyNames([greek, greek.replace(/alpha$/, 'beta')]).values()]).toEqual(['a-very-long-st…seeds-1-to-20-alpha', 'a-very-long-stu…seeds-1-to-20-beta']);
    for (const v of chartStudyNames(ladder).values()) expect(v.length).toBeLessThanOrEqual(MAX_CHART_STUDY);
    // names that differ in two places, more than fits: the part that differs, cut in its middle,
    // keeps both places (cut whole, they read the same in pairs)
    const four = ['1-1000', '2001-3000'].flatMap((r) => ['v1', 'v2'].map((v) => `spiderette-1-seeds-${r}-1M-positions-baseline-heuristic-${v}`));
    expect([...chartStudyNames(four).values()]).toEqual(['…1-1000-1M-positi…ine-heuristic-v1', '…1-1000-1M-positi…ine-heuristic-v2', '…2001-3000-1M-pos…ine-heuristic-v1', '…2001-3000-1M-pos…ine-heuristic-v2']);
    // labels that still read the same end with their number among them
    const q = 'q'.repeat(20);
    const three = [`A${q}X${q}B`, `C${q}X${q}D`, `A${q}Y${q}B`];
    expect([...chartStudyNames(three).values()]).toEqual(['A' + 'q'.repeat(16) + '…' + 'q'.repeat(12) + '… #1', 'C' + 'q'.repeat(16) + '…' + 'q'.repeat(15) + 'D', 'A' + 'q'.repeat(16) + '…' + 'q'.repeat(12) + '… #2']);
    const labels = [...chartStudyNames(three).values()];
    for (const v of labels) expect(v.length).toBeLessThanOrEqual(MAX_CHART_STUDY);
    // the charts' labels use them, one group a study
    const rows = ladder.flatMap((study) => rowsOf(records).map((r) => ({ ...r, study })));
    expect(chartData(rows, []).series).toEqual(['spiderette-2-seeds-1-10-1k-3k-10k…: spider 2 suits', 'spiderette-2-seeds-1-10-1k-3k-10k…: spiderette 1 suit', 'spiderette-2-seeds-11-20-1k-3k-10…: spider 2 suits', 'spiderette-2-seeds-11-20-1k-3k-10…: spiderette 1 suit']);
  });

  it('gives each of more than 10 curves a colour of its own (tableau20; with 12, the default 10 drew three pairs alike)', async () => {
    const row = (study: string) => ({ study, game: 'spider', suits: 4, budget: 1000, solverVersion: '2.2.0', deals: 4, won: 2, lost: 0, undecided: 2, errors: 0 });
    const eff = (study: string) => [100, 300].map((p) => ({ study, game: 'spider', suits: 4, budget: 1000, solverVersion: '2.2.0', positions: p, elapsedMs: 1, moveCount: 100 }));
    const colours = async (n: number) => {
      const names = Array.from({ length: n }, (_, i) => `s${i + 1}`);
      const chart = reportCharts(chartData(names.map(row), names.flatMap(eff))).find((c) => c.id === 'proof-rate')!;
      const svg = await renderSvg(chart.spec, false);
      // the step lines' stroke colours, one a curve
      return [...svg.matchAll(/aria-roledescription="line mark" d="[^"]*" stroke="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    };
    const twelve = await colours(12);
    expect(twelve).toHaveLength(12);
    expect(new Set(twelve).size).toBe(12);
    const three = await colours(3);
    expect(three).toEqual(['#4c78a8', '#f58518', '#e45756']);
  });

  it('with rungs, draws a ladder\'s rows as one curve from its top rung, each rung\'s floor marked', () => {
    // a ladder 100 / 1,000 / 10,000 over 10 deals: 2 won within 100, 5 within 1,000, 6 within 10,000
    // (cumulative, as the per-study report counts a deal won at a lower rung at every higher one)
    const row = (budget: number, won: number) => ({ study: 'lad', game: 'spider', suits: 4, budget, solverVersion: '2.2.0', deals: 10, won, lost: 0, undecided: 10 - won, errors: 0 });
    const ladder = [row(100, 2), row(1000, 5), row(10_000, 6)];
    const eff = (budget: number, positions: number[]) => positions.map((p) => ({ study: 'lad', game: 'spider', suits: 4, budget, solverVersion: '2.2.0', positions: p, elapsedMs: p / 100, moveCount: 200 }));
    const effort = [...eff(100, [40, 90]), ...eff(1000, [40, 90, 300, 700, 950]), ...eff(10_000, [40, 90, 300, 700, 950, 4000])];
    const d = chartData(ladder, effort, { rungs: true });
    expect(d.groups).toEqual(['spider 4 suits @ 100', 'spider 4 suits @ 1k', 'spider 4 suits @ 10k']);
    expect(d.series).toEqual(['spider 4 suits']);
    expect(d.proof.map((p) => [p.positions, p.won])).toEqual([[40, 1], [90, 2], [300, 3], [700, 4], [950, 5], [4000, 6], [10_000, 6]]);
    expect(d.budgets).toEqual([
      { group: 'spider 4 suits', budget: 100, floor: 0.2 },
      { group: 'spider 4 suits', budget: 1000, floor: 0.5 },
      { group: 'spider 4 suits', budget: 10_000, floor: 0.6 },
    ]);
    expect(d.positions.map((p) => [p.group, p.n, p.max])).toEqual([['spider 4 suits', 6, 4000]]);
    expect(d.winRate.filter((p) => p.measure === 'floor').map((p) => [p.group, p.rate])).toEqual([['spider 4 suits @ 100', 0.2], ['spider 4 suits @ 1k', 0.5], ['spider 4 suits @ 10k', 0.6]]);
    // two studies: named in the labels
    const two = chartData([...ladder, { ...row(1000, 3), study: 'other' }], [], { rungs: true });
    expect(two.series).toEqual(['lad: spider 4 suits', 'other: spider 4 suits']);
  });

  it('samples a curve of many distinct counts at log-spaced budgets, each point still exact', () => {
    const positions = Array.from({ length: 5000 }, (_, i) => i + 1);
    const curve = proofCurve('g', positions, 10_000, 100_000);
    expect(curve.length).toBeLessThanOrEqual(MAX_CURVE_POINTS + 1);
    expect(curve[0]).toEqual({ group: 'g', positions: 1, share: 1 / 10_000, won: 1, deals: 10_000 });
    for (const p of curve) expect(p.won).toBe(Math.min(p.positions, 5000));
    expect(curve[curve.length - 1]).toEqual({ group: 'g', positions: 100_000, share: 0.5, won: 5000, deals: 10_000 });
    expect(curve.every((p, i) => i === 0 || p.positions > curve[i - 1]!.positions)).toBe(true);
  });

  it('gives each chart a title, a one-sentence caption and titled axes', () => {
    const charts = reportCharts(d);
    expect(charts.map((c) => c.id)).toEqual(['win-rate', 'proof-rate', 'time', 'positions', 'line-length']);
    for (const c of charts) {
      expect(c.title.length).toBeGreaterThan(10);
      expect(c.caption.split(/[.;] [A-Z]/)).toHaveLength(1);
      expect(c.caption.endsWith('.')).toBe(true);
      const axes = JSON.stringify(c.spec).match(/"title":"[^"]*\(([^)]*)\)[^"]*"/g) ?? [];
      expect(axes.length).toBeGreaterThan(0); // an axis title with its unit in brackets
    }
  });
});

describe('spidersolve report --format html and --format vega', () => {
  it('writes one self-contained file: the table, five charts as SVG, nothing from the network', async () => {
    const db = studyDb();
    const out = join(dir, 'r', 'study.html');
    const r = await cli('report', '--db', db, '--format', 'html', '--out', out);
    expect(r.stderr).toBe(`spidersolve: wrote ${out}: HTML report, 2 rows of 1 study\n`);
    expect(r.status).toBe(0);
    const html = readFileSync(out, 'utf8');
    const figures = html.match(/<figure data-chart="[^"]+">[\s\S]*?<\/figure>/g) ?? [];
    expect(figures.map((f) => /data-chart="([^"]+)"/.exec(f)![1])).toEqual(['win-rate', 'proof-rate', 'time', 'positions', 'line-length']);
    for (const f of figures) {
      expect(f).toMatch(/<h2>[^<]+<\/h2>/);
      expect(f).toMatch(/<svg[^>]*class="marks"[\s\S]*<\/svg>/);
      expect(f).toMatch(/<figcaption>[^<]+\.<\/figcaption>/);
    }
    // the line above it says what the rows count: the deals counted by the one study (10 + 4)
    expect(html).toContain(`<p class="meta">14 deals counted by 1 study in ${db} (every study), solver 2.2.0.</p>`);
    // the table holds the report's cells
    expect(html).toContain('<td class="l s">hand</td><td class="l">spiderette</td><td>1</td><td>10000</td><td>10</td><td>5</td><td>1</td><td>3</td><td>1</td><td>50.0%</td>');
    // a wide table scrolls in its own box with a scrollbar drawn (not an overlay that hides), headers
    // and study names wrap; charts scale down through their viewBox (no min-width)
    expect(html).toMatch(/\.tablewrap\{overflow-x:auto[;}]/);
    expect(html).toContain('.tablewrap::-webkit-scrollbar{height:12px}');
    expect(html).toMatch(/scrollbar-color:[^;}]+/);
    expect(html).toMatch(/th\{[^}]*white-space:normal/);
    expect(html).toContain('figure svg{display:block;max-width:100%;height:auto}');
    expect(html).toContain('.chart{overflow-x:auto}');
    // each chart drawn at three sizes, the one that fits the window shown: a phone's (narrow), a
    // tablet's (medium), a desktop's (wide); a phone's chart opened scrolled with its dots out of sight
    for (const f of figures) expect([...f.matchAll(/<div class="v-(\w+)" data-layout="\1"><svg/g)].map((m) => m[1])).toEqual(['narrow', 'medium', 'wide']);
    expect(html).toContain('.v-narrow,.v-wide{display:none}');
    expect(html).toMatch(/@media \(max-width:640px\)\{[^@]*\.v-narrow\{display:block\}\.v-medium\{display:none\}\}/);
    expect(html).toMatch(/@media \(min-width:1100px\)\{\.v-wide\{display:block\}\.v-medium\{display:none\}\}/);
    expect(html).not.toMatch(/min-width:\s*(5\d\d|min\()/);
    for (const f of figures) expect(f).toMatch(/<svg[^>]* width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
    // nothing is loaded: no script at all, no attribute pointing anywhere, no CSS url() or @import
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(html).not.toMatch(/\s(src|href|xlink:href)\s*=/i);
    // the only URLs are the SVG namespace names (xmlns), which are never fetched
    const urls = [...html.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]);
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink']));
  });

  it('--format vega: the specs with the hand-counted data, which Vega-Lite compiles', async () => {
    const db = studyDb();
    const r = await cli('report', '--db', db, '--format', 'vega');
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { generator: string; charts: { id: string; title: string; caption: string; spec: { layer: { data?: { values: { group: string; positions: number; share: number }[] } }[] } }[] };
    expect(doc.generator).toMatch(/^spidersolve \d+\.\d+\.\d+ \(solver \d+\.\d+\.\d+\)$/);
    const proof = doc.charts.find((c) => c.id === 'proof-rate')!;
    const line = proof.spec.layer.find((l) => l.data?.values[0]?.share !== undefined)!;
    expect(line.data!.values.filter((p) => p.group === 'spiderette 1 suit').map((p) => [p.positions, p.share])).toEqual([[100, 0.2], [300, 0.3], [1000, 0.4], [5000, 0.5], [BUDGET, 0.5]]);
    const vl = await import('vega-lite');
    for (const c of doc.charts) expect(() => vl.compile(c.spec as never)).not.toThrow();
  });

  it('draws a budget ladder\'s rungs on the proof-rate chart: one curve, each rung\'s floor at its budget', async () => {
    // a ladder 100 / 1,000 / 10,000 over 3 deals: SE2-1 won at 100 (40 positions); SE2-2 undecided at
    // 100, won at 1,000 (700 positions); SE2-3 undecided at every rung
    const db = join(dir, 'ladder.sqlite');
    const store = ResultStore.openForWriting(db);
    const study = store.ensureStudy('ladder', { game: 'spiderette', suits: '2', dealsSpec: 'seeds:1-3', maxPositions: 100, budgets: [100, 1000, 10_000] });
    const [a, b, c] = planSeeds('spiderette', [2], [{ from: 1, to: 3 }]);
    const out = (deal: typeof a, budget: number, status: 'won' | 'undecided', positions: number) =>
      recordFromOutcome(deal!, budget, {
        key: deal!.key, status, positions, elapsedMs: 1, line: status === 'won' ? 'd d' : '', moveCount: status === 'won' ? 2 : null,
        classicScore: null, revealScore: null, peakBytes: 0, solverVersion: '2.2.0', workerMs: 1,
      });
    const records = [out(a, 100, 'won', 40), out(b, 100, 'undecided', 100), out(b, 1000, 'won', 700), out(c, 100, 'undecided', 100), out(c, 1000, 'undecided', 1000), out(c, 10_000, 'undecided', 10_000)];
    store.writeResults(null, records, study, [a, b, c].map((d, i) => ({ deal: records.find((r) => r.code === d!.key)!.deal, ord: i, name: d!.key })));
    store.close();
    const r = await cli('report', '--db', db, '--format', 'vega');
    expect(r.stderr).toBe('');
    type Layer = { data?: { values: Record<string, unknown>[] }; mark: { type: string } };
    const doc = JSON.parse(r.stdout) as { charts: { id: string; spec: { layer?: Layer[]; data?: { values: Record<string, unknown>[] } } }[] };
    const proof = doc.charts.find((ch) => ch.id === 'proof-rate')!.spec.layer!;
    const values = (type: string) => proof.find((l) => l.mark.type === type)!.data!.values;
    expect(values('line').map((p) => [p.group, p.positions, p.won, p.deals])).toEqual([['spiderette 2 suits', 40, 1, 3], ['spiderette 2 suits', 700, 2, 3], ['spiderette 2 suits', 10_000, 2, 3]]);
    expect(values('point').map((p) => [p.budget, p.floor])).toEqual([[100, 1 / 3], [1000, 2 / 3], [10_000, 2 / 3]]);
    expect(values('rule').map((p) => p.budget)).toEqual([100, 1000, 10_000]);
    const rates = doc.charts.find((ch) => ch.id === 'win-rate')!.spec.data!.values.filter((v) => v.measure === 'floor');
    expect(rates.map((v) => [v.group, v.count])).toEqual([['spiderette 2 suits @ 100', 1], ['spiderette 2 suits @ 1k', 2], ['spiderette 2 suits @ 10k', 2]]);
  });

  it('says under the table (text, md, HTML) when a study counts fewer deals than it planned', async () => {
    const db = join(dir, `partial-${Math.random().toString(36).slice(2)}.sqlite`);
    const store = ResultStore.openForWriting(db);
    const study = store.ensureStudy('part', { game: null, suits: null, dealsSpec: 'file:/hand-counted', maxPositions: BUDGET, planned: 20 });
    const records = studyRecords();
    store.writeResults(null, records, study, records.map((r, i) => ({ deal: r.deal, ord: i, name: r.code })));
    store.close();
    const note = 'study part: 14 of 20 planned deals counted (partial: missing shards or an unfinished run)';
    const table = await cli('report', '--db', db);
    expect(table.status).toBe(0);
    expect(table.stdout.trimEnd().split('\n').at(-1)).toBe(note);
    expect((await cli('report', '--db', db, '--format', 'md')).stdout).toContain(`\n\n> ${note}\n`);
    expect((await cli('report', '--db', db, '--format', 'html')).stdout).toContain(`<div class="warn" role="note" data-partial><p>${note}</p></div>`);
    // the whole hand-counted study (no plan recorded) says nothing of the kind
    expect((await cli('report', '--db', studyDb())).stdout).not.toContain('partial');
  });

  it('says so under "no results" too, for a study stopped before it counted a deal', async () => {
    const db = join(dir, `empty-${Math.random().toString(36).slice(2)}.sqlite`);
    const store = ResultStore.openForWriting(db);
    store.ensureStudy('none yet', { game: 'spiderette', suits: '4', dealsSpec: 'seeds:1-60', maxPositions: BUDGET, planned: 60 });
    store.close();
    const note = 'study none yet: 0 of 60 planned deals counted (partial: missing shards or an unfinished run)';
    expect(await cli('report', '--db', db)).toMatchObject({ status: 0, stdout: `no results\n${note}\n` });
    expect((await cli('report', '--db', db, '--format', 'md')).stdout).toBe(`no results\n\n> ${note}\n`);
    expect((await cli('report', '--db', db, '--format', 'html')).stdout).toContain(`<div class="warn" role="note" data-partial><p>${note}</p></div>`);
  });

  it('puts a note, not an empty chart, where no deal was won, and titles the positions chart as its axis counts (stored)', async () => {
    const db = join(dir, `nowin-${Math.random().toString(36).slice(2)}.sqlite`);
    const store = ResultStore.openForWriting(db);
    const study = store.ensureStudy('nowin', { game: 'spider', suits: '4', dealsSpec: 'seeds:1-2', maxPositions: 50 });
    const records = planSeeds('spider', [4], [{ from: 1, to: 2 }]).map((d) => recordFromOutcome(d, 50, {
      key: d.key, status: 'undecided', positions: 50, elapsedMs: 1, line: '', moveCount: null, classicScore: null, revealScore: null, peakBytes: 0, solverVersion: '2.2.0', workerMs: 1,
    }));
    store.writeResults(null, records, study, records.map((r, i) => ({ deal: r.deal, ord: i, name: r.code })));
    store.close();
    const html = (await cli('report', '--db', db, '--format', 'html')).stdout;
    const figures = html.match(/<figure data-chart="[^"]+"[^>]*>[\s\S]*?<\/figure>/g) ?? [];
    expect(figures.map((f) => /data-chart="([^"]+)"/.exec(f)![1])).toEqual(['win-rate', 'proof-rate', 'time', 'positions', 'line-length']);
    // the share won within a budget has no curve either (it was an empty frame with a legend line
    // for the missing curve): a note too; the win rates are drawn
    for (const f of figures.slice(1)) {
      expect(f).toContain('<p class="empty">No won deals: nothing to plot.</p>');
      expect(f).not.toMatch(/<svg|<figcaption/);
    }
    expect(figures[0]).toMatch(/<svg/);
    expect(html).toContain('<h2>Positions stored per won deal</h2>');
    // with won deals, the positions chart is drawn, its title and axis both saying "stored"
    const full = (await cli('report', '--db', studyDb(), '--format', 'html')).stdout;
    expect(full).not.toContain('nothing to plot');
    expect(full).toMatch(/<h2>Positions stored per won deal<\/h2>[\s\S]*?positions stored per won deal \(log scale\)/);
  });

  it('filters like the other formats, says when there is nothing, and refuses an unknown format', async () => {
    const db = studyDb();
    const only = await cli('report', '--db', db, '--game', 'spider', '--format', 'vega');
    const doc = JSON.parse(only.stdout) as { charts: { id: string; spec: { data?: { values: { group: string }[] } } }[] };
    expect(new Set(doc.charts.find((c) => c.id === 'win-rate')!.spec.data!.values.map((v) => v.group))).toEqual(new Set(['spider 2 suits']));
    const empty = await cli('report', '--db', db, '--game', 'spider', '--suits', '1', '--format', 'html');
    expect(empty.status).toBe(0);
    expect(empty.stdout).toContain('<p>No results.</p>');
    expect(empty.stdout).not.toContain('<figure');
    const bad = await cli('report', '--db', db, '--format', 'pdf');
    expect([bad.status, bad.stderr]).toEqual([2, 'spidersolve: option --format "pdf": use table, md, csv, json, html or vega\n']);
  });
});
