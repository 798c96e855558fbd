/**
 * The tests of batch-cli.test.ts that need a whole process (npm run test:slow): a signal while the
 * program loads or while it reads its deals from a pipe, the real entry (src/cli/entry.ts) run from
 * another folder, and a database read by another user. `node --import tsx …` in a child process, with
 * the test worker (SPIDERSOLVE_BATCH_WORKER) giving fake outcomes where a batch runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli as runCli, ROOT } from './helpers/cli.js';
import { makeLostDb } from './helpers/db.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-cli-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('spidersolve batch: bad input', () => {
  it('--deals -, stopped by a signal, says the deals must come on standard input again', () => {
    // (typed as printed at a terminal, the command would wait for the keyboard)
    const stopped = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'batch', '--deals', '-', '--db', join(dir, 'dash-stopped.sqlite'), '--max-positions', '2000'], {
      cwd: ROOT, input: 'SE1-1\nSE1-2\n', encoding: 'utf8', env: { ...process.env, SPIDERSOLVE_TEST_SIGNAL_AT_START: 'SIGINT' },
    });
    expect(stopped.status).toBe(130);
    expect(stopped.stderr).toMatch(/the same command, with the (same )?deals on its standard input:\n  npx spidersolve batch --deals - --db .*dash-stopped\.sqlite --max-positions 2000\n$/);
  });

  it('a signal while the deals are read from a pipe whose writer writes nothing stops at once: exit 130, nothing created', async () => {
    const fifo = join(dir, 'deals.fifo');
    execFileSync('mkfifo', [fifo]);
    const db = join(dir, 'fifo.sqlite');
    let sent = false;
    let writer = -1;
    const r = await runCli(['batch', '--deals', fifo, '--db', db], {
      poll: (kill) => {
        // the signal goes once the batch reads the pipe (a writer can open it only then, ENXIO before),
        // so it finds the batch's handlers in place however slowly the process started (a signal at a
        // fixed 1.5 s could come before, on a loaded machine, and kill it)
        if (!sent) {
          try {
            writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
          } catch {
            return false;
          }
          kill('SIGINT');
          sent = true;
        }
        return sent;
      },
    });
    if (writer >= 0) closeSync(writer);
    expect(sent).toBe(true);
    expect(r.status).toBe(130);
    expect(r.stderr).toMatch(/spidersolve: interrupted while reading the deals of --deals .*deals\.fifo; nothing was run or written; to run it, the same command:\n  npx spidersolve batch .*\n$/);
    expect(() => statSync(db)).toThrow();
  });
});

describe('a database left in WAL mode, read without its -shm from a folder that cannot be written', () => {
  it('is a one-line error naming the database and what to copy, exit 2, not an internal error', () => {
    const base = mkdtempSync(join(tmpdir(), 'spidersolve-walro-'));
    chmodSync(base, 0o755);
    const made = join(base, 'made.sqlite');
    makeLostDb(made);
    // WAL mode stays in the file's header once set; closed, the -wal and -shm files are removed
    const db = new Database(made);
    db.pragma('journal_mode = WAL');
    db.close();
    const ro = join(base, 'ro');
    mkdirSync(ro);
    const file = join(ro, 'copy.sqlite');
    copyFileSync(made, file);
    chmodSync(file, 0o444);
    chmodSync(ro, 0o555);
    // root writes anywhere: the command runs as nobody then, as a user without rights to the folder
    const asUser = process.getuid?.() === 0 ? ['runuser', ['-u', 'nobody', '--', process.execPath]] as const : [process.execPath, []] as const;
    for (const cmd of [['report'], ['studies'], ['export', '--csv'], ['report', '--format', 'html']]) {
      const r = spawnSync(asUser[0], [...asUser[1], '--import', 'tsx', 'src/cli/main.ts', ...cmd, '--db', file], { cwd: ROOT, encoding: 'utf8' });
      expect([r.status, r.stdout, r.stderr]).toEqual([
        2,
        '',
        `spidersolve: database ${file}: cannot read it here: it is in WAL mode (the batch that wrote it did not close it) and SQLite must make ${file}-shm beside it, in a folder it cannot write; copy its -wal and -shm files with it, or read it from a folder you can write (SQLite: attempt to write a readonly database); left untouched\n`,
      ]);
    }
    expect(readdirSync(ro)).toEqual(['copy.sqlite']);
    chmodSync(ro, 0o755);
    rmSync(base, { recursive: true, force: true });
  });
});

describe('--out in a folder this user cannot enter', () => {
  it('is refused in one line naming the file, not the temporary one the write would have used', () => {
    const locked = mkdtempSync(join(tmpdir(), 'spidersolve-locked-'));
    chmodSync(locked, 0o700);
    const out = join(locked, 'r.txt');
    // root enters any folder: the command runs as nobody then
    const asUser = process.getuid?.() === 0 ? ['runuser', ['-u', 'nobody', '--', process.execPath]] as const : [process.execPath, []] as const;
    const r = spawnSync(asUser[0], [...asUser[1], '--import', 'tsx', 'src/cli/main.ts', 'show', 'SE1-5', '--out', out], { cwd: ROOT, encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(new RegExp(`^spidersolve: option --out "${out}": cannot write it \\(EACCES: permission denied, open '${out}'\\); nothing was written there\n$`));
    rmSync(locked, { recursive: true, force: true });
  });
});

describe('the resume command', () => {
  it('run from outside the project, an interrupted batch prints the project\'s bin by its path (npx would look in npm\'s registry)', async () => {
    // a folder outside the project, where node finds tsx (to run the sources) through a link
    const away = join(dir, 'away');
    mkdirSync(away);
    symlinkSync(join(ROOT, 'node_modules'), join(away, 'node_modules'));
    const db = join(away, 'outside.sqlite');
    const args = ['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-3', '--max-positions', '77', '--workers', '1', '--db', 'outside.sqlite'];
    // (INIT_CWD cleared: started by hand, not by npm run, which the test runner's own npm would suggest)
    const env = { SPIDERSOLVE_TEST_SIGNAL_AT_START: 'SIGINT', SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1', INIT_CWD: '' };
    const r = await runCli(args, { env, cwd: away, entry: join(ROOT, 'src', 'cli', 'entry.ts') });
    expect(r.status).toBe(130);
    expect(r.stderr).toContain(`resume with the same command:\n  node ${join(ROOT, 'bin', 'spidersolve.js')} batch --game spiderette --suits 1 --seeds 1-3 --max-positions 77 --workers 1 --db outside.sqlite\n`);
    expect(existsSync(db)).toBe(true);
  });

  it('of a shard the Slurm array gave names it, so that the command run by hand resumes that shard, not the whole study', async () => {
    const db = join(dir, 'slurm-shard-1.sqlite');
    const r = await runCli(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-12', '--max-positions', '77', '--workers', '1', '--db', db], {
      entry: 'src/cli/entry.ts',
      env: { SPIDERSOLVE_TEST_SIGNAL_AT_START: 'SIGINT', SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1', SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '2' },
    });
    expect(r.status).toBe(130);
    expect(r.stderr).toContain(`spidersolve: interrupted with 6 of 6 deals left; resume with the same command:\n  npx spidersolve batch --game spiderette --suits 1 --seeds 1-12 --max-positions 77 --workers 1 --db ${db} --shard 1/2\n`);
    // given by hand, --shard is in the arguments already and not added again
    const byHand = await runCli(['batch', '--game', 'spiderette', '--suits', '1', '--seeds', '1-12', '--max-positions', '77', '--workers', '1', '--db', join(dir, 'hand-shard.sqlite'), '--shard', '1/2'], {
      entry: 'src/cli/entry.ts',
      env: { SPIDERSOLVE_TEST_SIGNAL_AT_START: 'SIGINT', SPIDERSOLVE_BATCH_WORKER: TEST_WORKER, SPIDERSOLVE_TEST_FAKE: '1' },
    });
    expect(byHand.status).toBe(130);
    expect(byHand.stderr).toMatch(/hand-shard\.sqlite --shard 1\/2\n$/);
  });
});
