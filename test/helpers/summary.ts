/**
 * A batch's summary made by hand, for tests of how it is printed (cli/batch.ts formatBatchSummary):
 * one won Spider deal at 100 positions, with `over` changed.
 */
import { summarize } from '../../src/batch/report.js';
import type { BatchSummary } from '../../src/batch/runner.js';

/** A batch's summary of one won Spider deal at 100 positions, with `over` changed. */
export function oneDealSummary(over: Partial<BatchSummary> = {}): BatchSummary {
  return {
    study: 's', studyId: 1, runId: 1, db: 'd.sqlite', game: 'spider', suits: '1', maxPositions: 100, workers: 1, solverVersion: '1.0.0',
    planned: 1, skipped: 0, ran: 1, won: 1, lost: 0, undecided: 0, errors: 0, remaining: 0, counted: 1, uncounted: 0, unfinished: 0, interrupted: false, elapsedMs: 5,
    dealsPerSecond: 200, workerMs: 4, budgets: [100], stopReason: null, seedsRanOut: null,
    report: summarize([{ game: 'spider', suits: 1, budget: 100, solverVersion: '1.0.0', status: 'won', positions: 7, elapsedMs: 1 }]),
    ...over,
  };
}
