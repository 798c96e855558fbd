/**
 * The estimate of how many more deals an --until-width study needs (src/batch/widthEstimate.ts), with
 * known values: the fewest deals whose band (Wilson's 95% bounds, z = 1.959963984540054) at given
 * proportions is narrower than the width were found by counting up one deal at a time in an
 * independent implementation of the same formula; the runs use the test worker's fake outcomes
 * (seed s: s % 4 = 0 or 3 won, 1 lost, 2 undecided).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { wilsonInterval } from '../src/batch/report.js';
import { runBatch } from '../src/batch/runner.js';
import { bandAfter, bandWidth, widthNote, WidthRule } from '../src/batch/untilWidth.js';
import { bandAtRates, dealsForWidth, estimateNote, isEstimatePoint, moreDealsForWidth, roughly, wilsonBound } from '../src/batch/widthEstimate.js';
import { withEnv } from './helpers/env.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-estimate-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the band at given rates', () => {
  it('wilsonBound equals wilsonInterval where the count is whole, with exact ends at 0 and 1', () => {
    for (const [k, n] of [[0, 10], [3, 10], [10, 10], [57, 200], [1, 1]] as const) {
      const [lo, hi] = wilsonInterval(k, n)!;
      expect(wilsonBound(k / n, n, -1)).toBeCloseTo(lo, 12);
      expect(wilsonBound(k / n, n, 1)).toBeCloseTo(hi, 12);
    }
    expect(wilsonBound(0, 50, -1)).toBe(0);
    expect(wilsonBound(1, 50, 1)).toBe(1);
  });

  it('bandAtRates equals bandWidth of whole counts', () => {
    expect(bandAtRates(0.5, 0.25, 20)).toBeCloseTo(bandWidth({ n: 20, won: 10, open: 5 }), 12);
    expect(bandAtRates(0.5, 0.25, 20)).toBeCloseTo(0.58884, 4);
    expect(bandAtRates(0.5, 0, 100)).toBeCloseTo(0.192337, 5); // the Wilson interval of 50 of 100
  });
});

describe('dealsForWidth: the fewest deals whose band is narrower than the width', () => {
  it('gives the known counts', () => {
    // won share, open share, width → deals in all
    const known: [number, number, number, number][] = [
      [0.5, 0, 0.2, 93], // band 0.20020 at 92, 0.19917 at 93
      [0.5, 0, 0.1, 381], // 0.10004 at 380, 0.09991 at 381
      [0.3, 0.1, 0.3, 80],
      [0.2, 0.15, 0.3, 121],
      [0.9, 0.05, 0.1, 412],
      [0, 0, 0.05, 73], // no deal won, none open: the band is the upper bound of 0 of n
      [0.5, 0.25, 0.3, 1296],
      [0.5, 0.25, 0.5, 43],
      [0.3, 0.225, 0.3, 600],
    ];
    for (const [won, open, width, n] of known) {
      expect(dealsForWidth(won, open, width), `${won} ${open} ${width}`).toBe(n);
      expect(bandAtRates(won, open, n)).toBeLessThan(width);
      expect(bandAtRates(won, open, n - 1)).toBeGreaterThanOrEqual(width);
    }
  });

  it('is null when the open share is at least the width: the band narrows towards it, never below', () => {
    expect(dealsForWidth(0.2, 0.5, 0.3)).toBeNull();
    expect(dealsForWidth(0.35, 0.3, 0.3)).toBeNull();
    expect(bandAtRates(0.35, 0.29, 1e8)).toBeGreaterThan(0.29);
    // just under: many deals, as the band creeps towards 0.29
    expect(dealsForWidth(0.35, 0.29, 0.3)).toBe(34_954);
  });
});

describe('moreDealsForWidth over the groups of a plan', () => {
  it('scales each group\'s missing deals by its share of the plan and takes the largest', () => {
    const groups = new Map([
      ['spider 1 suit', { n: 100, won: 50, open: 10 }], // needs 87 in all: none more
      ['spider 2 suits', { n: 50, won: 10, open: 5 }], // needs 65 in all: 15 more, a third of the plan's deals
    ]);
    expect(moreDealsForWidth(groups, 150, 0.3)).toEqual({ more: 45, group: 'spider 2 suits', counts: { n: 50, won: 10, open: 5 } });
  });

  it('names the first group that never gets there', () => {
    const groups = new Map([
      ['spiderette 1 suit', { n: 100, won: 90, open: 2 }],
      ['spiderette 4 suits', { n: 100, won: 20, open: 50 }],
    ]);
    expect(moreDealsForWidth(groups, 200, 0.3)).toEqual({ more: null, group: 'spiderette 4 suits', counts: { n: 100, won: 20, open: 50 } });
    expect(moreDealsForWidth(new Map(), 0, 0.3)).toBeNull();
  });
});

describe('the note', () => {
  it('gives the rates of the group that needs the most and the deals rounded to two figures', () => {
    const e = { more: 4137, group: 'spiderette 4 suits', counts: { n: 300, won: 105, open: 60 } };
    expect(estimateNote(0.3, 300, e)).toBe(
      'note: --until-width 0.3: after 300 deals, at the current rates (spiderette 4 suits: won 35%, lost 45%, undecided or error 20% of 300) the rule likely needs about 4,100 more deals',
    );
    expect(estimateNote(0.3, 1200, { more: null, group: 'spiderette 4 suits', counts: { n: 1200, won: 240, open: 600 } })).toBe(
      'note: --until-width 0.3: after 1,200 deals, at the current rates (spiderette 4 suits: won 20%, lost 30%, undecided or error 50% of 1,200) the band cannot get below 0.3: ' +
        'it narrows towards the share undecided or error, 50%; a larger --max-positions settles more deals; Ctrl-C stops it (resumable)',
    );
    expect([roughly(0), roughly(45), roughly(99), roughly(995), roughly(4137), roughly(12_449), roughly(1_234_567)]).toEqual(['0', '45', '99', '1,000', '4,100', '12,000', '1,200,000']);
  });

  it('is given at 200, 500, 1,000, then every 1,000 deals (and so from another first point)', () => {
    const points = Array.from({ length: 5000 }, (_, i) => i + 1).filter((n) => isEstimatePoint(n));
    expect(points).toEqual([200, 500, 1000, 2000, 3000, 4000, 5000]);
    expect(Array.from({ length: 60 }, (_, i) => i + 1).filter((n) => isEstimatePoint(n, 4))).toEqual([4, 10, 20, 40, 60]);
  });
});

describe('WidthRule and a batch say it as the deals come', () => {
  it('WidthRule counts the plan in order and estimates at its points, not after the rule is met', () => {
    const notes: string[] = [];
    const rule = new WidthRule({ width: 0.5, estimateAfter: 4, onNote: (t) => notes.push(t) });
    // seeds 1–4 in the fake worker's classes, arriving out of order: lost, undecided, won, won
    expect(rule.add(3, 'spider 1 suit', 'won')).toBe(false);
    expect(rule.add(1, 'spider 1 suit', 'undecided')).toBe(false);
    expect(notes).toEqual([]); // place 0 not yet in: nothing counted
    expect(rule.add(0, 'spider 1 suit', 'lost')).toBe(false);
    expect(rule.counted).toBe(2);
    expect(rule.add(2, 'spider 1 suit', 'won')).toBe(false);
    expect(rule.counted).toBe(4);
    expect(notes).toEqual([
      'note: --until-width 0.5: after 4 deals, at the current rates (spider 1 suit: won 50%, lost 25%, undecided or error 25% of 4) the rule likely needs about 39 more deals',
    ]);
  });

  it('an estimate replaces the note of a band wider than twice the width at the same count; the note stays where none is due', () => {
    const run = (estimateAfter: number) => {
      const notes: string[] = [];
      const rule = new WidthRule({ width: 0.01, noteAfter: 4, estimateAfter, onNote: (t) => notes.push(t) });
      (['lost', 'undecided', 'won', 'won'] as const).forEach((st, i) => rule.add(i, 'spider 1 suit', st));
      return notes;
    };
    expect(run(4)).toEqual([
      'note: --until-width 0.01: after 4 deals, at the current rates (spider 1 suit: won 50%, lost 25%, undecided or error 25% of 4) the band cannot get below 0.01: ' +
        'it narrows towards the share undecided or error, 25%; a larger --max-positions settles more deals; Ctrl-C stops it (resumable)',
    ]);
    expect(run(200)).toHaveLength(1);
    expect(run(200)[0]).toMatch(/^note: --until-width 0\.01: after 4 deals the band is still 0\.8044 \(spider 1 suit\), more than twice 0\.01;/);
  });

  it('a batch of seeds 1–60 at --until-width 0.5 says 39, 62, 23 and 3 more deals after 4, 10, 20 and 40, then stops by its rule', async () => {
    const notes: string[] = [];
    const s = await withEnv({ SPIDERSOLVE_TEST_FAKE: '1' }, () => runBatch({
      deals: planSeeds('spider', [1], [{ from: 1, to: 60 }]), maxPositions: 77, untilWidth: 0.5, workers: 2, dbPath: join(dir, 'estimate.sqlite'),
      study: 'E', workerFile: TEST_WORKER, widthEstimateAfter: 4, onNote: (t) => notes.push(t),
      studyParams: { game: 'spider', suits: '1', dealsSpec: 'seeds:1-60', maxPositions: 77, untilWidth: 0.5 },
    }));
    const rates = (won: number, lost: number, open: number, n: number) => `won ${won}%, lost ${lost}%, undecided or error ${open}% of ${n}`;
    expect(notes).toEqual([
      `note: --until-width 0.5: after 4 deals, at the current rates (spider 1 suit: ${rates(50, 25, 25, 4)}) the rule likely needs about 39 more deals`,
      `note: --until-width 0.5: after 10 deals, at the current rates (spider 1 suit: ${rates(40, 30, 30, 10)}) the rule likely needs about 62 more deals`,
      `note: --until-width 0.5: after 20 deals, at the current rates (spider 1 suit: ${rates(50, 25, 25, 20)}) the rule likely needs about 23 more deals`,
      `note: --until-width 0.5: after 40 deals, at the current rates (spider 1 suit: ${rates(50, 25, 25, 40)}) the rule likely needs about 3 more deals`,
    ]);
    expect(s.stopReason).toMatch(/^--until-width 0\.5: after 4\d deals /);
  });
});

describe("the rule's messages count one deal in the singular", () => {
  it('after 1 deal, after 2 deals', () => {
    expect(bandAfter(1, [['spider 1 suit', 0.7935]], 0.9)).toBe("after 1 deal the band from the floor's 95% lower bound to the ceiling's 95% upper bound is 0.7935 (spider 1 suit)");
    expect(bandAfter(2, [['spider 1 suit', 0.6]], 0.9)).toMatch(/^after 2 deals the band /);
    expect(widthNote(0.01, 1, [['spider 1 suit', 0.7935]])).toMatch(/^note: --until-width 0\.01: after 1 deal the band is still 0\.7935 \(spider 1 suit\)/);
    expect(estimateNote(0.5, 1, { group: 'spider 1 suit', counts: { n: 1, won: 1, open: 0 }, more: 1 })).toBe('note: --until-width 0.5: after 1 deal, at the current rates (spider 1 suit: won 100%, lost 0%, undecided or error 0% of 1) the rule likely needs about 1 more deal');
  });
});
