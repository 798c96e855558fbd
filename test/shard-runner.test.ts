/**
 * A study run as shards by the runner (runBatch's `shard`), with the test worker's fake ladder
 * outcomes (test/batch-fixtures/test.worker.ts), merged: the same results, links, report and study
 * counts as one run of the whole study — with a three-rung budget ladder, which works per shard.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSeeds } from '../src/batch/deals.js';
import { mergeDatabases } from '../src/batch/merge.js';
import type { ReportRow } from '../src/batch/report.js';
import { runBatch, type BatchOptions } from '../src/batch/runner.js';
import { shardAssignment } from '../src/batch/shard.js';
import { ResultStore } from '../src/batch/store.js';
import { withEnv } from './helpers/env.js';

const TEST_WORKER = fileURLToPath(new URL('./batch-fixtures/test.worker.ts', import.meta.url));
const LADDER = { SPIDERSOLVE_TEST_FAKE: '1', SPIDERSOLVE_TEST_LADDER: '1' };
const BUDGETS = [250, 500, 1000];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-shard-runner-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Spiderette 1 and 2 suits, seeds 1-12 (24 deals), on the ladder 250, 500, 1000 positions. */
function study(db: string, over: Partial<BatchOptions> = {}): BatchOptions {
  return {
    deals: planSeeds('spiderette', [1, 2], [{ from: 1, to: 12 }]),
    maxPositions: BUDGETS[0]!,
    budgets: BUDGETS,
    workers: 2,
    dbPath: db,
    study: 'ladder',
    studyParams: { game: 'spiderette', suits: '1,2', dealsSpec: 'seeds:1-12', maxPositions: BUDGETS[0]!, budgets: BUDGETS, planned: 24 },
    workerFile: TEST_WORKER,
    ...over,
  };
}

function all(db: string, sql: string): unknown[] {
  const d = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return d.prepare(sql).all();
  } finally {
    d.close();
  }
}

const RESULTS = 'SELECT deal, code, max_positions, status, positions, line, move_count, classic_score, reveal_score, peak_bytes, solver_version FROM results ORDER BY deal, max_positions';
const LINKS = 'SELECT s.name AS study, d.deal, d.ord, d.name FROM study_deals d JOIN studies s ON s.id = d.study_id ORDER BY d.ord';

function report(db: string): Omit<ReportRow, 'medianMs' | 'p95Ms'>[] {
  const s = ResultStore.openForReading(db);
  try {
    return s.report().map(({ medianMs: _m, p95Ms: _p, ...rest }) => rest);
  } finally {
    s.close();
  }
}

describe('runBatch with a shard', () => {
  it('3 shards of a ladder study, merged, equal one run: results of every rung, links at their places, report and counts', async () => {
    const single = join(dir, 'single.sqlite');
    const whole = await withEnv(LADDER, () => runBatch(study(single)));
    expect(whole).toMatchObject({ planned: 24, remaining: 0 });

    const assignment = shardAssignment(24, 3);
    const shards: string[] = [];
    for (let k = 0; k < 3; k++) {
      const db = join(dir, `shard-${k}.sqlite`);
      shards.push(db);
      const s = await withEnv(LADDER, () => runBatch(study(db, { shard: { index: k, count: 3 } })));
      // the shard's own deals: 8 of 24, all settled at the last rung
      expect(s).toMatchObject({ planned: 8, skipped: 0, remaining: 0 });
      // it linked exactly its places of the plan, at those places
      const ords = (all(db, 'SELECT ord FROM study_deals ORDER BY ord') as { ord: number }[]).map((r) => r.ord);
      expect(ords).toEqual([...assignment.keys()].filter((i) => assignment[i] === k));
      expect(all(db, 'SELECT planned, status FROM runs')).toEqual([{ planned: 8, status: 'done' }]);
      // the study is the whole study in every shard
      expect(all(db, 'SELECT name, planned, budgets FROM studies')).toEqual([{ name: 'ladder', planned: 24, budgets: '250,500,1000' }]);
    }
    const into = join(dir, 'merged.sqlite');
    // (the fake worker's lines win nothing: merge's replay of them is left out)
    mergeDatabases(into, shards, { replayLines: false });
    const want = all(single, RESULTS);
    // rungs: every deal at 250, the undecided ones again at 500 and 1000
    expect(want.length).toBeGreaterThan(24);
    expect(all(into, RESULTS)).toEqual(want);
    expect(all(into, LINKS)).toEqual(all(single, LINKS));
    expect(all(into, 'SELECT deal, name FROM deal_names ORDER BY deal, name')).toEqual(all(single, 'SELECT deal, name FROM deal_names ORDER BY deal, name'));
    expect(report(into)).toEqual(report(single));
    const counted = (db: string) => {
      const s = ResultStore.openForReading(db);
      try {
        return s.studies().map((x) => [x.name, x.planned, x.counted, x.settled]);
      } finally {
        s.close();
      }
    };
    expect(counted(into)).toEqual([['ladder', 24, 24, 24]]);
    expect(counted(into)).toEqual(counted(single));

    // a shard run again is resumed: nothing left to do
    const again = await withEnv(LADDER, () => runBatch(study(shards[1]!, { shard: { index: 1, count: 3 } })));
    expect(again).toMatchObject({ planned: 8, skipped: 8, ran: 0, remaining: 0 });
  });

  it('refuses a shard with the stopping rule or an open plan', async () => {
    await expect(runBatch(study(join(dir, 'no.sqlite'), { budgets: [250], untilWidth: 0.1, shard: { index: 0, count: 2 } }))).rejects.toThrow('a shard needs a finite plan and no untilWidth');
  });
});
