/**
 * Lines a person can replay (issue 11, point 5): PySolFC's column numbering for pysol: deals, and
 * lines explained move by move. The PySolFC replay plays the printed line on the deal as PySolFC lays
 * it out (its own columns and suits, from the fixture form), through the rules engine.
 */
import { describe, expect, it } from 'vitest';
import { parseCard, type Card } from '../src/game/cards.js';
import { explainLine, formatExplained } from '../src/game/explain.js';
import { unwrap } from '../src/game/errors.js';
import { fromNumbering, ownNumbering, pysolNumbering, toNumbering } from '../src/game/numbering.js';
import type { Position } from '../src/game/position.js';
import { pysolDeal, PYSOL_SPIDER_COLUMNS, type PysolFixture } from '../src/game/pysol.js';
import { loadDeal } from '../src/game/ref.js';
import { playLine } from '../src/game/score.js';
import { getVariant } from '../src/game/variant.js';
import { runInProcess } from './helpers/cli.js';
import { pos, SE4 } from './helpers/game.js';
import { solve } from '../src/solver/solve.js';


async function cli(...args: string[]) {
  const r = await runInProcess(args);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** PySolFC's deal as PySolFC lays it out: its columns in its order, its suits (clubs in 1- and 2-suit games). */
function asPysolLaysItOut(game: 'spider' | 'spiderette', suits: 1 | 2 | 4, f: PysolFixture): Position {
  const card = (t: string): Card => {
    const c = parseCard(t);
    if (c === undefined) throw new Error(`bad card ${t}`);
    return c;
  };
  return {
    variant: getVariant(game, suits),
    columns: f.columns.map((c) => ({ down: c.faceDown.map(card), up: c.faceUp.map(card) })),
    stock: f.stockDeals.map((d) => d.map(card)),
    removed: [],
  };
}

describe('column numberings', () => {
  const py = pysolNumbering(PYSOL_SPIDER_COLUMNS);

  it('writes spidersolve\'s moves in PySolFC\'s columns and reads them back', () => {
    expect(toNumbering('10-9', py)).toBe('9-8'); // our 10 is PySolFC's 9, our 9 its 8
    expect(toNumbering('1-5x3', py)).toBe('1-2x3');
    expect(toNumbering('d', py)).toBe('d');
    for (let f = 1; f <= 10; f++) {
      for (let t = 1; t <= 10; t++) {
        if (f === t) continue;
        expect(unwrap(fromNumbering(toNumbering(`${f}-${t}x2`, py), py))).toBe(`${f}-${t}x2`);
      }
    }
    expect(unwrap(fromNumbering('4-2', py))).toBe('2-5');
    expect(fromNumbering('11-2', py)).toMatchObject({ ok: false, error: { code: 'bad-move', message: expect.stringContaining("PySolFC's numbering") } });
    expect(toNumbering('3-4', ownNumbering(7))).toBe('3-4');
    expect(() => pysolNumbering([1, 2, 2])).toThrow(RangeError);
  });
});

describe('a PySolFC deal\'s winning line, printed in PySolFC\'s numbering', () => {
  it('replays to a win on the deal as PySolFC lays it out (pysol:spider2:5 and pysol:spider1:1)', () => {
    for (const [kind, game, suits, n] of [['spider2', 'spider', 2, 5], ['spider1', 'spider', 1, 1]] as const) {
      const d = unwrap(pysolDeal(kind, n));
      const r = solve(d.position, { maxPositions: 1_000_000 });
      expect(r.status).toBe('won');
      const line = r.line.map((m) => toNumbering(m, pysolNumbering(d.columnMap)));
      const played = unwrap(playLine(asPysolLaysItOut(game, suits, d.fixture), line));
      expect(played.won).toBe(true);
      expect(played.moves).toHaveLength(r.line.length);
      expect(line).not.toEqual(r.line); // the numberings differ for Spider
      // in spidersolve's numbering the same line does not fit PySolFC's layout
      const wrong = playLine(asPysolLaysItOut(game, suits, d.fixture), r.line);
      expect(wrong.ok && wrong.value.won).toBe(false);
    }
  });

  it('hint, solve and play print and read PySolFC\'s numbers by default for a pysol: deal, and say so', async () => {
    const hint = await cli('hint', 'pysol:spider2:5');
    expect(hint.status).toBe(0);
    expect(hint.stdout.split('\n')[0]).toBe('4-3   (first move of a 116-move win)'); // spidersolve's 2-6
    expect(hint.stdout).toMatch(/^columns: PySolFC's, 1-10 left to right/m);
    const own = await cli('hint', 'pysol:spider2:5', '--columns', 'spidersolve', '--json');
    expect(JSON.parse(own.stdout)).toMatchObject({ move: '2-6', columns: 'spidersolve' });
    const solved = JSON.parse((await cli('solve', 'pysol:spider2:5', '--json')).stdout) as { line: string[]; columns: string };
    expect(solved.columns).toBe('pysol');
    expect(solved.line[0]).toBe('4-3');
    const play = await cli('play', 'pysol:spider2:5', solved.line.join(' '), '--json');
    expect(play.status).toBe(0);
    expect(JSON.parse(play.stdout)).toMatchObject({ won: true, columns: 'pysol', movesPlayed: 116 });
    expect(await cli('play', 'SE4-7', '5-2', '--columns', 'pysol')).toMatchObject({ status: 2, stderr: expect.stringMatching(/^spidersolve: option --columns pysol: SE4-7 is not a PySolFC deal/) });
  });
});

describe('explained lines', () => {
  it('names the cards moved, the card turned up, the stock left and the running scores, move by move', () => {
    const d = unwrap(loadDeal('SE4-7'));
    // SE4-7: column 5 shows 5♦, column 2 shows 6♣ (docs/commands.md)
    const ex = unwrap(explainLine(d.position, ['5-2', 'd']));
    expect(ex[0]).toMatchObject({
      number: 1, move: '5-2', kind: 'move', cards: ['5♦'], from: 5, to: 2, onto: '6♣', removed: [],
      stockDealsLeft: 4, classicScore: 499, revealScore: 5, won: false,
    });
    expect(ex[0]!.turnedUp).toHaveLength(1);
    expect(ex[0]!.text).toBe(`5♦ from column 5 onto 6♣ in column 2; turns up ${ex[0]!.turnedUp[0]!.card} in column 5`);
    expect(ex[1]).toMatchObject({ number: 2, move: 'd', kind: 'deal', from: null, to: null, stockDealsLeft: 3, classicScore: 498, revealScore: 5 });
    expect(ex[1]!.cards).toHaveLength(7);
    expect(ex[1]!.text).toMatch(/^deal 7 cards from the stock onto columns 1-7: /);
    expect(formatExplained(ex)[0]).toMatch(/^1 {2}5-2 {2}5♦ from column 5 onto 6♣ in column 2; turns up .* \[stock 4, classic 499, reveal 5\]$/);
  });

  it('a whole won line: the last move wins, suits completed are named, scores end as the solver\'s', async () => {
    const d = unwrap(loadDeal('SE1-1'));
    const r = solve(d.position, { maxPositions: 100_000 });
    expect(r.status).toBe('won');
    const ex = unwrap(explainLine(d.position, r.line));
    expect(ex).toHaveLength(r.line.length);
    expect(ex.at(-1)).toMatchObject({ won: true, classicScore: r.classicScore, revealScore: r.revealScore });
    expect(ex.flatMap((m) => m.removed)).toHaveLength(4); // Spiderette: four suits of ♠
    expect(ex.filter((m) => m.kind === 'deal')).toHaveLength(4);
    const cliOut = await cli('solve', 'SE1-1', '--explain', '--json');
    const o = JSON.parse(cliOut.stdout) as { explain: unknown[] };
    expect(o.explain).toEqual(ex);
  });

  it('in PySolFC\'s numbering the columns and the suits are PySolFC\'s', async () => {
    const out = await cli('play', 'pysol:spider2:5', '9-8', '--explain');
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('1  9-8  6♥ from column 9 onto 7♥ in column 8; turns up A♥ in column 9  [stock 5, classic 499, reveal 5]');
    expect(out.stdout).toMatch(/^ 1: ## ## ## ## ## \| J♥$/m); // PySolFC's column 1 has six cards
    expect(out.stdout).toMatch(/^ 5: ## ## ## ## \| 4♣$/m); // clubs, as PySolFC shows them
  });

  it('an illegal move of a pysol: deal is named as it was written, and its columns by PySolFC\'s numbers', async () => {
    // PySolFC's columns 1, 4, 5 and 6 are spidersolve's 1, 2, 7 and 8 (PYSOL_SPIDER_COLUMNS)
    expect(await cli('play', 'pysol:spider2:5', '1-4')).toMatchObject({
      status: 2,
      stderr: 'spidersolve: move "1-4": no movable group of column 1 starts one rank below the last card of column 4 (R6, R9) (move 1 of the line)\n',
    });
    expect((await cli('play', 'pysol:spider2:5', '1-10 4-3 5-6')).stderr).toBe(
      'spidersolve: move "5-6": no movable group of column 5 starts one rank below the last card of column 6 (R6, R9) (move 3 of the line)\n',
    );
    expect((await cli('play', 'pysol:spider2:5', '1-4x0')).stderr).toBe('spidersolve: move "1-4x0": the card count must be at least 1 (move 1 of the line)\n');
    expect(await cli('view', 'pysol:spider2:5', '--line', '1-10 4-3 5-6')).toMatchObject({
      status: 2,
      stderr: 'spidersolve: move "5-6": no movable group of column 5 starts one rank below the last card of column 6 (R6, R9) (move 3 of the line)\n',
    });
    // in spidersolve's numbering the same moves are spidersolve's
    expect((await cli('play', 'pysol:spider2:5', '1-2', '--columns', 'spidersolve')).stderr).toContain('move "1-2": no movable group of column 1 starts one rank below the last card of column 2');
    // an empty column, named in the numbering the line was written in, and the fix suggested in it
    const p = pos(SE4, [['', 'KS QS'], '', ['', '5H'], ['', '4H'], ['', '3D'], ['', '2D'], ['', 'AC']], ['2S 3S 4S 5S 6S 7S 8S']);
    const reversed = { texts: ['7-6'], column: (c: number) => 7 - c }; // column i+1 shown as 7-i
    expect(playLine(p, ['1-2'], reversed)).toMatchObject({ ok: false, error: { message: 'move "7-6": column 6 is empty, so say how many cards go there (7-6x2) (move 1 of the line)' } });
    expect(playLine(p, ['d'], { texts: ['d'], column: reversed.column })).toMatchObject({
      ok: false,
      error: { message: 'move "d": column 6 is empty, and the stock cannot be dealt while a column is empty (R12) (move 1 of the line)' },
    });
    expect(playLine(p, ['1-2'])).toMatchObject({ ok: false, error: { message: 'move "1-2": column 2 is empty, so say how many cards go there (1-2x2) (move 1 of the line)' } });
  });
});
