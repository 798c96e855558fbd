/**
 * The move notation's grammar (move.ts), the same in spidersolve's numbering and PySolFC's
 * (numbering.ts): columns and counts are numbers written with any number of digits, leading zeros
 * allowed; the values are then judged (a column the game lacks, a count of 0): `005-4`, `5-4x0001`
 * and `5-4x1000` are read as moves, not refused as "not a move", and PySolFC's numbering translates
 * `005-4` too.
 */
import { describe, expect, it } from 'vitest';
import { parseMove } from '../src/game/move.js';
import { fromNumbering, pysolNumbering, toNumbering } from '../src/game/numbering.js';

const PYSOL = pysolNumbering([1, 4, 7, 10, 2, 3, 5, 6, 8, 9]);

function message(text: string, columns: number): string {
  const r = parseMove(text, columns);
  return r.ok ? 'ok' : r.error.message;
}

describe('parseMove', () => {
  it('reads columns and counts with leading zeros, in any case, as the numbers they write', () => {
    for (const text of ['5-4', '05-4', '005-4', ' 5-04 ']) expect(parseMove(text, 7)).toEqual({ ok: true, value: { kind: 'move', from: 4, to: 3, count: 0 } });
    for (const text of ['5-4x1', '5-4X1', '5-4x0001', '0005-0004x01']) expect(parseMove(text, 7)).toEqual({ ok: true, value: { kind: 'move', from: 4, to: 3, count: 1 } });
    // a count larger than any group is read, for the rules to refuse (resolveMove: R7, R9)
    expect(parseMove('5-4x1000', 7)).toEqual({ ok: true, value: { kind: 'move', from: 4, to: 3, count: 1000 } });
    expect(parseMove('D', 7)).toEqual({ ok: true, value: { kind: 'deal' } });
  });

  it('names a column the game lacks by its number, and refuses a count of 0 and a move onto its own column', () => {
    expect(message('00-4', 7)).toBe('move "00-4": column 0 does not exist (columns are 1-7)');
    expect(message('8-4', 7)).toBe('move "8-4": column 8 does not exist (columns are 1-7)');
    expect(message('5-011', 10)).toBe('move "5-011": column 11 does not exist (columns are 1-10)');
    expect(message('99999999999999999999-4', 7)).toBe('move "99999999999999999999-4": column "99999999999999999999" does not exist (columns are 1-7)');
    expect(message('5-4x000', 7)).toBe('move "5-4x000": the card count must be at least 1');
    expect(message('05-5', 7)).toBe('move "05-5": a move needs two different columns');
    expect(message('5-4x', 7)).toBe('move "5-4x": not a move; write d (deal), FROM-TO (3-7) or FROM-TOxCOUNT (3-7x4)');
    expect(message('-5-4', 7)).toMatch(/^move "-5-4": not a move;/);
  });
});

describe('PySolFC\'s numbering', () => {
  it('turns the same texts into spidersolve\'s notation as parseMove reads: leading zeros and all', () => {
    // PySolFC's column 2 is spidersolve's 5, its column 10 spidersolve's 4
    expect(fromNumbering('2-10', PYSOL)).toEqual({ ok: true, value: '5-4' });
    expect(fromNumbering('002-010x01', PYSOL)).toEqual({ ok: true, value: '5-4x01' });
    expect(fromNumbering('02-10X2', PYSOL)).toEqual({ ok: true, value: '5-4x2' });
    expect(toNumbering('005-4x01', PYSOL)).toBe('2-10x01');
    const bad = fromNumbering('011-4', PYSOL);
    expect(bad.ok ? 'ok' : bad.error.message).toBe('move "011-4": column 11 does not exist (columns are 1-10, PySolFC\'s numbering)');
  });
});
