/**
 * docs/results.md: the win-rate table written from the rows' committed summaries and CSV files
 * (data/results/ROW.json, ROW.csv; src/results/export.ts), so that it can be written again from a
 * clone without the databases. Floors, ceilings and their 95% intervals are the report's
 * (src/batch/report.ts: won / deals and (won + undecided + errors) / deals at the ladder's top rung,
 * Wilson score intervals), as `spidersolve report` prints them for the row's study.
 */
import { budgetWords } from '../batch/report.js';
import { CHECK_BUDGET, lossesPath, parseLossesCsv } from './confirm.js';
import { parseCsvRecords, type RowSummary, type RungCounts } from './export.js';
import { batchArgs, dealName, type ResultsRow } from './rows.js';

/** plspider's results on PySolFC Spider (4 suits) numbers 1–32,000 (tranzoa.net/alex/plspider.htm, 2005): every deal won but two; 14934 "appears to be unwinnable", the other is not named on the page's summary. */
export const PLSPIDER_NOT_WON: readonly number[] = Object.freeze([14934]);

/** A rate in percent with three decimals (`99.994%`), or `–` for none. */
export function pct(x: number | null | undefined): string {
  return x === null || x === undefined ? '–' : `${(x * 100).toFixed(3)}%`;
}

/** A count with thousands separators (`32,000`). */
function num(n: number): string {
  return n.toLocaleString('en-US');
}


/** The band of a rung: from the floor's 95% low end to the ceiling's 95% high end, in points (null without deals). */
export function bandPoints(t: RungCounts | null): number | null {
  return t && t.ciLow !== null && t.ceilingHigh !== null ? (t.ceilingHigh - t.ciLow) * 100 : null;
}

/** CPU seconds and deals of a row's recorded sittings, and the CPU time a deal (null when none was measured). */
export function cpuOf(s: RowSummary): { seconds: number; deals: number; perDeal: number | null } {
  const measured = s.sittings.filter((x) => x.cpuSeconds >= 0);
  const seconds = measured.reduce((a, x) => a + x.cpuSeconds, 0);
  const deals = measured.reduce((a, x) => a + (x.dealsAfter - x.dealsBefore), 0);
  return { seconds, deals, perDeal: deals > 0 ? seconds / deals : null };
}

function deals(r: ResultsRow): string {
  return r.source.kind === 'pysol' ? `PySolFC numbers 1–${num(r.count)} (\`pysol:${r.source.pysol}:N\`)` : `seeds 1–${num(r.count)} (\`${r.game === 'spider' ? 'SP' : 'SE'}${r.suits}-N\`)`;
}

function ladder(r: ResultsRow): string {
  return r.budgets.map(budgetWords).join(', ');
}

/** The method section of docs/results.md (what the numbers mean and how they were made). */
export const METHOD = `## Method

- **Rows.** Each row is a fixed list of deals, solved in order: PySolFC's game numbers where PySolFC
  has the game (Spider 1, 2 and 4 suits, four-suit Spiderette: the deal PySolFC shows for that
  number, mapped onto this project's layout, \`src/game/pysol.ts\`), this project's seeded deals
  otherwise (one- and two-suit Spiderette). The rows are data in \`src/results/rows.ts\`.
- **Budget ladder.** Every deal is searched with the complete solver at 1,000,000 positions; those
  left undecided at 4,000,000, then at 16,000,000 (\`spidersolve batch --max-positions
  1000000,4000000,16000000\`); in Spider 4 suits, compared deal by deal with plspider, those still
  undecided at 64,000,000 too. A deal is **won** when the solver found a winning line (it replays
  under the rules), **lost** when the complete search proved that no line wins (rules.md R19), and
  **undecided** when the top rung ran out of positions first.
- **Second check of the losses.** \`npm run results -- confirm ROW\` searches every lost deal again
  with the complete search alone: from the deal, with a fresh table and none of the solver's
  reductions (every legal move, columns kept in their order; \`src/solver/confirm.ts\`). It shares
  the rules and the table with the solver, not the pruning nor the stages whose positions the solve's
  proof reuses. Each row's section says how many losses it confirmed.
- **Floor and ceiling.** floor = won / deals, a lower bound on the row's win rate; ceiling = (won +
  undecided) / deals, an upper bound (every deal not proven lost may be winnable; a deal whose worker
  failed counts here too). Each has a 95% Wilson score interval (Wilson 1927, z = 1.959964), the
  report's (\`src/batch/report.ts\`). The **band** runs from the floor's low end to the ceiling's high
  end: the win rate of the game, for deals drawn like these, lies inside it at 95% confidence.
- **Partial rows.** A row is *complete* when every deal of its list is counted at every rung it
  needs; until then it is *partial* and its counts are those of the first deals of the list (a
  prefix, in order), so a partial row is an unbiased sample of the row, only smaller.
- **CPU time** is the user + system time of the batch process and its worker threads, as Linux
  reports it to the \`results\` command (cutime + cstime), summed over the sittings that ran the row
  here, over the deals those sittings counted: the ladder's upper rungs, loading the deals and
  starting the process are included. Search time is the solver's own wall clock summed over every
  search of the row (every rung): on a machine shared with other work it runs well above the CPU
  time, and only the CPU time compares across machines. Peak memory is the largest transposition table one search held.
- **Difficulty grades** (PySolFC rows). A won deal's effort is the total number of positions the
  solver searched for it, every rung included. The grades split the row's won deals into fifths by
  effort: the cuts are the 20th, 40th, 60th and 80th percentiles (linear interpolation, as
  \`spidersolve report\` computes percentiles), and a deal's grade is 1 plus the number of cuts its
  effort exceeds (1: the easiest fifth for the solver … 5: the hardest). Grades are relative to the
  row and are recomputed as the row grows; they measure the solver's effort, which is not the same
  as a human player's difficulty. The lists are \`data/results/ROW-winnable.csv\`
  (\`pysol_number,grade,total_positions,moves\`).
- **Checking a row.** \`data/results/ROW.csv\` gives every deal counted: \`deal,status,budget,positions,total_positions,moves\`
  (\`budget\`: the search that decided it; \`positions\`: what that search counted; \`total_positions\`:
  every rung's). The winning line is not stored in the file: \`spidersolve solve DEAL --max-positions
  BUDGET\` finds the same line again (the solver is deterministic: same deal, budget and solver
  version, same result and position count).
- **Reproducing a row.** \`npm run results -- ROW\` runs it (resumably: stop it at any time and run the
  same command again; \`--limit N\` runs its first N deals, \`--workers N\` sets the worker threads), then
  writes its CSV and summary; \`npm run results -- table\` writes this page. On a cluster, see
  \`deploy/results/\`.
`;

function published(rows: readonly ResultsRow[], summaries: readonly (RowSummary | null)[]): string[] {
  const out = ['## Beside the published figures', '', '| game | this table | published | source |', '|---|---|---|---|'];
  rows.forEach((r, i) => {
    const s = summaries[i];
    const t = s?.top;
    const ours = t ? `${num(t.won)} won, ${num(t.lost)} lost, ${num(t.undecided)} undecided of ${num(t.deals)} (${s!.complete ? 'complete' : `first ${num(s!.counted)} of ${num(r.count)}`}): floor ${pct(t.floor)}, ceiling ${pct(t.ceiling)}` : 'not run yet';
    for (const p of r.published) out.push(`| ${r.title} | ${ours} | ${p.result} | ${p.source} |`);
  });
  return out;
}

function plspider(r: ResultsRow, dealsCsv: string | null): string[] {
  if (r.id !== 'spider4' || !dealsCsv) return [];
  const list = parseCsvRecords(dealsCsv);
  if (list.length === 0) return [];
  const numberOf = (d: string) => Number(d.slice(d.lastIndexOf(':') + 1));
  const max = Math.max(...list.map((d) => numberOf(d.deal!)));
  const notWon = list.filter((d) => d.status !== 'won');
  const theyLost = list.filter((d) => PLSPIDER_NOT_WON.includes(numberOf(d.deal!)));
  const out = ['', '**Against plspider, deal by deal.** plspider (tranzoa.net, 2005) won 31,998 of PySolFC numbers 1–32,000; its page names 14934 as "appears unwinnable" and does not name the other deal it did not win, so that deal cannot be compared here.'];
  const named = PLSPIDER_NOT_WON.filter((n) => n <= max).length;
  out.push(
    `Of the ${num(list.length)} deals compared so far (numbers 1–${num(max)}), ${notWon.length === 0 ? 'this table wins every one' : `this table does not win ${notWon.length}: ${notWon.map((d) => `${numberOf(d.deal!)} (${d.status})`).join(', ')}`}; ` +
      `plspider's page names ${named === 0 ? 'none of them' : `${named} of them`} as not won (the deal it does not name may be among them).`,
  );
  for (const d of theyLost) out.push(`Deal ${numberOf(d.deal!)}, which plspider did not win: ${d.status} here${d.status === 'won' ? ` (in ${num(Number(d.moves))} moves; \`spidersolve solve pysol:spider:${numberOf(d.deal!)} --max-positions ${d.budget}\` gives the line)` : ''}.`);
  // the whole set, with as many not won as plspider's two: one named, so the other decides
  const others = notWon.filter((d) => !PLSPIDER_NOT_WON.includes(numberOf(d.deal!)));
  if (max >= 32_000 && notWon.length === 2 && others.length === 1) {
    const n = numberOf(others[0]!.deal!);
    out.push(`Both tables leave 2 of the 32,000 deals not won. They agree deal for deal if the deal plspider's page does not name is ${n}; if it is another, plspider won ${n} and this table did not.`);
  }
  return out;
}

/**
 * The row page's line on the second check of its losses (confirm.ts), from the losses file's text:
 * how many of the `lost` deals it confirmed, left undecided (named) or contradicted (named), and the
 * command that gives those answers (with `--budget` when a check ran above CHECK_BUDGET); a note
 * that none was checked when the row has losses and no file.
 */
export function lossCheckLine(r: ResultsRow, lost: readonly string[], lossesText: string | null): string[] {
  if (lost.length === 0) return [];
  const byDeal = new Map((lossesText ? parseLossesCsv(lossesText) : []).map((c) => [c.deal, c]));
  const checks = lost.map((d) => byDeal.get(d)).filter((c) => c !== undefined);
  // the command that gives every answer: with the largest budget a check was run at, where it is above the default
  const top = Math.max(0, ...checks.map((c) => c.checkBudget));
  const command = `npm run results -- confirm ${r.id}${top > CHECK_BUDGET ? ` --budget ${top}` : ''}`;
  const how = `the complete search alone, from the deal, without the solver's reductions and without its earlier stages (\`${command}\`, src/solver/confirm.ts)`;
  if (checks.length === 0) return ['', `Second check of the losses, by ${how}: not run yet.`];
  const of = (st: string) => checks.filter((c) => c.check === st);
  const budgets = [...new Set(of('undecided').map((c) => c.checkBudget))].map(budgetWords).join(', ');
  const seconds = checks.reduce((a, c) => a + c.checkSeconds, 0);
  const more = checks.filter((c) => c.check === 'lost').reduce((a, c) => a + (c.checkPositions - c.solverPositions), 0);
  const parts = [`${num(of('lost').length)} of the ${num(lost.length)} losses confirmed`];
  if (of('undecided').length) parts.push(`${num(of('undecided').length)} undecided at ${budgets} positions (${of('undecided').map((c) => c.deal).join(', ')})`);
  parts.push(of('won').length ? `**${num(of('won').length)} contradicted** (won: ${of('won').map((c) => c.deal).join(', ')})` : 'none contradicted');
  if (checks.length < lost.length) parts.push(`${num(lost.length - checks.length)} not checked yet`);
  return ['', `Second check of the losses, by ${how}: ${parts.join('; ')}. The confirmed checks stored ${num(more)} positions more than the solves in all, in ${seconds.toFixed(1)} s; \`${lossesPath(r)}\` lists each.`];
}

function rowSection(r: ResultsRow, s: RowSummary | null, dealsCsv: string | null, lossesText: string | null = null): string[] {
  const out = [`### ${r.title}`, ''];
  out.push(`- Deals: ${deals(r)}; ${s ? `${num(s.counted)} counted, ${s.complete ? '**complete**' : '**partial**'}` : 'not run yet'}.`);
  // a run stopped in its upper rungs: some deals undecided so far only because a rung has not reached them
  if (s && s.unfinished > 0) out.push(`- Not yet at every rung: ${num(s.unfinished)} of the ${num(s.top?.undecided ?? 0)} undecided deals (the run was stopped before its upper rungs reached them); \`npm run results -- ${r.id} --limit ${s.counted}\` finishes them.`);
  out.push(`- Command: \`npm run results -- ${r.id}\` (it runs \`spidersolve ${batchArgs(r).join(' ')}\` with the deals on standard input, then exports \`${r.csv}\`).`);
  out.push(`- Budget ladder: ${ladder(r)} positions; study \`${r.study}\` in \`${r.db}\`.`);
  if (!s) return [...out, ''];
  out.push(`- Solver version: ${s.solverVersion}.`);
  const cpu = cpuOf(s);
  out.push(`- CPU time: ${cpu.perDeal === null ? 'not measured' : `${cpu.seconds.toFixed(1)} s for the ${num(cpu.deals)} deals run here, ${cpu.perDeal.toFixed(3)} s a deal`}; search time ${s.searchSeconds.toFixed(1)} s over every search of the row's ${num(s.counted)} deals; peak table memory of one search ${s.peakBytes === null ? '–' : `${(s.peakBytes / 2 ** 20).toFixed(0)} MiB`}.`);
  if (s.carried) {
    const n = s.carried.rerun?.length ?? 0;
    const again = n ? `; ${n === 1 ? 'the one' : `the ${num(n)}`} of them not yet at the top rung then ${n === 1 ? 'was' : 'were'} run again in it (${s.carried.rerun!.map((k) => dealName(r, k)).join(', ')})` : '';
    out.push(`- Database: begun from the committed files, not from the first deal: the first ${num(s.carried.deals)} deals were counted in an earlier database, and their lines in \`${r.csv}\` are as committed then${again}.`);
  }
  if (s.sittings.length) out.push(`- Sittings: ${s.sittings.map((x) => `\`${x.command}\` (${x.endedAt}, ${num(x.dealsAfter - x.dealsBefore)} deals, ${x.cpuSeconds} CPU s, exit ${x.exit})`).join('; ')}.`);
  if (s.rungs.length) {
    out.push('', '| budget | deals | won | lost | undecided | errors | floor | 95% CI | ceiling | 95% CI |', '|---:|---:|---:|---:|---:|---:|---:|---|---:|---|');
    for (const g of s.rungs) out.push(`| ${budgetWords(g.budget)} | ${num(g.deals)} | ${num(g.won)} | ${num(g.lost)} | ${num(g.undecided)} | ${num(g.errors)} | ${pct(g.floor)} | ${pct(g.ciLow)}–${pct(g.ciHigh)} | ${pct(g.ceiling)} | ${pct(g.ceilingLow)}–${pct(g.ceilingHigh)} |`);
  }
  const list = dealsCsv ? parseCsvRecords(dealsCsv) : [];
  const lost = list.filter((d) => d.status === 'lost').map((d) => d.deal);
  const open = list.filter((d) => d.status === 'undecided' || d.status === 'error').map((d) => d.deal);
  out.push('', `Lost (proven): ${lost.length ? lost.join(', ') : 'none'}. Undecided: ${open.length ? open.join(', ') : 'none'}.`);
  out.push(...lossCheckLine(r, lost, lossesText));
  if (s.grades) {
    const g = s.grades;
    const cuts = g.cuts.map((c) => num(Math.round(c)));
    out.push('', `Difficulty grades of the ${num(g.counts.reduce((a, b) => a + b, 0))} won deals, by total positions searched: grade 1 at most ${cuts[0]}, 2 at most ${cuts[1]}, 3 at most ${cuts[2]}, 4 at most ${cuts[3]}, 5 more; deals in grades 1–5: ${g.counts.map(num).join(', ')}. List: \`${r.csv.replace(/\.csv$/, '-winnable.csv')}\`.`);
  }
  out.push(...plspider(r, dealsCsv), '');
  return out;
}

/**
 * The text of docs/results.md for `rows`, given each row's summary (null: not run), a reader of its
 * CSV text (null: none) and one of its loss checks' CSV text (confirm.ts; null: none).
 */
export function renderTable(rows: readonly ResultsRow[], summaries: readonly (RowSummary | null)[], csv: (r: ResultsRow) => string | null, losses: (r: ResultsRow) => string | null = () => null): string {
  const versions = [...new Set(summaries.filter((s): s is RowSummary => s !== null).map((s) => s.solverVersion))];
  const out = [
    '# Win rates of Spider and Spiderette',
    '',
    `Written by \`npm run results -- table\` from \`data/results/\`${versions.length ? ` (solver ${versions.join(', ')})` : ''}; do not edit by hand. Each row's command reproduces it; the HTML report with the charts of the rows is \`docs/results.html\`, drawn from the same committed files.`,
    '',
    '| game | deals | won | lost | undecided | floor (95% CI) | ceiling (95% CI) | band | ladder | CPU a deal | solver | row |',
    '|---|---:|---:|---:|---:|---|---|---:|---|---:|---|---|',
  ];
  rows.forEach((r, i) => {
    const s = summaries[i] ?? null;
    const t = s?.top ?? null;
    if (!s || !t) {
      out.push(`| ${r.title} | 0 of ${num(r.count)} | | | | | | | ${ladder(r)} | | | not run |`);
      return;
    }
    const band = bandPoints(t);
    const cpu = cpuOf(s).perDeal;
    out.push(
      `| ${r.title} | ${num(t.deals)} of ${num(r.count)} | ${num(t.won)} | ${num(t.lost)} | ${num(t.undecided + t.errors)} | ${pct(t.floor)} (${pct(t.ciLow)}–${pct(t.ciHigh)}) | ${pct(t.ceiling)} (${pct(t.ceilingLow)}–${pct(t.ceilingHigh)}) | ${band === null ? '–' : `${band.toFixed(2)} pt`} | ${ladder(r)} | ${cpu === null ? '–' : `${cpu.toFixed(2)} s`} | ${s.solverVersion} | ${s.complete ? 'complete' : s.unfinished > 0 ? `partial (${num(s.unfinished)} not yet at every rung)` : 'partial'} |`,
    );
  });
  out.push('', 'Undecided counts deals whose worker failed too (none unless said below). A partial row counts the first deals of its list.', '');
  out.push(...published(rows, summaries), '', '## Rows', '');
  rows.forEach((r, i) => out.push(...rowSection(r, summaries[i] ?? null, csv(r), losses(r))));
  out.push(METHOD);
  return out.join('\n');
}
