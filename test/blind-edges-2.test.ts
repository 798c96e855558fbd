/**
 * The `blind` command as a new user meets it: each move printed as it is played, and a SIGINT or
 * SIGTERM that stops the game after the move being played with the moves so far printed (exit 130,
 * a line on stderr, no page written); `--columns` as solve and play take it (PySolFC's numbering by
 * default for a pysol: deal); and the end line of a stuck game saying why the player plays none of
 * the legal moves. In process: the signals are real, sent by this process to itself while the
 * command's handlers are in place.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { playBlind, startBlind } from '../src/blind/game.js';
import { findLoss, findLossUnlessStopped, replayPositions } from '../src/blind/loss.js';
import { parsePlayerSpec } from '../src/blind/players/index.js';
import { endText, noMoveText } from '../src/cli/blind.js';
import { buildProgram, runProgram } from '../src/cli/main.js';
import { dealPosition } from '../src/game/deal.js';
import { loadDeal } from '../src/game/ref.js';
import { legalMoves } from '../src/game/rules.js';
import { SE1, SE4 } from './helpers/game.js';
import { expectOneLineError, runInProcess } from './helpers/cli.js';
import { withEnv } from './helpers/env.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-blind-edges-2-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A move line of the text output (`  12. 3-7    move …`). */
const MOVE_LINE = /^ +\d+\. /;

/**
 * Runs `spidersolve ARGS` in this process with stdout and stderr captured chunk by chunk; after each
 * chunk written to stdout, `onStdout` is called with all of stdout so far. A listener of its own
 * keeps a SIGINT or SIGTERM from ending this process whatever the command does with it.
 */
async function runWatching(args: readonly string[], onStdout: (text: string) => void): Promise<{ status: number; stdout: string; stderr: string; chunks: string[] }> {
  const chunks: string[] = [];
  let err = '';
  const out = new Writable({
    write(chunk: Buffer | string, _e, done) {
      chunks.push(chunk.toString());
      onStdout(chunks.join(''));
      done();
    },
  });
  const errStream = new Writable({
    write(chunk: Buffer | string, _e, done) {
      err += chunk.toString();
      done();
    },
  });
  const saved = { stdout: Object.getOwnPropertyDescriptor(process, 'stdout')!, stderr: Object.getOwnPropertyDescriptor(process, 'stderr')!, exit: process.exit, exitCode: process.exitCode };
  const keep = () => {};
  process.on('SIGINT', keep);
  process.on('SIGTERM', keep);
  try {
    Object.defineProperty(process, 'stdout', { value: out, configurable: true, enumerable: true, writable: true });
    Object.defineProperty(process, 'stderr', { value: errStream, configurable: true, enumerable: true, writable: true });
    process.exit = ((code?: number) => {
      throw new Error(`process.exit(${code ?? ''}) called`);
    }) as typeof process.exit;
    const status = await runProgram(buildProgram(), args);
    return { status, stdout: chunks.join(''), stderr: err, chunks };
  } finally {
    Object.defineProperty(process, 'stdout', saved.stdout);
    Object.defineProperty(process, 'stderr', saved.stderr);
    process.exit = saved.exit;
    process.exitCode = saved.exitCode;
    // a signal sent late is delivered before the listener goes
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    process.off('SIGINT', keep);
    process.off('SIGTERM', keep);
  }
}

/** Sends `signal` to this process once stdout holds move `n`'s line (once only). */
function signalAtMove(n: number, signal: NodeJS.Signals): (text: string) => void {
  let sent = false;
  return (text) => {
    if (!sent && text.split('\n').some((l) => l.startsWith(`${String(n).padStart(4)}. `))) {
      sent = true;
      process.kill(process.pid, signal);
    }
  };
}

describe('blind prints each move as it is played', () => {
  it('writes each move by itself, the head first and the end last; the text is the same as a whole', async () => {
    const r = await runWatching(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '0'], () => {});
    expect(r.status).toBe(3);
    const moves = r.chunks.filter((c) => MOVE_LINE.test(c));
    // 34 moves, each in a chunk of its own (one line)
    expect(moves).toHaveLength(34);
    for (const c of moves) expect(c.split('\n')).toHaveLength(2);
    expect(r.chunks[0]).toBe('SE1-16 (spiderette, 1 suit), played blind by greedy, player seed 1\n');
    expect(r.chunks[r.chunks.length - 1]!.split('\n')[0]).toMatch(/^stuck after 34 moves /);
    const whole = await runInProcess(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '0']);
    expect(r.stdout).toBe(whole.stdout);
  });

  it('--json still prints one object at the end, the game as playBlind plays it', async () => {
    const r = await runWatching(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '0', '--json'], () => {});
    expect(r.chunks).toHaveLength(1);
    const o = JSON.parse(r.stdout) as Record<string, unknown>;
    const g = playBlind(dealPosition(SE1, 16), { name: 'greedy' }, 1);
    expect(Object.keys(o)).toEqual(['code', 'label', 'game', 'suits', ...Object.keys(g), 'stuckWhy', 'loss', 'cost', 'columns']);
    const { elapsedMs: _a, ...rest } = g;
    expect(o).toMatchObject({ code: 'SE1-16', ...rest, loss: null, columns: 'spidersolve' });
  });

  it('startBlind plays the game playBlind plays, move by move', () => {
    const start = dealPosition(SE4, 7);
    const play = startBlind(start, { name: 'greedy' }, 1);
    const seen: string[] = [];
    for (let p = play.step(); p !== null; p = play.step()) {
      expect(p.number).toBe(seen.length + 1);
      seen.push(p.step.move);
    }
    expect(play.ended).toBe(true);
    expect(play.step()).toBeNull();
    const { elapsedMs: _a, ...a } = play.game();
    const { elapsedMs: _b, ...b } = playBlind(start, { name: 'greedy' }, 1);
    expect(a).toEqual(b);
    expect(seen).toEqual(b.line);
    expect(() => startBlind(start, { name: 'greedy' }, 1).game()).toThrow(/has not ended/);
  });
});

describe('blind stops on SIGINT or SIGTERM after the move being played', () => {
  it('SIGINT: the moves so far printed, one line on stderr, exit 130, the --out page not written', async () => {
    const out = join(dir, 'game.html');
    const r = await runWatching(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '0', '--out', out], signalAtMove(3, 'SIGINT'));
    expect(r.status).toBe(130);
    const lines = r.stdout.split('\n');
    const moves = lines.filter((l) => MOVE_LINE.test(l));
    // stopped after the move being played when the signal came: move 3, or at most the next
    expect(moves.length).toBeGreaterThanOrEqual(3);
    expect(moves.length).toBeLessThan(34);
    expect(moves[0]).toMatch(/^ {3}1\. /);
    // no end: the game did not end
    expect(r.stdout).not.toMatch(/stuck after|won in|cost:/);
    expect(r.stderr).toBe(`spidersolve: interrupted after ${moves.length} moves, before the game ended; nothing was stored (blind keeps no results), and --out ${out} was not written (the page is written only for a finished game)\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('SIGTERM with --json: the error object on stdout (nothing else), the line on stderr, exit 130', async () => {
    const r = await runWatchingJsonStop();
    expect(r.status).toBe(130);
    const o = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(o).toEqual({ error: { code: 'interrupted', message: 'interrupted after 0 moves, before the game ended; nothing was stored (blind keeps no results)' } });
    expect(r.stderr).toBe(`spidersolve: ${o.error.message}\n`);
  });

  it('a signal during the search for where the deal was lost: the end printed, not where it was lost; exit 130, no page', async () => {
    const out = join(dir, 'lost.html');
    const r = await withEnv({ SPIDERSOLVE_TEST_SIGNAL_AT: 'blind-loss' }, () => runWatching(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '2000', '--out', out], () => {}));
    expect(r.status).toBe(130);
    expect(r.stdout.split('\n').filter((l) => MOVE_LINE.test(l))).toHaveLength(34);
    expect(r.stdout).toContain('\nstuck after 34 moves (the player plays none of the 7 legal moves: each breaks an in-suit run; no deal is left), ');
    expect(r.stdout).not.toMatch(/where the deal was lost|deal was lost at|cost:/);
    expect(r.stderr).toBe(`spidersolve: interrupted after the game's 34 moves (it ended stuck), while looking for where the deal was lost; nothing was stored (blind keeps no results), and --out ${out} was not written (the page is written only once the search for where the deal was lost has ended too)\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('the search for where the deal was lost stops between two solves', async () => {
    const start = dealPosition(SE1, 16);
    const g = playBlind(start, { name: 'greedy' }, 1);
    const full = findLoss(start, g.line, 2000);
    expect(full.solves).toBeGreaterThan(1);
    const ctl = new AbortController();
    // queued before the search's first turn: the search stops after its first solve
    setImmediate(() => ctl.abort());
    const stopped = await findLossUnlessStopped(start, g.line, 2000, ctl.signal);
    expect(stopped).toMatchObject({ stopped: true, solves: 1 });
    expect(await findLossUnlessStopped(start, g.line, 2000, new AbortController().signal)).toEqual(full);
  });
});

/** blind --json with a SIGTERM sent as the command starts (before its first move): the error object. */
async function runWatchingJsonStop(): Promise<{ status: number; stdout: string; stderr: string }> {
  // the signal goes out from within the command's first look at the event loop: after the handlers
  // are in place (they go in before the head is printed, and with --json nothing is printed)
  const r = runWatching(['blind', 'SE1-16', '--player', 'greedy', '--loss-budget', '0', '--json'], () => {});
  process.kill(process.pid, 'SIGTERM');
  return r;
}

describe('blind --columns', () => {
  it('prints a PySolFC deal in PySolFC\'s numbering by default, and says so; --columns spidersolve as before', async () => {
    const r = await runInProcess(['blind', 'pysol:spider2:5', '--player', 'greedy', '--loss-budget', '0']);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe("columns: PySolFC's, 1-10 left to right as PySolFC lays the deal out, so the moves can be played in PySolFC as printed; cards in PySolFC's suits (clubs for spades) (--columns spidersolve for spidersolve's layout)");
    // spidersolve's column 9 is PySolFC's 8, its 2 PySolFC's 4
    expect(lines[2]).toBe('   1. 8-4    move 7♥ from column 8 onto 8♥ in column 4, turns up a card: 9♥');
    expect(r.stdout).not.toContain('♠');
    const own = await runInProcess(['blind', 'pysol:spider2:5', '--player', 'greedy', '--loss-budget', '0', '--columns', 'spidersolve']);
    const ownLines = own.stdout.split('\n');
    expect(ownLines[1]).toBe("columns: spidersolve's layout (PySolFC columns 1,4,7,10,2,3,5,6,8,9 are spidersolve's 1-10); --columns pysol for PySolFC's own numbers");
    expect(ownLines[2]).toBe('   1. 9-2    move 7♥ from column 9 onto 8♥ in column 2, turns up a card: 9♥');
    // the same game: as many lines, the same end
    expect(ownLines.length).toBe(lines.length);
    expect(r.status).toBe(own.status);
  });

  it('--json: the moves, columns and cards in the numbering, with columns named; the line plays back in play', async () => {
    const r = await runInProcess(['blind', 'pysol:spider2:5', '--player', 'greedy', '--loss-budget', '0', '--json']);
    const o = JSON.parse(r.stdout) as { columns: string; line: string[]; steps: { move: string; turnedUp: { column: number; card: string }[] }[]; faceDown: string[][]; stock: string[][] };
    const own = JSON.parse((await runInProcess(['blind', 'pysol:spider2:5', '--player', 'greedy', '--loss-budget', '0', '--json', '--columns', 'spidersolve'])).stdout) as typeof o;
    expect([o.columns, own.columns]).toEqual(['pysol', 'spidersolve']);
    expect(o.line[0]).toBe('8-4');
    expect(own.line[0]).toBe('9-2');
    expect(o.steps[0]!.turnedUp).toEqual([{ column: 8, card: '9H' }]);
    expect(own.steps[0]!.turnedUp).toEqual([{ column: 9, card: '9H' }]);
    // face-down columns in PySolFC's order: PySolFC's column 2 is spidersolve's 5; spades are clubs
    const map = [1, 4, 7, 10, 2, 3, 5, 6, 8, 9];
    map.forEach((p, i) => expect(o.faceDown[p - 1]!.map((c) => c.replace(/C$/, 'S'))).toEqual(own.faceDown[i]));
    expect(o.faceDown.flat().some((c) => c.endsWith('S'))).toBe(false);
    // the line, as printed, is read back in PySolFC's numbering by play
    const back = await runInProcess(['play', 'pysol:spider2:5', o.line.join(' '), '--json']);
    expect(back.status).toBe(0);
    expect((JSON.parse(back.stdout) as { movesPlayed: number }).movesPlayed).toBe(o.line.length);
  });

  it('the page is in the numbering too; --columns pysol is refused for a deal code', async () => {
    const out = join(dir, 'pysol.html');
    await runInProcess(['blind', 'pysol:spider2:5', '--player', 'greedy', '--loss-budget', '0', '--out', out, '--quiet']);
    expect(readFileSync(out, 'utf8')).toContain("so the moves can be played in PySolFC as printed");
    expectOneLineError(await runInProcess(['blind', 'SE1-16', '--player', 'greedy', '--columns', 'pysol']), /^spidersolve: option --columns pysol: SE1-16 is not a PySolFC deal/);
    expectOneLineError(await runInProcess(['blind', 'SE1-16', '--player', 'greedy', '--columns', 'x']), /^spidersolve: option --columns "x": use pysol or spidersolve\n$/);
  });
});

describe('a stuck game says why the player plays none of the legal moves', () => {
  /** The end line of a greedy game of `code`, and the legal moves of its end as the rules engine has them. */
  async function stuck(code: string): Promise<{ line: string; legal: number }> {
    const r = await runInProcess(['blind', code, '--player', 'greedy', '--loss-budget', '0']);
    const d = loadDeal(code);
    if (!d.ok) throw d.error;
    const g = playBlind(d.value.position, { name: 'greedy' }, 1);
    const ps = replayPositions(d.value.position, g.line);
    return { line: r.stdout.split('\n').find((l) => l.startsWith('stuck after'))!, legal: legalMoves(ps[ps.length - 1]!).length };
  }

  it('counts the legal moves and gives each one\'s reason', async () => {
    const a = await stuck('SE1-16');
    expect(a.legal).toBe(7);
    expect(a.line).toBe('stuck after 34 moves (the player plays none of the 7 legal moves: each breaks an in-suit run; no deal is left), 0 of 4 suits completed; 9 cards left face down');
    const b = await stuck('SE4-7');
    expect(b.legal).toBe(2);
    expect(b.line).toBe('stuck after 25 moves (the player plays none of the 2 legal moves: 1 breaks an in-suit run, 1 moves a group off a card of the next rank onto another, not of its suit (no gain); no deal is left), 0 of 4 suits completed; 14 cards left face down');
    const c = await stuck('SP2-3');
    expect(c.legal).toBe(9);
    expect(c.line).toMatch(/^stuck after 65 moves \(the player plays none of the 9 legal moves: 1 leads back to a view met since the last card was turned up, 8 break an in-suit run; no deal is left\), /);
  });

  it('the sample player says why too (its greedy fallback had no move)', () => {
    const start = dealPosition(SE1, 7);
    const play = startBlind(start, parsePlayerSpec('sample:k=2,budget=300'), 1);
    while (play.step() !== null);
    const g = play.game();
    const ps = replayPositions(start, g.line);
    expect(legalMoves(ps[ps.length - 1]!)).toHaveLength(1);
    expect(play.whyNone()).toEqual({ legal: 1, refused: [{ reason: 'breaks run', count: 1 }], deal: 'none left', idle: null });
    expect(endText(g, play.whyNone())[0]).toBe('stuck after 14 moves (the player does not play the one legal move: it breaks an in-suit run; no deal is left), 0 of 4 suits completed; 19 cards left face down');
  });

  it('says it in words for every case: one move, none, an idle player, a deal blocked by an empty column', () => {
    expect(noMoveText({ legal: 0, refused: [], deal: 'none left', idle: null })).toBe('no legal move is left; no deal is left');
    expect(noMoveText({ legal: 1, refused: [{ reason: 'whole column', count: 1 }], deal: 'blocked', idle: null })).toBe('the player does not play the one legal move: it moves a whole column into an empty one; no deal while a column is empty (R12)');
    expect(noMoveText({ legal: 3, refused: [{ reason: 'idle', count: 3 }], deal: 'none left', idle: 200 })).toBe('the player plays none of the 3 legal moves: no card turned up in its last 200 moves, so it only deals or fills an empty column for a deal; no deal is left');
    expect(noMoveText({ legal: 4, refused: [{ reason: 'back', count: 3 }, { reason: 'spends empty', count: 1 }], deal: 'blocked', idle: null })).toBe(
      'the player plays none of the 4 legal moves: 3 lead back to views met since the last card was turned up, 1 fills an empty column without turning up a card or freeing one for its suit; no deal while a column is empty (R12)',
    );
    // without the player's account (as before), and a move limit, as they were
    const g = playBlind(dealPosition(SE1, 16), { name: 'greedy' }, 1);
    expect(endText(g)[0]).toMatch(/^stuck after 34 moves \(no move the player would play\), /);
  });
});
