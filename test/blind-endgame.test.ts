/**
 * The sample player's end-game settings (src/blind/players/sample.ts): `endhop`, the HOP check once
 * the stock is empty (R12: no deal left), and `endk`, the completions drawn per plan then. Before the
 * stock is empty they change nothing; after, they act as `hop` and `k` would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayPositions } from '../src/blind/loss.js';
import { observe } from '../src/blind/observation.js';
import { parsePlayerSpec, SAMPLE_DEFAULTS, specText } from '../src/blind/players/index.js';
import { createSample, PLAYER_TUNING, type SampleSettings } from '../src/blind/players/sample.js';
import { dealPosition } from '../src/game/deal.js';
import { InputError } from '../src/game/errors.js';
import { SE2 } from './helpers/game.js';

/** A small sample player: 4 completions of 2,000 positions, no HOP check, no end-game settings. */
const BASE: SampleSettings = { k: 4, budget: 2000, plan: 'prefix', escalate: 0, hop: 0, eval: 'progress', endhop: 0, endk: 0, stretch: 20 };

/** SE2-3 after 34 moves of a blind game: the stock has just been dealt out (its fourth deal). */
const START = dealPosition(SE2, 3);
const LINE = '4-7 4-7 1-5 4-1x1 5-6 4-3 2-4x1 2-6 5-2x1 5-6 2-5 5-2x2 2-5 7-2x3 2-7 7-2x4 4-6 7-4x1 7-2 5-6 7-5x1 6-5 6-2 d 5-2 4-3 d 7-2 3-7 3-1 1-3 d 5-7 d'.split(' ');
const AT = replayPositions(START, LINE);
const EMPTY = AT[34]!;

/** The first move a fresh player with `s` (seed 1) makes from `p`, and the solves it ran for it. */
function first(s: SampleSettings, p = EMPTY): { move: string; solves: number } {
  const player = createSample(s, 1);
  const m = player.next(observe(p));
  return { move: JSON.stringify(m), solves: player.work.solves };
}

describe('end-game settings of the sample player', () => {
  it('the fixture: the stock is empty after move 34, not before', () => {
    expect(EMPTY.stock).toEqual([]);
    expect(AT[33]!.stock.length).toBe(1);
  });
  it('endhop acts as hop once the stock is empty: the HOP check runs (4 solves become 9), the same move as hop=2', () => {
    expect(first(BASE)).toEqual({ move: '{"kind":"move","from":3,"to":0,"count":1}', solves: 4 });
    expect(first({ ...BASE, endhop: 2 })).toEqual(first({ ...BASE, hop: 2 }));
    expect(first({ ...BASE, endhop: 2 }).solves).toBe(9);
  });
  it('endk draws that many completions once the stock is empty: 8, and another move', () => {
    expect(first({ ...BASE, endk: 8 })).toEqual(first({ ...BASE, k: 8 }));
    expect(first({ ...BASE, endk: 8 })).toEqual({ move: '{"kind":"move","from":5,"to":0,"count":2}', solves: 8 });
  });
  it('with a deal left in the stock they change nothing: the same move and solves as without them', () => {
    for (const i of [0, 24, 33]) {
      expect(AT[i]!.stock.length).toBeGreaterThan(0);
      expect(first({ ...BASE, endhop: 2, endk: 8 }, AT[i]!)).toEqual(first(BASE, AT[i]!));
    }
  });
});

describe('the sample player\'s solves leave out the solver\'s dead ends (players\' version 7, PLAYER_TUNING)', () => {
  it('which change the progress lines its completions vote with: from SE2-3 after 24 moves (three deals left) it plays 5-2, with the dead ends 4-3', () => {
    expect(PLAYER_TUNING).toEqual({ deadEnds: false });
    expect(AT[24]!.stock.length).toBe(3);
    expect(first(BASE, AT[24]!)).toEqual({ move: '{"kind":"move","from":4,"to":1,"count":1}', solves: 7 });
    const withDeadEnds = createSample(BASE, 1, {});
    expect(JSON.stringify(withDeadEnds.next(observe(AT[24]!)))).toBe('{"kind":"move","from":3,"to":2,"count":1}');
  });
});

describe('end-game settings in a player spec', () => {
  it('parse; the canonical text always has endhop, and endk when not 0', () => {
    expect(parsePlayerSpec('sample:endhop=3,endk=16')).toEqual({ name: 'sample', ...SAMPLE_DEFAULTS, endhop: 3, endk: 16 });
    expect(specText({ name: 'sample', ...BASE })).toBe('sample:k=4,budget=2000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=0');
    expect(specText({ name: 'sample', ...BASE, endhop: 3, endk: 16 })).toBe('sample:k=4,budget=2000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3,endk=16');
    // a text without endhop (as stored before it existed) now reads as the default, endhop=3
    expect(parsePlayerSpec('sample:k=4,budget=2000,plan=prefix,escalate=0,hop=0,eval=progress')).toMatchObject({ name: 'sample', endhop: 3 });
  });
  it('the canonical text reads back as the same spec, whatever the settings (the workers play what is stored)', () => {
    fc.assert(
      fc.property(
        fc.record({
          k: fc.integer({ min: 1, max: 1000 }), budget: fc.integer({ min: 100, max: 10_000_000 }), plan: fc.constantFrom('prefix' as const, 'move' as const),
          escalate: fc.integer({ min: 0, max: 4 }), hop: fc.integer({ min: 0, max: 100 }), eval: fc.constantFrom('win' as const, 'progress' as const),
          endhop: fc.integer({ min: 0, max: 100 }), endk: fc.integer({ min: 0, max: 1000 }), stretch: fc.integer({ min: 1, max: 200 }),
        }),
        (s) => {
          const spec = { name: 'sample' as const, ...s };
          expect(parsePlayerSpec(specText(spec))).toEqual(spec);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
  it.each([
    ['sample:endhop=101', 'player "sample:endhop=101": endhop "101": must be 0..100'],
    ['sample:endk=1001', 'player "sample:endk=1001": endk "1001": must be 0..1000'],
    ['sample:endk=-1', 'player "sample:endk=-1": endk "-1": a sign is not taken; write the number in digits alone (0..1000)'],
  ])('%s is refused in one line', (text, message) => {
    expect(() => parsePlayerSpec(text)).toThrow(InputError);
    expect(() => parsePlayerSpec(text)).toThrow(message);
  });
});
