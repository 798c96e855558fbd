/**
 * The HTML report of a database holding a blind study and a solve study of the same deals, opened in
 * chromium: the blind table and the chart of the blind win rate next to the perfect-information rate
 * per suit count are drawn (a dot and an interval bar for each rate), and the page loads nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPage, sharedBrowser } from './helpers/browser.js';
import { cliOk } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-blind-report-browser-'));

const cli = (...args: string[]): string => cliOk(args);

const browser = sharedBrowser();

describe('the HTML report of a blind study in chromium', () => {
  it('draws the blind and perfect-information rates per suit count, and loads nothing', async () => {
    const db = join(dir, 'study.sqlite');
    cli('batch', '--game', 'spiderette', '--suits', '1,2', '--seeds', '1-10', '--player', 'greedy', '--workers', '1', '--db', db);
    cli('batch', '--game', 'spiderette', '--suits', '1,2', '--seeds', '1-10', '--max-positions', '20000', '--workers', '1', '--db', db);
    const file = join(dir, 'report.html');
    cli('report', '--db', db, '--format', 'html', '--out', file);
    const { page, requests, errors } = await openPage(browser.context, pathToFileURL(file).href, { width: 1100, height: 900 });
    const chart = await page.evaluate(() => {
      const f = document.querySelector('figure[data-chart="blind-rate"]');
      // the chart is drawn at each layout; the style sheet shows the one that fits the window
      const shown = f ? [...f.querySelectorAll('[data-layout]')].filter((d) => d.getBoundingClientRect().width > 0) : [];
      const v = shown[0];
      const box = v?.querySelector('svg')?.getBoundingClientRect();
      return {
        found: f !== null,
        shown: shown.length,
        title: f?.querySelector('h2')?.textContent ?? '',
        width: box?.width ?? 0,
        height: box?.height ?? 0,
        symbols: v ? v.querySelectorAll('g.mark-symbol.role-mark > *').length : 0,
        rules: v ? v.querySelectorAll('g.mark-rule.role-mark > *').length : 0,
        labels: v ? [...v.querySelectorAll('g.role-axis-label text')].map((t) => t.textContent) : [],
        rows: document.querySelectorAll('table[data-blind-table] tbody tr').length,
      };
    });
    expect(chart.found).toBe(true);
    expect(chart.shown).toBe(1);
    expect(chart.title).toMatch(/^Blind win rate and perfect-information rate/);
    expect(chart.width).toBeGreaterThan(200);
    expect(chart.height).toBeGreaterThan(50);
    // two suit counts, each a blind rate and a perfect-information rate: a dot and a bar each
    expect(chart.rows).toBe(2);
    expect(chart.symbols).toBe(4);
    expect(chart.rules).toBe(4);
    // each row named by its study, then its game, suit count and player
    expect(chart.labels.filter((l) => (l ?? '').endsWith('spiderette 2 suits, greedy'))).toHaveLength(1);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(errors).toEqual([]);
  }, 300_000);
});
