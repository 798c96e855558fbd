/**
 * Rough edges of the command line, in process: an `--out` name whose extension says another form than
 * the one written gets a note on stderr (`report --format md --out r.html`, `blind --out game.txt`,
 * `view --out page.md`); the file is written all the same, and `--quiet` drops the note.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './helpers/cli.js';
import { makeLostDb } from './helpers/db.js';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough5-'));
  db = join(dir, 'lost.sqlite');
  makeLostDb(db);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The stderr lines of a run, the last (the "wrote" line) left out. */
function notes(stderr: string): string[] {
  return stderr.trimEnd().split('\n').slice(0, -1);
}

describe('report --format F --out NAME: a note when the name says another form', () => {
  it('Markdown into .html, CSV into .json, the table into .md: one note each, the file written in the format asked for', async () => {
    const cases: [string, string, string][] = [
      ['md', 'r.html', 'Markdown, though its extension says an HTML page'],
      ['csv', 'r.json', 'CSV, though its extension says JSON'],
      ['table', 'r.md', 'the text table, though its extension says Markdown'],
    ];
    for (const [format, name, says] of cases) {
      const out = join(dir, name);
      const r = await runInProcess(['report', '--db', db, '--format', format, '--out', out]);
      expect(r.status).toBe(0);
      expect(notes(r.stderr)).toEqual([`spidersolve: note: ${out} holds ${says}`]);
      expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^spidersolve: wrote /);
    }
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toMatch(/^\| study \| game \|/);
    expect(readFileSync(join(dir, 'r.json'), 'utf8')).toMatch(/^study,game,/);
  });
  it('no note where the name fits or has no extension: .md for md, .json for vega, .txt for the table, none', async () => {
    for (const [format, name] of [['md', 'a.md'], ['vega', 'a.json'], ['table', 'a.txt'], ['json', 'a']]) {
      const r = await runInProcess(['report', '--db', db, '--format', format!, '--out', join(dir, name!)]);
      expect([r.status, notes(r.stderr)]).toEqual([0, []]);
    }
  });
  it('--quiet drops the note with the rest', async () => {
    const r = await runInProcess(['report', '--db', db, '--format', 'md', '--out', join(dir, 'q.html'), '--quiet']);
    expect([r.status, r.stderr]).toEqual([0, '']);
  });
});

describe('blind and view write a page: a note for a name that says another form', () => {
  it('blind --out game.txt: the note, then the page', async () => {
    const out = join(dir, 'game.txt');
    const r = await runInProcess(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '0', '--out', out]);
    expect(r.status).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe(`spidersolve: note: ${out} holds an HTML page, though its extension says text`);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/i);
  });
  it('view --out page.md: the note; view --out page.htm: none', async () => {
    const md = join(dir, 'page.md');
    const r = await runInProcess(['view', 'SE4-7', '--out', md]);
    expect([r.status, notes(r.stderr)]).toEqual([0, [`spidersolve: note: ${md} holds an HTML page, though its extension says Markdown`]]);
    const htm = await runInProcess(['view', 'SE4-7', '--out', join(dir, 'page.htm')]);
    expect([htm.status, notes(htm.stderr)]).toEqual([0, []]);
  });
});

describe('blind games: the numbering of a PySolFC deal, the page\'s end sentence, export\'s row words', () => {
  it('blind on a PySolFC deal says which numbering its moves are in, as solve does (PySolFC\'s by default, clubs for spades below four suits)', async () => {
    const one = await runInProcess(['blind', 'pysol:spider1:3', '--player', 'greedy', '--loss-budget', '0']);
    expect(one.stdout.split('\n')[1]).toBe("columns: PySolFC's, 1-10 left to right as PySolFC lays the deal out, so the moves can be played in PySolFC as printed; cards in PySolFC's suits (clubs for spades) (--columns spidersolve for spidersolve's layout)");
    const own = await runInProcess(['blind', 'pysol:spider1:3', '--player', 'greedy', '--loss-budget', '0', '--columns', 'spidersolve']);
    expect(own.stdout.split('\n')[1]).toBe("columns: spidersolve's layout (PySolFC columns 1,4,7,10,2,3,5,6,8,9 are spidersolve's 1-10); --columns pysol for PySolFC's own numbers");
    const ette = await runInProcess(['blind', 'pysol:spiderette:3', '--player', 'greedy', '--loss-budget', '0']);
    expect(ette.stdout.split('\n')[1]).toBe("columns: PySolFC's, 1-7 left to right as PySolFC lays the deal out (the same as spidersolve's), so the moves can be played in PySolFC as printed (--columns spidersolve for spidersolve's layout)");
    // a deal code has one numbering: no such line
    const code = await runInProcess(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '0']);
    expect(code.stdout.split('\n')[1]).toMatch(/^ {3}1\. /);
  });
  it('the page\'s note starts its end sentence with a capital', async () => {
    const out = join(dir, 'stuck.html');
    await runInProcess(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '0', '--out', out]);
    expect(readFileSync(out, 'utf8')).toContain('(the reveal toggle shows them). Stuck after 34 moves');
  });
  it('export of blind games says what a row is for them', async () => {
    const bdb = join(dir, 'blind.sqlite');
    expect((await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--player', 'greedy', '--db', bdb, '--workers', '1', '--quiet'])).status).not.toBe(2);
    const out = join(dir, 'blind.csv');
    const r = await runInProcess(['export', '--db', bdb, '--out', out]);
    expect(r.stderr).toBe(`spidersolve: wrote ${out}: CSV, 2 rows (one a study, deal and budget, or for a blind game a study, deal, player and player seed)\n`);
  });
});

describe('the blind table in text and Markdown', () => {
  it('figures right-aligned as in the solve table; the Markdown table aligns them and has the legend under it', async () => {
    const bdb = join(dir, 'blind-table.sqlite');
    await runInProcess(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-12', '--player', 'greedy', '--db', bdb, '--workers', '1', '--quiet']);
    const text = (await runInProcess(['report', '--db', bdb])).stdout.split('\n');
    const head = text.findIndex((l) => l.startsWith('study'));
    // deals 12 under "deals", right-aligned: the header and the figure end in the same column
    const h = text[head]!;
    const row = text[head + 1]!;
    const end = h.indexOf('deals') + 'deals'.length;
    expect(row.slice(end - 2, end)).toBe('12');
    expect(text[head + 2]).toBe('blind: played without seeing the face-down cards or the stock, one game a deal; won/stuck/errors count games;');
    const md = (await runInProcess(['report', '--db', bdb, '--format', 'md'])).stdout.split('\n');
    expect(md[3]).toBe('| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    expect(md.at(-2)).toMatch(/^blind: played without seeing .* with its 95% Wilson interval\.$/);
  });
});
