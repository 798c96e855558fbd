/**
 * The `batch`, `report` and `export` commands: option parsing and printing only. The work is in
 * src/batch (runner: pool + store + progress; report: aggregation; store: SQLite). Bad input throws
 * InputError; main.ts prints `spidersolve: <message>` and exits 2. An interrupted batch exits 130.
 */
import { dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { stringify } from 'csv-stringify';
import { InputError } from '../game/errors.js';
import { loadDeal } from '../game/ref.js';
import type { GameName, SuitCount } from '../game/variant.js';
import { parseSeeds, parseSuitsList, planDealsFile, planSeeds, type PlannedDeal } from '../batch/deals.js';
import { databaseFiles, fileInTheWay, makeDirs, sameFileAs, statOrNull, writeFileAtomically, writeTextAtomically } from '../batch/files.js';
import { defaultWorkerCount } from '../batch/pool.js';
import { createProgress } from '../batch/progress.js';
import { formatCsv, formatReport, formatTable, rowsAsRecords, type ReportFormat } from '../batch/report.js';
import { abortOnSignals, runBatch, type BatchSummary } from '../batch/runner.js';
import { oneLine } from '../batch/schema.js';
import { DEFAULT_DB_PATH, RESULT_COLUMNS, ResultStore, type ResultFilter, type StudyParams } from '../batch/store.js';
import { reportHtml, reportVega } from '../report/html.js';
import { DEFAULT_MAX_POSITIONS, MAX_MAX_POSITIONS } from '../solver/types.js';
import { parseGameOption, parseIntOption } from './common.js';
import { takeEarlySignal } from './signals.js';

/** Exit status of a batch stopped by SIGINT/SIGTERM (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/** Largest `--workers` accepted. */
const MAX_WORKERS = 256;

/** Options of `batch` as commander hands them over. */
interface BatchCliOptions {
  game?: string;
  suits?: string;
  seeds?: string;
  deals?: string;
  maxPositions?: string;
  workers?: string;
  db: string;
  study?: string;
  json?: boolean;
}

/** A fully checked batch request (no file touched yet apart from reading the deals file). */
export interface BatchRequest {
  deals: PlannedDeal[];
  /** Deals of a deals file left out by --game/--suits (0 for --seeds). */
  leftOut: number;
  maxPositions: number;
  workers: number;
  dbPath: string;
  study: string;
  studyParams: StudyParams;
}

/**
 * Checks `batch` options and builds the deal list. Throws InputError (`bad-option`, `bad-file`,
 * `bad-reference`) for: unknown game, bad suit list, bad or empty seed range, both or neither of
 * --seeds/--deals, bad --max-positions/--workers, any bad line of the deals file.
 */
export function parseBatchOptions(o: BatchCliOptions): BatchRequest {
  if ((o.seeds === undefined) === (o.deals === undefined)) {
    throw new InputError('bad-option', 'batch: give exactly one of --seeds <range> or --deals <file>');
  }
  const game: GameName | undefined = o.game === undefined ? undefined : parseGameOption(o.game);
  const suits: SuitCount[] | undefined = o.suits === undefined ? undefined : parseSuitsList(o.suits);
  const maxPositions = o.maxPositions === undefined ? DEFAULT_MAX_POSITIONS : parseIntOption('max-positions', o.maxPositions, 1, MAX_MAX_POSITIONS);
  const workers = o.workers === undefined ? Math.min(defaultWorkerCount(), MAX_WORKERS) : parseIntOption('workers', o.workers, 1, MAX_WORKERS);
  let deals: PlannedDeal[];
  let leftOut = 0;
  let dealsSpec: string;
  let defaultName: string;
  if (o.seeds !== undefined) {
    if (!game) throw new InputError('bad-option', 'batch --seeds: --game spider|spiderette is required');
    if (!suits) throw new InputError('bad-option', 'batch --seeds: --suits is required (a comma list of 1, 2, 4)');
    const ranges = parseSeeds(o.seeds);
    deals = planSeeds(game, suits, ranges);
    const spec = ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(',');
    dealsSpec = `seeds:${spec}`;
    defaultName = `${game}-s${suits.join(',')}-seeds${spec}-b${maxPositions}`;
  } else {
    const path = o.deals!;
    ({ deals, leftOut } = planDealsFile(path, loadDeal, { game, suits }));
    dealsSpec = `file:${resolve(path)}`;
    defaultName = `${game ?? 'deals'}${suits ? `-s${suits.join(',')}` : ''}-file:${resolve(path)}-b${maxPositions}`;
  }
  const study = o.study === undefined ? defaultName : o.study.trim();
  if (study === '') throw new InputError('bad-option', '--study: the name is empty');
  return {
    deals, leftOut, maxPositions, workers, dbPath: o.db, study,
    studyParams: { game: game ?? null, suits: suits ? suits.join(',') : null, dealsSpec, maxPositions },
  };
}

/** A word safe to paste into a POSIX shell. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line that resumes this run: `npx spidersolve` and the same arguments — runnable from the
 * project's folder however the batch was started (npx, `npm run study`, `node bin/spidersolve.js`),
 * and wherever spidersolve is on the PATH.
 */
export function resumeCommand(argv: readonly string[] = process.argv.slice(2)): string {
  return ['npx spidersolve', ...argv.map(shellQuote)].join(' ');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The text summary of a batch (stdout); `leftOut`: deals of the file that --game/--suits left out. */
export function formatBatchSummary(s: BatchSummary, leftOut = 0): string {
  const lines = [
    `study ${s.study}${s.interrupted ? ' (interrupted)' : ''}`,
    `  deals ${s.planned}: ${s.skipped} already settled, ${s.ran} run now in ${seconds(s.elapsedMs)} ` +
      `(${s.dealsPerSecond.toFixed(1)} deals/s, ${s.workers} worker${s.workers > 1 ? 's' : ''}), ${s.remaining} left` +
      (leftOut > 0 ? `; ${leftOut} of other games or suit counts in the file left out` : ''),
    `  this run: won ${s.won}, lost ${s.lost}, undecided ${s.undecided}, errors ${s.errors}`,
    `  budget ${s.maxPositions} positions, solver ${s.solverVersion}, database ${s.db}`,
    '',
    formatTable(s.report).trimEnd(),
    ...(s.report.length > 0 ? TABLE_LEGEND : []),
  ];
  return lines.join('\n') + '\n';
}

/** Two lines under the batch's table that say what its columns mean (README: `spidersolve report`). */
export const TABLE_LEGEND: readonly string[] = [
  'floor = won / deals (a proven lower bound on the win rate); CI = its 95% Wilson interval; ceiling = deals not proven lost / deals;',
  'pos and ms: median and 95th percentile (p95) of positions searched and milliseconds, over won deals.',
];

async function batchAction(o: BatchCliOptions): Promise<void> {
  // The handlers go in before any slow work (reading and checking a deals file, planning millions of
  // seeds, opening the database, starting the pool): a signal during that work then stops the batch
  // like any other — no deal dispatched, the summary, the resume command, exit 130 — instead of
  // killing the process or going unnoticed. runBatch looks at the signal once more before dispatch.
  // The bar is stopped before anything else is written to the terminal (progress.ts).
  const progress = createProgress(process.stderr);
  const sig = abortOnSignals((name) => {
    progress.stop();
    process.stderr.write(`\nspidersolve: stopping; finished results are kept (${name === 'SIGINT' ? 'press Ctrl-C again' : 'a second signal'} to quit at once)\n`);
  });
  // a signal that came while the program was still loading (signals.ts) counts as one now
  const early = takeEarlySignal();
  if (early !== null) process.emit(early, early);
  let summary: BatchSummary;
  let leftOut = 0;
  try {
    const req = parseBatchOptions(o);
    leftOut = req.leftOut;
    summary = await runBatch({
      ...req,
      signal: sig.signal,
      progress,
      // test and benchmark hook: another worker module (e.g. a slowed-down one); not for users
      workerFile: process.env.SPIDERSOLVE_BATCH_WORKER || undefined,
    });
  } finally {
    sig.dispose();
  }
  if (o.json) {
    const { report, ...rest } = summary;
    process.stdout.write(JSON.stringify({ ...rest, leftOut, report: rowsAsRecords(report) }) + '\n');
  } else {
    process.stdout.write(formatBatchSummary(summary, leftOut));
  }
  if (summary.interrupted) {
    process.stderr.write(`spidersolve: interrupted with ${summary.remaining} of ${summary.planned} deals left; resume with the same command:\n  ${resumeCommand()}\n`);
    process.exitCode = EXIT_INTERRUPTED; // main.ts keeps a status set by the command
  }
}

const REPORT_FORMATS: readonly ReportFormat[] = ['table', 'md', 'csv', 'json'];
/** The report's picture formats (src/report/html.ts): one HTML file with charts, or the charts' Vega-Lite specs. */
type PictureFormat = 'html' | 'vega';
const PICTURE_FORMATS: readonly PictureFormat[] = ['html', 'vega'];

function parseFilter(o: { game?: string; suits?: string }): ResultFilter {
  return {
    ...(o.game !== undefined ? { game: parseGameOption(o.game) } : {}),
    ...(o.suits !== undefined ? { suits: parseSuitsList(o.suits) } : {}),
  };
}

/**
 * Checks `--out` before anything is read or written (no side effects): refuses an empty name, a path
 * that is a directory, a path with a parent component that exists but is not a directory (`option
 * --out "/tmp/file.txt/x.md": /tmp/file.txt is not a directory`), and a path that names the results
 * database `db` or one of its -wal, -shm or -journal files, directly or through a link (writing there
 * would destroy the results), each with a one-line `bad-option` error. Missing parent directories
 * are fine: `createOutDir` makes them.
 */
export function checkOutPath(out: string, db: string): void {
  const name = `option --out "${out}"`;
  if (out.trim() === '') throw new InputError('bad-option', `${name}: the file name is empty`);
  if (statOrNull(out)?.isDirectory()) throw new InputError('bad-option', `${name}: is a directory; give a file name`);
  // the nearest ancestor that exists must be a directory (everything below it will be created)
  const file = fileInTheWay(out);
  if (file !== null) throw new InputError('bad-option', `${name}: ${file} is not a directory`);
  const clash = sameFileAs(out, databaseFiles(db));
  if (clash !== null) {
    const what = /-(wal|shm|journal)$/.test(clash) ? `${clash}, a file of the results database ${db}` : `the results database ${db}`;
    throw new InputError('bad-option', `${name}: is ${what}; writing there would destroy the results, so nothing was written: give another file name`);
  }
}

/** Creates the missing parent directories of `--out` (as `mkdir -p`); `checkOutPath` ran before. */
function createOutDir(out: string): void {
  makeDirs(dirname(resolve(out)));
}

/**
 * Writes `--out` (checked by checkOutPath) through a temporary file renamed into place (files.ts
 * writeFileAtomically), or stdout when there is no `--out`. A failure is a `bad-file` InputError
 * naming the file; the file at the path is then as it was.
 */
async function writeOut(out: string | undefined, text: string): Promise<void> {
  if (out === undefined) {
    process.stdout.write(text);
    return;
  }
  try {
    createOutDir(out);
    await writeTextAtomically(out, text);
  } catch (e) {
    throw new InputError('bad-file', `option --out "${out}": cannot write it (${oneLine(e)}); nothing was written there`);
  }
}

async function reportAction(o: { db: string; game?: string; suits?: string; format: string; out?: string }, cmd: Command): Promise<void> {
  const format = o.format as ReportFormat | PictureFormat;
  if (!REPORT_FORMATS.includes(format as ReportFormat) && !PICTURE_FORMATS.includes(format as PictureFormat)) {
    throw new InputError('bad-option', `option --format "${o.format}": use table, md, csv, json, html or vega`);
  }
  const filter = parseFilter(o);
  if (o.out !== undefined) checkOutPath(o.out, o.db);
  const store = ResultStore.openForReading(o.db);
  try {
    if (format === 'html' || format === 'vega') {
      const rows = store.report(filter);
      const generator = `spidersolve ${cmd.parent?.version() ?? ''}`.trim();
      const what = filter.game || filter.suits ? [filter.game, filter.suits ? `suits ${filter.suits.join(',')}` : undefined].filter(Boolean).join(', ') : 'all results';
      await writeOut(
        o.out,
        format === 'html'
          ? await reportHtml(rows, store.wonEffort(filter), { db: o.db, filter: what, generator, generatedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z') })
          : reportVega(rows, store.wonEffort(filter), generator),
      );
      return;
    }
    await writeOut(o.out, formatReport(store.report(filter), format));
  } finally {
    store.close();
  }
}

async function exportAction(o: { db: string; csv?: boolean; summary?: boolean; out?: string; game?: string; suits?: string }): Promise<void> {
  if (!o.csv) throw new InputError('bad-option', 'export: give --csv (the only export format)');
  const filter = parseFilter(o);
  if (o.out !== undefined) checkOutPath(o.out, o.db);
  const store = ResultStore.openForReading(o.db);
  try {
    if (o.summary) {
      await writeOut(o.out, formatCsv(store.report(filter)));
      return;
    }
    const csv = stringify({
      header: true,
      columns: RESULT_COLUMNS.map(([col, field]) => ({ key: field, header: col })),
      record_delimiter: 'windows',
    });
    const source = Readable.from(store.rows(filter));
    if (o.out === undefined) {
      try {
        await pipeline(source, csv, process.stdout, { end: false });
      } catch (e) {
        // the reader of a pipe went away (`| head`): stop quietly, as Unix tools do
        if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
      }
    } else {
      try {
        createOutDir(o.out);
        await writeFileAtomically(o.out, (dest) => pipeline(source, csv, dest));
      } catch (e) {
        throw new InputError('bad-file', `option --out "${o.out}": cannot write it (${oneLine(e)}); nothing was written there`);
      }
    }
  } finally {
    store.close();
  }
}

/** Adds `batch`, `report` and `export` to the program (called by src/cli/main.ts). */
export function registerBatchCommands(program: Command): void {
  program
    .command('batch')
    .description('solve many deals in a worker pool and store the results in SQLite (resumable)')
    .option('--game <game>', 'spider or spiderette (required with --seeds; a filter with --deals)')
    .option('--suits <list>', 'comma list of suit counts, e.g. 1,2,4 (required with --seeds; a filter with --deals)')
    .option('--seeds <range>', 'seeds to deal, e.g. 1-1000 or 1-10,50-60')
    .option('--deals <file>', 'file of deal codes, pysol:GAME:N references or position files, one a line (# comments)')
    .option('--max-positions <n>', `position budget per deal, 1..${MAX_MAX_POSITIONS} (default ${DEFAULT_MAX_POSITIONS})`)
    .option('--workers <n>', 'worker threads (default: number of cores)')
    .option('--db <file>', 'results database', DEFAULT_DB_PATH)
    .option('--study <name>', 'study name (default: derived from game, suits, deals and budget)')
    .option('--json', 'print one JSON object instead of the text summary')
    .addHelpText('after', '\nExit status: 0 done, 2 bad input, 130 interrupted (run the same command again to resume).')
    .action(batchAction);

  program
    .command('report')
    .description('win-rate report per game, suits and budget: floor with 95% Wilson interval, ceiling, effort of won deals')
    .option('--db <file>', 'results database', DEFAULT_DB_PATH)
    .option('--game <game>', 'only this game')
    .option('--suits <list>', 'only these suit counts, e.g. 1,2')
    .option('--format <format>', 'table, md, csv, json (an array of row objects), html (one self-contained file with the table and charts) or vega (the charts\' Vega-Lite specs with their data)', 'table')
    .option('--out <file>', 'write to this file instead of stdout; missing parent directories are created (like mkdir -p)')
    .action(reportAction);

  program
    .command('export')
    .description('export stored results as RFC 4180 CSV (per deal, or the report rows with --summary)')
    .option('--csv', 'CSV output (required)')
    .option('--summary', 'export the report rows instead of one row per deal')
    .option('--db <file>', 'results database', DEFAULT_DB_PATH)
    .option('--game <game>', 'only this game')
    .option('--suits <list>', 'only these suit counts, e.g. 1,2')
    .option('--out <file>', 'write to this file instead of stdout; missing parent directories are created (like mkdir -p)')
    .action(exportAction);
}
