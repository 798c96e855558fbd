/**
 * The blind studies' chart of the HTML report (`report --format html`): per game and suit count, the
 * blind win rate next to the perfect-information rate of the same deals, each with its 95% Wilson
 * interval (src/batch/blind.ts BlindReportRow) — the price of not seeing the cards.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { BlindReportRow } from '../batch/blind.js';
import { axisTitle, chartBase, DIMS, groupLabelExpr, type Chart, type ChartLayout } from './charts.js';

/** One point of the chart: a row's group, which rate, the rate and its interval, and the deals it counts. */
export interface BlindRatePoint {
  /** `study: game N suit(s), player` (a row of the blind report), with `, seed N` and the version where rows differ in them. */
  readonly group: string;
  /** `blind` or `perfect information`. */
  readonly kind: 'blind' | 'perfect information';
  readonly rate: number;
  readonly low: number;
  readonly high: number;
  /** `won / deals`, for the tooltip. */
  readonly count: string;
}

/**
 * The chart's points: two per row (the perfect-information one only where the row's deals have solves
 * stored). A row's group names its player seed when the rows hold several, and its version when they
 * hold several, so that no two rows share a line of the chart.
 */
export function blindRatePoints(rows: readonly BlindReportRow[]): BlindRatePoint[] {
  const out: BlindRatePoint[] = [];
  const seeds = new Set(rows.map((r) => r.playerSeed)).size > 1;
  const versions = new Set(rows.map((r) => r.version)).size > 1;
  for (const r of rows) {
    const group = `${r.study}: ${r.game} ${r.suits} suit${r.suits === 1 ? '' : 's'}, ${r.player.split(':')[0]}${seeds ? `, seed ${r.playerSeed}` : ''}${versions ? `, ${r.version}` : ''}`;
    if (r.winRate !== null) out.push({ group, kind: 'blind', rate: r.winRate, low: r.ciLow ?? 0, high: r.ciHigh ?? 1, count: `${r.won} / ${r.deals}` });
    if (r.piRate !== null) out.push({ group, kind: 'perfect information', rate: r.piRate, low: r.piLow ?? 0, high: r.piHigh ?? 1, count: `${r.piWon} / ${r.piDeals}` });
  }
  return out;
}

/**
 * The chart (id `blind-rate`): a dot per rate with its interval as a bar, one line per row of the blind
 * report, drawn at `layout`'s size as the solve charts are (charts.ts DIMS: the plot's width and the
 * row labels' room; a phone's labels cut short and its axis title on two lines). The HTML report holds
 * it at every layout and shows the one that fits; `report --format vega` gives the medium one.
 */
export function blindRateChart(rows: readonly BlindReportRow[], layout: ChartLayout = 'medium'): Chart {
  const dims = DIMS[layout];
  const title = 'Blind win rate and perfect-information rate by game and suit count';
  const caption =
    'For each blind study, game and suit count, the blue dot is the blind win rate (the player sees only the face-up cards) and the green dot the share of the same deals a perfect-information solve won, each with its 95% Wilson interval as a bar; the gap is the price of not seeing the cards.';
  const values = blindRatePoints(rows);
  const spec = {
    ...chartBase(title, caption),
    width: dims.plot,
    // a row a study, game and suit count, two dots in it: the two-line labels need the room the win-rate chart gives them
    height: { step: 19 },
    data: { values },
    encoding: {
      // (the study on one line, the game, suits and player on the next; on a phone each line cut short)
      y: { field: 'group', type: 'nominal', title: null, sort: null, axis: { labelLimit: dims.labelLimit, labelExpr: groupLabelExpr(layout) } },
      yOffset: { field: 'kind', sort: ['blind', 'perfect information'] },
      color: { field: 'kind', type: 'nominal', title: null, scale: { domain: ['blind', 'perfect information'], range: ['#1f5fbf', '#1b7f3b'] }, legend: { orient: 'bottom', ...(layout === 'narrow' ? { direction: 'vertical' } : {}) } },
    },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: { x: { field: 'low', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%' }, title: axisTitle('win rate (95% Wilson interval)', layout) }, x2: { field: 'high' } },
      },
      {
        mark: { type: 'point', filled: true, size: 60 },
        encoding: {
          x: { field: 'rate', type: 'quantitative' },
          tooltip: [{ field: 'group' }, { field: 'kind' }, { field: 'rate', format: '.1%' }, { field: 'count' }],
        },
      },
    ],
  } as unknown as TopLevelSpec;
  return { id: 'blind-rate', title, caption, spec, ...(values.length === 0 ? { empty: true as const } : {}) };
}
