/**
 * Rough edges of the command line, in process: a deal or position read from standard input (`-`) is
 * named `- (standard input)` in messages, as `batch --deals -` is; a player spec with an empty
 * parameter names its place, and blanks around a spec's colon, commas and `=` are all taken alike;
 * `blind`'s cost line says what its plans and greedy fallbacks are; `merge` refuses the --into
 * database as its only input, and one input named twice.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlayerSpec, SAMPLE_DEFAULTS, specText } from '../src/blind/players/index.js';
import { InputError } from '../src/game/errors.js';
import { expectOneLineError, expectUnchanged, runInProcess, snapshot } from './helpers/cli.js';
import { countIn, makeLostDb } from './helpers/db.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough6-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('<deal> -: standard input named as such', () => {
  it('empty standard input: every command that reads a deal names it "- (standard input)", not /dev/stdin', async () => {
    for (const args of [['show', '-'], ['solve', '-'], ['hint', '-'], ['moves', '-'], ['play', '-', 'd'], ['blind', '-']]) {
      const r = await runInProcess(args, { stdin: '' });
      expectOneLineError(r, /^spidersolve: position file - \(standard input\): no columns; write one line per column/);
    }
  });

  it('a position on standard input is read through the process\'s standard input (a socket or a pipe alike)', async () => {
    const pos = await runInProcess(['show', 'SP1-1', '--format', 'position']);
    expect(pos.status).toBe(0);
    const r = await runInProcess(['show', '-', '--json'], { stdin: pos.stdout });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: { kind: 'file', path: '/dev/stdin', text: 'SP1-1' }, game: 'spider', suits: 1 });
  });

  it('a zero byte on standard input: not a text file, named as standard input', async () => {
    const r = await runInProcess(['show', '-'], { stdin: '\0\0' });
    expectOneLineError(r, /^spidersolve: position file - \(standard input\): not a text file \(a zero byte at line 1\)/);
  });
});

describe('--player specs: empty parameters and blanks', () => {
  it('blind --player "sample:k=8,,budget=100": one line naming the spec and that parameter 2 is empty', async () => {
    const r = await runInProcess(['blind', 'SP1-1', '--player', 'sample:k=8,,budget=100']);
    expectOneLineError(r, /^spidersolve: player "sample:k=8,,budget=100": parameter 2 of 3 is empty \(two commas in a row\); separate key=value parameters with single commas\n$/);
  });

  it.each([
    ['sample:,k=1', 'player "sample:,k=1": parameter 1 of 2 is empty (a comma right after the colon); separate key=value parameters with single commas'],
    ['sample:k=1,', 'player "sample:k=1,": parameter 2 of 2 is empty (a comma at the end); separate key=value parameters with single commas'],
    ['sample:k=1, ,hop=2', 'player "sample:k=1, ,hop=2": parameter 2 of 3 is empty (two commas in a row); separate key=value parameters with single commas'],
    ['sample:=5', 'player "sample:=5": parameter 1, "=5", has no key before its =; write key=value'],
  ])('%s is refused in one line', (text, message) => {
    expect(() => parsePlayerSpec(text)).toThrow(InputError);
    expect(() => parsePlayerSpec(text)).toThrow(message);
  });

  it('blanks before or after the colon, a comma or an = are all dropped: "sample :k=1" as "sample:k= 1"', () => {
    const k1 = { name: 'sample', ...SAMPLE_DEFAULTS, k: 1 };
    for (const text of ['sample :k=1', 'sample: k=1', 'sample:k= 1', 'sample:k =1', ' sample : k = 1 ', 'SAMPLE\t:k=1']) expect(parsePlayerSpec(text)).toEqual(k1);
    expect(parsePlayerSpec('sample : k = 4 , budget = 1000 , plan = move')).toEqual({ name: 'sample', ...SAMPLE_DEFAULTS, k: 4, budget: 1000, plan: 'move' });
    // the canonical text has no blanks
    expect(specText(parsePlayerSpec('sample : k = 4 , budget = 1000'))).toBe('sample:k=4,budget=1000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3');
  });

  it('any canonical text with blanks put around its colon, commas and = reads as the same spec', () => {
    const blank = fc.constantFrom('', ' ', '  ', '\t');
    fc.assert(
      fc.property(
        fc.record({ k: fc.integer({ min: 1, max: 1000 }), budget: fc.integer({ min: 100, max: 10_000_000 }), hop: fc.integer({ min: 0, max: 100 }), endk: fc.integer({ min: 0, max: 1000 }) }),
        fc.array(blank, { minLength: 40, maxLength: 40 }),
        (settings, blanks) => {
          const spec = { name: 'sample' as const, ...SAMPLE_DEFAULTS, ...settings };
          const text = specText(spec);
          let i = 0;
          const spaced = text.replace(/[:,=]/g, (c) => `${blanks[i++ % blanks.length]}${c}${blanks[i++ % blanks.length]}`);
          expect(parsePlayerSpec(spaced)).toEqual(spec);
          expect(specText(parsePlayerSpec(spaced))).toBe(text);
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });
});

describe('blind: the cost line says what plans and greedy fallbacks are', () => {
  it('the sample player: plans voted, and moves played by the greedy fallback without a vote', async () => {
    const r = await runInProcess(['blind', 'SE2-5', '--player', 'sample:k=2,budget=500,eval=win,escalate=2,endhop=0', '--loss-budget', '0']);
    // stuck: exit 3
    expect(r.status).toBe(3);
    const last = r.stdout.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^cost: \d+\.\d s; 60 solves, 66,414 positions; 20 plans voted, 1 move played by the greedy fallback \(without a vote\)$/);
  });

  it('greedy votes on nothing: no plans or fallbacks on its line', async () => {
    const r = await runInProcess(['blind', 'SE1-38', '--player', 'greedy', '--loss-budget', '0']);
    const last = r.stdout.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^cost: \d+\.\d s; 0 solves, 0 positions$/);
  });
});

describe('merge: the --into database as its only input, or an input named twice, is refused', () => {
  it('merge --into m.sqlite m.sqlite: exit 2, one line naming it, the file untouched', async () => {
    const m = join(dir, 'm.sqlite');
    makeLostDb(m);
    const before = snapshot(m);
    const r = await runInProcess(['merge', '--into', m, m]);
    expectOneLineError(r, new RegExp(`^spidersolve: merge: ${m.replace(/[.]/g, '\\.')} is the --into database; give the databases to merge into it\\n$`));
    expectUnchanged(m, before);
    // by another name of it, too: that name is the one shown
    const again = await runInProcess(['merge', '--into', m, 'm.sqlite', m], { cwd: dir });
    expectOneLineError(again, /^spidersolve: merge: input m\.sqlite is the --into database \(\S+\/m\.sqlite\); give the databases to merge into it\n$/);
    expectUnchanged(m, before);
  });

  it('an input given twice: exit 2, one line naming it; nothing written, not even a new target', async () => {
    const a = join(dir, 'a.sqlite');
    makeLostDb(a);
    const into = join(dir, 'twice-into.sqlite');
    const r = await runInProcess(['merge', '--into', into, a, a], { cwd: dir });
    expectOneLineError(r, /^spidersolve: merge: input \S+\/a\.sqlite is given twice; give each database once \(was another meant\?\)\n$/);
    expect(() => snapshot(into)).toThrow(/ENOENT/);
    // into an existing target: it is left as it was
    const m2 = join(dir, 'm2.sqlite');
    copyFileSync(a, m2);
    const before = snapshot(m2);
    expectOneLineError(await runInProcess(['merge', '--into', m2, a, 'a.sqlite', a], { cwd: dir }), /is given twice/);
    expectUnchanged(m2, before);
    expect(countIn(m2)).toEqual(countIn(a));
  });

  it('the target among other inputs (a glob that matches it) is still skipped, and the others merged', async () => {
    const a = join(dir, 'g1.sqlite');
    makeLostDb(a);
    const into = join(dir, 'g-into.sqlite');
    expect((await runInProcess(['merge', '--into', into, a, '--quiet'])).status).toBe(0);
    const r = await runInProcess(['merge', '--into', into, into, a, '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).inputs.map((i: { skipped: string | null }) => i.skipped)).toEqual(['it is the target', null]);
  });
});
