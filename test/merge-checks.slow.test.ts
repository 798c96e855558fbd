/**
 * `merge` as separate processes: two merges into one target at once (the second waits for the
 * first's transaction, or is refused with nothing of it merged), and a WAL-mode input in a folder its
 * user cannot write (run as `nobody` when the tests run as root, who may write anywhere).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { runBatch } from '../src/batch/runner.js';
import { ROOT } from './helpers/cli.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));

let dir: string;
let shardA: string;
let shardB: string;

async function batch(name: string, from: number, to: number): Promise<string> {
  const db = join(dir, name);
  await runBatch({
    deals: planSeeds('spiderette', [1], [{ from, to }]),
    maxPositions: 10_000,
    workers: 2,
    dbPath: db,
    study: 'se1',
    studyParams: { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-30', maxPositions: 10_000, planned: 30 },
    workerFile: TEST_WORKER,
  });
  return db;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-merge-slow-'));
  chmodSync(dir, 0o755);
  shardA = await batch('a.sqlite', 1, 20);
  shardB = await batch('b.sqlite', 21, 30);
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `spidersolve merge …` as a process; resolves with its exit status and output. */
function merge(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'merge', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function codes(path: string): string[] {
  const d = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return d.prepare('SELECT code FROM results ORDER BY id').pluck().all() as string[];
  } finally {
    d.close();
  }
}

describe('two merges into one target at once', () => {
  it('of different shards: both merge (the second waits for the first), the target holds both', async () => {
    const into = join(dir, 'both.sqlite');
    const [a, b] = await Promise.all([merge(['--into', into, shardA]), merge(['--into', into, shardB])]);
    expect([a.status, a.stderr, b.status, b.stderr]).toEqual([0, '', 0, '']);
    expect(codes(into).sort()).toEqual([...Array.from({ length: 30 }, (_, i) => `SE1-${i + 1}`)].sort());
  });

  it('that conflict: one merges, the other is refused with nothing of it merged, and the target holds exactly the first', async () => {
    const into = join(dir, 'clash.sqlite');
    // seed 21 with other positions: conflicts with shardB's
    const other = join(dir, 'other.sqlite');
    copyFileSync(shardB, other);
    const d = new Database(other);
    d.prepare("UPDATE results SET positions = positions + 1 WHERE code = 'SE1-21'").run();
    d.prepare("DELETE FROM results WHERE code <> 'SE1-21'").run();
    d.pragma('journal_mode = DELETE');
    d.close();
    const [big, small] = await Promise.all([merge(['--into', into, shardA, shardB]), merge(['--into', into, other])]);
    expect([big.status, small.status].sort()).toEqual([0, 2]);
    const loser = big.status === 2 ? big : small;
    expect(loser.stdout).toBe('');
    expect(loser.stderr).toMatch(/^spidersolve: merge (refused, nothing written to .*clash\.sqlite: 1 conflict|into .*clash\.sqlite refused, nothing was merged: another program)[^\n]*\n$/);
    expect(codes(into).length).toBe(big.status === 0 ? 30 : 1);
  });
});

describe('a WAL-mode input in a folder that cannot be written (as a user without rights to it)', () => {
  it('exits 2 with one line saying what to copy, as report, studies and export do; nothing created beside it', () => {
    const base = mkdtempSync(join(dir, 'walro-'));
    chmodSync(base, 0o755);
    const ro = join(base, 'ro');
    const out = join(base, 'out');
    mkdirSync(ro);
    mkdirSync(out);
    const file = join(ro, 'shard.sqlite');
    copyFileSync(shardB, file);
    const d = new Database(file);
    d.pragma('journal_mode = WAL');
    d.close();
    chmodSync(file, 0o444);
    chmodSync(ro, 0o555);
    chmodSync(out, 0o777);
    // root writes anywhere: the command runs as nobody then
    const asUser = process.getuid?.() === 0 ? ['runuser', ['-u', 'nobody', '--', process.execPath]] as const : [process.execPath, []] as const;
    const into = join(out, 'merged.sqlite');
    const r = spawnSync(asUser[0], [...asUser[1], '--import', 'tsx', 'src/cli/main.ts', 'merge', '--into', into, file], { cwd: ROOT, encoding: 'utf8' });
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `spidersolve: merge: input ${file}: cannot read it here: it is in WAL mode (the batch that wrote it did not close it) and SQLite must make ${file}-shm beside it, in a folder it cannot write; copy its -wal and -shm files with it, or merge it from a folder you can write (SQLite: attempt to write a readonly database); nothing was merged\n`,
    ]);
    expect(readdirSync(ro)).toEqual(['shard.sqlite']);
    expect(readdirSync(out)).toEqual([]);
    chmodSync(ro, 0o755);
  });
});
