/**
 * The study report as one self-contained HTML file (`report --format html`): the report table and the
 * charts of charts.ts as inline SVG, with a title and a caption each; no script, no style sheet or
 * font from elsewhere, nothing loaded from the network. And the charts' specifications with their
 * data as JSON (`report --format vega`), for people who want to restyle them.
 */
import type { BlindReportRow } from '../batch/blind.js';
import type { ReportRow } from '../batch/report.js';
import { BLIND_LEGEND, blindTableShape } from './blindText.js';
import { HUMAN_HEADERS, humanCell, REPORT_COLUMNS, REPORT_LEGEND, TEXT_COLUMNS } from './text.js';
import { escapeHtml } from '../view/html.js';
import { blindRateChart } from './blindChart.js';
import { CHART_LAYOUTS, reportCharts, renderSvg, type Chart, type ChartLayout } from './charts.js';
import { chartData, type WonEffort } from './data.js';

/** What the report is about, printed at its head. */
export interface ReportMeta {
  /** The database read. */
  readonly db: string;
  /** The filter, in words (`all results`, `spider, suits 1,2`). */
  readonly filter: string;
  /** Program name and version. */
  readonly generator: string;
  /** When it was made (ISO 8601); left out when absent, so that tests can compare whole files. */
  readonly generatedAt?: string;
  /**
   * Warnings shown under the heading, one a line: studies short of their plan (report.ts
   * partialStudyNotes: `study X: 14 of 20 planned deals counted (partial: …)`).
   */
  readonly notes?: readonly string[];
  /** With `report --pool`: how many solve studies the rows pool (each row names them, `a + b`). */
  readonly pooled?: number;
  /** With `report --pool`: how many blind studies the blind rows pool. */
  readonly pooledBlind?: number;
  /** The blind studies' rows (src/batch/blind.ts blindReport): their table and chart follow the solves'. */
  readonly blind?: readonly BlindReportRow[];
  /**
   * Charts whose data the source does not hold, by chart id (`time`: the search times), each with the
   * note shown in its place (the win-rate table's page, src/results/chart.ts, from files without times).
   */
  readonly absent?: Readonly<Record<string, string>>;
  /** The page's title and heading; `spidersolve study report` when absent. */
  readonly title?: string;
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;color:#1d1d1d;background:#f6f7f4;line-height:1.45}
main{max-width:1240px;margin:0 auto;padding:18px 14px 40px}
h1{font-size:clamp(20px,4.5vw,28px);margin:0 0 4px}
h2{font-size:18px;margin:0 0 6px}
.meta{color:#555;font-size:14px;margin:0 0 16px}
.warn{background:#fff4d6;border:1px solid #e0b84a;border-radius:8px;padding:8px 12px;margin:0 0 16px;font-size:14px}
.warn p{margin:0}
.tablewrap{overflow-x:auto;background:#fff;border:1px solid #ddd;border-radius:8px;margin-bottom:8px}
.tablewrap::-webkit-scrollbar{height:12px}
.tablewrap::-webkit-scrollbar-track{background:#f0f2ee;border-radius:0 0 8px 8px}
.tablewrap::-webkit-scrollbar-thumb{background:#a9ada4;border-radius:6px;border:3px solid #f0f2ee}
@supports not selector(::-webkit-scrollbar){.tablewrap{scrollbar-color:#a9ada4 #f0f2ee;scrollbar-width:auto}}
table{border-collapse:collapse;font-size:12px;white-space:nowrap;font-variant-numeric:tabular-nums}
th,td{padding:4px 6px;border-bottom:1px solid #eee;text-align:right}
th{background:#f0f2ee;font-weight:600;white-space:normal;vertical-align:bottom;line-height:1.2}
td.l,th.l{text-align:left}
td.s{white-space:normal;min-width:9em;max-width:14em;overflow-wrap:anywhere}
tr:last-child td{border-bottom:none}
.legend{font-size:13px;color:#555;margin:0 0 22px}
.empty{color:#555;font-style:italic;margin:4px 0}
figure{margin:0 0 26px;background:#fff;border:1px solid #ddd;border-radius:8px;padding:12px 12px 10px}
figure svg{display:block;max-width:100%;height:auto}
.chart{overflow-x:auto}
.chart::-webkit-scrollbar{height:12px}
.chart::-webkit-scrollbar-thumb{background:#a9ada4;border-radius:6px;border:3px solid #fff}
.v-narrow,.v-wide{display:none}
@media (max-width:640px){figure{padding:10px 6px}figcaption{font-size:13px}.v-narrow{display:block}.v-medium{display:none}}
@media (min-width:1100px){.v-wide{display:block}.v-medium{display:none}}
figcaption{font-size:14px;color:#444;margin-top:6px}
footer{font-size:12px;color:#777}
`;

function table(rows: readonly ReportRow[]): string {
  const head = REPORT_COLUMNS.map((c) => `<th${TEXT_COLUMNS.has(c) ? ' class="l"' : ''} scope="col">${escapeHtml(HUMAN_HEADERS[c])}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${REPORT_COLUMNS.map((c) => `<td${c === 'study' ? ' class="l s"' : TEXT_COLUMNS.has(c) ? ' class="l"' : ''}>${escapeHtml(humanCell(r, c))}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="tablewrap"><table data-report-table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

/** The blind studies' table (the cells of `report`'s blind table). */
function blindTable(rows: readonly BlindReportRow[]): string {
  const { headers, cells, left } = blindTableShape(rows);
  const head = headers.map((h, i) => `<th${left[i] ? ' class="l"' : ''} scope="col">${escapeHtml(h)}</th>`).join('');
  const body = cells.map((row) => `<tr>${row.map((c, i) => `<td${i === 0 ? ' class="l s"' : left[i] ? ' class="l"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<div class="tablewrap"><table data-blind-table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

/**
 * The report's charts for report rows and the won deals' effort (see data.ts, charts.ts). The rows
 * are the per-study report's (store.ts `report`): a study's rows of one game, suits and solver version
 * are the rungs of its budget ladder, with cumulative counts, so they are drawn as one curve.
 */
export function studyCharts(rows: readonly ReportRow[], won: Iterable<WonEffort>, layout: ChartLayout = 'medium'): Chart[] {
  return reportCharts(chartData(rows, won, { rungs: true }), layout);
}

/** studyCharts at every layout (CHART_LAYOUTS), from one reading of `won`: the charts of each, in the same order. */
function chartsAtEveryLayout(rows: readonly ReportRow[], won: Iterable<WonEffort>): Record<ChartLayout, Chart[]> {
  const data = chartData(rows, won, { rungs: true });
  return Object.fromEntries(CHART_LAYOUTS.map((l) => [l, reportCharts(data, l)])) as Record<ChartLayout, Chart[]>;
}

/**
 * The HTML report: heading and what it covers, the report table (the cells of `report --format md`),
 * then each chart (title, inline SVG rendered by Vega, caption). With no rows, the table says so and
 * there are no charts. `won` is read once.
 */
/**
 * The blind studies' words for the head line (blindReport's rows: one per study, game, suits, player,
 * seed and version): `40 blind games of 2 blind studies`, or null when there are none; `pooled`:
 * how many blind studies pooled rows pool.
 */
function blindCount(blind: readonly BlindReportRow[], pooled?: number): string | null {
  if (blind.length === 0) return null;
  const games = blind.reduce((n, r) => n + r.deals, 0);
  // (pooled rows are labelled `a + b`: the studies they pool are counted)
  const studies = pooled ?? new Set(blind.map((r) => r.study)).size;
  return `${games.toLocaleString('en-US')} blind game${games === 1 ? '' : 's'} of ${studies} blind stud${studies === 1 ? 'y' : 'ies'}`;
}

export async function reportHtml(rows: readonly ReportRow[], won: Iterable<WonEffort>, meta: ReportMeta): Promise<string> {
  const blind = meta.blind ?? [];
  // the blind chart follows the solve charts, drawn at each layout as they are
  const studyLayouts = rows.length ? chartsAtEveryLayout(rows, won) : null;
  const layouts = Object.fromEntries(CHART_LAYOUTS.map((l) => [l, [...(studyLayouts?.[l] ?? []), ...(blind.length ? [blindRateChart(blind, l)] : [])]])) as Record<ChartLayout, Chart[]>;
  const charts = layouts.medium;
  const figures: string[] = [];
  for (const [i, c] of charts.entries()) {
    const absent = meta.absent?.[c.id];
    if (absent !== undefined) {
      figures.push(`<figure data-chart="${escapeHtml(c.id)}" data-absent>\n<h2>${escapeHtml(c.title)}</h2>\n<p class="empty">${escapeHtml(absent)}</p>\n</figure>`);
      continue;
    }
    if (c.empty) {
      // nothing to draw (no won deal): a note, not an empty frame with a caption describing boxes
      figures.push(`<figure data-chart="${escapeHtml(c.id)}" data-empty>\n<h2>${escapeHtml(c.title)}</h2>\n<p class="empty">No won deals: nothing to plot.</p>\n</figure>`);
      continue;
    }
    // the chart at each size; the style sheet shows the one that fits the window (a phone's, a
    // tablet's, a desktop's), so that no chart opens scrolled sideways with its dots out of sight
    const svgs: string[] = [];
    for (const l of CHART_LAYOUTS) svgs.push(`<div class="v-${l}" data-layout="${l}">${await renderSvg(layouts[l][i]!.spec, false)}</div>`);
    figures.push(
      `<figure data-chart="${escapeHtml(c.id)}">\n<h2>${escapeHtml(c.title)}</h2>\n<div class="chart">${svgs.join('')}</div>\n<figcaption>${escapeHtml(c.caption)}</figcaption>\n</figure>`,
    );
  }
  // a deal counts once, in the top rung of its study's ladder (a study's rows of one game, suits and
  // solver version are its rungs)
  const top = new Map<string, number>();
  for (const r of rows) {
    const k = `${r.study}\u0000${r.game}\u0000${r.suits}\u0000${r.solverVersion}`;
    top.set(k, Math.max(top.get(k) ?? 0, r.deals));
  }
  const deals = [...top.values()].reduce((s, n) => s + n, 0);
  const versions = [...new Set(rows.map((r) => r.solverVersion))].join(', ');
  // what the rows count, not the database's distinct deals: a deal two studies share counts in each,
  // and a deal stored but not (yet) counted by a study is not in its rows ("stored deals" would
  // say 20 where the database holds 10)
  // (pooled rows are one study each, named `a + b`: the studies they pool are counted, so that
  // three pooled studies do not read "1 study")
  const pooled = meta.pooled !== undefined && rows.length > 0;
  const studies = pooled ? meta.pooled! : new Set(rows.map((r) => r.study)).size;
  // (a deal can be shared only by studies of one game and suit count: none of another says so)
  const groups = new Map<string, Set<string>>();
  for (const r of rows) groups.set(`${r.game}/${r.suits}`, (groups.get(`${r.game}/${r.suits}`) ?? new Set()).add(r.study));
  const canShare = [...groups.values()].some((g) => g.size > 1);
  const shared = pooled ? (studies > 1 ? '; pooled: a deal two studies share counts once' : '') : canShare ? '; a deal two studies share counts in each' : '';
  // the solves' clause, then the blind games' (a database of blind studies alone says only those)
  const blindWords = blindCount(blind, meta.pooledBlind);
  const solveWords = rows.length > 0 || blindWords === null
    ? `${deals.toLocaleString('en-US')} deal${deals === 1 ? '' : 's'} counted by ${studies} stud${studies === 1 ? 'y' : 'ies'}`
    : null;
  const meta1 =
    `${[solveWords, blindWords].filter((w) => w !== null).join(' and ')} in ${meta.db} (${meta.filter})` +
    `${shared}${versions ? `, solver ${versions}` : ''}.`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(meta.title ?? 'spidersolve study report')}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(meta.title ?? 'spidersolve study report')}</h1>
<p class="meta">${escapeHtml(meta1)}</p>
${meta.notes?.length ? `<div class="warn" role="note" data-partial>${meta.notes.map((n) => `<p>${escapeHtml(n)}</p>`).join('')}</div>\n` : ''}${rows.length || !blind.length ? `${rows.length ? table(rows) : '<p>No results.</p>'}
<p class="legend">${escapeHtml(REPORT_LEGEND.join(' '))}</p>
` : ''}${blind.length ? `<h2>Blind play</h2>
${blindTable(blind)}
<p class="legend">${escapeHtml(BLIND_LEGEND.map((l) => l.trim()).join(' '))}</p>
` : ''}${figures.join('\n')}
<footer>Made by ${escapeHtml(meta.generator)}${meta.generatedAt ? ` on ${escapeHtml(meta.generatedAt)}` : ''}; charts by Vega-Lite and Vega. This file needs no network.</footer>
</main>
</body>
</html>
`;
}

/**
 * The charts' Vega-Lite v5 specifications with their data inline, as one JSON document
 * `{ generator, charts: [{ id, title, caption, spec }] }` (`report --format vega`). Each `spec` opens
 * as it is in the Vega editor or `vl.compile`.
 */
export function reportVega(rows: readonly ReportRow[], won: Iterable<WonEffort>, generator: string, blind: readonly BlindReportRow[] = []): string {
  const charts = [...(rows.length ? studyCharts(rows, won) : []), ...(blind.length ? [blindRateChart(blind)] : [])];
  return JSON.stringify({ generator, charts }, null, 2) + '\n';
}
