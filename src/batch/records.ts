/**
 * A result row of the database as the program handles it: its fields (ResultRecord, StoredRow), the
 * columns of `results` in export order, and the records a batch makes of a worker's answer or
 * failure. The schema itself is in schema.ts.
 */
import { plannedIdentity, type PlannedDeal } from './deals.js';
import type { WorkerOutcome } from './protocol.js';
import type { ResultStatus } from './ladder.js';

/** The deal's columns of a stored row, a result's or a blind game's (schema.ts), with camelCase names. */
export interface DealFields {
  /** The deal's identity (deals.ts dealIdentity). */
  deal: string;
  code: string;
  game: string;
  suits: number;
  sourceKind: 'seed' | 'pysol' | 'code' | 'file';
  seed: number | null;
  pysolGame: string | null;
  pysolNumber: number | null;
  filePath: string | null;
}

/**
 * One row of `results`, with camelCase names (see the schema in schema.ts for each field); `deal` with
 * the budget and solver version is the results key.
 */
export interface ResultRecord extends DealFields {
  maxPositions: number;
  status: ResultStatus;
  positions: number | null;
  elapsedMs: number | null;
  moveCount: number | null;
  line: string | null;
  classicScore: number | null;
  revealScore: number | null;
  peakBytes: number | null;
  error: string | null;
  solverVersion: string;
}

/** A stored row: the record plus the run that wrote it and when (ISO 8601 UTC). */
export interface StoredRow extends ResultRecord {
  runId: number | null;
  createdAt: string;
}

/** Column names of `results` in export order, paired with the ResultRecord/StoredRow field. */
export const RESULT_COLUMNS: readonly (readonly [string, keyof StoredRow])[] = [
  ['deal', 'deal'], ['code', 'code'], ['game', 'game'], ['suits', 'suits'], ['source_kind', 'sourceKind'], ['seed', 'seed'],
  ['pysol_game', 'pysolGame'], ['pysol_number', 'pysolNumber'], ['file_path', 'filePath'],
  ['max_positions', 'maxPositions'], ['status', 'status'], ['positions', 'positions'], ['elapsed_ms', 'elapsedMs'],
  ['move_count', 'moveCount'], ['line', 'line'], ['classic_score', 'classicScore'], ['reveal_score', 'revealScore'],
  ['peak_bytes', 'peakBytes'], ['error', 'error'], ['solver_version', 'solverVersion'], ['run_id', 'runId'],
  ['created_at', 'createdAt'],
];

/** The SELECT list of every column of `results`, named as StoredRow's fields. */
export const SELECT_COLUMNS = RESULT_COLUMNS.map(([col, field]) => `${col} AS "${field}"`).join(', ');
/** The same, of `results` aliased `r`. */
export const SELECT_R_COLUMNS = RESULT_COLUMNS.map(([col, field]) => `r.${col} AS "${field}"`).join(', ');
/** The columns the report's walk reads (not the lines, errors and names: a third less to sort and copy). */
export const SELECT_REPORT_COLUMNS = RESULT_COLUMNS.filter(([col]) => ['deal', 'game', 'suits', 'max_positions', 'status', 'positions', 'elapsed_ms', 'move_count', 'solver_version'].includes(col))
  .map(([col, field]) => `r.${col} AS "${field}"`).join(', ');

/** The source fields of a record of `deal` (a result's or a blind game's): its kind, seed, PySolFC game and number, or file. */
export function sourceFields(deal: PlannedDeal): Pick<DealFields, 'sourceKind' | 'seed' | 'pysolGame' | 'pysolNumber' | 'filePath'> {
  const s = deal.source;
  return {
    sourceKind: s.kind,
    seed: s.kind === 'seed' ? s.seed : null,
    pysolGame: s.kind === 'pysol' ? s.game : null,
    pysolNumber: s.kind === 'pysol' ? s.number : null,
    filePath: s.kind === 'file' ? s.path : null,
  };
}

/** The record of a deal the worker solved. Line/move/score fields are kept only for won deals. */
export function recordFromOutcome(deal: PlannedDeal, maxPositions: number, o: WorkerOutcome, identity: string = plannedIdentity(deal)): ResultRecord {
  const won = o.status === 'won';
  return {
    deal: identity, code: deal.key, game: deal.game, suits: deal.suits, ...sourceFields(deal), maxPositions,
    status: o.status, positions: o.positions, elapsedMs: o.elapsedMs,
    moveCount: won ? o.moveCount : null, line: won ? o.line : null,
    classicScore: won ? o.classicScore : null, revealScore: won ? o.revealScore : null,
    peakBytes: o.peakBytes, error: null, solverVersion: o.solverVersion,
  };
}

/** The record of a deal whose worker failed (threw, died, ran out of memory): status `error`. */
export function recordFromError(deal: PlannedDeal, maxPositions: number, message: string, solverVersion: string, identity: string = plannedIdentity(deal)): ResultRecord {
  return {
    deal: identity, code: deal.key, game: deal.game, suits: deal.suits, ...sourceFields(deal), maxPositions,
    status: 'error', positions: null, elapsedMs: null, moveCount: null, line: null,
    classicScore: null, revealScore: null, peakBytes: null, error: message, solverVersion,
  };
}

/** The source of a stored record, as deals.ts dealName reads it. */
export function sourceOf(r: Pick<ResultRecord, 'sourceKind' | 'seed' | 'pysolGame' | 'pysolNumber' | 'filePath'>): PlannedDeal['source'] {
  switch (r.sourceKind) {
    case 'seed': return { kind: 'seed', seed: r.seed ?? 0 };
    case 'pysol': return { kind: 'pysol', game: r.pysolGame ?? '', number: r.pysolNumber ?? 0 };
    case 'file': return { kind: 'file', path: r.filePath ?? '' };
    default: return { kind: 'code' };
  }
}

/** A link of a deal to a study (see `study_deals`). */
export interface DealLink {
  deal: string;
  /** Place in the study's plan. */
  ord: number;
  /** The name the study reached it by (deals.ts dealName). */
  name: string;
}
