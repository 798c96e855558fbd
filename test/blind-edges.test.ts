/**
 * The `blind` command and blind studies as a new user meets them: `--player-seed` (as batch names
 * it) with `--seed` its hidden older name; a study name used by a blind study and a solve study; in
 * process (test/helpers/cli.ts runInProcess).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paramsDiff } from '../src/batch/store.js';
import { expectOneLineError, expectUnchanged, runInProcess, snapshot } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-blind-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The --json game of `blind` without its time (which differs from run to run). */
async function blindJson(...args: string[]): Promise<Record<string, unknown>> {
  const r = await runInProcess(['blind', ...args, '--json']);
  expect(r.stderr).toBe('');
  const { elapsedMs: _e, cost: _c, ...g } = JSON.parse(r.stdout) as Record<string, unknown>;
  return g;
}

describe('blind --player-seed', () => {
  it('names the player seed as batch does; --seed, its older name, gives the same game', async () => {
    const a = await blindJson('SE2-5', '--player', 'sample:k=2,budget=300,escalate=0', '--player-seed', '9', '--loss-budget', '0');
    const b = await blindJson('SE2-5', '--player', 'sample:k=2,budget=300,escalate=0', '--seed', '9', '--loss-budget', '0');
    expect(a.seed).toBe(9);
    expect(b).toEqual(a);
    // the same seed under both names is one seed
    expect(await blindJson('SE2-5', '--player', 'sample:k=2,budget=300,escalate=0', '--seed', '9', '--player-seed', '9', '--loss-budget', '0')).toEqual(a);
    // the default is 1, as batch's
    expect((await blindJson('SE2-5', '--player', 'greedy', '--loss-budget', '0')).seed).toBe(1);
    const text = await runInProcess(['blind', 'SE2-5', '--player', 'greedy', '--player-seed', '4', '--loss-budget', '0']);
    expect(text.stdout.split('\n')[0]).toBe('SE2-5 (spiderette, 2 suits), played blind by greedy, player seed 4');
  });

  it('refuses two different seeds, and a bad one, in one line (exit 2)', async () => {
    expectOneLineError(
      await runInProcess(['blind', 'SE2-5', '--player', 'greedy', '--player-seed', '3', '--seed', '4']),
      /^spidersolve: options --player-seed 3 and --seed 4: --seed is an older name of --player-seed; give one seed\n$/,
    );
    expectOneLineError(await runInProcess(['blind', 'SE2-5', '--player', 'greedy', '--player-seed', '-1']), /^spidersolve: option --player-seed "-1": must be 0\.\.4294967295\n$/);
    expectOneLineError(await runInProcess(['blind', 'SE2-5', '--player', 'greedy', '--seed', 'x']), /^spidersolve: option --seed "x": not a whole number in digits \(0\.\.4294967295\)\n$/);
  });

  it('--help documents --player-seed and not the hidden --seed', async () => {
    const h = await runInProcess(['blind', '--help']);
    expect(h.status).toBe(0);
    const help = h.stdout.replace(/\s+/g, ' ');
    expect(help).toContain("--player-seed <n> the player's own random seed, 0..4294967295 (default 1), as batch --player-seed;");
    expect(help).toContain('(--seed is an older name of it)');
    expect(help).not.toMatch(/--seed <n>/);
    expect(help).toContain('--player-seed 7 --out game.html');
  });
});

describe('a study name used by a blind study and a solve study', () => {
  const NOTE = '(a new study reuses every result stored for the same deals and budget; report --pool combines studies)';
  const BLIND_NOTE = '(a new study reuses every blind game stored for the same deals, player and player seed; report --pool combines studies)';
  const batch = (db: string, ...args: string[]) => runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--workers', '1', '--db', db, '--study', 'mine', ...args]);

  it('describes the blind study by its player and player seed, not by a budget [0]', async () => {
    const db = join(dir, 'blind-first.sqlite');
    const made = await batch(db, '--seeds', '1-2', '--player', 'greedy', '--player-seed', '7');
    expect(made.status).toBe(0);
    const before = snapshot(db);
    const solve = await batch(db, '--seeds', '1-2', '--max-positions', '1000');
    expectOneLineError(solve, /^spidersolve: study "mine" exists in .*blind-first\.sqlite with other parameters: (.*)\n$/);
    expect(solve.stderr).toContain(`with other parameters: a blind study (player "greedy", player seed 7) there, a solve study (budgets [1000]) in this run; choose another --study name ${NOTE}\n`);
    expect(solve.stderr).not.toContain('[0]');
    // another player and seed: the fields that differ, named as the options are
    const other = await batch(db, '--seeds', '1-2', '--player', 'sample:k=2', '--player-seed', '8');
    expectOneLineError(other, /other parameters/);
    expect(other.stderr).toContain(`with other parameters: player "greedy" there, "sample:k=2,budget=20000,plan=prefix,escalate=2,hop=0" in this run; player seed 7 there, 8 in this run; choose another --study name ${BLIND_NOTE}\n`);
    expectUnchanged(db, before);
  });

  it('the other way round: a solve study there, a blind study in this run, and the deals that differ too', async () => {
    const db = join(dir, 'solve-first.sqlite');
    expect((await batch(db, '--seeds', '1-2', '--max-positions', '1000')).status).toBe(0);
    const before = snapshot(db);
    const blind = await batch(db, '--seeds', '1-3', '--player', 'greedy');
    expectOneLineError(blind, /other parameters/);
    expect(blind.stderr).toContain(
      `with other parameters: a solve study (budgets [1000]) there, a blind study (player "greedy", player seed 1) in this run; deals "seeds:1-2" there, "seeds:1-3" in this run; choose another --study name ${BLIND_NOTE}\n`,
    );
    expectUnchanged(db, before);
  });

  it('paramsDiff: a ladder and a blind study', () => {
    const solve = '{"game":"spider","suits":"2","deals":"seeds:1-5","budgets":[1000,10000],"untilWidth":null}';
    const blind = '{"game":"spider","suits":"2","deals":"seeds:1-5","budgets":[0],"untilWidth":null,"player":"greedy","playerSeed":3}';
    expect(paramsDiff(solve, blind)).toBe('a solve study (budgets [1000,10000]) there, a blind study (player "greedy", player seed 3) in this run');
    expect(paramsDiff(blind, blind.replace('"playerSeed":3', '"playerSeed":4'))).toBe('player seed 3 there, 4 in this run');
  });
});
