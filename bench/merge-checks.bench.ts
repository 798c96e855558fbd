/**
 * What merge's checks of its inputs cost (src/batch/verify.ts): N shards of R won results each, all
 * distinct deals with real winning lines, merged into a new target by the merge of a base revision
 * (no checks) and by this one, in one run, then merged again (nothing new).
 *
 * The deals: a few one-suit Spider deals solved for real, and many more made from them by permuting
 * the columns within the layout's groups (the 4 columns of 6 cards, the 6 of 5) with the stock's
 * cards alike: each is another deal (its own explicit code), and the line with its columns renamed
 * wins it in the same moves, with the same scores.
 *
 * Run (from the repository root; BASE a checkout of the revision to compare with, its src/ beside a
 * node_modules):
 *   nice -n 10 npx tsx bench/merge-checks.bench.ts [N] [R] [BASE]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { makeDealCode } from '../src/game/code.js';
import { dealPosition } from '../src/game/deal.js';
import { dealCardsOf, type Position } from '../src/game/position.js';
import { getVariant } from '../src/game/variant.js';
import type { PlannedDeal } from '../src/batch/deals.js';
import { mergeDatabases } from '../src/batch/merge.js';
import { recordFromOutcome, ResultStore } from '../src/batch/store.js';
import { ReplayCache, verifyDatabase } from '../src/batch/verify.js';
import { solve } from '../src/solver/solve.js';

const N = Number(process.argv[2] ?? 10);
const R = Number(process.argv[3] ?? 1000);
const BASE = process.argv[4];
const BUDGET = 10_000;
const SP1 = getVariant('spider', 1);

/** All permutations of `xs`. */
function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

// column maps: new column of old column c (0-based), within the groups 0-3 and 4-9
const maps: number[][] = [];
for (const a of permutations([0, 1, 2, 3])) for (const b of permutations([4, 5, 6, 7, 8, 9])) maps.push([...a, ...b]);

function permuted(p: Position, map: readonly number[]): Position {
  const columns = new Array(p.columns.length);
  p.columns.forEach((c, i) => (columns[map[i]!] = c));
  const stock = p.stock.map((d) => {
    const out = new Array(d.length);
    d.forEach((card, i) => (out[map[i]!] = card));
    return out;
  });
  return { ...p, columns, stock };
}

function renamed(line: readonly string[], map: readonly number[]): string {
  return line.map((m) => m.replace(/^(\d+)-(\d+)/, (_, a: string, b: string) => `${map[Number(a) - 1]! + 1}-${map[Number(b) - 1]! + 1}`)).join(' ');
}

const t0 = performance.now();
const bases = Array.from({ length: Math.ceil((N * R) / (maps.length * 0.9)) + 2 }, (_, i) => i + 1).map((seed) => {
  const start = dealPosition(SP1, seed);
  const r = solve(start, { maxPositions: BUDGET });
  if (r.status !== 'won') throw new Error(`SP1-${seed} not won`);
  return { start, r };
});
const dir = mkdtempSync(join(tmpdir(), 'spidersolve-merge-bench-'));
const seen = new Set<string>();
const shards: string[] = [];
let b = 0;
let m = 0;
for (let k = 0; k < N; k++) {
  const path = join(dir, `shard-${k}.sqlite`);
  const s = ResultStore.openForWriting(path);
  const study = s.ensureStudy('bench', { game: 'spider', suits: '1', dealsSpec: 'file:/bench/deals.txt', maxPositions: BUDGET, planned: N * R });
  const run = s.startRun(study, { workers: 1, solverVersion: bases[0]!.r.solverVersion, planned: R, skipped: 0 });
  const recs = [];
  while (recs.length < R) {
    if (m === maps.length) {
      m = 0;
      b++;
    }
    const { start, r } = bases[b]!;
    const map = maps[m++]!;
    const code = makeDealCode(SP1, dealCardsOf(permuted(start, map))!);
    if (seen.has(code)) continue;
    seen.add(code);
    const deal: PlannedDeal = { key: code, ref: code, game: 'spider', suits: 1, source: { kind: 'code' }, deal: code };
    recs.push(recordFromOutcome(deal, BUDGET, {
      key: code, status: 'won', positions: r.positions, elapsedMs: r.elapsedMs, line: renamed(r.line, map), moveCount: r.moveCount,
      classicScore: r.classicScore, revealScore: r.revealScore, peakBytes: r.peakBytes, solverVersion: r.solverVersion, workerMs: r.elapsedMs,
    }));
  }
  s.writeResults(run, recs, study, recs.map((x, i) => ({ deal: x.deal, ord: k * R + i, name: x.code })));
  s.finishRun(run, 'done');
  s.close();
  shards.push(path);
}
const made = performance.now() - t0;
console.log(`${N} shards of ${R} won one-suit Spider results (${bases.length} deals solved, ${seen.size} distinct deals), ${(statSync(shards[0]!).size / 1e6).toFixed(1)} MB each, made in ${(made / 1000).toFixed(1)} s`);

// SQLite's checks and the row checks alone, on one shard
for (const check of ['quick', 'integrity'] as const) {
  const d = new Database(shards[0]!, { readonly: true });
  const t = performance.now();
  d.prepare(`PRAGMA ${check}_check`).all();
  console.log(`  PRAGMA ${check}_check of one shard: ${(performance.now() - t).toFixed(0)} ms`);
  d.close();
}
{
  const d = new Database(shards[0]!, { readonly: true });
  const replays = new ReplayCache();
  for (const what of [`${R} replays`, 'its lines known']) {
    const t = performance.now();
    const fault = verifyDatabase(d, { replays });
    const ms = performance.now() - t;
    console.log(`  verifyDatabase of one shard (integrity check, rows, ${what}): ${ms.toFixed(0)} ms (${((ms / R) * 1000).toFixed(0)} µs a row)${fault ? ` FAULT ${fault.message}` : ''}`);
  }
  d.close();
}

type Merge = (into: string, inputs: readonly string[]) => { totals: Record<string, { added: number; present: number }> };
const merges: [string, Merge][] = [['checked (this revision)', mergeDatabases]];
if (BASE) {
  const old = (await import(resolve(BASE, 'src/batch/merge.ts'))) as { mergeDatabases: Merge };
  merges.unshift(['unchecked (base)', old.mergeDatabases]);
}
const times: Record<string, number[]> = {};
for (let round = 0; round < 2; round++) {
  for (const [name, merge] of round === 0 ? merges : [...merges].reverse()) {
    const into = join(dir, `into-${name.split(' ')[0]}-${round}.sqlite`);
    let t = performance.now();
    const s = merge(into, shards);
    const first = performance.now() - t;
    t = performance.now();
    const again = merge(into, shards);
    const second = performance.now() - t;
    (times[name] ??= []).push(first, second);
    console.log(`  ${name}, round ${round + 1}: ${(first / 1000).toFixed(2)} s (${s.totals.results!.added} results added); again, nothing new: ${(second / 1000).toFixed(2)} s (${again.totals.results!.present} already there)`);
  }
}
if (BASE) {
  const [u, c] = [times['unchecked (base)']!, times['checked (this revision)']!];
  const best = (xs: number[], i: number) => Math.min(xs[i]!, xs[i + 2]!);
  console.log(`ratio checked/unchecked, best of 2: new target ${(best(c, 0) / best(u, 0)).toFixed(2)}x, merged again ${(best(c, 1) / best(u, 1)).toFixed(2)}x`);
}
rmSync(dir, { recursive: true, force: true });
