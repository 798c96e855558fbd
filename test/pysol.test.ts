/**
 * PySolFC import (src/game/pysol.ts): all five fixtures of test/fixtures/pysol reproduced exactly,
 * Python's MT19937 checked against CPython values, and the mapping onto this project's layout (R3) and
 * suits (R2) checked card for card.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeCard, suitOf } from '../src/game/cards.js';
import { compositionFault } from '../src/game/deal.js';
import { cardCounts } from '../src/game/position.js';
import { isPysolKind, pysolDeal, pysolGameId, PythonRandom, PYSOL_SPIDER_COLUMNS, type PysolKind } from '../src/game/pysol.js';
import { legalMoves } from '../src/game/rules.js';
import { playLine } from '../src/game/score.js';
import { getVariant } from '../src/game/variant.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/pysol/${name}`, import.meta.url), 'utf8'));
}
function deal(kind: PysolKind, n: number) {
  const r = pysolDeal(kind, n);
  if (!r.ok) throw r.error;
  return r.value;
}
const text = (cs: readonly number[]) => cs.map((c) => makeCard(c));

describe('PySolFC deals reproduce the fixtures exactly', () => {
  const cases: [string, PysolKind, number][] = [
    ['spider-4suits-14934.json', 'spider', 14934],
    ['spider-4suits-123456789012.json', 'spider', 123456789012],
    ['spider-2suits-1.json', 'spider2', 1],
    ['spider-1suit-1.json', 'spider1', 1],
    ['spiderette-1.json', 'spiderette', 1],
  ];
  for (const [file, kind, n] of cases) {
    it(`${file} = pysol:${kind}:${n}`, () => {
      expect(deal(kind, n).fixture).toEqual(fixture(file));
    });
  }
  it('game ids: spider 11, spider2 270, spider1 269, spiderette 24', () => {
    expect((['spider', 'spider2', 'spider1', 'spiderette'] as const).map(pysolGameId)).toEqual([11, 270, 269, 24]);
    expect(deal('spider2', 5).gameId).toBe(270);
    expect(isPysolKind('spider3')).toBe(false);
  });
  it('refuses game numbers below 1 or not integers', () => {
    for (const n of [0, -3, 1.5, 2 ** 60]) {
      const r = pysolDeal('spider', n);
      expect(r.ok ? 'ok' : r.error.code).toBe('bad-reference');
    }
  });
  it('numbers 31999 and 32000 use the two generators and both give whole decks', () => {
    for (const n of [31999, 32000]) {
      const d = deal('spider', n);
      expect(compositionFault(d.position.variant, cardCounts(d.position))).toBeNull();
    }
  });
});

describe('PythonRandom = CPython random.Random(seed).random()', () => {
  const cases: [number | bigint, number[]][] = [
    [0, [0.8444218515250481, 0.7579544029403025, 0.420571580830845]],
    [1, [0.13436424411240122, 0.8474337369372327, 0.763774618976614]],
    [32000, [0.3721723162993418, 0.8413318621630471, 0.475447755632031]],
    [123456789012, [0.37701448538609916, 0.02069602357922562, 0.14040538980009454]],
    [2n ** 64n + 5n, [0.5105783769365112, 0.8797586528012199, 0.5149365298491138]],
  ];
  for (const [seed, want] of cases) {
    it(`seed ${seed}`, () => {
      const r = new PythonRandom(seed);
      expect([r.random(), r.random(), r.random()]).toEqual(want);
    });
  }
  it('32-bit outputs of seed 5 (getrandbits(32))', () => {
    const r = new PythonRandom(5);
    expect([r.int32(), r.int32(), r.int32()]).toEqual([2675342405, 1097127993, 3185950873]);
  });
});

describe('mapping onto this project (R2, R3)', () => {
  it('R3: spider columns 1-4 are PySolFC 1, 4, 7, 10 (six cards each); stock deals relabelled alike', () => {
    const d = deal('spider', 14934);
    expect(d.columnMap).toEqual([1, 4, 7, 10, 2, 3, 5, 6, 8, 9]);
    expect(PYSOL_SPIDER_COLUMNS).toEqual(d.columnMap);
    expect(d.position.columns.map((c) => c.down.length + c.up.length)).toEqual([6, 6, 6, 6, 5, 5, 5, 5, 5, 5]);
    d.columnMap.forEach((p, i) => {
      const src = d.fixture.columns[p - 1]!;
      expect(text(d.position.columns[i]!.down)).toEqual(src.faceDown);
      expect(text(d.position.columns[i]!.up)).toEqual(src.faceUp);
    });
    d.position.stock.forEach((s, k) => expect(text(s)).toEqual(d.columnMap.map((p) => d.fixture.stockDeals[k]![p - 1]!)));
    // pinned: first stock deal of 14934 in PySolFC order 6D AH 10H 9S 9C 6C AC 6S 9D 4C
    expect(text(d.position.stock[0]!)).toEqual(['6D', '9S', 'AC', '4C', 'AH', '10H', '9C', '6C', '6S', '9D']);
    expect(text(d.position.columns.map((c) => c.up[0]!))).toEqual(['5S', '2D', '6H', '5D', 'KH', '2H', 'JH', '6H', '2C', 'KD']);
    expect(d.position.variant).toBe(getVariant('spider', 4));
    expect(d.mapping).toBe('PySolFC columns 1,4,7,10,2,3,5,6,8,9 are our columns 1-10 (stock deals relabelled alike)');
  });
  it('R2: 1-suit clubs become spades; 2-suit clubs become spades and hearts stay hearts', () => {
    const one = deal('spider1', 1);
    expect(one.position.variant).toBe(getVariant('spider', 1));
    expect(compositionFault(one.position.variant, cardCounts(one.position))).toBeNull();
    expect(text(one.position.columns[0]!.up)).toEqual(['8S']);
    expect(one.fixture.columns[0]!.faceUp).toEqual(['8C']);
    const two = deal('spider2', 1);
    expect(compositionFault(two.position.variant, cardCounts(two.position))).toBeNull();
    // PySolFC faces: 8H 10H AH JC 4H 7H QC QC 7C 3C; ours by columns 1,4,7,10,2,3,5,6,8,9
    expect(text(two.position.columns.map((c) => c.up[0]!))).toEqual(['8H', 'JS', 'QS', '3S', '10H', 'AH', '4H', '7H', 'QS', '7S']);
    expect(two.mapping).toBe('PySolFC columns 1,4,7,10,2,3,5,6,8,9 are our columns 1-10 (stock deals relabelled alike); PySolFC clubs are our spades');
    const hearts = two.position.columns.flatMap((c) => [...c.down, ...c.up]).filter((c) => suitOf(c) === 1).length;
    expect(hearts + two.position.stock.flat().filter((c) => suitOf(c) === 1).length).toBe(52);
  });
  it('R4: spiderette keeps its columns (identity mapping) and the 7, 7, 7, 3 stock', () => {
    const d = deal('spiderette', 1);
    expect(d.columnMap).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(text(d.position.columns.map((c) => c.up[0]!))).toEqual(['AS', 'AH', '3C', '4C', '5C', '10S', 'QH']);
    expect(d.position.stock.map((s) => s.length)).toEqual([7, 7, 7, 3]);
    expect(text(d.position.stock[3]!)).toEqual(['9C', '2H', '6H']);
  });
  it('the mapped position obeys the rules engine (moves list and a dealt line)', () => {
    const d = deal('spiderette', 1);
    expect(legalMoves(d.position).length).toBeGreaterThan(0);
    const r = playLine(d.position, ['d']);
    expect(r.ok).toBe(true);
    if (r.ok) expect(text(r.value.position.columns.map((c) => c.up[c.up.length - 1]!))).toEqual(['4H', 'AC', '4D', '7S', '3S', '10D', '4S']);
  });
});
