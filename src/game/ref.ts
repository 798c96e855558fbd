/**
 * One resolver for every `<deal>` argument of the CLI, the batch worker and the solver CLI.
 *
 * Accepted forms, tried in this order:
 * - `pysol:<kind>:<N>` with kind `spider` (4 suits), `spider2`, `spider1` or `spiderette`
 *   (case-insensitive): PySolFC's deal N, mapped onto this project's layout (pysol.ts); its `code` is
 *   the explicit code of the mapped deal.
 * - a deal code, seeded `SP2-1007` or explicit `SP4X-…` (code.ts);
 * - otherwise a path to a position file: `.json`, or a file whose first non-blank character is `{`
 *   (a pipe, /dev/stdin), → the JSON form; anything else → the text form
 *   (positionFile.ts). A file holding a start position (every column as dealt, full stock, nothing
 *   removed) gets the explicit code of that deal; any other position gets `code: null`.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { makeDealCode, parseDealCode } from './code.js';
import { err, fileErrorText, notTextReason, ok, pathForMessage, quoteInput, type Result } from './errors.js';
import { dealCardsOf, positionFromDeal, type Position } from './position.js';
import { parsePositionJson, parsePositionText, TEXT_HEADER, type PositionFileMeta } from './positionFile.js';
import { isPysolKind, parsePysolNumber, pysolDeal } from './pysol.js';

/**
 * Most bytes a position file may hold. One holds a few kilobytes (104 cards and a few keys, docs/commands.md:
 * Position files); a larger file, or a device that never ends (/dev/zero), is refused after reading
 * this much, not read whole into memory.
 */
export const MAX_POSITION_FILE_BYTES = 1024 * 1024;

/**
 * The text (UTF-8) of the file at `path`, read up to `max` bytes. Throws the file system's error, or
 * an Error with code `E2BIG` when the file holds more than `max` bytes.
 */
function readTextUpTo(path: string, max: number): string {
  const fd = openSync(path, 'r');
  try {
    // one read buffer of max + 1 bytes (not zero-filled): a file that fills it is too large
    const buf = Buffer.allocUnsafe(max + 1);
    let used = 0;
    for (let n; (n = readSync(fd, buf, used, max + 1 - used, null)) > 0; ) {
      used += n;
      if (used > max) throw Object.assign(new Error(`more than ${max} bytes`), { code: 'E2BIG' });
    }
    return buf.toString('utf8', 0, used);
  } finally {
    closeSync(fd);
  }
}

/** Where a loaded deal came from. */
export type DealSource =
  | { kind: 'seed'; seed: number }
  | { kind: 'pysol'; game: string; number: number }
  | { kind: 'code' }
  | { kind: 'file'; path: string; /** The file's own `source:` text (positionFile.ts), if it has one. */ text?: string };

/** A resolved `<deal>` argument. */
export interface LoadedDeal {
  /** The position to play or solve (a start position, or any position read from a file). */
  position: Position;
  /** Deal code of a start position (seeded or explicit); null for a mid-game position. */
  code: string | null;
  /** Where it came from. */
  source: DealSource;
  /** What the user typed. */
  label: string;
}

/** What a `bad-file` message of loadDeal says, after the file's name and a colon, of a path that names no file and no deal. */
export const NO_SUCH_FILE = 'no such file (and not a deal code or pysol:GAME:N)';

/**
 * Resolves a `<deal>` argument (see the module comment). Errors are one-line InputErrors naming the
 * argument: `bad-code`/`bad-checksum`/`bad-composition` for a code, `bad-reference` for a pysol:
 * reference, `bad-file` for a missing or unreadable file or one that is not text (a zero byte, bytes
 * that are not UTF-8), and the position-file codes for its content. `name`: how messages name the
 * file (default the path as pathForMessage shows it).
 */
export function loadDeal(ref: string, name: string = pathForMessage(ref)): Result<LoadedDeal> {
  const label = ref;
  const t = ref.trim();
  if (t === '') return err('bad-reference', `deal ${quoteInput(ref)}: empty; give a deal code (SP2-1007), pysol:spider:N or a position file`);
  const pm = /^pysol:(.*)$/i.exec(t);
  if (pm) {
    const parts = pm[1]!.split(':');
    const kind = (parts[0] ?? '').toLowerCase();
    if (parts.length !== 2 || !isPysolKind(kind)) {
      // `pysol:spider:1 pysol:spider:2`: two references on one line of a deals file, or in one argument
      const two = /\s/.test(t) ? ' (a space inside: one reference at a time, one a line in a deals file)'
        // `pysol:spider4:5`, `pysol:spiderette4:5`: the four-suit games are named without a suit count
        : /^(spider|spiderette)4$/.test(kind) ? ` (four suits is ${kind.slice(0, -1)}: pysol:${kind.slice(0, -1)}:${parts[1] ?? 'N'})` : '';
      return err('bad-reference', `deal ${quoteInput(ref, 130)}: write pysol:GAME:N with GAME spider, spider2, spider1 or spiderette${two}`);
    }
    const n = parsePysolNumber(parts[1]!, `deal ${quoteInput(ref, 130)}`);
    if (!n.ok) return n;
    const d = pysolDeal(kind, n.value);
    if (!d.ok) return d;
    const cards = dealCardsOf(d.value.position)!;
    return ok({
      position: d.value.position,
      code: makeDealCode(d.value.position.variant, cards),
      source: { kind: 'pysol', game: kind, number: n.value },
      label,
    });
  }
  if (/^(SP|SE)\d*X?-[0-9A-Z]*$/i.test(t)) {
    const r = parseDealCode(t);
    if (!r.ok) return r;
    const { variant, seed, cards } = r.value;
    return ok({
      position: positionFromDeal(variant, cards),
      code: makeDealCode(variant, cards, seed),
      source: seed === undefined ? { kind: 'code' } : { kind: 'seed', seed },
      label,
    });
  }
  let text: string;
  try {
    text = readTextUpTo(ref, MAX_POSITION_FILE_BYTES);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // no such file, but it starts like a deal code (SP2-1.5, SE4--1): say what is wrong with the code;
    // unless it reads as a file name (a folder, or an extension: se4-7.json), which is then missing
    const fileLike = /[/\\]|\.[a-z]/i.test(t);
    if (code === 'ENOENT' && !fileLike && /^(SP|SE)\d*X?-/i.test(t)) {
      const c = parseDealCode(t);
      if (!c.ok) return c;
    }
    // no such file, and a seeded deal code with its hyphen left out or mistyped (SP27, SP2_7, se4.12,
    // "SP2 7"): name the code it most likely is
    const typo = /^(SP|SE)([124])(?:[_.:]|\s+)?(\d{1,10})$/i.exec(t);
    if (code === 'ENOENT' && typo) {
      const guess = `${typo[1]!.toUpperCase()}${typo[2]}-${typo[3]}`;
      return err('bad-code', `deal ${quoteInput(ref, 130)}: no such file, and not a deal code (a code is game, suits, hyphen, seed); did you mean ${guess}?`);
    }
    // no such file, and a game and suit count with no seed (SE1, sp4): say a code needs one
    const bare = /^(SP|SE)([124])$/i.exec(t);
    if (code === 'ENOENT' && bare) {
      const example = `${bare[1]!.toUpperCase()}${bare[2]}-7`;
      return err('bad-code', `deal ${quoteInput(ref, 130)}: no such file, and not a deal code: a code needs a hyphen and a seed (${example} is seed 7)`);
    }
    // no such file, and a game with a suit count there is not (SE3, SP31): name the suit counts
    const suits = /^(SP|SE)(\d{1,3})$/i.exec(t);
    if (code === 'ENOENT' && suits) {
      return err('bad-code', `deal ${quoteInput(ref, 130)}: no such file, and not a deal code: the suits are 1, 2 or 4, then a hyphen and a seed (${suits[1]!.toUpperCase()}2-7 is two suits, seed 7)`);
    }
    // no such file, and shaped like a code of another game (XX1-1): name the games there are
    if (code === 'ENOENT' && /^[a-z]{1,4}\d*x?-[0-9a-z]*$/i.test(t)) {
      return err('bad-code', `deal ${quoteInput(ref, 130)}: no such file, and not a deal code (write e.g. SP2-1007: game SP or SE, suits 1, 2 or 4, seed) or pysol:GAME:N`);
    }
    const why =
      code === 'ENOENT' ? NO_SUCH_FILE
      : code === 'EISDIR' ? 'is a directory'
      : code === 'E2BIG' ? `too large (over ${MAX_POSITION_FILE_BYTES / 1024 / 1024} MiB; a position file holds a few kilobytes)`
      : fileErrorText(e);
    return err('bad-file', `position file ${name}: ${why}`);
  }
  return dealOfPositionText(text, ref, name, label);
}

/**
 * The deal of a position file's text (UTF-8, already read): `path` is the file it came from (its
 * `.json` name picks the JSON form unless the text starts with the text form's header; it is the
 * LoadedDeal's `source.path`), `name` how messages name it
 * (`- (standard input)` for text read from standard input), `label` what the user typed. Errors as
 * loadDeal's for a file: `bad-file` for text that is not text (a zero byte, bytes that are not UTF-8),
 * and the position-file codes (positionFile.ts) for its content, each naming the file as `name`.
 */
export function dealOfPositionText(text: string, path: string, name: string, label: string = path): Result<LoadedDeal> {
  // a binary file (a program, an image) is refused as such, not parsed as a position
  const binary = notTextReason(text);
  if (binary !== null) {
    return err('bad-file', `position file ${name}: not a text file (${binary}); give a position file in the text or JSON form, a deal code or pysol:GAME:N`);
  }
  // the JSON form by its first character (the text form never starts with `{`), else by its name
  // (`.json`), unless the file begins with the text form's header, `# spidersolve position` (a text
  // form saved under a .json name, as `show --format position --out p.json` writes, reads back)
  const start = text.trimStart();
  const json = start.startsWith('{') || (/\.json$/i.test(path) && !start.startsWith(TEXT_HEADER));
  const meta: PositionFileMeta = {};
  const r = json ? parsePositionJson(text, name, meta) : parsePositionText(text, name, meta);
  if (!r.ok) return r;
  const cards = dealCardsOf(r.value);
  return ok({ position: r.value, code: cards ? makeDealCode(r.value.variant, cards) : null, source: { kind: 'file', path, ...(meta.source !== undefined ? { text: meta.source } : {}) }, label });
}
