/**
 * Rough edges of the command line, in process: `export --out` refuses a file named for another
 * format; its "wrote" line and help count a row for each study, deal and budget (a ladder study's deal
 * has one per rung); `batch` starts no more workers than the run has deals; `blind`'s text shows
 * the cards left face down with suit symbols, as its moves show cards; `blind` and `hint` take
 * --quiet.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workersToStart } from '../src/batch/runner.js';
import { defaultWorkerCount } from '../src/batch/pool.js';
import { endText } from '../src/cli/blind.js';
import type { BlindGame } from '../src/blind/game.js';
import { runInProcess } from './helpers/cli.js';
import { makeLostDb } from './helpers/db.js';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-rough4-'));
  db = join(dir, 'lost.sqlite');
  makeLostDb(db);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('export --out: a file named for another format is refused', () => {
  it('.json, .md, .markdown, .html, .htm (any case): exit 2, one line, nothing written', async () => {
    const cases: [string, string][] = [
      ['e.json', 'json for JSON'], ['e.md', 'md for Markdown'], ['e.markdown', 'md for Markdown'],
      ['e.html', 'html for HTML'], ['e.htm', 'html for HTML'], ['E.JSON', 'json for JSON'],
    ];
    for (const [name, hint] of cases) {
      const out = join(dir, 'refused', name);
      for (const more of [[], ['--summary']]) {
        const r = await runInProcess(['export', '--db', db, '--out', out, ...more]);
        expect([r.status, r.stdout, r.stderr]).toEqual([
          2, '',
          `spidersolve: option --out "${out}": export writes CSV only; name the file .csv (or give another name), or use spidersolve report --format ${hint}\n`,
        ]);
      }
    }
    expect(existsSync(join(dir, 'refused'))).toBe(false);
  });

  it('.csv, .txt and a name without an extension are written', async () => {
    for (const name of ['e.csv', 'e.txt', 'e']) {
      const out = join(dir, 'taken', name);
      const r = await runInProcess(['export', '--db', db, '--out', out]);
      expect([r.status, r.stdout]).toEqual([0, '']);
      expect(r.stderr).toMatch(new RegExp(`^spidersolve: wrote ${out.replace(/[.\\/]/g, '\\$&')}: CSV, 3 rows `));
    }
    expect(readdirSync(join(dir, 'taken')).sort()).toEqual(['e', 'e.csv', 'e.txt']);
  });
});

describe('export: the rows are one a study, deal and budget', () => {
  it('a ladder study of 2 deals undecided at both rungs exports 4 rows, and says so; --summary its 2 report rows', async () => {
    const ladder = join(dir, 'ladder.sqlite');
    const b = await runInProcess(['batch', '--db', ladder, '--game', 'spider', '--suits', '4', '--seeds', '1-2', '--max-positions', '20,40', '--workers', '1', '--study', 'lad', '--quiet']);
    expect(b.status).toBe(0);
    const out = join(dir, 'ladder.csv');
    const r = await runInProcess(['export', '--db', ladder, '--out', out]);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', `spidersolve: wrote ${out}: CSV, 4 rows (one a study, deal and budget)\n`]);
    const lines = readFileSync(out, 'utf8').split('\r\n').filter(Boolean);
    const header = lines[0].split(',');
    const budget = header.indexOf('max_positions');
    expect(budget).toBeGreaterThan(1);
    expect(lines.slice(1).map((l) => { const f = l.split(','); return `${f[0]} ${f[1]} ${f[budget]}`; }))
      .toEqual(['lad SP4-1 20', 'lad SP4-1 40', 'lad SP4-2 20', 'lad SP4-2 40']);
    const summaryOut = join(dir, 'ladder-summary.csv');
    const s = await runInProcess(['export', '--db', ladder, '--summary', '--out', summaryOut]);
    expect([s.status, s.stderr]).toEqual([0, `spidersolve: wrote ${summaryOut}: CSV of the report rows, 2 rows\n`]);
  });

  it('--help says what a row is', async () => {
    const help = (await runInProcess(['export', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('write the studies\' results as CSV (RFC 4180): one row per study, deal and budget, or the report rows (--summary)');
    expect(help).toContain('A ladder study has one row per rung a deal was stored at.');
    expect(help).toContain('--summary export the report rows instead of one row per study, deal and budget');
  });
});

describe('batch --workers: no more workers than deals', () => {
  it('workersToStart: the workers asked, at most the plan\'s deals, at least 1; all asked for an open-ended plan', () => {
    expect([workersToStart(99, 2), workersToStart(2, 99), workersToStart(4, 4), workersToStart(3, 0), workersToStart(5, null)]).toEqual([2, 2, 4, 1, 5]);
  });

  it('--workers 99 on 2 deals starts 2 and says so; the results are those of --workers 1', async () => {
    /** Runs the 2 deals with `workers` into a database of its own; returns the summary, the note and the export's lasting columns. */
    async function run(workers: string): Promise<{ summary: string; noted: boolean; rows: string[]; studies: string }> {
      const file = join(dir, `w${workers}.sqlite`);
      const b = await runInProcess(['batch', '--db', file, '--game', 'spiderette', '--suits', '1', '--seeds', '1-2', '--max-positions', '300', '--workers', workers, '--study', 'w']);
      expect(b.status).toBe(0);
      const csv = (await runInProcess(['export', '--db', file])).stdout.split('\r\n').filter(Boolean);
      const header = csv[0]!.split(',');
      const keep = ['name', 'deal', 'max_positions', 'status', 'positions', 'move_count', 'line'].map((c) => header.indexOf(c));
      expect(keep).not.toContain(-1);
      const studies = (await runInProcess(['studies', '--db', file])).stdout;
      return { summary: b.stdout, noted: b.stderr.includes('note: --workers'), rows: csv.slice(1).map((l) => keep.map((i) => l.split(',')[i]).join(',')), studies };
    }
    const many = await run('99');
    const one = await run('1');
    expect(many.summary).toMatch(/, 2 workers\)/);
    expect(many.studies).toMatch(/; 2 workers, solver /);
    expect(one.summary).toMatch(/, 1 worker\)/);
    expect(many.rows).toHaveLength(2);
    expect(many.rows).toEqual(one.rows);
    // the note on more workers than CPUs is of the 2 started
    expect(many.noted).toBe(2 > defaultWorkerCount());
  });
});

describe('blind: the cards left face down in the notation of the moves', () => {
  it('blind SP2-7 --player greedy: the face-down cards with suit symbols; --json keeps the machine form', async () => {
    const r = await runInProcess(['blind', 'SP2-7', '--player', 'greedy', '--loss-budget', '0']);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('  71. 10-4   move 4 cards 4♥..A♥ from column 10 onto 5♠ in column 4');
    expect(lines.filter((l) => l.startsWith('  face down in column'))).toEqual([
      '  face down in column 1: Q♥',
      '  face down in column 2: A♥ 8♥ 8♠ A♠ 3♥',
      '  face down in column 3: J♠ 7♥ 3♥ Q♠',
      '  face down in column 7: 2♠',
      '  face down in column 8: 9♥ J♥ Q♠ 4♠',
      '  face down in column 9: K♠ 7♠ 7♠ K♥',
      '  face down in column 10: 5♥ A♠ 2♥',
    ]);
    const json = JSON.parse((await runInProcess(['blind', 'SP2-7', '--player', 'greedy', '--loss-budget', '0', '--json'])).stdout) as { faceDown: string[][]; steps: { turnedUp: { card: string }[] }[] };
    expect(json.faceDown[1]).toEqual(['AH', '8H', '8S', 'AS', '3H']);
    expect(json.steps[0]!.turnedUp).toEqual([{ column: 7, card: '4H' }]);
  });

  it('the stock\'s cards too (10 as 10, every suit)', () => {
    const g = { result: 'stuck', steps: [], completed: 0, completeSuits: 4, stuckReason: 'no move', faceDown: [['10D'], []], stock: [['AS', 'KC']] } as unknown as BlindGame;
    expect(endText(g)).toEqual([
      'stuck after 0 moves (no move the player would play), 0 of 4 suits completed; 1 card left face down, 2 in the stock',
      '  face down in column 1: 10♦',
      '  stock deal 1: A♠ K♣',
    ]);
  });
});

describe('blind and hint --quiet: nothing on stderr but errors', () => {
  it('blind --out --quiet writes the page without the "wrote" line; the game on stdout is the same', async () => {
    const out = join(dir, 'blind.html');
    const loud = await runInProcess(['blind', 'SE1-1', '--player', 'greedy', '--loss-budget', '0', '--out', out]);
    expect(loud.stderr).toMatch(new RegExp(`^spidersolve: wrote ${out.replace(/[.\\/]/g, '\\$&')}: SE1-1, played blind by greedy: (won in|stuck after) \\d+ moves?\n$`));
    rmSync(out);
    const quiet = await runInProcess(['blind', 'SE1-1', '--player', 'greedy', '--loss-budget', '0', '--out', out, '--quiet']);
    expect([quiet.status, quiet.stderr]).toEqual([loud.status, '']);
    expect(quiet.stdout.replace(/^cost: .*$/m, '')).toBe(loud.stdout.replace(/^cost: .*$/m, ''));
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('the note on a deal code read as ASCII is left out with --quiet (blind and hint); errors stay', async () => {
    for (const cmd of [['blind', 'ＳＥ1-1', '--player', 'greedy', '--loss-budget', '0'], ['hint', 'ＳＥ1-1', '--max-positions', '1000']]) {
      const loud = await runInProcess(cmd);
      expect(loud.stderr).toMatch(/^spidersolve: note: read deal "ＳＥ1-1" as SE1-1: its characters .* are not ASCII/);
      const quiet = await runInProcess([...cmd, '--quiet']);
      expect([quiet.status, quiet.stdout.replace(/^cost: .*$/m, ''), quiet.stderr]).toEqual([loud.status, loud.stdout.replace(/^cost: .*$/m, ''), '']);
      const bad = await runInProcess([cmd[0]!, 'SE9-1', '--quiet']);
      expect([bad.status, bad.stderr]).toEqual([2, expect.stringMatching(/^spidersolve: .*\n$/)]);
    }
  });

  it('--help of both lists --quiet', async () => {
    for (const cmd of ['blind', 'hint']) {
      const help = (await runInProcess([cmd, '--help'])).stdout.replace(/\s+/g, ' ');
      expect(help).toContain('--quiet print nothing on stderr but errors: no progress, notes or "wrote" line');
    }
  });
});
