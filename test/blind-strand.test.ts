/**
 * R12 in blind play: a move that completes a suit and leaves fewer cards on the table than columns,
 * with a deal still in the stock, loses the game (the stock can never be dealt). Greedy, alone and
 * as the sample player's fallback, never plays one (greedy.ts strandsStock; players' version 5).
 */
import { describe, expect, it } from 'vitest';
import { playBlind } from '../src/blind/game.js';
import { observe } from '../src/blind/observation.js';
import { strandsStock } from '../src/blind/players/greedy.js';
import { parsePlayerSpec } from '../src/blind/players/index.js';
import { BLIND_VERSION } from '../src/blind/version.js';
import { parseMove, type MoveSpec } from '../src/game/move.js';
import { applyMove, resolveMove } from '../src/game/rules.js';
import { pos, run, SP1 } from './helpers/game.js';

/**
 * One-suit Spider, six suits removed: K♠…2♠ in column 1, A♠ in column 2, K♠, Q♠ and J♠ alone in
 * columns 3-5, five empty columns, and a last deal of 10♠…A♠ to come. A♠ onto 2♠ completes a suit and
 * leaves 3 cards for 10 columns.
 */
const end = pos(SP1, [['', run('S', 2)], ['', 'AS'], ['', 'KS'], ['', 'QS'], ['', 'JS'], '', '', '', '', ''], [run('S', 1, 10)], [0, 0, 0, 0, 0, 0]);

describe('a move that strands the stock (R12)', () => {
  it('is the one that completes a suit with too few cards left, and only while a deal is left', () => {
    const obs = observe(end);
    expect(strandsStock(obs, { kind: 'move', from: 1, to: 0, count: 1 })).toBe(true);
    expect(strandsStock(obs, { kind: 'move', from: 3, to: 2, count: 1 })).toBe(false);
    // the same move with the stock dealt already strands nothing
    expect(strandsStock({ ...obs, stockDeals: [] }, { kind: 'move', from: 1, to: 0, count: 1 })).toBe(false);
  });

  it('greedy never plays one: it fills the columns, deals and wins', () => {
    const g = playBlind(end, parsePlayerSpec('greedy'), 1);
    expect([g.result, g.completed]).toEqual(['won', 8]);
    // its first move builds Q♠ on K♠, where players' version 4 completed the suit and was stuck
    expect(g.line[0]).toBe('4-3');
    let p = end;
    const stranded: number[] = [];
    g.line.forEach((text, i) => {
      const m = resolveMove(p, (parseMove(text, 10) as { ok: true; value: MoveSpec }).value);
      if (!m.ok) throw new Error(m.error.message);
      if (m.value.kind === 'move' && strandsStock(observe(p, i), m.value)) stranded.push(i + 1);
      p = applyMove(p, m.value).position;
    });
    expect(stranded).toEqual([]);
    expect(g.line.indexOf('d')).toBeGreaterThan(0);
    expect(BLIND_VERSION).toBe('7');
  });
});
