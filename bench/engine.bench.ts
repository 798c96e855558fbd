/**
 * Rules-engine throughput (`npm run bench`): legal-move generation and move application per second, for
 * each of the six variants, on a fixed set of mid-game positions.
 *
 * The positions are repeatable: deal k of a variant is its fresh deck shuffled by a seeded Fisher–Yates
 * (mulberry32, seed k), then a seeded random walk of up to 40 moves chosen uniformly among legalMoves.
 * legalMoves is timed over the whole set of positions; applyMove over every legal move of every position
 * in the set. Figures are operations (positions, or moves applied) per second.
 *
 * Environment: BENCH_TIME (ms per task, default 1000), BENCH_POSITIONS (positions per variant, default 64).
 */
import { Bench } from 'tinybench';
import type { Move } from '../src/game/move.js';
import { positionFromDeal, type Position } from '../src/game/position.js';
import { applyMove, legalMoves } from '../src/game/rules.js';
import { ALL_VARIANTS, type Variant } from '../src/game/variant.js';
import { deckOf, mulberry32, shuffle } from '../test/helpers/game.js';

const TIME_MS = Number(process.env.BENCH_TIME ?? 1000);
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 64);
const WALK = 40;

/** Mid-game position `k` of a variant: seeded deal, then a seeded random walk of up to WALK moves. */
function midGame(v: Variant, k: number): Position {
  const rand = mulberry32(0x5eed0000 + k);
  let p = positionFromDeal(v, shuffle(deckOf(v), rand));
  for (let i = 0; i < WALK; i++) {
    const moves = legalMoves(p);
    if (moves.length === 0) break;
    p = applyMove(p, moves[Math.floor(rand() * moves.length)]!).position;
  }
  return p;
}

interface Row {
  variant: string;
  positions: number;
  moves: number;
  legalMovesPerSec: number;
  applyMovePerSec: number;
}

/** Keeps results alive so the work cannot be optimised away. */
let sink = 0;

async function main(): Promise<void> {
  const sets = ALL_VARIANTS.map((v) => {
    const positions = Array.from({ length: POSITIONS }, (_, k) => midGame(v, k));
    const pairs: [Position, Move][] = positions.flatMap((p) => legalMoves(p).map((m) => [p, m] as [Position, Move]));
    return { v, name: `${v.game}-${v.suits}`, positions, pairs };
  });

  const bench = new Bench({ time: TIME_MS, warmupTime: Math.min(200, TIME_MS) });
  for (const s of sets) {
    bench.add(`${s.name} legalMoves`, () => {
      for (const p of s.positions) sink += legalMoves(p).length;
    });
    bench.add(`${s.name} applyMove`, () => {
      for (const [p, m] of s.pairs) sink += applyMove(p, m).effects.flips;
    });
  }
  await bench.run();

  /** Operations per second of a task that does `ops` operations per call. */
  const perSec = (name: string, ops: number): number => {
    const task = bench.tasks.find((t) => t.name === name);
    const r = task?.result;
    if (!r || !('latency' in r)) throw new Error(`bench task ${name} did not complete (${r?.state})`);
    return (ops * 1000) / r.latency.mean;
  };
  const rows: Row[] = sets.map((s) => ({
    variant: s.name,
    positions: s.positions.length,
    moves: s.pairs.length,
    legalMovesPerSec: perSec(`${s.name} legalMoves`, s.positions.length),
    applyMovePerSec: perSec(`${s.name} applyMove`, s.pairs.length),
  }));

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const header = ['variant', 'positions', 'moves', 'legalMoves ops/s', 'applyMove ops/s'];
  const body = rows.map((r) => [r.variant, String(r.positions), String(r.moves), fmt(r.legalMovesPerSec), fmt(r.applyMovePerSec)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`rules engine, Node ${process.version}, ${POSITIONS} mid-game positions per variant (seeded deal + ${WALK}-move seeded walk), ${TIME_MS} ms per task`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
  console.log('legalMoves ops/s = positions whose legal moves are listed per second; applyMove ops/s = moves applied per second.');
  if (sink === -1) console.log(sink);
}

await main();
