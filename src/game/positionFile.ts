/**
 * Position files: a position written down in full, in a text form a person types while looking at a game,
 * or in a JSON form for programs (docs/rules.md R3–R5, R12, R14, R18). Both carry every card, face-down
 * ones included: a solver plays with perfect information (R18).
 *
 * Text form (one item a line; blank lines and case do not matter; a line starting with `#` is a comment,
 * and so is the rest of a line from a ` # ` (a `#` between spaces, or at the end); `##` is read as a
 * hidden card and refused):
 *
 * ```
 * # spidersolve position
 * game: spider 2
 * 1: 10S 3H KS 4H JH | 5S 4S
 * 2: | KH
 * 3: |
 * …
 * 10: 9S 9H 8S 2H | QS
 * stock: 5H 6S 8H AS 9S 2S 7H QH 4S JS
 * stock: …
 * removed: S H
 * ```
 *
 * - `game: <spider|spiderette> <1|2|4>` — optional; when left out the game is inferred from the number
 *   of columns (10 spider, 7 spiderette) and the suits from the suits present (spades only → 1, spades
 *   and hearts → 2, else 4). `game: spider` alone gives the game and leaves the suits to be inferred.
 * - `<n>: <face-down cards> | <face-up cards>` — column n (1-based), each side bottom first; each column
 *   once. An empty column is `<n>: |` (or `<n>:`). Cards are written `10S`, `QH`, `AS` (also `T` for
 *   10, and ♠♥♦♣). A face-down card must be known: `##` is refused.
 * - `stock: <cards>` — one line per stock deal still to come, next deal first, card for column 1 first.
 *   The deals left must be the last k deals of the variant (Spider 10 each; Spiderette 7, 7, 7, 3).
 *   No `stock:` line means the stock is empty.
 * - `removed: <suit letters>` — the suits of the completed runs already removed (R14), e.g. `S H`;
 *   optional (`removed: -` or no line: none).
 * - `source: <text>` — optional free text, not part of the position (the solver ignores it); `show
 *   --format position` writes it back as it was read. At most one line each of game, removed and source.
 *
 * JSON form: the shape of test/fixtures/pysol/*.json plus the game —
 * `{ "game": "spider", "suits": 2, "columns": [{ "faceDown": ["10S", …], "faceUp": ["5S"] }, …],
 *    "stockDeals": [["5H", …], …], "removed": ["S"], "source": "…" }`;
 * `game`, `suits`, `removed` and `source` are optional (game and suits are inferred as above).
 *
 * Validation (both forms) refuses, naming the line (text) or field (JSON) and the fault: an unknown key,
 * a card that is not a card (`bad-card`), a card the game's suits do not have (`bad-card`), a wrong
 * number of columns (`bad-layout`), a face-down card with no face-up card above it (`bad-layout`), a
 * complete King-to-Ace run of one suit left on the table (R14 would have removed it; `bad-layout`), a
 * stock that is not whole deals (`bad-stock`), more removed suits than the game has, too many copies of
 * a card, or a card count that does not make up the variant's cards (`bad-composition`: cards on the
 * table + stock + 13 × removed = 104 Spider / 52 Spiderette, with the right copies of each card).
 * Errors are one line: `position file <name> line 4: …` / `position file <name> columns[2].faceUp[0]: …`.
 */
import { makeCard, parseCard, SUIT_LETTERS, suitOf, type Card, type Suit } from './cards.js';
import { compositionFault } from './deal.js';
import { describeJsonValue, err, ok, quoteInput, type ErrorCode, type Result } from './errors.js';
import { cardCounts, type Column, type Position } from './position.js';
import { completedRunSuit } from './rules.js';
import { getVariant, isGameName, isSuitCount, type GameName, type SuitCount, type Variant } from './variant.js';

/** A card as read, with where it was read (for messages). */
interface RawCard {
  card: Card;
  where: string;
  /** The card as written (`8♣`, `8c`, `8C`). */
  text: string;
}

/** A card as a message names it: as the file wrote it, with the project's form after it where that differs (`8♣ (8C)`). */
function cardAsWritten(x: RawCard): string {
  const own = makeCard(x.card);
  return x.text === own ? own : `${quoteInput(x.text).slice(1, -1)} (${own})`;
}

/** A position as read, before validation against a variant. */
interface RawPosition {
  game?: GameName;
  suits?: SuitCount;
  gameWhere: string;
  /** Columns in order; `where` names the column's line or field. */
  columns: { down: RawCard[]; up: RawCard[]; where: string }[];
  stock: { cards: RawCard[]; where: string }[];
  removed: Suit[];
  removedWhere: string;
}

type Fail = { ok: false; error: import('./errors.js').InputError };

/** Validates a raw position and builds the Position. `prefix` is `position file <name>`. */
function validate(raw: RawPosition, prefix: string): Result<Position> {
  const fail = (code: ErrorCode, where: string, msg: string): Fail => err(code, `${prefix}${where ? ' ' + where : ''}: ${msg}`) as Fail;
  const n = raw.columns.length;
  let game = raw.game;
  // what was inferred, for messages: the game (from the columns) and suits, or the suits alone
  const inferred = !raw.game ? ' (inferred: no game given)' : !raw.suits ? ' (suits inferred from the cards: none given)' : '';
  if (!game) {
    if (n === 10) game = 'spider';
    else if (n === 7) game = 'spiderette';
    else return fail('bad-layout', '', `${n} columns; a spider game has 10 and a spiderette game 7`);
  }
  let suits = raw.suits;
  if (!suits) {
    const present = new Set<number>(raw.removed);
    for (const c of raw.columns) for (const x of [...c.down, ...c.up]) present.add(suitOf(x.card));
    for (const d of raw.stock) for (const x of d.cards) present.add(suitOf(x.card));
    suits = [...present].every((s) => s === 0) ? 1 : [...present].every((s) => s <= 1) ? 2 : 4;
  }
  const variant: Variant = getVariant(game, suits);
  const vname = `a ${game} ${suits}-suit game${inferred}`;
  if (n !== variant.columns) return fail('bad-layout', raw.gameWhere, `${n} columns given; ${vname} has ${variant.columns}`);
  const allCards = (): RawCard[] => [...raw.columns.flatMap((c) => [...c.down, ...c.up]), ...raw.stock.flatMap((d) => d.cards)];
  for (const x of allCards()) {
    if (!variant.suitList.includes(suitOf(x.card))) {
      return fail('bad-card', x.where, `card ${cardAsWritten(x)} is not in ${vname} (suits ${variant.suitList.map((s) => SUIT_LETTERS[s]).join(' ')})`);
    }
  }
  const removedRuns = [0, 0, 0, 0];
  for (const s of raw.removed) {
    if (!variant.suitList.includes(s)) return fail('bad-card', raw.removedWhere, `removed suit ${SUIT_LETTERS[s]} is not in ${vname}`);
    removedRuns[s]!++;
    if (removedRuns[s]! > variant.copies) return fail('bad-composition', raw.removedWhere, `${removedRuns[s]} ${SUIT_LETTERS[s]} suits removed; ${vname} has ${variant.copies}`);
  }
  const k = raw.stock.length;
  const want = variant.stockDeals.slice(-k);
  if (k > variant.stockDeals.length) return fail('bad-stock', raw.stock[variant.stockDeals.length]!.where, `${k} stock deals; ${vname} has only ${variant.stockDeals.length}`);
  for (let i = 0; i < k; i++) {
    const d = raw.stock[i]!;
    if (d.cards.length !== want[i]) {
      return fail('bad-stock', d.where, `stock deal ${i + 1} of ${k} has ${d.cards.length === 1 ? '1 card' : `${d.cards.length} cards`}; with ${k === 1 ? '1 deal' : `${k} deals`} left ${vname} deals ${want.join(', ')} cards (the last ${k} of ${variant.stockDeals.join(', ')})`);
    }
  }
  for (const c of raw.columns) {
    if (c.down.length > 0 && c.up.length === 0) return fail('bad-layout', c.where, `face-down cards with no face-up card above them (the top card turns up by itself, R11)`);
  }
  const seen = new Array<number>(52).fill(0);
  // where each card was met, to name the other copies too
  const where: string[][] = Array.from({ length: 52 }, () => []);
  for (const x of allCards()) {
    seen[x.card]!++;
    where[x.card]!.push(x.where);
    const have = seen[x.card]! + removedRuns[suitOf(x.card)]!;
    if (have > variant.copies) {
      const others = [...new Set(where[x.card]!.slice(0, -1))].filter((w) => w !== x.where);
      return fail('bad-composition', x.where, `too many copies of ${cardAsWritten(x)}: ${have}${removedRuns[suitOf(x.card)] ? ' counting removed suits' : ''}${others.length ? ` (also at ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''})` : ''}; ${vname} has ${variant.copies} of each card`);
    }
  }
  const total = allCards().length;
  if (total + 13 * raw.removed.length !== variant.cards) {
    return fail('bad-composition', '', `${total} card${total === 1 ? '' : 's'} on the table and in the stock + 13 × ${raw.removed.length} removed = ${total + 13 * raw.removed.length}; ${vname} has ${variant.cards}`);
  }
  const columns: Column[] = raw.columns.map((c) => ({ down: c.down.map((x) => x.card), up: c.up.map((x) => x.card) }));
  const position: Position = { variant, columns, stock: raw.stock.map((d) => d.cards.map((x) => x.card)), removed: raw.removed.slice() };
  const fault = compositionFault(variant, cardCounts(position), removedRuns);
  if (fault) return fail('bad-composition', '', fault);
  for (let i = 0; i < columns.length; i++) {
    const s = completedRunSuit(columns[i]!.up);
    if (s >= 0) return fail('bad-layout', raw.columns[i]!.where, `a complete King-to-Ace run of ${SUIT_LETTERS[s]} is still on the table; it is removed at once (R14), list it under removed`);
  }
  return ok(position);
}

function parseSuitLetter(t: string): Suit | undefined {
  const c = parseCard('A' + t);
  return c === undefined || t.length !== 1 ? undefined : suitOf(c);
}

/**
 * What a position file says besides the position, for a caller that writes it out again (show
 * --format position keeps a file's `source:` line): filled in by parsePositionText and
 * parsePositionJson when given.
 */
export interface PositionFileMeta {
  /** The `source:` line's text (the JSON form's `source`), as written; absent when there is none. */
  source?: string;
}

/**
 * Parses the text form (see the module comment). `name` names the input in messages (a path, or
 * `<stdin>`). Errors: `bad-file` (syntax, unknown key, a column given twice), `bad-card`, `bad-layout`,
 * `bad-stock`, `bad-composition`, each naming the line.
 */
export function parsePositionText(text: string, name: string, meta?: PositionFileMeta): Result<Position> {
  const prefix = `position file ${name}`;
  const fail = (code: ErrorCode, line: number, msg: string): Fail => err(code, `${prefix} line ${line}: ${msg}`) as Fail;
  const raw: RawPosition = { columns: [], stock: [], removed: [], gameWhere: '', removedWhere: '' };
  const cols = new Map<number, { down: RawCard[]; up: RawCard[]; where: string }>();
  let gameLine = 0;
  let removedLine = 0;
  let sourceLine = 0;
  const lines = text.split(/\r?\n/);
  const readCards = (s: string, lineNo: number, what: string): RawCard[] | Fail => {
    const out: RawCard[] = [];
    for (const tok of s.split(/[\s,]+/).filter(Boolean)) {
      if (/^[#?x*]+$/i.test(tok)) return fail('bad-card', lineNo, `${quoteInput(tok)} hides a card; every ${what} card must be written (the solver knows them all, R18)`);
      const c = parseCard(tok);
      if (c === undefined) return fail('bad-card', lineNo, `${quoteInput(tok)} is not a card; write rank then suit, e.g. 10S, QH, AS`);
      out.push({ card: c, where: `line ${lineNo}`, text: tok });
    }
    return out;
  };
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i]!.replace(/^\s*#.*$|\s#(\s.*)?$/, '').trim();
    if (!line) continue;
    const m = /^([^:]+):(.*)$/.exec(line);
    // the first line of `show`'s own printout (`deal SE4-7 (spiderette, 4 suits)`, `PySolFC spider game 5 (spider, 4 suits)`): say how to write a position file
    if (!m && /\((spider|spiderette), [124] suits?\)$/.test(line)) {
      return fail('bad-file', lineNo, `${quoteInput(line)}: this is the output of \`show\`, not a position file; write one with \`npx spidersolve show DEAL --reveal --format position --out FILE\``);
    }
    if (!m) return fail('bad-file', lineNo, `${quoteInput(line)} is not "key: value"; expected game:, a column (1: …), stock:, removed: or source:`);
    const key = m[1]!.trim().toLowerCase();
    const value = m[2]!.trim();
    if (/^\d+$/.test(key)) {
      const c = Number(key);
      if (c < 1 || c > 10) return fail('bad-layout', lineNo, `column ${key} does not exist (Spider has columns 1-10, Spiderette 1-7)`);
      if (cols.has(c)) return fail('bad-file', lineNo, `column ${c} is given twice`);
      const parts = value.split('|');
      if (parts.length > 2) return fail('bad-file', lineNo, `column ${c} has more than one "|"`);
      if (parts.length === 1 && value !== '') return fail('bad-file', lineNo, `column ${c} needs "|" between face-down and face-up cards (e.g. "${c}: 4H KS | 5S", or "${c}: | 5S")`);
      const down = readCards(parts[0] ?? '', lineNo, 'face-down');
      if (!Array.isArray(down)) return down;
      const up = readCards(parts[1] ?? '', lineNo, 'face-up');
      if (!Array.isArray(up)) return up;
      cols.set(c, { down, up, where: `line ${lineNo}` });
    } else if (key === 'game') {
      if (gameLine) return fail('bad-file', lineNo, `game is given twice (first on line ${gameLine})`);
      gameLine = lineNo;
      const gm = /^([a-z]+)(?:\s+(\S+))?$/i.exec(value);
      if (!gm) return fail('bad-file', lineNo, `game ${quoteInput(value)}: write e.g. "game: spider 2" or "game: spiderette 4"`);
      const g = gm[1]!.toLowerCase();
      if (!isGameName(g)) return fail('bad-file', lineNo, `game ${quoteInput(gm[1]!)}: unknown; use spider or spiderette`);
      raw.game = g;
      if (gm[2] !== undefined) {
        // the suit count may be left out, as in the JSON form: then it is inferred from the cards
        const s = Number(gm[2]);
        if (!isSuitCount(s)) return fail('bad-file', lineNo, `suits ${quoteInput(gm[2]!)}: use 1, 2 or 4`);
        raw.suits = s;
      }
      raw.gameWhere = `line ${lineNo}`;
    } else if (key === 'stock') {
      const cards = readCards(value, lineNo, 'stock');
      if (!Array.isArray(cards)) return cards;
      if (cards.length === 0) return fail('bad-stock', lineNo, `empty stock deal; leave the line out when the stock is empty`);
      raw.stock.push({ cards, where: `line ${lineNo}` });
    } else if (key === 'removed') {
      if (removedLine) return fail('bad-file', lineNo, `removed is given twice (first on line ${removedLine})`);
      removedLine = lineNo;
      raw.removedWhere = `line ${lineNo}`;
      for (const tok of value.split(/[\s,]+/).filter((t) => t && t !== '-')) {
        const s = parseSuitLetter(tok);
        if (s === undefined) return fail('bad-card', lineNo, `removed ${quoteInput(tok)} is not a suit letter (S H D C)`);
        raw.removed.push(s);
      }
    } else if (key === 'source') {
      // free text, not part of the position; handed back to a caller that asks, to write it again
      // (once: a second one was kept over the first without a word)
      if (sourceLine) return fail('bad-file', lineNo, `source is given twice (first on line ${sourceLine})`);
      sourceLine = lineNo;
      if (meta) meta.source = value;
    } else {
      return fail('bad-file', lineNo, `unknown key ${quoteInput(m[1]!.trim())}; expected game:, a column number (1: …), stock:, removed: or source:`);
    }
  }
  // an empty input (`show - < /dev/null`, an empty file) is said to be empty, not to lack columns
  if (cols.size === 0 && text.trim() === '') return err('bad-layout', `${prefix}: empty; a position file holds a game line and one line per column, "1: <face-down> | <face-up>"`);
  if (cols.size === 0) return err('bad-layout', `${prefix}: no columns; write one line per column, "1: <face-down> | <face-up>"`);
  const maxCol = Math.max(...cols.keys());
  // (a game's column count does not depend on its suits, which may be left to be inferred)
  const ncol = raw.game ? getVariant(raw.game, raw.suits ?? 1).columns : maxCol;
  if (maxCol > ncol) return fail('bad-layout', Number(cols.get(maxCol)!.where.slice(5)), `column ${maxCol} does not exist; a ${raw.game} game has ${ncol} columns`);
  for (let c = 1; c <= ncol; c++) {
    const col = cols.get(c);
    if (!col) return err('bad-layout', `${prefix}: column ${c} is missing (${cols.size} of ${ncol} columns given; write "${c}: |" for an empty column)`);
    raw.columns.push(col);
  }
  return validate(raw, prefix);
}

/** The first line of the text form as makePositionText writes it. */
export const TEXT_HEADER = '# spidersolve position';

/**
 * The text form of a position (see the module comment); parsePositionText reads it back to the same
 * position. `source`, if given, is written as a `source:` line.
 */
export function makePositionText(pos: Position, source?: string): string {
  const v = pos.variant;
  const cards = (cs: readonly Card[]) => cs.map((c) => makeCard(c)).join(' ');
  const out = [TEXT_HEADER, `game: ${v.game} ${v.suits}`];
  if (source) out.push(`source: ${source.replace(/[\r\n]+/g, ' ')}`);
  pos.columns.forEach((c, i) => {
    const down = cards(c.down);
    const up = cards(c.up);
    out.push(`${i + 1}: ${down}${down ? ' ' : ''}|${up ? ' ' + up : ''}`);
  });
  for (const d of pos.stock) out.push(`stock: ${cards(d)}`);
  if (pos.removed.length) out.push(`removed: ${pos.removed.map((s) => SUIT_LETTERS[s]).join(' ')}`);
  return out.join('\n') + '\n';
}

/** The JSON form of a position as a plain object (the value makePositionJson writes). */
export interface PositionJson {
  game: GameName;
  suits: SuitCount;
  columns: { faceDown: string[]; faceUp: string[] }[];
  stockDeals: string[][];
  removed: string[];
  source?: string;
}

/** The JSON form of a position as an object (for embedding in other JSON output). */
export function positionToJson(pos: Position, source?: string): PositionJson {
  const cards = (cs: readonly Card[]) => cs.map((c) => makeCard(c));
  const o: PositionJson = {
    game: pos.variant.game,
    suits: pos.variant.suits,
    columns: pos.columns.map((c) => ({ faceDown: cards(c.down), faceUp: cards(c.up) })),
    stockDeals: pos.stock.map(cards),
    removed: pos.removed.map((s) => SUIT_LETTERS[s]),
  };
  if (source !== undefined) o.source = source;
  return o;
}

/**
 * The JSON form of a position as text (see the module comment), one column or stock deal a line;
 * parsePositionJson reads it back to the same position.
 */
export function makePositionJson(pos: Position, source?: string): string {
  const o = positionToJson(pos, source);
  const j = (x: unknown) => JSON.stringify(x);
  const lines = ['{', `  "game": ${j(o.game)},`, `  "suits": ${o.suits},`];
  if (o.source !== undefined) lines.push(`  "source": ${j(o.source)},`);
  lines.push('  "columns": [');
  o.columns.forEach((c, i) => lines.push(`    {"faceDown": ${j(c.faceDown)}, "faceUp": ${j(c.faceUp)}}${i < o.columns.length - 1 ? ',' : ''}`));
  lines.push('  ],');
  if (o.stockDeals.length === 0) lines.push('  "stockDeals": [],');
  else {
    lines.push('  "stockDeals": [');
    o.stockDeals.forEach((d, i) => lines.push(`    ${j(d)}${i < o.stockDeals.length - 1 ? ',' : ''}`));
    lines.push('  ],');
  }
  lines.push(`  "removed": ${j(o.removed)}`, '}');
  return lines.join('\n') + '\n';
}

/**
 * Parses the JSON form (see the module comment): the shape of test/fixtures/pysol/*.json, with
 * optional `game`, `suits`, `removed` and `source`. Errors: `bad-json` (not JSON, a field of the wrong
 * type, an unknown field), then the same validation as the text form, naming the field.
 */
export function parsePositionJson(text: string, name: string, meta?: PositionFileMeta): Result<Position> {
  const prefix = `position file ${name}`;
  // a field is named by its JSON path, quoted: `field "columns[0].faceUp[2]"`
  const field = (path: string): string => `field "${path}"`;
  const fail = (code: ErrorCode, where: string, msg: string): Fail => err(code, `${prefix}${where ? ' ' + field(where) : ''}: ${msg}`) as Fail;
  let data: unknown;
  try {
    // a byte-order mark some editors write first is not part of the JSON (the text form skips it too)
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    // (the parser's message may quote the file's text, line breaks and all: one line, whole)
    return fail('bad-json', '', `not valid JSON (${(e as Error).message.replace(/\s+/g, ' ').trim()})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('bad-json', '', 'expected a JSON object with a "columns" array');
  const o = data as Record<string, unknown>;
  // the whole output of `show … --json`, whose position is one of its fields
  const inner = o.position;
  if (typeof inner === 'object' && inner !== null && !Array.isArray(inner) && 'columns' in inner) {
    return fail('bad-json', '', 'this is the output of `show … --json`, not a position file: the position file is its "position" field (`npx spidersolve show DEAL --reveal --json | jq .position > pos.json`)');
  }
  for (const k of Object.keys(o)) {
    if (!['game', 'suits', 'columns', 'stockDeals', 'removed', 'source'].includes(k)) {
      return fail('bad-json', k, `unknown field; expected game, suits, columns, stockDeals, removed, source`);
    }
  }
  const raw: RawPosition = { columns: [], stock: [], removed: [], gameWhere: field('columns'), removedWhere: field('removed') };
  if (o.game !== undefined) {
    if (typeof o.game !== 'string' || !isGameName(o.game.toLowerCase())) return fail('bad-json', 'game', `${describeJsonValue(o.game)} is not "spider" or "spiderette"`);
    raw.game = o.game.toLowerCase() as GameName;
  }
  if (o.suits !== undefined) {
    // a number written as a string ("4") says how to write it, rather than that 4 is not 4
    if (typeof o.suits === 'string' && /^\s*[124]\s*$/.test(o.suits)) return fail('bad-json', 'suits', `${describeJsonValue(o.suits)} is a string; write the number ${o.suits.trim()}, without quotes`);
    if (typeof o.suits !== 'number' || !isSuitCount(o.suits)) return fail('bad-json', 'suits', `${describeJsonValue(o.suits)} is not 1, 2 or 4`);
    raw.suits = o.suits;
  }
  if (o.source !== undefined && typeof o.source !== 'string') return fail('bad-json', 'source', 'must be a string');
  if (meta && typeof o.source === 'string') meta.source = o.source;
  const readCards = (v: unknown, where: string): RawCard[] | Fail => {
    if (!Array.isArray(v)) return fail('bad-json', where, 'must be an array of cards like "10S"');
    const out: RawCard[] = [];
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      const c = typeof x === 'string' ? parseCard(x) : undefined;
      if (c === undefined) return fail('bad-card', `${where}[${i}]`, `${describeJsonValue(x)} is not a card; write rank then suit, e.g. "10S"`);
      out.push({ card: c, where: field(`${where}[${i}]`), text: x as string });
    }
    return out;
  };
  if (!Array.isArray(o.columns)) return fail('bad-json', 'columns', 'must be an array of {"faceDown": [...], "faceUp": [...]}');
  for (let i = 0; i < o.columns.length; i++) {
    const c = o.columns[i] as Record<string, unknown> | null;
    const where = `columns[${i}]`;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) return fail('bad-json', where, 'must be {"faceDown": [...], "faceUp": [...]}');
    for (const k of Object.keys(c)) if (k !== 'faceDown' && k !== 'faceUp') return fail('bad-json', `${where}.${k}`, 'unknown field; expected faceDown, faceUp');
    const down = readCards(c.faceDown === undefined ? [] : c.faceDown, `${where}.faceDown`);
    if (!Array.isArray(down)) return down;
    const up = readCards(c.faceUp === undefined ? [] : c.faceUp, `${where}.faceUp`);
    if (!Array.isArray(up)) return up;
    raw.columns.push({ down, up, where: field(where) });
  }
  // (a field left out is empty; one given as null is refused, naming it)
  const stock = o.stockDeals === undefined ? [] : o.stockDeals;
  if (!Array.isArray(stock)) return fail('bad-json', 'stockDeals', 'must be an array of deals, each an array of cards');
  for (let i = 0; i < stock.length; i++) {
    const cards = readCards(stock[i], `stockDeals[${i}]`);
    if (!Array.isArray(cards)) return cards;
    if (cards.length === 0) return fail('bad-stock', `stockDeals[${i}]`, 'empty stock deal; leave it out when the stock is empty');
    raw.stock.push({ cards, where: field(`stockDeals[${i}]`) });
  }
  if (o.removed !== undefined) {
    if (!Array.isArray(o.removed)) return fail('bad-json', 'removed', 'must be an array of suit letters like ["S", "H"]');
    for (let i = 0; i < o.removed.length; i++) {
      const x = o.removed[i];
      const s = typeof x === 'string' ? parseSuitLetter(x) : undefined;
      if (s === undefined) return fail('bad-card', `removed[${i}]`, `${describeJsonValue(x)} is not a suit letter (S H D C)`);
      raw.removed.push(s);
    }
  }
  return validate(raw, prefix);
}
