/**
 * Deal codes: one short, shell-safe text that names a whole deal (docs/rules.md R18).
 *
 * Grammar (case-insensitive; letters, digits and `-` only; written upper-case):
 *
 * - Seeded form `<TAG><SUITS>-<SEED>`: TAG `SP` (Spider) or `SE` (Spiderette), SUITS `1`, `2` or `4`,
 *   SEED a decimal integer 0..4294967295. `SP2-1007`, `se4-7`. The deal is `dealCards(variant, SEED)`
 *   (deal.ts).
 * - Explicit form `<TAG><SUITS>X-<PAYLOAD><CHECK>` for any deal (typed in, imported from elsewhere):
 *   - PAYLOAD: the deal's cards in `positionFromDeal` order, each as its index among the variant's
 *     K = 13·suits distinct cards (suit's place in `variant.suitList` · 13 + rank − 1), read as the
 *     digits of one base-K number, first card most significant; that number is written in base 36,
 *     left-padded with `0` to the fixed width `payloadWidth(variant)` (the width of K^cards − 1).
 *   - CHECK: 5 base-36 characters, `checkValue(TAG SUITS "X" PAYLOAD)` (the `-` is left out): a
 *     polynomial check modulo the prime 60466169 (< 36^5) with the primitive root 1004 as multiplier,
 *     over each character's base-36 value + 1. Any one changed character and any swap of two different
 *     characters of that text changes the check, so a mistyped code is refused (`bad-checksum`), never
 *     read as another deal.
 *   The length after the `-` is fixed per variant (`payloadWidth` + 5: 80, 100, 120 for Spider with
 *   1, 2, 4 suits; 43, 53, 63 for Spiderette), so a cut-short or overlong code is refused as such.
 *   Parsing checks, in order: the grammar, the length, the check, the payload range, then the
 *   composition (exactly `copies` of each card of the variant's suits, R2).
 *
 * Errors are `InputError`s with code `bad-code`, `bad-checksum` or `bad-composition` and a one-line
 * message `deal code "<text>": <fault>`.
 */
import { makeCardValue, suitOf, rankOf, type Card } from './cards.js';
import { compositionFault, dealCards, isSeed, MAX_SEED } from './deal.js';
import { err, ok, quoteInput, type Result } from './errors.js';
import { ALL_VARIANTS, getVariant, type SuitCount, type Variant } from './variant.js';

/** A parsed deal code: its variant, its seed for the seeded form, and the deal's card order. */
export interface DealCodeValue {
  readonly variant: Variant;
  /** The seed of a seeded code (`SP2-1007` → 1007); absent for the explicit form. */
  readonly seed?: number;
  /** The deal's card order, as `positionFromDeal` reads it. */
  readonly cards: Card[];
}

/** Prime modulus of the check (the largest prime below 36^5). */
const CHECK_PRIME = 60466169;
/** Multiplier of the check: a primitive root modulo CHECK_PRIME. */
const CHECK_BASE = 1004;
/** Characters of the check. */
const CHECK_WIDTH = 5;

const B36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The check of a canonical text (upper-case letters and digits): h = Σ (v_i + 1)·1004^(n−1−i) mod
 * 60466169 with v_i the base-36 value of character i, as a number below 36^5. Exported for tests.
 */
export function checkValue(text: string): number {
  let h = 0;
  for (const ch of text) {
    const v = B36.indexOf(ch);
    if (v < 0) throw new RangeError(`checkValue: "${ch}" is not a base-36 character`);
    h = (h * CHECK_BASE + v + 1) % CHECK_PRIME;
  }
  return h;
}

function checkText(text: string): string {
  return checkValue(text).toString(36).toUpperCase().padStart(CHECK_WIDTH, '0');
}

/** Width in base-36 characters of the payload of an explicit code of this variant. */
export function payloadWidth(variant: Variant): number {
  return (BigInt(13 * variant.suits) ** BigInt(variant.cards) - 1n).toString(36).length;
}

/** The code prefix of a variant without the `-`: `SP2`, or `SP2X` for the explicit form. */
function prefix(variant: Variant, explicit: boolean): string {
  return `${variant.tag}${variant.suits}${explicit ? 'X' : ''}`;
}

/**
 * The deal code of a deal. With `seed` the seeded form (`SP2-1007`), else the explicit form
 * (`SP2X-…`). Throws RangeError if `cards` does not have `variant.cards` cards of the variant's suits,
 * or if `seed` is given and `cards` is not that seeded deal (a programming error, not user input).
 * The explicit form does not check the composition (a code can carry a deal with wrong composition;
 * parseDealCode refuses it).
 */
export function makeDealCode(variant: Variant, cards: readonly Card[], seed?: number): string {
  if (cards.length !== variant.cards) throw new RangeError(`makeDealCode: a ${variant.game} deal has ${variant.cards} cards, got ${cards.length}`);
  if (seed !== undefined) {
    if (!isSeed(seed)) throw new RangeError(`makeDealCode: seed ${seed} is not an integer in 0..${MAX_SEED}`);
    const want = dealCards(variant, seed);
    if (want.some((c, i) => c !== cards[i])) throw new RangeError(`makeDealCode: the cards are not seeded deal ${seed}`);
    return `${prefix(variant, false)}-${seed}`;
  }
  const k = BigInt(13 * variant.suits);
  let n = 0n;
  for (const c of cards) {
    const s = variant.suitList.indexOf(suitOf(c));
    if (s < 0 || !Number.isInteger(c)) throw new RangeError(`makeDealCode: card ${c} is not in a ${variant.suits}-suit game`);
    n = n * k + BigInt(s * 13 + rankOf(c) - 1);
  }
  const payload = n.toString(36).toUpperCase().padStart(payloadWidth(variant), '0');
  const p = prefix(variant, true);
  return `${p}-${payload}${checkText(p + payload)}`;
}

/** The seeded code of a variant and seed, `SP2-1007`. Throws RangeError on a bad seed. */
export function seededCode(variant: Variant, seed: number): string {
  if (!isSeed(seed)) throw new RangeError(`seededCode: seed ${seed} is not an integer in 0..${MAX_SEED}`);
  return `${prefix(variant, false)}-${seed}`;
}

/** Tag, suits, X, then anything after the `-`: a seed that is not digits (`SE2--1`) is told about its seed. */
const CODE_RE = /^([A-Z]{2})(\d+)(X?)-(.*)$/;

/**
 * Why `length` characters after the `-` cannot be an explicit code of `variant` (every variant has
 * one fixed length, `payloadWidth` + 5), or null when the length is right. A shorter text is likely
 * cut short; a length that is exactly another variant's points at a mistyped game or suit count.
 */
function lengthFault(variant: Variant, length: number): string | null {
  const width = payloadWidth(variant);
  const want = width + CHECK_WIDTH;
  if (length === want) return null;
  const other = ALL_VARIANTS.find((v) => v !== variant && payloadWidth(v) + CHECK_WIDTH === length);
  const hint = other
    ? `; that is the length of a ${other.game} ${other.suits}-suit code (${prefix(other, true)}-…), check the game and suits`
    : length < want ? '; it looks cut short' : '';
  return `too ${length < want ? 'short' : 'long'}: ${length} characters after "${prefix(variant, true)}-", ` +
    `a ${variant.game} ${variant.suits}-suit code has exactly ${want} (${width} payload + ${CHECK_WIDTH} check)${hint}`;
}

/**
 * Parses a deal code (either form, any case, surrounding spaces ignored). Errors: `bad-code` (not a
 * code, unknown game tag, suit count not 1/2/4, seed missing or not an integer 0..4294967295 in
 * digits (`SE2--1`, `SP2-1.5`: the seed is named), explicit code of
 * the wrong length, payload out of range), `bad-checksum` (explicit code whose check does not match: a typo),
 * `bad-composition` (explicit code whose cards are not the variant's deck, naming the card).
 */
export function parseDealCode(text: string): Result<DealCodeValue> {
  const name = `deal code ${quoteInput(text, 130)}`; // an explicit code is quoted whole (at most 125)
  const t = text.trim().toUpperCase();
  const m = CODE_RE.exec(t);
  const notACode = `${name}: not a deal code; write e.g. SP2-1007 (game SP or SE, suits 1, 2 or 4, seed) or an explicit SP4X-… code`;
  if (!m) return err('bad-code', notACode);
  const [, tag, suitsText, x, body] = m as unknown as [string, string, string, string, string];
  if (tag !== 'SP' && tag !== 'SE') return err('bad-code', `${name}: unknown game ${quoteInput(tag)}; use SP (Spider) or SE (Spiderette)`);
  const suits = Number(suitsText);
  if (suits !== 1 && suits !== 2 && suits !== 4) return err('bad-code', `${name}: ${suitsText} suits is not a variant; use 1, 2 or 4`);
  const variant = getVariant(tag === 'SP' ? 'spider' : 'spiderette', suits as SuitCount);
  if (!x) {
    if (body === '') return err('bad-code', `${name}: no seed after the "-"; a seed is a whole number 0..${MAX_SEED}`);
    if (!/^\d+$/.test(body)) {
      // quoted as typed, not upper-cased (the same length unless upper-casing changed it)
      const typed = text.trim();
      // `SE1-1 SE1-2`: two codes on one line of a deals file, or in one argument
      const two = /^\d+\s+\S/.test(body) ? ' (a space inside: one deal code at a time, one a line in a deals file)' : '';
      return err('bad-code', `${name}: the seed ${quoteInput(typed.length === t.length ? typed.slice(t.length - body.length) : body)} is not a whole number 0..${MAX_SEED} in digits${two}`);
    }
    // leading zeros do not count (SP2-0007 is seed 7); past 12 digits the seed is out of range anyway
    const digits = body.replace(/^0+(?=\d)/, '');
    const seed = digits.length > 12 ? Infinity : Number(digits);
    if (!isSeed(seed)) return err('bad-code', `${name}: seed ${digits.length > 40 ? `of ${digits.length} digits` : digits} is out of range 0..${MAX_SEED}`);
    return ok({ variant, seed, cards: dealCards(variant, seed) });
  }
  if (!/^[0-9A-Z]+$/.test(body)) return err('bad-code', notACode);
  const p = prefix(variant, true);
  const fault = lengthFault(variant, body.length);
  if (fault) return err('bad-code', `${name}: ${fault}`);
  const payload = body.slice(0, -CHECK_WIDTH);
  const check = body.slice(-CHECK_WIDTH);
  if (checkText(p + payload) !== check) return err('bad-checksum', `${name}: checksum does not match; the code is mistyped or damaged`);
  let n = 0n;
  for (const ch of payload) n = n * 36n + BigInt(B36.indexOf(ch));
  const k = BigInt(13 * variant.suits);
  const cards: Card[] = new Array<Card>(variant.cards);
  for (let i = variant.cards - 1; i >= 0; i--) {
    const idx = Number(n % k);
    n /= k;
    cards[i] = makeCardValue(variant.suitList[Math.floor(idx / 13)]!, (idx % 13) + 1);
  }
  if (n !== 0n) return err('bad-code', `${name}: payload is out of range for a ${variant.game} ${suits}-suit deal`);
  const counts = new Array<number>(52).fill(0);
  for (const c of cards) counts[c]!++;
  const composition = compositionFault(variant, counts);
  if (composition) return err('bad-composition', `${name}: ${composition}`);
  return ok({ variant, cards });
}
