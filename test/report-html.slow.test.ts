/**
 * The HTML report in a real browser (chromium via playwright-core, helpers/browser.ts): a real small
 * study (Spiderette 1, 2 and 4 suits, seeds 1-30, a budget ladder 2,000 / 20,000 / 100,000) solved by
 * `batch`, reported with
 * `report --format html`; every chart must have drawn (an svg with marks of its kinds), the page must
 * request nothing but itself. Screenshots (desktop, phone) go to test-output/screenshots/.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot, sharedBrowser } from './helpers/browser.js';
import { cliOk } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-report-browser-'));

const cli = (...args: string[]): string => cliOk(args);

const browser = sharedBrowser();

describe('the HTML report in chromium', () => {
  it('draws every chart of a real study, and loads nothing', async () => {
    const db = join(dir, 'study.sqlite');
    cli('batch', '--game', 'spiderette', '--suits', '1,2,4', '--seeds', '1-30', '--max-positions', '2000,20000,100000', '--workers', '2', '--db', db);
    const file = join(dir, 'report.html');
    cli('report', '--db', db, '--format', 'html', '--out', file);
    for (const [name, viewport] of [['desktop', { width: 1100, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
      const { page, requests, errors } = await openPage(browser.context, pathToFileURL(file).href, viewport);
      const charts = await page.evaluate(() =>
        [...document.querySelectorAll('figure[data-chart]')].map((fig) => {
          // the drawing shown at this size (each chart is drawn for a phone, a tablet and a desktop)
          const f = [...fig.querySelectorAll('.chart > div')].find((d) => (d as HTMLElement).offsetParent !== null) ?? fig;
          const svg = f.querySelector('svg');
          const box = svg?.getBoundingClientRect();
          const marks = (kind: string) => f.querySelectorAll(`g.mark-${kind}.role-mark > *`).length;
          return {
            id: fig.getAttribute('data-chart'),
            title: fig.querySelector('h2')?.textContent ?? '',
            caption: fig.querySelector('figcaption')?.textContent ?? '',
            width: box?.width ?? 0,
            height: box?.height ?? 0,
            symbols: marks('symbol'),
            lines: marks('line'),
            rules: marks('rule'),
            rects: marks('rect'),
            axes: f.querySelectorAll('g.role-axis-title text').length,
          };
        }),
      );
      expect(charts.map((c) => c.id)).toEqual(['win-rate', 'proof-rate', 'time', 'positions', 'line-length']);
      // the page never scrolls sideways, and a phone gets charts drawn for its width, whose text
      // stays readable (a desktop's chart scaled down had 3.5-5 px text)
      const fit = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        view: window.innerWidth,
        text: Math.min(...[...document.querySelectorAll('figure[data-chart] svg g.role-axis-label text')].map((t) => t.getBoundingClientRect().height).filter((h) => h > 0)),
      }));
      expect(fit.page).toBeLessThanOrEqual(fit.view);
      expect(fit.text).toBeGreaterThanOrEqual(9);
      for (const c of charts) {
        expect(c.width).toBeGreaterThan(200);
        expect(c.height).toBeGreaterThan(100);
        expect(c.title).not.toBe('');
        expect(c.caption).toMatch(/\.$/);
        // the value axes titled; the rows of the win-rate and spread charts are named by their labels
        // and the chart's title (an axis title beside long row labels was drawn over them)
        expect(c.axes).toBe(c.id === 'proof-rate' ? 2 : 1);
      }
      const [winRate, proof, ...spreads] = charts;
      // 3 suit counts × 3 rungs, floor and ceiling: a dot and an interval each
      expect(winRate!.symbols).toBe(18);
      expect(winRate!.rules).toBe(18);
      // one step line a suit count, a diamond at each rung of each, one rule a budget of the ladder
      expect(proof!.lines).toBe(3);
      expect(proof!.symbols).toBe(9);
      expect(proof!.rules).toBe(3);
      for (const s of spreads) {
        expect(s.rects).toBe(6); // a box and a median tick a group
        expect(s.rules).toBe(3); // min to max
        expect(s.symbols).toBe(3); // the 95th percentile
      }
      await screenshot(page, `report-${name}.png`, { fullPage: true, docs: name === 'desktop' });
      expect(errors).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      await page.close();
    }
  }, 300_000);
});
