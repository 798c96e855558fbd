/**
 * The solution viewer without a browser: the frames (src/view/frames.ts) against `play`'s own replay
 * (playLine), the page (src/view/page.ts: escaping, embedded data, nothing loaded from the network)
 * and the `view` command end to end (a given line, a stored result, undecided, bad input).
 * The browser checks are in view.slow.test.ts.
 */
import { existsSync, linkSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordFromOutcome, ResultStore } from '../src/batch/store.js';
import { planSeeds } from '../src/batch/deals.js';
import { loadDeal } from '../src/game/ref.js';
import { playLine } from '../src/game/score.js';
import { makePositionJson, makePositionText, positionToJson } from '../src/game/positionFile.js';
import { SOLVER_VERSION } from '../src/solver/types.js';
import { lineFrames, type ViewFrame } from '../src/view/frames.js';
import { escapeHtml, jsonForScript } from '../src/view/html.js';
import { viewerPage } from '../src/view/page.js';
import { SE1_1_LINE } from './helpers/lines.js';
import { runInProcess } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-view-'));


function start(ref: string) {
  const d = loadDeal(ref);
  if (!d.ok) throw d.error;
  return d.value;
}

async function cli(...args: string[]) {
  const r = await runInProcess(args);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The JSON embedded in a viewer page. */
function embedded(html: string): { completeSuits: number; frames: ViewFrame[] } {
  const m = /<script id="view-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}

describe('lineFrames', () => {
  const deal = start('SE1-1');
  const line = SE1_1_LINE.split(' ');
  const r = lineFrames(deal.position, line);
  if (!r.ok) throw r.error;
  const frames = r.value;

  it('has one frame per move plus the start, and each equals what play gives after k moves', () => {
    expect(frames).toHaveLength(64);
    for (let k = 0; k <= line.length; k++) {
      const p = playLine(deal.position, line.slice(0, k));
      if (!p.ok) throw p.error;
      const j = positionToJson(p.value.position);
      const f = frames[k]!;
      expect(f.step).toBe(k);
      expect(f.columns.map((c) => ({ faceDown: c.down, faceUp: c.up }))).toEqual(j.columns);
      expect(f.stock).toEqual(j.stockDeals);
      expect(f.removed).toEqual(j.removed);
      expect([f.classic, f.reveal, f.flips, f.won]).toEqual([p.value.classic, p.value.reveal, p.value.flips, p.value.won]);
      if (k > 0) expect(f.move).toBe(p.value.moves[k - 1]);
    }
  });

  it('ends won with 4 spade suits removed, classic 837 and reveal 505 (as solve reports for SE1-1)', () => {
    const last = frames[63]!;
    expect(last.won).toBe(true);
    expect(last.removed).toEqual(['S', 'S', 'S', 'S']);
    expect([last.classic, last.reveal]).toEqual([837, 505]);
    expect(frames.slice(0, 63).every((f) => !f.won)).toBe(true);
  });

  it('names each move in words, the cards turned up and the suits completed', () => {
    // move 1, 2-7: the 6♠ of column 2 onto 7♠ in column 7, turning up column 2's face-down card
    expect(frames[0]!.columns[1]).toEqual({ down: ['3S'], up: ['6S'] });
    expect(frames[1]!.move).toBe('2-7');
    expect(frames[1]!.words).toBe('move 6♠ from column 2 onto 7♠ in column 7, turns up a card');
    expect(frames[1]!.turnedUp).toEqual([{ column: 2, card: '3S' }]);
    expect(frames[1]!.landed).toEqual([{ column: 7, count: 1 }]);
    // move 14 is the first deal: 7 cards, 3 deals left after it
    expect(frames[14]!.move).toBe('d');
    expect(frames[14]!.words).toBe('deal 7 cards from the stock onto columns 1-7; 3 deals left');
    expect(frames[14]!.landed.map((l) => l.column)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // every completed suit is reported on the move that completed it, and nowhere else
    const completedAt = frames.flatMap((f) => f.completed.map(() => f.step));
    expect(completedAt).toHaveLength(4);
    for (const k of completedAt) expect(frames[k]!.removed.length).toBeGreaterThan(frames[k - 1]!.removed.length);
    // turned-up counts add up to the flips
    expect(frames.reduce((s, f) => s + f.turnedUp.length, 0)).toBe(frames[63]!.flips);
  });

  it('refuses an illegal move with play\'s own message', () => {
    const bad = lineFrames(deal.position, ['2-7', '1-2']);
    const p = playLine(deal.position, ['2-7', '1-2']);
    expect(bad.ok).toBe(false);
    expect(p.ok).toBe(false);
    if (!bad.ok && !p.ok) {
      expect(bad.error.message).toBe(p.error.message);
      expect(bad.error.message).toMatch(/\(move 2 of the line\)$/);
    }
  });
});

describe('viewerPage', () => {
  const deal = start('SE1-1');
  const r = lineFrames(deal.position, SE1_1_LINE.split(' '));
  if (!r.ok) throw r.error;
  const html = viewerPage({ title: 'a <b>"title"</b> & </script>', variantLabel: 'spiderette, 1 suit', completeSuits: 4, verdict: 'won', note: '<img src=x onerror=alert(1)>', frames: r.value, generator: 'spidersolve test' });

  it('escapes what it is given and embeds the frames so that they parse back', () => {
    expect(html).toContain('<h1>a &lt;b&gt;&quot;title&quot;&lt;/b&gt; &amp; &lt;/script&gt;</h1>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    const data = embedded(html);
    expect(data.completeSuits).toBe(4);
    expect(data.frames).toEqual(r.value);
    expect(escapeHtml(`<'&">`)).toBe('&lt;&#39;&amp;&quot;&gt;');
    expect(jsonForScript({ a: '</script><!--\u2028' })).toBe('{"a":"\\u003c/script\\u003e\\u003c!--\\u2028"}');
    expect(JSON.parse(jsonForScript({ a: '</script>&\u2029' }))).toEqual({ a: '</script>&\u2029' });
  });

  it('loads nothing: no external script, style, image, font or link', () => {
    const html = viewerPage({ title: 'SE1-1', variantLabel: 'spiderette, 1 suit', completeSuits: 4, verdict: 'won', note: 'a note', frames: r.value, generator: 'spidersolve test' });
    expect(html).not.toMatch(/\s(src|href)\s*=/i);
    expect(html).not.toMatch(/<link|@import|url\(|<iframe|<img|fetch\(|XMLHttpRequest/i);
    expect(html).not.toMatch(/https?:\/\//);
  });
});

describe('spidersolve view', () => {
  it('writes the page for a given line and says it is won', async () => {
    const out = join(dir, 'nested', 'se1-1.html');
    const r = await cli('view', 'SE1-1', '--line', SE1_1_LINE, '--out', out);
    expect(r.status).toBe(0);
    expect([r.stdout, r.stderr]).toEqual(['', `spidersolve: wrote ${out}: SE1-1, won in 63 moves\n`]);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('data-verdict="won"');
    expect(embedded(html).frames).toHaveLength(64);
  });

  it('uses a stored won line or a stored loss instead of solving', async () => {
    const db = join(dir, 'stored.sqlite');
    const store = ResultStore.openForWriting(db);
    const [se11, se12] = planSeeds('spiderette', [1], [{ from: 1, to: 2 }]);
    // a budget of 123 positions and a loss of SE1-2 are what no solve here would give: only the store says so
    const won = recordFromOutcome(se11!, 123, { key: se11!.key, status: 'won', positions: 77, elapsedMs: 1, line: SE1_1_LINE, moveCount: 63, classicScore: 837, revealScore: 505, peakBytes: 0, solverVersion: SOLVER_VERSION, workerMs: 1 });
    const lost = recordFromOutcome(se12!, 123, { key: se12!.key, status: 'lost', positions: 5, elapsedMs: 1, line: '', moveCount: null, classicScore: null, revealScore: null, peakBytes: 0, solverVersion: SOLVER_VERSION, workerMs: 1 });
    store.writeResults(null, [won, lost]);
    store.close();
    const a = await cli('view', 'SE1-1', '--solve', '--db', db, '--out', join(dir, 'stored-won.html'));
    expect(a.stderr).toMatch(/won in 63 moves/);
    const page = readFileSync(join(dir, 'stored-won.html'), 'utf8');
    expect(page).toContain(`stored in ${db} (solver ${SOLVER_VERSION}, budget 123 positions, found in 77 positions); not solved again.`);
    expect(embedded(page).frames.map((f) => f.move).slice(1).join(' ')).toBe(SE1_1_LINE);
    const b = await cli('view', 'SE1-2', '--solve', '--db', db, '--out', join(dir, 'stored-lost.html'));
    expect([b.stdout, b.stderr]).toEqual(['', `spidersolve: wrote ${join(dir, 'stored-lost.html')}: SE1-2, lost (proven)\n`]);
    expect(readFileSync(join(dir, 'stored-lost.html'), 'utf8')).toContain('data-verdict="lost"');
  });

  it('solves when nothing is stored, and says undecided plainly', async () => {
    const out = join(dir, 'undecided.html');
    const r = await cli('view', 'SP4-1', '--solve', '--max-positions', '10', '--db', join(dir, 'absent.sqlite'), '--out', out);
    expect(r.status).toBe(0);
    expect([r.stdout, r.stderr]).toEqual(['', `spidersolve: wrote ${out}: SP4-1, undecided\n`]);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('data-verdict="undecided"');
    expect(html).toContain('Undecided: no win found within the budget of 10 positions');
    expect(embedded(html).frames).toHaveLength(1);
    // a database named by nothing, or by a folder's name, is refused as the other commands refuse it
    const none = join(dir, 'none.html');
    expect(await cli('view', 'SE1-1', '--solve', '--db', '', '--out', none)).toMatchObject({ status: 2, stderr: 'spidersolve: database "": the file name is empty\n' });
    expect(await cli('view', 'SE1-1', '--solve', '--db', `${dir}/`, '--out', none)).toMatchObject({ status: 2, stderr: expect.stringContaining(': ends in /, so it names a folder; give a file name') });
    expect(existsSync(none)).toBe(false);
  });

  it('reads and shows a PySolFC deal\'s line in PySolFC\'s columns and suits, as play does', async () => {
    const ref = 'pysol:spider1:3';
    const first = JSON.parse((await cli('moves', ref, '--json')).stdout).moves[0] as string; // PySolFC's numbering
    const out = join(dir, 'pysol.html');
    const r = await cli('view', ref, '--line', `${first} d`, '--out', out);
    expect(r.stderr).toBe(`spidersolve: wrote ${out}: pysol:spider1:3, a line of 2 moves, not won\n`);
    const played = JSON.parse((await cli('play', ref, `${first} d`, '--json')).stdout);
    const html = readFileSync(out, 'utf8');
    const data = embedded(html) as unknown as { columnLabels: number[]; spadesAsClubs: boolean; frames: ViewFrame[] };
    expect(data.frames.slice(1).map((f) => f.move)).toEqual(played.moves);
    expect(data.frames[2]!.columns.map((c) => ({ faceDown: c.down, faceUp: c.up }))).toEqual(played.position.columns);
    expect(data.columnLabels).toEqual([1, 4, 7, 10, 2, 3, 5, 6, 8, 9]);
    expect(data.spadesAsClubs).toBe(true);
    expect(data.frames[1]!.words).toMatch(/♣/);
    expect(html).toContain('Columns: PySolFC&#39;s, 1-10 left to right as PySolFC lays the deal out');
    // --columns spidersolve reads and shows spidersolve's numbers
    const own = await cli('view', ref, '--columns', 'spidersolve', '--line', played.moves.length ? 'd' : '', '--out', join(dir, 'own.html'));
    expect(own.status).toBe(0);
    expect((embedded(readFileSync(join(dir, 'own.html'), 'utf8')) as unknown as { columnLabels: number[] }).columnLabels).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('refuses bad input with one line and exit 2', async () => {
    const both = await cli('view', 'SE1-1', '--line', '2-7', '--solve');
    expect([both.status, both.stderr]).toEqual([2, 'spidersolve: option --line: give either --line or --solve, not both\n']);
    const illegal = await cli('view', 'SE1-1', '--line', '2-7 1-2', '--out', join(dir, 'x.html'));
    expect(illegal.status).toBe(2);
    expect(illegal.stderr).toMatch(/^spidersolve: move "1-2": .*\(move 2 of the line\)\n$/);
    // an empty line is refused as play refuses it, and no page is written
    for (const empty of ['', ' , ']) {
      const none = await cli('view', 'SE1-1', '--line', empty, '--out', join(dir, 'empty.html'));
      expect([none.status, none.stderr]).toEqual([2, 'spidersolve: option --line: no moves given (the line is empty); give moves such as "5-2 d", or leave --line out to show the position alone\n']);
    }
    expect(existsSync(join(dir, 'empty.html'))).toBe(false);
    // a write that fails (a full disk: /dev/full) is an error, not "wrote"
    const full = await cli('view', 'SE1-1', '--line', '2-7', '--out', '/dev/full');
    expect([full.status, full.stdout, full.stderr]).toEqual([2, '', 'spidersolve: option --out "/dev/full": cannot write it (ENOSPC: no space left on device, write); nothing was written there\n']);
    expect((await cli('view', 'SE9-1')).status).toBe(2);
    const budget = await cli('view', 'SE1-1', '--max-positions', '10');
    expect([budget.status, budget.stderr]).toEqual([2, 'spidersolve: option --max-positions: only with --solve\n']);
    // a ladder of budgets is batch's: view is told it takes one (it was "not a whole number in digits")
    const ladder = await cli('view', 'SE1-1', '--solve', '--max-positions', '100,200', '--out', join(dir, 'ladder.html'));
    expect([ladder.status, ladder.stderr]).toEqual([2, 'spidersolve: option --max-positions "100,200": a ladder of budgets is for batch only; view takes one budget, in digits without separators (1..200000000)\n']);
    expect(existsSync(join(dir, 'ladder.html'))).toBe(false);
    // every option that only --solve reads is refused alike without it, not silently ignored
    const db = await cli('view', 'SE1-1', '--db', join(dir, 'any.sqlite'));
    expect([db.status, db.stderr]).toEqual([2, 'spidersolve: option --db: only with --solve\n']);
    const stored = await cli('view', 'SE1-1', '--no-stored');
    expect([stored.status, stored.stderr]).toEqual([2, 'spidersolve: option --no-stored: only with --solve\n']);
    // --out naming the position file the page shows, by its own
    // name or a hard link: refused, the file as it was
    const pos = join(dir, 'p.txt');
    writeFileSync(pos, makePositionText(start('SE4-7').position));
    const before = readFileSync(pos, 'utf8');
    linkSync(pos, join(dir, 'p-link.txt'));
    for (const out of [pos, join(dir, 'p-link.txt')]) {
      const self = await cli('view', pos, '--line', '5-2', '--out', out);
      expect([self.status, self.stdout, self.stderr]).toEqual([2, '', `spidersolve: option --out "${out}": is the position file "${pos}" this page shows; writing there would destroy it, so nothing was written: give another file name\n`]);
    }
    expect(readFileSync(pos, 'utf8')).toBe(before);
  });

  it('says "1 move" for a line of one, and "The position as given" for a mid-game position file', async () => {
    const line = SE1_1_LINE.split(' ');
    const p = playLine(start('SE1-1').position, line.slice(0, -1));
    if (!p.ok) throw p.error;
    const file = join(dir, 'one-to-go.json');
    writeFileSync(file, makePositionJson(p.value.position));
    const out = join(dir, 'one.html');
    const won = await cli('view', file, '--line', line.at(-1)!, '--out', out);
    expect([won.status, won.stdout, won.stderr]).toEqual([0, '', `spidersolve: wrote ${out}: ${file}, won in 1 move\n`]);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('winning line, 1 move<');
    expect(html).toContain('The line given (1 move), replayed');
    expect((embedded(html) as unknown as { start: string }).start).toBe('The position as given.');
    expect(html).toContain("'the only move.'");
    const notWon = await cli('view', 'SE1-1', '--line', line[0]!, '--out', join(dir, 'first.html'));
    expect([notWon.stdout, notWon.stderr]).toEqual(['', `spidersolve: wrote ${join(dir, 'first.html')}: SE1-1, a line of 1 move, not won\n`]);
    // a deal code starts as dealt
    expect((embedded(readFileSync(join(dir, 'first.html'), 'utf8')) as unknown as { start: string }).start).toBe('The deal as dealt.');
  });
});
