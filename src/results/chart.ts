/**
 * The win-rate table's chart page (docs/results.html) from the rows' committed files alone:
 * `data/results/ROW.csv` (one line a deal: its status, the budget of the search that decided it, the
 * positions it counted, the moves of its line) and `ROW.json` (the row's solver version). No database
 * is read, so a fresh checkout writes the same page the committed files describe, whatever databases
 * the machine holds.
 *
 * Each deal counts at every rung of its row's ladder as the batch's report counts it (export.ts
 * atRung: the ladder rule of ladder.ts statusAt, highestBelow).
 * The CSV holds no search times, so the page has no chart of them (ReportMeta.absent says why).
 */
import { join } from 'node:path';
import { ReportAccumulator, type ReportRow } from '../batch/report.js';
import type { WonEffort } from '../report/data.js';
import { reportHtml } from '../report/html.js';
import { atRung, csvDeals, readSummary, summaryPath } from './export.js';
import type { ResultsRow } from './rows.js';

/** Why the page has no chart of search times (ReportMeta.absent, chart `time`). */
export const NO_TIMES = 'The committed files (data/results/*.csv) hold no search times, so there is no chart of them and the table’s ms columns are empty; each row’s CPU time is in docs/results.md.';

/**
 * The report rows (one a row and rung, as `spidersolve report` gives them for the row's study) and
 * the effort of every won deal they count, from the committed files of `rows` under `root`; a row
 * whose committed files count no deal is left out. Positions come from the CSV; search times are null.
 */
export function committedReport(rows: readonly ResultsRow[], root: string): { rows: ReportRow[]; won: WonEffort[] } {
  const acc = new ReportAccumulator();
  const won: WonEffort[] = [];
  for (const row of rows) {
    const summary = readSummary(summaryPath(row, root));
    if (!summary?.counted) continue;
    const solverVersion = summary.solverVersion;
    for (const d of csvDeals(row, join(root, row.csv))) {
      for (const budget of row.budgets) {
        // (an unfinished deal, undecided below the top, counts as undecided above it too)
        const { status, positions } = atRung(d, budget);
        acc.add({ study: row.study, game: row.game, suits: row.suits, budget, solverVersion, status, positions, elapsedMs: null });
        if (status === 'won') won.push({ study: row.study, game: row.game, suits: row.suits, budget, solverVersion, positions, elapsedMs: null, moveCount: d.moves });
      }
    }
  }
  return { rows: acc.rows(), won };
}

/**
 * The HTML page of the table's rows (report.ts reportHtml over committedReport): the report table of
 * every row and rung, and the charts of win rate, proof rate, positions and line length; `generator`
 * names the program (`spidersolve 0.1.0`). No time stamp, so the page is the same for the same files.
 */
export async function committedHtml(rows: readonly ResultsRow[], root: string, generator: string): Promise<string> {
  const r = committedReport(rows, root);
  return reportHtml(r.rows, r.won, {
    db: 'data/results/*.csv, the rows’ committed files',
    filter: 'the rows of docs/results.md',
    generator,
    absent: { time: NO_TIMES },
    title: 'spidersolve win-rate table',
  });
}
