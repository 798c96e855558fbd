/**
 * The slow part of batch-cli.test.ts (npm run test:slow): batches stopped by SIGINT and killed by
 * SIGKILL midway, then resumed: `node --import tsx src/cli/main.ts …` in a child process, with the
 * test worker (SPIDERSOLVE_BATCH_WORKER) giving fake outcomes after a small delay.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli as runCli, ROOT, type Run } from './helpers/cli.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-cli-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI in a child process (test/helpers/cli.ts), with this file's argument order. */
function cli(args: string[], env: Record<string, string> = {}, poll?: (kill: (s: NodeJS.Signals) => void) => boolean): Promise<Run> {
  return runCli(args, { env, poll });
}

function countRows(db: string): number {
  try {
    const d = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (d.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n;
    } finally {
      d.close();
    }
  } catch {
    return 0;
  }
}

describe('spidersolve batch: interrupt, kill and resume', () => {
  const env = { SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '10' };
  const args = (db: string) => ['batch', '--game', 'spider', '--suits', '1,2', '--seeds', '1-150', '--max-positions', '500', '--workers', '2', '--db', db];

  /**
   * Runs the batch into `db`, sends `signal` once 20 results are stored, and checks the stop: exit 130,
   * the summary (interrupted) and the resume command, the finished results kept and the run marked
   * interrupted. Returns how many results were kept.
   */
  const interruptMidway = async (db: string, signal: NodeJS.Signals): Promise<number> => {
    let sent = false;
    const first = await cli(args(db), env, (kill) => {
      if (!sent && countRows(db) >= 20) {
        kill(signal);
        sent = true;
      }
      return sent;
    });
    expect(sent).toBe(true);
    expect(first.status).toBe(130);
    expect(first.stderr).toContain('resume with the same command');
    expect(first.stderr).toContain(`spidersolve ${args(db).join(' ')}`);
    expect(first.stdout).toMatch(/\(interrupted\)/);
    const kept = countRows(db);
    expect(kept).toBeGreaterThanOrEqual(20);
    expect(kept).toBeLessThan(300);
    const meta = new Database(db, { readonly: true });
    expect(meta.prepare('SELECT status, completed FROM runs').get()).toEqual({ status: 'interrupted', completed: kept });
    meta.close();
    return kept;
  };

  it('SIGHUP with the output in files (as under nohup) stops as SIGTERM does: finished results kept, the run interrupted, summary, exit 130', async () => {
    await interruptMidway(join(dir, 'hup.sqlite'), 'SIGHUP');
  });

  it('SIGINT stops, keeps finished results, says how to resume and exits 130; the same command completes', async () => {
    const db = join(dir, 'int.sqlite');
    const kept = await interruptMidway(db, 'SIGINT');

    const second = await cli([...args(db), '--json'], env);
    expect(second.status).toBe(0);
    expect(second.stderr).toBe(''); // not a TTY: no progress bar
    const summary = JSON.parse(second.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ planned: 300, skipped: kept, ran: 300 - kept, remaining: 0, interrupted: false });
    expect(second.stdout.trim().split('\n')).toHaveLength(1);
    expect(countRows(db)).toBe(300);
  });

  it.skipIf(process.platform === 'win32')('SIGINT while the deals file is still being read stops at once, before anything is written: 130 and the command to run', async () => {
    // The deals file is a FIFO: the batch waits reading it, and the test knows exactly when (its open
    // for writing returns once the batch has opened the FIFO for reading). The signal is sent then;
    // the batch reads the FIFO through the event loop, so it stops at once, without waiting for the
    // deals (it once died of the signal with no word, then waited for the writer to finish).
    const fifo = join(dir, 'deals.fifo');
    execFileSync('mkfifo', [fifo]);
    const deals = Array.from({ length: 12 }, (_, i) => `SP1-${i + 1}`).join('\n') + '\n';
    const db = join(dir, 'fifo.sqlite');
    const argv = ['batch', '--deals', fifo, '--max-positions', '500', '--workers', '2', '--db', db];
    const feed = async (onOpen: (kill: (s: NodeJS.Signals) => void) => void): Promise<Run> => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...argv], {
        cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const closed = new Promise<Run>((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
      void closed.then(() => closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK))); // unblock our open if it never read
      const w = await open(fifo, 'w'); // returns once the batch has opened the FIFO to read the deals
      onOpen((sig) => child.kill(sig));
      await new Promise((r) => setTimeout(r, 200)); // the signal lands while the batch still waits for the deals
      await w.writeFile(deals).catch(() => {});
      await w.close();
      return closed;
    };
    const first = await feed((kill) => kill('SIGINT'));
    expect(first.signal).toBeNull();
    expect(first.status).toBe(130);
    expect(first.stderr).toContain('spidersolve: stopping; finished results are kept');
    expect(first.stderr).toContain(`spidersolve: interrupted while reading the deals of --deals ${fifo}; nothing was run or written; to run it, the same command:`);
    expect(first.stderr).toContain(`spidersolve ${argv.join(' ')}`);
    expect(first.stdout).toBe('');
    expect(() => statSync(db)).toThrow();

    const second = await feed(() => {});
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('deals 12: 0 already settled, 12 run now');
    expect(countRows(db)).toBe(12);
  });

  it('SIGKILL loses at most the unflushed and in-flight deals; the database stays sound and the rerun completes', async () => {
    const db = join(dir, 'kill.sqlite');
    let sent = false;
    const first = await cli(args(db), env, (kill) => {
      if (!sent && countRows(db) >= 20) {
        kill('SIGKILL');
        sent = true;
      }
      return sent;
    });
    expect(first.signal).toBe('SIGKILL');
    const kept = countRows(db);
    expect(kept).toBeGreaterThanOrEqual(20);
    const check = new Database(db, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(check.prepare('SELECT status FROM runs').pluck().get()).toBe('running');
    check.close();

    const second = await cli([...args(db), '--json'], env);
    expect(second.status).toBe(0);
    const summary = JSON.parse(second.stdout) as { skipped: number; ran: number; remaining: number };
    expect(summary.skipped).toBe(kept);
    expect(summary.ran).toBe(300 - kept);
    const d = new Database(db, { readonly: true });
    expect(d.prepare('SELECT count(*) AS n, count(DISTINCT code) AS k FROM results').get()).toEqual({ n: 300, k: 300 });
    const seeds = d.prepare("SELECT seed FROM results WHERE suits = 2 ORDER BY seed").pluck().all();
    expect(seeds).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    d.close();
  });
});
