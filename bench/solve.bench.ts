/**
 * Solver benchmark (`npm run bench:solve`; not a test). Solves fixed sets — seeds 1..N of each of the
 * six variants and PySolFC Spider 4-suit games 1..N at the main budget, then Spider 2-suit seeds 1..N at
 * 167,000 positions (the published reference point) — and prints per set: won / lost / undecided,
 * median and 95th percentile time and positions, positions per second, bytes per stored position.
 *
 * Then, for memory and raw speed, one exact best-first search (the solver's table and queue) of
 * 1,000,000 positions on seed 5 of each variant: bytes per stored position and positions per second.
 *
 * Before each set, deals of the same kind outside it (seeds or games 1001, 1002, …) are solved at the
 * set's budget and not counted, for --warmup-ms milliseconds (default 1,000; at most 100 deals): the
 * first deals a process solves run slower while V8 compiles the solver's code (Spider 1 suit, seeds
 * 1–100: 370,000 positions/s cold, 550,000 once warm), and a batch's workers solve many deals each.
 *
 * Options: --count N (deals per set, default 100), --max-positions N (default 1,000,000),
 * --warmup-ms N (default 1000; 0 for none), --sets a,b,… (names as printed; `none` for the memory
 * table alone), --no-memory, --json.
 * `npm run bench:solve` runs it compiled (dist/bench), as the CLI runs the solver; under tsx the
 * solver is about 15% slower.
 */
import { Command } from 'commander';
import { dealPosition } from '../src/game/deal.js';
import type { Position } from '../src/game/position.js';
import { pysolDeal } from '../src/game/pysol.js';
import { getVariant, type GameName, type SuitCount } from '../src/game/variant.js';
import { solve } from '../src/solver/solve.js';
import { bestFirstSearch } from '../src/solver/bestfirst.js';
import { MAX_MAX_POSITIONS } from '../src/solver/types.js';

const program = new Command()
  .option('--count <n>', 'deals per set', '100')
  .option('--max-positions <n>', 'main budget', '1000000')
  .option('--warmup-ms <n>', 'milliseconds of deals solved before each set, outside it, not counted (JIT warm-up; at most 100 deals)', '1000')
  .option('--sets <list>', 'comma-separated set names (default: all): SP1 seeds, SP2 seeds, SP4 seeds, SE1 seeds, SE2 seeds, SE4 seeds, PySol SP4, SP2 seeds @167k; none for the memory table alone')
  .option('--json', 'print JSON rows')
  .option('--no-memory', 'skip the memory table')
  .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : 2))
  .parse();
const opts = program.opts<{ count: string; maxPositions: string; warmupMs: string; sets?: string; json?: boolean; memory: boolean }>();
const count = Number(opts.count);
const warmupMs = Number(opts.warmupMs);
const max = Number(opts.maxPositions);

interface BenchSet { name: string; budget: number; deal: (i: number) => Position }
const seeded = (game: GameName, suits: SuitCount, budget: number, name?: string): BenchSet => ({
  name: name ?? `${game === 'spider' ? 'SP' : 'SE'}${suits} seeds`,
  budget,
  deal: (i) => dealPosition(getVariant(game, suits), i),
});
let sets: BenchSet[] = [
  seeded('spider', 1, max),
  seeded('spider', 2, max),
  seeded('spider', 4, max),
  seeded('spiderette', 1, max),
  seeded('spiderette', 2, max),
  seeded('spiderette', 4, max),
  {
    name: 'PySol SP4',
    budget: max,
    deal: (i) => {
      const r = pysolDeal('spider', i);
      if (!r.ok) throw r.error;
      return r.value.position;
    },
  },
  seeded('spider', 2, 167_000, 'SP2 seeds @167k'),
];
if (!/^\d+$/.test(opts.count.trim()) || !Number.isSafeInteger(count) || count < 1) {
  console.error(`solve.bench: --count "${opts.count}": give a whole number of deals, 1 or more`);
  process.exit(2);
}
if (!/^\d+$/.test(opts.warmupMs.trim()) || !Number.isSafeInteger(warmupMs) || warmupMs > 600_000) {
  console.error(`solve.bench: --warmup-ms "${opts.warmupMs}": give a whole number of milliseconds, 0..600000`);
  process.exit(2);
}
if (!/^\d+$/.test(opts.maxPositions.trim()) || !Number.isSafeInteger(max) || max < 1 || max > MAX_MAX_POSITIONS) {
  console.error(`solve.bench: --max-positions "${opts.maxPositions}": give a whole number 1..${MAX_MAX_POSITIONS}`);
  process.exit(2);
}
if (opts.sets !== undefined) {
  const want = opts.sets.split(',').map((s) => s.trim()).filter(Boolean);
  if (want.length === 0) {
    console.error('solve.bench: --sets is empty; name sets, or none for the memory table alone');
    process.exit(2);
  }
  const unknown = want.filter((w) => w !== 'none' && !sets.some((s) => s.name === w));
  if (unknown.length) {
    console.error(`solve.bench: --sets: unknown set ${unknown.map((u) => `"${u}"`).join(', ')}; the sets are ${sets.map((s) => `"${s.name}"`).join(', ')}, or none`);
    process.exit(2);
  }
  sets = sets.filter((s) => want.includes(s.name));
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const rows = [];
for (const set of sets) {
  const tally = { won: 0, lost: 0, undecided: 0 };
  const ms: number[] = [];
  const pos: number[] = [];
  let totalPos = 0;
  let totalMs = 0;
  // warm-up: deals of the same kind outside the set, not counted
  const w0 = performance.now();
  for (let i = 1; i <= 100 && performance.now() - w0 < warmupMs; i++) solve(set.deal(1000 + i), { maxPositions: set.budget });
  for (let i = 1; i <= count; i++) {
    const r = solve(set.deal(i), { maxPositions: set.budget });
    tally[r.status]++;
    ms.push(r.elapsedMs);
    pos.push(r.positions);
    totalPos += r.positions;
    totalMs += r.elapsedMs;
  }
  const row = {
    set: set.name,
    budget: set.budget,
    deals: count,
    ...tally,
    medianMs: Math.round(pct(ms, 50)),
    p95Ms: Math.round(pct(ms, 95)),
    medianPositions: pct(pos, 50),
    p95Positions: pct(pos, 95),
    positionsPerSecond: Math.round((totalPos / totalMs) * 1000),
  };
  rows.push(row);
  // progress, a line a set, on stderr: stdout keeps only the tables (or the JSON)
  if (!opts.json) console.error(JSON.stringify(row));
}
const memory = [];
if (opts.memory) {
  for (const [game, suits] of [['spider', 1], ['spider', 2], ['spider', 4], ['spiderette', 1], ['spiderette', 2], ['spiderette', 4]] as const) {
    const t0 = performance.now();
    const r = bestFirstSearch(dealPosition(getVariant(game, suits), 5), 1_000_000);
    const ms = performance.now() - t0;
    // bytes per position only means something for a search that stored many
    const bytesPerPosition = r.positions >= 100_000 ? Math.round((r.peakBytes / r.positions) * 10) / 10 : null;
    memory.push({ variant: `${game} ${suits}`, status: r.status, positions: r.positions, bytesPerPosition, positionsPerSecond: Math.round((r.positions / ms) * 1000) });
  }
}
if (opts.json) console.log(JSON.stringify({ sets: rows, memory }, null, 2));
else {
  if (rows.length) {
    console.log('\n| set | budget | won | lost | undecided | median ms | p95 ms | median positions | p95 positions | positions/s |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(`| ${r.set} | ${r.budget} | ${r.won}/${r.deals} | ${r.lost} | ${r.undecided} | ${r.medianMs} | ${r.p95Ms} | ${r.medianPositions} | ${r.p95Positions} | ${r.positionsPerSecond} |`);
    }
  }
  if (memory.length) {
    console.log('\n| exact search, seed 5 | result | positions | bytes/position | positions/s |');
    console.log('|---|---|---|---|---|');
    for (const m of memory) console.log(`| ${m.variant} | ${m.status} | ${m.positions} | ${m.bytesPerPosition ?? '- (under 100,000 stored)'} | ${m.positionsPerSecond} |`);
  }
}
