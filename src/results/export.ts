/**
 * A results row's database turned into the files committed with the table: the per-deal CSV
 * (`data/results/ROW.csv`), the row's summary (`data/results/ROW.json`) and, for a row of PySolFC
 * numbers, the list of winnable deals with a difficulty grade (`data/results/ROW-winnable.csv`).
 * Reads the database through the store that `spidersolve export` and `report` read (its `rows` and
 * `report`), and counts each deal at the top rung of the ladder by the batch's own rule (ladder.ts
 * `statusAt`, `highestBelow`), so the CSV agrees with `spidersolve report` deal for deal.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { highestBelow, statusAt, type ResultStatus } from '../batch/ladder.js';
import { percentile, wilsonInterval, type ReportRow } from '../batch/report.js';
import { ResultStore, type StoredRow } from '../batch/store.js';
import { dealList, dealName, dealNumber, type ResultsRow } from './rows.js';

/** One deal of a row as the CSV gives it, counted at the ladder's top rung. */
export interface DealResult {
  /** The deal's name in the row: `pysol:spider:7` or `SE2-7`. */
  readonly deal: string;
  /** Its number in the row (PySolFC game number or seed). */
  readonly number: number;
  /** won or lost (proofs), undecided (no proof within the ladder), or error (the worker failed; run again on resume). */
  readonly status: ResultStatus;
  /** The budget of the search that decided it (for an undecided deal, the largest budget it was searched at). */
  readonly budget: number;
  /** Positions that search counted (R19; for an undecided deal, its budget). */
  readonly positions: number | null;
  /** Positions of every search of the deal up to and including that one (the ladder's rungs below it too): the effort the solver needed. */
  readonly totalPositions: number | null;
  /** Moves of the winning line (won only); `spidersolve solve DEAL --max-positions BUDGET` gives the line again. */
  readonly moves: number | null;
}

/** The counts of one rung of the ladder (the rung's `spidersolve report` row). */
export type RungCounts = Pick<ReportRow, 'budget' | 'deals' | 'won' | 'lost' | 'undecided' | 'errors' | 'floor' | 'ciLow' | 'ciHigh' | 'ceiling' | 'ceilingLow' | 'ceilingHigh'>;

/** One sitting of `npm run results -- ROW` on a machine: what it ran and the CPU time the batch process took. */
export interface Sitting {
  /** When it ended, ISO 8601 UTC. */
  readonly endedAt: string;
  /** The command as typed. */
  readonly command: string;
  /** --workers as given; null: the batch's default (the machine's cores). */
  readonly workers: number | null;
  /** The batch's exit status (0 done, 130 interrupted). */
  readonly exit: number;
  /** Deals the study counted before and after the sitting. */
  readonly dealsBefore: number;
  readonly dealsAfter: number;
  /** User + system CPU seconds of the batch process and its worker threads (Linux: the parent's cutime + cstime). */
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
}

/** Difficulty grades of a row's won deals: grade g (1 easiest … 5 hardest) by the total positions the solver needed. */
export interface Grades {
  /** The 20th, 40th, 60th and 80th percentiles (report.ts `percentile`, type 7) of total positions over the row's won deals. */
  readonly cuts: readonly number[];
  /** Won deals in each grade 1..5. */
  readonly counts: readonly number[];
}

/** The committed summary of a row (`data/results/ROW.json`), the input of the table. */
export interface RowSummary {
  readonly row: string;
  readonly title: string;
  readonly game: string;
  readonly suits: number;
  readonly study: string;
  readonly solverVersion: string;
  readonly budgets: readonly number[];
  /** Deals in the row's full design. */
  readonly planned: number;
  /** Deals the study counts so far with this solver version (a prefix of the design; a merged cluster run: all of its shards'). */
  readonly counted: number;
  /** Deals not yet taken to every rung of the ladder (an interrupted run): they count as undecided. */
  readonly unfinished: number;
  /** Every deal of the design counted and none left mid-ladder. */
  readonly complete: boolean;
  /** The top rung's counts, the row of the table. */
  readonly top: RungCounts | null;
  /** Every rung's counts, lowest first. */
  readonly rungs: readonly RungCounts[];
  /** Sum of the solver's search times over every search of the row's deals (every rung), seconds. */
  readonly searchSeconds: number;
  /** The largest peak table memory of one search, bytes (null without results). */
  readonly peakBytes: number | null;
  /** Difficulty grades of the won deals (PySolFC rows; null otherwise, or with no won deal). */
  readonly grades: Grades | null;
  /** The sittings that ran the row on this project's machine (not the ones merged from elsewhere). */
  readonly sittings: readonly Sitting[];
  /**
   * Present when the row's database was begun from the committed files, not from the row's first
   * deal: the first `carried.deals` deals were counted in an earlier database (not in git) and are
   * taken from the committed CSV, with the search time and peak memory the summary gave them then,
   * but those the new database runs again (`rerun`) and holds. Absent when the database holds the
   * row from its first deal.
   */
  readonly carried?: Carried;
}

/** The row's first deals as an earlier database counted them, carried over from the committed files (RowSummary.carried). */
export interface Carried {
  /** How many: the row's deals 1..deals, counted when the database was begun. */
  readonly deals: number;
  /**
   * The numbers of those the database runs again: the ones not settled at the top rung of the row's
   * ladder then (undecided at a lower budget). Absent in a summary that carried none.
   */
  readonly rerun?: readonly number[];
  /** Their search time, seconds (RowSummary.searchSeconds then). */
  readonly searchSeconds: number;
  /** The largest peak table memory of one of their searches, bytes (RowSummary.peakBytes then). */
  readonly peakBytes: number | null;
}

/**
 * The records of a CSV file the results commands write (ROW.csv, ROW-losses.csv) as objects keyed by
 * its header (csv-parse, RFC 4180); empty lines are skipped, and a line with more or fewer cells than
 * the header is read as far as it goes. Throws csv-parse's error on a malformed quote.
 */
export function parseCsvRecords(text: string): Record<string, string>[] {
  return parse(text, { columns: true, skip_empty_lines: true, relax_column_count: true });
}

/**
 * The row's deals from the database at `db`, counted at the top rung for `solverVersion`, in the
 * row's order (deal number). A deal with no result of that version yet is left out; null when the
 * database holds no study of the row. Throws what the store throws (a missing or damaged database:
 * InputError).
 */
export function rowDeals(row: ResultsRow, db: string, solverVersion: string): DealResult[] | null {
  const store = ResultStore.openForReading(db);
  try {
    if (!store.studies().some((s) => s.name === row.study)) return null;
    const byName = new Map<string, (StoredRow & { budget: number })[]>();
    for (const r of store.rows({ studies: [row.study] })) {
      if (r.solverVersion !== solverVersion) continue;
      let list = byName.get(r.name);
      if (!list) byName.set(r.name, (list = []));
      list.push({ ...r, budget: r.maxPositions });
    }
    const top = row.budgets[row.budgets.length - 1]!;
    const out: DealResult[] = [];
    for (const [name, results] of byName) {
      const number = dealNumber(row, name);
      if (number === null) continue;
      const at = statusAt(results, top) ?? highestBelow(results, top);
      if (!at) continue;
      const used = results.filter((r) => r.maxPositions <= at.maxPositions && r.status !== 'error');
      const total = at.status === 'error' ? null : used.reduce((s, r) => s + (r.positions ?? 0), 0);
      out.push({
        deal: name, number, status: at.status, budget: at.maxPositions, positions: at.positions,
        totalPositions: total, moves: at.status === 'won' ? at.moveCount : null,
      });
    }
    return out.sort((a, b) => a.number - b.number);
  } finally {
    store.close();
  }
}

/** CSV header of a row's deals (ROW.csv). */
export const DEAL_CSV_HEADER = ['deal', 'status', 'budget', 'positions', 'total_positions', 'moves'] as const;

/** A row's deals as CSV text (LF line ends, a header row; empty cells for null): DEAL_CSV_HEADER's columns. */
export function dealsCsv(deals: readonly DealResult[]): string {
  const cell = (v: string | number | null) => (v === null ? '' : String(v));
  const lines = [DEAL_CSV_HEADER.join(',')];
  for (const d of deals) lines.push([d.deal, d.status, d.budget, d.positions, d.totalPositions, d.moves].map(cell).join(','));
  return lines.join('\n') + '\n';
}

/**
 * Difficulty grades of won deals by the total positions the solver needed: the cuts are the 20th,
 * 40th, 60th and 80th percentiles of the won deals' total positions, and a deal's grade is 1 plus the
 * number of cuts below its count (so grade 1 holds the easiest fifth, 5 the hardest; ties go to the
 * lower grade). Null when no deal is won.
 */
export function gradesOf(deals: readonly DealResult[]): Grades | null {
  const won = deals.filter((d) => d.status === 'won' && d.totalPositions !== null).map((d) => d.totalPositions!).sort((a, b) => a - b);
  if (won.length === 0) return null;
  const cuts = [0.2, 0.4, 0.6, 0.8].map((q) => percentile(won, q)!);
  const counts = [0, 0, 0, 0, 0];
  for (const p of won) counts[gradeOf(p, cuts) - 1]!++;
  return { cuts, counts };
}

/** The grade (1..5) of a deal that needed `positions` in all, against cuts from `gradesOf`. */
export function gradeOf(positions: number, cuts: readonly number[]): number {
  return 1 + cuts.filter((c) => positions > c).length;
}

/** The winnable-deals list of a PySolFC row (ROW-winnable.csv): `pysol_number,grade,total_positions,moves`, one won deal a line, by number. */
export function winnableCsv(deals: readonly DealResult[], grades: Grades): string {
  const lines = ['pysol_number,grade,total_positions,moves'];
  for (const d of deals) if (d.status === 'won') lines.push(`${d.number},${gradeOf(d.totalPositions!, grades.cuts)},${d.totalPositions},${d.moves ?? ''}`);
  return lines.join('\n') + '\n';
}

/** Writes `text` to `path` through a temporary file renamed over it (a reader never sees half a file); makes the folder. */
export function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${Date.now()}-${process.pid}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The summary JSON at `path`, or null when it is absent. Throws SyntaxError on a damaged file. */
export function readSummary(path: string): RowSummary | null {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as RowSummary) : null;
}

/** Path of a row's summary JSON, beside its CSV. */
export function summaryPath(row: ResultsRow, root: string): string {
  return join(root, row.csv.replace(/\.csv$/, '.json'));
}

/** Path of a PySolFC row's winnable-deals list, beside its CSV. */
export function winnablePath(row: ResultsRow, root: string): string {
  return join(root, row.csv.replace(/\.csv$/, '-winnable.csv'));
}

/**
 * How the row's database relates to its committed files (RowSummary.carried), or null when the
 * database holds the row from its first deal. With the database here, what the summary says
 * (written when the database was begun). Without it (a new checkout), what a new database would
 * carry: the deals the committed summary counts, of which those not settled at the top rung of the
 * row's ladder (undecided at a lower budget: a sitting cut short, or a ladder that has grown since)
 * are run again; null when nothing is committed. Throws Error when the committed deals were counted
 * by another solver version, or the CSV does not hold them each once (committedDeals).
 */
export function carryPlan(row: ResultsRow, root: string, solverVersion: string): Carried | null {
  const summary = readSummary(summaryPath(row, root));
  if (existsSync(join(root, row.db))) return summary?.carried ? { ...summary.carried, rerun: summary.carried.rerun ?? [] } : null;
  if (!summary || summary.counted === 0) return null;
  const rerun = committedDeals(row, root, summary.counted, solverVersion).filter((d) => belowTop(row, d)).map((d) => d.number);
  return { deals: summary.counted, rerun, searchSeconds: summary.searchSeconds, peakBytes: summary.peakBytes };
}

/** Is the deal undecided below the top rung of the row's ladder (not yet taken to every rung)? */
export function belowTop(row: ResultsRow, d: DealResult): boolean {
  return d.status === 'undecided' && d.budget < row.budgets[row.budgets.length - 1]!;
}

/** Throws Error when the committed summary's solver version is not `solverVersion` (its deals cannot be counted with this one's). */
function checkCommittedVersion(row: ResultsRow, root: string, solverVersion: string): void {
  const summary = readSummary(summaryPath(row, root));
  if (summary && summary.solverVersion !== solverVersion) {
    throw new Error(`row ${row.id}: the committed deals were counted by solver ${summary.solverVersion}, not ${solverVersion}; they cannot be carried over: rebuild the row from its first deal (--rebuild)`);
  }
}

/**
 * The row's deals 1..`upTo` as the committed CSV gives them. Throws Error when the committed summary
 * is of another solver version, or the CSV does not hold exactly those deals, each once and settled
 * (won, lost or undecided; no error).
 */
export function committedDeals(row: ResultsRow, root: string, upTo: number, solverVersion: string): DealResult[] {
  checkCommittedVersion(row, root, solverVersion);
  const out = csvDeals(row, join(root, row.csv)).filter((d) => d.number <= upTo);
  const bad = out.find((d) => d.status !== 'won' && d.status !== 'lost' && d.status !== 'undecided');
  if (bad) throw new Error(`${row.csv}: deal ${bad.deal} has status ${JSON.stringify(bad.status)}; only settled deals are carried over`);
  if (out.length !== upTo || out.some((d, i) => d.number !== i + 1)) {
    throw new Error(`${row.csv}: holds ${out.length} of the row's deals 1..${upTo}, not each once; the committed row cannot be carried over (git checkout ${row.csv} restores it)`);
  }
  return out;
}

/** The row's deals in the CSV at `path` (absent: none), in the row's order; lines of other names are left out. */
export function csvDeals(row: ResultsRow, path: string): DealResult[] {
  const records = existsSync(path) ? parseCsvRecords(readFileSync(path, 'utf8')) : [];
  const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));
  const out: DealResult[] = [];
  for (const r of records) {
    const number = dealNumber(row, r.deal ?? '');
    if (number === null) continue;
    out.push({ deal: r.deal!, number, status: r.status as ResultStatus, budget: Number(r.budget), positions: num(r.positions), totalPositions: num(r.total_positions), moves: num(r.moves) });
  }
  return out.sort((a, b) => a.number - b.number);
}

/**
 * Every deal the committed CSV holds, or null when the committed summary counts none. Throws Error
 * when the summary is of another solver version.
 */
export function committedRow(row: ResultsRow, root: string, solverVersion: string): DealResult[] | null {
  if (!readSummary(summaryPath(row, root))?.counted) return null;
  checkCommittedVersion(row, root, solverVersion);
  return csvDeals(row, join(root, row.csv));
}

/**
 * The deals a sitting plans, one name a line as `batch --deals -` reads them: with a plan (carryPlan),
 * the deals it runs again, then the row's deals after the carried ones up to deal `limit`; without
 * one, the row's first `limit` deals. Sittings on one database give it the same list, longer at its
 * end as `limit` grows, as a batch study's plan may grow.
 */
export function plannedList(row: ResultsRow, plan: Carried | null, limit?: number): string {
  const again = (plan?.rerun ?? []).map((n) => `${dealName(row, n)}\n`).join('');
  return again + dealList(row, limit, plan?.deals ?? 0);
}

/**
 * Every deal the row counts with `solverVersion`, in the row's order: those its database holds, and
 * with a plan (carryPlan) the carried deals the database does not hold, from the committed CSV. Null
 * when the database is absent or holds no study of the row.
 */
export function countedDeals(row: ResultsRow, root: string, solverVersion: string): DealResult[] | null {
  const db = join(root, row.db);
  const own = existsSync(db) ? rowDeals(row, db, solverVersion) : null;
  if (own === null) return null;
  const plan = carryPlan(row, root, solverVersion);
  if (!plan) return own;
  const mine = new Set(own.map((d) => d.deal));
  return [...committedDeals(row, root, plan.deals, solverVersion).filter((d) => !mine.has(d.deal)), ...own].sort((a, b) => a.number - b.number);
}

/**
 * The counts of each rung of the ladder over deals counted at the top rung (DealResult): at budget B
 * a deal is won (lost) when it was won (lost) at a budget of B or less, else undecided (the batch's
 * ladder rule, ladder.ts statusAt). The deals must each have reached the top rung (none unfinished).
 */
export function rungsOfDeals(deals: readonly DealResult[], budgets: readonly number[]): RungCounts[] {
  return budgets.map((budget) => {
    const n = deals.length;
    const won = deals.filter((d) => atRung(d, budget).status === 'won').length;
    const lost = deals.filter((d) => atRung(d, budget).status === 'lost').length;
    return rungCounts(budget, n, won, lost, 0);
  });
}

/**
 * What a deal (its result at the budget that decided it, DealResult) counts as at rung `budget` of
 * its ladder, by the batch's ladder rule (ladder.ts statusAt): at or above that budget, its status
 * and positions; below it, undecided, the rung's whole budget spent.
 */
export function atRung(d: DealResult, budget: number): { readonly status: ResultStatus; readonly positions: number | null } {
  return budget >= d.budget ? { status: d.status, positions: d.positions } : { status: 'undecided', positions: budget };
}

/** A rung's counts with its floor and ceiling and their 95% Wilson intervals (as report.ts computes them). */
function rungCounts(budget: number, deals: number, won: number, lost: number, errors: number): RungCounts {
  const [ciLow, ciHigh] = wilsonInterval(won, deals) ?? [null, null];
  const [ceilingLow, ceilingHigh] = wilsonInterval(deals - lost, deals) ?? [null, null];
  return {
    budget, deals, won, lost, undecided: deals - won - lost - errors, errors,
    floor: deals ? won / deals : null, ciLow, ciHigh, ceiling: deals ? (deals - lost) / deals : null, ceilingLow, ceilingHigh,
  };
}

/**
 * Exports a row from its database (paths relative to `root`): writes ROW.csv, ROW.json and, for a
 * PySolFC row with a won deal, ROW-winnable.csv; keeps the sittings already in ROW.json (those of
 * `solverVersion`: a row run again under another version does not count the old one's) and adds
 * `sitting` when given. Returns the summary written.
 */
export function exportRow(row: ResultsRow, root: string, solverVersion: string, sitting?: Sitting): RowSummary {
  const dbPath = join(root, row.db);
  const dbDeals = (existsSync(dbPath) ? rowDeals(row, dbPath, solverVersion) : null) ?? [];
  const sPath = summaryPath(row, root);
  const before = readSummary(sPath);
  // the committed deals the database does not hold, when it was begun from the committed files
  const plan = existsSync(dbPath) ? carryPlan(row, root, solverVersion) : null;
  const mine = new Set(dbDeals.map((d) => d.deal));
  const carried = plan ? committedDeals(row, root, plan.deals, solverVersion).filter((d) => !mine.has(d.deal)) : [];
  const deals = [...carried, ...dbDeals].sort((a, b) => a.number - b.number);
  let rungs: RungCounts[] = [];
  let searchMs = plan ? plan.searchSeconds * 1000 : 0;
  let peak: number | null = plan ? plan.peakBytes : null;
  // carried deals not yet at the top rung (to be run again) are unfinished, as the database's are
  let unfinished = carried.filter((d) => belowTop(row, d)).length;
  if (existsSync(dbPath)) {
    const store = ResultStore.openForReading(dbPath);
    try {
      if (store.studies().some((s) => s.name === row.study)) {
        rungs = store.report({ studies: [row.study] })
          .filter((r: ReportRow) => r.solverVersion === solverVersion && row.budgets.includes(r.budget))
          .map((r) => ({ budget: r.budget, deals: r.deals, won: r.won, lost: r.lost, undecided: r.undecided, errors: r.errors, floor: r.floor, ciLow: r.ciLow, ciHigh: r.ciHigh, ceiling: r.ceiling, ceilingLow: r.ceilingLow, ceilingHigh: r.ceilingHigh }));
        for (const r of store.rows({ studies: [row.study] })) {
          if (r.solverVersion !== solverVersion) continue;
          searchMs += r.elapsedMs ?? 0;
          if (r.peakBytes !== null) peak = Math.max(peak ?? 0, r.peakBytes);
        }
        unfinished += store.studies([row.study], solverVersion)[0]?.unfinished ?? 0;
      }
    } finally {
      store.close();
    }
  }
  if (plan) {
    // each rung: the carried deals' counts (by the ladder rule over their committed budgets) added to the database's
    const own = new Map(rungs.map((r) => [r.budget, r]));
    rungs = rungsOfDeals(carried, row.budgets).map((c) => {
      const m = own.get(c.budget);
      return m ? rungCounts(c.budget, c.deals + m.deals, c.won + m.won, c.lost + m.lost, m.errors) : c;
    });
  }
  const topRung = rungs.find((r) => r.budget === row.budgets[row.budgets.length - 1]) ?? null;
  const grades = row.source.kind === 'pysol' ? gradesOf(deals) : null;
  const summary: RowSummary = {
    row: row.id, title: row.title, game: row.game, suits: row.suits, study: row.study, solverVersion,
    budgets: row.budgets, planned: row.count, counted: deals.length, unfinished,
    complete: deals.length === row.count && unfinished === 0,
    top: topRung, rungs, searchSeconds: Math.round(searchMs) / 1000, peakBytes: peak, grades,
    // (the sittings of another solver version counted that version's deals, not these)
    sittings: [...(before && before.solverVersion === solverVersion ? before.sittings : []), ...(sitting ? [sitting] : [])],
    ...(plan ? { carried: plan } : {}),
  };
  writeAtomically(join(root, row.csv), dealsCsv(deals));
  if (grades) writeAtomically(winnablePath(row, root), winnableCsv(deals, grades));
  writeAtomically(sPath, JSON.stringify(summary, null, 2) + '\n');
  return summary;
}

/**
 * Records in the row's summary how the database a sitting is about to begin relates to the committed
 * files (`plan`, RowSummary.carried; null: from the row's first deal), so that later sittings and
 * the export read the database by it. From the first deal the summary's sittings are dropped (they
 * counted deals the new database does not hold); the rest of the summary is left as it is. Nothing
 * is written when there is no summary.
 */
export function recordPlan(row: ResultsRow, root: string, plan: Carried | null): void {
  const path = summaryPath(row, root);
  const s = readSummary(path);
  if (!s) return;
  const { carried: _old, ...rest } = s;
  // from the row's first deal, the sittings before counted deals this database does not hold
  writeAtomically(path, JSON.stringify(plan ? { ...rest, carried: plan } : { ...rest, sittings: [] }, null, 2) + '\n');
}
