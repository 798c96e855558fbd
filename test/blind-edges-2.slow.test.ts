/**
 * `spidersolve blind` in a process of its own, its output a pipe as a user's `| tee` or `| less` makes
 * it: each move reaches the pipe while the game is still being played, and a Ctrl-C (SIGINT) stops it
 * after the move being played, with the moves so far printed, a line on stderr and exit 130.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

describe('blind in a process of its own', () => {
  it('SE4-1 with the sample player: the moves come one by one; SIGINT after move 2 stops it (exit 130)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'blind', 'SE4-1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let exited = false;
    // stdout as it was when move 1 arrived, and whether the process was still running then
    let atFirst: { running: boolean; moves: number } | null = null;
    const moves = () => stdout.split('\n').filter((l) => /^ +\d+\. /.test(l)).length;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (atFirst === null && moves() >= 1) atFirst = { running: !exited, moves: moves() };
      if (moves() >= 2 && !child.killed) child.kill('SIGINT');
    });
    const [status, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (s, sig) => {
        exited = true;
        resolve([s, sig]);
      }),
    );
    expect(atFirst).toEqual({ running: true, moves: 1 });
    expect([status, signal]).toEqual([130, null]);
    const n = moves();
    expect(n).toBeGreaterThanOrEqual(2);
    // the game (30 moves) did not end: no end lines
    expect(n).toBeLessThan(30);
    expect(stdout).not.toMatch(/stuck after|cost:/);
    expect(stdout.split('\n')[0]).toMatch(/^SE4-1 \(spiderette, 4 suits\), played blind by sample:/);
    expect(stderr).toBe(`spidersolve: interrupted after ${n} moves, before the game ended; nothing was stored (blind keeps no results)\n`);
  }, 120_000);
});
