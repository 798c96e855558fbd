/**
 * `blind --out` and blind studies at their edges: the page refused over the position file played, at
 * a place that cannot be written (before the game is played) and on stdout (`-`); the "wrote" line as
 * other commands print it; in process (test/helpers/cli.ts runInProcess), on quick Spiderette deals.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { playBlind } from '../src/blind/game.js';
import { dealPosition } from '../src/game/deal.js';
import { describeMove } from '../src/game/describe.js';
import { DEAL } from '../src/game/move.js';
import { applyMove } from '../src/game/rules.js';
import { SE1 } from './helpers/game.js';
import { expectOneLineError, expectUnchanged, runInProcess, snapshot } from './helpers/cli.js';

// the real playBlind, counted: a refused --out must be refused before the game is played
vi.mock('../src/blind/game.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../src/blind/game.js')>();
  return { ...m, playBlind: vi.fn((...a: Parameters<typeof m.playBlind>) => m.playBlind(...a)) };
});

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-blind-trial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  vi.mocked(playBlind).mockClear();
});

const GREEDY = ['--player', 'greedy', '--loss-budget', '300'];

describe('blind --out', () => {
  it('refuses the position file it plays, in one line, before playing; the file is kept', async () => {
    const pos = join(dir, 'mid2.json');
    const made = await runInProcess(['show', 'SE1-16', '--format', 'position-json', '--out', pos, '--quiet']);
    expect(made.status).toBe(0);
    const before = snapshot(pos);
    const r = await runInProcess(['blind', pos, ...GREEDY, '--out', pos]);
    expectOneLineError(r, /^spidersolve: option --out ".*mid2\.json": is the position file ".*mid2\.json" this page shows; writing there would destroy it, so nothing was written: give another file name\n$/);
    expect(r.stdout).toBe('');
    expectUnchanged(pos, before);
    expect(vi.mocked(playBlind)).not.toHaveBeenCalled();
    // the same file named another way (through `..`) is the same file
    const other = join(dir, '..', dir.split('/').pop()!, 'mid2.json');
    expectOneLineError(await runInProcess(['blind', pos, ...GREEDY, '--out', other]), /is the position file .* this page shows; writing there would destroy it/);
    expectUnchanged(pos, before);
    // another name is fine, and the game is played from the file
    const page = join(dir, 'mid2.html');
    const ok = await runInProcess(['blind', pos, ...GREEDY, '--out', page]);
    expect(ok.status).toBe(3);
    expect(readFileSync(page, 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('refuses a place that cannot be written before the game is played, leaving nothing there', async () => {
    // (/sys refuses a new file even to root, whom a folder's mode does not stop)
    const r = await runInProcess(['blind', 'SE1-16', ...GREEDY, '--out', '/sys/g.html']);
    expectOneLineError(r, /^spidersolve: option --out "\/sys\/g\.html": cannot write there \(EACCES: permission denied, folder \/sys\); nothing was written\n$/);
    expect(r.stdout).toBe('');
    expect(vi.mocked(playBlind)).not.toHaveBeenCalled();
    expect(readdirSync('/sys').some((n) => n.startsWith('.spidersolve-probe'))).toBe(false);
    // missing folders under a writable one are fine (made when the page is written); the probe is gone
    const deep = join(dir, 'new', 'deeper', 'g.html');
    const ok = await runInProcess(['blind', 'SE1-16', ...GREEDY, '--out', deep]);
    expect(ok.status).toBe(3);
    expect(existsSync(deep)).toBe(true);
    expect(readdirSync(join(dir, 'new', 'deeper'))).toEqual(['g.html']);
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('refuses --out - (stdout holds the game) in one line, before playing', async () => {
    const r = await runInProcess(['blind', 'SE1-16', ...GREEDY, '--out', '-']);
    expectOneLineError(r, /^spidersolve: option --out -: blind prints the game on stdout, so the page cannot go there: give a file name for the page\n$/);
    expect(r.stdout).toBe('');
    expect(vi.mocked(playBlind)).not.toHaveBeenCalled();
  });

  it('says what it wrote on stderr as other commands do, with the text and with --json', async () => {
    const page = join(dir, 'se1-5.html');
    const text = await runInProcess(['blind', 'SE1-16', ...GREEDY, '--out', page]);
    expect(text.status).toBe(3);
    expect(text.stderr).toBe(`spidersolve: wrote ${page}: SE1-16, played blind by greedy: stuck after 34 moves\n`);
    expect(text.stdout).not.toMatch(/wrote/);
    expect(text.stdout).toMatch(/^stuck after 34 moves/m);
    const json = await runInProcess(['blind', 'SE1-16', ...GREEDY, '--out', page, '--json']);
    expect(json.status).toBe(3);
    expect(json.stderr).toBe(`spidersolve: wrote ${page}: SE1-16, played blind by greedy: stuck after 34 moves\n`);
    expect(JSON.parse(json.stdout)).toMatchObject({ code: 'SE1-16', result: 'stuck', player: 'greedy' });
  });
});

describe('batch --player --json', () => {
  it('counts the games as won, stuck and errors, as the text summary does', async () => {
    const db = join(dir, 'json.db');
    const args = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-3', '--workers', '1', '--db', db, '--player', 'greedy'];
    const r = await runInProcess([...args, '--json']);
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(s).toMatchObject({ won: 2, stuck: 1, errors: 0, ran: 3, player: 'greedy' });
    expect(s).not.toHaveProperty('lost');
    expect(s).not.toHaveProperty('undecided');
    expect((s.blind as Record<string, unknown>[])[0]).toMatchObject({ deals: 3, won: 2, stuck: 1 });
    // a solve study's summary keeps its own counts
    const solved = JSON.parse((await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--workers', '1', '--db', db, '--max-positions', '300', '--json'])).stdout) as Record<string, unknown>;
    expect(Object.keys(solved)).toEqual(expect.arrayContaining(['won', 'lost', 'undecided', 'errors']));
    expect(solved).not.toHaveProperty('stuck');
    expect((solved.won as number) + (solved.lost as number) + (solved.undecided as number)).toBe(2);
  });
});

describe('the words of a deal', () => {
  it('count the deals left after it: Spiderette\'s four deals leave 3, 2, 1 and none', () => {
    let pos = dealPosition(SE1, 5);
    const words: string[] = [];
    for (let i = 0; i < 4; i++) {
      words.push(describeMove(pos, DEAL).replace(/, turns up.*$|, completes.*$|, empties.*$/, ''));
      pos = applyMove(pos, DEAL).position;
    }
    expect(words).toEqual([
      'deal 7 cards from the stock onto columns 1-7 (3 deals left after it)',
      'deal 7 cards from the stock onto columns 1-7 (2 deals left after it)',
      'deal 7 cards from the stock onto columns 1-7 (1 deal left after it)',
      'deal 3 cards from the stock onto columns 1-3 (no deals left after it)',
    ]);
    expect(pos.stock).toEqual([]);
  });
});

describe('report: the blind play table', () => {
  it('lists rows by game, suits, study, player, seed and version, with a version column when two versions are shown', async () => {
    const db = join(dir, 'order.db');
    const batch = (...args: string[]) => runInProcess(['batch', '--game', 'spiderette', '--seeds', '1-2', '--workers', '1', '--db', db, '--player', 'greedy', ...args]);
    // stored in this order: zeta (2 suits), mid (1 suit), able (1 suit, player seed 2)
    expect((await batch('--suits', '2', '--study', 'zeta')).status).toBe(0);
    expect((await batch('--suits', '1', '--study', 'mid')).status).toBe(0);
    expect((await batch('--suits', '1', '--study', 'able', '--player-seed', '2')).status).toBe(0);
    const table = async (format: string) => (await runInProcess(['report', '--db', db, '--format', format])).stdout;
    const blindLines = (text: string) => text.slice(text.indexOf('blind play')).split('\n').filter((l) => /^\| (able|mid|zeta) |^(able|mid|zeta) /.test(l));
    const text = await table('table');
    expect(blindLines(text).map((l) => l.split(/\s+/).slice(0, 5).join(' '))).toEqual(['able spiderette 1 greedy 2', 'mid spiderette 1 greedy 1', 'zeta spiderette 2 greedy 1']);
    expect(text).not.toMatch(/^study\s+game\s+suits\s+player\s+seed\s+version/m);
    // json lists them in the same order
    const json = JSON.parse(await table('json')) as { kind?: string; study: string }[];
    expect(json.filter((r) => r.kind === 'blind').map((r) => r.study)).toEqual(['able', 'mid', 'zeta']);

    // the same games stored again under an older version: each such row is shown with its version
    const Database = (await import('better-sqlite3')).default;
    const conn = new Database(db);
    const version = (conn.prepare('SELECT DISTINCT version FROM blind_results').pluck().all() as string[])[0]!;
    const cols = (conn.pragma('table_info(blind_results)') as { name: string }[]).map((c) => c.name).filter((c) => c !== 'id' && c !== 'version');
    conn.prepare(`INSERT INTO blind_results (${cols.join(', ')}, version) SELECT ${cols.join(', ')}, 'blind-0/solver-0.0.0' FROM blind_results WHERE suits = 1 AND player_seed = 1`).run();
    conn.close();
    const two = await table('table');
    expect(two).toMatch(/^study\s+game\s+suits\s+player\s+seed\s+version\s+deals\s+won\s+stuck/m);
    expect(blindLines(two).map((l) => l.split(/\s+/).slice(0, 6).join(' '))).toEqual([
      'able spiderette 1 greedy 2 ' + version,
      'mid spiderette 1 greedy 1 blind-0/solver-0.0.0',
      'mid spiderette 1 greedy 1 ' + version,
      'zeta spiderette 2 greedy 1 ' + version,
    ]);
    const md = await table('md');
    expect(md).toContain('| study | game | suits | player | seed | version | deals | won | stuck |');
    expect(blindLines(md)[1]).toMatch(/^\| mid \| spiderette \| 1 \| greedy \| 1 \| blind-0\/solver-0\.0\.0 \| 2 \|/);
    const html = await table('html');
    // names left-aligned (class "l"), the seed right-aligned as a figure
    expect(html).toMatch(/<th scope="col">seed<\/th><th class="l" scope="col">version<\/th><th scope="col">deals<\/th>/);
    expect(html).toContain('<td class="l">blind-0/solver-0.0.0</td>');
  });
});
