/**
 * Batch throughput and overhead (`npm run bench:batch`).
 *
 * 1. Real solves: a fixed set of deals (Spider 1 suit and Spiderette 2 suits, seeds 1..N each, budget
 *    BUDGET) run by runBatch with 1 and 2 workers into fresh databases. Shown: wall time, deals/s,
 *    the summed in-worker time (load + solve), and the pool + database overhead per deal:
 *    (wall × workers − in-worker time) / deals, which includes pool start-up and idle tails.
 * 2. No-op solves (bench/batch-noop.worker.ts): the same machinery with a worker that answers at
 *    once; wall / deals is the whole per-deal cost of dispatch, thread hops and database writes.
 * 3. Database alone: writeResults of the same records in transactions of 64.
 *
 * Settings (environment): BENCH_SEEDS (default 30), BENCH_BUDGET (default 2000), BENCH_NOOP (default 3000).
 * The machine is shared and noisy: compare ratios within one run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planSeeds, type PlannedDeal } from '../src/batch/deals.js';
import { runBatch, type BatchSummary } from '../src/batch/runner.js';
import { recordFromOutcome, ResultStore } from '../src/batch/store.js';
import { SOLVER_VERSION } from '../src/solver/types.js';

/** A whole-number setting from the environment, lo..hi; exits 2 with one line when it is not. */
function setting(name: string, fallback: number, lo: number, hi: number): number {
  const text = process.env[name];
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < lo || n > hi) {
    console.error(`batch.bench: ${name}="${text}": give a whole number ${lo}..${hi}`);
    process.exit(2);
  }
  return n;
}
const SEEDS = setting('BENCH_SEEDS', 30, 1, 100_000);
const BUDGET = setting('BENCH_BUDGET', 2000, 1, 200_000_000);
const NOOP = setting('BENCH_NOOP', 3000, 1, 10_000_000);
// the no-op worker in the form this file runs in: source (tsx) or the compiled build
const NOOP_WORKER = fileURLToPath(new URL(`./batch-noop.worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-bench-'));
let dbCount = 0;

async function batch(deals: PlannedDeal[], workers: number, maxPositions: number, workerFile?: string): Promise<BatchSummary> {
  const dbPath = join(dir, `b${dbCount++}.sqlite`);
  return runBatch({
    deals, maxPositions, workers, dbPath, study: 'bench', workerFile,
    studyParams: { game: null, suits: null, dealsSpec: 'bench', maxPositions },
  });
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const w = head.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n');
}

try {
  const real = [...planSeeds('spider', [1], [{ from: 1, to: SEEDS }]), ...planSeeds('spiderette', [2], [{ from: 1, to: SEEDS }])];
  const noopDeals = planSeeds('spider', [1, 2, 4], [{ from: 1, to: Math.ceil(NOOP / 3) }]);
  // warm-up (module compilation, first pool start) so the first measured run is not penalised
  await batch(real.slice(0, 4), 1, BUDGET);

  const rows: (string | number)[][] = [];
  const realRuns: BatchSummary[] = [];
  for (const workers of [1, 2]) {
    const s = await batch(real, workers, BUDGET);
    realRuns.push(s);
    const overhead = (s.elapsedMs * workers - s.workerMs) / s.ran;
    rows.push([`solve ×${real.length}, budget ${BUDGET}`, workers, fmt(s.elapsedMs / 1000, 2), fmt(s.dealsPerSecond), fmt(s.workerMs / s.ran, 2), fmt(overhead, 2),
      `${fmt((100 * s.workerMs) / (s.elapsedMs * workers), 0)}%`]);
  }
  for (const workers of [1, 2]) {
    const s = await batch(noopDeals, workers, BUDGET, NOOP_WORKER);
    rows.push([`no-op ×${noopDeals.length}`, workers, fmt(s.elapsedMs / 1000, 2), fmt(s.dealsPerSecond), '0', fmt((s.elapsedMs * workers) / s.ran, 3), '-']);
  }

  // database alone
  const store = ResultStore.openForWriting(join(dir, 'store.sqlite'));
  const records = noopDeals.map((d) => recordFromOutcome(d, BUDGET, {
    key: d.key, status: 'undecided', positions: BUDGET, elapsedMs: 1, line: '', moveCount: null, classicScore: null,
    revealScore: null, peakBytes: 0, solverVersion: SOLVER_VERSION, workerMs: 1,
  }));
  const t0 = performance.now();
  for (let i = 0; i < records.length; i += 64) store.writeResults(null, records.slice(i, i + 64));
  const storeMs = performance.now() - t0;
  store.close();
  rows.push([`db writes ×${records.length} (64 a transaction)`, '-', fmt(storeMs / 1000, 2), fmt(records.length / (storeMs / 1000), 0), '-', fmt(storeMs / records.length, 3), '-']);

  console.log(`spidersolve batch benchmark (${new Date().toISOString()}, node ${process.version})`);
  console.log(table(['run', 'workers', 'wall s', 'deals/s', 'in-worker ms/deal', 'overhead ms/deal', 'busy'], rows));
  const [one, two] = realRuns as [BatchSummary, BatchSummary];
  console.log(`\nspeed-up 2 workers / 1 worker on real solves: ${fmt(two.dealsPerSecond / one.dealsPerSecond, 2)}×`);
  console.log('overhead ms/deal = (wall × workers − in-worker time) / deals; it includes pool start-up (~0.3–0.5 s) and the idle tail of the last deals.');
  console.log('busy = in-worker time / (wall × workers).');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
