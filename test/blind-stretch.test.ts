/**
 * The greedy stretch (players' version 4): the greedy player deals, or fills an empty column for the
 * deal, once it has gone its limit of moves without turning a card up (greedy.ts createGreedy's
 * idleLimit); the sample player's greedy fallback has the limit `stretch` (default 20), greedy alone
 * its IDLE_LIMIT of 200.
 */
import { describe, expect, it } from 'vitest';
import { playBlind } from '../src/blind/game.js';
import { observe } from '../src/blind/observation.js';
import { createGreedy, IDLE_LIMIT } from '../src/blind/players/greedy.js';
import { parsePlayerSpec, SAMPLE_DEFAULTS, specText } from '../src/blind/players/index.js';
import { BLIND_VERSION } from '../src/blind/version.js';
import { noMoveText } from '../src/cli/blind.js';
import { applyMove } from '../src/game/rules.js';
import { InputError } from '../src/game/errors.js';
import { dealPosition } from '../src/game/deal.js';
import { runInProcess } from './helpers/cli.js';
import { D, M, pos, SE1, SE4 } from './helpers/game.js';

/**
 * Three in-suit builds that turn up no card (8H onto 9H, 8D onto 9D, 4H onto 5H: each group leaves a
 * face-up card behind), every column filled, a deal in the stock (R12 allows it).
 */
const BUILDS = pos(
  SE4,
  [['2C', '9S 8H'], ['3C', '9H'], ['4C', '9C 8D'], ['5C', '9D'], ['6C', '5S 4H'], ['7C', '5H'], ['', 'KS']],
  ['AS AH AD AC 2S 2H 2D'],
);

describe('the greedy stretch', () => {
  it('greedy plays its in-suit builds, then deals once it has gone its limit of moves without a card turned up (R12)', () => {
    const play = (limit?: number) => {
      const g = limit === undefined ? createGreedy() : createGreedy(limit);
      let p = BUILDS;
      const out = [];
      for (let i = 0; i < 3; i++) {
        const m = g.next(observe(p));
        out.push(m);
        if (m?.kind === 'move') p = applyMove(p, m).position;
      }
      return out;
    };
    expect(play()).toEqual([M(1, 2), M(3, 4), M(5, 6)]);
    expect(play(IDLE_LIMIT)).toEqual([M(1, 2), M(3, 4), M(5, 6)]);
    // a limit of 2: the third move would be the third without a card turned up, so it deals instead
    expect(play(2)).toEqual([M(1, 2), M(3, 4), D]);
  });

  it('SE1-5 with a small sample player: won in 82 moves with the stretch of 20, in 261 with greedy\'s 200 (the extra moves are greedy\'s)', () => {
    const p = dealPosition(SE1, 5);
    const short = playBlind(p, parsePlayerSpec('sample:k=2,budget=1000'), 1);
    const long = playBlind(p, parsePlayerSpec('sample:k=2,budget=1000,stretch=200'), 1);
    expect([short.result, short.steps.length, short.work.fallbacks]).toEqual(['won', 82, 26]);
    expect([long.result, long.steps.length, long.work.fallbacks]).toEqual(['won', 261, 204]);
  }, 30_000);

  it('is a sample parameter: 20 by default, left out of the canonical text at 20; 1..200', () => {
    expect(SAMPLE_DEFAULTS.stretch).toBe(20);
    expect(parsePlayerSpec('sample')).toMatchObject({ name: 'sample', stretch: 20 });
    expect(specText(parsePlayerSpec('sample'))).toBe('sample:k=8,budget=20000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3');
    expect(specText(parsePlayerSpec('sample:stretch=200'))).toBe('sample:k=8,budget=20000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3,stretch=200');
    expect(parsePlayerSpec(specText(parsePlayerSpec('sample:stretch=7')))).toMatchObject({ stretch: 7 });
    for (const n of ['0', '201']) {
      expect(() => parsePlayerSpec(`sample:stretch=${n}`)).toThrow(InputError);
      expect(() => parsePlayerSpec(`sample:stretch=${n}`)).toThrow(`player "sample:stretch=${n}": stretch "${n}": must be 1..200`);
    }
    // greedy takes no parameters: an empty list after its colon is not asked to be filled
    expect(() => parsePlayerSpec('greedy:')).toThrow('player "greedy:": nothing after the colon, and greedy takes no parameters; drop the colon');
    // the games changed, so results are stored under a new players' version (6 since the vote without the stock left out the dead ends)
    expect(BLIND_VERSION).toBe('7');
  });

  it('a game the stretch ends says why, in its end line and in --json stuckWhy (SE2-1, stretch=1: stuck after 9 moves)', async () => {
    const args = ['blind', 'SE2-1', '--player', 'sample:k=1,budget=100,eval=win,stretch=1', '--loss-budget', '0'];
    const why = 'the player plays none of the 3 legal moves: no card turned up in its last move, so it only deals or fills an empty column for a deal; no deal is left';
    const json = JSON.parse((await runInProcess([...args, '--json'])).stdout) as { result: string; stuckReason: string; steps: unknown[]; stuckWhy: string | null };
    expect([json.result, json.stuckReason, json.steps.length, json.stuckWhy]).toEqual(['stuck', 'no move', 9, why]);
    expect((await runInProcess(args)).stdout).toContain(`stuck after 9 moves (${why}), 0 of 4 suits completed`);
    // a won game has none
    const won = JSON.parse((await runInProcess(['blind', 'SE1-5', '--player', 'sample:k=2,budget=1000', '--json', '--loss-budget', '0'])).stdout) as { result: string; stuckWhy: string | null };
    expect([won.result, won.stuckWhy]).toEqual(['won', null]);
    expect(noMoveText({ legal: 2, refused: [{ reason: 'idle', count: 2 }], deal: 'blocked', idle: 20 })).toBe(
      'the player plays none of the 2 legal moves: no card turned up in its last 20 moves, so it only deals or fills an empty column for a deal; no deal while a column is empty (R12)',
    );
  }, 60_000);
});
