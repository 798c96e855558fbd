/**
 * The `blind` command: plays one deal blind (src/blind/game.ts playBlind: the player sees only the
 * face-up cards, R18) and prints each move in words with the card it turned up, then the end: won, or
 * stuck with the suits completed and the cards left face down. When the game is stuck it also says
 * where the deal was lost, if the solver knows (src/blind/loss.ts findLoss). `--out` writes the game for
 * the viewer (src/view/page.ts), face-down cards hidden until the page's reveal toggle shows them.
 *
 * Each move is printed as it is played (startBlind), in the deal's column numbering (`--columns`:
 * PySolFC's by default for a `pysol:` deal, as solve and play print it). A SIGINT, SIGTERM or SIGHUP
 * stops the game after the move being played (or the loss search between two solves): the moves so
 * far stay printed, a line on stderr says where it stopped, and nothing is written (blind keeps no
 * results; `--out` is written only for a finished game).
 *
 * Exit codes: 0 won, 3 stuck (not won), 2 bad input, 1 internal error, 130 interrupted.
 */
import { dirname } from 'node:path';
import { Option, type Command } from 'commander';
import { canonicalPath, makeDirs, sameFileAs, writeTextAtomically } from '../batch/files.js';
import { oneLine } from '../batch/faults.js';
import { DEFAULT_DB_PATH } from '../batch/store.js';
import { abortOnSignals, endIfHungUp } from './stopSignals.js';
import { startBlind, type BlindGame, type BlindStep } from '../blind/game.js';
import { findLossUnlessStopped, type LossPoint } from '../blind/loss.js';
import { parsePlayerSpec, PLAYER_HELP, specText } from '../blind/players/index.js';
import type { NoMoveReason, NoMoveWhy } from '../blind/players/types.js';
import { makeCard, parseCard, type Card } from '../game/cards.js';
import { describeMove } from '../game/describe.js';
import { ownNumbering, toNumbering, type Numbering } from '../game/numbering.js';
import { MAX_SEED } from '../game/deal.js';
import { InputError, quoteInput } from '../game/errors.js';
import type { LoadedDeal } from '../game/ref.js';
import { MAX_MAX_POSITIONS } from '../solver/types.js';
import { lineFrames } from '../view/frames.js';
import { moveCount, viewerPage } from '../view/page.js';
import { checkOutPath, checkOutReplaceable, checkOutWritable, DEFAULT_PLAYER_SEED, EXIT_INTERRUPTED } from './batch.js';
import { HTML_PAGE, cardWords, COLUMNS_HELP, DEAL_HELP, dealTitle, loadDealArg, numberingFor, numberingNote, parseIntOption, printJson, printLines, QUIET_HELP, variantLabel, wroteLine } from './common.js';

/** Exit code of each blind result. */
export const BLIND_EXIT_CODES = { won: 0, stuck: 3 } as const;

/** Default position budget of each solve that looks for the losing move. */
export const DEFAULT_LOSS_BUDGET = 200_000;

interface BlindCliOptions {
  player: string;
  playerSeed?: string;
  /** `--seed`: the hidden older name of `--player-seed`. */
  seed?: string;
  json?: boolean;
  out?: string;
  lossBudget?: string;
  /** `--quiet`: nothing on stderr but errors (no "wrote" line, no note on a deal read as ASCII). */
  quiet?: boolean;
  /** `--columns pysol|spidersolve`: the numbering the game is printed in (common.ts numberingFor). */
  columns?: string;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Where a stuck game was lost, from findLoss's answer: `move`, the move (counting from 1) that lost
 * the deal, and `kind`: `proven` (a win before it, none after it), `or-later` (a win before it, none
 * found after it within the budget: that move or a later one lost it), `last-or-stopping` (as
 * or-later, but it is the game's last move: that move lost the deal, or the player's stopping after
 * it), `not-by-a-move` (the end was proven winnable: the player stopped where a win still existed;
 * `move` is the last move, 0 for a game of no moves). Null when nothing is known (no loss search, or
 * not even the start proven winnable).
 */
export function lossPlace(g: BlindGame, loss: LossPoint | null): { move: number; kind: 'proven' | 'or-later' | 'last-or-stopping' | 'not-by-a-move' } | null {
  if (g.result === 'won' || loss === null || loss.lastWinnable === null) return null;
  const n = g.steps.length;
  if (loss.lastWinnable >= n) return { move: n, kind: 'not-by-a-move' };
  const move = loss.lastWinnable + 1;
  return { move, kind: loss.exact ? 'proven' : move === n ? 'last-or-stopping' : 'or-later' };
}

/** The sentence on where the deal was lost (findLoss, lossPlace), for the text output and the page. */
export function lossText(g: BlindGame, loss: LossPoint | null): string {
  if (g.result === 'won') return 'won: nothing was lost';
  if (loss === null) return 'where the deal was lost: not looked for (--loss-budget 0)';
  const at = lossPlace(g, loss);
  if (at === null && loss.exact) return `no move lost the deal: it cannot be won even seeing every card (the start proven lost, every reachable position examined within ${fmt(loss.budget)} positions)`;
  if (at === null) return `where the deal was lost: unknown (no perfect-information win of the deal found within ${fmt(loss.budget)} positions)`;
  const m = at.move;
  const last = m === g.steps.length ? ' (the last move)' : '';
  switch (at.kind) {
    case 'not-by-a-move':
      return `the deal was not lost by a move: the player stopped ${m === 0 ? 'at the start' : `after move ${m}, the last`}, where a perfect-information win still existed (proven, ${fmt(loss.budget)} positions a solve)`;
    case 'proven':
      return `the deal was lost at move ${m}${last}: a perfect-information win existed before it and none after it (proven, ${fmt(loss.budget)} positions a solve)`;
    case 'last-or-stopping':
      return `the deal was lost at move ${m} (the last move) or by stopping after it: a perfect-information win existed before move ${m}; after it none was found within ${fmt(loss.budget)} positions (unproven)`;
    case 'or-later':
      return `the deal was lost at move ${m} or later: a perfect-information win existed before move ${m}; after it none was found within ${fmt(loss.budget)} positions (unproven)`;
  }
}

/**
 * A card of a blind game (BlindGame's machine form, `QH`) as the text output shows it, with the
 * suit symbol (`Q♥`), as the moves show the cards they turn up; `name` names a card otherwise
 * (common.ts cardWords: PySolFC's clubs for spades).
 */
export function shownCard(card: string, name: (c: Card) => string = (c) => makeCard(c, true)): string {
  const c = parseCard(card);
  return c === undefined ? card : name(c);
}

/**
 * How a blind game is printed: the column numbering (numbering.ts; spidersolve's by default) and the
 * cards' names in words (default: rank and suit symbol) and in the machine form of `--json` (default:
 * `QH`), which in PySolFC's numbering of a one- or two-suit deal write spades as clubs (cardWords).
 */
export interface BlindView {
  readonly numbering: Numbering;
  readonly card: (c: Card) => string;
  readonly code: (c: Card) => string;
}

/** spidersolve's own view of a game of `columns` columns (BlindView). */
export function ownView(columns: number): BlindView {
  return { numbering: ownNumbering(columns), card: (c) => makeCard(c, true), code: (c) => makeCard(c) };
}

/** The view of `deal`'s game in `numbering` (BlindView; cards as common.ts cardWords names them). */
export function viewOf(deal: LoadedDeal, numbering: Numbering): BlindView {
  const words = cardWords(deal, numbering);
  const clubs = words.suit(0) !== '\u2660';
  return { numbering, card: words.card, code: (c) => makeCard(clubs && c < 13 ? c + 39 : c) };
}

/** The indices 0..n-1 of columns (or of a stock deal's cards, one a column) in the order of their shown column numbers (1 first). */
function shownOrder(view: BlindView, n: number): number[] {
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => view.numbering.shown[a]! - view.numbering.shown[b]!);
}

/** A reason of NoMoveReason in words: [said of one move, said of several]. */
const REFUSAL_WORDS: Readonly<Record<NoMoveReason, readonly [string, string]>> = {
  back: ['leads back to a view met since the last card was turned up', 'lead back to views met since the last card was turned up'],
  'whole column': ['moves a whole column into an empty one', 'move a whole column into an empty one'],
  'breaks run': ['breaks an in-suit run', 'break an in-suit run'],
  'no gain': ['moves a group off a card of the next rank onto another, not of its suit (no gain)', 'move a group off a card of the next rank onto another, not of its suit (no gain)'],
  'spends empty': ['fills an empty column without turning up a card or freeing one for its suit', 'fill an empty column without turning up a card or freeing one for its suit'],
  'strands stock': ['completes a suit and leaves too few cards on the table for the deal left (R12)', 'complete a suit and leave too few cards on the table for the deal left (R12)'],
  idle: ['', ''],
};

/**
 * Why the player stopped, in a few words (the player's own account, NoMoveWhy): `the player plays
 * none of the 4 legal moves: 3 lead back to views met since the last card was turned up, 1 breaks an
 * in-suit run; no deal is left`; `no legal move is left` for a view with none.
 */
export function noMoveText(why: NoMoveWhy): string {
  const deal = why.deal === 'none left' ? 'no deal is left' : 'no deal while a column is empty (R12)';
  if (why.legal === 0) return `no legal move is left; ${deal}`;
  const head = why.legal === 1 ? 'the player does not play the one legal move' : `the player plays none of the ${why.legal} legal moves`;
  if (why.idle !== null) return `${head}: no card turned up in its last ${why.idle === 1 ? 'move' : `${why.idle} moves`}, so it only deals or fills an empty column for a deal; ${deal}`;
  const all = why.refused.length === 1 && why.refused[0]!.count === why.legal;
  const parts = why.refused.map((r) => (all ? `${why.legal === 1 ? 'it' : 'each'} ${REFUSAL_WORDS[r.reason][0]}` : `${r.count} ${REFUSAL_WORDS[r.reason][r.count === 1 ? 0 : 1]}`));
  return `${head}: ${parts.join(', ')}; ${deal}`;
}

/**
 * Why a stuck game stopped, in words (endText's first line, `--json`'s `stuckWhy`): the move limit,
 * or the player's account of a stop for want of a move (noMoveText; without it `no move the player
 * would play`). Null for a won game.
 */
export function stuckWhy(g: BlindGame, why: NoMoveWhy | null): string | null {
  if (g.result === 'won') return null;
  return g.stuckReason === 'move limit' ? 'the move limit was reached' : why === null ? 'no move the player would play' : noMoveText(why);
}

/**
 * The end of the game in words: won, or stuck with suits completed and the cards left face down and
 * in the stock, shown with suit symbols (shownCard). `why`: the player's account of a stop for want of
 * a move (startBlind's whyNone), said in the first line (noMoveText); without it the line says `no
 * move the player would play`. `view`: the numbering and card names to print in (default
 * spidersolve's).
 */
export function endText(g: BlindGame, why: NoMoveWhy | null = null, view: BlindView = ownView(g.faceDown.length)): string[] {
  if (g.result === 'won') return [`won in ${moveCount(g.steps.length)} (${g.completed} of ${g.completeSuits} suits completed)`];
  const down = g.faceDown.reduce((s, c) => s + c.length, 0);
  const stock = g.stock.reduce((s, d) => s + d.length, 0);
  const reason = stuckWhy(g, why)!;
  const lines = [
    `stuck after ${moveCount(g.steps.length)} (${reason}), ${g.completed} of ${g.completeSuits} suits completed; ${down} card${down === 1 ? '' : 's'} left face down${stock ? `, ${stock} in the stock` : ''}`,
  ];
  const name = (c: string) => shownCard(c, view.card);
  for (const i of shownOrder(view, g.faceDown.length)) {
    const c = g.faceDown[i]!;
    if (c.length) lines.push(`  face down in column ${view.numbering.shown[i]}: ${c.map(name).join(' ')}`);
  }
  g.stock.forEach((d, i) => lines.push(`  stock deal ${i + 1}: ${shownOrder(view, d.length).map((j) => name(d[j]!)).join(' ')}`));
  return lines;
}

/**
 * A move of a blind game as printed: its number (from 1), the move in the view's numbering, the move in
 * words, and the cards it turned up: `  12. 3-7    move 9♠ from column 3 onto 10♥ in column 7, turns up a card: K♦`.
 */
export function stepLine(n: number, s: BlindStep, view: BlindView): string {
  const up = s.turnedUp.length ? `: ${[...s.turnedUp].sort((a, b) => view.numbering.shown[a.column - 1]! - view.numbering.shown[b.column - 1]!).map((t) => shownCard(t.card, view.card)).join(' ')}` : '';
  return `${String(n).padStart(4)}. ${toNumbering(s.move, view.numbering).padEnd(6)} ${s.words}${up}`;
}

/**
 * The step as `--json` gives it in a view: the move in its numbering, the words as given (described in
 * that view by the caller), the turned-up cards with their columns in that numbering (in its order)
 * and their codes in its card names, the completed suits' letters likewise.
 */
function stepInView(s: BlindStep, words: string, view: BlindView): BlindStep {
  const code = (t: string) => shownCard(t, view.code);
  return {
    ...s,
    move: toNumbering(s.move, view.numbering),
    words,
    turnedUp: s.turnedUp.map((t) => ({ column: view.numbering.shown[t.column - 1]!, card: code(t.card) })).sort((a, b) => a.column - b.column),
    completed: s.completed.map((l) => code(`A${l}`).slice(1)),
  };
}

/**
 * The game as `--json` gives it in a view (BlindView): moves, columns and cards in its numbering and
 * names (stepInView; `words[i]`: move i+1 described in the view), face-down columns and stock deals in
 * the order of its column numbers. spidersolve's own view gives the game as it is.
 */
export function gameInView(g: BlindGame, words: readonly string[], view: BlindView): BlindGame {
  if (view.numbering.name === 'spidersolve') return g;
  const code = (t: string) => shownCard(t, view.code);
  const steps = g.steps.map((s, i) => stepInView(s, words[i] ?? s.words, view));
  return {
    ...g,
    steps,
    line: steps.map((s) => s.move),
    faceDown: shownOrder(view, g.faceDown.length).map((i) => g.faceDown[i]!.map(code)),
    stock: g.stock.map((d) => shownOrder(view, d.length).map((j) => code(d[j]!))),
  };
}

/** findLoss's answer with the time its solves took (ms, wall clock), as `blind --json` gives it. */
export type TimedLoss = LossPoint & { readonly elapsedMs: number };

/**
 * What a `blind` run cost, the play and the loss search together: `elapsedMs` (wall clock, ms, one
 * decimal), `solves` and `positions` (stored by those solves, summed), and of them the loss search's
 * (`lossSolves`, `lossPositions`, `lossElapsedMs`; 0 when it did not run). The play's alone are the
 * game's `work` and `elapsedMs`.
 */
export interface BlindCost {
  readonly elapsedMs: number;
  readonly solves: number;
  readonly positions: number;
  readonly lossSolves: number;
  readonly lossPositions: number;
  readonly lossElapsedMs: number;
}

/** The cost of a blind game and its loss search (null: not run); see BlindCost. */
export function blindCost(g: BlindGame, loss: TimedLoss | null): BlindCost {
  const lossSolves = loss?.solves ?? 0;
  const lossPositions = loss?.positions ?? 0;
  const lossElapsedMs = loss?.elapsedMs ?? 0;
  return {
    elapsedMs: Math.round((g.elapsedMs + lossElapsedMs) * 10) / 10,
    solves: g.work.solves + lossSolves,
    positions: g.work.positions + lossPositions,
    lossSolves,
    lossPositions,
    lossElapsedMs,
  };
}

/**
 * The `cost:` line of `blind`: the play and the loss search together (blindCost), with the loss
 * search's share when it ran, then for the sample player what its moves came from: the plans it chose
 * by a vote of solved completions (players/sample.ts; a vote that finds no plan counts too) and the moves its greedy fallback played without
 * a vote (none voted for, or its plans going round in a circle); greedy votes on nothing, so its line
 * has no such part. `cost: 2.3 s; 45 solves, 123,456 positions (of these, finding where the deal was
 * lost: 0.4 s, 5 solves, 23,456 positions); 10 votes held, 2 moves played by the greedy fallback
 * (without a vote)`.
 */
export function costText(g: BlindGame, loss: TimedLoss | null): string {
  const c = blindCost(g, loss);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;
  const share = loss === null ? '' : ` (of these, finding where the deal was lost: ${s(c.lossElapsedMs)}, ${plural(c.lossSolves, 'solve')}, ${plural(c.lossPositions, 'position')})`;
  const votes = g.player === 'greedy' ? '' : `; ${plural(g.work.plans, 'vote')} held, ${plural(g.work.fallbacks, 'move')} played by the greedy fallback (without a vote)`;
  return `cost: ${s(c.elapsedMs)}; ${plural(c.solves, 'solve')}, ${plural(c.positions, 'position')}${share}${votes}`;
}

/** Writes the viewer page of a blind game to `out`, its columns and cards in `view`'s numbering and names (as view --columns). */
async function writePage(deal: LoadedDeal, g: BlindGame, loss: LossPoint | null, out: string, version: string, view: BlindView): Promise<void> {
  const frames = lineFrames(deal.position, g.line, { numbering: view.numbering, cardName: view.card });
  if (!frames.ok) throw new Error(`the blind game does not replay: ${frames.error.message}`);
  const at = lossPlace(g, loss);
  const mark = at === null ? null : { proven: 'the deal was lost here', 'or-later': 'the deal was lost here or later', 'last-or-stopping': 'the deal was lost here or by stopping after it', 'not-by-a-move': 'the player stopped here; a win still existed' }[at.kind];
  const fs = frames.value.map((f) => (at !== null && at.move > 0 && f.step === at.move ? { ...f, words: `${f.words} (${mark})` } : f));
  const title = dealTitle(deal);
  const end = g.result === 'won' ? `won in ${moveCount(g.steps.length)}` : `stuck after ${moveCount(g.steps.length)} with ${g.completed} of ${g.completeSuits} suits completed; ${lossText(g, loss)}`;
  const html = viewerPage({
    title,
    variantLabel: variantLabel(deal.position),
    completeSuits: deal.position.variant.completeSuits,
    verdict: g.result === 'won' ? 'won' : 'line',
    note: `Played blind by ${g.player} (player seed ${g.seed}): the player saw only the face-up cards; face-down cards stay hidden until turned up (the reveal toggle shows them). ${end.charAt(0).toUpperCase()}${end.slice(1)}.`,
    frames: fs,
    generator: `spidersolve ${version}`,
    columnLabels: view.numbering.shown,
    spadesAsClubs: view.card(0) !== makeCard(0, true),
    columnsNote: numberingNote(deal, view.numbering),
    startIsDeal: deal.code !== null,
  });
  try {
    makeDirs(dirname(canonicalPath(out)));
    await writeTextAtomically(out, html);
  } catch (e) {
    throw new InputError('bad-file', `option --out ${quoteInput(out, 120)}: cannot write it (${oneLine(e)}); nothing was written there`);
  }
}

/**
 * The player's seed of `blind`: `--player-seed`, or `--seed` (its older name, hidden from --help),
 * each 0..MAX_SEED; DEFAULT_PLAYER_SEED when neither is given. Both given: they must name the same
 * seed. Throws InputError `bad-option` (one line naming the option) for a bad value or two that differ.
 */
export function blindSeed(o: { playerSeed?: string; seed?: string }): number {
  const given = o.playerSeed === undefined ? undefined : parseIntOption('player-seed', o.playerSeed, 0, MAX_SEED);
  const old = o.seed === undefined ? undefined : parseIntOption('seed', o.seed, 0, MAX_SEED);
  if (given !== undefined && old !== undefined && given !== old) {
    throw new InputError('bad-option', `options --player-seed ${given} and --seed ${old}: --seed is an older name of --player-seed; give one seed`);
  }
  return given ?? old ?? DEFAULT_PLAYER_SEED;
}

/**
 * Test hook, as signals.ts signalAtStage is for a batch: with SPIDERSOLVE_TEST_SIGNAL_AT=blind-loss
 * (or `blind-loss:SIGTERM`) the process sends itself SIGINT (or SIGTERM) as the search for where the
 * deal was lost begins; Node delivers it after that search's first solve.
 */
function signalAtLossSearch(): void {
  const [stage, signal = 'SIGINT'] = (process.env.SPIDERSOLVE_TEST_SIGNAL_AT ?? '').split(':');
  if (stage === 'blind-loss' && (signal === 'SIGINT' || signal === 'SIGTERM')) process.kill(process.pid, signal);
}

/** Two turns of the event loop: a signal that has come meanwhile is delivered to its handler (signals.ts). */
async function letSignalsIn(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * Plays the blind game of `deal` move by move (startBlind), printing the head lines and each move as
 * it is played unless `--json`, then looks for where a stuck game was lost (findLossUnlessStopped).
 * `signal` stops it between two moves or two solves of that search: then the moves so far stay
 * printed (and the end of a game that ended, when the search was stopped), the line of the interruption goes to stderr (with --json, the error object to stdout),
 * the exit status is EXIT_INTERRUPTED (130), and `interrupted` is returned. Else the ended game, the
 * loss search's answer, the player's account of a stop (whyNone) and each move in words in `view`.
 */
async function playToEnd(
  deal: LoadedDeal,
  spec: ReturnType<typeof parsePlayerSpec>,
  seed: number,
  lossBudget: number,
  view: BlindView,
  o: BlindCliOptions,
  signal: AbortSignal,
): Promise<{ kind: 'interrupted' } | { kind: 'ended'; g: BlindGame; loss: TimedLoss | null; why: NoMoveWhy | null; words: string[] }> {
  const title = dealTitle(deal);
  if (!o.json) {
    const note = numberingNote(deal, view.numbering);
    printLines([`${title} (${variantLabel(deal.position)}), played blind by ${specText(spec)}, player seed ${seed}`, ...(note ? [note] : [])]);
  }
  const interrupted = (what: string, ended = false): { kind: 'interrupted' } => {
    const why = ended ? 'the page is written only once the search for where the deal was lost has ended too' : 'the page is written only for a finished game';
    const out = o.out === undefined ? '' : `, and --out ${o.out} was not written (${why})`;
    const message = `interrupted ${what}; nothing was stored (blind keeps no results)${out}`;
    process.stderr.write(`spidersolve: ${message}\n`);
    if (o.json) printJson({ error: { code: 'interrupted', message } });
    process.exitCode = EXIT_INTERRUPTED;
    return { kind: 'interrupted' };
  };
  const play = startBlind(deal.position, spec, seed);
  const words: string[] = [];
  for (;;) {
    await letSignalsIn();
    if (signal.aborted) return interrupted(`after ${moveCount(play.moves)}, before the game ended`);
    const p = play.step();
    if (p === null) break;
    const said = view.numbering.name === 'spidersolve' ? p.step.words : describeMove(p.before, p.move, view.numbering, view.card);
    words.push(said);
    if (!o.json) printLines([stepLine(p.number, { ...p.step, words: said }, view)]);
  }
  const g = play.game();
  let loss: TimedLoss | null = null;
  if (g.result === 'stuck' && lossBudget > 0) {
    signalAtLossSearch();
    const t0 = performance.now();
    const found = await findLossUnlessStopped(deal.position, g.line, lossBudget, signal);
    if ('stopped' in found) {
      // the game has ended: its end is printed; where it was lost is not known
      if (!o.json) printLines(endText(g, play.whyNone(), view));
      return interrupted(`after the game's ${moveCount(g.steps.length)} (it ended stuck), while looking for where the deal was lost`, true);
    }
    loss = { ...found, elapsedMs: Math.round((performance.now() - t0) * 10) / 10 };
  }
  // (a signal after the game and the search have ended is too late to stop anything: the end is printed)
  return { kind: 'ended', g, loss, why: play.whyNone(), words };
}

/** Registers `blind` on the program. */
export function registerBlindCommand(program: Command): void {
  program
    .command('blind')
    .description('play a deal blind: the player sees only the face-up cards (R18); prints each move with the card it turned up, and the end')
    .argument('<deal>', 'deal code, pysol: reference or position file')
    .option('--player <spec>', PLAYER_HELP, 'sample')
    .option('--player-seed <n>', `the player's own random seed, 0..${MAX_SEED} (default ${DEFAULT_PLAYER_SEED}), as batch --player-seed; the same deal, player and seed give the same game (--seed is an older name of it)`)
    .addOption(new Option('--seed <n>', 'older name of --player-seed').hideHelp())
    .option('--loss-budget <n>', `when the game is stuck, position budget of each solve that looks for the move where the deal was lost, 0 (do not look) or 1..${MAX_MAX_POSITIONS} (default ${DEFAULT_LOSS_BUDGET})`)
    .option('--columns <numbering>', `${COLUMNS_HELP}; the game is played the same in either, only printed in the numbering chosen`)
    .option('--json', 'print one JSON object { code, label, game, suits, player, seed (the player seed), result (won or stuck), stuckReason, completed, completeSuits, steps: [{ move, words, turnedUp: [{ column, card }], completed, fallback }], line, faceDown, stock, work: { solves, positions, plans, fallbacks } and elapsedMs (the play), stuckWhy (why a stuck game stopped, in words; null when won), loss: { lastWinnable, exact, budget, solves, positions, elapsedMs } or null (the search for where the deal was lost), cost: { elapsedMs, solves, positions, lossSolves, lossPositions, lossElapsedMs } (the two together, as the cost line), columns (the numbering, pysol or spidersolve: the moves, line, turnedUp columns, words, faceDown and stock are in it, and in pysol a one- or two-suit deal\'s spades are clubs) }, at the end of the game; an error is printed as { error: { code, message } } (bad-option, bad-code, bad-file, interrupted, …; the exit status and the line on stderr as without --json)')
    .option('--out <file>', 'also write the game as a viewer page (HTML; face-down cards hidden until turned up, a toggle reveals them; the move where the deal was lost marked) and say so on stderr (missing parent directories are created); not - (stdout holds the game), the position file played, nor an existing file other than a page spidersolve wrote; checked before the game is played')
    .option('--quiet', QUIET_HELP)
    .addHelpText('after', `\n${DEAL_HELP}\n\nExamples:\n  spidersolve blind SP1-10001 --player greedy\n  spidersolve blind SP4-10001 --player sample:k=8,budget=20000 --player-seed 7 --out game.html\n\nExit codes: 0 won, 3 stuck (not won), 2 bad input, 1 internal error, 130 interrupted (SIGINT, SIGTERM or SIGHUP: stopped after the move being played, the moves so far printed; a second signal quits at once).`)
    .action(async (ref: string, o: BlindCliOptions) => {
      // stdout holds the game in words (or JSON): the page has no place there
      if (o.out === '-') throw new InputError('bad-option', 'option --out -: blind prints the game on stdout, so the page cannot go there: give a file name for the page');
      const spec = parsePlayerSpec(o.player);
      const seed = blindSeed(o);
      const lossBudget = o.lossBudget === undefined ? DEFAULT_LOSS_BUDGET : parseIntOption('loss-budget', o.lossBudget, 0, MAX_MAX_POSITIONS);
      if (o.out !== undefined) checkOutPath(o.out, DEFAULT_DB_PATH);
      const deal = await loadDealArg(ref, o.quiet);
      if (o.out !== undefined) {
        // the page over the position file it plays would destroy it; and a place that cannot be
        // written is refused before the game (and the loss search) is played, not after
        if (deal.source.kind === 'file' && sameFileAs(o.out, [deal.source.path]) !== null) {
          throw new InputError('bad-option', `option --out ${quoteInput(o.out, 120)}: is the position file ${quoteInput(deal.source.path, 120)} this page shows; writing there would destroy it, so nothing was written: give another file name`);
        }
        // a file the tool did not write (notes, another program's page) is not overwritten
        checkOutReplaceable(o.out);
        checkOutWritable(o.out);
      }
      const numbering = numberingFor(deal, o.columns);
      const view = viewOf(deal, numbering);
      const v = deal.position.variant;
      const title = dealTitle(deal);
      // each move is printed as it is played; a signal (Ctrl-C) stops the game after the move being
      // played, with the moves so far printed (abortOnSignals: a second signal quits at once)
      const stop = abortOnSignals();
      let ended: Awaited<ReturnType<typeof playToEnd>>;
      try {
        ended = await playToEnd(deal, spec, seed, lossBudget, view, o, stop.signal);
      } finally {
        stop.dispose();
        // a terminal that hung up: end as a hung-up process does
        endIfHungUp(stop);
      }
      if (ended.kind === 'interrupted') return;
      const { g, loss } = ended;
      if (o.out !== undefined) await writePage(deal, g, loss, o.out, program.version() ?? '', view);
      if (o.json) {
        printJson({ code: deal.code, label: deal.label, game: v.game, suits: v.suits, ...gameInView(g, ended.words, view), stuckWhy: stuckWhy(g, ended.why), loss, cost: blindCost(g, loss), columns: numbering.name });
      } else {
        const lines = [...endText(g, ended.why, view)];
        if (g.result === 'stuck') lines.push(lossText(g, loss));
        lines.push(costText(g, loss));
        printLines(lines);
      }
      if (o.out !== undefined) {
        const end = g.result === 'won' ? `won in ${moveCount(g.steps.length)}` : `stuck after ${moveCount(g.steps.length)}`;
        wroteLine(o.out, `${title}, played blind by ${g.player}: ${end}`, o.quiet, HTML_PAGE);
      }
      process.exitCode = BLIND_EXIT_CODES[g.result];
    });
}
