/**
 * Blind play (src/blind): what a player sees, the no-peeking property, replay of a blind game through
 * the rules engine, determinism, a deal won blind, player specs, and the `blind` command in process.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { playBlind, type BlindGame } from '../src/blind/game.js';
import { findLoss, replayPositions } from '../src/blind/loss.js';
import { solve } from '../src/solver/solve.js';
import { completion, hiddenCount, observe, observedMoves, revealsCard, unseenList } from '../src/blind/observation.js';
import { parsePlayerSpec, SAMPLE_DEFAULTS, specText, type PlayerSpec } from '../src/blind/players/index.js';
import { buildProgram, runProgram } from '../src/cli/main.js';
import { makeCard, parseCard } from '../src/game/cards.js';
import { dealPosition } from '../src/game/deal.js';
import { InputError } from '../src/game/errors.js';
import { legalMoves } from '../src/game/rules.js';
import type { Position } from '../src/game/position.js';
import { playLine } from '../src/game/score.js';
import { pos, run, SE1, SE2, SE4, SP4 } from './helpers/game.js';

/** A deal that looks the same to a player as `p`: the same visible cards, the hidden ones reordered by `perm`. */
function twin(p: Position, perm: readonly number[]): Position {
  const obs = observe(p);
  const hidden = [...p.columns.flatMap((c) => c.down), ...p.stock.flat()];
  return completion(obs, perm.map((i) => hidden[i]!));
}

/** A random permutation of 0..n-1 from fast-check (a sort by random keys). */
function permArb(n: number) {
  return fc.array(fc.integer(), { minLength: n, maxLength: n }).map((keys) => keys.map((k, i) => [k, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]));
}

/** Index of the first move whose turned-up cards differ between two games (or the shorter length). */
function firstDifference(a: BlindGame, b: BlindGame): number {
  const n = Math.min(a.steps.length, b.steps.length);
  for (let i = 0; i < n; i++) {
    if (JSON.stringify(a.steps[i]!.turnedUp) !== JSON.stringify(b.steps[i]!.turnedUp)) return i;
  }
  return n;
}

const SMALL_SAMPLE: PlayerSpec = { name: 'sample', k: 2, budget: 300, plan: 'prefix', escalate: 0, hop: 0, eval: 'win', endhop: 0, endk: 0, stretch: 20 };

describe('observation (what a blind player sees, R18)', () => {
  it('holds the face-up cards and counts only; the unseen cards are the deck less the face-up ones', () => {
    const p = dealPosition(SE4, 7);
    const o = observe(p);
    expect(o.columns.map((c) => c.down)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(o.columns.map((c) => c.up)).toEqual(p.columns.map((c) => c.up));
    expect(o.stockDeals).toEqual([7, 7, 7, 3]);
    // Spiderette four suits: one deck; 7 cards face up, 45 unseen, one of each card less the face-up ones
    expect(unseenList(o)).toHaveLength(45);
    expect(hiddenCount(o)).toBe(45);
    for (const c of p.columns.map((c) => c.up[0]!)) expect(o.unseen[c]).toBe(0);
    // no hidden card value anywhere in the observation: down is a number, the stock a size
    expect(JSON.stringify(o)).not.toContain('"stock"');
  });
  it('its legal moves are the rules engine\'s on the true position (R6-R12), whatever is hidden', () => {
    for (const seed of [1, 2, 3]) {
      const p = dealPosition(SP4, seed);
      expect(observedMoves(observe(p))).toEqual(legalMoves(p));
    }
  });
  it('R12: no deal while a column is empty, seen from the observation alone', () => {
    const p = pos(SE1, ['', [['AS'], ['KS']], [[], ['QS']], [[], ['JS']], [[], ['10S']], [[], ['9S']], [[], ['8S']]], [run('S', 1, 7).split(' ')], [0, 0]);
    const moves = observedMoves(observe(p));
    expect(moves.some((m) => m.kind === 'deal')).toBe(false);
    expect(moves.length).toBeGreaterThan(0);
  });
  it('revealsCard: a move that leaves face-down cards bare turns one up (R11); a deal always does', () => {
    const p = dealPosition(SE4, 7);
    const o = observe(p);
    for (const m of observedMoves(o)) {
      if (m.kind === 'deal') expect(revealsCard(o, m)).toBe(true);
      else expect(revealsCard(o, m)).toBe(o.columns[m.from]!.down > 0 && o.columns[m.from]!.up.length === m.count);
    }
  });
});

describe('no peeking: deals that look the same get the same moves until a differing card turns up', () => {
  const check = (variant: typeof SE4, spec: PlayerSpec, runs: number, maxMoves: number) =>
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100000 }), fc.integer({ min: 0, max: 1000 }), permArb(variant === SE4 || variant === SE2 || variant === SE1 ? 45 : 94), (seed, playerSeed, perm) => {
        const a = dealPosition(variant, seed);
        const b = twin(a, perm);
        const ga = playBlind(a, spec, playerSeed, { maxMoves });
        const gb = playBlind(b, spec, playerSeed, { maxMoves });
        const d = firstDifference(ga, gb);
        // the moves up to and including the first one that turned up different cards are the same
        const n = Math.min(d + 1, ga.line.length, gb.line.length);
        expect(gb.line.slice(0, n)).toEqual(ga.line.slice(0, n));
        if (d === Math.min(ga.steps.length, gb.steps.length) && ga.steps.length === gb.steps.length) expect(gb.line).toEqual(ga.line);
      }),
      { numRuns: runs, seed: 42 },
    );
  it('greedy, four-suit Spiderette', () => check(SE4, { name: 'greedy' }, 40, 1000));
  it('greedy, four-suit Spider', () => check(SP4, { name: 'greedy' }, 15, 1000));
  it('sample at a tiny budget, two-suit Spiderette', () => check(SE2, SMALL_SAMPLE, 5, 30));
  it('sample voting on progress lines at a tiny budget, two-suit Spiderette', () => check(SE2, { ...SMALL_SAMPLE, eval: 'progress' } as PlayerSpec, 5, 30));
  it('sample with the HOP check at a tiny budget, one-suit Spiderette', () => check(SE1, { ...SMALL_SAMPLE, k: 3, hop: 2 } as PlayerSpec, 3, 20));
});

describe('a blind game', () => {
  it('replays through the rules engine to its recorded end', () => {
    for (const [variant, seed, spec] of [[SE4, 5, { name: 'greedy' }], [SE1, 3, SMALL_SAMPLE], [SP4, 11, { name: 'greedy' }]] as const) {
      const start = dealPosition(variant, seed);
      const g = playBlind(start, spec as PlayerSpec, 9);
      const r = playLine(start, g.line);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      expect(r.value.won).toBe(g.result === 'won');
      expect(r.value.position.removed.length).toBe(g.completed);
      expect(r.value.position.columns.map((c) => c.down.length)).toEqual(g.faceDown.map((c) => c.length));
      expect(r.value.position.stock.length).toBe(g.stock.length);
      // every card turned up is named: the flips and the dealt cards
      const dealt = g.steps.filter((s) => s.move === 'd').reduce((n, s) => n + s.turnedUp.length, 0);
      const flips = g.steps.reduce((n, s) => n + s.turnedUp.length, 0) - dealt;
      expect(flips).toBe(r.value.flips);
    }
  });
  it('is the same game for the same deal, player, parameters and seed', () => {
    const start = dealPosition(SE2, 21);
    const strip = (g: BlindGame) => ({ ...g, elapsedMs: 0 });
    expect(strip(playBlind(start, SMALL_SAMPLE, 4))).toEqual(strip(playBlind(start, SMALL_SAMPLE, 4)));
    expect(strip(playBlind(start, { name: 'greedy' }, 4))).toEqual(strip(playBlind(start, { name: 'greedy' }, 4)));
  });
  it('a deal with every card face up is won blind, by both players', () => {
    // Spiderette one suit, two suits removed, the rest face up in three columns and no stock (R5, R14)
    const p = pos(SE1, [[[], run('S', 7, 13)], [[], run('S', 1, 6)], [[], run('S', 5, 13)], [[], run('S', 1, 4)], '', '', ''], [], [0, 0]);
    for (const spec of [{ name: 'greedy' }, SMALL_SAMPLE] as const) {
      const g = playBlind(p, spec as PlayerSpec, 1);
      expect(g.result).toBe('won');
      expect(g.completed).toBe(4);
      expect(g.line).toHaveLength(2);
    }
  });
  it('a stuck game ends with the player having no move; the cards left face down are named', () => {
    // one-suit Spiderette, three suits removed: no face-up card is one rank below another and the
    // stock is empty, so nothing can move whatever lies face down: stuck at once
    const p = pos(SE1, [[[], ['KS']], [['QS'], ['JS']], [['10S'], ['9S']], [['8S'], ['7S']], [['6S'], ['5S']], [['4S'], ['3S']], [['2S'], ['AS']]], [], [0, 0, 0]);
    const g = playBlind(p, { name: 'greedy' }, 1);
    expect(g).toMatchObject({ result: 'stuck', stuckReason: 'no move', completed: 3, line: [] });
    expect(g.faceDown).toEqual([[], ['QS'], ['10S'], ['8S'], ['6S'], ['4S'], ['2S']]);
    // sample: every completion is proven lost (R19), so no escalation: k solves, then greedy's answer
    // (none, so no move is counted as a fallback)
    const s = playBlind(p, { name: 'sample', k: 3, budget: 1000, plan: 'prefix', escalate: 2, hop: 0, eval: 'win', endhop: 0, endk: 0, stretch: 20 }, 1);
    expect(s).toMatchObject({ result: 'stuck', stuckReason: 'no move', work: { solves: 3, plans: 1, fallbacks: 0 } });
  });
  it('findLoss: the last position from which a perfect-information win existed (R18, R19)', () => {
    const start = dealPosition(SE2, 5);
    const g = playBlind(start, { name: 'greedy' }, 1);
    expect(g.result).toBe('stuck');
    const loss = findLoss(start, g.line, 100_000);
    expect(loss.lastWinnable).not.toBeNull();
    const at = replayPositions(start, g.line);
    const L = loss.lastWinnable!;
    expect(solve(at[L]!, { maxPositions: 100_000 }).status).toBe('won');
    expect(solve(at[L + 1]!, { maxPositions: 100_000 }).status).toBe(loss.exact ? 'lost' : 'undecided');
    // a won game lost nothing, and no solve is run
    const won = pos(SE1, [[[], run('S', 3, 13)], [[], ['2S']], [[], ['AS']], '', '', '', ''], [], [0, 0, 0]);
    expect(findLoss(won, ['2-1', '3-1'], 1000)).toEqual({ lastWinnable: null, exact: true, budget: 1000, solves: 0, positions: 0 });
  });
});

describe('player specs', () => {
  it('parse with defaults and write one canonical text', () => {
    expect(parsePlayerSpec('greedy')).toEqual({ name: 'greedy' });
    expect(parsePlayerSpec('sample')).toEqual({ name: 'sample', ...SAMPLE_DEFAULTS });
    expect(parsePlayerSpec(' Sample:budget=5000 , k=3')).toEqual({ name: 'sample', ...SAMPLE_DEFAULTS, k: 3, budget: 5000 });
    expect(specText(parsePlayerSpec('sample:plan=move,escalate=0,k=4,budget=1000'))).toBe('sample:k=4,budget=1000,plan=move,escalate=0,hop=0,eval=progress,endhop=3');
    expect(specText(parsePlayerSpec('sample'))).toBe(`sample:k=${SAMPLE_DEFAULTS.k},budget=${SAMPLE_DEFAULTS.budget},plan=prefix,escalate=${SAMPLE_DEFAULTS.escalate},hop=${SAMPLE_DEFAULTS.hop},eval=${SAMPLE_DEFAULTS.eval},endhop=${SAMPLE_DEFAULTS.endhop}`);
  });
  it.each([
    ['nope', 'player "nope": unknown player "nope"; use greedy or sample[:k=N,budget=N,plan=prefix|move,escalate=N,hop=N,eval=progress|win,endhop=N,endk=N,stretch=N]'],
    ['sample:k=0', 'player "sample:k=0": k "0": must be 1..1000'],
    ['sample:k=abc', 'player "sample:k=abc": k "abc": not a whole number in digits (1..1000)'],
    ['sample:budget=99', 'player "sample:budget=99": budget "99": must be 100..10000000'],
    ['sample:k=2,k=3', 'player "sample:k=2,k=3": parameter "k" given twice'],
    ['sample:depth=3', 'player "sample:depth=3": sample takes k, budget, plan, escalate, hop, eval, endhop, endk and stretch, not "depth"'],
    ['sample:k', 'player "sample:k": parameter "k" is not key=value'],
    ['sample:', 'player "sample:": nothing after the colon; give key=value parameters or drop the colon'],
    ['sample:plan=all', 'player "sample:plan=all": plan "all": use prefix or move'],
    ['greedy:k=2', 'player "greedy:k=2": greedy takes no parameters (got "k")'],
    ['sample k=8', 'player "sample k=8": unknown player "sample k=8"; a colon goes between the player and its parameters (sample:k=8)'],
    ['sample,budget=500', 'player "sample,budget=500": unknown player "sample,budget=500"; a colon goes between the player and its parameters (sample:budget=500)'],
    ['greedy k=2', 'player "greedy k=2": greedy takes no parameters (got "k=2"); write greedy'],
    ['sample:budget=1,000', 'player "sample:budget=1,000": parameter "budget=1,000": write numbers without thousands separators (budget=1000); commas separate parameters'],
    ['sample:k=8,budget=1,000,000,hop=1', 'player "sample:k=8,budget=1,000,000,hop=1": parameter "budget=1,000,000": write numbers without thousands separators (budget=1000000); commas separate parameters'],
    ['greedy,', 'player "greedy,": a stray "," after the player\'s name; write greedy'],
    [' ', 'player " ": empty; give greedy or sample[:key=value,…]'],
    ['sample ;', 'player "sample ;": a stray ";" after the player\'s name; write sample or sample:key=value,…'],
    ['sample:k=8 budget=1000', 'player "sample:k=8 budget=1000": parameter "k=8 budget=1000" holds two; separate key=value parameters with commas'],
  ])('%s is refused in one line', (text, message) => {
    let e: unknown;
    try {
      parsePlayerSpec(text);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).code).toBe('bad-option');
    expect((e as InputError).message).toBe(message);
  });
});

describe('the blind command, in process', () => {
  async function blind(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await runProgram(buildProgram(), ['blind', ...args]);
      return { code, out: out.mock.calls.map((c) => String(c[0])).join(''), err: err.mock.calls.map((c) => String(c[0])).join('') };
    } finally {
      out.mockRestore();
      err.mockRestore();
      process.exitCode = undefined;
    }
  }
  it('prints each move with the cards it turned up, and the end; --json gives the same game', async () => {
    const text = await blind('SE4-5', '--player', 'greedy', '--loss-budget', '1000');
    const j = await blind('SE4-5', '--player', 'greedy', '--json', '--loss-budget', '0');
    const g = JSON.parse(j.out);
    expect(g.player).toBe('greedy');
    expect(text.code).toBe(g.result === 'won' ? 0 : 3);
    const lines = text.out.split('\n');
    expect(lines[0]).toBe('SE4-5 (spiderette, 4 suits), played blind by greedy, player seed 1');
    expect(lines[1]).toContain(`1. ${g.steps[0].move}`);
    if (g.steps[0].turnedUp.length) expect(lines[1]).toContain(`: ${g.steps[0].turnedUp.map((t: { card: string }) => makeCard(parseCard(t.card)!, true)).join(' ')}`);
    expect(text.out).toContain(g.result === 'won' ? 'won in' : `${g.completed} of 4 suits completed`);
  });
  it('--out writes the viewer page: the player\'s view, the move where the deal was lost marked', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'spidersolve-blind-')), 'game.html');
    const r = await blind('SE2-5', '--player', 'greedy', '--loss-budget', '100000', '--out', out);
    expect(r.code).toBe(3);
    expect(r.out).toContain('the deal was lost at move 31: a perfect-information win existed before it and none after it (proven');
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('Played blind by greedy (player seed 1)');
    expect(html).toContain('data-verdict="line"');
    expect(html).toContain('(the deal was lost here)');
    // face-down cards start hidden; the page's toggle shows them
    expect(html).toContain('<input id="reveal" type="checkbox">');
  });
  it('bad player spec and seed: exit 2, one line', async () => {
    expect(await blind('SE4-5', '--player', 'sample:k=0')).toMatchObject({ code: 2, out: '', err: 'spidersolve: player "sample:k=0": k "0": must be 1..1000\n' });
    expect(await blind('SE4-5', '--player', 'greedy', '--seed', '-1')).toMatchObject({ code: 2, out: '' });
  });
});
