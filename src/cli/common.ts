/**
 * Helpers shared by the CLI commands: JSON output, option parsing, deal loading and position display.
 * Commands throw InputError for anything the user got wrong; main.ts reports it in one place.
 */
import { readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { DEFAULT_DB_PATH } from '../batch/store.js';
import { makeCard, suitOf, SUIT_SYMBOLS, type Card, type Suit } from '../game/cards.js';
import { ownNumbering, pysolNumbering, type Numbering } from '../game/numbering.js';
import { isPysolKind, pysolDeal } from '../game/pysol.js';
import { fileErrorText, InputError, pathForMessage, quoteInput, wholeNumber } from '../game/errors.js';
import type { Position } from '../game/position.js';
import { dealOfPositionText, loadDeal, MAX_POSITION_FILE_BYTES, type LoadedDeal } from '../game/ref.js';
import { MAX_MAX_POSITIONS } from '../solver/types.js';
import { isGameName, isSuitCount, type GameName, type SuitCount } from '../game/variant.js';

/** What a `<deal>` argument may be, for every command's help. */
export const DEAL_HELP =
  '<deal> is a deal code (SP2-1007, se4-7, SP4X-…), pysol:spider:N, pysol:spider2:N, pysol:spider1:N, ' +
  'pysol:spiderette:N (PySolFC deal N; a command with --columns prints its moves in PySolFC\'s column numbers unless told otherwise), or a position file ' +
  '(starting with {, or named *.json and not starting with the text form\'s # spidersolve position: the JSON form; anything else: the text form; - reads it from standard input).';

/** The spidersolve package this program runs from: its folder and version (packageInfo). */
export interface PackageInfo {
  readonly root: string;
  readonly version: string;
}

let packageFound: PackageInfo | null | undefined;

/**
 * The folder and version of spidersolve's package.json, found by walking up from this file (works
 * from src/ and dist/src/), or null if there is none. Read once a process.
 */
export function packageInfo(): PackageInfo | null {
  if (packageFound !== undefined) return packageFound;
  packageFound = null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'spidersolve' && pkg.version) return (packageFound = { root: dir, version: pkg.version });
    } catch {
      // keep looking
    }
    dir = dirname(dir);
  }
  return packageFound;
}

/**
 * The words an option's help ends its description with when the option may be given more than once
 * (its values collected): main.ts's check of options given twice lets those through.
 */
export const REPEATABLE = '(repeatable)';

/** The environment variable that names the default results database (`--db` wins over it). */
export const DB_ENV = 'SPIDERSOLVE_DB';

/**
 * The `--db <file>` option of every command that reads or writes a results database: default
 * DEFAULT_DB_PATH, or the file SPIDERSOLVE_DB names when it is set (and not empty: an empty value is
 * taken as unset, see useDefaultDbForEmptyEnv); `--db` on the command line wins over both. The help
 * says so (`env: SPIDERSOLVE_DB`).
 */
export function dbOption(description = 'results database'): Option {
  return new Option('--db <file>', `${description}; ${DB_ENV} in the environment names another default, and --db wins over it`).env(DB_ENV).default(DEFAULT_DB_PATH);
}

/**
 * A `preAction` hook for the program: a SPIDERSOLVE_DB that is set but empty (or only spaces), as
 * `SPIDERSOLVE_DB= spidersolve report` sets it, is taken as unset (the default database), not as a
 * database named "" that every command would refuse.
 */
export function useDefaultDbForEmptyEnv(_program: Command, cmd: Command): void {
  if (cmd.getOptionValueSource('db') === 'env' && String(cmd.getOptionValue('db') ?? '').trim() === '') {
    cmd.setOptionValueWithSource('db', DEFAULT_DB_PATH, 'default');
  }
}

/**
 * An error message about the results database as said when the command took its path from
 * SPIDERSOLVE_DB (`db`; not from --db): `database PATH (from SPIDERSOLVE_DB): …`, with its advice to
 * give another --db (`use another --db path`, `give --db`) made `set SPIDERSOLVE_DB to another path
 * or give --db`, and that advice added after a message that gives none. A message that does not
 * begin with `database PATH` (another file's) is returned as it is.
 */
export function dbFromEnvMessage(message: string, db: string): string {
  const head = `database ${pathForMessage(db)}`;
  if (!message.startsWith(`${head}:`) && !message.startsWith(`${head} `)) return message;
  const advice = `set ${DB_ENV} to another path or give --db`;
  const rest = message.slice(head.length);
  const advised = rest.replace(/(?:use|give) another --db(?: path)?|give --db\b/g, advice);
  return `${head} (from ${DB_ENV})${advised}${advised === rest ? `; ${advice}` : ''}`;
}

/** Help of `--quiet`, the same for every command that has it but `batch` (BATCH_QUIET_HELP). */
export const QUIET_HELP = 'print nothing on stderr but errors: no progress, notes or "wrote" line';

/** Help of `--quiet` for a command that writes nothing on stderr but errors: taken, as every command takes it. */
export const QUIET_NOTHING_HELP = 'taken for scripts that give every command --quiet: this command writes nothing on stderr but errors';

/** The exit codes of a command that only reads its input and prints (deal, show, moves, play, completion), for its help. */
export const PLAIN_EXIT_HELP = '\n\nExit codes: 0 done, 2 bad input (one line on stderr), 1 internal error.';

/** Help of `batch --quiet`: QUIET_HELP, and what an interruption still prints. */
export const BATCH_QUIET_HELP = `${QUIET_HELP} (the resume line of an interrupted batch is kept)`;

/** The form of a viewer page, for wroteLine's note on a name that says another form. */
export const HTML_PAGE = Object.freeze({ writing: 'an HTML page', kinds: ['.html', '.htm'] as readonly string[] });

/**
 * The line a command prints on stderr after writing its `--out` file (unless `--quiet`), the same
 * wording for every command: `spidersolve: wrote <file>: <what>`, `what` saying what is in it
 * (`SE4-7, won in 63 moves`, `HTML report, 9 rows of 3 studies`). With `form` (the form written, in
 * words, and the extensions that fit it), first the note that the file's name says another form
 * (noteOutExtension): said once the file is written, so that a write that fails is one line.
 */
export function wroteLine(out: string, what: string, quiet?: boolean, form?: { readonly writing: string; readonly kinds: readonly string[] }): void {
  if (form) noteOutExtension(out, form.writing, form.kinds, quiet);
  if (!quiet) process.stderr.write(`spidersolve: wrote ${out}: ${what}\n`);
}

/**
 * The output format an `--out` file's name asks for, by its extension (case-insensitive, the last
 * one: `r.v2.HTML` is `.html`): `formats[ext]`, the extensions written with their dot; undefined for
 * another extension or none. A command takes it when `--format` is not given (an explicit --format
 * wins, whatever the name).
 */
export function formatOfOutFile<F extends string>(out: string, formats: Readonly<Record<string, F>>): F | undefined {
  const ext = extname(out).toLowerCase();
  return Object.hasOwn(formats, ext) ? formats[ext] : undefined;
}

/** What an `--out` file's extension says it holds, in words, for the extensions the commands know. */
const EXTENSION_WORDS: Readonly<Record<string, string>> = {
  '.html': 'an HTML page', '.htm': 'an HTML page', '.md': 'Markdown', '.markdown': 'Markdown', '.csv': 'CSV', '.json': 'JSON', '.txt': 'text',
};

/**
 * A note on stderr (unless `quiet`) when a command writes `out` in a form its extension does not
 * name: `report --format md --out r.html`, `blind --out game.txt` (always a page), `show SE4-7 --out
 * s.html` (text); or when the extension is one no form of spidersolve has (`report --out r.pdf`, the
 * text table: `…, though its extension .pdf names no form spidersolve writes (.txt fits it)`).
 * `writing` is the form in words (`Markdown`, `an HTML page`), `kinds` the extensions that fit it
 * (with their dot). Nothing is said for a name with no extension. The file is written all the same:
 * the note only says that its name will mislead.
 */
function noteOutExtension(out: string, writing: string, kinds: readonly string[], quiet?: boolean): void {
  const ext = extname(out).toLowerCase();
  if (quiet || ext === '' || ext === '.' || kinds.includes(ext)) return;
  if (Object.hasOwn(EXTENSION_WORDS, ext)) {
    process.stderr.write(`spidersolve: note: ${out} holds ${writing}, though its extension says ${EXTENSION_WORDS[ext]}\n`);
    return;
  }
  const fits = kinds.length === 0 ? '' : ` (${kinds.length === 1 ? kinds[0] : `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`} fit${kinds.length === 1 ? 's' : ''} it)`;
  process.stderr.write(`spidersolve: note: ${out} holds ${writing}, though its extension ${ext} names no form spidersolve writes${fits}\n`);
}

/**
 * The note (one line, `\n`-ended) for an HTML page of `bytes` bytes written to standard output when
 * that is a terminal (`isTTY`, process.stdout.isTTY): `spidersolve: note: that was an HTML page (18
 * KB), for a browser; give --out FILE.html to write it to a file`. Null when standard output is not a
 * terminal (a pipe or a file: scripts take the page there) or with `quiet`. The page is written to
 * standard output all the same.
 */
export function htmlOnTerminalNote(isTTY: boolean | undefined, bytes: number, quiet?: boolean): string | null {
  if (!isTTY || quiet) return null;
  return `spidersolve: note: that was an HTML page (${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KB), for a browser; give --out FILE.html to write it to a file\n`;
}

/** Writes `html` to stdout, then htmlOnTerminalNote's note on stderr when stdout is a terminal. */
export function writeHtmlToStdout(html: string, quiet?: boolean): void {
  process.stdout.write(html);
  const note = htmlOnTerminalNote(process.stdout.isTTY, Buffer.byteLength(html), quiet);
  if (note) process.stderr.write(note);
}

/** Writes one JSON object to stdout (2-space indented, newline-terminated). */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Writes lines of text to stdout. */
export function printLines(lines: readonly string[]): void {
  process.stdout.write(lines.length ? lines.join('\n') + '\n' : '');
}

/**
 * Dashes that look like the hyphen-minus of a deal code or a move (`SP2–1`, `5−4`): the hyphen and
 * non-breaking hyphen, figure, en and em dashes, the horizontal bar, the minus sign, and the small and
 * full-width hyphen-minus (U+2010..U+2015, U+2212, U+FE58, U+FE63, U+FF0D).
 */
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;

/**
 * The ASCII form of a text typed with look-alike characters that are not ASCII — full-width letters and
 * digits (`ＳＰ２-１`, as a Japanese or Chinese input method types them), a full-width or typographic
 * dash (`SP2–1`): Unicode's compatibility form (NFKC) with DASHES as `-`. Null when the text is
 * ASCII already, or when that form is not all printable ASCII (a name in another script is not a
 * look-alike).
 */
export function asciiLookalike(text: string): string | null {
  if (/^[\x20-\x7e]*$/.test(text)) return null;
  const t = text.normalize('NFKC').replace(DASHES, '-');
  return /^[\x20-\x7e]*$/.test(t) ? t : null;
}

/** The characters of `text` that are not ASCII, each once, as `Ｓ (U+FF33)`, for a note. */
export function nonAsciiChars(text: string): string {
  const seen = [...new Set([...text].filter((c) => !/[\x20-\x7e]/.test(c)))];
  const shown = seen.slice(0, 6).map((c) => `${c} (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
  return shown.join(', ') + (seen.length > 6 ? `, … (${seen.length} in all)` : '');
}

/**
 * What a command's head line calls a deal: the reference as the user typed it for a PySolFC deal
 * (`pysol:spider:5`) or a position file (its path: the explicit code of a file's position is some 70
 * characters that say nothing to a reader), else its canonical deal code (`se4-7` is `SE4-7`).
 */
export function dealTitle(d: LoadedDeal): string {
  return d.source.kind === 'pysol' || d.source.kind === 'file' || !d.code ? d.label : d.code;
}

/** How messages name standard input given as `-` (as `--deals -` is named: deals.ts dealsFileName). */
export const STDIN_NAME = '- (standard input)';

/**
 * The text of the process's standard input, read to its end through `process.stdin` (whatever it is:
 * a pipe, a socket, which /dev/stdin cannot open, a file or a terminal), up to `max` bytes. Resolves
 * null when it holds more than `max` bytes (then it is not read further); rejects with the stream's
 * error.
 */
export function readStdinText(max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (value: string | null, e?: unknown): void => {
      if (done) return;
      done = true;
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      // a stream left part-read (too large, or broken) is closed, not left waiting
      if (value === null) input.destroy();
      else input.pause();
      if (e !== undefined) reject(e);
      else resolve(value);
    };
    const onData = (c: Buffer | string): void => {
      const b = typeof c === 'string' ? Buffer.from(c) : c;
      chunks.push(b);
      bytes += b.length;
      if (bytes > max) finish(null);
    };
    const onEnd = (): void => finish(Buffer.concat(chunks).toString('utf8'));
    const onError = (e: unknown): void => finish(null, e);
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
    input.resume();
  });
}

/**
 * Resolves a `<deal>` argument as loadDealOrThrow does, with `-` read from standard input through
 * `process.stdin` (readStdinText, up to MAX_POSITION_FILE_BYTES) and named `- (standard input)` in
 * messages and head lines (STDIN_NAME, the deal's `label`; its `source.path` stays /dev/stdin). Rejects with
 * InputError `bad-file` when standard input cannot be read or holds more than a position file may,
 * and with the position file's errors (ref.ts dealOfPositionText).
 */
export async function loadDealArg(ref: string, quiet = false): Promise<LoadedDeal> {
  if (ref !== '-') return loadDealOrThrow(ref, quiet);
  let text: string | null;
  try {
    text = await readStdinText(MAX_POSITION_FILE_BYTES);
  } catch (e) {
    throw new InputError('bad-file', `position file ${STDIN_NAME}: ${fileErrorText(e)}`);
  }
  if (text === null) throw new InputError('bad-file', `position file ${STDIN_NAME}: too large (over ${MAX_POSITION_FILE_BYTES / 1024 / 1024} MiB; a position file holds a few kilobytes)`);
  const r = dealOfPositionText(text, '/dev/stdin', STDIN_NAME, STDIN_NAME);
  if (!r.ok) throw r.error;
  return r.value;
}

/**
 * Resolves a `<deal>` argument through loadDeal (ref.ts), `-` as /dev/stdin (named `- (standard
 * input)` in messages; loadDealArg reads it through `process.stdin` instead); throws its InputError on
 * failure. A deal written in characters that are not ASCII but look like it (`ＳＰ２-１`, `SP2–1`;
 * asciiLookalike) and that names no file is read in its ASCII form, with a note on stderr saying so
 * (unless `quiet`); if that form is no deal either, the error says the characters are not ASCII.
 */
export function loadDealOrThrow(ref: string, quiet = false): LoadedDeal {
  // `-`: a position file on standard input, as /dev/stdin names it (batch --deals - reads its list so)
  const r = ref === '-' ? loadDeal('/dev/stdin', STDIN_NAME) : loadDeal(ref);
  if (r.ok) return r.value;
  const ascii = asciiLookalike(ref);
  if (ascii === null) throw r.error;
  const again = loadDeal(ascii.trim());
  if (!again.ok) throw new InputError(again.error.code, `${again.error.message} (read from ${quoteInput(ref)}, whose characters ${nonAsciiChars(ref)} are not ASCII: taken as their ASCII forms)`);
  if (!quiet) process.stderr.write(`spidersolve: note: read deal ${quoteInput(ref)} as ${ascii.trim()}: its characters ${nonAsciiChars(ref)} are not ASCII (full-width or typographic look-alikes), taken as their ASCII forms\n`);
  return again.value;
}

/**
 * The moves of a line as given on the command line (`play`'s arguments, `view --line`): split at
 * spaces and commas, with spaces around a move's dash closed up (`5 - 4` is 5-4; a dash never stands
 * alone in the notation) and look-alike characters that are not ASCII (`５−４`; asciiLookalike) taken
 * as their ASCII forms, with a note on stderr saying so (unless `quiet`).
 */
export function lineWords(args: readonly string[], quiet = false): string[] {
  const given = args.join(' ');
  const ascii = asciiLookalike(given);
  if (ascii !== null && !quiet) process.stderr.write(`spidersolve: note: read the moves ${quoteInput(given)} as ${quoteInput(ascii)}: their characters ${nonAsciiChars(given)} are not ASCII (full-width or typographic look-alikes), taken as their ASCII forms\n`);
  return (ascii ?? given).replace(/\s*-\s*/g, '-').split(/[\s,]+/).filter(Boolean);
}

/**
 * Parses a whole-number option value in min..max, written in digits alone (errors.ts wholeNumber, the
 * rule player parameters follow too: no sign). Throws InputError `bad-option`, one line naming the
 * option: `option --max-positions "abc": not a whole number in digits (1..200000000)`, `option --count
 * "0": must be 1..1000000`, `option --player-seed "+5": a sign is not taken; write the number in digits
 * alone (0..4294967295)`.
 */
export function parseIntOption(name: string, text: string, min: number, max: number): number {
  const r = wholeNumber(text, min, max);
  if ('why' in r) throw new InputError('bad-option', `option --${name} ${quoteInput(text)}: ${r.why}`);
  return r.value;
}

/**
 * Parses the `--max-positions` of a command that solves one deal (`command`: solve, hint, view): one
 * budget, 1..MAX_MAX_POSITIONS. A comma list of whole numbers (a ladder of budgets, or one budget
 * written with thousands separators) is refused saying that ladders are batch's and this command takes
 * one budget; anything else as parseIntOption refuses it. Throws InputError `bad-option`.
 */
export function parseBudgetOption(command: string, text: string): number {
  if (/^\s*\d+(\s*,\s*\d+)+\s*$/.test(String(text))) {
    throw new InputError('bad-option', `option --max-positions ${quoteInput(text)}: a ladder of budgets is for batch only; ${command} takes one budget, in digits without separators (1..${MAX_MAX_POSITIONS})`);
  }
  return parseIntOption('max-positions', text, 1, MAX_MAX_POSITIONS);
}

/** Parses `--game`: spider or spiderette (any case). Throws InputError `bad-option`. */
export function parseGameOption(text: string): GameName {
  const g = String(text).trim().toLowerCase();
  if (!isGameName(g)) throw new InputError('bad-option', `option --game ${quoteInput(text)}: use spider or spiderette`);
  return g;
}

/** Parses `--suits`: 1, 2 or 4. Throws InputError `bad-option`. */
export function parseSuitsOption(text: string): SuitCount {
  const t = String(text).trim();
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!isSuitCount(n)) throw new InputError('bad-option', `option --suits ${quoteInput(text)}: use 1, 2 or 4`);
  return n;
}

/**
 * A position as lines of text for people: one line per column (`##` for each face-down card unless
 * `reveal`, then ` | `, then the face-up cards, with Unicode suits ♠♥♦♣), the stock (deal sizes, or the
 * cards of each deal with `reveal`) and the removed suits.
 */
export function formatPosition(pos: Position, reveal: boolean, numbering?: Numbering, cardName?: (c: Card) => string): string[] {
  const v = pos.variant;
  const card = cardName ?? ((c: number) => makeCard(c, true));
  const lines: string[] = [];
  const w = String(v.columns).length;
  // rows in the order of the shown column numbers (PySolFC's, for a pysol: deal in its numbering)
  const shown = numbering?.shown ?? pos.columns.map((_, i) => i + 1);
  const rows = pos.columns.map((_, i) => i).sort((a, b) => shown[a]! - shown[b]!);
  for (const i of rows) {
    const col = pos.columns[i]!;
    const down = reveal ? col.down.map(card) : col.down.map(() => '##');
    const up = col.up.map(card);
    const body = col.down.length + col.up.length === 0 ? '(empty)' : [...down, '|', ...up].join(' ');
    lines.push(`${String(shown[i]).padStart(w)}: ${body}`);
  }
  const cards = pos.stock.reduce((s, d) => s + d.length, 0);
  if (pos.stock.length === 0) lines.push('stock: empty');
  else if (!reveal) lines.push(`stock: ${pos.stock.length} deal${pos.stock.length === 1 ? '' : 's'} left (${pos.stock.map((d) => d.length).join(', ')} cards, ${cards} in all)`);
  else pos.stock.forEach((d, i) => lines.push(`stock ${i + 1}/${pos.stock.length}: ${d.map((_, c) => c).sort((a, b) => shown[a]! - shown[b]!).map((c) => card(d[c]!)).join(' ')}`));
  const suitName = (s: Suit) => (cardName ? card(s * 13).slice(1) : SUIT_SYMBOLS[s]);
  // completeSuits counts runs K..A (8 in two-suit Spider: four of each suit), not suits
  lines.push(`removed: ${pos.removed.length ? pos.removed.map(suitName).join(' ') : 'none'} (${pos.removed.length} of ${v.completeSuits} runs completed)`);
  return lines;
}

/** `spider, 2 suits` */
export function variantLabel(pos: Position): string {
  return `${pos.variant.game}, ${pos.variant.suits} suit${pos.variant.suits === 1 ? '' : 's'}`;
}

/** Help of `--columns`, for every command that prints or reads moves. */
export const COLUMNS_HELP =
  'column numbers of the moves printed and read: pysol (PySolFC\'s own columns, as PySolFC lays the deal out: ' +
  'the default for a pysol: deal, so a line can be played in PySolFC as printed) or spidersolve (this project\'s layout; ' +
  'the only numbering of other deals)';

/**
 * The numbering of a deal's moves: `--columns` if given, else PySolFC's for a `pysol:` deal and
 * spidersolve's otherwise. Throws InputError `bad-option` for another value, or `pysol` for a deal
 * that is not from PySolFC.
 */
export function numberingFor(d: LoadedDeal, option: string | undefined): Numbering {
  const v = option === undefined ? undefined : String(option).trim().toLowerCase();
  if (v !== undefined && v !== 'pysol' && v !== 'spidersolve') throw new InputError('bad-option', `option --columns ${quoteInput(String(option))}: use pysol or spidersolve`);
  const own = ownNumbering(d.position.columns.length);
  if (d.source.kind !== 'pysol') {
    if (v === 'pysol') throw new InputError('bad-option', `option --columns pysol: ${d.label} is not a PySolFC deal (pysol:GAME:N); its columns are spidersolve's`);
    return own;
  }
  if (v === 'spidersolve') return own;
  const kind = d.source.game.toLowerCase();
  const p = isPysolKind(kind) ? pysolDeal(kind, d.source.number) : null;
  return p && p.ok ? pysolNumbering(p.value.columnMap) : own;
}

/**
 * The line every output of a PySolFC deal's moves carries, saying which numbering it uses; null for
 * other deals (they have one numbering).
 */
export function numberingNote(d: LoadedDeal, n: Numbering): string | null {
  if (d.source.kind !== 'pysol') return null;
  const cols = n.shown.length;
  if (n.name === 'pysol') {
    const same = n.shown.every((c, i) => c === i + 1);
    return `columns: PySolFC's, 1-${cols} left to right as PySolFC lays the deal out${same ? ' (the same as spidersolve\'s)' : ''}, so the moves can be played in PySolFC as printed${d.position.variant.suits < 4 ? '; cards in PySolFC\'s suits (clubs for spades)' : ''} (--columns spidersolve for spidersolve's layout)`;
  }
  return `columns: spidersolve's layout (PySolFC columns ${n.shown.length === 10 ? '1,4,7,10,2,3,5,6,8,9' : '1-7'} are spidersolve's 1-${cols}); --columns pysol for PySolFC's own numbers`;
}

/**
 * Cards in words for a deal shown in a numbering: PySolFC's 1- and 2-suit games use clubs where
 * spidersolve uses spades (pysol.ts), so in PySolFC's numbering spades are written as clubs.
 */
export function cardWords(d: LoadedDeal, n: Numbering): { card: (c: Card) => string; suit: (s: Suit) => string } {
  const clubs = n.name === 'pysol' && d.position.variant.suits < 4;
  const suit = (s: Suit): string => SUIT_SYMBOLS[clubs && s === 0 ? 3 : s];
  return { card: (c: Card) => makeCard(clubs && suitOf(c) === 0 ? c + 39 : c, true), suit };
}
