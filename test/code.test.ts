/**
 * Deal codes (src/game/code.ts): both forms round-trip in all six variants; typos are refused by the
 * check; bad games, suits, seeds and garbage are refused with one-line messages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkValue, makeDealCode, parseDealCode, payloadWidth, seededCode } from '../src/game/code.js';
import { dealCards, freshDeck, MAX_SEED } from '../src/game/deal.js';
import { ALL_VARIANTS, getVariant } from '../src/game/variant.js';

const SP2 = getVariant('spider', 2);
const SE4 = getVariant('spiderette', 4);

function parsed(text: string) {
  const r = parseDealCode(text);
  if (!r.ok) throw r.error;
  return r.value;
}
function refusal(text: string): { code: string; message: string } {
  const r = parseDealCode(text);
  if (r.ok) throw new Error(`expected "${text}" to be refused`);
  expect(r.error.message).not.toContain('\n');
  return { code: r.error.code, message: r.error.message };
}

describe('seeded codes', () => {
  it('SP2-1007 is spider 2 suits, seed 1007, the seeded deal', () => {
    const v = parsed('SP2-1007');
    expect(v.variant).toBe(SP2);
    expect(v.seed).toBe(1007);
    expect(v.cards).toEqual(dealCards(SP2, 1007));
  });
  it('is case-insensitive and ignores surrounding spaces: se4-7', () => {
    const v = parsed('  se4-7 ');
    expect(v.variant).toBe(SE4);
    expect(v.seed).toBe(7);
  });
  it('round-trips in all six variants', () => {
    for (const v of ALL_VARIANTS) {
      for (const seed of [0, 1, 1007, MAX_SEED]) {
        const code = makeDealCode(v, dealCards(v, seed), seed);
        expect(code).toBe(`${v.tag}${v.suits}-${seed}`);
        expect(seededCode(v, seed)).toBe(code);
        const back = parsed(code);
        expect(back.variant).toBe(v);
        expect(back.seed).toBe(seed);
        expect(back.cards).toEqual(dealCards(v, seed));
      }
    }
  });
  it('makeDealCode refuses a seed that does not match the cards', () => {
    expect(() => makeDealCode(SP2, dealCards(SP2, 1), 2)).toThrow(RangeError);
  });
  it('refuses bad game, bad suits, seed out of range, garbage', () => {
    expect(refusal('XY2-5')).toEqual({ code: 'bad-code', message: 'deal code "XY2-5": unknown game "XY"; use SP (Spider) or SE (Spiderette)' });
    expect(refusal('SP3-1')).toEqual({ code: 'bad-code', message: 'deal code "SP3-1": 3 suits is not a variant; use 1, 2 or 4' });
    expect(refusal('SP2-4294967296')).toEqual({ code: 'bad-code', message: 'deal code "SP2-4294967296": seed 4294967296 is out of range 0..4294967295' });
    // leading zeros do not count, however many
    const padded = parseDealCode(`SP2-${'0'.repeat(20)}7`);
    expect(padded.ok ? padded.value.seed : padded).toBe(7);
    expect(refusal(`SP2-${'0'.repeat(90)}${'9'.repeat(50)}`)).toEqual({ code: 'bad-code', message: expect.stringMatching(/: seed of 50 digits is out of range 0\.\.4294967295$/) });
    expect(refusal('SP2-99999999999999999999').code).toBe('bad-code');
    expect(refusal('SP2-1x7')).toEqual({ code: 'bad-code', message: 'deal code "SP2-1x7": the seed "1x7" is not a whole number 0..4294967295 in digits' });
    // a seed with a sign, a decimal point or no digits at all names the seed, not "not a deal code"
    expect(refusal('SE2--1')).toEqual({ code: 'bad-code', message: 'deal code "SE2--1": the seed "-1" is not a whole number 0..4294967295 in digits' });
    // two codes at once (a deals file line)
    expect(refusal('SE1-1 SE1-2')).toEqual({ code: 'bad-code', message: 'deal code "SE1-1 SE1-2": the seed "1 SE1-2" is not a whole number 0..4294967295 in digits (a space inside: one deal code at a time, one a line in a deals file)' });
    expect(refusal('SE1-1 2')).toEqual({ code: 'bad-code', message: 'deal code "SE1-1 2": the seed "1 2" is not a whole number 0..4294967295 in digits (a space inside: one deal code at a time, one a line in a deals file)' });
    expect(refusal('sp2-1.5')).toEqual({ code: 'bad-code', message: 'deal code "sp2-1.5": the seed "1.5" is not a whole number 0..4294967295 in digits' });
    expect(refusal('SP2-')).toEqual({ code: 'bad-code', message: 'deal code "SP2-": no seed after the "-"; a seed is a whole number 0..4294967295' });
    // an explicit code of other characters is not a deal code, as before
    expect(refusal('SP2X-ab!c').message).toMatch(/^deal code "SP2X-ab!c": not a deal code/);
    expect(refusal('hello').code).toBe('bad-code');
    expect(refusal('').code).toBe('bad-code');
    expect(refusal('SP2 1007').code).toBe('bad-code');
    expect(refusal('SP2-').code).toBe('bad-code');
    expect(refusal('SP2-10;rm').code).toBe('bad-code');
    expect(refusal('hello').message).toMatch(/^deal code "hello": not a deal code/);
  });
});

describe('explicit codes', () => {
  it('round-trip in all six variants (shuffled and fresh decks), with a fixed width per variant', () => {
    for (const v of ALL_VARIANTS) {
      for (const cards of [dealCards(v, 5), freshDeck(v), freshDeck(v).reverse()]) {
        const code = makeDealCode(v, cards);
        expect(code).toMatch(new RegExp(`^${v.tag}${v.suits}X-[0-9A-Z]{${payloadWidth(v) + 5}}$`));
        const back = parsed(code);
        expect(back.variant).toBe(v);
        expect(back.seed).toBeUndefined();
        expect(back.cards).toEqual(cards);
        expect(makeDealCode(v, back.cards)).toBe(code);
        expect(parsed(code.toLowerCase()).cards).toEqual(cards);
      }
    }
  });
  it('round-trip for any permutation (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_VARIANTS), fc.integer({ min: 0, max: MAX_SEED }), (v, seed) => {
        const cards = dealCards(v, seed);
        expect(parsed(makeDealCode(v, cards)).cards).toEqual(cards);
      }),
      { numRuns: 100 },
    );
  });
  it('payload widths: 13^104, 26^104, 52^104, 13^52, 26^52, 52^52 in base 36', () => {
    expect(ALL_VARIANTS.map((v) => payloadWidth(v))).toEqual([75, 95, 115, 38, 48, 58]);
  });
  it('pins one explicit code (the encoding must not change)', () => {
    expect(makeDealCode(SE4, dealCards(SE4, 5))).toBe('SE4X-30U7ELXAYSSESH4ZNJGKIF67J76BO80S18S5QUHFVO2KFI59HW9HA97N76ROL0A');
    expect(checkValue('SE4X')).toBe(((((28 + 1) * 1004 + 14 + 1) * 1004 + 4 + 1) * 1004 + 33 + 1) % 60466169);
  });

  const good = makeDealCode(SE4, dealCards(SE4, 5));
  const head = good.indexOf('-') + 1;
  const B36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

  it('a one-character typo is refused with bad-checksum', () => {
    const typo = good.slice(0, 20) + (good[20] === 'A' ? 'B' : 'A') + good.slice(21);
    expect(refusal(typo)).toEqual({ code: 'bad-checksum', message: `deal code "${typo}": checksum does not match; the code is mistyped or damaged` });
  });
  it('a swapped pair is refused with bad-checksum', () => {
    let i = head;
    while (good[i] === good[i + 1]) i++;
    const swapped = good.slice(0, i) + good[i + 1] + good[i] + good.slice(i + 2);
    expect(refusal(swapped).code).toBe('bad-checksum');
  });
  it('every single substitution and every swap of two different characters is refused (exhaustive, one code)', () => {
    let tried = 0;
    for (let i = head; i < good.length; i++) {
      for (const ch of B36) {
        if (ch === good[i]) continue;
        expect(parseDealCode(good.slice(0, i) + ch + good.slice(i + 1)).ok).toBe(false);
        tried++;
      }
      for (let j = i + 1; j < good.length; j++) {
        if (good[i] === good[j]) continue;
        const s = good.split('');
        [s[i], s[j]] = [s[j]!, s[i]!];
        const r = parseDealCode(s.join(''));
        expect(r.ok ? 'accepted' : r.error.code).toBe('bad-checksum');
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(3000);
  });
  it('a changed tag is refused: by the length, which is fixed per variant, naming the variant it fits', () => {
    const se2 = good.replace('SE4X', 'SE2X');
    expect(refusal(se2)).toEqual({
      code: 'bad-code',
      message: `deal code "${se2}": too long: 63 characters after "SE2X-", a spiderette 2-suit code has exactly 53 (48 payload + 5 check); ` +
        'that is the length of a spiderette 4-suit code (SE4X-…), check the game and suits',
    });
    const sp4 = good.replace('SE4X', 'SP4X');
    expect(refusal(sp4)).toEqual({
      code: 'bad-code',
      message: `deal code "${sp4}": too short: 63 characters after "SP4X-", a spider 4-suit code has exactly 120 (115 payload + 5 check); ` +
        'that is the length of a spiderette 4-suit code (SE4X-…), check the game and suits',
    });
  });
  it('the check covers the tag: the same text under another tag of the same length is refused', () => {
    // No two variants share a length, so fake one: the SE4 payload checked as if the tag were SE2X.
    const payload = good.slice(head, -5);
    expect(checkValue('SE4X' + payload)).not.toBe(checkValue('SE2X' + payload));
  });
  it('a cut-short code says it is too short, not that the checksum fails (in every variant)', () => {
    const cut = good.slice(0, -3);
    expect(refusal(cut)).toEqual({
      code: 'bad-code',
      message: `deal code "${cut}": too short: 60 characters after "SE4X-", a spiderette 4-suit code has exactly 63 (58 payload + 5 check); it looks cut short`,
    });
    for (const v of ALL_VARIANTS) {
      const code = makeDealCode(v, dealCards(v, 9));
      const want = payloadWidth(v) + 5;
      for (const drop of [1, 3, 5, 20]) {
        const r = refusal(code.slice(0, -drop));
        expect(r.code).toBe('bad-code');
        expect(r.message).toContain(`: too short: ${want - drop} characters after "${v.tag}${v.suits}X-", a ${v.game} ${v.suits}-suit code has exactly ${want} `);
      }
    }
  });
  it('a dropped or added character is refused by the length', () => {
    expect(refusal(good.slice(0, 30) + good.slice(31)).message).toContain(': too short: 62 characters');
    expect(refusal(good.slice(0, 30) + '7' + good.slice(30))).toEqual({
      code: 'bad-code',
      message: `deal code "${good.slice(0, 30) + '7' + good.slice(30)}": too long: 64 characters after "SE4X-", a spiderette 4-suit code has exactly 63 (58 payload + 5 check)`,
    });
    expect(refusal('SE4X-ABC')).toEqual({
      code: 'bad-code',
      message: 'deal code "SE4X-ABC": too short: 3 characters after "SE4X-", a spiderette 4-suit code has exactly 63 (58 payload + 5 check); it looks cut short',
    });
  });
  it('a well-checked code with the wrong composition names the card', () => {
    const cards = dealCards(SE4, 5);
    const j = cards.indexOf(1); // 2S
    cards[j] = 0; // two AS, no 2S
    const code = makeDealCode(SE4, cards);
    expect(refusal(code)).toEqual({
      code: 'bad-composition',
      message: `deal code "${code}": card AS appears 2 times; a spiderette 4-suit game has 1 of each card`,
    });
  });
  it('makeDealCode refuses cards outside the variant suits or a wrong count', () => {
    expect(() => makeDealCode(SP2, freshDeck(getVariant('spider', 4)))).toThrow(RangeError);
    expect(() => makeDealCode(SE4, freshDeck(SE4).slice(1))).toThrow(RangeError);
  });
});
