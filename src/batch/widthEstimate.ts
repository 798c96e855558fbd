/**
 * How many more deals an --until-width study likely needs, at the rates seen so far: the band of a
 * group (untilWidth.ts bandWidth: the floor's 95% Wilson lower bound to the ceiling's upper bound)
 * worked out for a larger number of deals with the same proportions won, lost and open (undecided
 * or error), until it is narrower than the width. As the deals grow, the band tends to the open share
 * (the ceiling's proportion less the floor's): a study whose open share is at least the width never
 * gets there at these rates.
 */
import { Z95 } from './report.js';
import { dealsText, type PrefixCounts } from './untilWidth.js';

/** Deals an --until-width study counts before its first estimate of the deals it still needs. */
export const ESTIMATE_FIRST = 200;

/** Beyond this many deals in all, an estimate is given as "never" (the band narrows too slowly to matter). */
export const MAX_ESTIMATED_DEALS = 1e9;

/**
 * Wilson's 95% bound (z = Z95) for a proportion `p` (0..1, not necessarily k/n for an integer k) of
 * `n` deals: the lower one (`side` −1) or the upper one (+1). Equals report.ts wilsonInterval's
 * bounds where p·n is a whole number: exactly 0 at p = 0 (lower) and 1 at p = 1 (upper).
 */
export function wilsonBound(p: number, n: number, side: -1 | 1, z: number = Z95): number {
  if (side < 0 && p <= 0) return 0;
  if (side > 0 && p >= 1) return 1;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return side < 0 ? Math.max(0, centre - half) : Math.min(1, centre + half);
}

/**
 * The --until-width band of `n` deals of which the proportions `won` and `open` (fractions, with
 * won + open ≤ 1) were won and not proven lost: from the floor's lower bound to the ceiling's upper.
 */
export function bandAtRates(won: number, open: number, n: number): number {
  return wilsonBound(Math.min(1, won + open), n, 1) - wilsonBound(won, n, -1);
}

/**
 * The fewest deals, in all, whose band at the proportions `won` and `open` is narrower than `width`
 * (bandAtRates < width), or null when there is none up to MAX_ESTIMATED_DEALS: always so when the
 * open share is at least the width, the band's limit. The band narrows as the deals grow, so the
 * answer is found by doubling, then halving the step.
 */
export function dealsForWidth(won: number, open: number, width: number): number | null {
  if (open >= width) return null;
  if (bandAtRates(won, open, 1) < width) return 1;
  let hi = 2;
  while (bandAtRates(won, open, hi) >= width) {
    hi *= 2;
    if (hi > MAX_ESTIMATED_DEALS) return null;
  }
  let lo = hi / 2; // band(lo) ≥ width > band(hi)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (bandAtRates(won, open, mid) < width) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** An estimate of the deals a study still needs (moreDealsForWidth). */
export interface WidthEstimate {
  /** More deals of the plan, in all groups (0: none), or null when some group never gets there at its rates. */
  readonly more: number | null;
  /** The group that needs the most (or one that never gets there): `spider 2 suits`. */
  readonly group: string;
  /** That group's counts so far. */
  readonly counts: PrefixCounts;
}

/**
 * How many more deals of the plan the rule likely needs at the current rates, given each group's
 * counts over the plan's prefix (`groups`: group → counts; `counted`, the deals of the prefix, all
 * groups). A group needs dealsForWidth of its own in all; the plan mixes the groups in the shares
 * seen so far, so its missing deals are scaled by counted / its own count. The answer is the group
 * that needs the most, or the first that never gets there (more: null). Null when no deal is counted.
 */
export function moreDealsForWidth(groups: ReadonlyMap<string, PrefixCounts>, counted: number, width: number): WidthEstimate | null {
  let worst: WidthEstimate | null = null;
  for (const [group, c] of groups) {
    if (c.n === 0) continue;
    const need = dealsForWidth(c.won / c.n, c.open / c.n, width);
    if (need === null) return { more: null, group, counts: c };
    const more = Math.ceil((Math.max(0, need - c.n) * counted) / c.n);
    if (worst === null || more > worst.more!) worst = { more, group, counts: c };
  }
  return worst;
}

/** A share as a whole percentage: `31%`. */
function percent(k: number, n: number): string {
  return `${Math.round((100 * k) / n)}%`;
}

/** A count with thousands separators: `12,400`. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The rounded form of an estimate of more deals: two significant figures (`4,100`, `12,000`, `37`),
 * for it is only as good as the rates it extrapolates.
 */
export function roughly(n: number): string {
  if (n < 100) return String(n);
  const step = 10 ** (Math.floor(Math.log10(n)) - 1);
  return count(Math.round(n / step) * step);
}

/**
 * The note of an --until-width study after `counted` deals: how many more deals its rule likely
 * needs at the current rates (e), and of which group, with that group's shares won, lost and open;
 * or, when some group's open share is at least the width, that the band cannot get below the width
 * at these rates, and what to do.
 */
export function estimateNote(width: number, counted: number, e: WidthEstimate): string {
  const c = e.counts;
  const rates = `won ${percent(c.won, c.n)}, lost ${percent(c.n - c.won - c.open, c.n)}, undecided or error ${percent(c.open, c.n)} of ${c.n.toLocaleString('en-US')}`;
  if (e.more === null) {
    return `note: --until-width ${width}: after ${dealsText(counted)}, at the current rates (${e.group}: ${rates}) the band cannot get below ${width}: ` +
      `it narrows towards the share undecided or error, ${percent(c.open, c.n)}; a larger --max-positions settles more deals; Ctrl-C stops it (resumable)`;
  }
  return `note: --until-width ${width}: after ${dealsText(counted)}, at the current rates (${e.group}: ${rates}) the rule likely needs about ${roughly(e.more)} more deal${e.more === 1 ? '' : 's'}`;
}

/**
 * Whether an estimate is given after `counted` deals, the first after `first`: at first, 2.5 × first
 * and 5 × first, then every 5 × first (200, 500, 1,000, 2,000, 3,000, … by default).
 */
export function isEstimatePoint(counted: number, first: number = ESTIMATE_FIRST): boolean {
  if (counted === first || counted === Math.round(2.5 * first)) return true;
  return counted >= 5 * first && counted % (5 * first) === 0;
}
