/**
 * The `blind` command and blind studies as a new user meets them: `--player-seed` (as batch names
 * it) with `--seed` its hidden older name; in process (test/helpers/cli.ts runInProcess).
 */
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runInProcess } from './helpers/cli.js';

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
