/**
 * Blind studies in the results database (schema.ts migration 3): the rows of `blind_results` (one
 * blind game per deal, player spec, player seed and version), how a batch writes and looks them up,
 * and the blind report's rows — per study, game and suit count, the blind win rate with its 95%
 * Wilson interval next to the perfect-information rate of the same deals where the database holds a
 * solve of them (the price of not seeing the cards); src/report/blindText.ts prints them. Nothing
 * here knows the pool or the CLI.
 */
import type Database from 'better-sqlite3';
import { BLIND_VERSION } from '../blind/version.js';
import { SOLVER_VERSION } from '../solver/types.js';
import { plannedIdentity, type PlannedDeal } from './deals.js';
import type { BlindOutcome } from './protocol.js';
import { sourceFields, type DealFields } from './records.js';
import type { ResultFilter } from './storeRead.js';
import { studyHolds } from './studyParams.js';
import { roundTo, wilsonInterval } from './report.js';

/**
 * The version stored with every blind result: `blind-<players' version>/solver-<solver version>`
 * (src/blind/version.ts BLIND_VERSION, src/solver/types.ts SOLVER_VERSION). A blind game depends on
 * both (the sample player runs the solver), so a change of either stores new results beside the old.
 */
export function blindVersion(): string {
  return `blind-${BLIND_VERSION}/solver-${SOLVER_VERSION}`;
}

/** The outcome of one blind game as stored: `won`, `stuck`, or `error` (the worker failed). */
export type BlindStatus = 'won' | 'stuck' | 'error';

/** One row of `blind_results`, with camelCase names (see schema.ts migration 3 for each field). */
export interface BlindRecord extends DealFields {
  player: string;
  playerSeed: number;
  version: string;
  status: BlindStatus;
  /** Suits completed at the end; null for errors. */
  completed: number | null;
  /** Moves played; null for errors. */
  moveCount: number | null;
  /** The moves played, space-separated ('' for none); null for errors. */
  line: string | null;
  solves: number | null;
  positions: number | null;
  /** In-worker time of the game, milliseconds; null for errors. */
  cpuMs: number | null;
  error: string | null;
}

/** A stored blind row: the record plus the run that wrote it and when (ISO 8601 UTC). */
export interface StoredBlindRow extends BlindRecord {
  runId: number | null;
  createdAt: string;
}

/** Column names of `blind_results` in order, paired with the StoredBlindRow field. */
export const BLIND_COLUMNS: readonly (readonly [string, keyof StoredBlindRow])[] = [
  ['deal', 'deal'], ['code', 'code'], ['game', 'game'], ['suits', 'suits'], ['source_kind', 'sourceKind'], ['seed', 'seed'],
  ['pysol_game', 'pysolGame'], ['pysol_number', 'pysolNumber'], ['file_path', 'filePath'],
  ['player', 'player'], ['player_seed', 'playerSeed'], ['version', 'version'], ['status', 'status'], ['completed', 'completed'],
  ['move_count', 'moveCount'], ['line', 'line'], ['solves', 'solves'], ['positions', 'positions'], ['cpu_ms', 'cpuMs'],
  ['error', 'error'], ['run_id', 'runId'], ['created_at', 'createdAt'],
];

/** The record of a deal the worker played blind (`playerSeed`: the study's player seed). */
export function blindRecordFromOutcome(deal: PlannedDeal, playerSeed: number, o: BlindOutcome, identity: string = plannedIdentity(deal)): BlindRecord {
  return {
    deal: identity, code: deal.key, game: deal.game, suits: deal.suits, ...sourceFields(deal),
    player: o.player, playerSeed, version: o.version, status: o.result, completed: o.completed, moveCount: o.moveCount,
    line: o.line, solves: o.solves, positions: o.positions, cpuMs: roundTo(o.workerMs, 1), error: null,
  };
}

/** The record of a deal whose blind worker failed: status `error`, with the message. */
export function blindRecordFromError(deal: PlannedDeal, player: string, playerSeed: number, message: string, identity: string = plannedIdentity(deal)): BlindRecord {
  return {
    deal: identity, code: deal.key, game: deal.game, suits: deal.suits, ...sourceFields(deal),
    player, playerSeed, version: blindVersion(), status: 'error', completed: null, moveCount: null, line: null,
    solves: null, positions: null, cpuMs: null, error: message,
  };
}

/**
 * Writes blind records inside the caller's transaction (storeWrite.ts writeResults): a new (deal,
 * player, player seed, version) row is inserted, an `error` row replaced, a settled row kept. Returns
 * the rows inserted or replaced.
 */
export function writeBlindRows(db: Database.Database, runId: number | null, records: readonly BlindRecord[], createdAt: string): number {
  if (records.length === 0) return 0;
  const cols = BLIND_COLUMNS.map(([c]) => c);
  const upsert = db.prepare(`
    INSERT INTO blind_results (${cols.join(', ')})
    VALUES (${BLIND_COLUMNS.map(([, f]) => `@${f}`).join(', ')})
    ON CONFLICT (deal, player, player_seed, version) DO UPDATE SET
      ${cols.filter((c) => !['deal', 'player', 'player_seed', 'version'].includes(c)).map((c) => `${c} = excluded.${c}`).join(', ')}
    WHERE blind_results.status = 'error'`);
  let n = 0;
  for (const r of records) n += upsert.run({ ...r, runId, createdAt }).changes;
  return n;
}

/** The stored status of one deal's blind game (null when none is stored). */
export function blindStatusOf(db: Database.Database, deal: string, player: string, playerSeed: number, version: string): BlindStatus | null {
  const s = db.prepare('SELECT status FROM blind_results WHERE deal = ? AND player = ? AND player_seed = ? AND version = ?').pluck().get(deal, player, playerSeed, version);
  return (s as BlindStatus | undefined) ?? null;
}

/** The places in the plan of a blind study's deals whose game is stored (won or stuck) for its player, seed and `version`. */
export function settledBlindPlaces(db: Database.Database, studyId: number, version: string): number[] {
  return db.prepare(`SELECT sd.ord FROM study_deals sd JOIN studies s ON s.id = sd.study_id
    WHERE sd.study_id = ? AND EXISTS (SELECT 1 FROM blind_results b WHERE b.deal = sd.deal AND b.player = s.player
      AND b.player_seed = s.player_seed AND b.version = ? AND b.status <> 'error')`).pluck().all(studyId, version) as number[];
}

/**
 * One row of the blind report: a study (or pooled studies), game, suit count, player, player seed and
 * version. Rates are fractions in [0, 1], null with no deals.
 */
export interface BlindReportRow {
  study: string;
  game: string;
  suits: number;
  player: string;
  playerSeed: number;
  version: string;
  /** Blind games counted (errors included). */
  deals: number;
  won: number;
  stuck: number;
  errors: number;
  /** won / deals. */
  winRate: number | null;
  /** The 95% Wilson score interval of won / deals. */
  ciLow: number | null;
  ciHigh: number | null;
  /** Mean suits completed per game (errors left out). */
  meanCompleted: number | null;
  /** Mean moves a game, deals included (errors left out): a won game's line, or the moves a stuck game played. */
  meanMoves: number | null;
  /** Mean in-worker time a game, milliseconds (errors left out). */
  meanCpuMs: number | null;
  /**
   * Of these deals, those the database holds a perfect-information solve of (any study, budget and
   * solver version): `piWon` won by a solve, `piLost` proven lost (the rest undecided).
   */
  piDeals: number;
  piWon: number;
  piLost: number;
  /** piWon / piDeals (a floor: an undecided deal counts as not won), with its 95% Wilson interval. */
  piRate: number | null;
  piLow: number | null;
  piHigh: number | null;
}

/** Does the open database have blind studies (migration 3 applied and a study with a player)? */
export function hasBlindStudies(db: Database.Database): boolean {
  const cols = db.pragma('table_info(studies)') as { name: string }[];
  if (!cols.some((c) => c.name === 'player')) return false;
  return db.prepare('SELECT 1 FROM studies WHERE player IS NOT NULL LIMIT 1').get() !== undefined;
}

/** A blind study as blindGroups reads it: its game and suit counts (null: any, a deals file's). */
interface BlindStudy {
  readonly id: number;
  readonly name: string;
  readonly player: string;
  readonly playerSeed: number | null;
  readonly game: string | null;
  readonly suits: string | null;
}

/**
 * The blind studies a filter reads, grouped: one group a study, or pooled (`f.pool`) one group a
 * player and player seed. A group labels each of its games (`label`) by the studies of the group that
 * can hold a game of its game and suit count (`a + b`): a pooled row names only the studies whose
 * games it counts.
 */
function blindGroups(db: Database.Database, f: ResultFilter): { label: (game: string, suits: number) => string; ids: number[] }[] {
  if (!hasBlindStudies(db)) return [];
  const rows = db.prepare('SELECT id, name, player, player_seed AS playerSeed, game, suits FROM studies WHERE player IS NOT NULL ORDER BY id').all() as BlindStudy[];
  const names = f.studies && f.studies.length ? [...new Set(f.studies)] : null;
  const chosen = names ? names.map((n) => rows.find((r) => r.name === n)).filter((r) => r !== undefined) : rows;
  if (chosen.length === 0) return [];
  if (!f.pool) return chosen.map((r) => ({ label: () => r.name, ids: [r.id] }));
  const byPlayer = new Map<string, BlindStudy[]>();
  for (const r of chosen) {
    const key = JSON.stringify([r.player, r.playerSeed]);
    byPlayer.set(key, [...(byPlayer.get(key) ?? []), r]);
  }
  // (a game is one of a study's deals, so some study of its group holds its game and suit count)
  return [...byPlayer.values()].map((g) => ({ label: (game, suits) => g.filter((st) => studyHolds(st, game, suits)).map((st) => st.name).join(' + '), ids: g.map((r) => r.id) }));
}

/** A blind row as the report and export walk it, with the study (or pooled label) and the study's name for the deal. */
export type BlindWalkRow = StoredBlindRow & { study: string; name: string };

/**
 * The blind games the blind studies count, in plan order: for each study (or pooled group), each deal
 * it links once, with its game of the study's player and seed, every version stored. Streamed: do not
 * write to the database while iterating.
 */
export function* blindRows(db: Database.Database, f: ResultFilter = {}): Generator<BlindWalkRow> {
  const select = BLIND_COLUMNS.map(([c, field]) => `b.${c} AS "${field}"`).join(', ');
  for (const g of blindGroups(db, f)) {
    const parts: string[] = [];
    const args: (string | number)[] = [...g.ids];
    if (f.game) {
      parts.push('b.game = ?');
      args.push(f.game);
    }
    if (f.suits && f.suits.length) {
      parts.push(`b.suits IN (${f.suits.map(() => '?').join(', ')})`);
      args.push(...f.suits);
    }
    const stmt = db.prepare(
      `SELECT DISTINCT min(sd.ord) OVER (PARTITION BY b.id) AS ord, min(sd.name) OVER (PARTITION BY b.id) AS "name", ${select}
       FROM study_deals sd JOIN studies s ON s.id = sd.study_id
       JOIN blind_results b ON b.deal = sd.deal AND b.player = s.player AND b.player_seed = s.player_seed
       WHERE sd.study_id IN (${g.ids.map(() => '?').join(', ')}) ${parts.length ? `AND ${parts.join(' AND ')}` : ''}
       ORDER BY ord, b.deal, b.player, b.player_seed, b.version`,
    );
    for (const raw of stmt.iterate(...args) as IterableIterator<StoredBlindRow & { ord: number; name: string }>) {
      const { ord, ...row } = raw;
      void ord;
      yield { study: g.label(row.game, row.suits), ...row };
    }
  }
}

/**
 * What the database holds of a deal's perfect-information solves, over every budget and solver
 * version: `won` if some solve won it, else `lost` if one proved it lost, else `undecided`; null
 * when it holds none (errors are none).
 */
function piStatusOf(db: Database.Database): (deal: string) => 'won' | 'lost' | 'undecided' | null {
  const stmt = db.prepare(`SELECT CASE WHEN sum(status = 'won') > 0 THEN 'won' WHEN sum(status = 'lost') > 0 THEN 'lost' ELSE 'undecided' END
    FROM results WHERE deal = ? AND status <> 'error' HAVING count(*) > 0`).pluck();
  return (deal) => (stmt.get(deal) as 'won' | 'lost' | 'undecided' | undefined) ?? null;
}

/**
 * The blind report (see BlindReportRow): one row per study (or pooled group), game, suit count,
 * player, player seed and version, sorted by game, suit count, study, player, player seed and
 * version (compareBlindRows), as the solve table lists a game's suit counts together. The
 * perfect-information columns read `results` for the same deals.
 */
export function blindReport(db: Database.Database, f: ResultFilter = {}): BlindReportRow[] {
  type Acc = { row: BlindReportRow; completed: number; moves: number; cpu: number; settled: number };
  const groups = new Map<string, Acc>();
  const pi = piStatusOf(db);
  // (collected first: the connection runs no other statement while one iterates)
  for (const r of [...blindRows(db, f)]) {
    const key = JSON.stringify([r.study, r.game, r.suits, r.player, r.playerSeed, r.version]);
    let a = groups.get(key);
    if (!a) {
      a = {
        row: {
          study: r.study, game: r.game, suits: r.suits, player: r.player, playerSeed: r.playerSeed, version: r.version,
          deals: 0, won: 0, stuck: 0, errors: 0, winRate: null, ciLow: null, ciHigh: null, meanCompleted: null, meanMoves: null, meanCpuMs: null,
          piDeals: 0, piWon: 0, piLost: 0, piRate: null, piLow: null, piHigh: null,
        },
        completed: 0, moves: 0, cpu: 0, settled: 0,
      };
      groups.set(key, a);
    }
    const row = a.row;
    row.deals++;
    if (r.status === 'error') row.errors++;
    else {
      if (r.status === 'won') row.won++;
      else row.stuck++;
      a.settled++;
      a.completed += r.completed ?? 0;
      a.moves += r.moveCount ?? 0;
      a.cpu += r.cpuMs ?? 0;
    }
    const p = pi(r.deal);
    if (p !== null) {
      row.piDeals++;
      if (p === 'won') row.piWon++;
      else if (p === 'lost') row.piLost++;
    }
  }
  const out: BlindReportRow[] = [];
  for (const { row, completed, moves, cpu, settled } of groups.values()) {
    row.winRate = row.deals ? row.won / row.deals : null;
    [row.ciLow, row.ciHigh] = wilsonInterval(row.won, row.deals) ?? [null, null];
    row.meanCompleted = settled ? completed / settled : null;
    row.meanMoves = settled ? moves / settled : null;
    row.meanCpuMs = settled ? cpu / settled : null;
    row.piRate = row.piDeals ? row.piWon / row.piDeals : null;
    [row.piLow, row.piHigh] = wilsonInterval(row.piWon, row.piDeals) ?? [null, null];
    out.push(row);
  }
  return out.sort(compareBlindRows);
}

/** Plain code-unit order of two strings (the same on every machine, unlike localeCompare). */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The blind report's row order: game, suit count, study, player, player seed, version. */
export function compareBlindRows(a: BlindReportRow, b: BlindReportRow): number {
  return byText(a.game, b.game) || a.suits - b.suits || byText(a.study, b.study) || byText(a.player, b.player) || a.playerSeed - b.playerSeed || byText(a.version, b.version);
}

