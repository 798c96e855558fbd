/**
 * The --until-width stopping rule of a batch: the band of each game × suit count over the plan's
 * prefix counted so far, from the floor's 95% lower bound (won / n) to the ceiling's 95% upper bound
 * ((won + undecided + errors) / n), both Wilson intervals (report.ts wilsonInterval). The batch stops
 * dispatching once every band is narrower than the width asked. Meanwhile it says now and then how
 * many more deals the rule likely needs at the rates seen so far (widthEstimate.ts).
 */
import type { ResultStatus } from './ladder.js';
import { wilsonInterval } from './report.js';
import { ESTIMATE_FIRST, estimateNote, isEstimatePoint, moreDealsForWidth } from './widthEstimate.js';

/** Deals an --until-width study counts before it says that its band is far from narrow enough. */
export const WIDTH_NOTE_AFTER = 1000;

/** Per game × suits counts of the plan's prefix, for the stopping rule. */
export interface PrefixCounts {
  n: number;
  won: number;
  /** Undecided and errors: not proven lost. */
  open: number;
}

/** The band of --until-width: from the floor's 95% lower bound to the ceiling's 95% upper bound. */
export function bandWidth(c: { n: number; won: number; open: number }): number {
  const f = wilsonInterval(c.won, c.n);
  const g = wilsonInterval(c.won + c.open, c.n);
  return f && g ? g[1] - f[0] : 1;
}

/**
 * A band as the rule's messages give it: 4 decimals, or as many more (up to 12) as it takes for the
 * printed value to compare with `against` (the width, or twice it) as the band does, so that a message
 * never reads false (a band of 0.049990 is printed `0.04999`, not `0.0500 < 0.05`).
 */
export function bandText(w: number, against: number): string {
  const side = Math.sign(w - against);
  for (let d = 4; d < 12; d++) {
    const t = w.toFixed(d);
    if (Math.sign(Number(t) - against) === side) return t;
  }
  return w.toFixed(12);
}

/** `1 deal`, `296 deals`. */
export function dealsText(n: number): string {
  return `${n.toLocaleString('en-US')} deal${n === 1 ? '' : 's'}`;
}

/** The bands of the stopping rule as its messages give them: `0.5888 (spider 1 suit), …` (bandText). */
export function widthsText(widths: readonly (readonly [string, number])[], against: number): string {
  return widths.map(([g, w]) => `${bandText(w, against)} (${g})`).join(', ');
}

/** `after N deals the band from the floor's 95% lower bound to the ceiling's 95% upper bound is …`, as the rule's messages say it. */
export function bandAfter(n: number, widths: readonly (readonly [string, number])[], against: number): string {
  return `after ${dealsText(n)} the band from the floor's 95% lower bound to the ceiling's 95% upper bound is ${widthsText(widths, against)}`;
}

/**
 * The note of an --until-width study whose band, after `n` deals, is still wider than twice the
 * width asked (`widths`: per game × suits), or null when every band is within twice the width. The
 * band runs from the floor's low end to the ceiling's high end, so it narrows only when most deals
 * are settled, won or lost; where losses are rarely proven (4 suits at a small budget) the ceiling
 * stays near 100% and the study may never stop.
 */
export function widthNote(width: number, n: number, widths: readonly (readonly [string, number])[]): string | null {
  const wide = widths.filter(([, w]) => w > 2 * width);
  if (wide.length === 0) return null;
  return `note: --until-width ${width}: after ${dealsText(n)} the band is still ${widthsText(wide, 2 * width)}, more than twice ${width}; ` +
    'it narrows only when most deals are settled (won or lost), and with few losses proven the ceiling stays high, so this study may never stop: ' +
    'a larger --max-positions settles more deals; Ctrl-C stops it (resumable)';
}

/** The group a deal counts in for the rule: `spider 2 suits`, `spiderette 1 suit`. */
export function widthGroup(game: string, suits: number): string {
  return `${game} ${suits} suit${suits === 1 ? '' : 's'}`;
}

/** Options of a WidthRule. */
export interface WidthRuleOptions {
  /** The width asked (--until-width), a fraction in (0, 1). */
  readonly width: number;
  /** Deals counted before the note of a band still wider than twice the width; default WIDTH_NOTE_AFTER. */
  readonly noteAfter?: number;
  /**
   * Deals counted before the first estimate of the deals the rule still needs, then again now and
   * then (widthEstimate.ts isEstimatePoint); default ESTIMATE_FIRST.
   */
  readonly estimateAfter?: number;
  /**
   * Told the notes, one line of text each: the estimates, and once the note of a band still wider
   * than twice the width (unless an estimate is given at the same count).
   */
  readonly onNote?: (text: string) => void;
}

/**
 * The stopping rule over the plan's prefix. Deals finish in any order; `add` takes each one's place
 * and status, and the rule counts them in the order of the plan, so that the study always counts a
 * prefix of its plan. Once met, `stopReason` and `stopAt` (deals counted) are set and nothing more
 * is counted.
 */
export class WidthRule {
  readonly width: number;
  readonly #noteAfter: number;
  readonly #estimateAfter: number;
  readonly #onNote: ((text: string) => void) | undefined;
  readonly #prefix = new Map<string, PrefixCounts>();
  /** Statuses of places past the counted prefix, waiting for the places before them. */
  readonly #known = new Map<number, { group: string; status: ResultStatus }>();
  /** Deals of the plan counted so far: the next place to count. */
  counted = 0;
  /** Why the rule stopped the study (the message), or null while it has not. */
  stopReason: string | null = null;
  /** Deals counted when the rule was met, or −1. */
  stopAt = -1;

  constructor(o: WidthRuleOptions) {
    this.width = o.width;
    this.#noteAfter = o.noteAfter ?? WIDTH_NOTE_AFTER;
    this.#estimateAfter = o.estimateAfter ?? ESTIMATE_FIRST;
    this.#onNote = o.onNote;
  }

  /** The band of each game and suit count over the prefix counted so far. */
  widths(): (readonly [string, number])[] {
    return [...this.#prefix.entries()].map(([g, x]) => [g, bandWidth(x)] as const);
  }

  /**
   * Takes the status of the deal at place `ord` of the plan (group: widthGroup) and counts every
   * place now complete in order. Returns true when this call met the rule.
   */
  add(ord: number, group: string, status: ResultStatus): boolean {
    if (this.stopReason !== null) return false;
    this.#known.set(ord, { group, status });
    while (this.#known.has(this.counted)) {
      const k = this.#known.get(this.counted)!;
      this.#known.delete(this.counted);
      this.counted++;
      let c = this.#prefix.get(k.group);
      if (!c) this.#prefix.set(k.group, (c = { n: 0, won: 0, open: 0 }));
      c.n++;
      if (k.status === 'won') c.won++;
      else if (k.status !== 'lost') c.open++;
      const widths = this.widths();
      if (widths.every(([, w]) => w < this.width)) {
        this.stopReason = `--until-width ${this.width}: ${bandAfter(this.counted, widths, this.width)} < ${this.width}`;
        this.stopAt = this.counted;
        return true;
      }
      this.#tell(widths);
    }
    return false;
  }

  /**
   * The notes after a deal counted, the rule not met: at an estimate point, how many more deals it
   * likely needs; else, at `noteAfter`, the note of a band still wider than twice the width (which
   * an estimate at the same count replaces: it says more).
   */
  #tell(widths: readonly (readonly [string, number])[]): void {
    if (!this.#onNote) return;
    if (isEstimatePoint(this.counted, this.#estimateAfter)) {
      const e = moreDealsForWidth(this.#prefix, this.counted, this.width);
      if (e) return this.#onNote(estimateNote(this.width, this.counted, e));
    }
    if (this.counted === this.#noteAfter) {
      const text = widthNote(this.width, this.counted, widths);
      if (text) this.#onNote(text);
    }
  }
}
