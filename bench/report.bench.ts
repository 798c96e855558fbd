/**
 * How long the HTML report of a large study takes to render (`npm run bench:report`).
 *
 * A synthetic study of 60,000 deals (Spider 1, 2 and 4 suits, seeds 1-20,000 each, budget 1,000,000)
 * is written straight into a fresh database, as one study — outcomes drawn from a seeded generator (pure-rand), won
 * shares near the solver's (99.9%, 97%, 82%), positions log-normal under the budget, times at about
 * 600,000 positions a second, lines of 100-250 moves stored as text of their real length — then
 * `node bin/spidersolve.js report --format html` (and `--format md`, for comparison) is run as a user
 * runs it, RUNS times each: wall time of the whole command, Node start-up included, and its CPU time
 * (user + system, from bash's `time`), which depends less on what else the machine is running.
 *
 * Settings (environment): BENCH_DEALS (seeds a suit count, default 20000), BENCH_RUNS (default 3),
 * BENCH_DB (keep the synthetic database at this path, written only if absent; default a temporary one).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { planSeeds } from '../src/batch/deals.js';
import { recordFromOutcome, ResultStore, type ResultRecord } from '../src/batch/store.js';
import { SOLVER_VERSION } from '../src/solver/types.js';

const ROOT = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '..' : '../..', import.meta.url));
const SEEDS = Number(process.env.BENCH_DEALS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BUDGET = 1_000_000;

const rng = xoroshiro128plus(20261201);
/** Uniform in [0, 1). */
function uniform(): number {
  return unsafeUniformIntDistribution(0, 2 ** 30 - 1, rng) / 2 ** 30;
}
/** Standard normal (Box–Muller). */
function normal(): number {
  return Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

function syntheticStudy(db: string): number {
  const store = ResultStore.openForWriting(db);
  const study = store.ensureStudy('synthetic', { game: 'spider', suits: '1,2,4', dealsSpec: `seeds:1-${SEEDS}`, maxPositions: BUDGET });
  let ord = 0;
  const write = (records: ResultRecord[]) => store.writeResults(null, records, study, records.map((r) => ({ deal: r.deal, ord: ord++, name: r.code })));
  const shape = { 1: { won: 0.999, mu: 7, sd: 1.5 }, 2: { won: 0.97, mu: 8.5, sd: 1.8 }, 4: { won: 0.82, mu: 11.8, sd: 1.3 } } as const;
  let n = 0;
  for (const suits of [1, 2, 4] as const) {
    const deals = planSeeds('spider', [suits], [{ from: 1, to: SEEDS }]);
    const batch: ResultRecord[] = [];
    for (const deal of deals) {
      const s = shape[suits];
      const won = uniform() < s.won;
      const positions = won ? Math.min(BUDGET, Math.max(60, Math.round(Math.exp(s.mu + s.sd * normal())))) : BUDGET;
      const moves = 100 + Math.floor(uniform() * 150);
      batch.push(
        recordFromOutcome(deal, BUDGET, {
          key: deal.key, status: won ? 'won' : 'undecided', positions, elapsedMs: positions / 600 + uniform(),
          line: won ? Array.from({ length: moves }, () => '10-3').join(' ') : '', moveCount: won ? moves : null,
          classicScore: won ? 1300 - moves : null, revealScore: won ? 1020 : null, peakBytes: positions * 40,
          solverVersion: SOLVER_VERSION, workerMs: positions / 600,
        }),
      );
      if (batch.length === 5000) {
        n += write(batch.splice(0));
      }
    }
    n += write(batch);
  }
  store.close();
  return n;
}

/** Runs the CLI once under bash's `time`: wall seconds and CPU seconds (user + system) of the command. */
function timeCommand(args: string[]): { wall: number; cpu: number } {
  const quoted = [process.execPath, join(ROOT, 'bin', 'spidersolve.js'), ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%R %U %S'; time ${quoted} >/dev/null`], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`spidersolve ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const [wall, user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { wall: wall!, cpu: user! + sys! };
}

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-report-bench-'));
try {
  const db = process.env.BENCH_DB ?? join(dir, 'study.sqlite');
  const t0 = Date.now();
  const had = existsSync(db);
  const rows = had ? 3 * SEEDS : syntheticStudy(db);
  console.error(`${had ? 'using' : 'wrote'} ${rows.toLocaleString('en-US')} synthetic results (${(statSync(db).size / 1048576).toFixed(1)} MiB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const out = join(dir, 'report.html');
  console.log('| command | runs | wall s (each) | median wall s | median CPU s (user + sys) | output |');
  console.log('|---|---|---|---|---|---|');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const format of ['html', 'vega', 'md'] as const) {
    const file = `${out}.${format}`;
    const times = Array.from({ length: RUNS }, () => timeCommand(['report', '--db', db, '--format', format, '--out', file]));
    console.log(
      `| report --format ${format} (${rows.toLocaleString('en-US')} deals) | ${RUNS} | ${times.map((t) => t.wall.toFixed(2)).join(', ')} | ` +
        `${median(times.map((t) => t.wall)).toFixed(2)} | ${median(times.map((t) => t.cpu)).toFixed(2)} | ${(statSync(file).size / 1024).toFixed(0)} KiB |`,
    );
  }
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')} (${cpus().length} cores)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
