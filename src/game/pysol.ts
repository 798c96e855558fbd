/**
 * PySolFC import: PySolFC's deal number N of Spider (4 suits, game id 11), Spider (2 suits, id 270),
 * Spider (1 suit, id 269) and Spiderette (4 suits, id 24), re-implemented independently from the facts
 * in test/fixtures/README.md, and mapped onto this project's layout and suits.
 *
 * How PySolFC deals (reproduced exactly; all five fixtures in test/fixtures/pysol are tested):
 * - Fresh deck: for each deck, for each suit of the game's suit list, ranks A..K; PySolFC's suit order
 *   is clubs, spades, hearts, diamonds. Spider 4 suits: C S H D per deck (2 decks); 2 suits: C C H H per
 *   deck; 1 suit: C C C C per deck; Spiderette: C S H D, one deck.
 * - N in 1..31999: Microsoft C runtime generator (`s = (s·214013 + 2531011) mod 2^33`, draw
 *   `(s >> 16) & 0x7fff`); `j = draw mod (n+1)` for n from the last index down to 1, swap n and j. A
 *   52-card deck (Spiderette) is first rearranged into Microsoft order A♣ A♦ A♥ A♠ 2♣ …
 * - N ≥ 32000: Python's `random.Random(N)` (MT19937 with init_by_array over N's 32-bit words, least
 *   significant first), `j = floor(random() · (n+1))` with the same loop; no rearrangement.
 * - Cards are dealt from the END of the shuffled list. Spider: four face-down rounds to columns 1–10,
 *   one more face-down card to columns 1, 4, 7, 10, a face-up round, then 5 stock deals to columns 1→10.
 *   Spiderette: face-down rounds to columns i+1..7 for i = 1..6, a face-up round, stock deals 7, 7, 7, 3.
 *
 * Mapping onto this project (the game is the same under it; R3, R2):
 * - Spider: PySolFC's six-card columns are 1, 4, 7, 10; ours (R3) are 1–4. Our columns 1..10 are
 *   PySolFC's columns 1, 4, 7, 10, 2, 3, 5, 6, 8, 9, and each stock deal is relabelled by the same
 *   permutation (card i of our deal is the card PySolFC lays on its column PYSOL_SPIDER_COLUMNS[i]).
 *   Spiderette: same layout, identity mapping.
 * - Suits: in 1- and 2-suit games PySolFC's clubs become our spades (hearts stay hearts); 4-suit games
 *   keep every suit.
 */
import { makeCard, makeCardValue, type Card, type Suit } from './cards.js';
import { err, ok, quoteInput, type Result } from './errors.js';
import type { Column, Position } from './position.js';
import { getVariant, type Variant } from './variant.js';

/** PySolFC games this import knows. */
export type PysolKind = 'spider' | 'spider2' | 'spider1' | 'spiderette';

/** Facts of each PySolFC game: its game id, our variant, and its suit list (our suit indices, before the clubs→spades mapping). */
const KINDS: Record<PysolKind, { id: number; game: 'spider' | 'spiderette'; suits: 1 | 2 | 4; deckSuits: readonly Suit[]; decks: number }> = {
  spider: { id: 11, game: 'spider', suits: 4, deckSuits: [3, 0, 1, 2], decks: 2 },
  spider2: { id: 270, game: 'spider', suits: 2, deckSuits: [3, 3, 1, 1], decks: 2 },
  spider1: { id: 269, game: 'spider', suits: 1, deckSuits: [3, 3, 3, 3], decks: 2 },
  spiderette: { id: 24, game: 'spiderette', suits: 4, deckSuits: [3, 0, 1, 2], decks: 1 },
};

/** Is this a PySolFC kind name (lower-case)? */
export function isPysolKind(s: string): s is PysolKind {
  return Object.hasOwn(KINDS, s);
}

/** PySolFC game id of a kind: spider 11, spider2 270, spider1 269, spiderette 24. */
export function pysolGameId(kind: PysolKind): number {
  return KINDS[kind].id;
}

/** Largest game number accepted (Number.MAX_SAFE_INTEGER; PySolFC's own numbers are far smaller). */
export const PYSOL_MAX_NUMBER = Number.MAX_SAFE_INTEGER;

/** Our Spider columns 1..10 are these PySolFC columns (1-based). */
export const PYSOL_SPIDER_COLUMNS: readonly number[] = Object.freeze([1, 4, 7, 10, 2, 3, 5, 6, 8, 9]);

/** A deal in the neutral shape of test/fixtures/pysol/*.json: PySolFC's own columns and suits. */
export interface PysolFixture {
  /** `PySol spider 4-suit game number 14934`. */
  source: string;
  /** PySolFC's columns left to right: face-down cards bottom first, then face-up. */
  columns: { faceDown: string[]; faceUp: string[] }[];
  /** Stock deals in order, card for column 1 first. */
  stockDeals: string[][];
}

/** PySolFC's deal N, unmapped and mapped. */
export interface PysolDeal {
  kind: PysolKind;
  /** PySolFC game id (11, 270, 269, 24). */
  gameId: number;
  /** The game number N. */
  number: number;
  /** The deal in PySolFC's own columns and suits, shaped like the fixtures. */
  fixture: PysolFixture;
  /** The same deal mapped onto this project's layout and suits; obeys the rules engine. */
  position: Position;
  /** `columnMap[i]` = the PySolFC column (1-based) that became our column i+1. */
  columnMap: readonly number[];
  /** One line saying how PySolFC's columns and suits map to ours (printed by `show`). */
  mapping: string;
}

/** Microsoft C runtime generator as PySolFC uses it for game numbers 1..31999. */
function msShuffle<T>(cards: T[], seed: number): void {
  let s = seed;
  for (let n = cards.length - 1; n >= 1; n--) {
    s = (s * 214013 + 2531011) % 8589934592; // exact: s < 2^33, product < 2^52
    const draw = Math.floor(s / 65536) & 0x7fff;
    const j = draw % (n + 1);
    const t = cards[n]!;
    cards[n] = cards[j]!;
    cards[j] = t;
  }
}

/**
 * MT19937 exactly as CPython's `random.Random(seed)` for a non-negative integer seed: `init_by_array`
 * over the seed's 32-bit words (least significant first, `[0]` for 0), and `random()` = genrand_res53.
 */
export class PythonRandom {
  private readonly mt = new Uint32Array(624);
  private mti = 625;

  /** Seeds like `random.Random(seed)`; seed a non-negative safe integer or a bigint. */
  constructor(seed: number | bigint) {
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const key: number[] = [];
    do {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    } while (n > 0n);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const p = mt[i - 1]!;
      mt[i] = (Math.imul(1812433253, p ^ (p >>> 30)) + i) >>> 0;
    }
    this.mti = 624;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    const N = 624;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const p = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(p ^ (p >>> 30), 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const p = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(p ^ (p >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** Next 32-bit output (genrand_int32). */
  int32(): number {
    const mt = this.mt;
    if (this.mti >= 624) {
      let kk = 0;
      for (; kk < 624 - 397; kk++) {
        const y = (mt[kk]! & 0x80000000) | (mt[kk + 1]! & 0x7fffffff);
        mt[kk] = mt[kk + 397]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      for (; kk < 623; kk++) {
        const y = (mt[kk]! & 0x80000000) | (mt[kk + 1]! & 0x7fffffff);
        mt[kk] = mt[kk + (397 - 624)]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      const y = (mt[623]! & 0x80000000) | (mt[0]! & 0x7fffffff);
      mt[623] = mt[396]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A float in [0, 1) with 53 random bits, as Python's `random.random()` (genrand_res53). */
  random(): number {
    const a = this.int32() >>> 5;
    const b = this.int32() >>> 6;
    return (a * 67108864 + b) * (1 / 9007199254740992);
  }
}

/** The shuffled card list of PySolFC's game (our card values in PySolFC's suits), before dealing. */
function pysolShuffled(kind: PysolKind, n: number): Card[] {
  const k = KINDS[kind];
  let cards: Card[] = [];
  for (let d = 0; d < k.decks; d++) for (const s of k.deckSuits) for (let r = 1; r <= 13; r++) cards.push(makeCardValue(s, r));
  if (n < 32000) {
    if (cards.length === 52) {
      const ms: Suit[] = [3, 2, 1, 0]; // clubs, diamonds, hearts, spades
      const re: Card[] = [];
      for (let r = 1; r <= 13; r++) for (const s of ms) re.push(makeCardValue(s, r));
      cards = re;
    }
    msShuffle(cards, n);
  } else {
    const rng = new PythonRandom(n);
    for (let i = cards.length - 1; i >= 1; i--) {
      const j = Math.floor(rng.random() * (i + 1));
      const t = cards[i]!;
      cards[i] = cards[j]!;
      cards[j] = t;
    }
  }
  return cards;
}

/** Deals the shuffled list as PySolFC does: columns (down, up) and stock deals, in PySolFC's columns. */
function pysolLayout(kind: PysolKind, shuffled: Card[]): { columns: { down: Card[]; up: Card[] }[]; stock: Card[][] } {
  const cards = shuffled.slice();
  const take = () => cards.pop()!;
  const spider = KINDS[kind].game === 'spider';
  const ncol = spider ? 10 : 7;
  const columns = Array.from({ length: ncol }, () => ({ down: [] as Card[], up: [] as Card[] }));
  if (spider) {
    for (let round = 0; round < 4; round++) for (let c = 0; c < 10; c++) columns[c]!.down.push(take());
    for (const c of [0, 3, 6, 9]) columns[c]!.down.push(take());
  } else {
    for (let i = 1; i <= 6; i++) for (let c = i; c < 7; c++) columns[c]!.down.push(take());
  }
  for (let c = 0; c < ncol; c++) columns[c]!.up.push(take());
  const sizes = spider ? [10, 10, 10, 10, 10] : [7, 7, 7, 3];
  const stock = sizes.map((size) => Array.from({ length: size }, take));
  return { columns, stock };
}

/**
 * Parses a PySolFC game number as text: a whole number 1..PYSOL_MAX_NUMBER. Error code `bad-reference`.
 */
export function parsePysolNumber(text: string, name: string): Result<number> {
  if (text.trim() === '') return err('bad-reference', `${name}: no game number after the colon; write pysol:GAME:N with N a whole number from 1`);
  if (!/^\d+$/.test(text.trim())) return err('bad-reference', `${name}: game number "${text}" is not a whole number 1..${PYSOL_MAX_NUMBER}`);
  const n = Number(text.trim());
  // (a long number shown cut, as quoteInput cuts any long input, so that the message stays one short
  // line: 300 digits were repeated whole)
  const shown = text.trim().length > 24 ? quoteInput(text.trim()) : text.trim();
  if (!Number.isSafeInteger(n) || n < 1) return err('bad-reference', `${name}: game number ${shown} is out of range 1..${PYSOL_MAX_NUMBER}`);
  return ok(n);
}

/**
 * PySolFC's deal N of a kind (see the module comment), both unmapped (`fixture`, the shape of
 * test/fixtures/pysol/*.json) and mapped onto this project (`position`). N is an integer
 * 1..PYSOL_MAX_NUMBER; otherwise an InputError `bad-reference`.
 */
export function pysolDeal(kind: PysolKind, n: number): Result<PysolDeal> {
  const k = KINDS[kind];
  if (!k) return err('bad-reference', `pysol game "${kind}": unknown; use spider, spider2, spider1 or spiderette`);
  if (!Number.isSafeInteger(n) || n < 1) return err('bad-reference', `pysol:${kind}:${n}: game number out of range 1..${PYSOL_MAX_NUMBER}`);
  const raw = pysolLayout(kind, pysolShuffled(kind, n));
  const fixture: PysolFixture = {
    source: `PySol ${k.game} ${k.suits}-suit game number ${n}`,
    columns: raw.columns.map((c) => ({ faceDown: c.down.map((x) => makeCard(x)), faceUp: c.up.map((x) => makeCard(x)) })),
    stockDeals: raw.stock.map((d) => d.map((x) => makeCard(x))),
  };
  const variant: Variant = getVariant(k.game, k.suits);
  const columnMap = k.game === 'spider' ? PYSOL_SPIDER_COLUMNS : [1, 2, 3, 4, 5, 6, 7];
  // 1- and 2-suit games: PySolFC's clubs are our spades.
  const suit = (c: Card): Card => (k.suits < 4 && c >= 39 ? c - 39 : c);
  const columns: Column[] = columnMap.map((p) => {
    const col = raw.columns[p - 1]!;
    return { down: col.down.map(suit), up: col.up.map(suit) };
  });
  const stock = raw.stock.map((d) => columnMap.slice(0, d.length).map((p) => suit(d[p - 1]!)));
  const position: Position = { variant, columns, stock, removed: [] };
  const mapping =
    k.game === 'spider'
      ? `PySolFC columns ${columnMap.join(',')} are our columns 1-10 (stock deals relabelled alike)${k.suits < 4 ? '; PySolFC clubs are our spades' : ''}`
      : `PySolFC columns 1-7 are our columns 1-7 (same layout)`;
  return ok({ kind, gameId: k.id, number: n, fixture, position, columnMap, mapping });
}
