/**
 * The rows of the published win-rate table (docs/results.md): which deals each row solves, with which
 * budget ladder, under which study name and in which results database. The rows are data: the
 * `results` command (src/results/cli.ts) runs them with `spidersolve batch` and exports them with
 * `spidersolve export`; the deploy/results recipes run them on a cluster.
 *
 * Deals: PySolFC's game numbers where PySolFC has the game (Spider 1, 2 and 4 suits, four-suit
 * Spiderette: src/game/pysol.ts kinds spider1, spider2, spider, spiderette), seeds of this project's own
 * deal (src/game/deal.ts) otherwise (one- and two-suit Spiderette, which PySolFC does not have).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { PysolKind } from '../game/pysol.js';

/** How a row names its deals: PySolFC game numbers of one kind, or this project's seeds. */
export type RowSource = { readonly kind: 'pysol'; readonly pysol: PysolKind } | { readonly kind: 'seeds' };

/** A published figure a row is shown beside (docs/results.md); text as its source gives it. */
export interface PublishedFigure {
  /** What was measured, as the source states it (e.g. `31,998 of 1–32,000 proven winnable`). */
  readonly result: string;
  /** Who and where. */
  readonly source: string;
}

/** One row of the table. */
export interface ResultsRow {
  /** The name given to `npm run results -- ROW` (lower-case letters and digits): `spider4`, `spiderette1`. */
  readonly id: string;
  /** The row's title in the table: `Spider 4 suits`. */
  readonly title: string;
  readonly game: 'spider' | 'spiderette';
  readonly suits: 1 | 2 | 4;
  readonly source: RowSource;
  /** The deals are numbers (PySolFC game numbers or seeds) 1..count, in that order. */
  readonly count: number;
  /** The budget ladder, positions per rung, increasing (`batch --max-positions` as a comma list). */
  readonly budgets: readonly number[];
  /** The study name in the row's database (`batch --study`). */
  readonly study: string;
  /** The results database, relative to the project's root (gitignored; persists across runs). */
  readonly db: string;
  /** The exported per-deal CSV, relative to the project's root (committed). */
  readonly csv: string;
  /** Published figures for the same game (the table shows them beside the row). */
  readonly published: readonly PublishedFigure[];
}

/**
 * The ladder of every row: every deal at 1,000,000 positions, those left undecided at 4,000,000, then
 * 16,000,000. At 16,000,000 the solver's table stays near 1.2 GB (README: a four-suit Spiderette deal
 * at 16,000,000 positions, 1.15 GB), inside the 4 GB a deal may use.
 */
export const RESULTS_LADDER: readonly number[] = Object.freeze([1_000_000, 4_000_000, 16_000_000]);

/**
 * The ladder of Spider 4 suits, compared deal by deal with plspider (which won 31,998 of its 32,000
 * deals): RESULTS_LADDER, then 64,000,000 for the few deals still undecided. pysol:spider:24560 is
 * won there in 54,168,607 positions, with a peak table memory of 2.8 GB (about 4.1 GB for the whole
 * `spidersolve solve` process); a deal undecided at 64,000,000 takes some 3.2 GB of table.
 */
export const SPIDER4_LADDER: readonly number[] = Object.freeze([...RESULTS_LADDER, 64_000_000]);

/** Folder of the rows' databases, CSV files and lists, relative to the project's root. */
export const RESULTS_DIR = 'data/results';

/**
 * A file of the rows (`path`, relative to `root`: the project's folder, or RESULTS_ROOT) as the
 * `results` command names it, so that it opens from the folder the command runs in (`cwd`):
 * relative to that folder when inside it (`data/results/spider4.csv`, run from the project's
 * folder as npm runs it), else absolute (`/shared/results/data/results/spider4.csv`).
 */
export function shownPath(root: string, path: string, cwd = process.cwd()): string {
  const abs = resolve(root, path);
  const rel = relative(cwd, abs);
  if (rel === '') return '.';
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? abs : rel;
}

const PLSPIDER: PublishedFigure = {
  result: '31,998 of PySol numbers 1–32,000 proven winnable (99.994%); 14934 "appears unwinnable"',
  source: 'plspider (tranzoa.net, 2005)',
};
const SOLVITAIRE_SPIDER: PublishedFigure = {
  result: '98.487% ± 1.513%: 9,731 winnable, 0 unwinnable, 269 unknown of 10,000 (2.69% timed out)',
  source: 'Blake & Gent, "The winnability of Klondike Solitaire and many other patience games" (Solvitaire; JAIR 2026, arXiv 1906.12314)',
};
const SOLVITAIRE_SPIDERETTE: PublishedFigure = {
  result: '1,004 won, 4 proven lost, 1 intractable (timeouts doubled up to 32 s a deal), under Solvitaire\'s Spiderette rules, which let the stock be dealt onto empty columns (R12 here does not)',
  source: 'Solvitaire repository, results/SH_project/lower-bounds/spiderette-solvability.txt',
};

function row(id: string, title: string, game: 'spider' | 'spiderette', suits: 1 | 2 | 4, source: RowSource, count: number, published: PublishedFigure[] = [], budgets = RESULTS_LADDER): ResultsRow {
  return Object.freeze({
    id, title, game, suits, source, count,
    budgets,
    study: `results-${id}`,
    db: `${RESULTS_DIR}/${id}.sqlite`,
    csv: `${RESULTS_DIR}/${id}.csv`,
    published: Object.freeze(published),
  });
}

/**
 * The six rows, in the table's order. Spider 4 suits: PySolFC numbers 1–32,000 (plspider's set);
 * every other row 10,000 deals (issue: "at least 10,000 deals each").
 */
export const RESULTS_ROWS: readonly ResultsRow[] = Object.freeze([
  row('spider4', 'Spider 4 suits', 'spider', 4, { kind: 'pysol', pysol: 'spider' }, 32_000, [PLSPIDER, SOLVITAIRE_SPIDER], SPIDER4_LADDER),
  row('spider2', 'Spider 2 suits', 'spider', 2, { kind: 'pysol', pysol: 'spider2' }, 10_000),
  row('spider1', 'Spider 1 suit', 'spider', 1, { kind: 'pysol', pysol: 'spider1' }, 10_000),
  row('spiderette4', 'Spiderette 4 suits', 'spiderette', 4, { kind: 'pysol', pysol: 'spiderette' }, 10_000, [SOLVITAIRE_SPIDERETTE]),
  row('spiderette2', 'Spiderette 2 suits', 'spiderette', 2, { kind: 'seeds' }, 10_000),
  row('spiderette1', 'Spiderette 1 suit', 'spiderette', 1, { kind: 'seeds' }, 10_000),
]);

/** The row named `id`, or undefined. */
export function findRow(id: string): ResultsRow | undefined {
  return RESULTS_ROWS.find((r) => r.id === id);
}

/**
 * The name of deal number `n` (1-based) of a row, as a line of `batch --deals` takes it:
 * `pysol:spider:7` for a PySolFC row, the seeded deal code `SE2-7` for a seeds row.
 * Throws RangeError unless 1 ≤ n ≤ row.count.
 */
export function dealName(r: ResultsRow, n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > r.count) throw new RangeError(`row ${r.id}: deal ${n} is outside 1..${r.count}`);
  return r.source.kind === 'pysol' ? `pysol:${r.source.pysol}:${n}` : `${r.game === 'spider' ? 'SP' : 'SE'}${r.suits}-${n}`;
}

/**
 * The row's deals after the first `after` (default none) up to deal `limit` (all of them when limit is
 * undefined or above its count), one name a line, as `batch --deals -` reads them; '' when there are none.
 */
export function dealList(r: ResultsRow, limit?: number, after = 0): string {
  const n = Math.min(limit ?? r.count, r.count);
  const out: string[] = [];
  for (let i = after + 1; i <= n; i++) out.push(dealName(r, i));
  return out.length ? out.join('\n') + '\n' : '';
}

/** The number a deal name of a row carries (`pysol:spider:7` → 7, `SE2-7` → 7), or null if it is not one of the row's names. */
export function dealNumber(r: ResultsRow, name: string): number | null {
  const prefix = r.source.kind === 'pysol' ? `pysol:${r.source.pysol}:` : `${r.game === 'spider' ? 'SP' : 'SE'}${r.suits}-`;
  if (!name.startsWith(prefix)) return null;
  const t = name.slice(prefix.length);
  return /^[1-9]\d*$/.test(t) ? Number(t) : null;
}

/**
 * The `spidersolve batch` arguments of a row (its deals come on standard input): the whole row into
 * its database, or shard K/N of it (`batch --shard`, K counting from 0) into the shard's own database.
 */
export function batchArgs(row: ResultsRow, workers?: number, shard?: { readonly index: number; readonly count: number; readonly db: string }): string[] {
  return [
    'batch', '--deals', '-', '--study', row.study, '--max-positions', row.budgets.join(','), '--db', shard ? shard.db : row.db,
    ...(workers !== undefined ? ['--workers', String(workers)] : []), ...(shard ? ['--shard', `${shard.index}/${shard.count}`] : ['--no-shard']),
  ];
}
