/**
 * The cost of sharding (`npm run bench:cluster`).
 *
 * 1. One study (Spider 1 and 2 suits, seeds 1..BENCH_SEEDS, budget BENCH_BUDGET) run on this machine
 *    as separate `spidersolve batch` processes of the compiled build, each into its own database:
 *    - 1 shard (`--shard 0/1`) with as many workers as cores;
 *    - 4 shards of 1 worker each, as many at a time as cores (GNU parallel's way with --jobs);
 *    - 4 shards of 1 worker each, all at once;
 *    then merged into one database. Shown: wall time of the shards, of the merge, and total deals/s
 *    (deals over the wall time of shards and merge together). The difference is what sharding costs
 *    on one machine: a process and a pool started per shard, and the idle tail of the last shard.
 * 2. Merge alone: BENCH_MERGE results (default 100,000) written into 4 shard databases through the
 *    store, with their study links and deal names as a batch writes them (so 300,000 rows in all),
 *    then `mergeDatabases` into a new file, and again into the same file (all already there).
 *
 * Settings (environment): BENCH_SEEDS (default 100), BENCH_BUDGET (default 200000), BENCH_MERGE.
 * The machine is shared and noisy: compare within one run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { planSeeds } from '../src/batch/deals.js';
import { mergeDatabases } from '../src/batch/merge.js';
import { shardAssignment } from '../src/batch/shard.js';
import { recordFromOutcome, ResultStore } from '../src/batch/store.js';

function setting(name: string, fallback: number, lo: number, hi: number): number {
  const text = process.env[name];
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < lo || n > hi) {
    console.error(`cluster.bench: ${name}="${text}": give a whole number ${lo}..${hi}`);
    process.exit(2);
  }
  return n;
}
const SEEDS = setting('BENCH_SEEDS', 100, 1, 100_000);
const BUDGET = setting('BENCH_BUDGET', 200_000, 1, 200_000_000);
const MERGE = setting('BENCH_MERGE', 100_000, 4, 1_000_000);
const CORES = availableParallelism();
// the compiled CLI (this file runs from dist/bench/ after tsc -p tsconfig.bench.json)
const CLI = fileURLToPath(new URL('../../bin/spidersolve.js', import.meta.url));
const STUDY = ['--game', 'spider', '--suits', '1,2', '--seeds', `1-${SEEDS}`, '--max-positions', String(BUDGET)];

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-cluster-bench-'));

function cli(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`spidersolve ${args.join(' ')}: exit ${code}: ${err}`))));
  });
}

/** Runs `count` shards, `atOnce` at a time, `workers` each; then merges. Times in ms. */
async function sharded(label: string, count: number, atOnce: number, workers: number): Promise<(string | number)[]> {
  const sub = mkdtempSync(join(dir, 's-'));
  const dbs = Array.from({ length: count }, (_, k) => join(sub, `shard-${k}.sqlite`));
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: atOnce }, async () => {
    while (next < count) {
      const k = next++;
      await cli(['batch', ...STUDY, '--workers', String(workers), '--shard', `${k}/${count}`, '--db', dbs[k]!]);
    }
  }));
  const t1 = performance.now();
  await cli(['merge', '--into', join(sub, 'all.sqlite'), ...dbs]);
  const t2 = performance.now();
  const deals = SEEDS * 2;
  return [label, deals, ((t1 - t0) / 1000).toFixed(1), ((t2 - t1) / 1000).toFixed(2), (deals / ((t2 - t0) / 1000)).toFixed(1)];
}

function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const w = head.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n');
}

async function main(): Promise<void> {
  console.error(`cluster.bench: ${SEEDS * 2} deals (${STUDY.join(' ')}), ${CORES} cores`);
  const rows: (string | number)[][] = [];
  rows.push(await sharded(`1 shard, ${CORES} workers`, 1, 1, CORES));
  rows.push(await sharded(`4 shards of 1 worker, ${CORES} at a time`, 4, CORES, 1));
  rows.push(await sharded('4 shards of 1 worker, all at once', 4, 4, 1));
  console.log(table(['run', 'deals', 'shards s', 'merge s', 'deals/s (shards + merge)'], rows));

  // merge alone: MERGE synthetic results in 4 shard files
  const deals = planSeeds('spider', [4], [{ from: 1, to: MERGE }]);
  const files: string[] = [];
  const tw = performance.now();
  for (let k = 0; k < 4; k++) {
    const path = join(dir, `m-${k}.sqlite`);
    const store = ResultStore.openForWriting(path);
    const study = store.ensureStudy('merge-bench', { game: 'spider', suits: '4', dealsSpec: `seeds:1-${MERGE}`, maxPositions: BUDGET });
    const assignment = shardAssignment(deals.length, 4);
    const places = [...deals.keys()].filter((i) => assignment[i] === k);
    const part = places.map((i) => deals[i]!);
    const run = store.startRun(study, { workers: 1, solverVersion: 'bench', planned: part.length, skipped: 0 });
    for (let i = 0; i < part.length; i += 5000) {
      const recs = part.slice(i, i + 5000).map((d, j) => recordFromOutcome(d, BUDGET, {
        key: d.key, status: (i + j) % 5 === 0 ? 'undecided' : 'won', positions: 1000 + i + j, elapsedMs: 12.5,
        line: (i + j) % 5 === 0 ? '' : '1-2 3-4 d 5-6 7-8 d 9-10 2-1 d 4-3 6-5 d 8-7 10-9 d', moveCount: 14,
        classicScore: 486, revealScore: 30, peakBytes: 1 << 20, solverVersion: 'bench', workerMs: 13,
      }));
      // as a batch writes them: with the study's links (place in the plan, name)
      store.writeResults(run, recs, study, recs.map((r, j) => ({ deal: r.deal, ord: places[i + j]!, name: r.code })));
    }
    store.finishRun(run, 'done');
    store.close();
    files.push(path);
  }
  console.error(`cluster.bench: ${MERGE} results written in 4 files in ${((performance.now() - tw) / 1000).toFixed(1)} s`);
  const into = join(dir, 'm-all.sqlite');
  // CPU time beside wall time: on a shared machine the wall time says more about the neighbours
  const timed = () => {
    const c0 = process.cpuUsage();
    const m = mergeDatabases(into, files);
    const c = process.cpuUsage(c0);
    return { m, cpuS: (c.user + c.system) / 1e6 };
  };
  const first = timed();
  const again = timed();
  const row = (label: string, t: ReturnType<typeof timed>) => [
    label, MERGE, t.m.totals.results!.added, t.m.totals.results!.present, (t.m.elapsedMs / 1000).toFixed(2), t.cpuS.toFixed(2), Math.round(MERGE / (t.m.elapsedMs / 1000)),
  ];
  console.log('');
  console.log(table(['merge of 4 files', 'results', 'added', 'already there', 'wall s', 'CPU s', 'results/s (wall)'], [row('into a new file', first), row('again (idempotent)', again)]));
  // an upper bound for the merge: the process also wrote the 4 files
  console.log(`peak resident memory of this process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
