/**
 * The game commands: `deal`, `show`, `moves`, `play`. Every `<deal>` goes through loadDeal (ref.ts);
 * every fault in the input is thrown as an InputError and reported by main.ts (exit 2).
 *
 * JSON output (`--json`) is one object with stable field names: `code` the deal code (null for a
 * mid-game position), `moves` a list of moves in the project's notation, `won` whether the game is won.
 */
import type { Command } from 'commander';
import { makeDealCode } from '../game/code.js';
import { dealCards, MAX_SEED } from '../game/deal.js';
import { describeMove } from '../game/describe.js';
import { InputError, quoteInput } from '../game/errors.js';
import { isWon } from '../game/position.js';
import { makePositionJson, makePositionText, positionToJson } from '../game/positionFile.js';
import { pysolDeal, type PysolKind } from '../game/pysol.js';
import type { LoadedDeal } from '../game/ref.js';
import { legalMoves, moveText } from '../game/rules.js';
import { playLine } from '../game/score.js';
import { getVariant } from '../game/variant.js';
import { explainLine, formatExplained } from '../game/explain.js';
import { fromNumbering, lineNames, toNumbering, type Numbering } from '../game/numbering.js';
import {
  cardWords,
  COLUMNS_HELP,
  STDIN_NAME,
  numberingFor,
  numberingNote,
  formatPosition,
  lineWords,
  loadDealArg,
  parseGameOption,
  parseIntOption,
  parseSuitsOption,
  printJson,
  printLines,
  variantLabel,
  DEAL_HELP,
  dealTitle,
  formatOfOutFile,
  QUIET_HELP,
  PLAIN_EXIT_HELP,
  QUIET_NOTHING_HELP,
  wroteLine,
} from './common.js';
import { checkOutPath, checkOutReplaceable, stdoutDash, writeOut } from './batch.js';
import { sameFileAs } from '../batch/files.js';
import { DEFAULT_DB_PATH } from '../batch/store.js';

/**
 * The `show` format an `--out` file's extension gives when --format is not given (common.ts
 * formatOfOutFile): `.json` json, `.txt` text; any other name, the text. The position-file forms
 * are asked for by name (--format position, position-json).
 */
export const SHOW_FORMAT_OF_EXTENSION: Readonly<Record<string, 'json' | 'text'>> = { '.json': 'json', '.txt': 'text' };

/** The forms `show` writes. */
type ShowFormat = 'json' | 'position' | 'position-json' | 'text';
/** Each `show` form in words (the "wrote" line, and the note on an --out name that says another). */
const SHOW_FORM_WORDS: Readonly<Record<ShowFormat, string>> = { json: 'JSON', position: 'a position file (text form)', 'position-json': 'a position file (JSON form)', text: 'text' };

/** Header lines naming what was loaded: code or file, variant, and the PySolFC mapping when imported. */
function describeLoaded(d: LoadedDeal): string[] {
  const pos = d.position;
  const lines: string[] = [];
  if (d.source.kind === 'file') lines.push(`position file ${d.label === STDIN_NAME ? STDIN_NAME : d.source.path} (${variantLabel(pos)})${d.code ? '' : ', mid-game: no deal code'}`);
  else if (d.source.kind === 'pysol') lines.push(`PySolFC ${d.source.game} game ${d.source.number} (${variantLabel(pos)})`);
  else lines.push(`deal ${d.code} (${variantLabel(pos)})`);
  if (d.source.kind === 'pysol') {
    const p = pysolDeal(d.source.game as PysolKind, d.source.number);
    if (p.ok) lines.push(`mapping: ${p.value.mapping}`);
  }
  if (d.code && d.source.kind !== 'seed' && d.source.kind !== 'code') lines.push(`code: ${d.code}`);
  return lines;
}

/**
 * The JSON `show` form: faceDown a count and stock the deal sizes unless `reveal`; with `reveal`,
 * also `position`, the position in the JSON position-file form (readable back by every command).
 */
function showJson(d: LoadedDeal, reveal: boolean): Record<string, unknown> {
  const pos = d.position;
  const pj = positionToJson(pos);
  const o: Record<string, unknown> = {
    code: d.code,
    label: d.label,
    source: d.source,
    game: pos.variant.game,
    suits: pos.variant.suits,
    columns: pj.columns.map((c) => ({ faceDown: reveal ? c.faceDown : c.faceDown.length, faceUp: c.faceUp })),
    stock: reveal ? pj.stockDeals : pj.stockDeals.map((deal) => deal.length),
    removed: pj.removed,
    won: isWon(pos),
  };
  if (reveal) o.position = pj;
  if (d.source.kind === 'pysol') {
    const p = pysolDeal(d.source.game as PysolKind, d.source.number);
    if (p.ok) {
      o.pysolGameId = p.value.gameId;
      o.pysolColumns = p.value.columnMap;
      o.mapping = p.value.mapping;
    }
  }
  return o;
}

/** Kept here for callers of the CLI module; the function lives in src/game/describe.ts. */
export { describeMove };

/** The explanation of a line already played (so it cannot fail) in a numbering (explain.ts). */
export function explainOrThrow(d: LoadedDeal, moves: readonly string[], numbering: Numbering) {
  const r = explainLine(d.position, moves, { numbering, ...cardWords(d, numbering) });
  if (!r.ok) throw r.error;
  return r.value;
}

/** Registers `deal`, `show`, `moves` and `play` on the program. */
export function registerGameCommands(program: Command): void {
  program
    .command('deal')
    .description('print deal codes of seeded deals (the project\'s own numbering; a code names a whole deal)')
    .option('--game <game>', 'spider or spiderette', 'spider')
    .option('--suits <n>', '1, 2 or 4', '4')
    .option('--seed <n>', `seed of the one deal to print, 0..${MAX_SEED} (default 1)`)
    .option('--count <k>', 'print K consecutive deals instead (seeds --from, --from+1, …)')
    .option('--from <n>', 'first seed with --count (default 1)')
    .option('--json', 'print one JSON object { game, suits, codes, code (when one) }')
    .option('--quiet', QUIET_NOTHING_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  spidersolve deal --game spider --suits 2 --seed 1007      → SP2-1007\n' +
        '  spidersolve deal --game spiderette --suits 4 --count 3 --from 10   → SE4-10, SE4-11 and SE4-12, one a line' + PLAIN_EXIT_HELP,
    )
    .action((opts: { game: string; suits: string; seed?: string; count?: string; from?: string; json?: boolean }) => {
      const game = parseGameOption(opts.game);
      const suits = parseSuitsOption(opts.suits);
      const variant = getVariant(game, suits);
      if (opts.seed !== undefined && (opts.count !== undefined || opts.from !== undefined)) {
        throw new InputError('bad-option', 'option --seed: give either --seed or --count/--from, not both');
      }
      if (opts.from !== undefined && opts.count === undefined) {
        throw new InputError('bad-option', `option --from ${quoteInput(opts.from)}: only with --count K (the first of K seeds); one deal is --seed N`);
      }
      let seeds: number[];
      if (opts.count !== undefined || opts.from !== undefined) {
        const count = opts.count === undefined ? 1 : parseIntOption('count', opts.count, 1, 1_000_000);
        const from = opts.from === undefined ? 1 : parseIntOption('from', opts.from, 0, MAX_SEED);
        if (from + count - 1 > MAX_SEED) throw new InputError('bad-option', `option --count ${quoteInput(String(opts.count))}: seeds would pass ${MAX_SEED}`);
        seeds = Array.from({ length: count }, (_, i) => from + i);
      } else {
        seeds = [opts.seed === undefined ? 1 : parseIntOption('seed', opts.seed, 0, MAX_SEED)];
      }
      const codes = seeds.map((s) => makeDealCode(variant, dealCards(variant, s), s));
      if (opts.json) printJson(codes.length === 1 ? { game, suits, codes, code: codes[0] } : { game, suits, codes });
      else printLines(codes);
    });

  program
    .command('show')
    .description('show a deal or position: columns (face-down cards as ## unless --reveal), stock, removed suits, deal code')
    .argument('<deal>', DEAL_HELP)
    .option('--reveal', 'show the face-down cards and the stock\'s cards (the solver\'s view, R18)')
    .option('--format <format>', 'text, json, or a position file every <deal> argument reads back: position (the text form) or position-json (the JSON form); both write every card, face-down ones included; default: from the --out file\'s extension (.json json, .txt text), else text')
    .option('--json', 'same as --format json: { code, label, source, game, suits, columns: [{ faceDown (count, or cards with --reveal), faceUp }], stock (deal sizes, or cards with --reveal), removed, won, and with --reveal position (the JSON position-file form) }')
    .option('--columns <numbering>', `${COLUMNS_HELP}; the text form lays the columns out in that numbering, as play does (json and the position forms are always in spidersolve's order, so that they read back)`)
    .option('--out <file>', 'write to this file instead of stdout (- is stdout) and say so on stderr; missing parent directories are created (like mkdir -p); without --format, its extension gives the format (see --format; a position file needs --format position or position-json)')
    .option('--quiet', QUIET_HELP)
    .addHelpText('after', '\nExamples:\n  spidersolve show SP2-1007\n  spidersolve show pysol:spider:14934 --reveal\n  spidersolve show board.txt --json\n  spidersolve show SE4-7 --format position --out se4-7.txt   (then: spidersolve solve se4-7.txt)' + PLAIN_EXIT_HELP)
    .action(async (ref: string, opts: { reveal?: boolean; format?: string; json?: boolean; columns?: string; out?: string; quiet?: boolean }) => {
      stdoutDash(opts);
      // no --format: the --out file's extension says it (se4-7.json is JSON), else the text
      const given = opts.format === undefined ? undefined : String(opts.format).toLowerCase();
      const format = opts.json ? 'json' : (given ?? (opts.out === undefined ? undefined : formatOfOutFile(opts.out, SHOW_FORMAT_OF_EXTENSION)) ?? 'text');
      if (opts.json && given !== undefined && given !== 'json') {
        throw new InputError('bad-option', `options --json and --format ${quoteInput(opts.format!)} ask for different outputs; give one of them`);
      }
      if (!['text', 'json', 'position', 'position-json'].includes(format)) throw new InputError('bad-option', `option --format ${quoteInput(opts.format ?? '')}: use text, json, position or position-json`);
      if (opts.out !== undefined) checkOutPath(opts.out, DEFAULT_DB_PATH);
      const d = await loadDealArg(ref, opts.quiet);
      // the output over the position file it shows would destroy it (as view refuses it)
      if (opts.out !== undefined && d.source.kind === 'file' && sameFileAs(opts.out, [d.source.path]) !== null) {
        throw new InputError('bad-option', `option --out ${quoteInput(opts.out, 120)}: is the position file ${quoteInput(d.source.path, 120)} shown; writing there would destroy it, so nothing was written: give another file name`);
      }
      // a file the tool did not write is not overwritten
      if (opts.out !== undefined) checkOutReplaceable(opts.out, format === 'position' || format === 'position-json');
      const numbering = numberingFor(d, opts.columns);
      // a position file: a file's own source line kept, else the deal's name as its source line
      const source = d.source.kind === 'file' && d.source.text !== undefined ? d.source.text : d.label;
      const note = numberingNote(d, numbering);
      const text =
        format === 'json'
          ? JSON.stringify(showJson(d, !!opts.reveal), null, 2) + '\n'
          : format === 'position'
            ? makePositionText(d.position, source)
            : format === 'position-json'
              ? makePositionJson(d.position, source)
              : [...describeLoaded(d), ...(note ? [note] : []), ...formatPosition(d.position, !!opts.reveal, numbering, cardWords(d, numbering).card)].join('\n') + '\n';
      await writeOut(opts.out, text);
      const what = SHOW_FORM_WORDS[format as ShowFormat];
      // (text under an .html name, or a name no form has: a note before the line)
      if (opts.out !== undefined) wroteLine(opts.out, `${dealTitle(d)}, ${what}`, opts.quiet, { writing: what, kinds: format === 'json' || format === 'position-json' ? ['.json'] : ['.txt'] });
    });

  program
    .command('moves')
    .description('list the legal moves of a deal or position, in the project\'s move notation (d = deal, 3-7, 3-7x2 into an empty column)')
    .argument('<deal>', DEAL_HELP)
    .option('--columns <numbering>', COLUMNS_HELP)
    .option('--json', 'print one JSON object { code, moves, won, columns (the numbering: pysol or spidersolve) }')
    .option('--quiet', QUIET_HELP)
    .addHelpText('after', '\nExamples:\n  spidersolve moves SE4-7\n  spidersolve moves pysol:spider2:5     (in PySolFC\'s column numbers)' + PLAIN_EXIT_HELP)
    .action(async (ref: string, opts: { json?: boolean; columns?: string; quiet?: boolean }) => {
      const d = await loadDealArg(ref, opts.quiet);
      const pos = d.position;
      const numbering = numberingFor(d, opts.columns);
      const note = numberingNote(d, numbering);
      const moves = legalMoves(pos);
      const texts = moves.map((m) => toNumbering(moveText(pos, m), numbering));
      if (opts.json) return printJson({ code: d.code, moves: texts, won: isWon(pos), columns: numbering.name });
      const head = note ? [note] : [];
      if (moves.length === 0) return printLines([...head, isWon(pos) ? 'no legal moves: the game is won' : 'no legal moves']);
      const w = Math.max(...texts.map((t) => t.length));
      const cw = cardWords(d, numbering);
      printLines([...head, ...moves.map((m, i) => `${texts[i]!.padEnd(w)}  ${describeMove(pos, m, numbering, cw.card)}`)]);
    });

  program
    .command('play')
    .description('play a line of moves from a deal or position and print the result, moves played, scores (classic R16, reveal R17) and whether won')
    .argument('<deal>', DEAL_HELP)
    .argument('<move...>', 'moves in the project\'s notation: d (deal), 3-7 (column 3 onto column 7), 3-7x2 (2 cards into empty column 7); may also be one quoted, space-separated line')
    .option('--reveal', 'show the face-down cards and the stock of the resulting position')
    .option('--columns <numbering>', COLUMNS_HELP)
    .option('--explain', 'one line per move: its number, the notation, the cards moved in words, the card turned up, a suit completed, the stock deals left and the running scores')
    .option('--json', 'print one JSON object { code, moves, movesPlayed, classicScore, revealScore, won, flips, completed, position, columns, and with --explain explain: [one object per move] }')
    .option('--quiet', QUIET_HELP)
    .addHelpText('after', '\nExamples:\n  spidersolve play SE4-7 5-4 d\n  spidersolve play SP2-1007 "3-5 7-4 d" --json\n  spidersolve play pysol:spider2:5 "9-8 d" --explain' + PLAIN_EXIT_HELP)
    .action(async (ref: string, moveArgs: string[], opts: { reveal?: boolean; json?: boolean; columns?: string; explain?: boolean; quiet?: boolean }) => {
      const d = await loadDealArg(ref, opts.quiet);
      const numbering = numberingFor(d, opts.columns);
      const note = numberingNote(d, numbering);
      const words = lineWords(moveArgs, opts.quiet);
      if (words.length === 0) throw new InputError('bad-move', 'play: no moves given (the line is empty); give moves such as 5-2 d (spidersolve moves <deal> lists the legal ones)');
      const line = words.map((m, i) => {
        const t = fromNumbering(m, numbering);
        if (!t.ok) throw new InputError(t.error.code, `${t.error.message} (move ${i + 1} of the line)`);
        return t.value;
      });
      // (an error names the moves and columns as they were written)
      const r = playLine(d.position, line, lineNames(words, numbering));
      if (!r.ok) throw r.error;
      const p = r.value;
      const explained = opts.explain ? explainOrThrow(d, p.moves, numbering) : null;
      const shown = p.moves.map((m) => toNumbering(m, numbering));
      if (opts.json) {
        return printJson({
          code: d.code,
          columns: numbering.name,
          moves: shown,
          movesPlayed: p.moves.length,
          classicScore: p.classic,
          revealScore: p.reveal,
          won: p.won,
          flips: p.flips,
          completed: p.completed,
          position: positionToJson(p.position),
          ...(explained ? { explain: explained } : {}),
        });
      }
      printLines([
        ...describeLoaded(d),
        ...(note ? [note] : []),
        `played ${p.moves.length} move${p.moves.length === 1 ? '' : 's'}: ${shown.join(' ')}`,
        ...(explained ? formatExplained(explained) : []),
        `classic score ${p.classic} (R16), reveal score ${p.reveal} (R17); ${p.flips} card${p.flips === 1 ? '' : 's'} turned up, ${p.completed} suit${p.completed === 1 ? '' : 's'} completed` +
          (d.position.removed.length > 0 ? ` (the scores also count the ${d.position.removed.length} removed before the line)` : ''),
        p.won ? 'won' : 'not won',
        ...formatPosition(p.position, !!opts.reveal, numbering, cardWords(d, numbering).card),
      ]);
    });
}
