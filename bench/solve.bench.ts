/**
 * Solver benchmark (`npm run bench:solve`; not a test). Solves fixed sets — seeds 1..N of each of the
 * six variants, PySolFC Spider 4-suit and Spiderette games 1..N at the main budget, then Spider 2-suit
 * seeds 1..N at 167,000 positions (the published reference point) — and prints per set: won / lost /
 * undecided, median and 95th percentile time, total time, positions per second, and bytes per stored
 * position (median over the deals that stored 100,000 positions or more; "-" when none did).
 *
 * `--against <git ref>` runs another version of the solver side by side in the same process: the ref
 * is exported (`git archive`) into a temporary directory, compiled there with this checkout's
 * TypeScript and modules, and each deal is solved by both versions in turn (the order alternating from
 * one deal to the next), so that both meet the same load; the table then gives both versions' rows and
 * the ratios new/old, taken from the unrounded times. Absolute times on a shared machine vary by ±30%; ratios from one run do not.
 *
 * Before each set, deals of the same kind outside it (seeds or games 1001, 1002, …) are solved at the
 * set's budget and not counted, for --warmup-ms milliseconds (default 1,000; at most 100 deals), by
 * each version: the first deals a process solves run slower while V8 compiles the solver's code.
 *
 * Options: --count N (deals per set, default 100), --from N (first deal, default 1: tune on other
 * deals with e.g. --from 2001), --max-positions N (default 1,000,000), --warmup-ms N (default 1000; 0
 * for none), --sets a,b,… (names as printed), --against REF, --json.
 * `npm run bench:solve` runs it compiled (dist/bench), as the CLI runs the solver.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { dealPosition } from '../src/game/deal.js';
import type { Position } from '../src/game/position.js';
import { pysolDeal } from '../src/game/pysol.js';
import { getVariant, type GameName, type SuitCount } from '../src/game/variant.js';
import { solve } from '../src/solver/solve.js';
import { MAX_MAX_POSITIONS, SOLVER_VERSION, type SolveOptions, type SolveResult } from '../src/solver/types.js';

const program = new Command()
  .option('--count <n>', 'deals per set', '100')
  .option('--from <n>', 'first deal of each set (seed or game number)', '1')
  .option('--max-positions <n>', 'main budget', '1000000')
  .option('--warmup-ms <n>', 'milliseconds of deals solved before each set, outside it, not counted (JIT warm-up; at most 100 deals)', '1000')
  .option('--sets <list>', 'comma-separated set names (default: all): SP1 seeds, SP2 seeds, SP4 seeds, SE1 seeds, SE2 seeds, SE4 seeds, PySol SP4, PySol SE, SP2 seeds @167k')
  .option('--against <ref>', 'also run the solver of this git ref (built in a temporary directory), side by side')
  .option('--json', 'print JSON rows')
  .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : 2))
  .parse();
const opts = program.opts<{ count: string; from: string; maxPositions: string; warmupMs: string; sets?: string; against?: string; json?: boolean }>();
const count = Number(opts.count);
const from = Number(opts.from);
const warmupMs = Number(opts.warmupMs);
const max = Number(opts.maxPositions);

const whole = (text: string, v: number, lo: number, hi: number) => /^\d+$/.test(text.trim()) && Number.isSafeInteger(v) && v >= lo && v <= hi;
if (!whole(opts.count, count, 1, 1_000_000)) fail(`--count "${opts.count}": give a whole number of deals, 1 or more`);
if (!whole(opts.from, from, 1, 1_000_000_000)) fail(`--from "${opts.from}": give a whole number, 1 or more`);
if (!whole(opts.warmupMs, warmupMs, 0, 600_000)) fail(`--warmup-ms "${opts.warmupMs}": give a whole number of milliseconds, 0..600000`);
if (!whole(opts.maxPositions, max, 1, MAX_MAX_POSITIONS)) fail(`--max-positions "${opts.maxPositions}": give a whole number 1..${MAX_MAX_POSITIONS}`);

function fail(msg: string): never {
  console.error(`solve.bench: ${msg}`);
  process.exit(2);
}

/** The parts of a solver version the bench uses: its solve and its deals. */
interface Version {
  name: string;
  solve: (p: Position, o: SolveOptions) => SolveResult;
  dealPosition: typeof dealPosition;
  pysolDeal: typeof pysolDeal;
  getVariant: typeof getVariant;
}

interface BenchSet { name: string; budget: number; deal: (v: Version, i: number) => Position }
const seeded = (game: GameName, suits: SuitCount, budget: number, name?: string): BenchSet => ({
  name: name ?? `${game === 'spider' ? 'SP' : 'SE'}${suits} seeds`,
  budget,
  deal: (v, i) => v.dealPosition(v.getVariant(game, suits), i),
});
const pysol = (name: string, kind: 'spider' | 'spiderette'): BenchSet => ({
  name,
  budget: max,
  deal: (v, i) => {
    const r = v.pysolDeal(kind, i);
    if (!r.ok) throw r.error;
    return r.value.position;
  },
});
let sets: BenchSet[] = [
  seeded('spider', 1, max),
  seeded('spider', 2, max),
  seeded('spider', 4, max),
  seeded('spiderette', 1, max),
  seeded('spiderette', 2, max),
  seeded('spiderette', 4, max),
  pysol('PySol SP4', 'spider'),
  pysol('PySol SE', 'spiderette'),
  seeded('spider', 2, 167_000, 'SP2 seeds @167k'),
];
if (opts.sets !== undefined) {
  const want = opts.sets.split(',').map((s) => s.trim()).filter(Boolean);
  if (want.length === 0) fail('--sets is empty; name one set or more');
  const unknown = want.filter((w) => !sets.some((s) => s.name === w));
  if (unknown.length) fail(`--sets: unknown set ${unknown.map((u) => `"${u}"`).join(', ')}; the sets are ${sets.map((s) => `"${s.name}"`).join(', ')}`);
  sets = sets.filter((s) => want.includes(s.name));
}

const here: Version = { name: `this (${SOLVER_VERSION})`, solve, dealPosition, pysolDeal, getVariant };

/** Exports `ref` into a temporary directory, compiles it there and loads its solver. */
async function loadRef(ref: string): Promise<{ version: Version; dir: string }> {
  const root = resolve(import.meta.dirname, '../..');
  const dir = mkdtempSync(join(tmpdir(), 'spidersolve-against-'));
  try {
    const tar = execFileSync('git', ['archive', '--format=tar', ref], { cwd: root, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { stdio: 'inherit' });
    const mod = async <T>(p: string): Promise<T> => (await import(pathToFileURL(join(dir, 'dist/src', p)).href)) as T;
    const s = await mod<{ solve: Version['solve'] }>('solver/solve.js');
    const t = await mod<{ SOLVER_VERSION: string }>('solver/types.js');
    const d = await mod<{ dealPosition: typeof dealPosition }>('game/deal.js');
    const p = await mod<{ pysolDeal: typeof pysolDeal }>('game/pysol.js');
    const v = await mod<{ getVariant: typeof getVariant }>('game/variant.js');
    if (!existsSync(join(dir, 'dist/src/solver/solve.js'))) throw new Error('no solver in the build');
    return { version: { name: `${ref} (${t.SOLVER_VERSION})`, solve: s.solve, dealPosition: d.dealPosition, pysolDeal: p.pysolDeal, getVariant: v.getVariant }, dir };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    fail(`--against ${ref}: ${(e as Error).message.split('\n')[0]}`);
  }
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

interface Tally { won: number; lost: number; undecided: number; ms: number[]; positions: number; bytesPer: number[] }
const newTally = (): Tally => ({ won: 0, lost: 0, undecided: 0, ms: [], positions: 0, bytesPer: [] });
function row(set: BenchSet, v: Version, t: Tally) {
  const totalMs = t.ms.reduce((a, b) => a + b, 0);
  return {
    set: set.name,
    version: v.name,
    budget: set.budget,
    deals: count,
    won: t.won,
    lost: t.lost,
    undecided: t.undecided,
    // to 0.1 ms and 0.01 s (a set of easy deals takes a second or two, medians a few ms); the ratios
    // are taken from the unrounded values
    medianMs: Math.round(pct(t.ms, 50) * 10) / 10,
    p95Ms: Math.round(pct(t.ms, 95) * 10) / 10,
    totalS: Math.round(totalMs / 10) / 100,
    exact: { medianMs: pct(t.ms, 50), p95Ms: pct(t.ms, 95), totalMs },
    positionsPerSecond: Math.round((t.positions / totalMs) * 1000),
    bytesPerPosition: t.bytesPer.length ? Math.round(pct(t.bytesPer, 50) * 10) / 10 : null,
  };
}

const against = opts.against ? await loadRef(opts.against) : null;
const versions = against ? [against.version, here] : [here];
const rows: ReturnType<typeof row>[] = [];
try {
  for (const set of sets) {
    const tallies = versions.map(newTally);
    for (const v of versions) {
      const w0 = performance.now();
      for (let i = 1; i <= 100 && performance.now() - w0 < warmupMs; i++) v.solve(set.deal(v, from + 1000 + i), { maxPositions: set.budget });
    }
    for (let i = from; i < from + count; i++) {
      // both versions solve the deal, in an order that alternates from one deal to the next
      for (let k = 0; k < versions.length; k++) {
        const j = (i + k) % versions.length;
        const v = versions[j]!;
        const t = tallies[j]!;
        const r = v.solve(set.deal(v, i), { maxPositions: set.budget });
        t[r.status]++;
        t.ms.push(r.elapsedMs);
        t.positions += r.positions;
        if (r.positions >= 100_000) t.bytesPer.push(r.peakBytes / r.positions);
      }
    }
    const setRows = versions.map((v, j) => row(set, v, tallies[j]!));
    rows.push(...setRows);
    // progress, a line a set, on stderr: stdout keeps only the tables (or the JSON)
    if (!opts.json) for (const r of setRows) console.error(JSON.stringify(r));
  }
} finally {
  if (against) rmSync(against.dir, { recursive: true, force: true });
}

const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? (a / b).toFixed(2) : '-');
if (opts.json) console.log(JSON.stringify({ from, count, against: opts.against ?? null, rows }, null, 2));
else {
  console.log('\n| set | version | won | lost | undecided | median ms | p95 ms | total s | positions/s | bytes/position |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.set} (${r.budget}) | ${r.version} | ${r.won}/${r.deals} | ${r.lost} | ${r.undecided} | ${r.medianMs} | ${r.p95Ms} | ${r.totalS} | ${r.positionsPerSecond} | ${r.bytesPerPosition ?? '-'} |`);
  }
  if (against) {
    console.log(`\nRatios, this version / ${opts.against} (below 1: this version is faster or smaller):\n`);
    console.log('| set | won | settled | median ms | p95 ms | total s | positions/s | bytes/position |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (let i = 0; i < rows.length; i += 2) {
      const o = rows[i]!;
      const n = rows[i + 1]!;
      console.log(`| ${n.set} | ${o.won} → ${n.won} | ${o.won + o.lost} → ${n.won + n.lost} | ${ratio(n.exact.medianMs, o.exact.medianMs)} | ${ratio(n.exact.p95Ms, o.exact.p95Ms)} | ${ratio(n.exact.totalMs, o.exact.totalMs)} | ${ratio(n.positionsPerSecond, o.positionsPerSecond)} | ${n.bytesPerPosition !== null && o.bytesPerPosition !== null ? ratio(n.bytesPerPosition, o.bytesPerPosition) : '-'} |`);
    }
  }
}
