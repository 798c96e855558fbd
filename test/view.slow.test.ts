/**
 * The solution viewer in a real browser (Debian's chromium driven by playwright-core; see
 * helpers/browser.ts): the page written by `spidersolve view` for a known deal and line shows, after
 * → pressed k times, after ←, and after a jump with the slider, exactly the position `play` gives
 * after that many moves (face-up cards, face-down counts, stock, completed suits, scores); the reveal
 * toggle shows the face-down cards `play --reveal` lists; at the end the page says won. Loads nothing
 * from the network. Screenshots (desktop and phone) go to test-output/screenshots/.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot, sharedBrowser } from './helpers/browser.js';
import { cliOk } from './helpers/cli.js';
import { SE1_1_LINE, SP2_1007_LINE } from './helpers/lines.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-view-browser-'));

const cli = (...args: string[]): string => cliOk(args, 60_000);

/** What the page shows, read from its data attributes, in the shape of play --json. */
interface Shown {
  columns: { faceDown: number; faceUp: string[] }[];
  stockDeals: number;
  removed: string[];
  classicScore: number;
  revealScore: number;
  movesPlayed: number;
}

/** What `play <deal> <first k moves> --json` gives (`show --reveal --json` for k = 0), in the same shape. */
function played(deal: string, line: string, k: number): Shown & { won: boolean; faceDownCards: string[][] } {
  const moves = line.split(' ').slice(0, k);
  if (k === 0) {
    const s = JSON.parse(cli('show', deal, '--reveal', '--json')).position;
    return {
      columns: s.columns.map((c: { faceDown: string[]; faceUp: string[] }) => ({ faceDown: c.faceDown.length, faceUp: c.faceUp })),
      stockDeals: s.stockDeals.length, removed: s.removed, classicScore: 500, revealScore: 0, movesPlayed: 0, won: false,
      faceDownCards: s.columns.map((c: { faceDown: string[] }) => c.faceDown),
    };
  }
  const p = JSON.parse(cli('play', deal, moves.join(' '), '--json'));
  return {
    columns: p.position.columns.map((c: { faceDown: string[]; faceUp: string[] }) => ({ faceDown: c.faceDown.length, faceUp: c.faceUp })),
    stockDeals: p.position.stockDeals.length,
    removed: p.position.removed,
    classicScore: p.classicScore,
    revealScore: p.revealScore,
    movesPlayed: p.movesPlayed,
    won: p.won,
    faceDownCards: p.position.columns.map((c: { faceDown: string[] }) => c.faceDown),
  };
}

async function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const num = (sel: string, attr: string) => Number(document.querySelector(sel)!.getAttribute(attr));
    const list = (s: string | null) => (s ? s.split(' ') : []);
    return {
      columns: [...document.querySelectorAll('[data-column]')].map((c) => ({
        faceDown: Number(c.getAttribute('data-facedown-count')),
        faceUp: list(c.getAttribute('data-faceup')),
      })),
      stockDeals: num('[data-stock]', 'data-stock-deals'),
      removed: list(document.querySelector('[data-removed]')!.getAttribute('data-removed-suits')),
      classicScore: num('[data-score="classic"]', 'data-value'),
      revealScore: num('[data-score="reveal"]', 'data-value'),
      movesPlayed: num('[data-score="moves"]', 'data-value'),
    };
  });
}

/** Cards drawn in each column: the face-down ones (`data-facedown`) and all, from the DOM itself. */
async function drawn(page: Page): Promise<{ down: number; up: string[]; revealed: string[] }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-column]')].map((c) => ({
      down: c.querySelectorAll('[data-facedown]').length,
      up: [...c.querySelectorAll('.card:not([data-facedown])')].map((e) => e.getAttribute('data-card')!),
      revealed: [...c.querySelectorAll('[data-facedown]')].map((e) => e.getAttribute('data-card') ?? ''),
    })),
  );
}

function expectSame(got: Shown, want: ReturnType<typeof played>): void {
  const { won: _w, faceDownCards: _f, ...rest } = want;
  expect(got).toEqual(rest);
}

const browser = sharedBrowser();

describe('the viewer in chromium', () => {
  it('steps through SE1-1\'s winning line as play does: →, ←, the slider, the reveal toggle, won at the end', async () => {
    const file = join(dir, 'se1-1.html');
    cli('view', 'SE1-1', '--line', SE1_1_LINE, '--out', file);
    const { page, requests, errors } = await openPage(browser.context, pathToFileURL(file).href, { width: 1280, height: 900 });
    await page.waitForSelector('body[data-ready]');
    expectSame(await shown(page), played('SE1-1', SE1_1_LINE, 0));

    // → pressed 14 times: after the first deal
    for (let i = 0; i < 14; i++) await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('[data-step]', 'data-step')).toBe('14');
    const at14 = played('SE1-1', SE1_1_LINE, 14);
    expectSame(await shown(page), at14);
    // the cards drawn agree with the attributes
    const d14 = await drawn(page);
    expect(d14.map((c) => c.down)).toEqual(at14.columns.map((c) => c.faceDown));
    expect(d14.map((c) => c.up)).toEqual(at14.columns.map((c) => c.faceUp));
    expect(d14.every((c) => c.revealed.every((x) => x === ''))).toBe(true);
    expect(await page.textContent('[data-step]')).toContain('Move 14 of 63: d');

    // ← once
    await page.keyboard.press('ArrowLeft');
    expectSame(await shown(page), played('SE1-1', SE1_1_LINE, 13));

    // the reveal toggle shows the face-down cards play --reveal lists
    await page.click('#reveal');
    const d13 = await drawn(page);
    expect(d13.map((c) => c.revealed)).toEqual(played('SE1-1', SE1_1_LINE, 13).faceDownCards);
    await page.click('#reveal');
    expect((await drawn(page)).every((c) => c.revealed.every((x) => x === ''))).toBe(true);

    // a jump with the slider, then the buttons
    await page.locator('#slider').fill('40');
    expect(await page.getAttribute('[data-step]', 'data-step')).toBe('40');
    expectSame(await shown(page), played('SE1-1', SE1_1_LINE, 40));
    await page.click('#next');
    await page.click('#next');
    expectSame(await shown(page), played('SE1-1', SE1_1_LINE, 42));
    await page.click('#prev');
    expectSame(await shown(page), played('SE1-1', SE1_1_LINE, 41));
    await screenshot(page, 'viewer-se1-1-desktop.png');

    // → to the end: the last position is play's, and the page says won
    for (let i = 41; i < 63; i++) await page.keyboard.press('ArrowRight');
    const end = played('SE1-1', SE1_1_LINE, 63);
    expect(end.won).toBe(true);
    expectSame(await shown(page), end);
    expect(await page.getAttribute('[data-status]', 'data-status')).toBe('won');
    expect(await page.textContent('[data-step]')).toContain('Won: every suit completed.');
    expect(await page.isDisabled('#next')).toBe(true);
    await page.keyboard.press('ArrowRight'); // nothing past the end
    expect(await page.getAttribute('[data-step]', 'data-step')).toBe('63');

    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
  }, 300_000);

  it('previews a PySolFC deal\'s next stock deal in the order its columns are laid out (PySolFC\'s)', async () => {
    const file = join(dir, 'pysol-spider-3.html');
    cli('view', 'pysol:spider:3', '--line', 'd', '--out', file);
    const { page, errors } = await openPage(browser.context, pathToFileURL(file).href, { width: 1280, height: 900 });
    await page.waitForSelector('body[data-ready]');
    await page.click('#reveal');
    // PySolFC's game 3, first stock deal, card for PySolFC's column 1 first (show lists it in spidersolve's
    // columns 1,4,7,10,2,3,5,6,8,9 as 10♥ 9♠ A♣ A♣ 3♦ K♠ 10♥ 7♠ 9♠ 5♥)
    expect(await page.textContent('#stock-cards')).toBe('next deal: 10♥ 3♦ K♠ 9♠ 10♥ 7♠ A♣ 9♠ 5♥ A♣');
    // and after the deal, the columns left to right end in those cards
    await page.keyboard.press('ArrowRight');
    const ends = (await drawn(page)).map((c) => c.up.at(-1)!);
    expect(ends).toEqual(['10H', '3D', 'KS', '9S', '10H', '7S', 'AC', '9S', '5H', 'AC']);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows a Spider deal the same way on a desktop and a phone screen', async () => {
    const file = join(dir, 'sp2-1007.html');
    cli('view', 'SP2-1007', '--line', SP2_1007_LINE, '--out', file);
    for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
      const { page, requests, errors } = await openPage(browser.context, pathToFileURL(file).href, viewport);
      await page.waitForSelector('body[data-ready]');
      await page.locator('#slider').fill('60');
      expectSame(await shown(page), played('SP2-1007', SP2_1007_LINE, 60));
      // every column fits the screen's width
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
      expect(widths.page).toBeLessThanOrEqual(widths.view);
      // and still does with the face-down cards shown (the next deal's cards on a line of their own),
      // each revealed card's corner readable: the next card starts below it
      await page.locator('#slider').fill('0');
      await page.click('#reveal');
      const revealed = await page.evaluate(() => {
        const downs = [...document.querySelectorAll('[data-column="1"] [data-facedown]')].map((e) => e.getBoundingClientRect());
        const corner = document.querySelector('[data-column="1"] [data-facedown] .corner')!.getBoundingClientRect();
        return { page: document.documentElement.scrollWidth, view: window.innerWidth, step: downs[1]!.top - downs[0]!.top, corner: corner.bottom - downs[0]!.top };
      });
      expect(revealed.page).toBeLessThanOrEqual(revealed.view);
      expect(revealed.step).toBeGreaterThanOrEqual(revealed.corner);
      await page.click('#reveal');
      await page.locator('#slider').fill('60');
      await screenshot(page, `viewer-${name}.png`, { fullPage: name === 'desktop', docs: true });
      await page.keyboard.press('End');
      expect(await page.getAttribute('[data-status]', 'data-status')).toBe('won');
      expect(errors).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      await page.close();
    }
  }, 300_000);

  it('wraps a long heading (an explicit deal code) instead of widening the page past the screen and its controls', async () => {
    const code = 'SP4X-47PDZ5QJM6M5N6T9Y6FXXP0T8VU3H8VYYYS5M291JC1FLZQ9R9COVD3ZLRLAGPEZFP58U9NQMIO67HR5LEYN4AUBPYH99AN7Q3G8VNVHJDHXZOQIB1CGM2DC';
    const file = join(dir, 'explicit.html');
    cli('view', code, '--out', file);
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      const { page, errors } = await openPage(browser.context, pathToFileURL(file).href, viewport);
      await page.waitForSelector('body[data-ready]');
      expect(await page.textContent('h1')).toBe(code);
      const box = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth, controls: document.querySelector('.controls')!.getBoundingClientRect().bottom, height: window.innerHeight }));
      expect(box.page).toBeLessThanOrEqual(box.view);
      expect(box.controls).toBeLessThanOrEqual(box.height);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 120_000);
});
