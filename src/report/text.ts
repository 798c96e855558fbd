/**
 * The forms `spidersolve report` and batch's summary print the solve report in (src/batch/report.ts
 * ReportRow): an aligned text table, GitHub-flavoured Markdown, RFC 4180 CSV and JSON, the legend
 * under the human forms, and the lines that say a study is short of its plan. No I/O here.
 */
import { stringify } from 'csv-stringify/sync';
import stringWidth from 'string-width';
import { isPartial, roundTo, type ReportRow, type StudyCompleteness } from '../batch/report.js';

/** Output formats of `spidersolve report`. */
export type ReportFormat = 'table' | 'md' | 'csv' | 'json';

/** Column order of every tabular format; also the JSON field order. */
export const REPORT_COLUMNS: readonly (keyof ReportRow)[] = [
  'study', 'game', 'suits', 'budget', 'deals', 'won', 'lost', 'undecided', 'errors', 'floor', 'ciLow', 'ciHigh',
  'ceiling', 'ceilingLow', 'ceilingHigh', 'medianPositions', 'p95Positions', 'medianMs', 'p95Ms', 'solverVersion',
];

/** Human-readable cell (table, md, html): rates as percentages with one decimal, positions whole, ms with one decimal. */
export function humanCell(row: ReportRow, col: keyof ReportRow): string {
  const v = row[col];
  if (v === null) return '-';
  if (typeof v === 'string') return v;
  switch (col) {
    case 'floor': case 'ciLow': case 'ciHigh': case 'ceiling': case 'ceilingLow': case 'ceilingHigh':
      return `${(v * 100).toFixed(1)}%`;
    case 'medianPositions': case 'p95Positions':
      return String(Math.round(v));
    case 'medianMs': case 'p95Ms':
      return v.toFixed(1);
    default:
      return String(v);
  }
}

/** Column headers of the human-readable formats (table, md, html). */
export const HUMAN_HEADERS: Record<keyof ReportRow, string> = {
  study: 'study', game: 'game', suits: 'suits', budget: 'budget', deals: 'deals', won: 'won', lost: 'lost',
  undecided: 'undecided', errors: 'errors', floor: 'floor', ciLow: 'CI low', ciHigh: 'CI high',
  ceiling: 'ceiling', ceilingLow: 'ceil low', ceilingHigh: 'ceil high', medianPositions: 'med pos', p95Positions: 'p95 pos', medianMs: 'med ms',
  p95Ms: 'p95 ms', solverVersion: 'solver',
};

/** The text columns of the solve table, left-aligned in every form (text, Markdown, HTML); the figures right-aligned. */
export const TEXT_COLUMNS: ReadonlySet<keyof ReportRow> = new Set(['study', 'game', 'solverVersion']);

/** Plain-text table with aligned columns (text left, numbers right), one header line, `\n` ends. */
export function formatTable(rows: readonly ReportRow[]): string {
  if (rows.length === 0) return 'no results\n';
  const cells = [REPORT_COLUMNS.map((c) => HUMAN_HEADERS[c]), ...rows.map((r) => REPORT_COLUMNS.map((c) => humanCell(r, c)))];
  return alignedTable(cells, REPORT_COLUMNS.map((c) => TEXT_COLUMNS.has(c)));
}

/**
 * Lines of cells (the header first) as a plain-text table: each column padded to its widest cell by
 * the width a terminal gives the text (string-width: wide CJK characters take two columns, combining
 * marks none), not by its length; text columns (`left[i]`) left-aligned, figures right-aligned, two
 * spaces between; `\n` ends. The solve table's form and the blind table's.
 */
export function alignedTable(lines: readonly (readonly string[])[], left: readonly boolean[]): string {
  const widths = left.map((_, i) => Math.max(...lines.map((line) => stringWidth(line[i]!))));
  const pad = (s: string, i: number) => {
    const fill = ' '.repeat(Math.max(0, widths[i]! - stringWidth(s)));
    return left[i] ? s + fill : fill + s;
  };
  return lines.map((line) => line.map(pad).join('  ').trimEnd()).join('\n') + '\n';
}

/**
 * A GitHub-flavoured Markdown table of `headers` and `cells`: text columns (`left[i]`) left-aligned
 * and escaped by markdownText, figures right-aligned; `\n` ends. The solve table's form and the
 * blind table's.
 */
export function markdownTable(headers: readonly string[], cells: readonly (readonly string[])[], left: readonly boolean[]): string {
  const line = (c: readonly string[]) => `| ${c.map((x, i) => (left[i] ? markdownText(x) : x)).join(' | ')} |`;
  return [line(headers), `|${left.map((l) => (l ? ' --- ' : ' ---: ')).join('|')}|`, ...cells.map(line)].join('\n') + '\n';
}

/**
 * What the report's columns mean, three lines: the one source of these words, printed under the text
 * table (report, batch's summary), as a paragraph under the Markdown table (markdownLegend) and under
 * the HTML report's table. Floor, ceiling and undecided as docs/rules.md R19 defines them; an error
 * is a deal whose solve failed (stored as `error`, solved again when the batch is resumed).
 */
export const REPORT_LEGEND: readonly string[] = [
  'floor = won / deals (a proven lower bound on the win rate); CI = its 95% Wilson interval; ceiling = deals not proven lost / deals (ceil low/high: its interval);',
  'undecided = neither won nor lost within the budget (counted in the ceiling, not the floor); errors = deals whose solve failed (it ran out of memory, say), solved again when the batch is resumed;',
  'budget = the position budget of each search; pos and ms: median and 95th percentile (p95) of positions stored and milliseconds, over won deals; solver = the solver version the results were stored under.',
];

/** REPORT_LEGEND as a Markdown paragraph (its words escaped by markdownText, one source line a line), ending in `\n`. */
export function markdownLegend(): string {
  return REPORT_LEGEND.map(markdownText).join('\n') + '\n';
}

/** GitHub-flavoured Markdown table, same cells as `formatTable`; `no results` (a line) when there are no rows, as `formatTable`. */
export function formatMarkdown(rows: readonly ReportRow[]): string {
  if (rows.length === 0) return 'no results\n';
  return markdownTable(REPORT_COLUMNS.map((c) => HUMAN_HEADERS[c]), rows.map((r) => REPORT_COLUMNS.map((c) => humanCell(r, c))), REPORT_COLUMNS.map((c) => TEXT_COLUMNS.has(c)));
}

/**
 * Text as Markdown shows it literally, in a table cell or a paragraph (a study name may hold any
 * printable character): `\ ` * _ ~ [ ] |` are backslash-escaped (GitHub-flavoured Markdown: `\|` is
 * a pipe inside a cell), `& < >` written as entities, so no name splits a row or passes as HTML.
 */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_~[\]|]/g, (c) => `\\${c}`).replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** Decimals kept in machine-readable output (CSV, JSON): rates (fractions) 6, positions and ms 1. */
export const RECORD_DECIMALS: Partial<Record<keyof ReportRow, number>> = {
  floor: 6, ciLow: 6, ciHigh: 6, ceiling: 6, ceilingLow: 6, ceilingHigh: 6,
  medianPositions: 1, p95Positions: 1, medianMs: 1, p95Ms: 1,
};

/**
 * The rows as plain objects with the fields in `REPORT_COLUMNS` order, nulls kept, numbers as stored
 * except the fractional ones, rounded per `RECORD_DECIMALS` (rates to 6 decimals, positions and ms to
 * 1), so that CSV and JSON print e.g. `120974.3`, not `120974.29999999992`.
 */
export function rowsAsRecords(rows: readonly ReportRow[], partial?: (row: ReportRow) => boolean): Record<string, string | number | boolean | null>[] {
  return rows.map((r) => ({
    ...Object.fromEntries(
      REPORT_COLUMNS.map((c) => {
        const v = r[c];
        const d = RECORD_DECIMALS[c];
        return [c, typeof v === 'number' && d !== undefined ? roundTo(v, d) : v];
      }),
    ),
    ...(partial ? { partial: partial(r) } : {}),
  }));
}

/**
 * Whether each report row's study is short of its plan for that row's solver version (isPartial),
 * for the machine-read forms: `partial(row)` as a CSV column and a JSON field, where the text forms
 * print the partial lines (partialStudyNotes). `completeness(study, version)` gives the study's plan
 * against what that version's results count (store.ts studies(names, version)).
 */
export function partialOfRows(completeness: (study: string, version: string) => StudyCompleteness | undefined): (row: ReportRow) => boolean {
  const seen = new Map<string, boolean>();
  return (row) => {
    const k = `${row.study}\u0000${row.solverVersion}`;
    let v = seen.get(k);
    if (v === undefined) {
      const c = completeness(row.study, row.solverVersion);
      v = c !== undefined && isPartial(c);
      seen.set(k, v);
    }
    return v;
  };
}

/**
 * RFC 4180 CSV (csv-stringify): a header row of the field names in `REPORT_COLUMNS` order, numbers
 * as `rowsAsRecords` gives them (fractions, not percentages, to 6 decimals; positions and ms to 1),
 * empty cells for nulls, CRLF line ends.
 */
export function formatCsv(rows: readonly ReportRow[], partial?: (row: ReportRow) => boolean): string {
  return stringify(rowsAsRecords(rows, partial), {
    header: true,
    columns: [...REPORT_COLUMNS, ...(partial ? ['partial'] : [])],
    cast: { boolean: (b) => (b ? 'true' : 'false') },
    record_delimiter: 'windows',
  });
}

/**
 * Report rows in one of the `ReportFormat`s; with `partial` (partialOfRows), the CSV and JSON forms
 * end each row with `partial` (true when its study is short of its plan), which the text forms say in
 * lines under the table instead.
 */
export function formatReport(rows: readonly ReportRow[], format: ReportFormat, partial?: (row: ReportRow) => boolean): string {
  switch (format) {
    case 'table': return formatTable(rows);
    case 'md': return formatMarkdown(rows);
    case 'csv': return formatCsv(rows, partial);
    case 'json': return formatJson(rows, partial);
  }
}

/** JSON: an array of row objects as `rowsAsRecords` gives them (fractions, not percentages), pretty-printed, `\n` ends. */
export function formatJson(rows: readonly ReportRow[], partial?: (row: ReportRow) => boolean): string {
  return JSON.stringify(rowsAsRecords(rows, partial), null, 2) + '\n';
}

/**
 * The warning lines of the studies (of `studies`, in their order) that `isPartial`, one or two a study:
 * `study NAME: 14 of 20 planned deals counted (partial: missing shards or an unfinished run)` when
 * it counts fewer deals than planned (`… (partial: an unfinished run)` for a study never sharded,
 * `sharded` false), and, when its ladder is unfinished, `study NAME: 12 of 40 deals
 * not yet solved at every rung of the ladder (partial: an unfinished run); they count as undecided at
 * the rungs they have not reached`; for an open-ended study not yet stopped by its rule, `study NAME:
 * 345 deals counted so far, before its --until-width 0.02 rule was met (partial: …)`. `show` prints a
 * name (e.g. escaping control characters); empty when every study is whole.
 */
export function partialStudyNotes(studies: readonly StudyCompleteness[], show: (name: string) => string = (n) => n): string[] {
  return studies.filter(isPartial).flatMap((s) => [
    ...(s.planned === null
      ? [`study ${show(s.name)}: ${s.counted.toLocaleString('en-US')} deals counted so far, before its --until-width ${s.untilWidth} rule was met (partial: an open-ended study its rule has not stopped yet; run its batch command again to go on)`]
      : []),
    ...(s.planned !== null && s.counted < s.planned
      ? [`study ${show(s.name)}: ${s.counted.toLocaleString('en-US')} of ${s.planned!.toLocaleString('en-US')} planned deals counted (partial: ${s.sharded === false ? 'an unfinished run' : 'missing shards or an unfinished run'})`]
      : []),
    ...((s.unfinished ?? 0) > 0
      ? [`study ${show(s.name)}: ${s.unfinished!.toLocaleString('en-US')} of ${s.counted.toLocaleString('en-US')} deals not yet solved at every rung of the ladder (partial: an unfinished run); they count as undecided at the rungs they have not reached`]
      : []),
  ]);
}

