/**
 * Blind-play benchmark (`npm run bench:blind`; not a test). Plays fixed deals — seeds FROM..FROM+N-1 of
 * each variant asked for — blind with each player spec, and prints per (variant, player): games won
 * with the 95% Wilson interval, mean and largest CPU seconds a game (process.cpuUsage: the CPU time of
 * this one-threaded process, which a busy machine does not inflate as it does wall time), games a CPU
 * second, and the player's solves and positions a game; then the trade-off as a text chart (win rate
 * against CPU a game, one bar a player).
 *
 * Options: --count N (deals per variant, default 10), --from N (first seed, default 1; tune on other
 * seeds, e.g. --from 10001), --variants a,b (spider-1, spider-2, spider-4, spiderette-1, …; default
 * spider-1,spider-2,spider-4), --players "SPEC;SPEC" (semicolon-separated, since specs hold commas;
 * default "greedy;sample"), --seed S (the players' seed, default 1), --json (one JSON row a line).
 */
import { Command } from 'commander';
import { wilsonInterval } from '../src/batch/report.js';
import { playBlind } from '../src/blind/game.js';
import { parsePlayerSpec, specText } from '../src/blind/players/index.js';
import { dealPosition } from '../src/game/deal.js';
import { VARIANTS } from '../src/game/variant.js';

const program = new Command()
  .option('--count <n>', 'deals per variant', '10')
  .option('--from <n>', 'first seed', '1')
  .option('--variants <list>', 'variants, comma-separated', 'spider-1,spider-2,spider-4')
  .option('--players <list>', 'player specs, semicolon-separated', 'greedy;sample')
  .option('--seed <n>', "the players' seed", '1')
  .option('--json', 'one JSON row a line')
  .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : 2))
  .parse();
const o = program.opts<{ count: string; from: string; variants: string; players: string; seed: string; json?: boolean }>();

function fail(msg: string): never {
  console.error(`blind.bench: ${msg}`);
  process.exit(2);
}
const count = Number(o.count);
const from = Number(o.from);
const seed = Number(o.seed);
if (!/^\d+$/.test(o.count) || count < 1) fail(`--count "${o.count}": give a whole number, 1 or more`);
if (!/^\d+$/.test(o.from)) fail(`--from "${o.from}": give a whole number`);
if (!/^\d+$/.test(o.seed)) fail(`--seed "${o.seed}": give a whole number`);
const variants = o.variants.split(',').map((v) => v.trim()).filter(Boolean);
for (const v of variants) if (!VARIANTS[v]) fail(`--variants: unknown variant "${v}" (use ${Object.keys(VARIANTS).join(', ')})`);
let specs;
try {
  specs = o.players.split(';').map((s) => s.trim()).filter(Boolean).map(parsePlayerSpec);
} catch (e) {
  fail((e as Error).message);
}

interface Row {
  variant: string;
  player: string;
  games: number;
  won: number;
  low: number;
  high: number;
  suits: number;
  cpuMean: number;
  cpuMax: number;
  solves: number;
  positions: number;
}
const rows: Row[] = [];
for (const v of variants) {
  for (const spec of specs) {
    let won = 0;
    let suits = 0;
    let cpu = 0;
    let cpuMax = 0;
    let solves = 0;
    let positions = 0;
    for (let s = from; s < from + count; s++) {
      const c0 = process.cpuUsage();
      const g = playBlind(dealPosition(VARIANTS[v]!, s), spec, seed);
      const c = process.cpuUsage(c0);
      const t = (c.user + c.system) / 1e6;
      cpu += t;
      cpuMax = Math.max(cpuMax, t);
      if (g.result === 'won') won++;
      suits += g.completed;
      solves += g.work.solves;
      positions += g.work.positions;
    }
    const [low, high] = wilsonInterval(won, count)!;
    const row = { variant: v, player: specText(spec), games: count, won, low, high, suits: suits / count, cpuMean: cpu / count, cpuMax, solves: solves / count, positions: positions / count };
    rows.push(row);
    if (o.json) console.log(JSON.stringify(row));
    else {
      const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
      console.log(
        `${v.padEnd(13)} ${row.player.padEnd(48)} won ${String(won).padStart(3)}/${count} ${pct(won / count).padStart(6)} [${pct(low)}, ${pct(high)}]  suits/game ${row.suits.toFixed(1)}  ` +
          `CPU s/game ${row.cpuMean.toFixed(2)} (max ${cpuMax.toFixed(1)})  games/CPU s ${(1 / Math.max(row.cpuMean, 1e-6)).toFixed(2)}  solves/game ${row.solves.toFixed(0)}  positions/game ${Math.round(row.positions)}`,
      );
    }
  }
}
if (!o.json) {
  console.log('\nTrade-off (win rate | CPU s a game):');
  for (const r of rows) {
    const bar = '#'.repeat(Math.round((40 * r.won) / r.games));
    console.log(`${r.variant.padEnd(13)} ${r.player.padEnd(48)} ${bar.padEnd(40, '.')} ${(100 * r.won / r.games).toFixed(0).padStart(3)}% | ${r.cpuMean.toFixed(2)} s`);
  }
}
