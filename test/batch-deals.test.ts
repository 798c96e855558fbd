import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dealPosition } from '../src/game/deal.js';
import { InputError } from '../src/game/errors.js';
import { makePositionText } from '../src/game/positionFile.js';
import { loadDeal } from '../src/game/ref.js';
import { applyMove, legalMoves } from '../src/game/rules.js';
import { getVariant } from '../src/game/variant.js';
import { dealKey, parseSeeds, parseSuitsList, planDealsFile, planSeeds, planStudy, positionKey, withoutComment } from '../src/batch/deals.js';
import { parseBatchOptions } from '../src/cli/batch.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-deals-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function inputError(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('no error thrown');
}

describe('option parsing', () => {
  it('--suits takes a comma list of 1, 2, 4', () => {
    expect(parseSuitsList('1,2,4')).toEqual([1, 2, 4]);
    expect(parseSuitsList(' 4 , 1')).toEqual([1, 4]);
    for (const bad of ['3', '1,3', '', '1,,2', 'two', '1.0']) {
      expect(inputError(() => parseSuitsList(bad)).code).toBe('bad-option');
    }
  });

  it('--seeds takes single seeds and inclusive ranges', () => {
    expect(parseSeeds('1-1000')).toEqual([{ from: 1, to: 1000 }]);
    expect(parseSeeds('7')).toEqual([{ from: 7, to: 7 }]);
    expect(parseSeeds('1-3, 10-11')).toEqual([{ from: 1, to: 3 }, { from: 10, to: 11 }]);
    expect(parseSeeds('0-4294967295'.replace('0-', '4294967290-'))).toEqual([{ from: 4294967290, to: 4294967295 }]);
    // a thousands separator is refused, not read as seed 0; three digits without a leading zero are a seed
    expect(inputError(() => parseSeeds('1-20,000')).message).toBe('option --seeds "1-20,000": "000" after a comma looks like a thousands separator; a comma separates seeds and ranges, so write numbers without separators (1-20000)');
    expect(parseSeeds('1,500')).toEqual([{ from: 1, to: 1 }, { from: 500, to: 500 }]);
    // an open range is marked so; a closed one that ends at the last seed is not
    expect(parseSeeds('5-', true)).toEqual([{ from: 5, to: 4294967295, open: true }]);
  });

  it('a closed seed range ending at the last seed plans its deals (not an open-ended study), and can be split into shards', () => {
    const load = () => { throw new Error('not used'); };
    const closed = planStudy({ kind: 'seeds', game: 'spiderette', suits: [1], ranges: parseSeeds('4294967294-4294967295') }, load);
    expect(closed.planned).toBe(2);
    expect(planStudy({ kind: 'seeds', game: 'spiderette', suits: [1], ranges: parseSeeds('4294967295') }, load).planned).toBe(1);
    expect(planStudy({ kind: 'seeds', game: 'spiderette', suits: [1], ranges: parseSeeds('4294967294-', true) }, load).planned).toBeNull();
    expect(parseBatchOptions({ db: 'x.sqlite', game: 'spiderette', suits: '1', seeds: '4294967294-4294967295', shard: '0/2' }, {}).studyParams.dealsSpec).toBe('seeds:4294967294-4294967295');
  });

  it('overlapping seed ranges plan each deal once and say how many they repeated', () => {
    const load = () => { throw new Error('not used'); };
    const plan = planStudy({ kind: 'seeds', game: 'spiderette', suits: [1, 4], ranges: parseSeeds('1-3,2-4,3') }, load);
    expect([...plan.deals].map((d) => d.key)).toEqual(['SE1-1', 'SE4-1', 'SE1-2', 'SE4-2', 'SE1-3', 'SE4-3', 'SE1-4', 'SE4-4']);
    expect([plan.planned, plan.duplicates]).toEqual([8, 6]); // seeds 2 and 3 twice, 3 again, for each suit count
    expect(planStudy({ kind: 'seeds', game: 'spiderette', suits: [1], ranges: parseSeeds('1-3,4') }, load).duplicates).toBe(0);
    const req = parseBatchOptions({ db: 'x.sqlite', game: 'spiderette', suits: '1', seeds: '1-3,2-4' }, {});
    expect([req.studyDeals, req.duplicates]).toEqual([4, 2]);
  });

  it('--seeds refuses empty ranges, bad numbers and huge lists, one line each', () => {
    expect(inputError(() => parseSeeds('10-1')).message).toMatch(/10-1 is empty/);
    for (const bad of ['', 'a-b', '-5', '1-', '4294967296', '1-2-3', '0-99999999']) {
      const e = inputError(() => parseSeeds(bad));
      expect(e.code).toBe('bad-option');
      expect(e.message).not.toContain('\n');
    }
  });

  it('planSeeds goes seed by seed, every suit count for each, without repeats', () => {
    const plan = planSeeds('spiderette', [1, 4], [{ from: 5, to: 6 }, { from: 6, to: 7 }]);
    expect(plan.map((d) => d.key)).toEqual(['SE1-5', 'SE4-5', 'SE1-6', 'SE4-6', 'SE1-7', 'SE4-7']);
    expect(plan[1]).toEqual({ key: 'SE4-5', ref: 'SE4-5', game: 'spiderette', suits: 4, source: { kind: 'seed', seed: 5 } });
  });

  it('a study of more than 1,000,000 deals (seeds × suit counts) is refused before it is planned', () => {
    expect(planSeeds('spider', [1, 2], [{ from: 1, to: 500_000 }])).toHaveLength(1_000_000);
    const e = inputError(() => planSeeds('spider', [1, 2, 4], [{ from: 1, to: 400_000 }]));
    expect(e.code).toBe('bad-option');
    expect(e.message).toBe('options --seeds and --suits: 400000 seeds × 3 suit counts is more than 1000000 deals; split the study');
    expect(inputError(() => parseSeeds('1-1000001')).message).toMatch(/more than 1000000 seeds/);
  });
});

describe('deals files', () => {
  it('reads codes, pysol references and position files; skips comments and blank lines; plans repeats once', () => {
    const start = join(dir, 'start.txt');
    writeFileSync(start, makePositionText(dealPosition(getVariant('spiderette', 2), 3)));
    const p0 = dealPosition(getVariant('spider', 1), 11);
    const mid = applyMove(p0, legalMoves(p0)[0]!).position;
    const midFile = join(dir, 'mid.txt');
    writeFileSync(midFile, makePositionText(mid));
    const file = join(dir, 'deals.txt');
    // SP2-1007's start position in a file: the same deal as the code, by another name
    const same = join(dir, 'sp2-1007.txt');
    writeFileSync(same, makePositionText(dealPosition(getVariant('spider', 2), 1007)));
    writeFileSync(file, ['# a study', '', 'SP2-1007', '  se4-7   # trailing comment', 'pysol:spider:3', start, midFile, 'SP2-1007', same, '   '].join('\n'));
    const planned = planDealsFile(file, loadDeal);
    const plan = planned.deals;
    expect(plan.map((d) => d.source.kind)).toEqual(['seed', 'seed', 'pysol', 'file', 'file']);
    expect(planned.duplicates).toBe(2); // SP2-1007 twice, and its start in a file: planned once, the repeats counted
    expect(plan[0]!.aliases).toEqual([`file:${same}`]); // the other name is kept (the same name twice is not)
    expect(plan[0]).toMatchObject({ key: 'SP2-1007', ref: 'SP2-1007', game: 'spider', suits: 2, source: { kind: 'seed', seed: 1007 } });
    expect(plan[1]!.key).toBe('SE4-7');
    expect(plan[2]).toMatchObject({ game: 'spider', suits: 4, source: { kind: 'pysol', game: 'spider', number: 3 } });
    expect(plan[2]!.key).toMatch(/^SP4X-/);
    expect(plan[2]!.ref).toBe(plan[2]!.key); // the worker loads the code, not the pysol generator
    // a start position from a file has a code; a mid-game one gets a content key and is loaded by path
    expect(plan[3]).toMatchObject({ game: 'spiderette', suits: 2, source: { kind: 'file', path: start } });
    expect(plan[3]!.key).toMatch(/^SE2X-/);
    expect(plan[4]).toMatchObject({ key: positionKey(mid), ref: midFile, source: { kind: 'file', path: midFile } });
    expect(plan[4]!.key).toMatch(/^POS:SP1:[0-9a-f]{16}$/);
    const again = loadDeal(midFile);
    expect(again.ok && dealKey(again.value)).toBe(plan[4]!.key);
  });

  it('cuts a comment tail at the first # after white space, and reads lines padded with many spaces in linear time (a regex backtracked: 160,000 spaces took 38 s)', () => {
    expect(withoutComment('SP2-1 # note # more')).toBe('SP2-1 ');
    expect(withoutComment('SP2-1\t#note')).toBe('SP2-1\t');
    expect(withoutComment('dir#1/pos.txt # x')).toBe('dir#1/pos.txt ');
    expect(withoutComment('dir#1/pos.txt')).toBe('dir#1/pos.txt');
    expect(withoutComment('# whole line')).toBe('# whole line');
    const file = join(dir, 'padded.txt');
    const pad = ' '.repeat(300_000);
    writeFileSync(file, [`SP4-1${pad}`, `${pad}SE2-3`, `SE1-5${pad}#${pad}`, pad].join('\n'));
    expect(planDealsFile(file, loadDeal).deals.map((d) => d.key)).toEqual(['SP4-1', 'SE2-3', 'SE1-5']);
  });

  it('refuses a pipe or device named on a line as a position file, without reading it (a FIFO held the plan past Ctrl-C)', () => {
    const fifo = join(dir, 'pos.fifo');
    execFileSync('mkfifo', [fifo]);
    const file = join(dir, 'special.txt');
    writeFileSync(file, ['SP1-1', fifo, '/dev/null', 'SP1-2'].join('\n'));
    const e = inputError(() => planDealsFile(file, loadDeal));
    expect(e.message).toMatch(/2 bad lines \(2, 3\), nothing was run: line 2: position file .*pos\.fifo: not a regular file \(a pipe, socket or device\); a deals file names position files, which are read again when its study resumes; line 3: position file \/dev\/null: not a regular file/);
  });

  it('lists every bad line with its number, and plans nothing', () => {
    const file = join(dir, 'bad.txt');
    writeFileSync(file, ['SP2-1', 'SP3-1', '# fine', 'pysol:freecell:1', 'SP2-2', join(dir, 'missing.txt'), 'SE1-99999999999'].join('\n'));
    const e = inputError(() => planDealsFile(file, loadDeal));
    expect(e.code).toBe('bad-reference');
    expect(e.message).toMatch(/4 bad lines \(2, 4, 6, 7\), nothing was run/);
    // many bad lines: every number is given up front, then the first 20 messages
    const many = join(dir, 'many.txt');
    writeFileSync(many, Array.from({ length: 30 }, (_, i) => `pysol:freecell:${i}`).join('\n'));
    const m = inputError(() => planDealsFile(many, loadDeal)).message;
    expect(m).toContain(`30 bad lines (${Array.from({ length: 30 }, (_, i) => i + 1).join(', ')}), nothing was run: line 1: `);
    expect(m).toMatch(/; … and 10 more$/);
    expect(e.message).toMatch(/line 2: .*SP3-1/);
    expect(e.message).toMatch(/line 4: .*pysol:freecell:1/);
    expect(e.message).toMatch(/line 6: .*missing\.txt/);
    expect(e.message).toMatch(/line 7: .*out of range/);
    expect(e.message).not.toMatch(/line [135]:/);
  });

  it('--game and --suits filter the deals of a file; a file with none left is a bad-file error', () => {
    const file = join(dir, 'mixed.txt');
    writeFileSync(file, 'SP2-1\nSE2-1\nSP4-1\nSP2-2\n');
    expect(planDealsFile(file, loadDeal)).toMatchObject({ deals: { length: 4 }, leftOut: 0, duplicates: 0 });
    expect(planDealsFile(file, loadDeal, { game: 'spider', suits: [2] }).deals.map((d) => d.key)).toEqual(['SP2-1', 'SP2-2']);
    expect(planDealsFile(file, loadDeal, { game: 'spider', suits: [2] }).leftOut).toBe(2);
    expect(planDealsFile(file, loadDeal, { game: 'spider' }).deals.map((d) => d.key)).toEqual(['SP2-1', 'SP4-1', 'SP2-2']);
    expect(planDealsFile(file, loadDeal, { suits: [2] }).deals.map((d) => d.key)).toEqual(['SP2-1', 'SE2-1', 'SP2-2']);
    const e = inputError(() => planDealsFile(file, loadDeal, { game: 'spiderette', suits: [4] }));
    expect(e.code).toBe('bad-file');
    expect(e.message).toBe(`--deals ${file}: no spiderette 4-suit deal in the file (4 lines of other games or suit counts left out)`);
    // a bad line is still bad, filtered or not
    writeFileSync(file, 'SP2-1\nSE2-1\nnot-a-deal\n');
    expect(inputError(() => planDealsFile(file, loadDeal, { game: 'spider' })).message).toMatch(/1 bad line \(3\), nothing was run: line 3: /);
  });

  it('a missing or empty deals file is a bad-file error', () => {
    expect(inputError(() => planDealsFile(join(dir, 'none.txt'), loadDeal)).message).toMatch(/none\.txt: no such file/);
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '# nothing\n\n');
    expect(inputError(() => planDealsFile(empty, loadDeal)).message).toMatch(/no deal in the file/);
  });
});
