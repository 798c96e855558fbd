/**
 * Pure aggregation of batch results into report rows: grouping by game × suits × budget × solver
 * version, counts per status, the win-rate floor with its Wilson score interval, the ceiling, and
 * percentiles of the search effort of won deals; and whether a study is short of its plan. No I/O
 * here; the store feeds rows in. Which rung's result a deal counts as is ladder.ts's rule; the forms
 * the rows are printed in (text, Markdown, CSV, JSON) are src/report/text.ts.
 *
 * Reading a row (docs/rules.md R19): `floor` counts only won deals, so it is a lower bound on the true
 * win rate of the sample; `ceiling` also counts every deal whose outcome is unknown (undecided, and
 * errors, which are unknown too), so it is an upper bound. With no errors the ceiling is
 * (won + undecided) / deals.
 */
import type { ResultStatus } from './ladder.js';

/** The fields of one stored result that the report needs. */
export interface ReportInput {
  /** The study (or pooled studies, `a + b`) the row belongs to; '' when none is given. */
  readonly study?: string;
  readonly game: string;
  readonly suits: number;
  /** Position budget (max_positions) the deal was searched with. */
  readonly budget: number;
  readonly solverVersion: string;
  readonly status: ResultStatus;
  /** Distinct positions stored by the search; null for errors. */
  readonly positions: number | null;
  /** In-worker search time, milliseconds; null for errors. */
  readonly elapsedMs: number | null;
}

/**
 * One report row (one group). Rates are fractions in [0, 1], or null when the group has no deals;
 * percentiles are null when the group has no won deal. Positions are counts, times milliseconds.
 */
export interface ReportRow {
  /** The study of the row; a pooled row (report --pool) names every study it pools, `a + b`. */
  study: string;
  game: string;
  suits: number;
  budget: number;
  /** All stored deals of the group, errors included. */
  deals: number;
  won: number;
  lost: number;
  undecided: number;
  errors: number;
  /** won / deals. */
  floor: number | null;
  /** Lower end of the 95% Wilson score interval of won / deals. */
  ciLow: number | null;
  /** Upper end of the 95% Wilson score interval of won / deals. */
  ciHigh: number | null;
  /** (won + undecided + errors) / deals: every deal not proven lost may be winnable. */
  ceiling: number | null;
  /** Lower end of the 95% Wilson score interval of the ceiling's count. */
  ceilingLow: number | null;
  /** Upper end of the 95% Wilson score interval of the ceiling's count. */
  ceilingHigh: number | null;
  /** Median positions of won deals (linear interpolation, see `percentile`). */
  medianPositions: number | null;
  /** 95th percentile positions of won deals. */
  p95Positions: number | null;
  /** Median search time of won deals, milliseconds. */
  medianMs: number | null;
  /** 95th percentile search time of won deals, milliseconds. */
  p95Ms: number | null;
  solverVersion: string;
}

/**
 * A budget in words, as study names and tables print it: 1000000 → `1M`, 200000 → `200k`, 1500000 →
 * `1.5M`, 77 → `77`; a budget that takes more than one decimal is written out (1234567).
 */
export function budgetWords(n: number): string {
  const units: [number, string][] = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [u, w] of units) {
    if (n >= u && Number.isInteger(Math.round((n / u) * 1e6) / 1e5)) {
      return `${Number((n / u).toFixed(1))}${w}`;
    }
  }
  return String(n);
}

/** Two-sided 95% normal quantile, z = Φ⁻¹(0.975). */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval for a binomial proportion (E. B. Wilson, "Probable inference, the law of
 * succession, and statistical inference", JASA 22, 1927; method 3 of R. G. Newcombe, Statistics in
 * Medicine 17, 1998, without continuity correction):
 *
 *   centre = (p + z²/2n) / (1 + z²/n),  half = z / (1 + z²/n) · √(p(1−p)/n + z²/4n²),  p = k/n.
 *
 * Returns `[low, high]`, clamped to [0, 1] against rounding, or null when n = 0.
 * Throws RangeError unless 0 ≤ k ≤ n are integers. Example: k = 8, n = 10 → [0.4902, 0.9433].
 */
export function wilsonInterval(k: number, n: number, z: number = Z95): [number, number] | null {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n) {
    throw new RangeError(`wilsonInterval needs integers 0 <= k <= n, got k=${k}, n=${n}`);
  }
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At k = 0 (or k = n) the exact bound is 0 (or 1); floating point may miss it by an ulp.
  const low = k === 0 ? 0 : Math.max(0, centre - half);
  const high = k === n ? 1 : Math.min(1, centre + half);
  return [low, high];
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of numbers already sorted ascending, by linear interpolation between
 * the closest ranks: h = (n − 1)·q, value = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]) (Hyndman & Fan
 * 1996, definition 7; the default of R and NumPy). The median of an even count is the mean of the
 * two middle values. Returns null for an empty list; throws RangeError for q outside [0, 1].
 */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`percentile needs 0 <= q <= 1, got ${q}`);
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

interface Group {
  study: string;
  order: number;
  game: string;
  suits: number;
  budget: number;
  solverVersion: string;
  won: number;
  lost: number;
  undecided: number;
  errors: number;
  wonPositions: number[];
  wonMs: number[];
}

/** Positions of the won deals of one report group (for curves and histograms). */
export interface WonPositions {
  study: string;
  game: string;
  suits: number;
  budget: number;
  solverVersion: string;
  /** Ascending. */
  positions: number[];
}

/**
 * Streaming aggregator: `add` rows one at a time (so a large table need not be held in memory; only
 * the positions and times of won deals are kept), then `rows()`. Order of the output: game, suits,
 * budget ascending, then solver version (string order).
 */
export class ReportAccumulator {
  readonly #groups = new Map<string, Group>();
  readonly #studyOrder = new Map<string, number>();

  /** Counts one stored result into its group. */
  add(r: ReportInput): void {
    const study = r.study ?? '';
    const key = `${study}\u0000${r.game}\u0000${r.suits}\u0000${r.budget}\u0000${r.solverVersion}`;
    let g = this.#groups.get(key);
    if (!g) {
      if (!this.#studyOrder.has(study)) this.#studyOrder.set(study, this.#studyOrder.size);
      g = {
        study, order: this.#studyOrder.get(study)!, game: r.game, suits: r.suits, budget: r.budget, solverVersion: r.solverVersion,
        won: 0, lost: 0, undecided: 0, errors: 0, wonPositions: [], wonMs: [],
      };
      this.#groups.set(key, g);
    }
    switch (r.status) {
      case 'won':
        g.won++;
        if (r.positions !== null) g.wonPositions.push(r.positions);
        if (r.elapsedMs !== null) g.wonMs.push(r.elapsedMs);
        break;
      case 'lost': g.lost++; break;
      case 'undecided': g.undecided++; break;
      case 'error': g.errors++; break;
    }
  }

  /** The positions of the won deals of every group, groups in the order of `rows()`. */
  wonPositions(): WonPositions[] {
    return this.rows().map((r) => {
      const g = this.#groups.get(`${r.study}\u0000${r.game}\u0000${r.suits}\u0000${r.budget}\u0000${r.solverVersion}`)!;
      return { study: r.study, game: r.game, suits: r.suits, budget: r.budget, solverVersion: r.solverVersion, positions: [...g.wonPositions].sort((a, b) => a - b) };
    });
  }

  /** The report rows of everything added so far (see `ReportRow`). */
  rows(): ReportRow[] {
    const out: ReportRow[] = [];
    for (const g of this.#groups.values()) {
      const deals = g.won + g.lost + g.undecided + g.errors;
      const ci = wilsonInterval(g.won, deals);
      const cc = wilsonInterval(g.won + g.undecided + g.errors, deals);
      const pos = [...g.wonPositions].sort((a, b) => a - b);
      const ms = [...g.wonMs].sort((a, b) => a - b);
      out.push({
        study: g.study, game: g.game, suits: g.suits, budget: g.budget,
        deals, won: g.won, lost: g.lost, undecided: g.undecided, errors: g.errors,
        floor: deals ? g.won / deals : null,
        ciLow: ci ? ci[0] : null,
        ciHigh: ci ? ci[1] : null,
        ceiling: deals ? (g.won + g.undecided + g.errors) / deals : null,
        ceilingLow: cc ? cc[0] : null,
        ceilingHigh: cc ? cc[1] : null,
        medianPositions: percentile(pos, 0.5),
        p95Positions: percentile(pos, 0.95),
        medianMs: percentile(ms, 0.5),
        p95Ms: percentile(ms, 0.95),
        solverVersion: g.solverVersion,
      });
    }
    const order = (r: ReportRow) => this.#studyOrder.get(r.study) ?? 0;
    return out.sort(
      (a, b) =>
        order(a) - order(b) || a.game.localeCompare(b.game) || a.suits - b.suits || a.budget - b.budget ||
        (a.solverVersion < b.solverVersion ? -1 : a.solverVersion > b.solverVersion ? 1 : 0),
    );
  }
}

/** Report rows of a list of results (see `ReportAccumulator`). */
export function summarize(results: Iterable<ReportInput>): ReportRow[] {
  const acc = new ReportAccumulator();
  for (const r of results) acc.add(r);
  return acc.rows();
}

/**
 * `v` rounded to `decimals` places as `toFixed` rounds (the same digits the table shows for ms), as the
 * nearest double, so it prints without noise: roundTo(120974.29999999992, 1) = 120974.3.
 */
export function roundTo(v: number, decimals: number): number {
  return Number.isFinite(v) ? Number(v.toFixed(decimals)) : v;
}

/** A study's plan against what it counts (the fields of store.ts StudyInfo that say whether it is whole). */
export interface StudyCompleteness {
  readonly name: string;
  /** Deals in the plan; null when open-ended. */
  readonly planned: number | null;
  /** Deals the study counts. */
  readonly counted: number;
  /** Deals counted when --until-width stopped it (a deliberate early stop), or null. */
  readonly stoppedAt: number | null;
  /** Its --until-width rule, or null (absent: none). An open-ended plan (planned null) has one. */
  readonly untilWidth?: number | null;
  /**
   * Of the deals counted, those a budget ladder has not yet taken to every rung: undecided at a
   * rung below it, with no result at or above it (an interrupted ladder; they count as undecided at
   * the rungs they have not reached, see ResultStore's walk). 0 or absent for a single budget.
   */
  readonly unfinished?: number;
  /**
   * Was the study split into shards (`batch --shard`): some run of it ran a shard, fewer deals than
   * the plan (store.ts StudyInfo.sharded)? false: never sharded, so a study short of its plan is an
   * unfinished run; absent: not known (the note names both causes).
   */
  readonly sharded?: boolean;
}

/**
 * Is the study short of its plan: fewer deals counted than planned, with a closed plan and no
 * --until-width stop, or deals its ladder has not yet taken to every rung? (A shard's database, a
 * merge that lacks a shard, or a run that was stopped.) An open-ended study (planned null) is short
 * of it until its --until-width rule stops it (or its seeds run out, which gives it a plan): it was
 * stopped, or is running now.
 */
export function isPartial(s: StudyCompleteness): boolean {
  if (s.planned === null) return s.stoppedAt === null && s.untilWidth != null;
  return s.stoppedAt === null && (s.counted < s.planned || (s.unfinished ?? 0) > 0);
}

