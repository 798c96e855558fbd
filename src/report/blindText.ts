/**
 * The forms of the blind report (src/batch/blind.ts BlindReportRow): its columns, the records of CSV
 * and JSON, and the human table (text, Markdown; the HTML report's table takes blindTableShape), with
 * the legend printed under it. No I/O here.
 */
import type { BlindReportRow } from '../batch/blind.js';
import { roundTo } from '../batch/report.js';
import { alignedTable, markdownTable } from './text.js';

/** The blind report's columns in order (JSON, CSV and the table). */
export const BLIND_REPORT_COLUMNS: readonly (keyof BlindReportRow)[] = [
  'study', 'game', 'suits', 'player', 'playerSeed', 'version', 'deals', 'won', 'stuck', 'errors', 'winRate', 'ciLow', 'ciHigh',
  'meanCompleted', 'meanMoves', 'meanCpuMs', 'piDeals', 'piWon', 'piLost', 'piRate', 'piLow', 'piHigh',
];

/** Decimals of the blind report's fractional columns in JSON and CSV. */
const BLIND_DECIMALS: Partial<Record<keyof BlindReportRow, number>> = {
  winRate: 4, ciLow: 4, ciHigh: 4, piRate: 4, piLow: 4, piHigh: 4, meanCompleted: 2, meanMoves: 1, meanCpuMs: 1,
};

/**
 * The blind report rows as plain records, fractions rounded (BLIND_DECIMALS); with `partial`, each
 * ends with `partial` (true when the row's study is short of its plan), as the solve rows' records do
 * (src/report/text.ts rowsAsRecords).
 */
export function blindRecords(rows: readonly BlindReportRow[], partial?: (row: BlindReportRow) => boolean): Record<string, string | number | boolean | null>[] {
  return rows.map((r) => ({
    ...Object.fromEntries(BLIND_REPORT_COLUMNS.map((c) => {
      const v = r[c];
      const d = BLIND_DECIMALS[c];
      return [c, typeof v === 'number' && d !== undefined ? roundTo(v, d) : v];
    })),
    ...(partial ? { partial: partial(r) } : {}),
  }));
}

/** A fraction as a percentage with one decimal (`61.5%`), or `-`. */
function pct(v: number | null): string {
  return v === null ? '-' : `${(v * 100).toFixed(1)}%`;
}

/** A rate with its interval: `61.5% [54.2%, 68.3%]`, or `-`. */
function rateText(rate: number | null, lo: number | null, hi: number | null): string {
  return rate === null ? '-' : `${pct(rate)} [${pct(lo)}, ${pct(hi)}]`;
}

/**
 * The human cells of a blind report row (table and markdown), in BLIND_TABLE_HEADERS order; with
 * `version`, the row's version after the player seed (the `version` column, see blindTableShape).
 */
export function blindCells(r: BlindReportRow, version = false): string[] {
  return [
    r.study, r.game, String(r.suits), r.player, String(r.playerSeed), ...(version ? [r.version] : []), String(r.deals), String(r.won), String(r.stuck), String(r.errors),
    rateText(r.winRate, r.ciLow, r.ciHigh), r.meanCompleted === null ? '-' : r.meanCompleted.toFixed(2),
    r.meanMoves === null ? '-' : r.meanMoves.toFixed(0),
    r.meanCpuMs === null ? '-' : r.meanCpuMs >= 1000 ? `${(r.meanCpuMs / 1000).toFixed(1)} s` : `${Math.round(r.meanCpuMs)} ms`,
    r.piDeals === 0 ? '-' : `${r.piWon}/${r.piDeals}`, rateText(r.piRate, r.piLow, r.piHigh),
  ];
}

/** Headers of the blind table. */
export const BLIND_TABLE_HEADERS = ['study', 'game', 'suits', 'player', 'seed', 'deals', 'won', 'stuck', 'errors', 'blind win rate [95% CI]', 'suits done', 'moves/game', 'cpu/game', 'pi won/stored', 'perfect-info rate [95% CI]'];

/**
 * The blind table (text, Markdown, HTML) for these rows: its headers, each row's cells, and which
 * columns are names (`left`: the study, game, player and version, left-aligned; the suit count, the
 * seed and the figures right-aligned, as the solve table aligns them). A `version` column (after
 * `seed`) is shown only when the rows hold more than one version (`blind-<players' version>/solver-<solver
 * version>`), where rows would otherwise look alike; CSV and JSON always carry the version.
 */
export function blindTableShape(rows: readonly BlindReportRow[]): { headers: string[]; cells: string[][]; left: boolean[] } {
  const version = new Set(rows.map((r) => r.version)).size > 1;
  const headers = version ? [...BLIND_TABLE_HEADERS.slice(0, 5), 'version', ...BLIND_TABLE_HEADERS.slice(5)] : [...BLIND_TABLE_HEADERS];
  const names = new Set(['study', 'game', 'player', 'version']);
  return { headers, cells: rows.map((r) => blindCells(r, version)), left: headers.map((h) => names.has(h)) };
}

/** What the blind table's columns mean, printed under it. */
export const BLIND_LEGEND: readonly string[] = [
  'blind: played without seeing the face-down cards or the stock, one game a deal; won/stuck/errors count games;',
  '  suits done: mean completed suits a game; moves/game: mean moves a game, deals included; cpu/game: mean in-worker time; pi won/stored: of the deals of the row with a perfect-information solve stored, those a solve won (an undecided one is not);',
  '  perfect-info rate: of those, the share a solve won (a floor), with its 95% Wilson interval.',
];

/**
 * The blind report as a text table (`md`: a Markdown table), in the solve table's forms (text.ts
 * alignedTable, markdownTable): names left-aligned, figures right-aligned.
 */
export function formatBlindTable(rows: readonly BlindReportRow[], md = false): string {
  const { headers, cells, left } = blindTableShape(rows);
  return md ? markdownTable(headers, cells, left) : alignedTable([headers, ...cells], left);
}
