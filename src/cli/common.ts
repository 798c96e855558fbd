/**
 * Helpers shared by the CLI commands: JSON output, option parsing, deal loading and position display.
 * Commands throw InputError for anything the user got wrong; main.ts reports it in one place.
 */
import { makeCard, SUIT_SYMBOLS } from '../game/cards.js';
import { InputError, quoteInput } from '../game/errors.js';
import type { Position } from '../game/position.js';
import { loadDeal, type LoadedDeal } from '../game/ref.js';
import { isGameName, isSuitCount, type GameName, type SuitCount } from '../game/variant.js';

/** What a `<deal>` argument may be, for every command's help. */
export const DEAL_HELP =
  '<deal> is a deal code (SP2-1007, se4-7, SP4X-…), pysol:spider:N, pysol:spider2:N, pysol:spider1:N, ' +
  'pysol:spiderette:N (PySolFC deal N, mapped onto this project\'s columns), or a position file ' +
  '(.json → JSON form, anything else → text form).';

/** Writes one JSON object to stdout (2-space indented, newline-terminated). */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Writes lines of text to stdout. */
export function printLines(lines: readonly string[]): void {
  process.stdout.write(lines.length ? lines.join('\n') + '\n' : '');
}

/** Resolves a `<deal>` argument through loadDeal (ref.ts); throws its InputError on failure. */
export function loadDealOrThrow(ref: string): LoadedDeal {
  const r = loadDeal(ref);
  if (!r.ok) throw r.error;
  return r.value;
}

/**
 * Parses an integer option value in min..max. Throws InputError `bad-option`, one line naming the option:
 * `option --max-positions "abc": not an integer`, `option --count "0": must be 1..1000000`.
 */
export function parseIntOption(name: string, text: string, min: number, max: number): number {
  const t = String(text).trim();
  if (!/^[+-]?\d+$/.test(t)) throw new InputError('bad-option', `option --${name} ${quoteInput(text)}: not a whole number in digits (${min}..${max})`);
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new InputError('bad-option', `option --${name} ${quoteInput(text)}: must be ${min}..${max}`);
  return n;
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
export function formatPosition(pos: Position, reveal: boolean): string[] {
  const v = pos.variant;
  const card = (c: number) => makeCard(c, true);
  const lines: string[] = [];
  const w = String(v.columns).length;
  pos.columns.forEach((col, i) => {
    const down = reveal ? col.down.map(card) : col.down.map(() => '##');
    const up = col.up.map(card);
    const body = col.down.length + col.up.length === 0 ? '(empty)' : [...down, '|', ...up].join(' ');
    lines.push(`${String(i + 1).padStart(w)}: ${body}`);
  });
  const cards = pos.stock.reduce((s, d) => s + d.length, 0);
  if (pos.stock.length === 0) lines.push('stock: empty');
  else if (!reveal) lines.push(`stock: ${pos.stock.length} deal${pos.stock.length === 1 ? '' : 's'} left (${pos.stock.map((d) => d.length).join(', ')} cards, ${cards} in all)`);
  else pos.stock.forEach((d, i) => lines.push(`stock ${i + 1}/${pos.stock.length}: ${d.map(card).join(' ')}`));
  // completeSuits counts runs K..A (8 in two-suit Spider: four of each suit), not suits
  lines.push(`removed: ${pos.removed.length ? pos.removed.map((s) => SUIT_SYMBOLS[s]).join(' ') : 'none'} (${pos.removed.length} of ${v.completeSuits} runs completed)`);
  return lines;
}

/** `spider, 2 suits` */
export function variantLabel(pos: Position): string {
  return `${pos.variant.game}, ${pos.variant.suits} suit${pos.variant.suits === 1 ? '' : 's'}`;
}
