/**
 * The `batch`, `report` and `export` commands: option parsing and printing only. The work is in
 * src/batch (runner: pool + store + progress; report: aggregation; store: SQLite). Bad input throws
 * InputError; main.ts prints `spidersolve: <message>` and exits 2. An interrupted batch exits 130.
 */
import { closeSync, constants, createReadStream, fstatSync, open, openSync, readSync, rmSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { isatty, ReadStream } from 'node:tty';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import { stringify } from 'csv-stringify';
import { INVISIBLE_CLASS, InputError, pathForMessage, quoteInput, wholeNumber } from '../game/errors.js';
import { loadDeal } from '../game/ref.js';
import type { GameName, SuitCount } from '../game/variant.js';
import { dealsFileName, parseSeeds, parseSuitsList, planStudy, type PlannedDeal, type StudyPlanSpec } from '../batch/deals.js';
import { canonicalPath, databaseFiles, fileInTheWay, isSqliteFile, makeDirs, sameFileAs, sqliteSidecarOf, statOrNull, writeFileAtomically, writeTextAtomically } from '../batch/files.js';
import { isDamagedDatabase, oneLine } from '../batch/faults.js';
import { defaultWorkerCount } from '../batch/pool.js';
import { createProgress, NO_PROGRESS } from '../batch/progress.js';
import { budgetWords, isPartial, type ReportRow } from '../batch/report.js';
import { formatCsv, markdownLegend, REPORT_LEGEND, partialOfRows, partialStudyNotes, formatReport, formatTable, markdownText, rowsAsRecords, type ReportFormat } from '../report/text.js';
import { runBatch, type BatchSummary } from '../batch/runner.js';
import { abortOnSignals, endIfHungUp } from './stopSignals.js';
import { makeShard, resolveShard, shardSize, type Shard } from '../batch/shard.js';
import { RESULT_COLUMNS, ResultStore, type ResultFilter, type StudyInfo, type StudyParams } from '../batch/store.js';
import { studyHolds } from '../batch/studyParams.js';
import { DEFAULT_MAX_POSITIONS, MAX_MAX_POSITIONS } from '../solver/types.js';
import { parsePlayerSpec, PLAYER_HELP, specText } from '../blind/players/index.js';
import type { BlindReportRow } from '../batch/blind.js';
import { BLIND_LEGEND, BLIND_REPORT_COLUMNS, blindRecords, formatBlindTable } from '../report/blindText.js';
import { stringify as csvStringify } from 'csv-stringify/sync';
import { BATCH_QUIET_HELP, dbOption, formatOfOutFile, packageInfo, parseGameOption, parseIntOption, QUIET_HELP, QUIET_NOTHING_HELP, REPEATABLE, writeHtmlToStdout, wroteLine } from './common.js';
import { signalAtStage, takeOverEarlySignals } from './signals.js';

/** Exit status of a batch stopped by SIGINT, SIGTERM or SIGHUP (128 + SIGINT). */
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
  untilWidth?: string;
  json?: boolean;
  /** `--shard K/N`, or false for `--no-shard`. */
  shard?: string | boolean;
  shardCount?: string;
  /** `--player SPEC`: a blind study (src/blind players). */
  player?: string;
  /** `--player-seed S`: the blind player's seed (default 1). */
  playerSeed?: string;
  /** Set by the command's option listeners when both --shard and --no-shard were given. */
  shardAndNoShard?: boolean;
  /** `--quiet`: no progress bar or notes on stderr. */
  quiet?: boolean;
  /** `--seed [n]`, a hidden option: refused, naming --seeds and --player-seed (seedNotOption). */
  seed?: string | boolean;
}

/** A fully checked batch request (no file touched yet apart from reading the deals file). */
export interface BatchRequest {
  /** The plan (deals.ts planStudy): re-iterable; endless for an open seed range. */
  deals: Iterable<PlannedDeal>;
  /** Deals of a deals file left out by --game/--suits (0 for --seeds). */
  leftOut: number;
  /** Lines of a deals file that repeat a deal of an earlier line, merged into it (0 for --seeds). */
  duplicates: number;
  maxPositions: number;
  /** The budget ladder (one budget without a ladder). */
  budgets: number[];
  /** --until-width, if given. */
  untilWidth?: number;
  workers: number;
  dbPath: string;
  study: string;
  studyParams: StudyParams;
  /**
   * The shard this process runs, or null for the whole study. `deals` stays the whole plan: the
   * runner walks it and runs only this shard's deals (so each keeps its place in the plan).
   */
  shard: Shard | null;
  /** Deals of the whole study's plan; null when it is open-ended. */
  studyDeals: number | null;
  /**
   * With no --study: the names the same options gave a study before, tried in this order:
   * before an open seed range read `1-up` (`spiderette-1-seeds-1--at-1M-positions-until-0.5`) and a
   * deals file of process substitution `pipe-63` (`63-at-1M-positions`), when they differ; and before
   * the default names said `at` before the budgets (`spider-2-seeds-1-5-positions`).
   * defaultStudyName resumes such a study.
   */
  legacyStudies?: string[];
  /** A blind study's player (canonical spec) and player seed; absent for a solve study. */
  blind?: { player: string; seed: number };
}

/**
 * The study a batch with no --study runs: `req.study` (the default name), unless the database at
 * `req.dbPath` has no study of that name but has one under a name the same options gave before
 * (`req.legacyStudies`, in order: `spiderette-1-seeds-1--at-1M-positions-until-0.5`, now
 * `…-seeds-1-up-at-…`; `spider-2-seeds-1-5-positions`, now `spider-2-seeds-1-at-5-positions`) with
 * the same parameters: then that one, so that a study begun before is resumed, not begun again under
 * the new name. An old name that another design's study holds (the old names of seeds 1 with a ladder
 * 5,10 and of seeds 1-5 at 10 were the same) is not taken. A database that is absent, empty or cannot
 * be read here gives the default name (the batch then says what is wrong with it). Reads only.
 */
export function defaultStudyName(req: Pick<BatchRequest, 'study' | 'legacyStudies' | 'dbPath' | 'studyParams'>): string {
  const legacy = (req.legacyStudies ?? []).filter((n) => n !== req.study);
  if (legacy.length === 0 || !(statOrNull(req.dbPath)?.size ?? 0)) return req.study;
  let store: ResultStore;
  try {
    store = ResultStore.openForReading(req.dbPath);
  } catch {
    return req.study;
  }
  try {
    if (store.studyId(req.study) !== undefined) return req.study;
    for (const old of legacy) {
      if (store.studyId(old) === undefined) continue;
      try {
        store.checkStudyParams(old, req.studyParams);
        return old;
      } catch {
        // another design under the old name
      }
    }
    return req.study;
  } catch {
    return req.study;
  } finally {
    store.close();
  }
}

/**
 * Checks `batch` options and builds the deal list. Throws InputError (`bad-option`, `bad-file`,
 * `bad-reference`) for: unknown game, bad suit list, bad or empty seed range, both or neither of
 * --seeds/--deals, bad --max-positions/--workers, any bad line of the deals file.
 */
export function parseBatchOptions(o: BatchCliOptions, env: NodeJS.ProcessEnv = process.env, dealsText?: string): BatchRequest {
  if (o.seed !== undefined) throw seedNotOption(o.seed);
  // the shard first: a bad --shard or scheduler variable is refused before a deals file is read
  const shard = resolveShard(o, env);
  if ((o.seeds === undefined) === (o.deals === undefined)) {
    throw new InputError('bad-option', 'batch: give exactly one of --seeds <range> or --deals <file>');
  }
  // the name before anything is read: a bad one is refused without reading a deals file
  if (o.study !== undefined) checkStudyName(o.study.trim(), `option --study ${quoteInput(printableName(o.study))}`);
  const game: GameName | undefined = o.game === undefined ? undefined : parseGameOption(o.game);
  const suits: SuitCount[] | undefined = o.suits === undefined ? undefined : parseSuitsList(o.suits);
  const blind = parseBlindOptions(o);
  const budgets = blind ? [0] : o.maxPositions === undefined ? [DEFAULT_MAX_POSITIONS] : parseBudgets(o.maxPositions);
  const maxPositions = budgets[0]!;
  const untilWidth = o.untilWidth === undefined ? undefined : parseWidth(o.untilWidth);
  if (untilWidth !== undefined && budgets.length > 1) {
    throw new InputError('bad-option', 'option --until-width: give one budget with it (--max-positions N), not a ladder');
  }
  if (untilWidth !== undefined && shard) {
    // a ladder is fine per shard (each deal's rungs are its own); the stopping rule is not
    throw new InputError(
      'bad-option',
      `option --until-width cannot run as a shard (shard ${makeShard(shard)}, from ${shard.source}): its rule stops at the first prefix of the plan, in order, ` +
        'whose band is narrow enough, and no shard sees the whole prefix; run it as one batch (--no-shard inside a job array), or shard a fixed seed range without it',
    );
  }
  const workers = o.workers === undefined ? Math.min(defaultWorkerCount(), MAX_WORKERS) : parseIntOption('workers', o.workers, 1, MAX_WORKERS);
  let spec: StudyPlanSpec;
  let dealsSpec: string;
  let defaultName: string;
  let legacyNames: string[];
  // the budgets after "at", so that the seeds before them read as the seeds (`seeds-1-at-5-positions`,
  // not `seeds-1-5-positions`, which read as seeds 1-5); a ladder's as --max-positions takes them; a
  // blind study is named by its player (and its seed when not the default)
  const until = untilWidth !== undefined ? `-until-${untilWidth}` : '';
  const words = blind
    ? `blind-${blind.player}${blind.seed !== DEFAULT_PLAYER_SEED ? `-seed-${blind.seed}` : ''}`
    : `at-${budgets.map(budgetWords).join(',')}-positions${until}`;
  // the name the same options gave before: a study made then is still found under it (defaultStudyName)
  const legacyWords = blind ? words : `${budgets.map(budgetWords).join('-')}-positions${until}`;
  if (o.seeds !== undefined) {
    if (!game) throw new InputError('bad-option', 'batch --seeds: --game spider|spiderette is required');
    if (!suits) throw new InputError('bad-option', 'batch --seeds: --suits is required (a comma list of 1, 2, 4)');
    const ranges = parseSeeds(o.seeds, untilWidth !== undefined);
    spec = { kind: 'seeds', game, suits, ranges };
    const text = ranges.map((r) => (r.open ? `${r.from}-` : r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(',');
    dealsSpec = `seeds:${text}`;
    // an open range reads `1-up` in the name (`1-` made `seeds-1--at`); its spec keeps `1-`
    const named = ranges.map((r) => (r.open ? `${r.from}-up` : r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(',');
    defaultName = `${game}-${suits.join(',')}-seeds-${named}-${words}`;
    legacyNames = [`${game}-${suits.join(',')}-seeds-${text}-${words}`, `${game}-${suits.join(',')}-seeds-${text}-${legacyWords}`];
  } else {
    const path = o.deals!;
    spec = { kind: 'file', path, filter: { game, suits }, ...(dealsText !== undefined ? { text: dealsText } : {}) };
    // `-` (standard input) is planned as /dev/stdin, as it always was: its studies resume (`stdin-…`)
    const file = path === '-' ? '/dev/stdin' : path;
    dealsSpec = `file:${resolve(file)}`;
    const oldBase = basename(file, extname(file)) || 'deals';
    // a pipe of process substitution (`--deals <(grep … deals.txt)`: /dev/fd/63) is named `pipe-63`,
    // not `63`, as standard input is named `stdin`
    const fd = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(resolve(file));
    const base = fd ? `pipe-${fd[1]}` : oldBase;
    const filter = `${game ? `-${game}` : ''}${suits ? `-${suits.join(',')}` : ''}`;
    defaultName = `${base}${filter}-${words}`;
    legacyNames = [`${oldBase}${filter}-${words}`, `${oldBase}${filter}-${legacyWords}`];
  }
  const plan = planStudy(spec, loadDeal);
  if (shard && plan.planned === null) throw new InputError('bad-option', `shard ${makeShard(shard)}: an open-ended plan cannot be split into shards; give a closed seed range`);
  const study = o.study === undefined ? defaultName : o.study.trim();
  if (o.study === undefined) checkStudyName(study, `the study name from the deals file's name ${quoteInput(printableName(study))}`, '; give --study NAME');
  return {
    shard, studyDeals: plan.planned,
    deals: plan.deals, leftOut: plan.leftOut, duplicates: plan.duplicates, maxPositions, budgets, ...(untilWidth !== undefined ? { untilWidth } : {}),
    workers, dbPath: o.db, study,
    ...(o.study === undefined ? { legacyStudies: [...new Set(legacyNames.filter((n) => n !== study))] } : {}),
    studyParams: {
      game: game ?? null, suits: suits ? suits.join(',') : null, dealsSpec, maxPositions, budgets, untilWidth: untilWidth ?? null, planned: plan.planned,
      ...(blind ? { player: blind.player, playerSeed: blind.seed } : {}),
    },
    ...(blind ? { blind } : {}),
  };
}

/**
 * The error for `batch --seed` (a hidden option, so that commander does not answer "did you mean
 * --seeds?" alone): batch has two seeds, the deals' (`--seeds`) and the blind player's
 * (`--player-seed`, which `blind` once called --seed); the line names both, with the value given.
 * InputError `bad-option`.
 */
export function seedNotOption(value: string | boolean): InputError {
  const given = typeof value === 'string' ? ` ${quoteInput(value)}` : '';
  const v = typeof value === 'string' && /^\d+$/.test(value.trim()) ? value.trim() : null;
  return new InputError('bad-option', `option --seed${given}: batch has no --seed; give --seeds ${v ?? '<range>'} for the seeds of the deals (with --game and --suits), or --player-seed ${v ?? '<n>'} for the blind player's own seed (with --player)`);
}

/** The blind player's seed when --player-seed is not given (as in `blind`). */
export const DEFAULT_PLAYER_SEED = 1;

/**
 * `--player SPEC [--player-seed S]` of a blind study: the canonical spec and the seed, or undefined
 * for a solve study. Throws InputError `bad-option`: a bad spec (players/index.ts parsePlayerSpec),
 * a bad seed, --player-seed without --player, or --player with --max-positions or --until-width (a
 * blind game has no budget of its own: the player's spec holds the sample player's).
 */
export function parseBlindOptions(o: Pick<BatchCliOptions, 'player' | 'playerSeed' | 'maxPositions' | 'untilWidth'>): { player: string; seed: number } | undefined {
  if (o.player === undefined) {
    if (o.playerSeed !== undefined) throw new InputError('bad-option', 'option --player-seed: give it with --player (a blind study)');
    return undefined;
  }
  const player = specText(parsePlayerSpec(o.player));
  if (o.maxPositions !== undefined) throw new InputError('bad-option', `options --player and --max-positions: a blind study has no position budget (the sample player's is in its spec: --player sample:budget=N)`);
  if (o.untilWidth !== undefined) throw new InputError('bad-option', 'options --player and --until-width: a blind study plays a fixed list of deals; give --seeds A-B or --deals');
  const seed = o.playerSeed === undefined ? DEFAULT_PLAYER_SEED : parseIntOption('player-seed', o.playerSeed, 0, 0xffffffff);
  return { player, seed };
}

/**
 * Characters a study name may not hold: control characters (C0, DEL and C1, Unicode category Cc: a tab,
 * a newline, an escape that would drive the terminal), invisible format characters such as bidirectional
 * overrides and zero-width spaces (Cf) and the blank fillers that show as nothing (errors.ts
 * INVISIBLE_CLASS), and the line and paragraph separators (Zl, Zp). Everything else
 * printable is allowed: letters and digits of any script, spaces, punctuation, symbols.
 */
const BAD_NAME_CHARS = new RegExp(`[\\p{Cc}\\p{Zl}\\p{Zp}${INVISIBLE_CLASS}]`, 'gu');

/** The longest study name accepted, in characters (UTF-16 code units). */
export const MAX_STUDY_NAME = 200;

/** `s` with every character a study name may not hold written as `\u{hex}`, safe in a one-line message. */
export function printableName(s: string): string {
  return s.replace(BAD_NAME_CHARS, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/**
 * Refuses a study name that is empty, longer than MAX_STUDY_NAME, or holds a character of
 * BAD_NAME_CHARS (names are printed in tables and messages as they are). Throws InputError
 * `bad-option`: `<what>: control characters are not allowed in a study name (\u{9}, \u{1b})<hint>` (or
 * "invisible characters", for format characters such as a zero-width space and line separators, or
 * "control and invisible characters", for both).
 */
export function checkStudyName(name: string, what: string, hint = ''): void {
  if (name === '') throw new InputError('bad-option', `${what}: the name is empty${hint}`);
  const bad = [...new Set(name.match(BAD_NAME_CHARS) ?? [])];
  if (bad.length) {
    // named as docs/commands.md names them: control characters (Cc), invisible ones (format characters, line and paragraph separators)
    const control = bad.filter((c) => /\p{Cc}/u.test(c)).length;
    const kind = control === bad.length ? 'control characters are' : control === 0 ? 'invisible characters are' : 'control and invisible characters are';
    throw new InputError('bad-option', `${what}: ${kind} not allowed in a study name (${bad.map(printableName).join(', ')}); use printable characters only${hint}`);
  }
  if (name.length > MAX_STUDY_NAME) throw new InputError('bad-option', `${what}: the name is ${name.length} characters long; at most ${MAX_STUDY_NAME} are allowed${hint}`);
}

/**
 * Parses `--max-positions`: one budget, or an increasing comma list (a ladder), each 1..MAX_MAX_POSITIONS.
 * Throws InputError `bad-option`.
 */
export function parseBudgets(text: string): number[] {
  const parts = String(text).split(',');
  if (parts.length === 1) return [parseIntOption('max-positions', text, 1, MAX_MAX_POSITIONS)];
  const whole = `option --max-positions ${quoteInput(String(text))}`;
  // a ladder that is not one: said of the whole option as typed; a budget written with thousands
  // separators (20,000: 20 then 0) is told so: groups of three digits after a first of one to three,
  // one of them starting with 0 (0,100, 100,100 and 100,200,150 are ladders, told what is wrong)
  const fault = (why: string): never => {
    if (/^\s*[1-9]\d{0,2}(,\d{3})+\s*$/.test(String(text)) && /,0/.test(String(text))) {
      throw new InputError('bad-option', `${whole}: write a budget without separators (${String(text).replace(/[\s,]/g, '')}); a comma separates the budgets of a ladder, which increase (1000000,4000000)`);
    }
    throw new InputError('bad-option', `${whole}: ${why}`);
  };
  const out = parts.map((p) => {
    const n = wholeNumber(p, 1, MAX_MAX_POSITIONS);
    return 'why' in n ? fault(`budget ${quoteInput(p)}: ${n.why}`) : n.value;
  });
  for (let i = 1; i < out.length; i++) {
    if (out[i]! <= out[i - 1]!) fault(`a ladder's budgets must increase (${out[i - 1]} then ${out[i]})`);
  }
  return out;
}

/** Parses `--until-width`: a number in (0, 1), e.g. 0.01. Throws InputError `bad-option`. */
export function parseWidth(text: string): number {
  const t = String(text).trim();
  const n = /^(0?\.\d+|0|1(\.0*)?)$/.test(t) ? Number(t) : NaN;
  if (!(n > 0 && n < 1)) throw new InputError('bad-option', `option --until-width ${quoteInput(text)}: give a width above 0 and below 1 as a plain decimal, such as 0.01 (one percentage point; not 1e-2 or 1%)`);
  return n;
}

/** A word safe to paste into a POSIX shell. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line that resumes this run: `npx spidersolve` and the same arguments — runnable from the
 * project's folder however the batch was started (npx, `npm run study`, `node bin/spidersolve.js`),
 * and wherever spidersolve is on the PATH. Run from outside the project's folder (`cwd`), where npx
 * would look for spidersolve in npm's registry, it is `node /path/to/bin/spidersolve.js` instead,
 * to be run from that same folder, as the arguments' relative paths are.
 * Started by `npm run` from another folder (`shellCwd`, npm's INIT_CWD), it begins `cd <cwd> && `.
 * `envShard` (`K/N`): the shard the scheduler's environment gave (a Slurm array task, a Kubernetes
 * Indexed Job), added as `--shard K/N`, so that the command run by hand, outside the scheduler,
 * resumes that shard and not the whole study.
 */
export function resumeCommand(argv: readonly string[] = process.argv.slice(2), envShard: string | null = null, cwd = process.cwd(), shellCwd = process.env.INIT_CWD): string {
  const root = packageInfo()?.root ?? null;
  const rel = root === null ? '' : relative(root, cwd);
  const inside = root === null || !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
  const program = inside ? 'npx spidersolve' : `node ${shellQuote(join(root, 'bin', 'spidersolve.js'))}`;
  // run by `npm run …` from another folder (npm runs a script in the project's folder and leaves the
  // user's in INIT_CWD): the arguments' relative paths are the project folder's, so the command goes
  // there first (else `npm run study` from a subfolder would print a --deals it cannot find)
  const cd = shellCwd !== undefined && shellCwd !== '' && resolve(shellCwd) !== resolve(cwd) ? `cd ${shellQuote(cwd)} && ` : '';
  return cd + [program, ...argv.map(shellQuote), ...(envShard === null ? [] : ['--shard', envShard])].join(' ');
}

/** What a sharded batch prints about its shard (`shard` in `--json`). */
export interface ShardInfo {
  /** `K/N`, K counting from 0. */
  shard: string;
  index: number;
  count: number;
  /** Where K/N came from: `--shard 3/32`, or the scheduler's variables. */
  source: string;
  /** Deals of this shard (the summary's `planned`). */
  deals: number;
  /** Deals of the whole study's plan. */
  studyDeals: number;
}

function shardInfo(req: BatchRequest): ShardInfo | null {
  const s = req.shard;
  if (!s || req.studyDeals === null) return null;
  return { shard: makeShard(s), index: s.index, count: s.count, source: s.source, deals: shardSize(req.studyDeals, s), studyDeals: req.studyDeals };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The text summary of a batch (stdout); `leftOut`: lines of the file whose deal --game/--suits left out;
 * `duplicates`: lines of the file that repeat a deal of an earlier line, or deals that overlapping seed
 * ranges give twice (`of` says which; each planned once). With a ladder
 * the run's count is of solves (a deal may be solved at several rungs), and the deals already there
 * are those with a result at the first rung, whatever it is (an undecided one may still be solved at
 * the next rungs). An interrupted run's table ends with report's line for a partial study
 * (src/report/text.ts partialStudyNotes).
 */
export function formatBatchSummary(s: BatchSummary, leftOut = 0, shard: ShardInfo | null = null, duplicates = 0, of: 'lines' | 'seeds' = 'lines'): string {
  const ladder = s.budgets.length > 1 ? `budget ladder ${s.budgets.map((b) => b.toLocaleString('en-US')).join(', ')} positions` : `budget ${s.maxPositions.toLocaleString('en-US')} position${s.maxPositions === 1 ? '' : 's'}`;
  const many = s.budgets.length > 1;
  // the deals left; a ladder's solves are not deals, so it says its deals done and left, which make
  // the plan; the deals solved now but not counted are among those left, said so
  // that the line adds up (else 92 run now and 96 left of 180 would read as deals lost)
  let left = '';
  if (s.remaining !== null) {
    left = many && s.planned !== null ? `; ${s.planned - s.remaining} of its deals done (won or lost at a rung, or undecided at the last), ${s.remaining} left` : `, ${s.remaining} left`;
    if (s.uncounted > 0) left += ` (${s.uncounted} of them solved by this run, counted by the next)`;
  }
  const lines = [
    `study ${s.study}${s.interrupted ? ' (interrupted)' : s.stopReason ? ' (stopped by its rule)' : ''}`,
    ...(shard ? [`  shard ${shard.shard} (${shard.source}): ${shard.deals} of the study's ${shard.studyDeals} deals`] : []),
    `  deals ${s.planned ?? 'open-ended'}: ${s.skipped} already ${many ? 'stored at the first rung (won, lost or undecided there)' : 'settled'}, ` +
      `${s.ran} ${many ? `solve${s.ran === 1 ? '' : 's'} over the ${s.budgets.length} rungs run now` : 'run now'}` +
      // deals a worker had begun when the rule stopped the study are stored but not counted: said
      // here, so that the plan's count and the deals run now do not read as a contradiction
      ((s.pastStop ?? 0) > 0 ? ` (${s.pastStop} of them past the rule's stop: stored, not counted)` : '') +
      ` in ${seconds(s.elapsedMs)}` +
      // the rate and the workers of what ran; none when nothing ran ("0.0 deals/s" would read as a
      // stalled pool, and a run with nothing to do starts no more than one worker, whatever --workers says)
      (s.ran > 0 ? ` (${s.dealsPerSecond.toFixed(1)} ${many ? 'solves' : 'deals'}/s, ${s.workers} worker${s.workers > 1 ? 's' : ''})` : '') + left +
      (leftOut > 0 ? `; ${leftOut} line${leftOut === 1 ? '' : 's'} of other games or suit counts in the file left out` : '') +
      (duplicates > 0
        ? of === 'seeds'
          ? `; ${duplicates} deal${duplicates === 1 ? '' : 's'} of overlapping seed ranges planned once`
          : `; ${duplicates} duplicate line${duplicates === 1 ? '' : 's'} of the file merged (the same deal twice is planned once)`
        : ''),
    (s.blind ? `  this run: won ${s.won}, stuck ${s.lost}, errors ${s.errors}` : `  this run${many ? `'s ${s.ran} solve${s.ran === 1 ? '' : 's'}` : ''}: won ${s.won}, lost ${s.lost}, undecided ${s.undecided}, errors ${s.errors}`) +
      (s.uncounted > 0 ? `; ${s.uncounted} of its deals stored but not counted yet (they follow a deal still running when it stopped; the next run counts them)` : ''),
    s.blind ? `  played blind by ${s.player}, player seed ${s.playerSeed}, version ${s.solverVersion}, database ${s.db}` : `  ${ladder}, solver ${s.solverVersion}, database ${s.db}`,
    ...(s.stopReason ? [`  stopped: ${s.stopReason}`] : []),
    '',
    ...(s.blind
      ? [s.blind.length > 0 ? formatBlindTable(s.blind).trimEnd() : 'no results', ...(s.blind.length > 0 ? BLIND_LEGEND : [])]
      : [formatTable(s.report).trimEnd(), ...(s.report.length > 0 ? REPORT_LEGEND : [])]),
    // an interrupted run's table counts part of the plan, and a shard's its shard of it: the line
    // report prints under it too (a shard's database counts its own deals of the study's plan); a
    // run not of a shard that falls short is an unfinished run, said so (no shards to miss)
    ...((s.interrupted || shard !== null) && s.counted !== null
      ? partialStudyNotes([{ name: s.study, planned: shard ? shard.studyDeals : s.planned, counted: s.counted, unfinished: s.unfinished ?? 0, stoppedAt: null, untilWidth: s.untilWidth ?? null, sharded: shard !== null }], printableName)
      : []),
  ];
  return lines.join('\n') + '\n';
}

/** Is `path` a pipe or a character device (a terminal), not a file that can be read at once? */
function isStream(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFIFO() || st.isCharacterDevice();
  } catch {
    return false; // planning says what is wrong with it
  }
}

/** Most bytes of a deals file read from a pipe or device (a string of V8 holds at most 512 MiB). */
export const MAX_STREAMED_DEALS_BYTES = 256 * 1024 * 1024;

/** readUnlessStopped's answer for a pipe or device that gave more than MAX_STREAMED_DEALS_BYTES. */
const TOO_LARGE = Symbol('too large');

/**
 * The whole text of `path` (UTF-8), a pipe, terminal or other character device, read without blocking
 * the program (the file is opened in a thread of its own, as a pipe's open waits for a writer; then
 * read as events come, so that no thread is left waiting when the process exits); null if `signal`
 * fires first; undefined if it cannot be opened (planning opens it again and says why); TOO_LARGE past
 * MAX_STREAMED_DEALS_BYTES. Reading stops at the first chunk holding a zero byte (/dev/zero, a binary
 * file): planning refuses such text as not a text file.
 */
function readUnlessStopped(path: string, signal: AbortSignal): Promise<string | null | undefined | typeof TOO_LARGE> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(null);
    let stream: Readable | null = null;
    let settled = false;
    const finish = (v: string | null | undefined | typeof TOO_LARGE) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve(v);
    };
    const onAbort = () => {
      if (stream) stream.destroy();
      else {
        // our open() of a pipe with no writer yet waits in a thread, which the process would wait
        // for as it exits: open the pipe for writing a moment, which lets that open() return
        try {
          closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          // not a pipe, or no reader waiting
        }
      }
      finish(null);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    // collects the stream's text, up to MAX_STREAMED_DEALS_BYTES and to the first zero byte
    const read = (s: Readable): void => {
      stream = s;
      const chunks: Buffer[] = [];
      let bytes = 0;
      s.on('data', (c: Buffer) => {
        chunks.push(c);
        bytes += c.length;
        if (bytes > MAX_STREAMED_DEALS_BYTES) {
          s.destroy();
          finish(TOO_LARGE);
        } else if (c.includes(0)) {
          s.destroy();
          finish(Buffer.concat(chunks).toString('utf8'));
        }
      });
      s.on('error', () => finish(undefined));
      s.on('end', () => {
        s.destroy();
        finish(Buffer.concat(chunks).toString('utf8'));
      });
    };
    // `-`: the process's standard input itself, whatever it is (a socket cannot be opened by name)
    if (path === '-') return read(process.stdin);
    open(path, 'r', (e, fd) => {
      if (e) return finish(undefined);
      if (settled) return closeSync(fd);
      // a terminal or a pipe, read through the event loop (libuv's tty and pipe handles); another
      // character device (/dev/null, /dev/zero) through libuv's file reads
      let st;
      try {
        st = fstatSync(fd);
      } catch {
        closeSync(fd);
        return finish(undefined);
      }
      read(isatty(fd) ? new ReadStream(fd) : st.isFIFO() || st.isSocket() ? new Socket({ fd, readable: true, writable: false }) : createReadStream(path, { fd }));
    });
  });
}

async function batchAction(o: BatchCliOptions): Promise<void> {
  // `--deals -`: standard input (read as it is, a pipe, socket, file or terminal), named so in messages
  const stdin = o.deals === '-';
  // The handlers go in before any slow work (reading and checking a deals file, planning millions of
  // seeds, opening the database, starting the pool): a signal during that work then stops the batch
  // like any other — no deal dispatched, the summary, the resume command, exit 130 — instead of
  // killing the process or going unnoticed. runBatch looks at the signal once more before dispatch.
  // The bar is stopped before anything else is written to the terminal (progress.ts).
  signalAtStage('command');
  const progress = o.quiet ? NO_PROGRESS : createProgress(process.stderr);
  // notes on stderr (not errors, not the lines of an interruption): none with --quiet
  const note = (text: string): void => {
    if (!o.quiet) process.stderr.write(text);
  };
  const sig = abortOnSignals((name) => {
    progress.stop();
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}spidersolve: stopping; finished results are kept (${name === 'SIGINT' ? 'press Ctrl-C again' : 'a second signal'} to quit at once)\n`);
  });
  signalAtStage('handlers');
  // the early handler goes only now that these are in place, so that no signal falls between them
  // (signals.ts); one that came while the program was still loading counts as one now
  const early = takeOverEarlySignals();
  if (early !== null) process.emit(early, early);
  let summary: BatchSummary;
  let leftOut = 0;
  let duplicates = 0;
  let shard: ShardInfo | null = null;
  try {
    // a deals file that is a pipe or a terminal (/dev/stdin, a FIFO) may wait for its writer for
    // ever: it is read first, so that a signal stops the batch then, before anything is written
    let dealsText: string | undefined;
    if (o.deals !== undefined && o.seeds === undefined && (stdin || isStream(o.deals))) {
      const text = await readUnlessStopped(o.deals, sig.signal);
      if (text === null) {
        progress.stop();
        process.stderr.write(`spidersolve: interrupted while reading the deals of --deals ${dealsFileName(o.deals)}; nothing was run or written; to run it, the same command${stdin ? ', with the deals on its standard input' : ''}:\n  ${resumeCommand()}\n`);
        process.exit(EXIT_INTERRUPTED);
      }
      if (text === TOO_LARGE) throw new InputError('bad-file', `--deals ${dealsFileName(o.deals)}: more than ${MAX_STREAMED_DEALS_BYTES / 1024 / 1024} MiB of text; give a smaller deals file`);
      dealsText = text ?? undefined;
    }
    const req = parseBatchOptions(o, process.env, dealsText);
    const named = defaultStudyName(req);
    if (named !== req.study) {
      note(`spidersolve: note: resuming study "${printableName(named)}", named as the same options were named before; a new study of these options is named "${printableName(req.study)}"\n`);
      req.study = named;
    }
    leftOut = req.leftOut;
    duplicates = req.duplicates;
    shard = shardInfo(req);
    // on stderr at once, so that a scheduler's log of the task says which part it ran
    if (shard) note(`spidersolve: shard ${shard.shard} (${shard.source}): ${shard.deals} of the study's ${shard.studyDeals} deals, into ${req.dbPath}\n`);
    const runOptions = { ...req, shard: req.shard ?? undefined, shardFromEnvironment: req.shard !== null && typeof o.shard !== 'string' };
    // more workers than CPUs add memory (one table a worker), not speed; no more workers are
    // started than the run has deals left to run, so the note is of those started (told once the
    // study is open)
    const cpus = defaultWorkerCount();
    const onWorkers = (started: number): void => {
      if (started > cpus) note(`spidersolve: note: --workers ${req.workers} is more than this machine's ${cpus} CPU${cpus === 1 ? '' : 's'}: the extra workers add memory (up to a table of the budget each), not speed\n`);
    };
    signalAtStage('planned');
    summary = await runBatch({
      ...runOptions,
      signal: sig.signal,
      progress,
      // a line of its own, under the progress bar where one is drawn (the bar goes on below it)
      onNote: (text) => note(`${process.stderr.isTTY ? '\n' : ''}spidersolve: ${text}\n`),
      // test and benchmark hook: another worker module (e.g. a slowed-down one); not for users
      workerFile: process.env.SPIDERSOLVE_BATCH_WORKER || undefined,
      onStage: signalAtStage,
      onWorkers,
    });
  } finally {
    sig.dispose();
    // the terminal hung up: the results are stored and the run marked; end as a hung-up process does
    // (with the output in files, as under nohup, the batch ends as after SIGTERM: summary, exit 130)
    endIfHungUp(sig);
  }
  if (o.json) {
    const { report, blind, ...summed } = summary;
    // (suits in its place among the fields, as numbers)
    const rest = { ...summed, suits: suitCounts(summed.suits) };
    process.stdout.write(JSON.stringify({ ...(blind ? blindCounts(rest) : rest), leftOut, duplicates, shard, report: summaryRecords(summary), ...(blind ? { blind: blindRecords(blind) } : {}) }) + '\n');
  } else {
    process.stdout.write(formatBatchSummary(summary, leftOut, shard, duplicates, o.seeds !== undefined ? 'seeds' : 'lines'));
  }
  // an open seed range that ran out before the band was narrow enough: done (exit 0), and said so
  if (summary.seedsRanOut) note(`spidersolve: note: ${summary.seedsRanOut}\n`);
  if (summary.interrupted) {
    const left = summary.remaining === null ? 'interrupted' : `interrupted with ${summary.remaining} of ${summary.planned} deals left`;
    // deals read from standard input must come there again (typed as printed at a
    // terminal, the command waited for the keyboard)
    const again = stdin ? 'the same command, with the same deals on its standard input' : 'the same command';
    process.stderr.write(`spidersolve: ${left}; resume with ${again}:\n  ${resumeCommand(undefined, shard && typeof o.shard !== 'string' ? shard.shard : null)}\n`);
    process.exitCode = EXIT_INTERRUPTED; // main.ts keeps a status set by the command
  }
}

/**
 * The study's suit counts as `batch --json` gives them: the numbers of its `--suits` list, always an
 * array (`[4]`, `[1, 2]`: each a report row's `suits`), or null when none was given (a deals file
 * not filtered by suit count, whose deals may be of any).
 */
export function suitCounts(suits: string | null): number[] | null {
  return suits === null ? null : suits.split(',').map(Number);
}

/**
 * A blind study's `batch --json` summary counts its games as the text summary does: `won`, `stuck`,
 * `errors` (a blind game is won or stuck; the runner counts a stuck game under `lost`, and
 * `undecided` is always 0 there, so neither is printed). Other fields are kept, in their order.
 */
function blindCounts<T extends { lost: number; undecided: number }>(s: T): Omit<T, 'lost' | 'undecided'> & { stuck: number } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'lost') out.stuck = v;
    else if (k !== 'undecided') out[k] = v;
  }
  return out as Omit<T, 'lost' | 'undecided'> & { stuck: number };
}

/**
 * The batch summary's report rows as `batch --json` prints them: the same objects as `report --study
 * NAME --json` on the batch's database, `partial` included (read from the database after the run, for
 * each row's solver version, so that a stopped run's rows say so).
 */
function summaryRecords(s: BatchSummary): ReturnType<typeof rowsAsRecords> {
  const store = ResultStore.openForReading(s.db);
  try {
    return rowsAsRecords(s.report, rowsPartial(store, { studies: [s.study] }));
  } finally {
    store.close();
  }
}

/** The exit status of the commands that only read a database (report, export, studies), for their help. */
const READ_EXIT_HELP = '\n\nExit codes: 0 done, 2 bad input (one line on stderr), 1 the database held locked by another program for more than 10 s, a disk I/O or internal error.';

const REPORT_FORMATS: readonly ReportFormat[] = ['table', 'md', 'csv', 'json'];

/**
 * The report format an `--out` file's extension gives when --format is not given (common.ts
 * formatOfOutFile): `.html`/`.htm` html, `.md`/`.markdown` md, `.csv` csv, `.json` json, `.txt`
 * table; any other name, the table.
 */
export const REPORT_FORMAT_OF_EXTENSION: Readonly<Record<string, ReportFormat | PictureFormat>> = {
  '.html': 'html', '.htm': 'html', '.md': 'md', '.markdown': 'md', '.csv': 'csv', '.json': 'json', '.txt': 'table',
};
/** Each report format in words, for the note on an `--out` name that says another (wroteLine's note). */
const REPORT_FORMAT_WORDS: Readonly<Record<ReportFormat | PictureFormat, string>> = {
  table: 'the text table', md: 'Markdown', csv: 'CSV', json: 'JSON', html: 'an HTML page', vega: 'Vega-Lite JSON',
};
/** The `--out` extensions that fit a report format: those REPORT_FORMAT_OF_EXTENSION gives it (Vega-Lite specs are JSON). */
function reportExtensionsOf(format: ReportFormat | PictureFormat): string[] {
  const as = format === 'vega' ? 'json' : format;
  return Object.keys(REPORT_FORMAT_OF_EXTENSION).filter((ext) => REPORT_FORMAT_OF_EXTENSION[ext] === as);
}
/** The report's picture formats (src/report/html.ts): one HTML file with charts, or the charts' Vega-Lite specs. */
type PictureFormat = 'html' | 'vega';
const PICTURE_FORMATS: readonly PictureFormat[] = ['html', 'vega'];

/**
 * The filter of report and export's options. A `--study` name is trimmed of spaces at its ends (as
 * batch trims it); one of spaces only is refused as batch refuses it, quoted as given (InputError
 * `bad-option`).
 */
function parseFilter(o: { game?: string; suits?: string; study?: string[]; pool?: boolean }): ResultFilter {
  for (const n of o.study ?? []) if (n.trim() === '') checkStudyName('', `option --study ${quoteInput(printableName(n))}`);
  return {
    ...(o.game !== undefined ? { game: parseGameOption(o.game) } : {}),
    ...(o.suits !== undefined ? { suits: parseSuitsList(o.suits) } : {}),
    ...(o.study && o.study.length ? { studies: [...new Set(o.study.map((n) => n.trim()))] } : {}), // a name given twice counts once
    ...(o.pool ? { pool: true } : {}),
  };
}

/**
 * Whether a report row's study is short of its plan for the row's solver version (report.ts
 * partialOfRows); a pooled row (--pool) is when any study it pools that has deals of the row's game
 * and suit count is (one of another game or suits adds nothing to the row, whatever the filter, so
 * the flag of one row does not change with --suits).
 */
function rowsPartial(store: ResultStore, filter: ResultFilter): (row: ReportRow) => boolean {
  const of = partialOfRows((study, version) => store.studies([study], version)[0]);
  if (!filter.pool) return of;
  // the solve studies pooled (a blind study's games are not in a solve row)
  const pooled = studiesInFilter(store, filter).filter((st) => st.player === undefined);
  return (row) => pooled.some((st) => studyHolds(st, row.game, row.suits) && of({ ...row, study: st.name }));
}

/**
 * Whether each blind report row's study is short of its plan (isPartial: a missing shard, an
 * unfinished run), for the machine-read forms as rowsPartial is for the solve rows; a pooled row is
 * partial when one of the pooled blind studies of its player, player seed, game and suit count is.
 * `blind`: the blind studies the report reads (studiesInFilter).
 */
function blindRowsPartial(blind: readonly StudyInfo[], pool?: boolean): (row: BlindReportRow) => boolean {
  return (row) => blind.some((st) => (pool ? st.player === row.player && st.playerSeed === row.playerSeed && studyHolds(st, row.game, row.suits) : st.name === row.study) && isPartial(st));
}

/** A study's suit counts (`1,2`), or null for a deals file's, which may mix them. */
function suitsOf(st: StudyInfo): number[] | null {
  return st.suits === null ? null : st.suits.split(',').map(Number);
}

/**
 * The studies a report with `filter` may show: those --study names (all without it), less those of
 * another game or suit counts than --game/--suits ask for (one whose game or suits are mixed, a
 * deals file's, stays).
 */
function studiesInFilter(store: ResultStore, filter: ResultFilter): StudyInfo[] {
  const wanted = filter.studies ? new Set(filter.studies) : null;
  const inFilter = (st: StudyInfo) =>
    (filter.game === undefined || st.game === null || st.game === filter.game) &&
    (filter.suits === undefined || suitsOf(st) === null || suitsOf(st)!.some((n) => filter.suits!.includes(n)));
  return store.studies().filter((st) => (wanted === null || wanted.has(st.name)) && inFilter(st));
}

/**
 * Warning lines (src/report/text.ts partialStudyNotes) for the studies a report covers (`studies`, those of
 * studiesInFilter: one of another game or suit counts than --game/--suits ask for has no rows here,
 * and no line) that are short of their plan.
 */
function reportedPartials(store: ResultStore, studies: readonly StudyInfo[], rows: readonly ReportRow[]): string[] {
  const out: string[] = [];
  for (const s of studies) {
    // a study's rows of one solver version are whole or not by that version's results (an older
    // solver's results do not make a newer one's rows whole): one set of lines a
    // version its rows show, the version named when there are several
    const versions = [...new Set(rows.filter((r) => r.study === s.name).map((r) => r.solverVersion))];
    if (versions.length === 0) out.push(...partialStudyNotes([s], printableName));
    else {
      for (const v of versions) {
        const show = versions.length > 1 ? (n: string) => `${printableName(n)} (solver ${v})` : printableName;
        out.push(...partialStudyNotes(store.studies([s.name], v), show));
      }
    }
  }
  return out;
}

/**
 * The filter with its `--study` names as the database spells them (ResultStore.matchStudyName: the
 * same text in another Unicode form names the same study); refuses names it does not hold.
 */
function checkStudies(store: ResultStore, given: ResultFilter): ResultFilter {
  if (!given.studies) return given;
  const filter = { ...given, studies: [...new Set(given.studies.map((n) => store.matchStudyName(n)))] };
  const unknown = store.unknownStudies(filter.studies);
  if (unknown.length === 0) return filter;
  const have = store.studies().map((s) => s.name);
  // a name longer than any study's is quoted cut short, with its length (as batch's check does)
  const quoted = (n: string) => (n.length > MAX_STUDY_NAME ? quoteInput(n) : `"${printableName(n)}"`);
  throw new InputError('bad-option', `option --study: no study ${unknown.map(quoted).join(', ')} in ${store.path}; it holds ${have.length ? have.map((n) => `"${printableName(n)}"`).join(', ') : 'no study'} (spidersolve studies lists them)`);
}

/**
 * Checks `--out` before anything is read or written (no side effects): refuses an empty name, a path
 * that is a directory, a path with a parent component that exists but is not a directory (`option
 * --out "/tmp/file.txt/x.md": /tmp/file.txt is not a directory`), and a path that names the results
 * database `db` or one of its -wal, -shm or -journal files, directly or through a link (writing there
 * would destroy the results), and any other SQLite database (results merged elsewhere, the default
 * database while --db names another, another program's; isSqliteFile) or its -wal, -shm or -journal
 * file, each with a one-line `bad-option` error. Missing parent directories are fine: `createOutDir`
 * makes them. The files the studies were planned from are checked once the database is open
 * (checkOutNotInput).
 */
export function checkOutPath(out: string, db: string): void {
  const name = `option --out ${quoteInput(out, 120)}`;
  if (out.trim() === '') throw new InputError('bad-option', `${name}: the file name is empty`);
  if (/[\\/]$/.test(out)) throw new InputError('bad-option', `${name}: ends in /, so it names a folder; give a file name`);
  if (statOrNull(out)?.isDirectory()) throw new InputError('bad-option', `${name}: is a directory; give a file name`);
  // the nearest ancestor that exists must be a directory (everything below it will be created)
  const file = fileInTheWay(out);
  if (file !== null) throw new InputError('bad-option', `${name}: ${file} is not a directory`);
  const clash = sameFileAs(out, databaseFiles(db));
  if (clash !== null) {
    const what = /-(wal|shm|journal)$/.test(clash) ? `${clash}, a file of the results database ${db}` : `the results database ${db}`;
    throw new InputError('bad-option', `${name}: is ${what}; writing there would destroy the results, so nothing was written: give another file name`);
  }
  // another database (results merged elsewhere, the default one while --db names another, any
  // program's), or one of its -wal, -shm or -journal files
  const owner = sqliteSidecarOf(out);
  if (owner !== null || isSqliteFile(out)) {
    const what = owner !== null ? `a file of the SQLite database ${quoteInput(owner, 120)}` : 'an SQLite database';
    throw new InputError('bad-option', `${name}: is ${what}; writing there would destroy it, so nothing was written: give another file name`);
  }
}

/**
 * Refuses an `--out` (checked by checkOutPath first) that is one of the files the studies of the open
 * database were planned from (ResultStore.inputFiles): a study's deals file, or a position file named
 * on a line of one; the same file by its path, through a link or by another name (same device and
 * inode). Writing the report there would destroy what a resumed or repeated batch reads again. A path
 * that does not exist, or is no regular file (/dev/stdout), destroys no input and is not checked.
 * Throws InputError `bad-option`: `option --out "deals.txt": is the deals file of study "deals-at-1M-positions"
 * in results.sqlite; writing there would destroy it, so nothing was written: give another file name`.
 */
export function checkOutNotInput(out: string, store: ResultStore): void {
  const st = statOrNull(out);
  if (!st?.isFile()) return;
  for (const f of store.inputFiles()) {
    const input = statOrNull(f.path);
    if (!input?.isFile() || input.dev !== st.dev || input.ino !== st.ino) continue;
    const what = f.kind === 'deals' ? `the deals file of study "${printableName(f.study ?? '')}"` : `the position file ${pathForMessage(f.path)}, a deal of a study`;
    throw new InputError('bad-option', `option --out ${quoteInput(out, 120)}: is ${what} in ${pathForMessage(store.path)}; writing there would destroy it, so nothing was written: give another file name`);
  }
}

/**
 * How each kind of file spidersolve writes through `--out` begins (its first bytes): the viewer page
 * of `view` and `blind` and the HTML report (the head both start with, up to the title: view/page.ts
 * viewerPage, report/html.ts); the report's table, Markdown, CSV and JSON, its charts' specs (vega),
 * and `export` (src/report/text.ts, blindText.ts); `show`'s text, JSON and position-file forms
 * (src/game/positionFile.ts).
 */
/** How a position file starts, in its text and JSON forms (src/game/positionFile.ts); among OUR_FILE_STARTS. */
const POSITION_FILE_STARTS: readonly RegExp[] = [/^# spidersolve position\n/, /^\{\n {2}"game": /];

const OUR_FILE_STARTS: readonly RegExp[] = [
  ...POSITION_FILE_STARTS,
  /^<!doctype html>\n<html lang="en">\n<head>\n(?:<meta [^\n]*>\n)*<title>(?:[^<\n]* — spidersolve viewer|spidersolve study report)<\/title>\n/,
  /^study[ ,]/,
  /^\| study \|/,
  /^\*\*blind play\*\*\n/,
  /^blind play\n/,
  /^no results\n/,
  /^\[\n {2}\{\n {4}"study": /,
  /^\[\]\n/,
  /^\{\n {2}"generator": "spidersolve /,
  /^\{\n {2}"code": /,
  /^(?:deal|PySolFC|position) [^\n]*\((?:spider|spiderette), [124] suits?\)\n/,
];

/** The first 4 KiB of the file at `path` as text; null for a file it cannot read. */
function fileHead(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(4096);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Is the file at `path` one spidersolve writes through `--out` (OUR_FILE_STARTS: a page, a report, an
 * export, a position)? Read from its first 4 KiB. False for a file it cannot read.
 */
export function isOurOutputFile(path: string): boolean {
  const head = fileHead(path);
  return head !== null && OUR_FILE_STARTS.some((re) => re.test(head));
}

/**
 * Refuses an `--out` (checked by checkOutPath first) that would overwrite a file spidersolve did not
 * write: an existing regular file that is not empty and not one of its outputs (isOurOutputFile). A
 * file it wrote before is replaced, as a second run of the same command does, but a position file
 * only by a position file (`writesPosition`: show --format position or position-json), since one may
 * be a deal typed by hand from the documented template; an empty file holds
 * nothing to lose; a path that is no regular file (/dev/null) is left to checkOutWritable. Throws
 * InputError `bad-option`: `option --out "notes.txt": is a file spidersolve did not write (not one of
 * its pages, reports, exports or position files); writing there would destroy it, so nothing was
 * written: give another file name, or remove that file first`.
 */
export function checkOutReplaceable(out: string, writesPosition = false): void {
  const st = statOrNull(out);
  if (!st?.isFile() || st.size === 0) return;
  const head = fileHead(out);
  if (head !== null && OUR_FILE_STARTS.some((re) => re.test(head))) {
    // a position file may have been typed or edited by hand from the documented template (its header
    // line included): only another position file replaces it, never a page, a report or an export
    if (!writesPosition && POSITION_FILE_STARTS.some((re) => re.test(head))) {
      throw new InputError('bad-option', `option --out ${quoteInput(out, 120)}: is a position file (a deal may have been written there by hand); writing this output there would destroy it, so nothing was written: give another file name, or remove that file first`);
    }
    return;
  }
  throw new InputError('bad-option', `option --out ${quoteInput(out, 120)}: is a file spidersolve did not write (not one of its pages, reports, exports or position files); writing there would destroy it, so nothing was written: give another file name, or remove that file first`);
}

/**
 * Checks, before any work, that `--out` (checked by checkOutPath first) can be written, with no side
 * effect left behind: a path that exists and is not a regular file (/dev/null, a FIFO) is opened for
 * append and closed; otherwise a temporary file is created in the nearest folder of the path that
 * exists (the folder writeFileAtomically writes its temporary file in, or the one its missing folders
 * will be made in) and removed again. A failure (a folder that is not writable, a read-only file
 * system) is a one-line InputError `bad-file`: `option --out "ro/g.html": cannot write there
 * (EACCES: permission denied, folder ro); nothing was written`.
 */
export function checkOutWritable(out: string): void {
  const name = `option --out ${quoteInput(out, 120)}`;
  const existing = statOrNull(out);
  let dir = dirname(canonicalPath(out));
  while (statOrNull(dir) === null && dirname(dir) !== dir) dir = dirname(dir);
  const probe = existing && !existing.isFile() ? out : join(dir, `.spidersolve-probe.${process.pid}-${Math.random().toString(16).slice(2, 10)}.tmp`);
  try {
    closeSync(openSync(probe, probe === out ? 'a' : 'wx'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code ? `${code}${code === 'EACCES' ? ': permission denied' : code === 'EROFS' ? ': read-only file system' : ''}` : oneLine(e);
    throw new InputError('bad-file', `${name}: cannot write there (${why}, ${probe === out ? 'the file' : `folder ${dir}`}); nothing was written`);
  }
  if (probe !== out) rmSync(probe, { force: true });
}

/** `--out -` is standard output, as with no `--out` (and as `--deals -` is standard input): drops it. */
export function stdoutDash(o: { out?: string }): void {
  if (o.out === '-') delete o.out;
}

/** Creates the missing parent directories of `--out` (as `mkdir -p`); `checkOutPath` ran before. */
function createOutDir(out: string): void {
  // (where the file will be written: `link/..` is above the link's target, see canonicalPath)
  makeDirs(dirname(canonicalPath(out)));
}

/**
 * Writes `--out` (checked by checkOutPath) through a temporary file renamed into place (files.ts
 * writeFileAtomically), or stdout when there is no `--out`. A failure is a `bad-file` InputError
 * naming the file; the file at the path is then as it was.
 */
export async function writeOut(out: string | undefined, text: string): Promise<void> {
  if (out === undefined) {
    process.stdout.write(text);
    return;
  }
  try {
    createOutDir(out);
    await writeTextAtomically(out, text);
  } catch (e) {
    throw new InputError('bad-file', `option --out ${quoteInput(out, 120)}: cannot write it (${oneLine(e)}); nothing was written there`);
  }
}

/** `N rows`, `1 row`. */
function rowWords(n: number): string {
  return `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`;
}

/**
 * What a report file holds, for its "wrote" line: `HTML report, 9 rows of 3 studies`, with the blind
 * rows it holds (`HTML report, 9 rows of 3 studies and 2 blind rows`; `HTML report, 2 blind rows` when
 * it holds no solve row).
 */
function reportWords(format: ReportFormat | PictureFormat, rows: readonly ReportRow[], blindRows = 0): string {
  const studies = new Set(rows.map((r) => r.study)).size;
  const name = { table: 'report table', md: 'Markdown report', csv: 'CSV report', json: 'JSON report', html: 'HTML report', vega: 'Vega-Lite chart specs' }[format];
  const of = rows.length ? ` of ${studies} stud${studies === 1 ? 'y' : 'ies'}` : '';
  const blind = `${blindRows.toLocaleString('en-US')} blind row${blindRows === 1 ? '' : 's'}`;
  const held = blindRows === 0 ? `${rowWords(rows.length)}${of}` : rows.length === 0 ? blind : `${rowWords(rows.length)}${of} and ${blind}`;
  return `${name}, ${held}`;
}

/**
 * The report's text with the blind studies' rows (blind.ts blindReport) added: `table` and `md`, a
 * second table headed "blind play" under the first (its legend under a text table); `json`, the blind
 * row objects (BLIND_REPORT_COLUMNS) after the solve rows, each with `"kind": "blind"`; `csv`, the blind
 * rows alone (BLIND_REPORT_COLUMNS) when no solve row is reported, else the solve rows unchanged (give
 * --study with the blind studies' names for their CSV). With `partial` (blindRowsPartial), the JSON
 * and CSV blind rows end in `partial`.
 */
function withBlindRows(text: string, solveRows: number, blind: readonly BlindReportRow[], format: ReportFormat, partial?: (row: BlindReportRow) => boolean): string {
  switch (format) {
    case 'table':
      return (solveRows > 0 ? text.trimEnd() + '\n\n' : '') + 'blind play\n' + formatBlindTable(blind) + BLIND_LEGEND.join('\n') + '\n';
    case 'md':
      return (solveRows > 0 ? text.trimEnd() + '\n\n' : '') + '**blind play**\n\n' + formatBlindTable(blind, true) + '\n' + BLIND_LEGEND.map((l) => l.trim()).join(' ') + '\n';
    case 'json': {
      const solve = solveRows > 0 ? (JSON.parse(text) as unknown[]) : [];
      return JSON.stringify([...solve, ...blindRecords(blind, partial).map((r) => ({ kind: 'blind', ...r }))], null, 2) + '\n';
    }
    case 'csv':
      return solveRows > 0
        ? text
        : csvStringify(blindRecords(blind, partial), { header: true, columns: [...BLIND_REPORT_COLUMNS, ...(partial ? ['partial'] : [])], cast: { boolean: (v) => (v ? 'true' : 'false') }, record_delimiter: 'windows' });
  }
}

async function reportAction(o: { db: string; game?: string; suits?: string; study?: string[]; pool?: boolean; format?: string; out?: string; json?: boolean; quiet?: boolean }, cmd: Command): Promise<void> {
  stdoutDash(o);
  if (o.json && o.format !== undefined && o.format !== 'json') {
    throw new InputError('bad-option', `options --json and --format ${quoteInput(o.format)}: --json is --format json; give one`);
  }
  // no --format: the --out file's extension says it (report.html is the HTML report), else the table
  const format = (o.json ? 'json' : (o.format ?? (o.out === undefined ? undefined : formatOfOutFile(o.out, REPORT_FORMAT_OF_EXTENSION)) ?? 'table')) as ReportFormat | PictureFormat;
  if (!REPORT_FORMATS.includes(format as ReportFormat) && !PICTURE_FORMATS.includes(format as PictureFormat)) {
    throw new InputError('bad-option', `option --format ${quoteInput(o.format ?? '')}: use table, md, csv, json, html or vega`);
  }
  const parsed = parseFilter(o);
  if (o.out !== undefined) checkOutPath(o.out, o.db);
  const store = ResultStore.openForReading(o.db);
  try {
    if (o.out !== undefined) {
      checkOutNotInput(o.out, store);
      // a file the tool did not write (notes, another program's output) is not overwritten
      checkOutReplaceable(o.out);
    }
    const filter = checkStudies(store, parsed);
    // an explicit --format wins over the name; the line that names the file says so (wroteLine)
    const form = { writing: REPORT_FORMAT_WORDS[format], kinds: reportExtensionsOf(format) };
    if (format === 'html' || format === 'vega') {
      // loaded here, not at start-up: Vega and Vega-Lite take about half a second to load
      const { reportHtml, reportVega } = await import('../report/html.js');
      const { rows, won } = store.reportWithEffort(filter);
      const blind = store.blindReport(filter);
      if (rows.length === 0 && blind.length === 0) filteredOutNote(store, filter, o.quiet);
      const generator = `spidersolve ${cmd.parent?.version() ?? ''}`.trim();
      const parts = [
        filter.studies?.length ? `${filter.pool ? 'pooled ' : ''}stud${filter.studies.length === 1 ? 'y' : 'ies'} ${filter.studies.join(', ')}` : filter.pool ? 'every study pooled' : 'every study',
        filter.game,
        filter.suits ? `suits ${filter.suits.join(',')}` : undefined,
      ];
      const what = parts.filter(Boolean).join(', ');
      const studies = studiesInFilter(store, filter);
      const picture = format === 'html'
        ? await reportHtml(rows, won, { db: o.db, filter: what, generator, generatedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), notes: reportedPartials(store, studies, rows), ...(filter.pool ? { pooled: studies.filter((st) => st.player === undefined).length, pooledBlind: studies.filter((st) => st.player !== undefined).length } : {}), ...(blind.length ? { blind } : {}) })
        : reportVega(rows, won, generator, blind);
      // the HTML page on a terminal: written there all the same, with a note (it is for a browser)
      if (o.out === undefined && format === 'html') writeHtmlToStdout(picture, o.quiet);
      else await writeOut(o.out, picture);
      if (o.out !== undefined) wroteLine(o.out, reportWords(format, rows, blind.length), o.quiet, form);
      return;
    }
    const rows = store.report(filter);
    const blind = store.blindReport(filter);
    if (rows.length === 0 && blind.length === 0) filteredOutNote(store, filter, o.quiet);
    let text = formatReport(rows, format, rowsPartial(store, filter));
    // the text table says what its columns mean, as batch's summary does
    if (format === 'table' && rows.length > 0) text = text.trimEnd() + '\n' + REPORT_LEGEND.join('\n') + '\n';
    // the Markdown table too, as a paragraph under it
    if (format === 'md' && rows.length > 0) text = text.trimEnd() + '\n\n' + markdownLegend();
    // the studies the report reads, once: the blind ones' partial flags and names, the partial notes
    const studies = studiesInFilter(store, filter);
    const blindStudies = studies.filter((st) => st.player !== undefined);
    // blind studies (blind.ts): their own table under the solve table, or their rows alone
    if (blind.length > 0) text = withBlindRows(text, rows.length, blind, format as ReportFormat, blindRowsPartial(blindStudies, filter.pool));
    if (format === 'csv') blindCsvNote(rows.length, blind, blindStudies.map((st) => st.name), o.quiet);
    // a study short of its plan (a missing shard, an unfinished run) is said under the table, not
    // hidden; under "no results" too, for a study stopped before it counted a deal
    const notes = format === 'table' || format === 'md' ? reportedPartials(store, studies, rows) : [];
    if (notes.length) text += (format === 'md' ? '\n' + notes.map((n) => `> ${markdownText(n)}`).join('\n>\n') : notes.join('\n')) + '\n';
    await writeOut(o.out, text);
    // (a CSV of solve rows leaves the blind rows out: blindCsvNote)
    if (o.out !== undefined) wroteLine(o.out, reportWords(format, rows, format === 'csv' && rows.length > 0 ? 0 : blind.length), o.quiet, form);
  } finally {
    store.close();
  }
}

/**
 * A report that --game or --suits left empty says on stderr (unless `quiet`) what the database, or
 * the studies named, hold instead: `note: --game spiderette matches no results; the database holds
 * results for spider 1 suit`. Nothing is said when there are no results at all.
 */
function filteredOutNote(store: ResultStore, filter: ResultFilter, quiet?: boolean): void {
  if (quiet || (filter.game === undefined && filter.suits === undefined)) return;
  const { game: _game, suits: _suits, ...wider } = filter;
  const held = new Set([...store.report(wider), ...store.blindReport(wider)].map((r) => `${r.game} ${r.suits} suit${r.suits === 1 ? '' : 's'}`));
  if (held.size === 0) return;
  const options = [filter.game !== undefined ? `--game ${filter.game}` : '', filter.suits !== undefined ? `--suits ${filter.suits.join(',')}` : ''].filter(Boolean).join(' ');
  const where = filter.studies?.length ? `the stud${filter.studies.length === 1 ? 'y' : 'ies'} named` : 'the database';
  process.stderr.write(`spidersolve: note: ${options} matches no results; ${where} hold${filter.studies?.length === 1 || !filter.studies?.length ? 's' : ''} results for ${[...held].sort().join(', ')}\n`);
}

/**
 * A CSV holds one kind of row: with solve rows reported, the blind rows (which have other columns)
 * are left out; a note on stderr says so and how to get them, `studies` (unless `quiet`).
 */
function blindCsvNote(solveRows: number, blind: readonly BlindReportRow[], studies: readonly string[], quiet?: boolean): void {
  if (solveRows === 0 || blind.length === 0 || quiet) return;
  // each study's own name (a pooled row's label is not one), as a shell word that pastes safely (a
  // name may hold $, ` or quotes)
  const names = studies.map((n) => `--study ${shellQuote(n)}`).join(' ');
  process.stderr.write(`spidersolve: note: ${rowWords(blind.length)} of blind play left out of this CSV (${blind.length === 1 ? 'its' : 'their'} columns differ); for ${blind.length === 1 ? 'it' : 'them'}: ${names}\n`);
}

/** The columns `export` adds when blind rows are exported (blind.ts BLIND_COLUMNS). */
const BLIND_EXPORT_EXTRA = ['player', 'player_seed', 'completed', 'solves'] as const;

/**
 * The export's rows with the blind games after the solves: a blind game fills the solve columns that
 * mean the same (deal, code, game, suits, source, status `won`/`stuck`/`error`, positions of the
 * player's solves, elapsed_ms its in-worker time, move_count, line, error, solver_version its blind
 * version, run_id, created_at; max_positions and the scores empty) and BLIND_EXPORT_EXTRA.
 */
function* withBlindExportRows(store: ResultStore, filter: ResultFilter): Generator<Record<string, unknown>> {
  for (const r of store.rows(filter)) yield r as unknown as Record<string, unknown>;
  // (collected first: the rows are read, then written out)
  for (const b of [...store.blindRows(filter)]) {
    yield {
      study: b.study, name: b.name, deal: b.deal, code: b.code, game: b.game, suits: b.suits, sourceKind: b.sourceKind, seed: b.seed,
      pysolGame: b.pysolGame, pysolNumber: b.pysolNumber, filePath: b.filePath, maxPositions: null, status: b.status, positions: b.positions,
      elapsedMs: b.cpuMs, moveCount: b.moveCount, line: b.line, classicScore: null, revealScore: null, peakBytes: null, error: b.error,
      solverVersion: b.version, runId: b.runId, createdAt: b.createdAt, player: b.player, player_seed: b.playerSeed, completed: b.completed, solves: b.solves,
    };
  }
}

/**
 * Refuses an export `--out` file named for another format (`.json`, `.md`/`.markdown`,
 * `.html`/`.htm`, any case, as REPORT_FORMAT_OF_EXTENSION names them): export writes CSV only, and
 * CSV under such a name misleads whoever opens it. Other names (`.csv`, `.txt`, none) are taken.
 * Throws InputError `bad-option`, before anything is written.
 */
export function checkExportOut(out: string): void {
  const format = formatOfOutFile(out, REPORT_FORMAT_OF_EXTENSION);
  const label = format === 'json' ? 'JSON' : format === 'md' ? 'Markdown' : format === 'html' ? 'HTML' : undefined;
  if (label === undefined) return;
  throw new InputError(
    'bad-option',
    `option --out ${quoteInput(out, 120)}: export writes CSV only; name the file .csv (or give another name), or use spidersolve report --format ${format} for ${label}`,
  );
}

async function exportAction(o: { db: string; csv?: boolean; json?: boolean; summary?: boolean; out?: string; game?: string; suits?: string; study?: string[]; pool?: boolean; quiet?: boolean }): Promise<void> {
  stdoutDash(o);
  // CSV is the only format: --csv, once required, is taken and changes nothing
  if (o.json) throw new InputError('bad-option', 'export: --json is not an export format (export writes CSV only); for the report rows as JSON use spidersolve report --format json');
  const parsed = parseFilter(o);
  if (o.out !== undefined) checkOutPath(o.out, o.db);
  const store = ResultStore.openForReading(o.db);
  try {
    if (o.out !== undefined) {
      checkOutNotInput(o.out, store);
      // a file the tool did not write (notes, another program's output) is not overwritten
      checkOutReplaceable(o.out);
      // (after the checks that it is not an input or another program's file, which say more)
      checkExportOut(o.out);
    }
    const filter = checkStudies(store, parsed);
    // a name no form has (r.pdf): said by the line that names the file, as report says it
    const form = { writing: 'CSV', kinds: ['.csv', '.txt'] };
    if (o.summary) {
      const rows = store.report(filter);
      const blindRows = store.blindReport(filter);
      // as report --format csv: the blind rows alone when no solve row is reported
      const text = formatCsv(rows, rowsPartial(store, filter));
      const blindStudies = studiesInFilter(store, filter).filter((st) => st.player !== undefined);
      await writeOut(o.out, blindRows.length > 0 ? withBlindRows(text, rows.length, blindRows, 'csv', blindRowsPartial(blindStudies, filter.pool)) : text);
      blindCsvNote(rows.length, blindRows, blindStudies.map((st) => st.name), o.quiet);
      if (o.out !== undefined) wroteLine(o.out, `CSV of the report rows, ${rowWords(rows.length > 0 || blindRows.length === 0 ? rows.length : blindRows.length)}`, o.quiet, form);
      return;
    }
    // blind games (blind.ts) follow the solves, in the same columns where they mean the same, and
    // four columns of their own at the end; without blind rows the columns are as they always were
    const blind = store.blindReport(filter).length > 0;
    const csv = stringify({
      header: true,
      columns: [
        { key: 'study', header: 'study' }, { key: 'name', header: 'name' }, ...RESULT_COLUMNS.map(([col, field]) => ({ key: field, header: col })),
        ...(blind ? BLIND_EXPORT_EXTRA.map((c) => ({ key: c, header: c })) : []),
      ],
      record_delimiter: 'windows',
    });
    // (counted as they go by, for the "wrote" line)
    let count = 0;
    const source = Readable.from(
      (function* (rows) {
        for (const r of rows) {
          count++;
          yield r;
        }
      })(blind ? withBlindExportRows(store, filter) : store.rows(filter)),
    );
    if (o.out === undefined) {
      try {
        // written chunk by chunk, not piped into process.stdout: a pipeline into a stream it does
        // not end leaves its listeners on it, one set a call, in a process that exports many times
        await pipeline(source, csv, async (chunks: AsyncIterable<string | Buffer>) => {
          for await (const c of chunks) if (!process.stdout.write(c)) await once(process.stdout, 'drain');
        });
      } catch (e) {
        // the reader of a pipe went away (`| head`): stop quietly, as Unix tools do
        if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
      }
    } else {
      try {
        createOutDir(o.out);
        await writeFileAtomically(o.out, (dest) => pipeline(source, csv, dest));
      } catch (e) {
        // the rows could not be read (a damaged database, one another program holds locked): an
        // error of SQLite is the database's, which main.ts names, not --out's
        if (isDamagedDatabase(e) || String((e as { code?: unknown })?.code ?? '').startsWith('SQLITE_')) throw e;
        throw new InputError('bad-file', `option --out ${quoteInput(o.out, 120)}: cannot write it (${oneLine(e)}); nothing was written there`);
      }
      wroteLine(o.out, `CSV, ${rowWords(count)} (one a study, deal and budget${blind ? ', or for a blind game a study, deal, player and player seed' : ''})`, o.quiet, form);
    }
  } finally {
    store.close();
  }
}

/** Adds `batch`, `report` and `export` to the program (called by src/cli/main.ts). */
export function registerBatchCommands(program: Command): void {
  const batch = program
    .command('batch')
    .description('solve many deals, or play them blind (--player), in a worker pool and store the results in SQLite (resumable)')
    .option('--game <game>', 'spider or spiderette (required with --seeds; a filter with --deals)')
    .option('--suits <list>', 'comma list of suit counts, e.g. 1,2,4 (required with --seeds; a filter with --deals)')
    .option('--seeds <range>', 'seeds to deal, e.g. 1-1000 or 1-10,50-60')
    .option('--deals <file>', 'file of deal codes, pysol:GAME:N references or position files, one a line (# comments); - for standard input')
    .option('--max-positions <n>', `position budget per deal, 1..${MAX_MAX_POSITIONS} (default ${DEFAULT_MAX_POSITIONS}); an increasing comma list is a ladder: every deal at the first, those left undecided at the next, …`)
    .option('--until-width <w>', 'stop once, for every game and suit count, the band from the floor\'s 95% lower bound to the ceiling\'s 95% upper bound is narrower than w (e.g. 0.01); seeds may then be open-ended (--seeds 1-: if they run out at 4294967295 first, it ends there, exit 0, with a note saying so)')
    .option('--workers <n>', 'worker threads (default: number of cores)')
    .addOption(dbOption())
    .option('--study <name>', 'study name (default: from the game, suits, deals and budgets, e.g. spider-4-seeds-1-1000-at-1M-positions, or the deals file\'s name: deals-at-1M-positions; a study begun under the name these options gave before, spider-4-seeds-1-1000-1M-positions, is resumed under it)')
    .option('--json', 'print one JSON object instead of the text summary (suits: the suit counts as numbers, [1, 2], or null for a deals file without --suits; report: the rows as report --json prints them)')
    .option('--quiet', BATCH_QUIET_HELP)
    .option('--shard <K/N>', 'run only shard K of N of the study\'s deals, K counting from 0 (default: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX when set); give each shard its own --db and merge them after')
    .option('--shard-count <n>', 'the number of shards, for a Kubernetes Indexed Job (JOB_COMPLETION_INDEX gives K)')
    .option('--no-shard', 'run the whole study even inside a Slurm job array or Kubernetes Indexed Job')
    .option('--player <spec>', `play every deal blind instead of solving it (a blind study, stored in blind_results; no --max-positions): ${PLAYER_HELP}`)
    .option('--player-seed <n>', `the blind player's own random seed, 0..4294967295 (default ${DEFAULT_PLAYER_SEED}); with --player`)
    // not an option: refused, naming the two seeds batch has (seedNotOption)
    .addOption(new Option('--seed [n]', 'not an option of batch: see --seeds and --player-seed').hideHelp())
    .addHelpText('after', '\nExit codes: 0 done, 2 bad input (a damaged database too), 130 interrupted (run the same command again to resume), 1 the database deleted or replaced, held locked by another program too long, the disk full or a disk I/O error (the message says what was kept), or an internal error.')
    .action(batchAction);
  // commander keeps only the last of --shard K/N and --no-shard; note that both were given, so that
  // resolveShard refuses the contradiction instead of silently running the whole study
  const seen = new Set<string>();
  batch.on('option:shard', () => {
    seen.add('shard');
    if (seen.has('no-shard')) batch.setOptionValue('shardAndNoShard', true);
  });
  batch.on('option:no-shard', () => {
    seen.add('no-shard');
    if (seen.has('shard')) batch.setOptionValue('shardAndNoShard', true);
  });

  program
    .command('report')
    .description('win-rate report per study, game, suits and budget: floor and ceiling with 95% Wilson intervals; blind win rates per player')
    .addOption(dbOption())
    .option('--game <game>', 'only this game')
    .option('--suits <list>', 'only these suit counts, e.g. 1,2')
    .option('--study <name>', `only this study ${REPEATABLE}; default: every study, one set of rows each`, (v: string, acc: string[] = []) => [...acc, v])
    .option('--pool', 'one set of rows over the studies\' deals together (each deal once), naming the studies pooled')
    .option('--format <format>', 'table, md, csv, json (an array of row objects), html (one self-contained file with the table and charts) or vega (the charts\' Vega-Lite specs with their data); default: from the --out file\'s extension (.html or .htm html, .md md, .csv csv, .json json, .txt table), else table')
    .option('--out <file>', 'write to this file instead of stdout (- is stdout) and say so on stderr; missing parent directories are created (like mkdir -p); without --format, its extension gives the format (see --format)')
    .option('--json', 'the same as --format json')
    .option('--quiet', QUIET_HELP)
    .addHelpText('after', '\nBlind studies (batch --player) get a table of their own: the blind win rate beside the\nperfect-information rate of the same deals (a CSV of solve rows leaves them out; give --study).\n\nExamples:\n  spidersolve report\n  spidersolve report --study pysol-sample --format md --out reports/pysol-sample.md\n  spidersolve report --out reports/study.html   (HTML, from the extension)\n  spidersolve report --game spider --suits 4 --json' + READ_EXIT_HELP)
    .action(reportAction);

  program
    .command('export')
    .description('write the studies\' results as CSV (RFC 4180): one row per study, deal and budget, or the report rows (--summary)')
    .option('--csv', 'CSV output: the default and only format (taken, as older command lines give it; changes nothing)')
    .option('--summary', 'export the report rows instead of one row per study, deal and budget')
    .addOption(dbOption())
    .option('--study <name>', `only this study ${REPEATABLE}; default: every study, one set of rows each`, (v: string, acc: string[] = []) => [...acc, v])
    .option('--pool', 'one set of rows over the studies\' deals together (each deal once), naming the studies pooled')
    .option('--game <game>', 'only this game')
    .option('--suits <list>', 'only these suit counts, e.g. 1,2')
    .option('--out <file>', 'write to this file instead of stdout (- is stdout) and say so on stderr; missing parent directories are created (like mkdir -p)')
    .option('--json', 'not an export format: refused, pointing to report --format json')
    .option('--quiet', QUIET_HELP)
    .addHelpText('after', '\nA ladder study has one row per rung a deal was stored at. Blind games follow the solve rows, with the columns player, player_seed, completed and solves.\n\nExamples:\n  spidersolve export --out reports/results.csv\n  spidersolve export --study pysol-sample\n  spidersolve export --summary' + READ_EXIT_HELP)
    .action(exportAction);

  registerStudiesCommand(program);
}

/** `spidersolve studies`: every study with its parameters, deals planned / counted / settled, and its runs. */
function studiesAction(o: { db: string; json?: boolean }): void {
  const store = ResultStore.openForReading(o.db);
  try {
    const all = store.studies();
    if (o.json) {
      // suits as numbers, as batch --json gives them ([1, 2]; null: any)
      process.stdout.write(JSON.stringify(all.map((s) => ({ ...s, suits: suitCounts(s.suits) })), null, 2) + '\n');
      return;
    }
    process.stdout.write(formatStudies(all));
  } finally {
    store.close();
  }
}

/** The text of `spidersolve studies`. */
export function formatStudies(all: readonly StudyInfo[]): string {
  if (all.length === 0) return 'no studies\n';
  const lines: string[] = [];
  for (const s of all) {
    // (the short form only where it differs: 1,000,000 (1M), but 100)
    const budgets = s.budgets.map((b) => (budgetWords(b) === String(b) ? b.toLocaleString('en-US') : `${b.toLocaleString('en-US')} (${budgetWords(b)})`)).join(', ');
    lines.push(`${s.name}`);
    lines.push(`  game ${s.game ?? 'any'}, suits ${s.suits ?? 'any'}, deals ${s.deals}`);
    if (s.player !== undefined) lines.push(`  played blind by ${s.player}, player seed ${s.playerSeed ?? 1}`);
    else lines.push(`  budget${s.budgets.length > 1 ? ' ladder' : ''} ${budgets} position${s.budgets.length === 1 && s.budgets[0] === 1 ? '' : 's'}${s.untilWidth !== null ? `; until the band is narrower than ${s.untilWidth}` : ''}`);
    lines.push(`  deals planned ${s.planned ?? 'open-ended (not yet stopped by its rule: partial)'}, counted ${s.counted}, settled ${s.settled}${s.unfinished > 0 ? `, not yet at every rung ${s.unfinished}` : ''}${s.stoppedAt !== null ? `; stopped by --until-width after ${s.stoppedAt}` : ''}`);
    for (const r of s.runs) {
      lines.push(`  run ${r.uid.slice(0, 8)} ${r.status.padEnd(11)} started ${r.startedAt}${r.finishedAt ? `, finished ${r.finishedAt}` : ''}; ${r.workers} worker${r.workers === 1 ? '' : 's'}, ${r.solverVersion.startsWith('blind-') ? 'version' : 'solver'} ${r.solverVersion}; stored ${r.completed} (errors ${r.errors})${r.status === 'running' && r.pid !== null ? `; process ${r.pid} on ${r.host}, last heartbeat ${r.heartbeatAt}` : ''}${r.note ? `; ${r.note}` : ''}`);
    }
  }
  return lines.join('\n') + '\n';
}

/** Adds `studies` to the program (called by src/cli/main.ts through registerBatchCommands). */
function registerStudiesCommand(program: Command): void {
  program
    .command('studies')
    .description('list the studies in a database: parameters, deals planned / counted / settled, and runs (done, interrupted, failed, abandoned, running)')
    .addOption(dbOption())
    .option('--json', 'print a JSON array of study objects')
    .option('--quiet', QUIET_NOTHING_HELP)
    .addHelpText('after', '\nExamples:\n  spidersolve studies\n  spidersolve studies --db cluster.sqlite --json' + READ_EXIT_HELP)
    .action(studiesAction);
}
