/**
 * Reading the results database: the studies with their runs and counts (what `studies`, `merge` and a
 * batch's summary show), a study's places in its plan, a deal's stored outcome (`view --solve`), and
 * the walk of report and export over the deals each study counts. Nothing here writes.
 */
import type Database from 'better-sqlite3';
import type { WonEffort } from '../report/data.js';
import { blindVersion } from './blind.js';
import { runIsDead, type RunInfo } from './liveness.js';
import { SELECT_COLUMNS, SELECT_R_COLUMNS, SELECT_REPORT_COLUMNS, type StoredRow } from './records.js';
import { highestBelow, statusAt } from './ladder.js';
import { ReportAccumulator, type ReportInput, type ReportRow } from './report.js';

/**
 * Which results report and export read: the deals counted by the named studies (absent or empty:
 * every study), one set of rows per study unless `pool`, then restricted by game and suit counts.
 */
export interface ResultFilter {
  readonly studies?: readonly string[];
  /** One set of rows over the union of the studies' deals (each deal once), naming every study pooled. */
  readonly pool?: boolean;
  readonly game?: string;
  readonly suits?: readonly number[];
}

/** A stored won or lost result of one deal (see `ResultStore.storedOutcome`). */
export interface StoredOutcome {
  status: 'won' | 'lost';
  /** Space-separated winning line; null when lost. */
  line: string | null;
  positions: number | null;
  maxPositions: number;
  solverVersion: string;
}

/** A study as `spidersolve studies` lists it. */
export interface StudyInfo {
  name: string;
  game: string | null;
  suits: string | null;
  deals: string;
  budgets: number[];
  untilWidth: number | null;
  /** Deals in the plan (null: open-ended and not yet stopped). */
  planned: number | null;
  /** Deals the study counts (stored or found already stored). */
  counted: number;
  /** Of those, settled at the last rung: won or lost at any rung, or undecided at the last. */
  settled: number;
  /** Deals counted when --until-width stopped it, or null. */
  stoppedAt: number | null;
  /**
   * Of the deals counted, those the budget ladder has not yet taken to every rung: at some rung above
   * the first, undecided below it, nothing at or above it, neither won nor lost at or below it (an
   * interrupted ladder; a rung in the middle counts too, when another study settled the last). 0 for
   * one budget.
   */
  unfinished: number;
  /**
   * Was the study split into shards: has some run of it a plan of fewer deals than the study's (a
   * shard's run, here or in a database merged in)? false for an open-ended study; absent when the
   * study has no run recorded (not known).
   */
  sharded?: boolean;
  createdAt: string;
  runs: RunInfo[];
  /** A blind study's player (canonical spec) and player seed; absent for a solve study. */
  player?: string;
  playerSeed?: number;
}

/**
 * SQL: does the study deal `sd` have a result settled at the budget `b` (an SQL parameter, `@last`): won or
 * lost at or below it, or undecided at or above it (ladder.ts statusAt). `ver`: versionFilter's.
 */
function settledAt(b: string, ver: string): string {
  return `EXISTS (SELECT 1 FROM results r WHERE r.deal = sd.deal${ver} AND (
        (r.status IN ('won', 'lost') AND r.max_positions <= ${b}) OR (r.status = 'undecided' AND r.max_positions >= ${b})))`;
}

/** SQL: the condition on `r` that keeps one solver version's results (parameter `@v`), or none. */
function versionFilter(solverVersion: string | undefined): string {
  return solverVersion === undefined ? '' : ' AND r.solver_version = @v';
}

/**
 * The studies in the database (oldest first) with their runs (a dead `running` run shown
 * `abandoned`). `solverVersion`: count, settle and find unfinished only that solver's results (a
 * deal counts if it is linked and has a result of that version); default any version's.
 */
export function readStudies(db: Database.Database, names?: readonly string[], solverVersion?: string): StudyInfo[] {
  const all = db.prepare('SELECT id, name, game, suits, deals_spec AS deals, budgets, max_positions AS budget, until_width AS untilWidth, planned, stopped_at AS stoppedAt, created_at AS createdAt, player, player_seed AS playerSeed FROM studies ORDER BY id').all() as
    { id: number; name: string; game: string | null; suits: string | null; deals: string; budgets: string | null; budget: number; untilWidth: number | null; planned: number | null; stoppedAt: number | null; createdAt: string; player: string | null; playerSeed: number | null }[];
  // a blind study counts its deals' blind games of its player and seed (with a solver version: of
  // this program's blind version), and a game stored (won or stuck) settles its deal
  const blindVer = solverVersion === undefined ? '' : ' AND b.version = @bv';
  const bv = solverVersion === undefined ? {} : { bv: blindVersion() };
  const blindGame = (settledOnly: boolean) => `EXISTS (SELECT 1 FROM blind_results b WHERE b.deal = sd.deal AND b.player = @player AND b.player_seed = @pseed${blindVer}${settledOnly ? " AND b.status <> 'error'" : ''})`;
  const blindCounted = db.prepare(solverVersion === undefined ? 'SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id' : `SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id AND ${blindGame(false)}`).pluck();
  const blindSettled = db.prepare(`SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id AND ${blindGame(true)}`).pluck();
  const runs = db.prepare('SELECT uid, started_at AS startedAt, finished_at AS finishedAt, workers, solver_version AS solverVersion, status, planned, skipped, completed, errors, pid, host, heartbeat_at AS heartbeatAt, note FROM runs WHERE study_id = ? ORDER BY id');
  // with a solver version, only its results count (a study solved again by a newer solver is
  // counted, settled and unfinished as that solver has it)
  const ver = versionFilter(solverVersion);
  const v = solverVersion === undefined ? {} : { v: solverVersion };
  const counted = db.prepare(solverVersion === undefined ? 'SELECT count(*) FROM study_deals WHERE study_id = @id'
    : `SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id AND EXISTS (SELECT 1 FROM results r WHERE r.deal = sd.deal${ver})`).pluck();
  const settled = db.prepare(`SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id AND ${settledAt('@last', ver)}`).pluck();
  // deals some rung above the first has not reached yet: at that rung, not settled, and an
  // undecided result below it (ladder.ts statusAt null, highestBelow not)
  const rungTest = (k: number) => `(NOT ${settledAt(`@b${k}`, ver)}
      AND EXISTS (SELECT 1 FROM results r WHERE r.deal = sd.deal${ver} AND r.status = 'undecided' AND r.max_positions < @b${k}))`;
  const unfinishedOf = (id: number, rungs: readonly number[]): number =>
    rungs.length === 0 ? 0 : (db.prepare(`SELECT count(*) FROM study_deals sd WHERE sd.study_id = @id AND (${rungs.map((_, k) => rungTest(k)).join(' OR ')})`).pluck()
      .get({ id, ...v, ...Object.fromEntries(rungs.map((b, k) => [`b${k}`, b])) }) as number);
  const now = Date.now();
  const out: StudyInfo[] = [];
  for (const s of all) {
    if (names && names.length && !names.includes(s.name)) continue;
    const budgets = (s.budgets ?? String(s.budget)).split(',').map(Number);
    const last = budgets[budgets.length - 1]!;
    const studyRuns = (runs.all(s.id) as RunInfo[]).map((r) => (runIsDead(r, now) ? { ...r, status: 'abandoned' as const } : r));
    // a shard's run plans its shard of the study's deals, fewer than the study's plan; with no run
    // recorded (results written by other means) it is not known
    const sharded = studyRuns.length === 0 ? undefined : s.planned !== null && studyRuns.some((r) => r.planned < s.planned!);
    if (s.player !== null) {
      const b = { id: s.id, player: s.player, pseed: s.playerSeed, ...bv };
      out.push({
        name: s.name, game: s.game, suits: s.suits, deals: s.deals, budgets, untilWidth: s.untilWidth, planned: s.planned,
        counted: blindCounted.get(b) as number, settled: blindSettled.get(b) as number, stoppedAt: s.stoppedAt, unfinished: 0,
        ...(sharded === undefined ? {} : { sharded }), createdAt: s.createdAt, runs: studyRuns, player: s.player, playerSeed: s.playerSeed ?? 0,
      });
      continue;
    }
    out.push({
      name: s.name, game: s.game, suits: s.suits, deals: s.deals, budgets, untilWidth: s.untilWidth,
      planned: s.planned, counted: counted.get({ id: s.id, ...v }) as number, settled: settled.get({ id: s.id, last, ...v }) as number,
      stoppedAt: s.stoppedAt, unfinished: unfinishedOf(s.id, budgets.slice(1)), createdAt: s.createdAt,
      runs: studyRuns, ...(sharded === undefined ? {} : { sharded }),
    });
  }
  return out;
}

/** A run of a study that is running now: its process and host, and its last heartbeat (ISO 8601). */
export interface LiveRun {
  pid: number | null;
  host: string | null;
  heartbeatAt: string | null;
  startedAt: string;
}

/**
 * The runs of study `studyId` marked `running` that are alive (liveness.ts runIsDead: a process on
 * this host that is still there, or a heartbeat elsewhere within STALE_MS of `now`), oldest first.
 */
export function liveRuns(db: Database.Database, studyId: number, now = Date.now()): LiveRun[] {
  const rows = db.prepare("SELECT status, pid, host, heartbeat_at AS heartbeatAt, started_at AS startedAt FROM runs WHERE study_id = ? AND status = 'running' ORDER BY id").all(studyId) as
    (LiveRun & { status: string })[];
  return rows.filter((r) => !runIsDead(r, now)).map(({ pid, host, heartbeatAt, startedAt }) => ({ pid, host, heartbeatAt, startedAt }));
}

/** The places in the plan (`study_deals.ord`) of the deals study `name` counts so far (none if no such study). */
export function studyPlaces(db: Database.Database, name: string): number[] {
  return db.prepare('SELECT sd.ord FROM study_deals sd JOIN studies s ON s.id = sd.study_id WHERE s.name = ? ORDER BY sd.ord').pluck().all(name) as number[];
}

/**
 * The places in the plan (`study_deals.ord`) of the study's deals that are settled at `budget`, the
 * last rung (a win or a loss at or below it, an undecided at or above it; as `studies` counts them).
 * A shard's summary counts its own among them. `solverVersion`: only that solver's results count.
 */
export function settledPlaces(db: Database.Database, studyId: number, budget: number, solverVersion?: string): number[] {
  return db.prepare(`SELECT sd.ord FROM study_deals sd WHERE sd.study_id = @id AND ${settledAt('@b', versionFilter(solverVersion))}`).pluck()
    .all({ id: studyId, b: budget, ...(solverVersion === undefined ? {} : { v: solverVersion }) }) as number[];
}

/**
 * The most useful stored outcome of one deal (its identity, `results.deal`: deals.ts dealIdentity)
 * for viewing it: a won row with its line (the current solver version first, then the largest
 * budget), else a lost row (a proof holds at any budget), else null. Undecided and error rows are
 * never returned. Used by `view --solve`.
 */
export function storedOutcome(db: Database.Database, deal: string, solverVersion: string): StoredOutcome | null {
  const row = db
    .prepare(
      `SELECT status, line, positions, max_positions AS maxPositions, solver_version AS solverVersion FROM results
       WHERE deal = ? AND (status = 'lost' OR (status = 'won' AND line IS NOT NULL))
       ORDER BY status = 'won' DESC, solver_version = ? DESC, max_positions DESC, solver_version DESC LIMIT 1`,
    )
    .get(deal, solverVersion) as StoredOutcome | undefined;
  return row ?? null;
}

/** The planned count of study `name`: null when it is open-ended (not yet stopped) or absent. */
export function studyPlanned(db: Database.Database, name: string): number | null {
  return (db.prepare('SELECT planned FROM studies WHERE name = ?').pluck().get(name) as number | null | undefined) ?? null;
}

/** The id of a study by name, if it exists. */
export function studyIdOf(db: Database.Database, name: string): number | undefined {
  return db.prepare('SELECT id FROM studies WHERE name = ?').pluck().get(name) as number | undefined;
}

/**
 * The study name `name` stands for: itself when a study has exactly that name, else the name of the
 * one study whose name is the same text in another Unicode form (NFC: "é" typed as one character or
 * as e and a combining accent), else `name` itself.
 */
export function matchStudyName(db: Database.Database, name: string): string {
  if (db.prepare('SELECT 1 FROM studies WHERE name = ?').pluck().get(name) !== undefined) return name;
  const nfc = name.normalize('NFC');
  const same = (db.prepare('SELECT name FROM studies').pluck().all() as string[]).filter((n) => n.normalize('NFC') === nfc);
  return same.length === 1 ? same[0]! : name;
}

/** A file a study of the database was planned from (see `inputFiles`). */
export interface InputFile {
  /** Absolute path, as the plan recorded it. */
  readonly path: string;
  /** `deals`: a study's deals file (--deals); `position`: a position file named on a line of one. */
  readonly kind: 'deals' | 'position';
  /** The study a deals file planned (a position file's study is not looked up: it is named by deal). */
  readonly study?: string;
}

/**
 * The files the database's studies were planned from, as the plan recorded them (absolute paths):
 * each study's deals file (`studies.deals_spec` `file:<path>`, but not /dev/stdin, standard input)
 * and each position file a deal was reached by (`deal_names` `file:<path>`, found through its index);
 * each path once. Reads only: whether they still exist is the caller's to see.
 */
export function inputFiles(db: Database.Database): InputFile[] {
  const out = new Map<string, InputFile>();
  const deals = db.prepare("SELECT name, substr(deals_spec, 6) AS path FROM studies WHERE substr(deals_spec, 1, 5) = 'file:' ORDER BY id").all() as { name: string; path: string }[];
  for (const d of deals) if (d.path !== '/dev/stdin' && !out.has(d.path)) out.set(d.path, { path: d.path, kind: 'deals', study: d.name });
  // 'file;' is the first text after every 'file:…' (';' follows ':'): a range of the index on name
  const positions = db.prepare("SELECT DISTINCT substr(name, 6) FROM deal_names WHERE name >= 'file:' AND name < 'file;'").pluck().all() as string[];
  for (const p of positions) if (!out.has(p)) out.set(p, { path: p, kind: 'position' });
  return [...out.values()];
}

/** Study names that are not in the database, of those given (for a one-line error). */
export function unknownStudies(db: Database.Database, names: readonly string[]): string[] {
  const has = db.prepare('SELECT 1 FROM studies WHERE name = ?').pluck();
  return names.filter((n) => has.get(n) === undefined);
}

/**
 * The row groups of report and export: one per study (or one pooling all, with `pool`), each with
 * its study ids, the rungs of each study, and the group's rungs (the union of the studies' budgets).
 * A name given twice counts once.
 */
function groups(db: Database.Database, f: ResultFilter): { label: string; ids: number[]; rungsOf: Map<number, Set<number>>; budgets: number[] }[] {
  // (a blind study's deals are reported by blind.ts blindReport, not here)
  const rows = db.prepare('SELECT id, name, budgets, max_positions AS budget FROM studies WHERE player IS NULL ORDER BY id').all() as
    { id: number; name: string; budgets: string | null; budget: number }[];
  const names = f.studies && f.studies.length ? [...new Set(f.studies)] : null;
  const chosen = names ? names.map((n) => rows.find((r) => r.name === n)).filter((r) => r !== undefined) : rows;
  const budgetsOf = (r: (typeof rows)[number]) => (r.budgets ?? String(r.budget)).split(',').map(Number);
  if (chosen.length === 0) return [];
  const group = (label: string, members: typeof rows) => {
    const rungsOf = new Map(members.map((r) => [r.id, new Set(budgetsOf(r))]));
    const budgets = [...new Set(members.flatMap(budgetsOf))].sort((a, b) => a - b);
    return { label, ids: members.map((r) => r.id), rungsOf, budgets };
  };
  if (f.pool) return [group(chosen.map((r) => r.name).join(' + '), chosen)];
  return chosen.map((r) => group(r.name, [r]));
}

/**
 * Walks the deals of each group with their results: for every deal (once per group, in plan order),
 * solver version and rung, the result it counts as at that rung (ladder.ts statusAt; for a deal an
 * interrupted ladder has not taken there yet, its highest undecided or error result below the rung,
 * ladder.ts highestBelow), if any. A deal
 * counts at a rung only if one of the group's studies that plans it has that rung: a pooled row at
 * budget B is the union (each deal once) of the rows at B of the pooled studies whose budgets include
 * B, never a deal that only a study without rung B plans.
 * Streamed: do not write to this store while iterating.
 */
export function* walk(db: Database.Database, f: ResultFilter, columns: string = SELECT_R_COLUMNS): Generator<{ label: string; name: string; budget: number; row: StoredRow }> {
  for (const g of groups(db, f)) {
    const parts: string[] = [];
    const args: (string | number)[] = [...g.ids];
    if (f.game) {
      parts.push('r.game = ?');
      args.push(f.game);
    }
    if (f.suits && f.suits.length) {
      parts.push(`r.suits IN (${f.suits.map(() => '?').join(', ')})`);
      args.push(...f.suits);
    }
    const stmt = db.prepare(
      `SELECT sd.name AS "studyName", sd.sids AS "studyIds", ${columns}
       FROM (SELECT deal, min(ord) AS ord, min(name) AS name, group_concat(DISTINCT study_id) AS sids FROM study_deals WHERE study_id IN (${g.ids.map(() => '?').join(', ')}) GROUP BY deal) sd
       JOIN results r ON r.deal = sd.deal ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''}
       ORDER BY sd.ord, sd.deal, r.solver_version, r.max_positions`,
    );
    type Raw = StoredRow & { studyName: string; studyIds: string };
    let batch: (Raw & { budget: number })[] = [];
    const emit = function* (rows: typeof batch) {
      const sids = String(rows[0]!.studyIds).split(',').map(Number);
      for (const b of g.budgets) {
        if (!sids.some((id) => g.rungsOf.get(id)?.has(b))) continue;
        // a deal an interrupted ladder has not taken to rung b yet counts there as its highest
        // result below b says (undecided, or an error): the rung's row still counts every deal, and
        // its floor stays a lower bound and its ceiling an upper bound (StudyInfo.unfinished)
        const sel = statusAt(rows, b) ?? highestBelow(rows, b);
        if (sel) yield { label: g.label, name: sel.studyName, budget: b, row: sel };
      }
    };
    for (const raw of stmt.iterate(...args) as IterableIterator<Raw>) {
      const row = { ...raw, budget: raw.maxPositions };
      if (batch.length && (batch[0]!.deal !== row.deal || batch[0]!.solverVersion !== row.solverVersion)) {
        yield* emit(batch);
        batch = [];
      }
      batch.push(row);
    }
    if (batch.length) yield* emit(batch);
  }
}

/** The report's accumulator over the walk; `each` also sees every counted result (report --format html). */
export function accumulate(db: Database.Database, f: ResultFilter, each?: (label: string, budget: number, row: StoredRow) => void): ReportAccumulator {
  const acc = new ReportAccumulator();
  for (const { label, budget, row } of walk(db, f, SELECT_REPORT_COLUMNS)) {
    acc.add({ study: label, game: row.game, suits: row.suits, budget, solverVersion: row.solverVersion, status: row.status, positions: row.positions, elapsedMs: row.elapsedMs } satisfies ReportInput);
    each?.(label, budget, row);
  }
  return acc;
}

/**
 * The report rows and the effort of every won deal they count (positions, search time, winning-line
 * length), in one walk: each won deal in the row it counts in — per study (or pooled), game, suits,
 * rung of the budget ladder and solver version (a deal won at a lower rung counts at every higher
 * one, with the result it was won in). What `report --format html` and `vega` need.
 */
export function reportWithEffort(db: Database.Database, filter: ResultFilter = {}): { rows: ReportRow[]; won: WonEffort[] } {
  const won: WonEffort[] = [];
  const acc = accumulate(db, filter, (label, budget, row) => {
    if (row.status === 'won') {
      won.push({ study: label, game: row.game, suits: row.suits, budget, solverVersion: row.solverVersion, positions: row.positions, elapsedMs: row.elapsedMs, moveCount: row.moveCount });
    }
  });
  return { rows: acc.rows(), won };
}

/**
 * The results the studies count, one row per study, deal and result used (a ladder's deal has one
 * per rung it was solved at), in plan order, with the study's name for the deal. With `pool`, each
 * result once. Streamed: do not write to this store while iterating.
 */
export function* resultRows(db: Database.Database, filter: ResultFilter = {}): IterableIterator<StoredRow & { study: string; name: string }> {
  let seen = new Set<string>();
  let label = '';
  for (const w of walk(db, filter)) {
    if (w.label !== label) {
      label = w.label;
      seen = new Set();
    }
    const k = `${w.row.deal}\u0000${w.row.maxPositions}\u0000${w.row.solverVersion}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const { studyName, studyIds, budget, ...row } = w.row as StoredRow & { studyName: string; studyIds: string; budget: number };
    void studyName, studyIds, budget;
    yield { study: w.label, name: w.name, ...row };
  }
}

/** Every stored result, whatever study counts it (none, too), by deal, budget and solver version. */
export function* allRows(db: Database.Database): IterableIterator<StoredRow> {
  yield* db.prepare(`SELECT ${SELECT_COLUMNS} FROM results ORDER BY deal, max_positions, solver_version`).iterate() as IterableIterator<StoredRow>;
}

