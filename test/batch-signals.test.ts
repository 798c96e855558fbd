/**
 * Ctrl-C at every stage of a batch, in process: the program's entry holds signals from its first
 * moment (src/cli/signals.ts), and a SIGINT that arrives at any stage after that, from the program
 * loaded to the first deal dispatched, stops the batch: exit 130, the resume line, the run marked
 * interrupted. The signal is raised by the test hook SPIDERSOLVE_TEST_SIGNAL_AT at each stage
 * boundary; Node delivers it at the next turn of the event loop, as one that came during the
 * synchronous work before the boundary. A signal that arrived while no handler was watching would end
 * this test process; one dropped by a hand-over between handlers would let the batch run to its end
 * (exit 0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResultStore } from '../src/batch/store.js';
import { main } from '../src/cli/main.js';
import { catchSignalsEarly, catchingEarlySignals, releaseEarlySignals, SIGNAL_STAGES, signalAtStage, takeOverEarlySignals } from '../src/cli/signals.js';
import { withEnv } from './helpers/env.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-signals-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `spidersolve batch …` in process as the entry does (signals held first), with stdout and stderr captured. */
async function batchAsEntry(args: readonly string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await withEnv(env, async () => {
      catchSignalsEarly();
      signalAtStage('loaded');
      return main(['batch', ...args]);
    });
    const text = (s: typeof out) => s.mock.calls.map((c) => String(c[0])).join('');
    return { code, stdout: text(out), stderr: text(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}

/** The statuses of the runs stored in `db`, oldest first. */
function runStatuses(db: string): string[] {
  const s = ResultStore.openForReading(db);
  try {
    return s.studies().flatMap((st) => st.runs.map((r) => r.status));
  } finally {
    s.close();
  }
}

describe('a SIGINT at each stage of a batch stops it', () => {
  // 24 deals of the fake worker at 40 ms each on one worker: about a second, far longer than any stage
  const env = { SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '40', INIT_CWD: '' };
  for (const stage of SIGNAL_STAGES) {
    it(`at "${stage}": exit 130, the resume line, the run interrupted, the signal handling handed back`, async () => {
      const db = join(dir, `${stage}.sqlite`);
      const r = await batchAsEntry(
        ['--game', 'spiderette', '--suits', '1', '--seeds', '1-24', '--max-positions', '1000', '--workers', '1', '--db', db, '--study', 'ctrl-c'],
        { ...env, SPIDERSOLVE_TEST_SIGNAL_AT: stage },
      );
      expect(r.code).toBe(130);
      expect(r.stderr).toContain('spidersolve: stopping; finished results are kept (press Ctrl-C again to quit at once)\n');
      expect(r.stderr).toMatch(/spidersolve: interrupted with \d+ of 24 deals left; resume with the same command:\n {2}\S/);
      expect(r.stdout).toMatch(/interrupted/);
      // the stages before the run is opened stop it before anything is stored; from then on it is marked
      if (SIGNAL_STAGES.indexOf(stage) >= SIGNAL_STAGES.indexOf('planned')) expect(runStatuses(db)).toEqual(['interrupted']);
      expect(process.listenerCount('SIGINT')).toBe(0);
      expect(process.listenerCount('SIGTERM')).toBe(0);
      expect(catchingEarlySignals()).toBe(false);
    });
  }
});

describe('handing the early signals over', () => {
  it('takeOverEarlySignals: a signal that arrived before the command\'s own handler went in reaches that handler', async () => {
    catchSignalsEarly();
    const got: string[] = [];
    const mine = (name: NodeJS.Signals) => got.push(name);
    process.kill(process.pid, 'SIGINT'); // arrived, not yet delivered: the loop has not turned
    process.on('SIGINT', mine);
    try {
      expect(takeOverEarlySignals()).toBeNull(); // nothing was delivered to the early handler yet
      await new Promise<void>((r) => setImmediate(r));
      await new Promise<void>((r) => setImmediate(r));
      expect(got).toEqual(['SIGINT']);
    } finally {
      process.off('SIGINT', mine);
    }
  });

  it('takeOverEarlySignals: a signal delivered while the program loaded is returned, once', async () => {
    catchSignalsEarly();
    process.kill(process.pid, 'SIGTERM');
    await new Promise<void>((r) => setImmediate(r));
    await new Promise<void>((r) => setImmediate(r));
    const mine = () => {};
    process.on('SIGTERM', mine);
    try {
      expect(takeOverEarlySignals()).toBe('SIGTERM');
      expect(takeOverEarlySignals()).toBeNull();
    } finally {
      process.off('SIGTERM', mine);
    }
  });

  it('releaseEarlySignals: a signal that arrived just before is delivered to the early handler first, and returned', async () => {
    catchSignalsEarly();
    process.kill(process.pid, 'SIGINT');
    expect(await releaseEarlySignals()).toBe('SIGINT');
    expect(process.listenerCount('SIGINT')).toBe(0);
    expect(catchingEarlySignals()).toBe(false);
  });

  it('releaseEarlySignals without a signal: null, the handlers gone', async () => {
    catchSignalsEarly();
    expect(await releaseEarlySignals()).toBeNull();
    expect(process.listenerCount('SIGINT')).toBe(0);
    expect(process.listenerCount('SIGTERM')).toBe(0);
  });
});
