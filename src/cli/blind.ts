/**
 * The `blind` command: plays one deal blind (src/blind/game.ts playBlind: the player sees only the
 * face-up cards, R18) and prints each move in words with the card it turned up, then the end: won, or
 * stuck with the suits completed and the cards left face down. When the game is stuck it also says
 * where the deal was lost, if the solver knows (src/blind/loss.ts findLoss). `--out` writes the game for
 * the viewer (src/view/page.ts), face-down cards hidden until the page's reveal toggle shows them.
 *
 * Exit codes: 0 won, 3 stuck (not won), 2 bad input, 1 internal error.
 */
import { dirname } from 'node:path';
import { Option, type Command } from 'commander';
import { canonicalPath, makeDirs, sameFileAs, writeTextAtomically } from '../batch/files.js';
import { oneLine } from '../batch/schema.js';
import { DEFAULT_DB_PATH } from '../batch/store.js';
import { playBlind, type BlindGame } from '../blind/game.js';
import { findLoss, type LossPoint } from '../blind/loss.js';
import { parsePlayerSpec, PLAYER_HELP } from '../blind/players/index.js';
import { makeCard, parseCard } from '../game/cards.js';
import { MAX_SEED } from '../game/deal.js';
import { InputError, quoteInput } from '../game/errors.js';
import type { LoadedDeal } from '../game/ref.js';
import { MAX_MAX_POSITIONS } from '../solver/types.js';
import { lineFrames } from '../view/frames.js';
import { moveCount, viewerPage } from '../view/page.js';
import { checkOutPath, checkOutReplaceable, checkOutWritable, DEFAULT_PLAYER_SEED } from './batch.js';
import { DEAL_HELP, loadDealArg, noteOutExtension, parseIntOption, printJson, printLines, QUIET_HELP, variantLabel, wroteLine } from './common.js';

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
 * suit symbol (`Q♥`), as the moves show the cards they turn up.
 */
export function shownCard(card: string): string {
  const c = parseCard(card);
  return c === undefined ? card : makeCard(c, true);
}

/**
 * The end of the game in words: won, or stuck with suits completed and the cards left face down and
 * in the stock, shown with suit symbols (shownCard).
 */
export function endText(g: BlindGame): string[] {
  if (g.result === 'won') return [`won in ${moveCount(g.steps.length)} (${g.completed} of ${g.completeSuits} suits completed)`];
  const down = g.faceDown.reduce((s, c) => s + c.length, 0);
  const stock = g.stock.reduce((s, d) => s + d.length, 0);
  const lines = [
    `stuck after ${moveCount(g.steps.length)} (${g.stuckReason === 'move limit' ? 'the move limit was reached' : 'no move the player would play'}), ${g.completed} of ${g.completeSuits} suits completed; ${down} card${down === 1 ? '' : 's'} left face down${stock ? `, ${stock} in the stock` : ''}`,
  ];
  g.faceDown.forEach((c, i) => {
    if (c.length) lines.push(`  face down in column ${i + 1}: ${c.map(shownCard).join(' ')}`);
  });
  g.stock.forEach((d, i) => lines.push(`  stock deal ${i + 1}: ${d.map(shownCard).join(' ')}`));
  return lines;
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
 * by a vote of solved completions (players/sample.ts) and the moves its greedy fallback played without
 * a vote (none voted for, or its plans going round in a circle); greedy votes on nothing, so its line
 * has no such part. `cost: 2.3 s; 45 solves, 123,456 positions (of these, finding where the deal was
 * lost: 0.4 s, 5 solves, 23,456 positions); 10 plans voted, 2 moves played by the greedy fallback
 * (without a vote)`.
 */
export function costText(g: BlindGame, loss: TimedLoss | null): string {
  const c = blindCost(g, loss);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;
  const share = loss === null ? '' : ` (of these, finding where the deal was lost: ${s(c.lossElapsedMs)}, ${plural(c.lossSolves, 'solve')}, ${plural(c.lossPositions, 'position')})`;
  const votes = g.player === 'greedy' ? '' : `; ${plural(g.work.plans, 'plan')} voted, ${plural(g.work.fallbacks, 'move')} played by the greedy fallback (without a vote)`;
  return `cost: ${s(c.elapsedMs)}; ${plural(c.solves, 'solve')}, ${plural(c.positions, 'position')}${share}${votes}`;
}

/**
 * The numbering line of a blind game of a PySolFC deal: blind prints moves in spidersolve's layout
 * only (common.ts numberingNote is the line of the commands that take --columns); PySolFC's one- and
 * two-suit games use clubs where spidersolve uses spades (game/pysol.ts).
 */
export function blindPysolColumns(columns: number, suits: number): string {
  const layout = columns === 10 ? "PySolFC columns 1,4,7,10,2,3,5,6,8,9 are spidersolve's 1-10" : "the same as PySolFC's, 1-7 left to right";
  return `columns: spidersolve's layout (${layout})${suits < 4 ? ", spades for PySolFC's clubs" : ''}; show --columns pysol lays the deal out in PySolFC's`;
}

/** Writes the viewer page of a blind game to `out`. */
async function writePage(deal: LoadedDeal, g: BlindGame, loss: LossPoint | null, out: string, version: string): Promise<void> {
  const frames = lineFrames(deal.position, g.line);
  if (!frames.ok) throw new Error(`the blind game does not replay: ${frames.error.message}`);
  const at = lossPlace(g, loss);
  const mark = at === null ? null : { proven: 'the deal was lost here', 'or-later': 'the deal was lost here or later', 'last-or-stopping': 'the deal was lost here or by stopping after it', 'not-by-a-move': 'the player stopped here; a win still existed' }[at.kind];
  const fs = frames.value.map((f) => (at !== null && at.move > 0 && f.step === at.move ? { ...f, words: `${f.words} (${mark})` } : f));
  const title = deal.source.kind === 'pysol' || deal.source.kind === 'file' || !deal.code ? deal.label : deal.code;
  const end = g.result === 'won' ? `won in ${moveCount(g.steps.length)}` : `stuck after ${moveCount(g.steps.length)} with ${g.completed} of ${g.completeSuits} suits completed; ${lossText(g, loss)}`;
  const html = viewerPage({
    title,
    variantLabel: variantLabel(deal.position),
    completeSuits: deal.position.variant.completeSuits,
    verdict: g.result === 'won' ? 'won' : 'line',
    note: `Played blind by ${g.player} (player seed ${g.seed}): the player saw only the face-up cards; face-down cards stay hidden until turned up (the reveal toggle shows them). ${end.charAt(0).toUpperCase()}${end.slice(1)}.`,
    frames: fs,
    generator: `spidersolve ${version}`,
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
    .option('--json', 'print one JSON object { code, label, game, suits, player, seed (the player seed), result (won or stuck), stuckReason, completed, completeSuits, steps: [{ move, words, turnedUp: [{ column, card }], completed }], line, faceDown, stock, work: { solves, positions, plans, fallbacks } and elapsedMs (the play), loss: { lastWinnable, exact, budget, solves, positions, elapsedMs } or null (the search for where the deal was lost), cost: { elapsedMs, solves, positions, lossSolves, lossPositions, lossElapsedMs } (the two together, as the cost line) }; an error is printed as { error: { code, message } } (bad-option, bad-code, bad-file, …; the exit status and the line on stderr as without --json)')
    .option('--out <file>', 'also write the game as a viewer page (HTML; face-down cards hidden until turned up, a toggle reveals them; the move where the deal was lost marked) and say so on stderr (missing parent directories are created); not - (stdout holds the game), the position file played, nor an existing file other than a page spidersolve wrote; checked before the game is played')
    .option('--quiet', QUIET_HELP)
    .addHelpText('after', `\n${DEAL_HELP}\n\nExamples:\n  spidersolve blind SP1-10001 --player greedy\n  spidersolve blind SP4-10001 --player sample:k=8,budget=20000 --player-seed 7 --out game.html\n\nExit codes: 0 won, 3 stuck (not won), 2 bad input, 1 internal error.`)
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
        noteOutExtension(o.out, 'an HTML page', ['.html', '.htm'], o.quiet);
      }
      const g = playBlind(deal.position, spec, seed);
      let loss: TimedLoss | null = null;
      if (g.result === 'stuck' && lossBudget > 0) {
        const t0 = performance.now();
        const found = findLoss(deal.position, g.line, lossBudget);
        loss = { ...found, elapsedMs: Math.round((performance.now() - t0) * 10) / 10 };
      }
      if (o.out !== undefined) await writePage(deal, g, loss, o.out, program.version() ?? '');
      const v = deal.position.variant;
      const title = deal.source.kind === 'pysol' || !deal.code ? deal.label : deal.code;
      if (o.json) {
        printJson({ code: deal.code, label: deal.label, game: v.game, suits: v.suits, ...g, loss, cost: blindCost(g, loss) });
      } else {
        const lines = [`${title} (${variantLabel(deal.position)}), played blind by ${g.player}, player seed ${seed}`];
        // a PySolFC deal: say which numbering the moves use, as solve and hint do (blind has only spidersolve's)
        if (deal.source.kind === 'pysol') lines.push(blindPysolColumns(v.columns, v.suits));
        g.steps.forEach((s, i) => {
          const up = s.turnedUp.length ? `: ${s.turnedUp.map((t) => shownCard(t.card)).join(' ')}` : '';
          lines.push(`${String(i + 1).padStart(4)}. ${s.move.padEnd(6)} ${s.words}${up}`);
        });
        lines.push(...endText(g));
        if (g.result === 'stuck') lines.push(lossText(g, loss));
        lines.push(costText(g, loss));
        printLines(lines);
      }
      if (o.out !== undefined) {
        const end = g.result === 'won' ? `won in ${moveCount(g.steps.length)}` : `stuck after ${moveCount(g.steps.length)}`;
        wroteLine(o.out, `${title}, played blind by ${g.player}: ${end}`, o.quiet);
      }
      process.exitCode = BLIND_EXIT_CODES[g.result];
    });
}
