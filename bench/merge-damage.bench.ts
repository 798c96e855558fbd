/**
 * What merge's checks catch: a real 300-deal shard (one-suit Spiderette seeds 1-300 at 10,000
 * positions) with 16 bytes of junk written at 60 offsets spread over the file, each damaged copy
 * merged into a new target; the outcomes counted (refused by SQLite's integrity check, by the row
 * checks, by SQLite while reading; merged with the results, names and links exactly the undamaged
 * shard's; or merged changed, which should never happen).
 *
 * Run: nice -n 10 npx tsx bench/merge-damage.bench.ts
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { planSeeds } from '../src/batch/deals.js';
import { solveWorkerFile } from '../src/batch/pool.js';
import { runBatch } from '../src/batch/runner.js';
import { mergeDatabases } from '../src/batch/merge.js';
import { verifyDatabase } from '../src/batch/verify.js';
import { InputError } from '../src/game/errors.js';
const dir = mkdtempSync(join(tmpdir(), 'trust-sweep-'));
const shard = join(dir, 'shard.sqlite');
await runBatch({ deals: planSeeds('spiderette', [1], [{ from: 1, to: 300 }]), maxPositions: 10000, workers: 2, dbPath: shard, study: 's', studyParams: { game: 'spiderette', suits: '1', dealsSpec: 'seeds:1-300', maxPositions: 10000, planned: 300 }, workerFile: solveWorkerFile() });
const content = (p: string) => { const d = new Database(p, { readonly: true }); try { return JSON.stringify([d.prepare('SELECT deal, code, status, positions, move_count, line, classic_score, reveal_score, max_positions, solver_version FROM results ORDER BY deal').all(), d.prepare('SELECT deal, name FROM deal_names ORDER BY 1,2').all(), d.prepare('SELECT deal, ord, name FROM study_deals ORDER BY 2').all()]); } finally { d.close(); } };
const ref = join(dir, 'ref.sqlite'); mergeDatabases(ref, [shard]); const want = content(ref);
const size = readFileSync(shard).length;
const tally: Record<string, number> = {};
const examples: Record<string, string> = {};
for (let k = 0; k < 60; k++) {
  const bad = join(dir, 'bad.sqlite'); copyFileSync(shard, bad);
  const b = readFileSync(bad); const off = Math.floor((size - 16) * (k + 0.5) / 60);
  createHash('sha256').update('x' + k).digest().subarray(0, 16).copy(b, off); writeFileSync(bad, b);
  const into = join(dir, `into-${k}.sqlite`);
  let kind: string;
  try {
    mergeDatabases(into, [bad]);
    const same = content(into) === want;
    const d = new Database(into, { readonly: true }); const v = verifyDatabase(d); d.close();
    kind = same ? 'merged, content intact' : `merged, content changed${v ? ' (target fails checks!)' : ' (only unchecked columns or values within range)'}`;
  } catch (e) {
    kind = e instanceof InputError ? (/integrity check/.test(e.message) ? 'refused: SQLite integrity check' : /damaged, refused/.test(e.message) ? 'refused: row check' : 'refused: other') : `OTHER ERROR ${(e as Error).constructor.name}`;
    examples[kind] ??= (e as Error).message;
    if (existsSync(into)) kind += ' (target left!)';
  }
  tally[kind] = (tally[kind] ?? 0) + 1;
}
console.log(`shard ${size} bytes`); console.log(tally); console.log(examples);
rmSync(dir, { recursive: true, force: true });
