/**
 * Rough edges that need a whole process, a real shell or a real browser (chromium via playwright-core,
 * helpers/browser.ts): the HTML report and the viewer at a phone's and a desktop's size, bash
 * completion sourced in bash, and a study made under an old default name resumed by a real batch.
 * Screenshots go to test-output/screenshots/edges-*.png.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { recordFromOutcome, ResultStore } from '../src/batch/store.js';
import { openPage, screenshot, sharedBrowser } from './helpers/browser.js';
import { ROOT } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-edges-slow-'));

/** The CLI in a child process, from `cwd` (default the project's root); throws on a non-zero exit. */
function cli(args: string[], cwd = ROOT): { stdout: string; stderr: string } {
  // (tsx named by its path from another folder, where `tsx` is not found)
  const tsx = cwd === ROOT ? 'tsx' : join(ROOT, 'node_modules/tsx/dist/esm/index.mjs');
  const r = spawnSync(process.execPath, ['--import', tsx, join(ROOT, 'src/cli/main.ts'), ...args], { cwd, encoding: 'utf8', timeout: 170_000 });
  if (r.status !== 0) throw new Error(`spidersolve ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

/**
 * A database of two studies with long names (so that every chart row's label takes two lines), of
 * one- and two-suit Spiderette, 12 deals each: won deals with spread-out effort, and undecided ones.
 */
function reportDb(path: string): void {
  const s = ResultStore.openForWriting(path);
  for (const [name, from] of [['spiderette-1,2-seeds-1-12-at-20k-positions-baseline', 1], ['spiderette-1,2-seeds-13-24-at-20k-positions-tuned', 13]] as const) {
    const deals = planSeeds('spiderette', [1, 2], [{ from, to: from + 11 }]);
    const recs = deals.map((d, i) => {
      const won = i % 4 !== 3;
      return recordFromOutcome(d, 20_000, {
        key: d.key, status: won ? 'won' : 'undecided', positions: won ? 150 * (i + 1) ** 2 : 20_000, elapsedMs: won ? 3 * (i + 1) : 400,
        line: won ? 'd' : '', moveCount: won ? 60 + 5 * i : null, classicScore: won ? 800 : null, revealScore: won ? 500 : null, peakBytes: 0, solverVersion: '3.8.0', workerMs: 1,
      });
    });
    const id = s.ensureStudy(name, { game: 'spiderette', suits: '1,2', dealsSpec: `seeds:${from}-${from + 11}`, maxPositions: 20_000, planned: deals.length });
    s.writeResults(null, recs, id, recs.map((r, i) => ({ deal: r.deal, ord: i, name: r.code })));
  }
  s.close();
}

const browser = sharedBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

describe('the HTML report at a phone\'s and a desktop\'s size', () => {
  it('shows every dot of every chart without scrolling, uses a desktop\'s width, and keeps two-line labels apart', async () => {
    reportDb(join(dir, 'two.sqlite'));
    // run from the database's folder, named as a user names it there
    const made = cli(['report', '--db', 'two.sqlite', '--format', 'html', '--out', 'report.html'], dir);
    expect(made.stderr).toBe('spidersolve: wrote report.html: HTML report, 4 rows of 2 studies\n');
    const url = pathToFileURL(join(dir, 'report.html')).href;
    for (const [name, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      const { page, errors } = await openPage(browser.context, url, viewport);
      const m = await page.evaluate(() => {
        const shown = [...document.querySelectorAll('figure[data-chart] .chart > div')].filter((d) => (d as HTMLElement).offsetParent !== null);
        return {
          subtitle: document.querySelector('.meta')?.textContent ?? '',
          layouts: shown.map((d) => d.getAttribute('data-layout')),
          charts: shown.map((d) => {
            const box = d.parentElement!.getBoundingClientRect();
            const svg = d.querySelector('svg')!.getBoundingClientRect();
            // every mark (dots, bars, ticks, diamonds) inside the chart's visible box
            const marks = [...d.querySelectorAll('g.role-mark > path, g.role-mark > line, g.role-mark > rect')].map((e) => e.getBoundingClientRect()).filter((r) => r.width + r.height > 0);
            const outside = marks.filter((r) => r.left < box.left - 1 || r.right > box.right + 1).length;
            // the axis labels shown (Vega hides one that would overlap with opacity 0), line by line:
            // none may overlap the next one
            const texts = [...d.querySelectorAll('g.role-axis-label text')].filter((t) => t.getAttribute('opacity') !== '0');
            const labels = texts.map((t) => t.getBoundingClientRect()).filter((r) => r.height > 0 && r.left < svg.left + svg.width / 2).sort((a, b) => a.top - b.top);
            let overlaps = 0;
            for (let i = 1; i < labels.length; i++) if (labels[i]!.top < labels[i - 1]!.bottom - 0.5 && labels[i]!.left < labels[i - 1]!.right && labels[i - 1]!.left < labels[i]!.right) overlaps++;
            const text = Math.min(...texts.map((t) => t.getBoundingClientRect().height).filter((h) => h > 0));
            return { id: d.closest('figure')!.getAttribute('data-chart'), scrolls: d.parentElement!.scrollWidth > d.parentElement!.clientWidth + 1, share: svg.width / box.width, outside, marks: marks.length, overlaps, text };
          }),
        };
      });
      // the name as given, not the absolute path
      expect(m.subtitle).toMatch(/ in two\.sqlite \(every study\)/);
      expect(m.layouts).toEqual(Array(5).fill(name === 'phone' ? 'narrow' : 'wide'));
      for (const c of m.charts) {
        expect(c.scrolls, `${name} ${c.id} scrolls`).toBe(false);
        expect(c.marks).toBeGreaterThan(0);
        expect(c.outside, `${name} ${c.id}: marks out of sight`).toBe(0);
        expect(c.overlaps, `${name} ${c.id}: labels touching`).toBe(0);
        expect(c.text).toBeGreaterThanOrEqual(9);
        // a desktop's chart fills most of its box (it took about 60% of it)
        if (name === 'desktop') expect(c.share, `${c.id} width`).toBeGreaterThan(0.8);
      }
      await screenshot(page, `edges-report-${name}.png`, { fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 300_000);
});

describe('the viewer\'s control bar', () => {
  it('is opaque, and the page leaves room under the tallest column for it', async () => {
    const out = join(dir, 'view.html');
    // SE1-1's winning line (view.test.ts), which piles long columns mid-way
    cli(['view', 'SE1-1', '--solve', '--db', join(dir, 'none.sqlite'), '--max-positions', '20000', '--out', out, '--quiet']);
    for (const [name, viewport] of [['phone', { width: 320, height: 600 }], ['desktop', { width: 1280, height: 800 }]] as const) {
      const { page, errors } = await openPage(browser.context, pathToFileURL(out).href, viewport);
      await page.waitForSelector('body[data-ready]');
      // the frame with the tallest column, face-down cards shown (taller still)
      await page.evaluate(() => {
        const F = JSON.parse(document.getElementById('view-data')!.textContent!).frames as { columns: { down: unknown[]; up: unknown[] }[] }[];
        const h = F.map((f) => Math.max(...f.columns.map((c) => c.down.length * 2 + c.up.length)));
        const k = h.indexOf(Math.max(...h));
        const s = document.getElementById('slider') as HTMLInputElement;
        s.value = String(k);
        s.dispatchEvent(new Event('input'));
        (document.getElementById('reveal') as HTMLInputElement).click();
        window.scrollTo(0, document.documentElement.scrollHeight);
      });
      await page.waitForTimeout(200);
      const m = await page.evaluate(() => {
        const bar = document.querySelector('.controls')!;
        const cards = [...document.querySelectorAll('.col .card')].map((c) => c.getBoundingClientRect().bottom);
        return { bg: getComputedStyle(bar).backgroundColor, barTop: bar.getBoundingClientRect().top, lowest: Math.max(...cards), footer: document.querySelector('footer')!.getBoundingClientRect().bottom };
      });
      expect(m.bg, 'opaque').toMatch(/^rgb\(\d+, \d+, \d+\)$/);
      expect(m.lowest, `${name}: the tallest column's last card`).toBeLessThanOrEqual(m.barTop);
      expect(m.footer, `${name}: the footer`).toBeLessThanOrEqual(m.barTop);
      await screenshot(page, `edges-view-${name}.png`);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 300_000);
});

describe('bash completion, sourced in bash', () => {
  it('completes commands, options, option values and files', () => {
    const script = join(dir, 'completion.bash');
    writeFileSync(script, cli(['completion', 'bash']).stdout);
    writeFileSync(join(dir, 'results-a.sqlite'), '');
    const complete = (...words: string[]): string => {
      const r = spawnSync('bash', ['-c', `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _spidersolve; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', script, ...words], { cwd: dir, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return r.stdout.trim().split('\n').sort().join(' ');
    };
    expect(complete('spidersolve', 're')).toBe('report');
    expect(complete('spidersolve', 'com')).toBe('completion');
    expect(complete('spidersolve', 'report', '--fo')).toBe('--format');
    expect(complete('spidersolve', 'report', '--format', '')).toBe('csv html json md table vega');
    expect(complete('spidersolve', 'batch', '--game', 'spider')).toBe('spider spiderette');
    expect(complete('spidersolve', 'studies', '--db', 'results-')).toBe('results-a.sqlite');
    expect(complete('spidersolve', 'completion', '')).toBe('bash fish zsh');
    expect(complete('spidersolve', 'solve', '--q')).toBe('--quiet');
  });
});

describe('a study made under an old default name', () => {
  it('is resumed by the same batch command, not begun again under the new name', () => {
    const db = join(dir, 'old.sqlite');
    const args = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--max-positions', '300', '--workers', '1', '--db', db];
    // what a batch of these options named its study before (spiderette-1-seeds-1-2-300-positions)
    const first = cli([...args, '--study', 'spiderette-1-seeds-1-2-300-positions']);
    expect(first.stdout).toMatch(/^study spiderette-1-seeds-1-2-300-positions\n {2}deals 2: 0 already settled, 2 run now/);
    const again = cli(args);
    expect(again.stdout).toMatch(/^study spiderette-1-seeds-1-2-300-positions\n {2}deals 2: 2 already settled, 0 run now/);
    expect(again.stderr).toBe('spidersolve: note: resuming study "spiderette-1-seeds-1-2-300-positions", named as the same options were named before; a new study of these options is named "spiderette-1-seeds-1-2-at-300-positions"\n');
    expect(JSON.parse(cli(['studies', '--db', db, '--json']).stdout).map((s: { name: string }) => s.name)).toEqual(['spiderette-1-seeds-1-2-300-positions']);
    // a new database: the new name
    expect(cli([...args.slice(0, -1), join(dir, 'new.sqlite')]).stdout).toMatch(/^study spiderette-1-seeds-1-2-at-300-positions\n/);
  });
});
