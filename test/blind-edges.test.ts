/**
 * The `blind` command and blind studies as a new user meets them: `--player-seed` (as batch names
 * it) with `--seed` its hidden older name; a study name used by a blind study and a solve study; where
 * a game was lost when that is its last move or no move at all; the cost line with the loss search's
 * solves; shell completion of --player; the blind chart of the HTML report at a phone's, a tablet's
 * and a desktop's size; in process (test/helpers/cli.ts
 * runInProcess).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paramsDiff } from '../src/batch/store.js';
import { playBlind } from '../src/blind/game.js';
import { findLoss, replayPositions } from '../src/blind/loss.js';
import { PLAYER_NAMES } from '../src/blind/players/index.js';
import { lossText } from '../src/cli/blind.js';
import { completionCommands, completionScript } from '../src/cli/completion.js';
import { buildProgram } from '../src/cli/main.js';
import { dealPosition } from '../src/game/deal.js';
import { solve } from '../src/solver/solve.js';
import { SE1, SE2 } from './helpers/game.js';
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
    expectOneLineError(await runInProcess(['blind', 'SE2-5', '--player', 'greedy', '--player-seed', '-1']), /^spidersolve: option --player-seed "-1": a sign is not taken; write the number in digits alone \(0\.\.4294967295\)\n$/);
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
    expect(other.stderr).toContain(`with other parameters: player "greedy" there, "sample:k=2,budget=20000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3" in this run; player seed 7 there, 8 in this run; choose another --study name ${BLIND_NOTE}\n`);
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

describe('where a blind game was lost, at its last move', () => {
  /** The `blind` line on where the deal was lost (the one before the cost line) and the game's moves. */
  async function lossLine(code: string, budget: number): Promise<{ line: string; moves: number }> {
    const r = await runInProcess(['blind', code, '--player', 'greedy', '--loss-budget', String(budget)]);
    expect(r.status).toBe(3);
    const lines = r.stdout.trimEnd().split('\n');
    const j = JSON.parse((await runInProcess(['blind', code, '--player', 'greedy', '--loss-budget', String(budget), '--json'])).stdout) as { steps: unknown[] };
    return { line: lines.find((l) => /^(the deal was|where the deal)/.test(l))!, moves: j.steps.length };
  }

  it('the end itself winnable (greedy stopped with a win left): not lost by a move, findLoss answers the end', async () => {
    // SE1-16: greedy stops after 34 moves, where the solver still wins
    const start = dealPosition(SE1, 16);
    const g = playBlind(start, { name: 'greedy' }, 1);
    expect([g.result, g.line.length]).toEqual(['stuck', 34]);
    const end = replayPositions(start, g.line)[34]!;
    expect(solve(end, { maxPositions: 5000 }).status).toBe('won');
    expect(findLoss(start, g.line, 5000)).toMatchObject({ lastWinnable: 34, exact: true });
    // a game of no moves from a winnable start: the end is the start
    expect(findLoss(start, [], 5000)).toMatchObject({ lastWinnable: 0, exact: true, solves: 1 });
    expect(await lossLine('SE1-16', 5000)).toEqual({
      line: 'the deal was not lost by a move: the player stopped after move 34, the last, where a perfect-information win still existed (proven, 5,000 positions a solve)',
      moves: 34,
    });
    const out = join(dir, 'se1-16.html');
    await runInProcess(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '5000', '--out', out]);
    expect(readFileSync(out, 'utf8')).toContain('(the player stopped here; a win still existed)');
  });

  it('the last move, unproven: that move or the stopping after it, not "or later"', async () => {
    // SE2-28: 33 moves; a win before the 33rd, the end undecided at 5,000 positions
    const start = dealPosition(SE2, 28);
    const g = playBlind(start, { name: 'greedy' }, 1);
    expect(g.line).toHaveLength(33);
    expect(findLoss(start, g.line, 5000)).toMatchObject({ lastWinnable: 32, exact: false });
    expect(await lossLine('SE2-28', 5000)).toEqual({
      line: 'the deal was lost at move 33 (the last move) or by stopping after it: a perfect-information win existed before move 33; after it none was found within 5,000 positions (unproven)',
      moves: 33,
    });
    const out = join(dir, 'se2-28.html');
    await runInProcess(['blind', 'SE2-28', '--player', 'greedy', '--loss-budget', '5000', '--out', out]);
    expect(readFileSync(out, 'utf8')).toContain('(the deal was lost here or by stopping after it)');
  });

  it('a move before the last, unproven: "or later" (later moves exist)', async () => {
    expect(await lossLine('SE2-2', 5000)).toEqual({
      line: 'the deal was lost at move 5 or later: a perfect-information win existed before move 5; after it none was found within 5,000 positions (unproven)',
      moves: 28,
    });
  });

  it('the last move, proven: says it is the last', () => {
    const g = playBlind(dealPosition(SE1, 38), { name: 'greedy' }, 1);
    expect(g.line).toHaveLength(39);
    expect(lossText(g, { lastWinnable: 38, exact: true, budget: 1000, solves: 5, positions: 900 })).toBe(
      'the deal was lost at move 39 (the last move): a perfect-information win existed before it and none after it (proven, 1,000 positions a solve)',
    );
    expect(lossText(g, { lastWinnable: 37, exact: true, budget: 1000, solves: 5, positions: 900 })).toBe(
      'the deal was lost at move 38: a perfect-information win existed before it and none after it (proven, 1,000 positions a solve)',
    );
    expect(lossText({ ...g, steps: [], line: [] }, { lastWinnable: 0, exact: true, budget: 1000, solves: 1, positions: 9 })).toBe(
      'the deal was not lost by a move: the player stopped at the start, where a perfect-information win still existed (proven, 1,000 positions a solve)',
    );
  });
});

describe('the cost line counts the solves that found where the deal was lost', () => {
  type Json = { elapsedMs: number; work: { solves: number; positions: number }; loss: { solves: number; positions: number; elapsedMs: number } | null; cost: Record<string, number> };
  async function both(...args: string[]): Promise<{ cost: string; j: Json }> {
    const t = await runInProcess(['blind', ...args]);
    const j = JSON.parse((await runInProcess(['blind', ...args, '--json'])).stdout) as Json;
    return { cost: t.stdout.split('\n').find((l) => l.startsWith('cost: '))!, j };
  }

  it('greedy runs no solve of its own: every solve is the loss search\'s, in the text and in --json', async () => {
    const { cost, j } = await both('SE1-38', '--player', 'greedy', '--loss-budget', '5000');
    expect(cost).toMatch(/^cost: \d+\.\d s; 8 solves, 308 positions \(of these, finding where the deal was lost: \d+\.\d s, 8 solves, 308 positions\)$/);
    expect(j.work).toMatchObject({ solves: 0, positions: 0 });
    expect(j.loss).toMatchObject({ solves: 8, positions: 308 });
    expect(j.cost).toMatchObject({ solves: 8, positions: 308, lossSolves: 8, lossPositions: 308, lossElapsedMs: j.loss!.elapsedMs });
    expect(j.cost.elapsedMs).toBeCloseTo(j.elapsedMs + j.loss!.elapsedMs, 0);
  });

  it('the sample player\'s solves and the loss search\'s add up; with --loss-budget 0 there is no share', async () => {
    const { cost, j } = await both('SE2-5', '--player', 'sample:k=2,budget=500,eval=win,escalate=2,endhop=0', '--loss-budget', '20000');
    expect(j.work).toMatchObject({ solves: 60, positions: 66_414 });
    expect(j.loss).toMatchObject({ solves: 8, positions: 362 });
    expect(j.cost).toMatchObject({ solves: 68, positions: 66_776, lossSolves: 8, lossPositions: 362 });
    expect(cost).toMatch(/^cost: \d+\.\d s; 68 solves, 66,776 positions \(of these, finding where the deal was lost: \d+\.\d s, 8 solves, 362 positions\); 20 votes held, 1 move played by the greedy fallback \(without a vote\)$/);
    const none = await both('SE2-5', '--player', 'sample:k=2,budget=500,eval=win,escalate=2,endhop=0', '--loss-budget', '0');
    expect(none.j.loss).toBeNull();
    expect(none.j.cost).toMatchObject({ solves: 60, positions: 66_414, lossSolves: 0, lossPositions: 0, lossElapsedMs: 0 });
    expect(none.cost).toMatch(/^cost: \d+\.\d s; 60 solves, 66,414 positions; 20 votes held, 1 move played by the greedy fallback \(without a vote\)$/);
  });
});

describe('shell completion of --player', () => {
  it('offers the players\' names after --player in blind and batch, and --player-seed but not the hidden --seed', async () => {
    expect([...PLAYER_NAMES]).toEqual(['greedy', 'sample']);
    const program = buildProgram();
    const cmds = completionCommands(program);
    for (const name of ['blind', 'batch']) {
      const player = cmds.find((c) => c.name === name)!.options.find((o) => o.long === '--player')!;
      expect(player).toMatchObject({ takesValue: true, values: ['greedy', 'sample'] });
      expect(cmds.find((c) => c.name === name)!.options.find((o) => o.long === '--player-seed')).toMatchObject({ takesValue: true, values: null });
    }
    expect(cmds.find((c) => c.name === 'blind')!.options.map((o) => o.long)).not.toContain('--seed');
    const bash = completionScript(program, 'bash');
    expect(bash.match(/ {10}--player\) COMPREPLY=\(\$\(compgen -W 'greedy sample' -- "\$cur"\)\); return ;;/g)).toHaveLength(2);
    expect(completionScript(program, 'zsh')).toMatch(/'--player\[blind player\]:player:\(greedy sample\)'/);
    const fish = completionScript(program, 'fish');
    expect(fish).toContain("complete -c spidersolve -n '__fish_seen_subcommand_from blind' -l player -x -a 'greedy sample' -d 'blind player'");
    expect(fish).toContain("complete -c spidersolve -n '__fish_seen_subcommand_from batch' -l player -x -a 'greedy sample'");
    // through the command, as a user sources it
    expect((await runInProcess(['completion', 'bash'])).stdout).toBe(bash);
  });
});

describe('the blind chart of the HTML report at three sizes', () => {
  it('draws it at a phone\'s, a tablet\'s and a desktop\'s width, as the solve charts are, labels fitted to each', async () => {
    const db = join(dir, 'chart.sqlite');
    const study = 'a-rather-long-blind-study-name';
    expect((await runInProcess(['batch', '--game', 'spiderette', '--suits', '1,2', '--seeds', '1-4', '--player', 'greedy', '--workers', '1', '--db', db, '--study', study])).status).toBe(0);
    const out = join(dir, 'chart.html');
    const wrote = await runInProcess(['report', '--db', db, '--format', 'html', '--out', out]);
    expect(wrote.status).toBe(0);
    // the "wrote" line counts the blind rows the page holds (one a suit count): no "0 rows"
    expect(wrote.stderr).toBe(`spidersolve: wrote ${out}: HTML report, 2 blind rows\n`);
    const html = readFileSync(out, 'utf8');
    const figure = /<figure data-chart="blind-rate">[\s\S]*?<\/figure>/.exec(html)![0];
    const svgs = [...figure.matchAll(/<div class="v-(\w+)" data-layout="\1">(<svg[^>]* width="([\d.]+)" height="[\d.]+"[\s\S]*?<\/svg>)<\/div>/g)].map((m) => ({ layout: m[1], svg: m[2]!, width: Number(m[3]) }));
    expect(svgs.map((v) => v.layout)).toEqual(['narrow', 'medium', 'wide']);
    // widths as the solve charts' plots (charts.ts DIMS: 170, 460, 800 px) with the row labels beside them:
    // the phone's fits its 348 px inside the page's margins
    const [narrow, medium, wide] = svgs as [typeof svgs[0], typeof svgs[0], typeof svgs[0]];
    expect(narrow.width).toBeLessThanOrEqual(348);
    expect(medium.width).toBeGreaterThan(narrow.width + 250);
    expect(wide.width).toBeGreaterThan(medium.width + 300);
    const spans = (svg: string) => [...svg.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]);
    // the phone's: the study's name cut in the middle, the axis title on two lines
    expect(spans(narrow.svg)).toEqual(expect.arrayContaining(['a-rather-lon…d-study-name', 'spiderette 1 suit, greedy', 'win rate', '(95% Wilson interval)']));
    for (const v of [medium, wide]) {
      expect(spans(v.svg)).toEqual(expect.arrayContaining([study, 'spiderette 1 suit, greedy', 'spiderette 2 suits, greedy']));
      expect(v.svg).toContain('>win rate (95% Wilson interval)</text>');
    }
    // --format vega gives the medium one
    const vega = JSON.parse((await runInProcess(['report', '--db', db, '--format', 'vega'])).stdout) as { charts: { id: string; spec: { width: number } }[] };
    expect(vega.charts.find((c) => c.id === 'blind-rate')!.spec.width).toBe(460);
  });
});
