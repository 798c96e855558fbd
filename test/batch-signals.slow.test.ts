/**
 * Ctrl-C on a whole `spidersolve batch` process, through the program's entry (src/cli/entry.ts, as
 * bin/spidersolve.js runs it): a SIGINT sent at any moment once the entry holds signals (it says so
 * on stderr under the test hook SPIDERSOLVE_TEST_SIGNAL_READY) stops the batch with exit 130 and the
 * resume line, whatever stage the batch is in: loading the program, choosing the command, planning,
 * opening the database, starting the pool, dispatching. And a SIGINT at a fixed time after the start,
 * as a user's Ctrl-C comes, is never ignored: the batch either stops by it as above or, sent before
 * the program could hold it, is ended by it; it never runs to its end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));
const READY = 'spidersolve: test: holding signals\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-signals-slow-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Ended {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether the SIGINT was sent after the entry said it holds signals. */
  afterReady: boolean;
}

/**
 * Runs a batch of 30 fake deals at 100 ms each on one worker (some 3 s of dispatching) through the
 * entry, and sends it one SIGINT `ms` milliseconds after the entry holds signals (`from` 'ready'), or
 * after the process was spawned (`from` 'spawn').
 */
function batchWithSigint(db: string, ms: number, from: 'ready' | 'spawn'): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', 'src/cli/entry.ts', 'batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-30', '--max-positions', '1000', '--workers', '1', '--db', db];
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '100', SPIDERSOLVE_TEST_SIGNAL_READY: '1', INIT_CWD: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let ready = false;
    let sentAfterReady: boolean | null = null;
    const send = () => {
      sentAfterReady = ready;
      child.kill('SIGINT');
    };
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!ready && stderr.includes(READY)) {
        ready = true;
        if (from === 'ready') setTimeout(send, ms);
      }
    });
    if (from === 'spawn') setTimeout(send, ms);
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr, afterReady: sentAfterReady === true }));
  });
}

/** Asserts that the batch stopped by the SIGINT: exit 130, the resume line, the summary on stdout. */
function expectStopped(r: Ended): void {
  expect(r.signal).toBeNull();
  expect(r.status).toBe(130);
  expect(r.stderr).toMatch(/spidersolve: interrupted with \d+ of 30 deals left; resume with the same command:\n {2}\S/);
  expect(r.stdout).toMatch(/interrupted/);
}

describe('a SIGINT stops a whole batch process at any moment once the program holds signals', () => {
  // from the moment the entry holds signals: loading, command, planning, database, pool, dispatch
  for (const ms of [0, 10, 30, 60, 100, 150, 250, 400, 700, 1200]) {
    it(`${ms} ms after the entry holds signals: exit 130 and the resume line`, async () => {
      const r = await batchWithSigint(join(dir, `ready-${ms}.sqlite`), ms, 'ready');
      expect(r.afterReady).toBe(true);
      expectStopped(r);
    });
  }
  // at fixed times after the start, as a user presses Ctrl-C: never ignored
  for (const ms of [200, 430, 480, 530, 800]) {
    it(`${ms} ms after the start: stopped by it (exit 130) or, before the entry holds signals, ended by it; never run to its end`, async () => {
      const r = await batchWithSigint(join(dir, `spawn-${ms}.sqlite`), ms, 'spawn');
      if (r.afterReady) expectStopped(r);
      else expect(r.signal === 'SIGINT' || r.status === 130).toBe(true);
      expect(r.status).not.toBe(0);
    });
  }
});
