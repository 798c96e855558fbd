/**
 * A batch killed with SIGKILL (issue 12, item 3): `studies` shows its run abandoned at once, without
 * writing; the next batch marks it `abandoned` in the database. Slow: three CLI processes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/batch/store.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-runs-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('a batch killed with SIGKILL', () => {
  it('is shown abandoned by studies at once, marked abandoned by the next batch, and never shown running', async () => {
    const db = join(dir, 'killed.sqlite');
    const env = { SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '40' };
    const args = ['batch', '--game', 'spider', '--suits', '1', '--seeds', '1-200', '--max-positions', '50', '--workers', '1', '--db', db, '--study', 'K'];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('close', (_c, sig) => r(sig)));
    // wait until the run has stored some results, then kill it without warning
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        const d = new Database(db, { readonly: true, fileMustExist: true });
        const n = (d.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n;
        d.close();
        if (n >= 5) break;
      } catch {
        // not created yet
      }
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const raw = () => {
      const d = new Database(db, { readonly: true });
      const r = d.prepare('SELECT status, finished_at AS fin, pid, host, heartbeat_at AS beat FROM runs ORDER BY id').all() as { status: string; fin: string | null; pid: number; host: string; beat: string }[];
      d.close();
      return r;
    };
    expect(raw()).toEqual([{ status: 'running', fin: null, pid: child.pid, host: hostname(), beat: expect.stringMatching(/^2\d{3}-/) }]);
    // studies reads without writing, and shows the dead run as abandoned
    const listed = await cli(['studies', '--db', db, '--json']);
    expect(listed.status).toBe(0);
    const studies = JSON.parse(listed.stdout) as { name: string; runs: { status: string }[] }[];
    expect(studies.map((s) => [s.name, s.runs.map((r) => r.status)])).toEqual([['K', ['abandoned']]]);
    const text = await cli(['studies', '--db', db]);
    expect(text.stdout).toMatch(/run [0-9a-f]{8} abandoned /);
    expect(text.stdout).not.toMatch(/running/);

    // the next batch marks it in the database, then resumes the study
    const again = await cli(args, { ...env, SPIDERSOLVE_TEST_DELAY_MS: '0' });
    expect(again.status).toBe(0);
    const runs = raw();
    expect(runs.map((r) => r.status)).toEqual(['abandoned', 'done']);
    expect(runs[0]!.fin).not.toBeNull();
    const store = ResultStore.openForReading(db);
    expect(store.report()[0]).toMatchObject({ study: 'K', deals: 200 });
    store.close();
  });
});
