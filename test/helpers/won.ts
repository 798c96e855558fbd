/**
 * Real winning lines for test results: a seeded deal solved once (cached) at a budget that wins it,
 * so that a result written by a test replays to a win as `merge` checks (src/batch/verify.ts).
 */
import { parseDealCode } from '../../src/game/code.js';
import { unwrap } from '../../src/game/errors.js';
import { positionFromDeal } from '../../src/game/position.js';
import { solve } from '../../src/solver/solve.js';

/** What a won result stores of its line: the moves, their number and the scores (R16, R17). */
export interface WonLine {
  line: string;
  moveCount: number;
  classicScore: number;
  revealScore: number;
}

const cache = new Map<string, WonLine>();

/**
 * The winning line of the deal `code` (a seeded or explicit code, e.g. `SE1-3`), solved at up to
 * 200,000 positions. Throws when the solver does not win it there (pick another deal: one-suit
 * Spiderette seeds 1-8 are won in well under 10,000 positions).
 */
export function wonLine(code: string): WonLine {
  const hit = cache.get(code);
  if (hit) return hit;
  const d = unwrap(parseDealCode(code));
  const r = solve(positionFromDeal(d.variant, d.cards), { maxPositions: 200_000 });
  if (r.status !== 'won') throw new Error(`test helper: ${code} is not won at 200,000 positions`);
  const w = { line: r.line.join(' '), moveCount: r.moveCount!, classicScore: r.classicScore!, revealScore: r.revealScore! };
  cache.set(code, w);
  return w;
}
