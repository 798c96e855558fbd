/**
 * The slow part of trust.test.ts (issue #12; npm run test:slow): whole processes stopped by signals,
 * in a pseudo-terminal, or with their database deleted under them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, expectOneLineError, ROOT } from './helpers/cli.js';
import { countIn } from './helpers/db.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-trust-slow-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('#12.2 a database deleted while a batch runs', () => {
  const env = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '5' };

  it('the command exits 1 with that one line', async () => {
    const sub = join(dir, 'gone3');
    mkdirSync(sub);
    const db = join(sub, 'r.sqlite');
    const r = await cli(['batch', '--game', 'spider', '--suits', '1', '--seeds', '1-2000', '--max-positions', '77', '--workers', '1', '--db', db], {
      env: { ...env, SPIDERSOLVE_BATCH_WORKER: TEST_WORKER },
      poll: () => {
        let n = 0;
        try {
          n = Number(countIn(db));
        } catch {
          // not there yet
        }
        if (n < 5) return false;
        for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
        return true;
      },
    });
    expectOneLineError(r, /^spidersolve: database .*r\.sqlite was deleted \(or moved away\) while the batch was writing it; stopped, .* saved in .*r\.sqlite\.rescued-/, 1);
  });
});

describe('#12.4 a signal while the program is still loading', () => {
  it('batch: held from the first line of the entry, then stops the batch like any other: summary, resume command, exit 130', async () => {
    const runs = await Promise.all((['SIGINT', 'SIGTERM'] as const).map((s) =>
      cli(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-20', '--max-positions', '77', '--workers', '1', '--db', join(dir, `early-${s}.sqlite`), '--study', s], {
        entry: 'src/cli/entry.ts',
        env: { SPIDERSOLVE_TEST_SIGNAL_AT_START: s, SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1' },
      })));
    for (const r of runs) {
      expect(r.stderr).not.toMatch(/bad|error/);
      expect(r.signal).toBe(null);
      expect(r.status).toBe(130);
      expect(r.stdout).toMatch(/^study SIG(INT|TERM) \(interrupted\)\n  deals 20: 0 already settled, 0 run now in .*, 20 left\n/);
      expect(r.stderr).toMatch(/^spidersolve: stopping; finished results are kept \(.*\)\nspidersolve: interrupted with 20 of 20 deals left; resume with the same command:\n  npx spidersolve batch --game spiderette .* --study SIG(INT|TERM)\n$/);
    }
    for (const s of ['SIGINT', 'SIGTERM']) {
      expect(countIn(join(dir, `early-${s}.sqlite`))).toBe(0);
      expect(countIn(join(dir, `early-${s}.sqlite`), 'SELECT group_concat(status) FROM runs')).toBe('interrupted');
    }
  });

  it('any other command ends by that signal, as without the early handling', async () => {
    const runs = await Promise.all((['SIGINT', 'SIGTERM'] as const).map((s) =>
      cli(['deal', '--seed', '7'], { entry: 'src/cli/entry.ts', env: { SPIDERSOLVE_TEST_SIGNAL_AT_START: s } })));
    expect(runs.map((r) => [r.status, r.signal, r.stdout])).toEqual([[null, 'SIGINT', ''], [null, 'SIGTERM', '']]);
    const plain = await cli(['deal', '--seed', '7'], { entry: 'src/cli/entry.ts' });
    expect(plain).toMatchObject({ status: 0, stdout: 'SP4-7\n', stderr: '' });
  });
});

const HAS_PYTHON = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0;

describe('#12.6 Ctrl-C in a terminal', () => {
  // a real terminal (a pseudo-terminal, through Python's pty module) and a real Ctrl-C typed into it
  it.skipIf(!HAS_PYTHON)('stops the progress bar before anything else is written: no text over the bar, no bar after the message', () => {
    const db = join(dir, 'tty.sqlite');
    const r = spawnSync('python3', [join(ROOT, 'test/helpers/ptyrun.py'), '/300 |', process.execPath, '--import', 'tsx', 'src/cli/main.ts',
      'batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-300', '--max-positions', '77', '--workers', '1', '--db', db], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000,
      env: { ...process.env, SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '20' },
    });
    const [json, status] = r.stdout.trim().split('\n');
    const screen = JSON.parse(json!) as string;
    expect(Number(status)).toBe(130);
    const barStop = screen.lastIndexOf('\x1b8'); // the bar restores the cursor it saved when it started
    const message = screen.indexOf('spidersolve: stopping');
    expect(screen.indexOf('/300 |')).toBeGreaterThanOrEqual(0); // the bar was drawn
    expect(barStop).toBeGreaterThan(0);
    expect(message).toBeGreaterThan(barStop);
    // after the bar's stop: only whole lines of text, no bar drawn again, no cursor movement
    const after = screen.slice(barStop + 2);
    expect(after).not.toMatch(/\x1b|\/300 \|/);
    expect(after).toMatch(/^\r\n\r\nspidersolve: stopping; finished results are kept \(press Ctrl-C again to quit at once\)\r\nstudy .* \(interrupted\)\r\n  deals 300: /);
  });

  it.skipIf(!HAS_PYTHON)('the terminal closing (SIGHUP) stops the batch as Ctrl-C does: finished results kept, the run interrupted; it ends by SIGHUP', () => {
    const db = join(dir, 'hangup.sqlite');
    const r = spawnSync('python3', [join(ROOT, 'test/helpers/ptyrun.py'), '/300 |', process.execPath, '--import', 'tsx', 'src/cli/main.ts',
      'batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-300', '--max-positions', '77', '--workers', '1', '--db', db], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000,
      env: { ...process.env, PTY_HANGUP: '1', SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_DELAY_MS: '20' },
    });
    expect(Number(r.stdout.trim().split('\n')[1])).toBe(-1); // died of SIGHUP (not of Node's abort on the gone terminal)
    const run = String(countIn(db, "SELECT status || ' ' || completed FROM runs"));
    expect(run).toMatch(/^interrupted \d+$/);
    const completed = Number(run.split(' ')[1]);
    expect(countIn(db)).toBe(completed);
    expect(completed).toBeLessThan(300);
  });
});
