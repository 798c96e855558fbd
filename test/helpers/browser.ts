/**
 * A real browser for the slow tests: Debian's chromium (`apt-get install -y chromium`; Playwright's own
 * browser download cannot be reached here) driven by playwright-core, headless, with a fresh profile.
 * As root Chromium needs --no-sandbox. Every request the page makes is recorded, so a test can check
 * that a page loads nothing from the network.
 *
 * Screenshots go to test-output/screenshots/ (kept after the run, ignored by git); with
 * SPIDERSOLVE_DOCS_SHOTS=1 the documentation's pictures among them are also copied to docs/.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** The system browser's path (CHROMIUM_PATH overrides). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the tests leave their screenshots. */
export const SHOTS_DIR = join(ROOT, 'test-output', 'screenshots');

/** A headless chromium with a fresh profile; `close` ends it and removes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const profile = mkdtempSync(join(tmpdir(), 'spidersolve-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * One browser for the tests of a file: launched before them (up to 120 s), closed after them. Read
 * `.context` inside a test (it is set once the browser is up).
 */
export function sharedBrowser(): { readonly context: BrowserContext } {
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get context(): BrowserContext {
      if (!browser) throw new Error('the browser is not launched (read .context inside a test)');
      return browser.context;
    },
  };
}

/** Opens a page of `context` at a viewport size; returns it with the URLs it requested and its script errors. */
export async function openPage(context: BrowserContext, url: string, viewport: { width: number; height: number }): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  return { page, requests, errors };
}

/**
 * Saves a screenshot as test-output/screenshots/NAME, and when `docs` (a documentation picture) and
 * SPIDERSOLVE_DOCS_SHOTS=1 also as docs/NAME; returns its path.
 */
export async function screenshot(page: Page, name: string, o: { fullPage?: boolean; docs?: boolean } = {}): Promise<string> {
  const fullPage = o.fullPage ?? false;
  mkdirSync(SHOTS_DIR, { recursive: true });
  const path = join(SHOTS_DIR, name);
  await page.screenshot({ path, fullPage });
  if (o.docs && process.env.SPIDERSOLVE_DOCS_SHOTS === '1') {
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    copyFileSync(path, join(ROOT, 'docs', name));
  }
  return path;
}
