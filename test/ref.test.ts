/**
 * The `<deal>` resolver (src/game/ref.ts): deal codes, pysol: references and position files.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDealCode } from '../src/game/code.js';
import { dealCards, dealPosition } from '../src/game/deal.js';
import { samePosition } from '../src/game/position.js';
import { makePositionJson, makePositionText } from '../src/game/positionFile.js';
import { pysolDeal } from '../src/game/pysol.js';
import { loadDeal } from '../src/game/ref.js';
import { playLine } from '../src/game/score.js';
import { getVariant } from '../src/game/variant.js';

const SP2 = getVariant('spider', 2);
const dir = mkdtempSync(join(tmpdir(), 'spidersolve-ref-'));

function loaded(ref: string) {
  const r = loadDeal(ref);
  if (!r.ok) throw r.error;
  return r.value;
}

describe('loadDeal', () => {
  it('a seeded code', () => {
    const d = loaded('sp2-1007');
    expect(d.code).toBe('SP2-1007');
    expect(d.source).toEqual({ kind: 'seed', seed: 1007 });
    expect(d.label).toBe('sp2-1007');
    expect(samePosition(d.position, dealPosition(SP2, 1007))).toBe(true);
  });
  it('an explicit code', () => {
    const code = makeDealCode(SP2, dealCards(SP2, 3));
    const d = loaded(code.toLowerCase());
    expect(d.code).toBe(code);
    expect(d.source).toEqual({ kind: 'code' });
  });
  it('pysol references, any case, with the explicit code of the mapped deal', () => {
    const d = loaded('PYSOL:Spider2:1');
    expect(d.source).toEqual({ kind: 'pysol', game: 'spider2', number: 1 });
    const p = pysolDeal('spider2', 1);
    expect(p.ok && samePosition(d.position, p.value.position)).toBe(true);
    expect(d.code).toMatch(/^SP2X-/);
    expect(samePosition(loaded(d.code!).position, d.position)).toBe(true);
    expect(loaded('pysol:spiderette:32001').source).toEqual({ kind: 'pysol', game: 'spiderette', number: 32001 });
  });
  it('refuses bad pysol references', () => {
    for (const [ref, msg] of [
      ['pysol:klondike:1', 'deal "pysol:klondike:1": write pysol:GAME:N with GAME spider, spider2, spider1 or spiderette'],
      ['pysol:spider', 'deal "pysol:spider": write pysol:GAME:N with GAME spider, spider2, spider1 or spiderette'],
      ['pysol:spider:abc', 'deal "pysol:spider:abc": game number "abc" is not a whole number 1..9007199254740991'],
      ['pysol:spider:-3', 'deal "pysol:spider:-3": game number "-3" is not a whole number 1..9007199254740991'],
      ['pysol:spider:', 'deal "pysol:spider:": no game number after the colon; write pysol:GAME:N with N a whole number from 1'],
      ['pysol:spider4:5', 'deal "pysol:spider4:5": write pysol:GAME:N with GAME spider, spider2, spider1 or spiderette (four suits is spider: pysol:spider:5)'],
      ['pysol:spider:0', 'deal "pysol:spider:0": game number 0 is out of range 1..9007199254740991'],
      // two references on one deals-file line
      ['pysol:spider:1 pysol:spider:2', 'deal "pysol:spider:1 pysol:spider:2": write pysol:GAME:N with GAME spider, spider2, spider1 or spiderette (a space inside: one reference at a time, one a line in a deals file)'],
    ]) {
      const r = loadDeal(ref!);
      expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['bad-reference', msg]);
    }
  });
  it('a text position file holding a start position gets the explicit code; a mid-game one gets null', () => {
    const start = dealPosition(SP2, 1007);
    const f = join(dir, 'start.txt');
    writeFileSync(f, makePositionText(start));
    const d = loaded(f);
    expect(d.source).toEqual({ kind: 'file', path: f });
    expect(d.code).toBe(makeDealCode(SP2, dealCards(SP2, 1007)));
    const played = playLine(start, ['d']);
    if (!played.ok) throw played.error;
    const g = join(dir, 'mid.json');
    writeFileSync(g, makePositionJson(played.value.position));
    const m = loaded(g);
    expect(m.code).toBeNull();
    expect(samePosition(m.position, played.value.position)).toBe(true);
  });
  it('a missing file, an empty argument and a bad code are one-line errors', () => {
    const r = loadDeal(join(dir, 'nope.txt'));
    expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['bad-file', `position file ${join(dir, 'nope.txt')}: no such file (and not a deal code or pysol:GAME:N)`]);
    const e = loadDeal('');
    expect(e.ok ? 'ok' : e.error.code).toBe('bad-reference');
    // spaces only: quoted as given, so the message shows what was typed (it said deal "")
    const blank = loadDeal('  ');
    expect(blank.ok ? 'ok' : [blank.error.code, blank.error.message]).toEqual(['bad-reference', 'deal "  ": empty; give a deal code (SP2-1007), pysol:spider:N or a position file']);
    const c = loadDeal('SP3-1');
    expect(c.ok ? 'ok' : c.error.code).toBe('bad-code');
    const d = loadDeal(dir);
    expect(d.ok ? 'ok' : d.error.message).toBe(`position file ${dir}: is a directory`);
  });
  it('a file that is not text (a zero byte, bytes that are not UTF-8) is refused as such, naming it, whatever its name ends in', () => {
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x3e, 0x0a, 0x41]);
    const latin = Buffer.from('# spidersolve position\ngame: spider 2\n1: | K\xe9\n', 'latin1');
    const cases: [string, Buffer, string][] = [
      ['prog', elf, 'a zero byte at line 1'],
      ['prog.json', elf, 'a zero byte at line 1'],
      ['latin.txt', latin, 'bytes that are not UTF-8 text at line 3'],
    ];
    for (const [name, bytes, why] of cases) {
      const f = join(dir, name);
      writeFileSync(f, bytes);
      const r = loadDeal(f);
      expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual([
        'bad-file',
        `position file ${f}: not a text file (${why}); give a position file in the text or JSON form, a deal code or pysol:GAME:N`,
      ]);
    }
  });
  it('an argument that starts like a deal code and names no file gets the deal code\'s error, not "no such file"', () => {
    for (const [a, seed] of [['SP2--5', '-5'], ['SP2-1.5', '1.5'], ['se4-+7', '+7']]) {
      const r = loadDeal(a!);
      expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['bad-code', `deal code "${a}": the seed "${seed}" is not a whole number 0..4294967295 in digits`]);
    }
  });
  it('a missing file whose name starts like a deal code but reads as a file (an extension, a folder) is "no such file", not a bad seed', () => {
    for (const a of ['se4-7.json', 'sp2-5.txt', 'SP2-1/pos.txt']) {
      const r = loadDeal(a);
      expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['bad-file', `position file ${a}: no such file (and not a deal code or pysol:GAME:N)`]);
    }
  });
  it('an argument shaped like a code of another game, naming no file, says what a deal code is', () => {
    for (const a of ['XX1-1', 'abc-7', 'FC4-9']) {
      const r = loadDeal(a);
      expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['bad-code', `deal "${a}": no such file, and not a deal code (write e.g. SP2-1007: game SP or SE, suits 1, 2 or 4, seed) or pysol:GAME:N`]);
    }
  });
  it('a game and suit count with no seed, naming no file, says a code needs a hyphen and a seed', () => {
    for (const [a, example] of [['SE1', 'SE1-7'], ['sp4', 'SP4-7'], [' SP2 ', 'SP2-7']]) {
      const r = loadDeal(a!);
      expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['bad-code', `deal "${a}": no such file, and not a deal code: a code needs a hyphen and a seed (${example} is seed 7)`]);
    }
  });
  it('a game with a suit count there is not, naming no file, names the suit counts', () => {
    for (const [a, example] of [['SE3', 'SE2-7'], ['SP31', 'SP2-7'], ['se0', 'SE2-7']]) {
      const r = loadDeal(a!);
      expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['bad-code', `deal "${a}": no such file, and not a deal code: the suits are 1, 2 or 4, then a hyphen and a seed (${example} is two suits, seed 7)`]);
    }
  });
  it('a seeded deal code with its hyphen left out or mistyped, naming no file, gets a "did you mean"', () => {
    for (const [a, guess] of [['SP27', 'SP2-7'], ['SP2_7', 'SP2-7'], ['se4.12', 'SE4-12'], ['sp1:50001', 'SP1-50001'], ['SP2 5', 'SP2-5']]) {
      const r = loadDeal(a!);
      expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['bad-code', `deal "${a}": no such file, and not a deal code (a code is game, suits, hyphen, seed); did you mean ${guess}?`]);
    }
    // the guess is a deal that loads; a name with an extension is still a missing file
    expect(loadDeal('SP2-7').ok).toBe(true);
    const f = loadDeal('SP27.txt');
    expect(f.ok ? 'ok' : f.error.code).toBe('bad-file');
  });
  it('file content errors come through with the file name', () => {
    const f = join(dir, 'bad.txt');
    writeFileSync(f, 'game: spider 2\nfoo: bar\n');
    const r = loadDeal(f);
    expect(r.ok ? 'ok' : r.error.message).toBe(`position file ${f} line 2: unknown key "foo"; expected game:, a column number (1: …), stock:, removed: or source:`);
  });
});
