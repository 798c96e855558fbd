/**
 * The report's charts as Vega-Lite v5 specifications with their data inline (from data.ts), and
 * their rendering to SVG in Node: Vega-Lite compiles a spec to Vega, and Vega renders it headless
 * (`renderer: 'none'`, `toSVG()`): no browser, no canvas, no network.
 */
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import type { ChartData, Spread } from './data.js';

/**
 * Widths of characters in em, about those of DejaVu Sans (the widest of the page's fonts; a little
 * too wide is safe, too narrow would let labels overlap). Those not listed: 0.6 (lower case), 0.7
 * (upper case), 0.64 (digits), 0.8 (anything else).
 */
const CHAR_EM: Readonly<Record<string, number>> = Object.fromEntries(
  [
    [' .,:;\'|!', 0.32], ['ijl', 0.28], ['ft-/()[]', 0.37], ['r', 0.42], ['mw', 0.92], ['MW', 0.95], ['%@…', 0.98], ['_', 0.5],
  ].flatMap(([chars, em]) => [...(chars as string)].map((c) => [c, em as number])),
);

/**
 * Text width in pixels for Vega's layout, estimated per character (CHAR_EM). Vega in Node has no
 * canvas to measure text, and its own estimate (0.8 em for every character) is about 40% too wide:
 * row labels were cut short at `labelLimit` and the label column took far more room than its text,
 * which a phone's chart cannot spare. Vega calls it as textMetrics.width (a user-defined one is
 * supported; vl-convert does the same).
 */
export function estimateTextWidth(item: { fontSize?: number | null; fontWeight?: string | number | null; text?: unknown }, text?: unknown): number {
  const t = String(text ?? item.text ?? '');
  const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
  let em = 0;
  for (const c of t) em += CHAR_EM[c] ?? (/[a-z]/.test(c) ? 0.6 : /[A-Z]/.test(c) ? 0.7 : /[0-9]/.test(c) ? 0.64 : 0.8);
  const bold = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600;
  return em * size * (bold ? 1.08 : 1);
}
(vega as unknown as { textMetrics: { width: typeof estimateTextWidth } }).textMetrics.width = estimateTextWidth;

/** One chart: a stable id, its title, a one-sentence caption saying how to read it, and its spec. */
export interface Chart {
  readonly id: 'win-rate' | 'proof-rate' | 'time' | 'positions' | 'line-length' | 'blind-rate';
  readonly title: string;
  readonly caption: string;
  readonly spec: TopLevelSpec;
  /**
   * True when the chart has nothing to draw (a spread chart when no deal was won): the HTML report
   * shows a short note in its place. Absent otherwise.
   */
  readonly empty?: true;
}

/**
 * The size a chart is drawn at: `narrow` for a phone (the page about 390 px wide), `medium` for a
 * tablet or a small window, `wide` for a desktop window (the page up to 1240 px wide). The HTML report
 * holds all three and shows the one that fits (html.ts); `report --format vega` gives the medium one.
 */
export type ChartLayout = 'narrow' | 'medium' | 'wide';

/** The layouts, narrowest first. */
export const CHART_LAYOUTS: readonly ChartLayout[] = ['narrow', 'medium', 'wide'];

/**
 * Pixel sizes of a layout: `plot`, the width of the win-rate and spread charts' plots (their row
 * labels come on top, up to `labelLimit`); `proof`, the proof-rate chart's plot; `legendColumns`, the
 * proof-rate legend's columns. Narrow: labels (up to 150 px) and plot fit a phone's 348 px inside the
 * page's margins; wide: a plot and labels of about 1,000 px fill a desktop page.
 */
export const DIMS: Readonly<Record<ChartLayout, { readonly plot: number; readonly proof: number; readonly labelLimit: number; readonly legendColumns: number }>> = {
  narrow: { plot: 170, proof: 250, labelLimit: 160, legendColumns: 1 },
  medium: { plot: 460, proof: 580, labelLimit: 320, legendColumns: 3 },
  wide: { plot: 800, proof: 920, labelLimit: 320, legendColumns: 4 },
};

/**
 * An axis title for a layout: in the narrow one, on two lines (broken before a ` (` or after a `, `),
 * so that it is no wider than the plot under which it is centred; else on one.
 */
export function axisTitle(text: string, layout: ChartLayout): string | string[] {
  if (layout !== 'narrow') return text;
  // of the places to break (before a ` (`, after a `, `), the one that makes the longer line shortest
  let best: string[] | null = null;
  for (const m of text.matchAll(/ \(|, /g)) {
    const at = m.index!;
    const lines = m[0] === ', ' ? [text.slice(0, at + 1), text.slice(at + 2)] : [text.slice(0, at), text.slice(at + 1)];
    if (best === null || Math.max(...lines.map((l) => l.length)) < Math.max(...best.map((l) => l.length))) best = lines;
  }
  return best ?? text;
}

/** Whether any group label shows on two lines (it names a study: groupLabelExpr). */
function twoLineLabels(groups: readonly string[]): boolean {
  return groups.some((g) => g.includes(': '));
}
const FLOOR = '#1b7f3b';
const CEILING = '#c77c02';

/** Shared look: fonts, sizes, no frame around the plot. */
const CONFIG = {
  font: 'system-ui, -apple-system, Segoe UI, Roboto, Noto Sans, DejaVu Sans, sans-serif',
  title: { fontSize: 15, anchor: 'start', offset: 12 },
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600, gridColor: '#e6e6e6' },
  // the value axes (all horizontal): a label that would touch its neighbour is left out (a log
  // axis's 100, 200, 300 ran together on a phone's chart)
  axisX: { labelOverlap: 'greedy', labelSeparation: 4 },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  view: { stroke: null },
} as const;

/**
 * A Vega expression that shows a group label (data.ts groupLabels) in two lines when it names a study,
 * `mine: spider 2 suits` → the study, then `spider 2 suits` (a long study name is shortened already,
 * data.ts chartStudyNames, keeping the part where the names differ).
 */
export function groupLabelExpr(layout: ChartLayout = 'medium'): string {
  const at = "lastindexof(datum.label, ': ')";
  if (layout !== 'narrow') return `${at} < 0 ? datum.label : [substring(datum.label, 0, ${at}), substring(datum.label, ${at} + 2)]`;
  // narrow: each line cut to NARROW_LABEL_CHARS here (Vega's labelLimit does not bound the room a
  // two-line label takes, which then took half a phone's chart); a study's name keeps its two ends
  const n = NARROW_LABEL_CHARS;
  return `${at} < 0 ? truncate(datum.label, ${n}) : [truncate(substring(datum.label, 0, ${at}), ${n}, 'center'), truncate(substring(datum.label, ${at} + 2), ${n})]`;
}

/** The most characters of a line of a row label in the narrow layout (about 150 px). */
const NARROW_LABEL_CHARS = 25;

/** The parts every chart's spec shares: the schema, the title, the caption as description, the look (CONFIG). */
export function chartBase(title: string, caption: string): Pick<TopLevelSpec, '$schema' | 'title' | 'description' | 'config'> {
  return { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', title, description: caption, config: CONFIG as never };
}

function winRateChart(d: ChartData, layout: ChartLayout): Chart {
  const dims = DIMS[layout];
  const title = 'Win rate by game and suit count';
  const caption =
    'For each game and suit count, the green dot is the floor (deals proven won) and the orange dot the ceiling (deals not proven lost), each with its 95% Wilson interval as a bar; the true win rate of these deals lies between the two.';
  const spec = {
    ...chartBase(title, caption),
    width: dims.plot,
    // a row a game and suit count, two dots in it: two-line labels (a study's name, then the group)
    // need more height than the two dots, or the labels of neighbouring rows touch
    height: { step: twoLineLabels(d.groups) ? 19 : 16 },
    data: { values: d.winRate },
    encoding: {
      // (no axis title: the chart's title says what the rows are, and a title beside long labels overlapped them)
      y: { field: 'group', type: 'nominal', sort: d.groups, title: null, axis: { labelLimit: dims.labelLimit, labelExpr: groupLabelExpr(layout) } },
      yOffset: { field: 'measure', sort: ['floor', 'ceiling'] },
      color: {
        field: 'measure',
        type: 'nominal',
        scale: { domain: ['floor', 'ceiling'], range: [FLOOR, CEILING] },
        legend: { title: null, orient: 'bottom', labelLimit: dims.labelLimit + 100, ...(layout === 'narrow' ? { direction: 'vertical' } : {}), labelExpr: "datum.label == 'floor' ? 'floor: won / deals' : 'ceiling: not proven lost / deals'" },
      },
      tooltip: [
        { field: 'group', title: 'group' },
        { field: 'measure' },
        { field: 'rate', format: '.1%' },
        { field: 'low', format: '.1%', title: '95% low' },
        { field: 'high', format: '.1%', title: '95% high' },
        { field: 'count' },
        { field: 'deals' },
      ],
    },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2.5, opacity: 0.75 },
        encoding: {
          x: { field: 'low', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%', title: axisTitle('win rate (% of deals), with 95% interval', layout) } },
          x2: { field: 'high' },
        },
      },
      { mark: { type: 'point', filled: true, size: 70, opacity: 1 }, encoding: { x: { field: 'rate', type: 'quantitative' } } },
    ],
  };
  return { id: 'win-rate', title, caption, spec: spec as TopLevelSpec };
}

function proofRateChart(d: ChartData, layout: ChartLayout): Chart {
  const dims = DIMS[layout];
  const title = 'Share of deals won within a budget';
  const caption =
    'Read up from a budget B (positions, log scale) to the share of each group\'s deals that were won using at most B positions; dashed lines (labelled at the top) mark the budgets searched and diamonds the share won at each (every rung of a budget ladder), where the curve reaches the floor (a deal solved with a smaller budget may take another path, so the curve is the effort this study spent, not a re-run).';
  const marks = [...new Set(d.budgets.map((b) => b.budget))].map((budget) => ({ budget }));
  const x = { field: 'positions', type: 'quantitative', scale: { type: 'log' }, axis: { title: axisTitle('budget B (positions searched, log scale)', layout), format: '~s', labelOverlap: 'greedy', labelSeparation: 4 } };
  const spec = {
    ...chartBase(title, caption),
    width: dims.proof,
    height: layout === 'narrow' ? 260 : 320,
    layer: [
      {
        data: { values: marks },
        mark: { type: 'rule', strokeDash: [5, 4], color: '#555' },
        encoding: { x: { field: 'budget', type: 'quantitative', scale: { type: 'log' }, axis: x.axis } },
      },
      {
        data: { values: marks },
        // above the plot, where no curve runs (inside it, a label at 100% sat on a curve there)
        mark: { type: 'text', align: 'center', baseline: 'bottom', dy: -3, color: '#333', fontSize: 11 },
        encoding: {
          x: { field: 'budget', type: 'quantitative', axis: x.axis },
          y: { value: 0 },
          text: { field: 'label' },
        },
        transform: [{ calculate: "format(datum.budget, '~s')", as: 'label' }],
      },
      {
        data: { values: d.proof },
        mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
        encoding: {
          x,
          y: { field: 'share', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%', title: axisTitle('deals won within B (% of deals)', layout) } },
          color: { field: 'group', type: 'nominal', sort: d.series, title: 'game and suits', scale: seriesColors(d.series.length), legend: { orient: 'bottom', columns: dims.legendColumns, labelLimit: dims.labelLimit + 80, labelExpr: groupLabelExpr(layout) } },
        },
      },
      {
        data: { values: d.budgets },
        mark: { type: 'point', shape: 'diamond', filled: true, size: 80 },
        encoding: {
          x: { field: 'budget', type: 'quantitative', axis: x.axis },
          y: { field: 'floor', type: 'quantitative' },
          color: { field: 'group', type: 'nominal', sort: d.series, scale: seriesColors(d.series.length) },
          tooltip: [{ field: 'group' }, { field: 'budget', format: ',' }, { field: 'floor', format: '.1%', title: 'won at the budget' }],
        },
      },
    ],
  };
  // no won deal, no curve: a note, as the spread charts give (an empty frame and a
  // legend line for a curve that was not there)
  return { id: 'proof-rate', title, caption, spec: spec as TopLevelSpec, ...(d.proof.length === 0 ? { empty: true as const } : {}) };
}

/**
 * A spread chart: one row a group, min–max rule, 25th–75th percentile box, median tick, 95th
 * percentile diamond. On a log scale, values under `least` are drawn at `least` (the caption says so
 * when any is).
 */
function spreadChart(layout: ChartLayout, id: Chart['id'], title: string, xTitle: string, raw: readonly Spread[], groups: readonly string[], scale: { type: string; zero?: boolean }, least = 0, format = '~s'): Chart {
  const dims = DIMS[layout];
  const fields = ['min', 'q1', 'median', 'q3', 'p95', 'max'] as const;
  const clamped = raw.some((s) => fields.some((f) => s[f] < least));
  const data = raw.map((s) => ({ ...s, ...Object.fromEntries(fields.map((f) => [f, Math.max(s[f], least)])) }));
  const caption =
    'Each row spans the won deals of a group from the least to the most; the box holds the middle half (25th to 75th percentile), the white tick is the median and the orange diamond the 95th percentile' +
    (clamped ? ` (values under ${least} are drawn at ${least}).` : '.');
  const x = (field: string) => ({ field, type: 'quantitative' as const });
  const spec = {
    ...chartBase(title, caption),
    width: dims.plot,
    // two-line labels (a study's name, then the group) need about 30 px; with a gap between rows
    height: { step: twoLineLabels(groups) ? 40 : 28 },
    data: { values: data },
    encoding: {
      y: { field: 'group', type: 'nominal', sort: groups.filter((g) => data.some((s) => s.group === g)), title: null, axis: { labelLimit: dims.labelLimit, labelExpr: groupLabelExpr(layout) } },
      tooltip: [
        { field: 'group' }, { field: 'n', title: 'won deals' }, { field: 'min', format: ',.4~f' }, { field: 'q1', format: ',.4~f' },
        { field: 'median', format: ',.4~f' }, { field: 'q3', format: ',.4~f' }, { field: 'p95', format: ',.4~f' }, { field: 'max', format: ',.4~f' },
      ],
    },
    layer: [
      // a whole-number format (`d`) gets ticks a whole number apart: no 2.5 written as 3 beside a 2
      { mark: { type: 'rule', color: '#777' }, encoding: { x: { ...x('min'), scale, axis: { title: axisTitle(xTitle, layout), format, labelOverlap: 'greedy', labelSeparation: 4, ...(format.endsWith('d') ? { tickMinStep: 1 } : {}) } }, x2: { field: 'max' } } },
      { mark: { type: 'bar', size: 14, color: '#4c78a8' }, encoding: { x: x('q1'), x2: { field: 'q3' } } },
      { mark: { type: 'tick', color: 'white', thickness: 2.5, size: 14 }, encoding: { x: x('median') } },
      { mark: { type: 'point', shape: 'diamond', filled: true, size: 60, color: CEILING, opacity: 1 }, encoding: { x: x('p95') } },
    ],
  };
  return { id, title, caption, spec: spec as TopLevelSpec, ...(data.length === 0 ? { empty: true as const } : {}) };
}

/**
 * The colour scale of the proof-rate chart's curves: Vega's default of 10 colours (tableau10) up to 10
 * curves, its 20 (tableau20) past them, so that no two of 20 curves share a colour (with 12 curves the
 * default drew three pairs alike). Past 20 colours repeat.
 */
function seriesColors(n: number): { scheme: string } | Record<string, never> {
  return n > 10 ? { scheme: 'tableau20' } : {};
}

/** The report's charts, in the order the HTML report shows them, drawn at `layout`'s size (default medium). */
export function reportCharts(d: ChartData, layout: ChartLayout = 'medium'): Chart[] {
  return [
    winRateChart(d, layout),
    proofRateChart(d, layout),
    spreadChart(layout, 'time', 'Solving time of won deals', 'search time per won deal (milliseconds, log scale)', d.timeMs, d.series, { type: 'log' }, 0.1, ',~g'),
    spreadChart(layout, 'positions', 'Positions stored per won deal', 'positions stored per won deal (log scale)', d.positions, d.series, { type: 'log' }, 1),
    // moves are whole numbers, written out (the SI default wrote 50 as 0.05k; `,~g` takes its
    // precision from the tick step, 110 written 1.1e+2 with ticks 10 apart)
    spreadChart(layout, 'line-length', 'Length of the winning line', 'winning-line length (moves, deals included)', d.lineLength, d.series, { type: 'linear', zero: false }, 0, ',d'),
  ];
}

/**
 * Renders one Vega-Lite spec to an SVG string: compiled by Vega-Lite, rendered headless by Vega.
 * `withTitle: false` leaves the spec's title out (a page that prints it above the chart).
 */
export async function renderSvg(spec: TopLevelSpec, withTitle = true): Promise<string> {
  const { title: _title, ...untitled } = spec as TopLevelSpec & { title?: unknown };
  const view = new vega.View(vega.parse(vl.compile(withTitle ? spec : (untitled as TopLevelSpec)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
