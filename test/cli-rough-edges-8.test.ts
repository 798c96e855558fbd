/**
 * Rough edges of the command line, in process: a deal read from a position file is named in a
 * command's head line by the path the user gave, not by the explicit code of its position (some 70
 * characters), in `solve` and `blind`; a deal code keeps its canonical form (`se4-7` is `SE4-7`).
 * The HTML report's head line counts the blind games and studies beside the solves' deals.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOLVER_VERSION } from '../src/solver/types.js';
import { runInProcess } from './helpers/cli.js';

let dir: string;
let file: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough8-'));
  file = join(dir, 'se4-7.txt');
  const shown = await runInProcess(['show', 'SE4-7', '--format', 'position']);
  expect(shown.status).toBe(0);
  writeFileSync(file, shown.stdout);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a position file is named by its path in head lines', () => {
  it('solve: the file path, with the game, then the answer', async () => {
    const r = await runInProcess(['solve', file, '--max-positions', '1000']);
    expect(r.status).toBe(4);
    expect(r.stdout.split('\n')[0]).toBe(`${file} (spiderette, 4 suits): undecided: the position budget ran out before a win or a proof`);
  });

  it('solve: a deal code typed in lower case is shown in its canonical form', async () => {
    const r = await runInProcess(['solve', 'se4-7', '--max-positions', '1000']);
    expect(r.stdout.split('\n')[0]).toBe('SE4-7 (spiderette, 4 suits): undecided: the position budget ran out before a win or a proof');
  });

  it('blind: the game is titled by the file path', async () => {
    const r = await runInProcess(['blind', file, '--player', 'greedy', '--loss-budget', '0']);
    expect(r.stdout.split('\n')[0]).toContain(`${file} (spiderette, 4 suits)`);
    expect(r.stdout).not.toContain('SE4X-');
  });
});

describe('the HTML report counts blind studies in its head line', () => {
  it('a solve study of 2 deals and a blind study of 3 games: both counted', async () => {
    const db = join(dir, 'both.sqlite');
    expect((await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--max-positions', '2000', '--workers', '1', '--db', db, '--study', 's'])).status).toBe(0);
    expect((await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-3', '--player', 'greedy', '--workers', '1', '--db', db, '--study', 'b'])).status).toBe(0);
    const out = join(dir, 'both.html');
    expect((await runInProcess(['report', '--db', db, '--out', out, '--quiet'])).status).toBe(0);
    const meta = /<p class="meta">([^<]*)<\/p>/.exec(readFileSync(out, 'utf8'))![1];
    expect(meta).toBe(`2 deals counted by 1 study and 3 blind games of 1 blind study in ${db} (every study), solver ${SOLVER_VERSION}.`);
    // the blind study alone: no "0 deals counted by 0 studies"
    const only = join(dir, 'blind-only.html');
    expect((await runInProcess(['report', '--db', db, '--study', 'b', '--out', only, '--quiet'])).status).toBe(0);
    expect(/<p class="meta">([^<]*)<\/p>/.exec(readFileSync(only, 'utf8'))![1]).toBe(`3 blind games of 1 blind study in ${db} (study b).`);
    // pooled, with a second blind study of another player seed: each kind counts its own studies
    expect((await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-3', '--player', 'greedy', '--player-seed', '2', '--workers', '1', '--db', db, '--study', 'c'])).status).toBe(0);
    const pooled = join(dir, 'pooled.html');
    expect((await runInProcess(['report', '--db', db, '--pool', '--out', pooled, '--quiet'])).status).toBe(0);
    expect(/<p class="meta">([^<]*)<\/p>/.exec(readFileSync(pooled, 'utf8'))![1]).toBe(`2 deals counted by 1 study and 6 blind games of 2 blind studies in ${db} (every study pooled), solver ${SOLVER_VERSION}.`);
  });
});

describe('--out never puts a page, report or export over a position file', () => {
  it('blind, report and show --json refuse a position file (exit 2, untouched); show --format position replaces it', async () => {
    const p = join(dir, 'typed.txt');
    const text = readFileSync(file, 'utf8');
    writeFileSync(p, text);
    const refused = "is a position file (a deal may have been written there by hand); writing this output there would destroy it, so nothing was written: give another file name, or remove that file first\n";
    const blind = await runInProcess(['blind', 'SE1-2', '--player', 'greedy', '--loss-budget', '0', '--out', p]);
    expect([blind.status, blind.stderr]).toEqual([2, `spidersolve: option --out "${p}": ${refused}`]);
    const db = join(dir, 'one.sqlite');
    expect((await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1', '--max-positions', '500', '--workers', '1', '--db', db, '--quiet'])).status).toBe(0);
    const report = await runInProcess(['report', '--db', db, '--out', p]);
    expect(report.status).toBe(2);
    expect(report.stderr).toContain(refused);
    const json = await runInProcess(['show', 'SE4-7', '--json', '--out', p]);
    expect(json.status).toBe(2);
    expect(readFileSync(p, 'utf8')).toBe(text);
    const again = await runInProcess(['show', 'SE1-2', '--format', 'position', '--out', p, '--quiet']);
    expect(again.status).toBe(0);
    expect(readFileSync(p, 'utf8')).toContain('source: SE1-2');
  });
});

describe('standard input as - is named "- (standard input)" in head lines too', () => {
  it('solve, show and show --json say - (standard input), not /dev/stdin; its source path stays /dev/stdin', async () => {
    const stdin = readFileSync(file, 'utf8');
    const solved = await runInProcess(['solve', '-', '--max-positions', '1000'], { stdin });
    expect(solved.stdout.split('\n')[0]).toBe('- (standard input) (spiderette, 4 suits): undecided: the position budget ran out before a win or a proof');
    const shown = await runInProcess(['show', '-'], { stdin });
    expect(shown.stdout.split('\n')[0]).toBe('position file - (standard input) (spiderette, 4 suits)');
    const json = JSON.parse((await runInProcess(['show', '-', '--json'], { stdin })).stdout) as { label: string; source: { path: string } };
    expect([json.label, json.source.path]).toEqual(['- (standard input)', '/dev/stdin']);
  });
});
