/**
 * Typed parse and input errors, in the manner of chessops: a parser returns a `Result`, never throws,
 * and its error carries a stable `code` and a one-line `message` that names the input and the fault.
 */

/** Stable error codes, one per kind of fault a user can make. */
export type ErrorCode =
  | 'bad-code'
  | 'bad-checksum'
  | 'bad-card'
  | 'bad-composition'
  | 'bad-layout'
  | 'bad-stock'
  | 'bad-move'
  | 'illegal-move'
  | 'bad-file'
  | 'bad-json'
  | 'bad-option'
  | 'bad-reference';

/** A fault in something the user gave: `code` for programs, `message` (one line) for people. */
export class InputError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'InputError';
    this.code = code;
  }
}

/** Either a value or an InputError. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: InputError };

/** A successful Result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed Result with the given code and one-line message. */
export function err<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, error: new InputError(code, message) };
}

/** The value of a Result, or throws its InputError (for callers that report errors at one place). */
export function unwrap<T>(r: Result<T>): T {
  if (r.ok) return r.value;
  throw r.error;
}

/**
 * The characters that show as nothing on a terminal, or reorder its line, as a regular-expression
 * class body (flag u): format characters (Cf: U+202E, zero-width spaces, isolates) and the blank
 * fillers U+3164, U+115F, U+1160, U+FFA0, U+17B4, U+17B5 and U+034F.
 * Messages show them as `?` (quoteInput, main.ts); study names may not hold them (cli/batch.ts).
 */
export const INVISIBLE_CLASS = '\\p{Cf}\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u3164\\uffa0';

/** Every invisible character (INVISIBLE_CLASS) of a string, for `replace`. */
export const INVISIBLE_CHARS = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');

/** Every character a message cannot show on a terminal line: outside the printable ranges, U+FFFD, a line or paragraph separator, or invisible. */
const UNSHOWN = new RegExp(`[^\\x20-\\x7e\\u00a0-\\uffff]|[\\ufffd\\u2028\\u2029${INVISIBLE_CLASS}]`, 'gu');

/** Most characters of the user's input that an error message quotes (see `quoteInput`). */
export const QUOTE_MAX = 40;

/**
 * A piece of the user's input as an error message quotes it: in double quotes, each character that
 * cannot be shown on a terminal line (control characters, bytes that were not UTF-8, and the
 * invisible ones of INVISIBLE_CLASS, such as U+202E, which reorders the line it is on) as `?`, and a
 * text longer than `max` characters cut to its start and end around `…`, followed by its length:
 * `"SP4X-AAAAAAAAAAAAAAAAAAAAAAAAA…AAAAAAAAA" (100,005 characters)`. So a message stays one short
 * line that states the fault, whatever was typed or read.
 */
export function quoteInput(text: string, max = QUOTE_MAX): string {
  const chars = [...String(text)];
  const printable = (s: string) => s.replace(UNSHOWN, '?');
  if (chars.length <= max) return `"${printable(chars.join(''))}"`;
  const tail = Math.floor(max / 4);
  const head = max - tail - 1;
  return `"${printable(chars.slice(0, head).join(''))}…${printable(chars.slice(-tail).join(''))}" (${chars.length.toLocaleString('en-US')} characters)`;
}

/**
 * The one rule for a whole number the user writes as an option value or a player parameter
 * (`--player-seed 5`, `--workers 2`, `sample:k=8`): digits alone, after trimming the spaces at its ends;
 * no sign (`+5` and `-1` are refused alike), separators, decimal point or exponent. Returns the number
 * when it is in lo..hi, or why not, as the end of a message that the caller starts by naming the input
 * (`option --workers "+2": `): `a sign is not taken; write the number in digits alone (1..256)`,
 * `not a whole number in digits (1..256)`, `must be 1..256`.
 */
export function wholeNumber(text: string, lo: number, hi: number): { value: number } | { why: string } {
  const t = String(text).trim();
  if (/^[+-]\d+$/.test(t)) return { why: `a sign is not taken; write the number in digits alone (${lo}..${hi})` };
  if (!/^\d+$/.test(t)) return { why: `not a whole number in digits (${lo}..${hi})` };
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < lo || n > hi) return { why: `must be ${lo}..${hi}` };
  return { value: n };
}

/**
 * Why the contents of a file, read as UTF-8, are not text, or null when they are: `a zero byte at
 * line N` for a NUL, `bytes that are not UTF-8 text at line N` for bytes the reading replaced by
 * U+FFFD (the first of either). A binary file (a program, an image, a database) is then refused as a
 * whole in one line, not parsed line by line.
 */
export function notTextReason(text: string): string | null {
  const at = text.search(/[\u0000\ufffd]/);
  if (at < 0) return null;
  return `${text[at] === '\u0000' ? 'a zero byte' : 'bytes that are not UTF-8 text'} at line ${text.slice(0, at).split('\n').length}`;
}

/**
 * A file name as an error message shows it: as given when it is printable, at most 120 characters
 * long, not empty and without spaces at either end; else quoted and cut as `quoteInput` does.
 */
export function pathForMessage(path: string): string {
  const plain = path.length > 0 && path.length <= 120 && path.trim() === path;
  return plain && path.search(UNSHOWN) < 0 ? path : quoteInput(path);
}

/**
 * A JSON value read from the user's file as an error message shows it: a number, true, false or null
 * as JSON writes it, a string as `quoteInput` quotes it, and an array or object by its kind only
 * (`an array`, `an object`): never written out whole, so a value nested thousands deep cannot
 * overflow the stack or the line.
 */
export function describeJsonValue(x: unknown): string {
  if (typeof x === 'string') return quoteInput(x);
  if (Array.isArray(x)) return `an array (${x.length} item${x.length === 1 ? '' : 's'})`;
  if (x !== null && typeof x === 'object') return 'an object';
  // a number JSON cannot hold (1e400 reads as Infinity, which JSON.stringify writes as null)
  if (typeof x === 'number' && !Number.isFinite(x)) return 'a number out of range';
  return quoteInput(String(JSON.stringify(x) ?? typeof x)).slice(1, -1);
}

/** Words for the file-system errors a user can meet naming a file (Node's `code`, as open(2) and read(2) give them). */
const FILE_ERROR_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links (a loop of links?)',
  ENAMETOOLONG: 'the name is too long for the file system',
  EIO: 'an input/output error (a failing disk?)',
  ENXIO: 'no device or reader behind it',
};

/**
 * Why a file could not be read, in words for an error message, with the system's code in
 * parentheses for a search: `permission denied (EACCES)`; an unknown code alone, `cannot be read
 * (EFOO)`; an error without a code by its message.
 */
export function fileErrorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return `cannot be read (${e instanceof Error ? e.message : String(e)})`;
  const words = FILE_ERROR_WORDS[code];
  return words === undefined ? `cannot be read (${code})` : `${words} (${code})`;
}
