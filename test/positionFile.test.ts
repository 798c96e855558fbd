/**
 * Position files (src/game/positionFile.ts): text and JSON forms round-trip; every fault is refused with
 * a one-line message naming the line (text) or field (JSON).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeCard } from '../src/game/cards.js';
import { dealPosition } from '../src/game/deal.js';
import { samePosition, type Position } from '../src/game/position.js';
import { makePositionJson, makePositionText, parsePositionJson, parsePositionText, positionToJson } from '../src/game/positionFile.js';
import { pysolDeal } from '../src/game/pysol.js';
import { playLine } from '../src/game/score.js';
import { ALL_VARIANTS, getVariant } from '../src/game/variant.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/pysol/${name}`, import.meta.url), 'utf8');

function text(p: Position, name = 'board.txt') {
  const r = parsePositionText(makePositionText(p), name);
  if (!r.ok) throw r.error;
  return r.value;
}
function okText(src: string): Position {
  const r = parsePositionText(src, 'board.txt');
  if (!r.ok) throw r.error;
  return r.value;
}
function badText(src: string): { code: string; message: string } {
  const r = parsePositionText(src, 'board.txt');
  if (r.ok) throw new Error('expected a refusal');
  expect(r.error.message).not.toContain('\n');
  return { code: r.error.code, message: r.error.message };
}
function badJson(src: string): { code: string; message: string } {
  const r = parsePositionJson(src, 'pos.json');
  if (r.ok) throw new Error('expected a refusal');
  expect(r.error.message).not.toContain('\n');
  return { code: r.error.code, message: r.error.message };
}

/** A mid-game Spiderette 4-suit position: spades removed, 2 stock deals left (7 and 3), column 3 empty. */
const MID = `# spidersolve position
game: spiderette 4
1: | KH QC JD 10C 9H
2: AD 6C | 8H
3: |
4: 2D 3C 4D | JC 10D
5: AH 5C | 6D 5H 4H 3H
6: 7D 2C 9D | KD QD
7: 8C AC 10H 6H | 7C
stock: 2H 5D 9C JH 3D KC 7H
stock: 4C 8D QH
removed: S
`;

/** Replaces line `n` (1-based) of a text. */
const withLine = (src: string, n: number, line: string) => src.split('\n').map((l, i) => (i === n - 1 ? line : l)).join('\n');

describe('text form', () => {
  it('reads a mid-game position with a removed suit and 2 deals left (R4, R14)', () => {
    const p = okText(MID);
    expect(p.variant).toBe(getVariant('spiderette', 4));
    expect(p.removed).toEqual([0]);
    expect(p.stock.map((d) => d.map((c) => makeCard(c)))).toEqual([['2H', '5D', '9C', 'JH', '3D', 'KC', '7H'], ['4C', '8D', 'QH']]);
    expect(p.columns[2]).toEqual({ down: [], up: [] });
    expect(p.columns[6]!.down.map((c) => makeCard(c))).toEqual(['8C', 'AC', '10H', '6H']);
    expect(p.columns[6]!.up.map((c) => makeCard(c))).toEqual(['7C']);
    expect(makePositionText(p)).toBe(MID);
    expect(samePosition(text(p), p)).toBe(true);
  });
  it('round-trips the start of every variant, and a played line', () => {
    for (const v of ALL_VARIANTS) {
      const p = dealPosition(v, 11);
      expect(samePosition(text(p), p)).toBe(true);
    }
    const p = okText(MID);
    const r = playLine(p, ['2-1']);
    expect(r.ok).toBe(true);
    if (r.ok) expect(samePosition(text(r.value.position), r.value.position)).toBe(true);
  });
  it('accepts comments, blank lines, any case, T for 10, unicode suits, "removed: -", and a missing game line', () => {
    const src = MID.replace('game: spiderette 4', '# no game line')
      .replace('1: | KH QC JD 10C 9H', '1: | kh Q♣ JD TC 9h   # the first column')
      .replace('removed: S', '\n#comment\n   # indented comment\nremoved: s # trailing #\nsource: typed in');
    const p = okText(src);
    expect(samePosition(p, okText(MID))).toBe(true);
    const start = dealPosition(getVariant('spider', 2), 3);
    const noGame = makePositionText(start).replace('game: spider 2\n', '') + 'removed: -\n';
    expect(okText(noGame).variant).toBe(getVariant('spider', 2));
  });
  it('infers 1 suit from spades only and 4 from a club', () => {
    expect(okText(makePositionText(dealPosition(getVariant('spider', 1), 2)).replace(/game:.*\n/, '')).variant.suits).toBe(1);
    expect(okText(makePositionText(dealPosition(getVariant('spiderette', 4), 2)).replace(/game:.*\n/, '')).variant.game).toBe('spiderette');
  });

  it('refuses an unknown key, naming the line', () => {
    expect(badText(withLine(MID, 3, 'colour: red'))).toEqual({
      code: 'bad-file',
      message: 'position file board.txt line 3: unknown key "colour"; expected game:, a column number (1: …), stock:, removed: or source:',
    });
  });
  it('refuses a line that is not key: value', () => {
    expect(badText(withLine(MID, 3, 'KH QC')).message).toBe(
      'position file board.txt line 3: "KH QC" is not "key: value"; expected game:, a column (1: …), stock:, removed: or source:',
    );
  });
  it("refuses show's own printout, saying how to write a position file", () => {
    for (const heading of ['deal SE4-7 (spiderette, 4 suits)', 'PySolFC spider game 5 (spider, 4 suits)', 'deal SP1-5 (spider, 1 suit)']) {
      expect(badText(`${heading}\n1: | 8S\n`)).toEqual({
        code: 'bad-file',
        message: `position file board.txt line 1: "${heading}": this is the output of \`show\`, not a position file; write one with \`npx spidersolve show DEAL --reveal --format position --out FILE\``,
      });
    }
  });
  it('refuses a bad card and a hidden card', () => {
    expect(badText(withLine(MID, 4, '2: AD 6X | 8H'))).toEqual({
      code: 'bad-card',
      message: 'position file board.txt line 4: "6X" is not a card; write rank then suit, e.g. 10S, QH, AS',
    });
    expect(badText(withLine(MID, 4, '2: ## 6C | 8H'))).toEqual({
      code: 'bad-card',
      message: 'position file board.txt line 4: "##" hides a card; every face-down card must be written (the solver knows them all, R18)',
    });
  });
  it('R2: refuses a card the suit count does not have (a D in a 2-suit game)', () => {
    const src = makePositionText(dealPosition(getVariant('spider', 2), 3));
    const bad = withLine(src, 4, '2: 5D | 7H');
    expect(badText(bad)).toEqual({ code: 'bad-card', message: 'position file board.txt line 4: card 5D is not in a spider 2-suit game (suits S H)' });
    // named as the file wrote it, the project's form after it
    expect(badText(withLine(src, 4, '2: 5♦ | 7H')).message).toBe('position file board.txt line 4: card 5♦ (5D) is not in a spider 2-suit game (suits S H)');
  });
  it('refuses too many copies of a card, naming the line of the extra copy and the lines of the others', () => {
    expect(badText(withLine(MID, 4, '2: AD 6C | 8H 9H'))).toEqual({
      code: 'bad-composition',
      message: 'position file board.txt line 4: too many copies of 9H: 2 (also at line 3); a spiderette 4-suit game has 1 of each card',
    });
    expect(badText(withLine(MID, 4, '2: AD 6C | 8H 9♥')).message).toBe('position file board.txt line 4: too many copies of 9♥ (9H): 2 (also at line 3); a spiderette 4-suit game has 1 of each card');
    // a rank of 1 is an Ace (docs/commands.md): the copy it makes names the line that wrote it
    const se47 = makePositionText(dealPosition(getVariant('spiderette', 4), 7)).replace(/^1: \| 8S$/m, '1: | 1S');
    expect(badText(se47).message).toBe('position file board.txt line 7: too many copies of AS: 2 (also at line 3); a spiderette 4-suit game has 1 of each card');
    // a spade on the table while the spade suit is removed
    expect(badText(withLine(MID, 4, '2: AD 6C | 8H 5S')).message).toBe(
      'position file board.txt line 4: too many copies of 5S: 2 counting removed suits; a spiderette 4-suit game has 1 of each card',
    );
  });
  it('R2: refuses a wrong total card count', () => {
    expect(badText(withLine(MID, 7, '5: AH 5C | 6D 5H 4H'))).toEqual({
      code: 'bad-composition',
      message: 'position file board.txt: 38 cards on the table and in the stock + 13 × 1 removed = 51; a spiderette 4-suit game has 52',
    });
    expect(badText(MID.replace('removed: S', '')).message).toBe(
      'position file board.txt: 39 cards on the table and in the stock + 13 × 0 removed = 39; a spiderette 4-suit game has 52',
    );
    // one card: said in the singular
    expect(badText('game: spiderette 4\n1: | AS\n2: |\n3: |\n4: |\n5: |\n6: |\n7: |\n').message).toBe(
      'position file board.txt: 1 card on the table and in the stock + 13 × 0 removed = 1; a spiderette 4-suit game has 52',
    );
  });
  it('refuses more removed suits of one kind than the game has', () => {
    expect(badText(MID.replace('removed: S', 'removed: S S')).message).toBe('position file board.txt line 12: 2 S suits removed; a spiderette 4-suit game has 1');
    expect(badText(MID.replace('removed: S', 'removed: Z')).code).toBe('bad-card');
  });
  it('R3, R4: refuses a wrong number of columns', () => {
    expect(badText(MID.replace('7: 8C AC 10H 6H | 7C\n', ''))).toEqual({
      code: 'bad-layout',
      message: 'position file board.txt: column 7 is missing (6 of 7 columns given; write "7: |" for an empty column)',
    });
    expect(badText(MID.replace('stock: 2H', '8: |\nstock: 2H')).message).toBe('position file board.txt line 10: column 8 does not exist; a spiderette game has 7 columns');
    const nine = MID.replace('game: spiderette 4\n', '').replace('7: 8C AC 10H 6H | 7C\n', '7: |\n8: |\n9: |\n');
    expect(badText(nine).message).toBe('position file board.txt: 9 columns; a spider game has 10 and a spiderette game 7');
    expect(badText(withLine(MID, 3, '11: |')).message).toBe('position file board.txt line 3: column 11 does not exist (Spider has columns 1-10, Spiderette 1-7)');
    expect(badText(withLine(MID, 4, '1: | 8H')).message).toBe('position file board.txt line 4: column 1 is given twice');
    // a second source: line, refused as a second game: or removed: line is
    expect(badText(MID + 'source: one\nsource: two\n')).toEqual({ code: 'bad-file', message: expect.stringMatching(/^position file board\.txt line \d+: source is given twice \(first on line \d+\)$/) });
  });
  it('R12: refuses a stock that is not whole deals (the last k deals of the variant)', () => {
    expect(badText(MID.replace('stock: 4C 8D QH', 'stock: 4C 8D QH 2H'))).toEqual({
      code: 'bad-stock',
      message: 'position file board.txt line 11: stock deal 2 of 2 has 4 cards; with 2 deals left a spiderette 4-suit game deals 7, 3 cards (the last 2 of 7, 7, 7, 3)',
    });
    const start = makePositionText(dealPosition(getVariant('spider', 4), 1));
    const lines = start.split('\n');
    const stockLine = lines.findIndex((l) => l.startsWith('stock:'));
    lines[stockLine] = lines[stockLine]!.replace(/ \S+$/, '');
    expect(badText(lines.join('\n')).message).toMatch(/^position file board.txt line 13: stock deal 1 of 5 has 9 cards; with 5 deals left a spider 4-suit game deals 10, 10, 10, 10, 10 cards/);
    expect(badText(withLine(MID, 10, 'stock:')).message).toBe('position file board.txt line 10: empty stock deal; leave the line out when the stock is empty');
    // one card, one deal: said in the singular
    expect(badText(MID.replace('stock: 2H 5D 9C JH 3D KC 7H\n', '').replace('stock: 4C 8D QH', 'stock: 4C')).message).toBe(
      'position file board.txt line 10: stock deal 1 of 1 has 1 card; with 1 deal left a spiderette 4-suit game deals 3 cards (the last 1 of 7, 7, 7, 3)',
    );
  });
  it('R11: refuses face-down cards with no face-up card above them', () => {
    expect(badText(withLine(MID, 4, '2: AD 6C 8H |'))).toEqual({
      code: 'bad-layout',
      message: 'position file board.txt line 4: face-down cards with no face-up card above them (the top card turns up by itself, R11)',
    });
    expect(badText(withLine(MID, 4, '2: AD 6C 8H')).message).toBe(
      'position file board.txt line 4: column 2 needs "|" between face-down and face-up cards (e.g. "2: 4H KS | 5S", or "2: | 5S")',
    );
  });
  it('R14: refuses a complete suit left on the table', () => {
    const src = `game: spiderette 1
1: | KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS
2: |
3: |
4: |
5: |
6: |
7: |
removed: S S S
`;
    expect(badText(src)).toEqual({
      code: 'bad-layout',
      message: 'position file board.txt line 2: a complete King-to-Ace run of S is still on the table; it is removed at once (R14), list it under removed',
    });
  });
  it('refuses a bad game line and a file with no columns', () => {
    expect(badText(withLine(MID, 2, 'game: klondike 4')).message).toBe('position file board.txt line 2: game "klondike": unknown; use spider or spiderette');
    expect(badText(withLine(MID, 2, 'game: spider 3')).message).toBe('position file board.txt line 2: suits "3": use 1, 2 or 4');
    expect(badText('# nothing\n')).toEqual({ code: 'bad-layout', message: 'position file board.txt: no columns; write one line per column, "1: <face-down> | <face-up>"' });
    expect(badText('')).toEqual({ code: 'bad-layout', message: 'position file board.txt: empty; a position file holds a game line and one line per column, "1: <face-down> | <face-up>"' });
    expect(badText('\n  \n')).toEqual({ code: 'bad-layout', message: 'position file board.txt: empty; a position file holds a game line and one line per column, "1: <face-down> | <face-up>"' });
    expect(badText(withLine(MID, 2, 'game: spider 4')).message).toBe(
      'position file board.txt: column 8 is missing (7 of 10 columns given; write "8: |" for an empty column)',
    );
  });
});

describe('JSON form', () => {
  it('round-trips start positions of every variant and the mid-game position', () => {
    for (const v of ALL_VARIANTS) {
      const p = dealPosition(v, 11);
      const r = parsePositionJson(makePositionJson(p, 'seed 11'), 'pos.json');
      expect(r.ok && samePosition(r.value, p)).toBe(true);
    }
    const mid = okText(MID);
    const json = makePositionJson(mid);
    expect(JSON.parse(json)).toEqual(positionToJson(mid));
    expect(JSON.parse(json).removed).toEqual(['S']);
    expect(JSON.parse(json).stockDeals).toEqual([['2H', '5D', '9C', 'JH', '3D', 'KC', '7H'], ['4C', '8D', 'QH']]);
    const back = parsePositionJson(json, 'pos.json');
    expect(back.ok && samePosition(back.value, mid)).toBe(true);
  });
  it('reads the 4-suit PySolFC fixtures as they are (game and suits inferred)', () => {
    const se = parsePositionJson(fixture('spiderette-1.json'), 'spiderette-1.json');
    expect(se.ok).toBe(true);
    const d = pysolDeal('spiderette', 1);
    if (se.ok && d.ok) expect(samePosition(se.value, d.value.position)).toBe(true);
    const sp = parsePositionJson(fixture('spider-4suits-14934.json'), 'x.json');
    expect(sp.ok && sp.value.variant).toBe(getVariant('spider', 4));
  });
  it('a PySolFC 1-suit fixture uses clubs, which our 1-suit game does not have', () => {
    const o = JSON.parse(fixture('spider-1suit-1.json'));
    o.game = 'spider';
    o.suits = 1;
    expect(badJson(JSON.stringify(o))).toEqual({ code: 'bad-card', message: 'position file pos.json field "columns[0].faceDown[0]": card 3C is not in a spider 1-suit game (suits S)' });
  });
  it('refuses bad JSON, unknown fields and wrong types, naming the field', () => {
    expect(badJson('{').code).toBe('bad-json');
    expect(badJson('{').message).toMatch(/^position file pos.json: not valid JSON \(/);
    // the parser quotes the text: its line breaks become spaces, and the quote is closed (one line)
    expect(badJson('not json\n')).toEqual({ code: 'bad-json', message: `position file pos.json: not valid JSON (Unexpected token 'o', "not json " is not valid JSON)` });
    expect(badJson('[]')).toEqual({ code: 'bad-json', message: 'position file pos.json: expected a JSON object with a "columns" array' });
    // the whole of show --json: its position is a field of it
    expect(badJson('{"code": "SE1-5", "columns": [], "position": {"columns": []}}').message).toBe('position file pos.json: this is the output of `show … --json`, not a position file: the position file is its "position" field (`npx spidersolve show DEAL --reveal --json | jq .position > pos.json`)');
    expect(badJson('{"columns": [], "colour": 1}').message).toBe('position file pos.json field "colour": unknown field; expected game, suits, columns, stockDeals, removed, source');
    expect(badJson('{"game": "chess", "columns": []}').message).toBe('position file pos.json field "game": "chess" is not "spider" or "spiderette"');
    expect(badJson('{"suits": 3, "columns": []}').message).toBe('position file pos.json field "suits": 3 is not 1, 2 or 4');
    // a number in quotes is named as a string, with the fix
    expect(badJson('{"suits": "4", "columns": []}').message).toBe('position file pos.json field "suits": "4" is a string; write the number 4, without quotes');
    expect(badJson('{"suits": "four", "columns": []}').message).toBe('position file pos.json field "suits": "four" is not 1, 2 or 4');
    expect(badJson('{"columns": {}}').code).toBe('bad-json');
    expect(badJson('{"columns": [{"faceDown": ["AS"], "faceUp": [7]}]}').message).toBe('position file pos.json field "columns[0].faceUp[0]": 7 is not a card; write rank then suit, e.g. "10S"');
    expect(badJson('{"columns": [{"down": []}]}').message).toBe('position file pos.json field "columns[0].down": unknown field; expected faceDown, faceUp');
    expect(badJson('{"columns": [{"faceUp": ["AS"]}], "removed": ["X"]}').message).toBe('position file pos.json field "removed[0]": "X" is not a suit letter (S H D C)');
    // null is not a field left out: it is named, not read as an empty stock
    expect(badJson('{"columns": [{"faceUp": ["AS"]}], "stockDeals": null}').message).toBe('position file pos.json field "stockDeals": must be an array of deals, each an array of cards');
    expect(badJson('{"columns": [{"faceDown": null, "faceUp": ["AS"]}]}').message).toBe('position file pos.json field "columns[0].faceDown": must be an array of cards like "10S"');
    expect(badJson('{"columns": [{"faceUp": null}]}').message).toBe('position file pos.json field "columns[0].faceUp": must be an array of cards like "10S"');
  });
  it('applies the same validation as the text form, naming the field', () => {
    const o = positionToJson(okText(MID)) as unknown as { columns: { faceDown: string[]; faceUp: string[] }[]; stockDeals: string[][] };
    o.columns[1]!.faceUp = [];
    expect(badJson(JSON.stringify(o)).message).toMatch(/^position file pos.json field "columns\[1\]": face-down cards with no face-up card above them/);
    const p = positionToJson(okText(MID)) as unknown as { stockDeals: string[][] };
    p.stockDeals.reverse();
    expect(badJson(JSON.stringify(p))).toMatchObject({ code: 'bad-stock', message: expect.stringMatching(/^position file pos.json field "stockDeals\[0\]": stock deal 1 of 2 has 3 cards/) });
    const q = positionToJson(okText(MID)) as unknown as { columns: unknown[] };
    q.columns.pop();
    expect(badJson(JSON.stringify(q)).message).toBe('position file pos.json field "columns": 6 columns given; a spiderette 4-suit game has 7');
    // the game given, the suits left out: the message says only the suits were inferred
    const r = positionToJson(okText(MID)) as unknown as { game: string; suits?: number; columns: unknown[] };
    r.columns.pop();
    delete r.suits;
    expect(badJson(JSON.stringify(r)).message).toBe('position file pos.json field "columns": 6 columns given; a spiderette 4-suit game (suits inferred from the cards: none given) has 7');
  });
  it('skips a byte-order mark before the JSON, as before the text form', () => {
    const json = makePositionJson(okText(MID));
    const r = parsePositionJson('\uFEFF' + json, 'pos.json');
    expect(r.ok && samePosition(r.value, okText(MID))).toBe(true);
    expect(samePosition(okText('\uFEFF' + MID), okText(MID))).toBe(true);
  });
  it('takes "game: spiderette" without a suit count in the text form, inferring the suits as the JSON form does', () => {
    const p = okText(MID.replace(/game: spiderette 4/, 'game: spiderette'));
    expect(p.variant).toBe(getVariant('spiderette', 4));
    expect(okText(makePositionText(dealPosition(getVariant('spider', 1), 2)).replace('game: spider 1', 'game: spider')).variant).toBe(getVariant('spider', 1));
    expect(badText(MID.replace(/game: spiderette 4/, 'game: spiderette 3'))).toEqual({ code: 'bad-file', message: 'position file board.txt line 2: suits "3": use 1, 2 or 4' });
  });
});
