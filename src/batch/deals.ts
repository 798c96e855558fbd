/**
 * The deal list of a batch: seeds ranges and deal files turned into planned deals, every entry
 * checked before anything runs. Pure apart from reading the deals file; no database, no pool.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { makeDealCode, parseDealCode, seededCode } from '../game/code.js';
import { dealCards, isSeed, MAX_SEED } from '../game/deal.js';
import { dealCardsOf } from '../game/position.js';
import { fileErrorText, InputError, notTextReason, pathForMessage, quoteInput, type Result } from '../game/errors.js';
import type { Position } from '../game/position.js';
import { NO_SUCH_FILE, type DealSource, type LoadedDeal } from '../game/ref.js';
import { getVariant, isSuitCount, type GameName, type SuitCount } from '../game/variant.js';
import { statOrNull } from './files.js';

/**
 * Most deals one batch may plan: the plan is built in memory before the first deal runs (about 250
 * bytes and 1 µs a deal), and a study this large already takes hours at small budgets.
 */
export const MAX_PLANNED_DEALS = 1_000_000;

/** One deal of a batch, as the main thread plans it. */
export interface PlannedDeal {
  /**
   * Key of the deal in the results table (`results.code`): its deal code, or for a position with no
   * code (a mid-game position file) `POS:<tag><suits>:<first 16 hex of SHA-256 of the position>`.
   */
  readonly key: string;
  /** What the worker passes to loadDeal: the deal code when there is one, else the absolute file path. */
  readonly ref: string;
  readonly game: GameName;
  readonly suits: SuitCount;
  /** Where it came from; a file path is absolute. */
  readonly source: DealSource;
  /**
   * The deal's identity (see `dealIdentity`) when the plan already knows it (deals files: each line
   * was loaded to check it); absent for seeds, whose identity is worked out when first needed.
   */
  readonly deal?: string;
  /**
   * Other names (as `dealName` gives them) of this deal on later lines of the same deals file, which
   * were planned once, as this deal: the study records them among the deal's names (`deal_names`).
   */
  readonly aliases?: readonly string[];
}

/**
 * The identity of a deal, its one key in the results table whatever named it: the explicit deal code
 * of its start position (`SP4X-…`: its cards, in spidersolve's layout), or for a mid-game position
 * (no deal code) `positionKey`. A seeded code `SP2-7`, `pysol:spider2:N` of the same cards, and a
 * position file of that start position all have the same identity.
 */
export function dealIdentity(loaded: LoadedDeal): string {
  const cards = dealCardsOf(loaded.position);
  return cards ? makeDealCode(loaded.position.variant, cards) : positionKey(loaded.position);
}

/**
 * The identity of a results key of schema version 1 (`results.code`): a seeded or explicit deal code
 * becomes the explicit code of its cards; a `POS:` key is already an identity. Null for anything else.
 */
export function identityOfCode(code: string): string | null {
  if (code.startsWith('POS:')) return code;
  const r = parseDealCode(code);
  return r.ok ? makeDealCode(r.value.variant, r.value.cards) : null;
}

/** The identity of a planned deal: `deal` if the plan knows it, else worked out from its seeded code (about 35 µs). */
export function plannedIdentity(p: PlannedDeal): string {
  if (p.deal !== undefined) return p.deal;
  if (p.source.kind === 'seed') {
    const v = getVariant(p.game, p.suits);
    return makeDealCode(v, dealCards(v, p.source.seed));
  }
  const id = identityOfCode(p.key);
  if (id === null) throw new Error(`plannedIdentity: cannot work out the identity of ${p.key}`);
  return id;
}

/**
 * The name a planned deal was reached by (stored in `deal_names` and `study_deals.name`): the seeded
 * code for a seed (`SP2-7`), `pysol:<game>:<N>`, `file:<absolute path>`, or the deal code as given.
 */
export function dealName(p: Pick<PlannedDeal, 'key' | 'source'>): string {
  const s = p.source;
  switch (s.kind) {
    case 'pysol': return `pysol:${s.game}:${s.number}`;
    case 'file': return `file:${s.path}`;
    default: return p.key;
  }
}

/** The loader the plan checks references with (src/game/ref.ts `loadDeal`, injectable for tests). */
export type DealLoader = (ref: string) => Result<LoadedDeal>;

/** Content key of a position with no deal code (see `PlannedDeal.key`). */
export function positionKey(position: Position): string {
  const v = position.variant;
  const canon = JSON.stringify({ c: position.columns.map((c) => [c.down, c.up]), s: position.stock, r: position.removed });
  return `POS:${v.tag}${v.suits}:${createHash('sha256').update(canon).digest('hex').slice(0, 16)}`;
}

/** The results key of a loaded deal (see `PlannedDeal.key`). */
export function dealKey(loaded: LoadedDeal): string {
  return loaded.code ?? positionKey(loaded.position);
}

/** A planned deal from a loaded one (file paths made absolute against `cwd`). */
export function planFromLoaded(loaded: LoadedDeal, cwd: string = process.cwd()): PlannedDeal {
  const v = loaded.position.variant;
  const source: DealSource = loaded.source.kind === 'file' ? { kind: 'file', path: resolve(cwd, loaded.source.path) } : loaded.source;
  return {
    key: dealKey(loaded),
    ref: loaded.code ?? (source.kind === 'file' ? source.path : loaded.label),
    game: v.game,
    suits: v.suits,
    source,
    deal: dealIdentity(loaded),
  };
}

/**
 * Parses `--suits` (batch, report, export): a comma list of 1, 2, 4 (`1,2,4`, `2`), each at most once;
 * the result is ascending. Throws InputError `bad-option` on anything else: a value that is not a
 * suit count (`3`), or a suit count given twice (`2,2`: `option --suits "2,2": suit count 2 is given
 * twice; give each once`), which is likelier a typo for another list than a wish for the same deals
 * twice.
 */
export function parseSuitsList(text: string): SuitCount[] {
  const parts = text.split(',').map((s) => s.trim());
  const out = new Set<SuitCount>();
  for (const p of parts) {
    const n = /^\d+$/.test(p) ? Number(p) : NaN;
    if (!isSuitCount(n)) throw new InputError('bad-option', `option --suits ${quoteInput(text)}: ${p === text.trim() ? 'not' : `${quoteInput(p)} is not`} a suit count; use a comma list of 1, 2 and 4`);
    if (out.has(n)) throw new InputError('bad-option', `option --suits ${quoteInput(text)}: suit count ${n} is given twice; give each once (a comma list of 1, 2 and 4)`);
    out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/** An inclusive range of seeds; an open one (`1-`) runs to MAX_SEED, without a planned end. */
export interface SeedRange {
  readonly from: number;
  readonly to: number;
  /** Given open-ended (`1-`), not closed (a closed range may end at MAX_SEED too). */
  readonly open?: boolean;
}

/**
 * Parses `--seeds`: comma-separated single seeds or inclusive ranges, `1-1000`, `7`, `1-10,50-60`,
 * each seed an integer 0..4294967295 (deal.ts MAX_SEED). With `allowOpen`, a last range may be
 * open-ended, `1-` (to MAX_SEED: for --until-width, which stops on its own). Throws InputError
 * `bad-option` on a bad number, an empty range (`10-1`), an open range without `allowOpen`, or more
 * than MAX_PLANNED_DEALS seeds in all (not counting an open range).
 */
export function parseSeeds(text: string, allowOpen = false): SeedRange[] {
  const out: SeedRange[] = [];
  let total = 0;
  const parts = text.split(',');
  for (const [i, part] of parts.entries()) {
    // 1-20,000: a thousands separator, which would read as the range 1-20 and seed 0
    if (i > 0 && /^0\d\d$/.test(part)) throw new InputError('bad-option', `option --seeds ${quoteInput(text)}: ${quoteInput(part)} after a comma looks like a thousands separator; a comma separates seeds and ranges, so write numbers without separators (1-20000)`);
    const m = /^\s*(\d+)\s*(?:(-)\s*(\d+)?\s*)?$/.exec(part);
    if (!m) throw new InputError('bad-option', `option --seeds ${quoteInput(text)}: ${part.trim() === text.trim() ? 'not' : `${quoteInput(part.trim())} is not`} a seed or a range like 1-1000`);
    const open = m[2] !== undefined && m[3] === undefined;
    if (open && !allowOpen) throw new InputError('bad-option', `option --seeds ${quoteInput(text)}: an open range ${quoteInput(part.trim())} needs --until-width (the rule that stops the study)`);
    const from = m[1]!.length > 12 ? Infinity : Number(m[1]);
    const to = open ? MAX_SEED : m[3] === undefined ? from : m[3].length > 12 ? Infinity : Number(m[3]);
    if (!isSeed(from) || !isSeed(to)) throw new InputError('bad-option', `option --seeds ${quoteInput(text)}: seeds are integers 0..${MAX_SEED}`);
    if (from > to) throw new InputError('bad-option', `option --seeds ${quoteInput(text)}: the range ${from}-${to} is empty (start after end)`);
    if (!open) total += to - from + 1;
    if (total > MAX_PLANNED_DEALS) throw new InputError('bad-option', `option --seeds ${quoteInput(text)}: more than ${MAX_PLANNED_DEALS} seeds; split the study`);
    out.push(open ? { from, to, open } : { from, to });
  }
  return out;
}

/**
 * The deals of seeded codes `SP<s>-<seed>` / `SE<s>-<seed>`: seed by seed (ascending within each
 * range, ranges in the order given), and for each seed every suit count of the list, so an
 * interrupted study covers all suit counts evenly. Repeated seeds are planned once. Throws
 * InputError `bad-option` when the seeds (repeats counted) times the suit counts exceed
 * MAX_PLANNED_DEALS.
 */
export function planSeeds(game: GameName, suits: readonly SuitCount[], ranges: readonly SeedRange[]): PlannedDeal[] {
  // refuse a study too large before building it (a plan of millions of deals takes seconds and GBs)
  const seeds = ranges.reduce((n, r) => n + r.to - r.from + 1, 0);
  if (seeds * suits.length > MAX_PLANNED_DEALS) {
    throw new InputError('bad-option', `options --seeds and --suits: ${seeds} seeds × ${suits.length} suit counts is more than ${MAX_PLANNED_DEALS} deals; split the study`);
  }
  return [...seedDeals(game, suits, ranges)];
}

/**
 * The same deals as `planSeeds`, one at a time and with no size limit (for an open-ended range such
 * as `1-` with --until-width, which stops long before the end). Repeated seeds are given once.
 */
export function* seedDeals(game: GameName, suits: readonly SuitCount[], ranges: readonly SeedRange[]): Generator<PlannedDeal> {
  const variants = suits.map((s) => getVariant(game, s));
  const done: SeedRange[] = [];
  for (const { from, to } of ranges) {
    for (let seed = from; seed <= to; seed++) {
      if (done.some((r) => seed >= r.from && seed <= r.to)) continue;
      for (const v of variants) {
        const code = seededCode(v, seed);
        yield { key: code, ref: code, game, suits: v.suits, source: { kind: 'seed', seed } };
      }
    }
    done.push({ from, to });
  }
}

/** Optional filter of a deals file's deals (`--game`, `--suits`): deals of other games or suit counts are left out. */
export interface DealFilter {
  readonly game?: GameName;
  readonly suits?: readonly SuitCount[];
}

/** The plan of a deals file: its deals, and how many lines the filter left out. */
export interface DealsFilePlan {
  readonly deals: PlannedDeal[];
  /** Deals of another game or suit count than the filter asks (lines, repeats included). */
  readonly leftOut: number;
  /** Lines that repeat a deal already planned by an earlier line (the same cards, whatever names them): planned once. */
  readonly duplicates: number;
}

/**
 * A deals-file line without its comment tail: from the first `#` that follows a white-space character
 * on (the text before it keeps its spaces; the caller trims). A scan, not a regular expression: a
 * pattern such as `\s+#.*$` backtracks over every run of spaces, and a line padded with 160,000
 * spaces would take 38 s to read.
 */
export function withoutComment(line: string): string {
  for (let i = line.indexOf('#', 1); i >= 0; i = line.indexOf('#', i + 1)) {
    if (/\s/.test(line[i - 1]!)) return line.slice(0, i);
  }
  return line;
}

/** How messages name a deals file: `-` (standard input) as `- (standard input)`, a path as pathForMessage shows it. */
export function dealsFileName(path: string): string {
  return path === '-' ? '- (standard input)' : pathForMessage(path);
}

/**
 * The deals of a deals file (`-`: standard input): one deal code, `pysol:GAME:N` reference or
 * position-file path a line; blank lines and lines starting with `#` are skipped, and a ` #…` tail
 * (space, then `#`) is a comment. Every line is checked with `load` before the plan is returned; deals of another game or
 * suit count than `filter` asks are left out (they are not bad lines). Deals met twice are planned
 * once. Throws InputError `bad-file` if the file cannot be read or holds no deal (none that passes
 * the filter), and `bad-reference` if any line is bad: the bad lines' numbers (up to 50), then
 * `line N: message` for up to 20 of them, separated by "; " — except for a file that is not a deals
 * file (no line a deal, the first bad one shaped like none: a JSON or HTML file), which is `bad-file`
 * in one short line (notADealsFile). `given`: the file's text, read already
 * by the caller (a pipe or terminal, read so that a signal can stop the reading).
 */
export function planDealsFile(path: string, load: DealLoader, filter: DealFilter = {}, cwd: string = process.cwd(), given?: string): DealsFilePlan {
  // the name as messages show it (quoted when it is empty, has spaces at its ends or odd characters)
  const name = dealsFileName(path);
  if (path.trim() === '' && given === undefined) throw new InputError('bad-file', `--deals ${name}: the file name is empty`);
  let text: string;
  try {
    text = given ?? readFileSync(path === '-' ? '/dev/stdin' : resolve(cwd, path), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError('bad-file', `--deals ${name}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : fileErrorText(e)}`);
  }
  // a binary file (an image, a database…) is refused as a whole, not line by line
  const binary = notTextReason(text);
  if (binary !== null) {
    throw new InputError('bad-file', `--deals ${name}: not a text file (${binary}); give a text file of deal codes, pysol:GAME:N references or position-file paths, one a line`);
  }
  // `unknown`: the line names no file and is shaped like no deal code or pysol: reference (the loader's
  // `bad-file` for a path that is not there), so nothing on it was meant as a deal that went wrong
  const bad: { line: number; message: string; text: string; unknown: boolean }[] = [];
  // lines that are deals (whatever the filter or an earlier line did with them), and lines read at all
  let deals = 0;
  let read = 0;
  let filtered = 0;
  let duplicates = 0;
  // each deal's place in `out`, by identity
  const seen = new Map<string, number>();
  const out: PlannedDeal[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const ref = withoutComment(raw).trim();
    if (ref === '' || ref.startsWith('#')) return;
    read++;
    // a pipe, socket or device named as a position file would hold the plan up (reading a pipe waits
    // for a writer, past Ctrl-C), and is not there to read again when the study resumes
    const st = statOrNull(resolve(cwd, ref));
    if (st !== null && !st.isFile() && !st.isDirectory()) {
      bad.push({ line: i + 1, message: `position file ${pathForMessage(ref)}: not a regular file (a pipe, socket or device); a deals file names position files, which are read again when its study resumes`, text: ref, unknown: false });
      return;
    }
    const r = load(ref);
    if (!r.ok) {
      const missing = st === null && r.error.code === 'bad-file';
      const where = missing ? missingPositionFile(r.error.message, ref, path, cwd) : null;
      bad.push({ line: i + 1, message: where?.message ?? r.error.message, text: ref, unknown: missing && !where?.beside });
      return;
    }
    deals++;
    const p = planFromLoaded(r.value, cwd);
    if ((filter.game && p.game !== filter.game) || (filter.suits && !filter.suits.includes(p.suits))) {
      filtered++;
      return;
    }
    // one deal by its identity (its cards), whatever names it: a code, a pysol: reference, a file;
    // another name of a deal already planned is kept as one of its names
    const id = p.deal ?? p.key;
    const first = seen.get(id);
    if (first !== undefined) {
      duplicates++;
      const name = dealName(p);
      const planned = out[first]!;
      if (name !== dealName(planned) && !planned.aliases?.includes(name)) out[first] = { ...planned, aliases: [...(planned.aliases ?? []), name] };
      return;
    }
    seen.set(id, out.length);
    out.push(p);
  });
  if (bad.length && deals === 0 && bad[0]!.unknown) throw notADealsFile(name, path, load, cwd, given, bad[0]!, read);
  if (bad.length) {
    // every bad line's number first (the first 50), then the first 20 messages
    const more = (n: number) => (bad.length > n ? `, … ${bad.length - n} more` : '');
    const numbers = `${bad.slice(0, 50).map((b) => b.line).join(', ')}${more(50)}`;
    const shown = bad.slice(0, 20).map((b) => `line ${b.line}: ${b.message}`);
    if (bad.length > 20) shown.push(`… and ${bad.length - 20} more`);
    throw new InputError('bad-reference', `--deals ${name}: ${bad.length} bad line${bad.length > 1 ? 's' : ''} (${numbers}), nothing was run: ${shown.join('; ')}`);
  }
  if (out.length === 0) {
    const which = [filter.game, filter.suits ? `${filter.suits.join(',')}-suit` : undefined].filter(Boolean).join(' ');
    throw new InputError('bad-file', filtered > 0 ? `--deals ${name}: no ${which} deal in the file (${filtered} line${filtered === 1 ? '' : 's'} of other games or suit counts left out)` : `--deals ${name}: no deal in the file`);
  }
  if (out.length > MAX_PLANNED_DEALS) throw new InputError('bad-file', `--deals ${name}: more than ${MAX_PLANNED_DEALS} deals; split the study`);
  return { deals: out, leftOut: filtered, duplicates };
}

/** The end of the loader's message (ref.ts loadDeal) for a path that names no file and no deal. */
const NO_SUCH_FILE_END = `: ${NO_SUCH_FILE}`;

/**
 * The message for a deals line `ref` (a relative path) that names no file from the working folder
 * `cwd`: the loader's `message`, with where it looked (`position file se4-7.txt: no such file in
 * /tmp (the working folder; paths in a deals file are read from there), and not a deal code or
 * pysol:GAME:N`) and, when a file of that name sits beside the deals file `dealsPath` (not `-`),
 * `; there is one beside the deals file: decks/se4-7.txt` (its path from the working folder, as a
 * deals line would name it; `beside` true). Null for an absolute path or another message.
 */
function missingPositionFile(message: string, ref: string, dealsPath: string, cwd: string): { message: string; beside: boolean } | null {
  if (isAbsolute(ref) || !message.endsWith(NO_SUCH_FILE_END)) return null;
  const head = `${message.slice(0, -NO_SUCH_FILE_END.length)}: no such file in ${pathForMessage(cwd)} (the working folder; paths in a deals file are read from there), and not a deal code or pysol:GAME:N`;
  const besidePath = dealsPath === '-' ? null : resolve(dirname(resolve(cwd, dealsPath)), ref);
  const beside = besidePath !== null && besidePath !== resolve(cwd, ref) && statOrNull(besidePath)?.isFile() === true;
  return { message: beside ? `${head}; there is one beside the deals file: ${pathForMessage(relative(cwd, besidePath!))}` : head, beside };
}

/** What a line of a deals file is, for the messages that say so. */
const DEALS_LINE_HELP = 'a deals line is a deal code (SP2-1007), pysol:GAME:N or a position-file path (relative to the working directory)';

/**
 * The error for a file given as `--deals` that is not a deals file: no line of it is a deal, and its
 * first bad line is not even shaped like one (no deal code, pysol: reference or file that exists; a
 * JSON or HTML file, a text of notes). One short line instead of every line's message: the file, the
 * first bad line's number and text (quoteInput, cut to 60 characters), and what a deals line is; or,
 * for a file that is itself a position file (read from a path, not a pipe), that it is one and where
 * it goes instead. InputError `bad-file`.
 */
function notADealsFile(name: string, path: string, load: DealLoader, cwd: string, given: string | undefined, first: { line: number; text: string }, lines: number): InputError {
  if (given === undefined && path !== '-') {
    const itself = load(resolve(cwd, path));
    if (itself.ok) {
      const v = itself.value.position.variant;
      return new InputError('bad-file', `--deals ${name}: is a position file (${v.game}, ${v.suits} suit${v.suits === 1 ? '' : 's'}), not a deals file: solve it with spidersolve solve, or put its path on a line of a deals file`);
    }
  }
  const which = lines === 1 ? `line ${first.line}` : `none of its ${lines.toLocaleString('en-US')} lines is a deal: line ${first.line}`;
  return new InputError('bad-file', `--deals ${name}: not a deals file: ${which}, ${quoteInput(first.text, 60)}, is no deal code, pysol:GAME:N or position file that exists; ${DEALS_LINE_HELP}`);
}

/** What a study plans: seeds (game, suit counts, ranges; the last may be open) or a deals file. */
export type StudyPlanSpec =
  | { readonly kind: 'seeds'; readonly game: GameName; readonly suits: readonly SuitCount[]; readonly ranges: readonly SeedRange[] }
  | { readonly kind: 'file'; readonly path: string; readonly filter?: DealFilter; readonly cwd?: string; /** The file's text, read already (a pipe), or absent: it is read here. */ readonly text?: string };

/** A study's plan: its deals in order, their count, and the deals file's lines left out by a filter. */
export interface StudyPlan {
  /** Re-iterable (each iteration starts afresh); endless for an open seed range. */
  readonly deals: Iterable<PlannedDeal>;
  /** Number of deals, or null for an open seed range. */
  readonly planned: number | null;
  readonly leftOut: number;
  /**
   * Lines of a deals file that repeat a deal planned before (merged into it); for seeds, the deals
   * that overlapping ranges give twice (`1-3,2-4`: 2), each planned once.
   */
  readonly duplicates: number;
}

/**
 * The one place a study's deal list is computed (batch, resume, and any subset of it such as a
 * shard): the deals of `planSeeds` (lazily, so an open range `1-` costs nothing up front) or of
 * `planDealsFile` (every line checked first). Throws the InputErrors of those functions.
 */
export function planStudy(spec: StudyPlanSpec, load: DealLoader): StudyPlan {
  if (spec.kind === 'file') {
    const p = planDealsFile(spec.path, load, spec.filter ?? {}, spec.cwd, spec.text);
    return { deals: p.deals, planned: p.deals.length, leftOut: p.leftOut, duplicates: p.duplicates };
  }
  const open = spec.ranges.some((r) => r.open);
  let planned: number | null = null;
  let duplicates = 0;
  if (!open) {
    const seeds = spec.ranges.reduce((n, r) => n + r.to - r.from + 1, 0);
    if (seeds * spec.suits.length > MAX_PLANNED_DEALS) {
      throw new InputError('bad-option', `options --seeds and --suits: ${seeds} seeds × ${spec.suits.length} suit counts is more than ${MAX_PLANNED_DEALS} deals; split the study`);
    }
    planned = 0;
    for (const _ of seedDeals(spec.game, spec.suits, spec.ranges)) planned++;
    duplicates = seeds * spec.suits.length - planned;
  }
  return { deals: { [Symbol.iterator]: () => seedDeals(spec.game, spec.suits, spec.ranges) }, planned, leftOut: 0, duplicates };
}
