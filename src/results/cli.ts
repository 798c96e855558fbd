/**
 * `npm run results -- …`: runs the rows of the win-rate table (src/results/rows.ts) with the tool's own
 * commands and writes the committed files.
 *
 *   npm run results -- ROW [--workers N] [--limit N]   run row ROW (resumable), then export it
 *   npm run results -- ROW --shard K/N [--db FILE]     run shard K of N of row ROW into its own database
 *   npm run results -- merge ROW FILE…                 merge shard databases into ROW's, then export it
 *   npm run results -- export ROW                      export ROW from its database without running
 *   npm run results -- confirm ROW [--budget N]        check each loss of ROW again (confirm.ts)
 *   npm run results -- table                           write docs/results.md (and docs/results.html)
 *   npm run results -- rows                            list the rows
 *
 * A row runs as one `spidersolve batch` process: its deals (`pysol:spider:1`, … or `SE2-1`, …) are
 * given on standard input (`--deals -`), so the study does not depend on the folder the project is
 * in, with the row's study name, budget ladder and database. The study may grow: `--limit 200` now
 * and `--limit 1000` later plan the same study's first 200, then first 1,000 deals (a batch study's
 * list may gain deals at its end). An interrupted run (Ctrl-C, SIGTERM, a crash) keeps every finished
 * result; the same command resumes. After the batch, the row is exported (src/results/export.ts).
 *
 * The rows' files are under the project's folder, or under RESULTS_ROOT when that is set (a cluster's
 * shared volume: deploy/results). Messages name them as they open from the working folder
 * (rows.ts shownPath: relative to it when inside it, else absolute).
 *
 * Exit status: 0 done (confirm: no loss contradicted; 1 when one is); 2 bad input (one line `results: …` on stderr;
 * no arguments at all: that line and the usage); 130 the batch was interrupted
 * (what it finished is exported) or confirm was (the answers written are kept); otherwise the batch's own status.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError } from '../game/errors.js';
import { SOLVER_VERSION } from '../solver/types.js';
import { belowTop, carryPlan, countedDeals, exportRow, plannedList, readSummary, recordPlan, rowDeals, summaryPath, writeAtomically, type Carried, type RowSummary, type Sitting } from './export.js';
import { abortOnSignals } from '../cli/stopSignals.js';
import { EXIT_INTERRUPTED } from '../cli/batch.js';
import { CHECK_BUDGET, confirmRow, lossesPath, workerLossChecker, type LossCheck } from './confirm.js';
import { batchArgs, findRow, RESULTS_DIR, RESULTS_ROWS, shownPath, type ResultsRow } from './rows.js';
import { renderTable } from './table.js';
import { committedHtml } from './chart.js';
import { packageInfo } from '../cli/common.js';

/** The project's root (this file is src/results/cli.ts, or dist/src/results/cli.js when built). */
export const PROJECT_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), existsSync(fileURLToPath(new URL('../../package.json', import.meta.url))) ? '../..' : '../../..');

/**
 * How to run `spidersolve ARGS` from here: the built command (bin/spidersolve.js, which runs dist/)
 * when this is the build, the source under tsx when this runs from source (tests).
 */
export function spidersolveArgv(args: readonly string[]): string[] {
  return import.meta.url.endsWith('.ts')
    ? ['--import', pathToFileURL(join(PROJECT_ROOT, 'node_modules/tsx/dist/loader.mjs')).href, join(PROJECT_ROOT, 'src/cli/entry.ts'), ...args]
    : [join(PROJECT_ROOT, 'bin/spidersolve.js'), ...args];
}

/** A bad command line: printed as one line, exit 2. */
export class UsageError extends Error {}

/**
 * `--shard K/N` of a row's run, and the shard's database: the `--db` given, relative to the working
 * folder, or (`rooted`) the default under the rows' folder (RESULTS_ROOT's when set).
 */
export interface ShardOption {
  readonly index: number;
  readonly count: number;
  readonly db: string;
  readonly rooted?: boolean;
}

/** Parsed arguments of the `results` command. */
export type ResultsCommand =
  | { readonly kind: 'run'; readonly row: ResultsRow; readonly workers?: number; readonly limit?: number; readonly shard?: ShardOption; readonly rebuild?: boolean }
  | { readonly kind: 'export'; readonly row: ResultsRow }
  | { readonly kind: 'merge'; readonly row: ResultsRow; readonly files: readonly string[] }
  | { readonly kind: 'confirm'; readonly row: ResultsRow; readonly budget: number }
  | { readonly kind: 'table' }
  | { readonly kind: 'rows' }
  | { readonly kind: 'help' }
  /** No row and no command: the usage on stderr, exit 2 (a script that forgot its row notices). */
  | { readonly kind: 'usage' };

const USAGE = `usage: npm run results -- ROW [--workers N] [--limit N] [--rebuild]   run a row (resumable), then export it
       npm run results -- ROW --shard K/N [--db FILE]     run shard K of N of the row into its own database
       npm run results -- merge ROW FILE...               merge shard databases into the row's, then export it
       npm run results -- export ROW                      export a row from its database
       npm run results -- confirm ROW [--budget N]        check each loss of ROW again, without the solver's reductions
       npm run results -- table                           write docs/results.md (and docs/results.html)
       npm run results -- rows                            list the rows
ROW is one of ${RESULTS_ROWS.map((r) => r.id).join(', ')}.

  --workers N   worker threads of the row's batch (default: one a core)
  --limit N     run the row's first N deals only (a prefix of its deal list; a later run with a larger
                N goes on from there); never fewer than the committed data/results/ROW.json counts
  --rebuild     with no database here, run the row from its first deal again; without it, a row whose
                database is not here (a new checkout) goes on after the deals its committed files hold
  --budget N    confirm's position budget a loss (default 16,000,000)
  --shard K/N, --db FILE   see docs/cluster.md
A row of 10,000 deals takes hours of CPU (docs/results.md gives each row's CPU time a deal).
RESULTS_ROOT=DIR works in DIR instead of this project (its data/results and docs).
Exit codes: 0 done; 2 bad input (one line; no arguments at all: this usage, on stderr); 130
interrupted (what was finished is kept; the same command resumes); confirm: 1 when a loss is
contradicted; otherwise the batch's status.`;

function positiveInt(name: string, v: string | undefined): number {
  // no value: none given, an empty one, or the next option read as this one's value (`--budget --budget`)
  if (v === undefined || v === '' || (v.startsWith('-') && !/^-\d/.test(v))) throw new UsageError(`option ${name} needs a value: give a positive whole number`);
  if (!/^[1-9]\d*$/.test(v)) throw new UsageError(`option ${name} ${JSON.stringify(v)}: give a positive whole number`);
  if (!Number.isSafeInteger(Number(v))) throw new UsageError(`option ${name} ${JSON.stringify(v)}: too large; give a whole number up to ${Number.MAX_SAFE_INTEGER}`);
  return Number(v);
}

/** The error for an argument that starts with `-` and is no option the command knows (`--name=value`: the name alone). */
function unknownOption(arg: string): UsageError {
  const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
  return new UsageError(`unknown option ${JSON.stringify(name)}; npm run results -- --help lists the commands and their options`);
}

/** For a command that takes no options: throws unknownOption for the first argument that starts with `-`. */
function refuseOptions(args: readonly string[]): void {
  const option = args.find((a) => a.startsWith('-'));
  if (option !== undefined) throw unknownOption(option);
}

/**
 * The row named `id`. Throws UsageError when there is none: for one of the command's own options
 * (`options`: `--budget`, `--limit=5`) given where the row belongs, "no row given before" it (after
 * `command`'s name, when given); for another option, unknownOption; else an unknown row.
 */
function rowOf(id: string | undefined, options: readonly string[] = [], command = ''): ResultsRow {
  const name = id?.split('=')[0];
  if (name !== undefined && options.includes(name)) throw new UsageError(`${command}no row given before ${name}; give one of ${RESULTS_ROWS.map((r) => r.id).join(', ')} first`);
  if (id?.startsWith('-')) throw unknownOption(id);
  const row = id === undefined ? undefined : findRow(id);
  if (!row) throw new UsageError(`${id === undefined ? 'no row given' : `unknown row ${JSON.stringify(id)}`}; give one of ${RESULTS_ROWS.map((r) => r.id).join(', ')}`);
  return row;
}

/**
 * The options among `args` (`--name value` or `--name=value`), each of `names` at most once; a value
 * left out reads as ''. Throws UsageError for an option it does not know (unknownOption), an option
 * given twice, or an argument that is no option.
 */
function readOptions(args: readonly string[], names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (!names.includes(name)) throw a.startsWith('-') ? unknownOption(a) : new UsageError(`unexpected argument ${JSON.stringify(a)}; npm run results -- --help lists the commands and their options`);
    if (out.has(name)) throw new UsageError(`option ${name} given twice; give it once`);
    out.set(name, inline ?? args[++i] ?? '');
  }
  return out;
}

/** The options of running a row (`npm run results -- ROW …`). */
const RUN_OPTIONS: readonly string[] = ['--workers', '--limit', '--shard', '--db', '--rebuild'];

/** Parses the arguments after `npm run results --`. Throws UsageError on anything it does not know. */
export function parseResultsArgs(args: readonly string[]): ResultsCommand {
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help' };
  if (args.length === 0) return { kind: 'usage' };
  const [first, ...rest] = args;
  if (first === 'table' || first === 'rows') {
    refuseOptions(rest);
    if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}; ${first} takes no arguments`);
    return { kind: first };
  }
  if (first === 'merge') {
    refuseOptions(rest);
    if (rest.length < 2) throw new UsageError('merge takes a row and the shard databases to merge into its database');
    return { kind: 'merge', row: rowOf(rest[0]), files: rest.slice(1) };
  }
  if (first === 'export') {
    refuseOptions(rest);
    if (rest.length !== 1) throw new UsageError('export takes one row');
    return { kind: 'export', row: rowOf(rest[0]) };
  }
  if (first === 'confirm') {
    // an option of running a row (`confirm spider1 --limit 5`, `confirm --limit 5 spider1`): said as
    // such, not as an unknown option
    const runOption = rest.map((a) => a.split('=')[0]!).find((a) => RUN_OPTIONS.includes(a));
    if (runOption !== undefined) throw new UsageError(`confirm: ${runOption} is an option of running a row, not of confirm, which checks every loss of the row and takes only --budget N`);
    const row = rowOf(rest[0], ['--budget'], 'confirm: ');
    const budget = readOptions(rest.slice(1), ['--budget']).get('--budget');
    return { kind: 'confirm', row, budget: budget === undefined ? CHECK_BUDGET : positiveInt('--budget', budget) };
  }
  const row = rowOf(first, RUN_OPTIONS);
  const rebuild = rest.includes('--rebuild');
  const opts = readOptions(rest.filter((a) => a !== '--rebuild'), ['--workers', '--limit', '--shard', '--db']);
  if (rest.filter((a) => a === '--rebuild').length > 1) throw new UsageError('option --rebuild given twice; give it once');
  const workers = opts.has('--workers') ? positiveInt('--workers', opts.get('--workers')) : undefined;
  const limit = opts.has('--limit') ? positiveInt('--limit', opts.get('--limit')) : undefined;
  const shard = opts.get('--shard');
  const db = opts.get('--db');
  if (db !== undefined && shard === undefined) throw new UsageError(`option --db: only with --shard (a row's own database is ${row.db})`);
  if (db === '') throw new UsageError('option --db: give a file name');
  let sh: ShardOption | undefined;
  if (shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(shard);
    const [k, n] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
    if (!m || !(n >= 1) || !(k < n)) throw new UsageError(`option --shard ${JSON.stringify(shard)}: give K/N with 0 <= K < N, e.g. 0/32`);
    sh = db !== undefined ? { index: k, count: n, db } : { index: k, count: n, db: `${RESULTS_DIR}/shards/${row.id}-${k}.sqlite`, rooted: true };
  }
  return { kind: 'run', row, ...(workers !== undefined ? { workers } : {}), ...(limit !== undefined ? { limit } : {}), ...(sh ? { shard: sh } : {}), ...(rebuild ? { rebuild } : {}) };
}

/**
 * How a sitting relates the row's database to its committed files (export.ts carryPlan): with the
 * database here, as it was begun; without it, carrying the committed deals over, or (`rebuild`) from
 * the row's first deal (null). A string: why the sitting is refused (committed deals that cannot be
 * carried over: another solver version's, or a CSV that does not hold them; `--rebuild` with a
 * database begun from the committed files).
 */
function sittingPlan(row: ResultsRow, root: string, rebuild?: boolean): Carried | null | string {
  const here = existsSync(join(root, row.db));
  if (!rebuild) {
    try {
      return carryPlan(row, root, SOLVER_VERSION);
    } catch (e) {
      // committed deals that cannot be carried over (another solver version's, a damaged CSV): refused
      return (e as Error).message;
    }
  }
  if (here && carryPlan(row, root, SOLVER_VERSION)) return `--rebuild: ${shownPath(root, row.db)} was begun from the committed files, not from the row's first deal; remove it to rebuild the row from its first deal`;
  return null;
}

/**
 * Before a sitting's batch: with no database here, records in the summary how the new database will
 * relate to the committed files (export.ts recordPlan), and says on stderr what it carries over.
 */
function beginDatabase(row: ResultsRow, root: string, plan: Carried | null): void {
  if (existsSync(join(root, row.db))) return;
  recordPlan(row, root, plan);
  if (!plan) return;
  const again = plan.rerun?.length ? `, and runs again the ${plan.rerun.length} of them not yet at its top rung of ${row.budgets[row.budgets.length - 1]!.toLocaleString('en-US')} positions` : '';
  process.stderr.write(`results: ${row.id}: ${shownPath(root, row.db)} is not here; the row goes on after the ${plan.deals.toLocaleString('en-US')} deals of its committed files${again} (--rebuild runs it from the first deal)\n`);
}

/** The command a row's table entry gives: the `results` command, with its limit when partial. */
export function rowCommand(row: ResultsRow, limit?: number): string {
  return `npm run results -- ${row.id}${limit !== undefined && limit < row.count ? ` --limit ${limit}` : ''}`;
}

/** CPU seconds (user + system) of this process's waited-for children, from /proc/self/stat (Linux; clock ticks of 1/100 s); null elsewhere. */
export function childrenCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields after the command: state is field 3 of stat(5), so cutime (16) and cstime (17) are at 13 and 14 here
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** The deals the row's database counts, with those it carries over (rowProgress); 0 when the database is absent. */
function counted(row: ResultsRow, root: string): number {
  return existsSync(join(root, row.db)) ? rowProgress(row, root).counted : 0;
}

/**
 * Is a sitting recorded in the row's summary? When it did some work: counted more deals, took deals
 * up the budget ladder (fewer deals not yet at every rung: a sitting that runs only the upper rungs
 * counts no new deal, and its CPU time belongs in the row's), or was interrupted (exit 130). A sitting
 * that found everything done is not recorded.
 */
export function sittingWorked(before: { counted: number; unfinished: number }, after: { counted: number; unfinished: number }, exit: number): boolean {
  return after.counted > before.counted || after.unfinished < before.unfinished || exit === 130;
}

/**
 * How far the row is: the deals it counts (with those carried over from its committed files when its
 * database was begun from them: export.ts countedDeals), and of those the deals not yet at every rung
 * of its ladder; with no database, what the committed files would carry (none without them).
 */
function rowProgress(row: ResultsRow, root: string): { counted: number; unfinished: number } {
  if (!existsSync(join(root, row.db))) {
    const plan = carryPlan(row, root, SOLVER_VERSION);
    return { counted: plan?.deals ?? 0, unfinished: plan?.rerun?.length ?? 0 };
  }
  const deals = countedDeals(row, root, SOLVER_VERSION) ?? [];
  return { counted: deals.length, unfinished: deals.filter((d) => belowTop(row, d)).length };
}

/**
 * Why writing the row's committed files now would shrink them (null when it would not), one line of
 * about 150 characters: the row's summary (committed with its CSV) counts `committed` deals, and the
 * export would count `willCount`, fewer; `what` names the command refused (`export spider4`,
 * `spider4 --limit 200 --rebuild`), and the line ends with the command that would not shrink it.
 */
export function shrinkRefusal(row: ResultsRow, root: string, willCount: number, what: string): string | null {
  const committed = readSummary(summaryPath(row, root))?.counted ?? 0;
  if (willCount >= committed) return null;
  const n = (x: number) => x.toLocaleString('en-US');
  return `${what}: would shrink the committed row from ${n(committed)} to ${n(willCount)} deals; rebuild it first: ${rowCommand(row, committed)} --rebuild`;
}

/** `1 deal`, `2,000 deals`. */
function dealWords(n: number): string {
  return `${n.toLocaleString('en-US')} deal${n === 1 ? '' : 's'}`;
}

/** Runs `spidersolve batch` on the row's first `limit` deals; resolves with its exit status (a signal that ended it: 128 + its number). */
function runBatch(row: ResultsRow, root: string, plan: Carried | null, workers?: number, limit?: number, shard?: ShardOption): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    // the batch runs in the working folder, with the database named as it opens from there (a
    // shard's --db is the user's, relative to that folder), so its messages name it so too
    const db = shard ? (shard.rooted ? shownPath(root, shard.db) : shard.db) : shownPath(root, row.db);
    mkdirSync(dirname(resolve(db)), { recursive: true });
    const args = batchArgs({ ...row, db }, workers, shard ? { ...shard, db } : undefined);
    const child = spawn(process.execPath, spidersolveArgv(args), { cwd: process.cwd(), stdio: ['pipe', 'inherit', 'inherit'] });
    // Ctrl-C reaches the batch through the terminal's process group; a SIGTERM or SIGHUP sent to
    // this process alone is passed on. The batch then stores what it finished and exits 130.
    const pass = (s: NodeJS.Signals) => () => child.kill(s);
    const handlers: [NodeJS.Signals, () => void][] = [['SIGINT', () => {}], ['SIGTERM', pass('SIGTERM')], ['SIGHUP', pass('SIGHUP')]];
    for (const [s, h] of handlers) process.on(s, h);
    child.stdin.on('error', () => {}); // the batch refused its input before reading it all
    child.stdin.end(plannedList(row, plan, limit));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const [s, h] of handlers) process.off(s, h);
      resolvePromise(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : signal === 'SIGINT' ? 2 : 1));
    });
  });
}

function describe(s: RowSummary): string {
  const t = s.top;
  const c = t ? `won ${t.won}, lost ${t.lost}, undecided ${t.undecided}${t.errors ? `, errors ${t.errors}` : ''}` : 'no results';
  const n = (x: number) => x.toLocaleString('en-US');
  return `${s.title}: ${n(s.counted)} of ${n(s.planned)} deals (${c}); ${s.complete ? 'complete' : 'partial'}`;
}

/**
 * Writes docs/results.md from the rows' summaries and docs/results.html, its charts, from their
 * committed files (chart.ts committedHtml: no database is read, so any checkout writes the same page).
 */
async function writeTable(root: string): Promise<void> {
  const summaries = RESULTS_ROWS.map((r) => readSummary(summaryPath(r, root)));
  const csv = (r: ResultsRow) => (existsSync(join(root, r.csv)) ? readFileSync(join(root, r.csv), 'utf8') : null);
  const losses = (r: ResultsRow) => (existsSync(join(root, lossesPath(r))) ? readFileSync(join(root, lossesPath(r)), 'utf8') : null);
  writeAtomically(join(root, 'docs/results.md'), renderTable(RESULTS_ROWS, summaries, csv, losses));
  // paths as the user sees them from the working folder
  const show = (p: string) => shownPath(root, p);
  process.stdout.write(`results: wrote ${show('docs/results.md')}\n`);
  if (!summaries.some((s) => s?.counted)) return;
  writeAtomically(join(root, 'docs/results.html'), await committedHtml(RESULTS_ROWS, root, `spidersolve ${packageInfo()?.version ?? ''}`.trim()));
  process.stdout.write(`results: wrote ${show('docs/results.html')}\n`);
}

/**
 * `npm run results -- confirm ROW [--budget N]`: checks each loss of the row again (confirm.ts
 * confirmRow, the searches in a worker thread), one line on stderr a loss, then the count on stdout.
 * The losses are those of the solver version the row's exported summary names (an earlier one than
 * this solver's when the row was counted by it), or of this solver where none is exported.
 * Returns the exit status: 0 no loss contradicted, 1 one is, 2 the row has no database yet, and
 * EXIT_INTERRUPTED (130, as an interrupted batch) when `signal` fires: every answer already written
 * to ROW-losses.csv is kept and one line on stderr says how many losses were checked and that the
 * same command resumes.
 */
export async function confirmCommand(row: ResultsRow, root: string, budget: number, signal?: AbortSignal): Promise<number> {
  // with no database, the committed files' losses are checked (a new checkout)
  if (!existsSync(join(root, row.db)) && !(readSummary(summaryPath(row, root))?.counted)) {
    process.stderr.write(`results: confirm ${row.id}: the row has no results yet (no database, ${shownPath(root, row.db)}, and no committed files); run ${rowCommand(row)} first\n`);
    return 2;
  }
  let reused = 0;
  let losses = 0;
  const worker = workerLossChecker();
  let checks: LossCheck[];
  // the losses of the row as exported: a row counted by an earlier solver version is checked as it is
  // committed (its database holds that version's results), not refused as a run of it would be
  const version = readSummary(summaryPath(row, root))?.solverVersion ?? SOLVER_VERSION;
  try {
    checks = await confirmRow(row, root, version, budget, (c, i, of, fromFile) => {
      if (fromFile) reused++;
      const answer = c.check === 'lost' ? 'confirmed' : c.check === 'won' ? 'CONTRADICTED (won)' : 'undecided';
      process.stderr.write(`results: ${row.id} loss ${i + 1}/${of} ${c.deal}: ${answer} in ${c.checkPositions.toLocaleString('en-US')} positions (the solve: ${c.solverPositions.toLocaleString('en-US')})${fromFile ? `, as the file had it (checked at ${c.checkBudget.toLocaleString('en-US')})` : ''}\n`);
    }, { signal, check: worker.check, onPlan: (n) => (losses = n) });
  } finally {
    await worker.close();
  }
  if (signal?.aborted) {
    const command = `npm run results -- confirm ${row.id}${budget !== CHECK_BUDGET ? ` --budget ${budget}` : ''}`;
    process.stderr.write(`results: confirm ${row.id} interrupted: ${checks.length} of ${losses} ${losses === 1 ? 'loss' : 'losses'} checked, kept in ${shownPath(root, lossesPath(row))}; the same command resumes: ${command}\n`);
    return EXIT_INTERRUPTED;
  }
  if (losses === 0) {
    process.stdout.write(`results: ${row.title}: the row has no losses; nothing to check\n`);
    return 0;
  }
  const n = (s: string) => checks.filter((c) => c.check === s).length;
  process.stdout.write(`results: ${row.title}: ${checks.length} ${checks.length === 1 ? 'loss' : 'losses'} checked without the solver's reductions (${checks.length - reused} searched now at ${budget.toLocaleString('en-US')} positions, ${reused} answered before): ${n('lost')} confirmed, ${n('undecided')} undecided, ${n('won')} contradicted; wrote ${shownPath(root, lossesPath(row))}\n`);
  return n('won') > 0 ? 1 : 0;
}

/** Runs the `results` command on `args`; returns its exit status. */
export async function resultsMain(args: readonly string[], root = process.env.RESULTS_ROOT || PROJECT_ROOT): Promise<number> {
  let cmd: ResultsCommand;
  try {
    cmd = parseResultsArgs(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`results: ${e.message}\n`);
    return 2;
  }
  switch (cmd.kind) {
    case 'help':
      process.stdout.write(USAGE + '\n');
      return 0;
    case 'usage':
      process.stderr.write(`results: no row or command given\n${USAGE}\n`);
      return 2;
    case 'rows':
      for (const r of RESULTS_ROWS) process.stdout.write(`${r.id}\t${r.title}\t${r.count} deals (${r.source.kind === 'pysol' ? `pysol:${r.source.pysol}:1-${r.count}` : `seeds 1-${r.count}`})\tladder ${r.budgets.join(',')}\t${shownPath(root, r.db)}\n`);
      return 0;
    case 'export': {
      if (!existsSync(join(root, cmd.row.db))) {
        // nothing to export from: the committed files, if any, stay as they are
        const committed = readSummary(summaryPath(cmd.row, root))?.counted ?? 0;
        if (committed > 0) {
          process.stdout.write(`results: export ${cmd.row.id}: ${shownPath(root, cmd.row.db)} is not here (not in git); the committed files hold the row's ${committed.toLocaleString('en-US')} deals as they are: nothing to export\n`);
          return 0;
        }
        process.stderr.write(`results: export ${cmd.row.id}: the row has no results yet (no database, ${shownPath(root, cmd.row.db)}, and no committed files); run ${rowCommand(cmd.row)} first\n`);
        return 2;
      }
      const refusal = shrinkRefusal(cmd.row, root, counted(cmd.row, root), `export ${cmd.row.id}`);
      if (refusal) {
        process.stderr.write(`results: ${refusal}\n`);
        return 2;
      }
      process.stdout.write(describe(exportRow(cmd.row, root, SOLVER_VERSION)) + '\n');
      return 0;
    }
    case 'confirm': {
      // Ctrl-C, SIGTERM or SIGHUP stop the checks as they stop a batch (a second one quits at once)
      const stop = abortOnSignals();
      try {
        return await confirmCommand(cmd.row, root, cmd.budget, stop.signal);
      } finally {
        stop.dispose();
      }
    }
    case 'table':
      await writeTable(root);
      return 0;
    case 'merge':
      return mergeShards(cmd.row, root, cmd.files);
    case 'run': {
      const { row, workers, limit, shard, rebuild } = cmd;
      const plan = sittingPlan(row, root, rebuild);
      if (typeof plan === 'string') {
        process.stderr.write(`results: ${plan}\n`);
        return 2;
      }
      // a rebuild with no database begins from nothing; otherwise the row as it stands (carried over)
      const here = existsSync(join(root, row.db));
      const before = rebuild && !here ? { counted: 0, unfinished: 0 } : rowProgress(row, root);
      const upTo = Math.min(limit ?? row.count, row.count);
      if (!(rebuild && !here) && before.unfinished === 0 && upTo <= before.counted) {
        const n = (x: number) => x.toLocaleString('en-US');
        process.stdout.write(before.counted >= row.count
          ? `results: ${row.title}: the row is complete (${n(before.counted)} of ${n(row.count)} deals, each at every rung); nothing to run\n`
          : `results: ${row.title}: the row already counts ${n(before.counted)} deals, each at every rung; nothing to run (a --limit above ${n(before.counted)} goes on after them)\n`);
        return 0;
      }
      if (shard) return runShard(row, root, shard, plan, workers, limit);
      const refusal = shrinkRefusal(row, root, Math.max(upTo, before.counted), rowCommand(row, limit).replace(/^npm run results -- /, ''));
      if (refusal) {
        process.stderr.write(`results: ${refusal}\n`);
        return 2;
      }
      beginDatabase(row, root, plan);
      const cpu0 = childrenCpuSeconds();
      const t0 = Date.now();
      const code = await runBatch(row, root, plan, workers, limit);
      const cpu1 = childrenCpuSeconds();
      if (code !== 0 && code !== 130) return code; // refused or failed: nothing new to export
      const after = rowProgress(row, root);
      const sitting: Sitting = {
        endedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        command: rowCommand(row, limit) + (workers !== undefined ? ` --workers ${workers}` : '') + (rebuild ? ' --rebuild' : ''),
        workers: workers ?? null, exit: code, dealsBefore: before.counted, dealsAfter: after.counted,
        cpuSeconds: cpu0 !== null && cpu1 !== null ? Math.round((cpu1 - cpu0) * 100) / 100 : -1,
        wallSeconds: Math.round((Date.now() - t0) / 100) / 10,
      };
      const s = exportRow(row, root, SOLVER_VERSION, sittingWorked(before, after, code) ? sitting : undefined);
      process.stdout.write(`results: ${describe(s)}; this sitting ${dealWords(after.counted - before.counted)}, ${sitting.cpuSeconds} CPU s; wrote ${shownPath(root, row.csv)}\n`);
      if (code === 130) process.stderr.write(`results: interrupted; what was finished is kept and exported; to resume: ${sitting.command}\n`);
      return code;
    }
  }
}

/** Path of the sittings recorded beside a shard's database (`FILE.sittings.json`): a JSON array of Sitting. */
export function shardSittingsPath(db: string): string {
  return `${db}.sittings.json`;
}

function readSittings(path: string): Sitting[] {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Sitting[]) : [];
}

/** The deals a shard's own database counts (0 when it is absent). */
function shardCounted(row: ResultsRow, db: string): number {
  return existsSync(db) ? rowDeals(row, db, SOLVER_VERSION)?.length ?? 0 : 0;
}

/** Runs shard K/N of a row into its own database and records the sitting beside it; no export (the merge exports). */
async function runShard(row: ResultsRow, root: string, shard: ShardOption, plan: Carried | null, workers?: number, limit?: number): Promise<number> {
  if (shard.rooted) shard = { ...shard, db: shownPath(root, shard.db), rooted: false };
  const cpu0 = childrenCpuSeconds();
  const t0 = Date.now();
  const before = shardCounted(row, shard.db);
  const code = await runBatch(row, root, plan, workers, limit, shard);
  const cpu1 = childrenCpuSeconds();
  if (code !== 0 && code !== 130) return code;
  // the row's summary says how the shards' deals relate to its committed files, for the merge's export
  beginDatabase(row, root, plan);
  const after = shardCounted(row, shard.db);
  const sitting: Sitting = {
    endedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    command: `${rowCommand(row, limit)} --shard ${shard.index}/${shard.count}${workers !== undefined ? ` --workers ${workers}` : ''}`,
    workers: workers ?? null, exit: code, dealsBefore: before, dealsAfter: after,
    cpuSeconds: cpu0 !== null && cpu1 !== null ? Math.round((cpu1 - cpu0) * 100) / 100 : -1,
    wallSeconds: Math.round((Date.now() - t0) / 100) / 10,
  };
  const path = shardSittingsPath(shard.db);
  writeAtomically(path, JSON.stringify([...readSittings(path), sitting], null, 2) + '\n');
  process.stdout.write(`results: ${row.title}, shard ${shard.index}/${shard.count}: ${after} deals counted in ${shard.db}; this sitting ${after - before} deals, ${sitting.cpuSeconds} CPU s\n`);
  return code;
}

/** Merges shard databases into the row's database with `spidersolve merge`, then exports the row with the shards' sittings added (each once). */
async function mergeShards(row: ResultsRow, root: string, files: readonly string[]): Promise<number> {
  // a shard database that is not there is named here, before the merge reads any (exit 2)
  const gone = files.find((f) => !existsSync(f));
  if (gone !== undefined) {
    process.stderr.write(`results: merge ${row.id}: shard database ${JSON.stringify(gone)}: no such file; nothing was merged\n`);
    return 2;
  }
  // its lines on stderr are said as every results line is, after `results: merge ROW:`
  const run = spawnSync(process.execPath, spidersolveArgv(['merge', '--into', join(root, row.db), ...files]), { stdio: ['inherit', 'inherit', 'pipe'], encoding: 'utf8' });
  process.stderr.write((run.stderr ?? '').replace(/^spidersolve: (merge: )?/gm, `results: merge ${row.id}: `));
  const code = run.status ?? 1;
  if (code !== 0) return code;
  const known = new Set((readSummary(summaryPath(row, root))?.sittings ?? []).map((x) => JSON.stringify(x)));
  const added = files.flatMap((f) => readSittings(shardSittingsPath(f))).filter((x) => !known.has(JSON.stringify(x)));
  let s = exportRow(row, root, SOLVER_VERSION);
  for (const x of added) s = exportRow(row, root, SOLVER_VERSION, x);
  process.stdout.write(`results: ${describe(s)}; wrote ${shownPath(root, row.csv)}\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = await resultsMain(process.argv.slice(2));
  } catch (e) {
    // a database that is not ours or damaged, a summary file edited into bad JSON: one line, no stack
    process.stderr.write(`results: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
    process.exitCode = e instanceof InputError || e instanceof SyntaxError ? 2 : 1;
  }
}
