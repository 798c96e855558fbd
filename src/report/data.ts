/**
 * The numbers behind the report's charts, from plain data: the report rows (src/batch/report.ts) and
 * the effort of each won deal (positions, search time, winning-line length). No I/O and no drawing:
 * charts.ts turns these into Vega-Lite specifications.
 *
 * Groups are the report's: game × suits × budget × solver version. A group's label names the game
 * and suits, and the budget or solver version only when the data holds more than one of them.
 */
import { percentile, wilsonInterval, type ReportRow } from '../batch/report.js';

/** The effort of one won deal, as stored (results: positions, elapsed_ms, move_count). */
export interface WonEffort {
  /** The study whose report row the deal counts in, when the report is per study. */
  readonly study?: string;
  readonly game: string;
  readonly suits: number;
  /** Position budget the deal was searched with. */
  readonly budget: number;
  readonly solverVersion: string;
  /** Distinct positions the search stored before it won. */
  readonly positions: number | null;
  /** Search time, milliseconds. */
  readonly elapsedMs: number | null;
  /** Moves of the winning line, deals included (R16). */
  readonly moveCount: number | null;
}

/** One group's win rate: floor and ceiling (fractions) with their 95% Wilson intervals. */
export interface WinRatePoint {
  readonly group: string;
  /** `floor` (won / deals) or `ceiling` ((won + undecided + errors) / deals), docs/rules.md R19. */
  readonly measure: 'floor' | 'ceiling';
  readonly rate: number;
  readonly low: number;
  readonly high: number;
  readonly deals: number;
  /** Deals counted in the rate: won for the floor, won + undecided + errors for the ceiling. */
  readonly count: number;
}

/** One point of a proof-rate curve: the share of the group's deals won within `positions` positions. */
export interface ProofPoint {
  readonly group: string;
  /** Budget B, positions. */
  readonly positions: number;
  /** Deals of the group won with at most B positions, over all its deals (errors included), a fraction. */
  readonly share: number;
  /** The won deals counted (numerator). */
  readonly won: number;
  readonly deals: number;
}

/** A budget to mark on the proof-rate chart: a report row's budget (a ladder's rung) and its floor. */
export interface BudgetMark {
  /** The series (curve) the row belongs to. */
  readonly group: string;
  readonly budget: number;
  /** The group's floor at that budget (won / deals), a fraction. */
  readonly floor: number;
}

/** The spread of one measure over a group's won deals (Hyndman & Fan type 7 quantiles, as the report). */
export interface Spread {
  readonly group: string;
  readonly n: number;
  readonly min: number;
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
  readonly p95: number;
  readonly max: number;
}

/** Everything the charts draw. */
export interface ChartData {
  /** Row labels in report order (the win-rate chart's rows). */
  readonly groups: readonly string[];
  /** Series labels in report order (a curve and a spread row each; with rungs, one a ladder). */
  readonly series: readonly string[];
  readonly winRate: readonly WinRatePoint[];
  readonly proof: readonly ProofPoint[];
  readonly budgets: readonly BudgetMark[];
  /** Search time of won deals, milliseconds. */
  readonly timeMs: readonly Spread[];
  /** Positions per won deal. */
  readonly positions: readonly Spread[];
  /** Winning-line length, moves. */
  readonly lineLength: readonly Spread[];
}

/** Most points a proof-rate curve keeps; past this the curve is sampled at log-spaced budgets. */
export const MAX_CURVE_POINTS = 400;

/** `1M`, `200k`, `1.5k`, `1,234`: a budget in few characters. */
export function shortCount(n: number): string {
  if (n >= 1e6 && n % 1e5 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 1e2 === 0) return `${n / 1e3}k`;
  return n.toLocaleString('en-US');
}

/** A report row as the charts read it; `study` is set when the report is per study. */
export type ChartRow = Pick<ReportRow, 'game' | 'suits' | 'budget' | 'solverVersion' | 'deals' | 'won' | 'lost' | 'undecided' | 'errors'> & { readonly study?: string };

function rowKey(g: { study?: string; game: string; suits: number; budget: number; solverVersion: string }): string {
  return `${g.study ?? ''}\u0000${g.game}\u0000${g.suits}\u0000${g.budget}\u0000${g.solverVersion}`;
}

/** Most characters of a study's name in a chart's label (what a label has room for, charts.ts). */
export const MAX_CHART_STUDY = 34;

/**
 * The names of studies as the charts write them, at most `max` characters each: a longer name keeps
 * the part where the names differ (two names that differed only in their seed
 * range, cut in their middle, read the same), with the start of what they share before it and as
 * much as fits of what they share after it, cut with `…`. Where the part that differs is longer than
 * fits, it alone is cut in its middle. Labels that still read the same end with ` #1`, ` #2`, … (in
 * the order of `names`). Maps each distinct name of `names` to its label.
 */
export function chartStudyNames(names: readonly string[], max = MAX_CHART_STUDY): Map<string, string> {
  const list = [...new Set(names)];
  // what every name begins and ends with (of two names or more)
  let pre = 0;
  let suf = 0;
  if (list.length > 1) {
    const first = list[0]!;
    const least = Math.min(...list.map((n) => n.length));
    while (pre < least && list.every((n) => n[pre] === first[pre])) pre++;
    while (suf < least - pre && list.every((n) => n[n.length - 1 - suf] === first[first.length - 1 - suf])) suf++;
  }
  const middleCut = (t: string, room: number) => (t.length <= room ? t : t.slice(0, Math.ceil((room - 1) / 2)) + '…' + t.slice(t.length - Math.floor((room - 1) / 2)));
  const short = (n: string): string => {
    if (n.length <= max) return n;
    const head = n.slice(0, pre);
    const mid = n.slice(pre, n.length - suf);
    const tail = n.slice(n.length - suf);
    // the part that differs does not fit: it alone, cut in its middle, after a `…` for what they share
    if (mid.length > max - 2) return head.length > 0 ? '…' + middleCut(mid, max - 1) : middleCut(mid, max);
    // the room left beside the part that differs, less one for the `…` that cuts what follows it
    const room = max - mid.length - (tail.length > 0 ? 1 : 0);
    const lead = middleCut(head, Math.min(head.length, room));
    const rest = room - lead.length;
    // (the room kept for that `…` holds a tail of one more character whole: `-alpha`, not `-alph…`,
    // where the names differ in `alph` and `bet` and both end in `a`)
    return lead + mid + (tail.length > rest + 1 ? tail.slice(0, rest) + '…' : tail);
  };
  const out = new Map(list.map((n) => [n, short(n)]));
  // labels that still read the same (names that differ in several places) end
  // with their number among them, ` #2`, so that every study keeps a label of its own
  const byLabel = new Map<string, string[]>();
  for (const [n, l] of out) byLabel.set(l, [...(byLabel.get(l) ?? []), n]);
  for (const [l, names] of byLabel) {
    if (names.length < 2) continue;
    names.forEach((n, i) => {
      const tag = ` #${i + 1}`;
      out.set(n, (l.length + tag.length <= max ? l : l.slice(0, max - tag.length - 1) + '…') + tag);
    });
  }
  return out;
}

/**
 * Labels of report rows: `spider 2 suits`, with the study (`mine: spider 2 suits`; a long name as
 * chartStudyNames shortens it) when the rows hold more than one, the budget (`@ 1M`) when they hold
 * more than one, and the solver version (`v2.2.0`) likewise. `series` is the label of the curve a row belongs to: with `rungs` (a budget
 * ladder's rows are rungs of one curve) it leaves the budget out, else it is the row's label.
 */
export function groupLabels(rows: readonly ChartRow[], rungs = false): { row: string[]; series: string[] } {
  const studies = new Set(rows.map((r) => r.study ?? ''));
  const names = chartStudyNames([...studies]);
  const budgets = new Set(rows.map((r) => r.budget));
  const versions = new Set(rows.map((r) => r.solverVersion));
  const series = rows.map((r) => {
    let s = `${r.game} ${r.suits} suit${r.suits === 1 ? '' : 's'}`;
    if (studies.size > 1) s = `${names.get(r.study ?? '')}: ${s}`;
    if (!rungs && budgets.size > 1) s += ` @ ${shortCount(r.budget)}`;
    if (versions.size > 1) s += ` v${r.solverVersion}`;
    return s;
  });
  const row = rows.map((r, i) => (rungs && budgets.size > 1 ? `${series[i]} @ ${shortCount(r.budget)}` : series[i]!));
  return { row, series };
}

/**
 * The proof-rate curve of one group: for each distinct position count p of its won deals (ascending),
 * the point (p, #won with positions ≤ p / deals), ending at (budget, won with known positions / deals)
 * — the floor, when every won deal has its count. With more than MAX_CURVE_POINTS distinct counts it
 * is sampled instead at MAX_CURVE_POINTS budgets spaced evenly on a log scale from the smallest count
 * to the budget (each point still exact: the share won within that many positions).
 */
export function proofCurve(group: string, sortedPositions: readonly number[], deals: number, budget: number): ProofPoint[] {
  const out: ProofPoint[] = [];
  const n = sortedPositions.length;
  if (n === 0 || deals === 0) return out;
  const point = (b: number, won: number) => out.push({ group, positions: b, share: won / deals, won, deals });
  const distinct: number[] = [];
  for (let i = 0; i < n; i++) if (i === n - 1 || sortedPositions[i + 1] !== sortedPositions[i]) distinct.push(i);
  if (distinct.length <= MAX_CURVE_POINTS) {
    for (const i of distinct) point(sortedPositions[i]!, i + 1);
  } else {
    const lo = Math.max(1, sortedPositions[0]!);
    const hi = Math.max(lo + 1, budget);
    let j = 0;
    for (let s = 0; s < MAX_CURVE_POINTS; s++) {
      const b = Math.round(Math.exp(Math.log(lo) + ((Math.log(hi) - Math.log(lo)) * s) / (MAX_CURVE_POINTS - 1)));
      if (out.length && b <= out[out.length - 1]!.positions) continue;
      while (j < n && sortedPositions[j]! <= b) j++;
      point(b, j);
    }
  }
  if (out[out.length - 1]!.positions < budget) point(budget, n);
  return out;
}

function spread(group: string, sorted: readonly number[]): Spread | null {
  if (sorted.length === 0) return null;
  return {
    group,
    n: sorted.length,
    min: sorted[0]!,
    q1: percentile(sorted, 0.25)!,
    median: percentile(sorted, 0.5)!,
    q3: percentile(sorted, 0.75)!,
    p95: percentile(sorted, 0.95)!,
    max: sorted[sorted.length - 1]!,
  };
}

/**
 * The chart data of report rows and the won deals' effort (`won` is read once, streamed; each won
 * deal counts in the row of its study, game, suits, budget and solver version; others are ignored).
 *
 * Without `rungs`, every row is its own curve. With `rungs`, the rows of one study, game, suits and
 * solver version are the rungs of a budget ladder with cumulative counts (a deal won at a lower rung
 * counts as won at every higher one, with the positions it was won in): they make one curve, drawn
 * from the won deals of the highest rung, with each rung's floor marked at its budget; the spreads
 * are those of the highest rung too.
 *
 * Win rates come from the rows' counts, one entry a row; the ceiling's interval is the Wilson interval
 * of (won + undecided + errors) / deals, as the floor's is of won / deals. Spreads use the report's
 * percentile (type 7), so the median time and positions equal the report's `medianMs` and
 * `medianPositions`.
 */
export function chartData(rows: readonly ChartRow[], won: Iterable<WonEffort>, o: { rungs?: boolean } = {}): ChartData {
  const labels = groupLabels(rows, o.rungs);
  const byKey = new Map<string, { pos: number[]; ms: number[]; moves: number[] }>();
  for (const r of rows) byKey.set(rowKey(r), { pos: [], ms: [], moves: [] });
  for (const w of won) {
    const g = byKey.get(rowKey(w));
    if (!g) continue;
    if (w.positions !== null) g.pos.push(w.positions);
    if (w.elapsedMs !== null) g.ms.push(w.elapsedMs);
    if (w.moveCount !== null) g.moves.push(w.moveCount);
  }
  const winRate: WinRatePoint[] = [];
  const budgets: BudgetMark[] = [];
  // the rows of each series, in report order
  const series = new Map<string, ChartRow[]>();
  rows.forEach((r, i) => {
    const label = labels.row[i]!;
    if (r.deals > 0) {
      const open = r.won + r.undecided + r.errors;
      const fc = wilsonInterval(r.won, r.deals)!;
      const cc = wilsonInterval(open, r.deals)!;
      winRate.push({ group: label, measure: 'floor', rate: r.won / r.deals, low: fc[0], high: fc[1], deals: r.deals, count: r.won });
      winRate.push({ group: label, measure: 'ceiling', rate: open / r.deals, low: cc[0], high: cc[1], deals: r.deals, count: open });
      budgets.push({ group: labels.series[i]!, budget: r.budget, floor: r.won / r.deals });
    }
    const list = series.get(labels.series[i]!) ?? [];
    list.push(r);
    series.set(labels.series[i]!, list);
  });
  const proof: ProofPoint[] = [];
  const timeMs: Spread[] = [];
  const positions: Spread[] = [];
  const lineLength: Spread[] = [];
  const sort = (xs: number[]) => xs.sort((a, b) => a - b);
  for (const [label, list] of series) {
    const top = list.reduce((a, b) => (b.budget > a.budget ? b : a));
    const g = byKey.get(rowKey(top))!;
    proof.push(...proofCurve(label, sort(g.pos), top.deals, top.budget));
    const t = spread(label, sort(g.ms));
    if (t) timeMs.push(t);
    const p = spread(label, g.pos);
    if (p) positions.push(p);
    const m = spread(label, sort(g.moves));
    if (m) lineLength.push(m);
  }
  return { groups: labels.row, series: [...series.keys()], winRate, proof, budgets, timeMs, positions, lineLength };
}
