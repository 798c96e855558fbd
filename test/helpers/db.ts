/**
 * Small results databases for the CLI tests, and a one-value query of one: written and read through
 * the project's own store (src/batch/store.ts) and better-sqlite3.
 */
import Database from 'better-sqlite3';
import { planSeeds } from '../../src/batch/deals.js';
import { recordFromOutcome, ResultStore } from '../../src/batch/store.js';

/**
 * Writes at `path` a results database with a study `st` of three lost Spider 1-suit deals (seeds 1-3,
 * budget 100, 5 positions each, solver 1.0.0).
 */
export function makeLostDb(path: string): void {
  const s = ResultStore.openForWriting(path);
  const recs = planSeeds('spider', [1], [{ from: 1, to: 3 }]).map((d) => recordFromOutcome(d, 100, {
    key: d.key, status: 'lost', positions: 5, elapsedMs: 1, line: '', moveCount: null, classicScore: null,
    revealScore: null, peakBytes: 0, solverVersion: '1.0.0', workerMs: 1,
  }));
  const st = s.ensureStudy('st', { game: 'spider', suits: '1', dealsSpec: 'seeds:1-3', maxPositions: 100 });
  s.writeResults(null, recs, st, recs.map((r, i) => ({ deal: r.deal, ord: i, name: r.code })));
  s.close();
}

/** The single value `sql` selects from the database at `db`, opened read-only (default: the count of results). */
export function countIn(db: string, sql = 'SELECT count(*) FROM results'): unknown {
  const d = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return d.prepare(sql).pluck().get();
  } finally {
    d.close();
  }
}
