/**
 * The solver commands: `solve` and `hint`. They parse, call the solver (src/solver/solve.ts) and print.
 *
 * Exit codes (also in docs/commands.md): 0 won, 3 lost (proven: every reachable position examined),
 * 4 undecided (the position budget ran out), 2 bad input, 1 internal error.
 */
import type { Command } from 'commander';
import type { LoadedDeal } from '../game/ref.js';
import { solve } from '../solver/solve.js';
import { DEFAULT_MAX_POSITIONS, MAX_MAX_POSITIONS, type SolveProgress, type SolveResult } from '../solver/types.js';
import { toNumbering } from '../game/numbering.js';
import { formatExplained } from '../game/explain.js';
import { COLUMNS_HELP, DEAL_HELP, dealTitle, loadDealArg, numberingFor, numberingNote, parseBudgetOption, printJson, printLines, QUIET_HELP, variantLabel } from './common.js';
import { explainOrThrow } from './game.js';

/** Exit code of each solver result. */
export const SOLVE_EXIT_CODES = { won: 0, lost: 3, undecided: 4 } as const;

const EXIT_HELP = '\nExit codes: 0 won, 3 lost (proven), 4 undecided (budget spent), 2 bad input, 1 internal error, 130 stopped by Ctrl-C (SIGINT), 143 stopped by SIGTERM.';

/**
 * Solves a loaded deal with the `--max-positions` budget (of `command`, for its messages). The deal is
 * loaded once, by the caller: a position file read from a pipe (`/dev/stdin`, `<(…)`) can be read only
 * once (a second read would find the pipe empty).
 */
function solveArg(command: string, deal: LoadedDeal, maxText: string | undefined, showProgress = false): { deal: LoadedDeal; max: number; r: SolveResult } {
  const max = maxText === undefined ? DEFAULT_MAX_POSITIONS : parseBudgetOption(command, maxText);
  if (!showProgress) return { deal, max, r: solve(deal.position, { maxPositions: max }) };
  const progress = solveProgress((text) => process.stderr.write(text), max);
  try {
    return { deal, max, r: solve(deal.position, { maxPositions: max, onProgress: progress.onProgress }) };
  } finally {
    progress.done();
  }
}

/** Milliseconds into a solve before its progress line first shows (a short solve shows none). */
export const PROGRESS_FIRST_MS = 2000;
/** Least milliseconds between two progress lines. */
export const PROGRESS_EVERY_MS = 1000;

/**
 * The progress line of a long solve: `solving: 1,245,184 of 10,000,000 positions (12%), 415,061
 * positions/s, 3.0 s`.
 */
export function solveProgressText(p: SolveProgress, max: number): string {
  const pct = Math.floor((p.positions / max) * 100);
  const rate = p.elapsedMs > 0 ? `, ${Math.round((p.positions / p.elapsedMs) * 1000).toLocaleString('en-US')} positions/s` : '';
  return `solving: ${p.positions.toLocaleString('en-US')} of ${max.toLocaleString('en-US')} positions (${pct}%)${rate}, ${(p.elapsedMs / 1000).toFixed(1)} s`;
}

/**
 * A progress display for one solve, written with `write` (to a terminal: each line overwrites the last
 * with a carriage return): `onProgress` for SolveOptions, which shows solveProgressText first when the
 * solve has run PROGRESS_FIRST_MS, then at most once every PROGRESS_EVERY_MS; `done` clears the line
 * (if one was shown), so that the result is printed on a clean line.
 */
export function solveProgress(write: (text: string) => void, max: number): { onProgress: (p: SolveProgress) => void; done: () => void } {
  let next = PROGRESS_FIRST_MS;
  let shown = false;
  return {
    onProgress(p) {
      if (p.elapsedMs < next) return;
      next = p.elapsedMs + PROGRESS_EVERY_MS;
      shown = true;
      write(`\r${solveProgressText(p, max)}\x1b[K`);
    },
    done() {
      if (shown) write('\r\x1b[K');
      shown = false;
    },
  };
}

function mb(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

function summary(r: SolveResult): string {
  const what = { won: 'won: a winning line was found and replayed through the rules engine', lost: 'lost: every reachable position was examined, none wins', undecided: 'undecided: the position budget ran out before a win or a proof' }[r.status];
  return what;
}

/**
 * What another budget could change, after the position count: the line a win takes (the search's stages
 * share the budget, so another budget may take another path), or the answer an undecided solve may
 * reach. Nothing for a loss (a proof examines every reachable position, whatever the budget) or a
 * position already won (no moves).
 */
function budgetNote(r: SolveResult): string {
  if (r.status === 'won' && r.line.length > 0) return ' (the stages share the budget, so another budget may find another line)';
  if (r.status === 'undecided') return ' (a larger --max-positions may settle it)';
  return '';
}

/** Solves shorter than this give no positions/s figure: their fixed costs and V8's warm-up swamp it. */
export const MIN_MS_FOR_RATE = 1000;

/**
 * The speed of one solve for the text output: `N positions/s` when it took at least MIN_MS_FOR_RATE
 * milliseconds, else a note that it was too short for a meaningful figure (65 positions in 0.03 s
 * is not a speed).
 */
export function speedText(positions: number, elapsedMs: number): string {
  if (elapsedMs < MIN_MS_FOR_RATE) return 'under a second: too short for a positions/s figure';
  return `${Math.round((positions / elapsedMs) * 1000).toLocaleString('en-US')} positions/s`;
}

/**
 * The stages of a solve in words, in order, each with the new positions it stored and how it ended:
 * `quick 10,000 (share spent), beam 545,430 in 9 iterations (budget short), complete 444,570 (budget spent)`.
 */
export function stagesText(stages: SolveResult['stages']): string {
  return stages
    .map((st) => `${st.stage} ${st.positions.toLocaleString('en-US')}${st.iterations !== null ? ` in ${st.iterations} iteration${st.iterations === 1 ? '' : 's'}` : ''} (${st.end})`)
    .join(', ');
}

/** Registers `solve` and `hint` on the program. */
export function registerSolveCommands(program: Command): void {
  program
    .command('solve')
    .description('solve a deal or position with perfect information (R18): won with the whole line, lost (proven) or undecided')
    .argument('<deal>', 'deal code, pysol: reference or position file')
    .option('--max-positions <n>', `position budget: distinct positions stored, all passes together, 1..${MAX_MAX_POSITIONS} (default ${DEFAULT_MAX_POSITIONS})`)
    .option('--columns <numbering>', COLUMNS_HELP)
    .option('--explain', 'the winning line one move a line: number, notation, cards moved in words, card turned up, suit completed, stock deals left, running scores')
    .option('--json', 'print one JSON object { code, label, game, suits, maxPositions, status, positions, elapsedMs, line, moveCount, classicScore, revealScore, peakBytes, solverVersion, stages, columns, and with --explain explain: [one object per move] }; stages: [{ stage (quick, beam or complete), positions (new ones it stored), iterations (beam only, else null), end (won, lost, budget spent, share spent, ran dry or budget short) }]; an error is printed as { error: { code, message } } (bad-option, bad-code, bad-file, out-of-memory, …; the exit status and the line on stderr as without --json)')
    .option('--quiet', `${QUIET_HELP}`)
    .addHelpText('after', `\n${DEAL_HELP}\n\nA solve that runs more than ${PROGRESS_FIRST_MS / 1000} s shows its progress on stderr (positions so far, rate) when stderr is a terminal, unless --json or --quiet.${EXIT_HELP}`)
    .action(async (ref: string, opts: { maxPositions?: string; json?: boolean; columns?: string; explain?: boolean; quiet?: boolean }) => {
      const deal0 = await loadDealArg(ref, opts.quiet);
      const numbering = numberingFor(deal0, opts.columns);
      const note = numberingNote(deal0, numbering);
      const { deal, max, r } = solveArg('solve', deal0, opts.maxPositions, !opts.json && !opts.quiet && process.stderr.isTTY === true);
      const line = r.line.map((m) => toNumbering(m, numbering));
      const explained = opts.explain && r.status === 'won' ? explainOrThrow(deal, r.line, numbering) : null;
      if (opts.json) {
        printJson({ code: deal.code, label: deal.label, game: deal.position.variant.game, suits: deal.position.variant.suits, maxPositions: max, ...r, line, columns: numbering.name, ...(opts.explain ? { explain: explained ?? [] } : {}) });
      } else {
        const lines = [
          `${dealTitle(deal)} (${variantLabel(deal.position)}): ${summary(r)}`,
          `positions: ${r.positions.toLocaleString('en-US')} of ${max.toLocaleString('en-US')}${budgetNote(r)}; time: ${(r.elapsedMs / 1000).toFixed(2)} s; ` +
            `${speedText(r.positions, r.elapsedMs)}; peak memory: ${mb(r.peakBytes)}; solver ${r.solverVersion}`,
          `stages: ${stagesText(r.stages)}`,
        ];
        if (r.status === 'won') {
          lines.push(`moves: ${r.moveCount}; classic score: ${r.classicScore} (R16); reveal score: ${r.revealScore} (R17)`);
          if (note) lines.push(note);
          lines.push(`line: ${line.join(' ')}`);
          if (explained) lines.push(...formatExplained(explained));
        }
        printLines(lines);
      }
      process.exitCode = SOLVE_EXIT_CODES[r.status];
    });

  program
    .command('hint')
    .description('print the first move of a winning line, if the solver proves one within the budget')
    .argument('<deal>', 'deal code, pysol: reference or position file')
    .option('--max-positions <n>', `position budget, 1..${MAX_MAX_POSITIONS} (default ${DEFAULT_MAX_POSITIONS})`)
    .option('--columns <numbering>', COLUMNS_HELP)
    .option('--json', 'print one JSON object { code, status, move (null unless won), positions, line (the whole winning line; [] unless won), columns }')
    .option('--quiet', QUIET_HELP)
    .addHelpText('after', `\n${DEAL_HELP}${EXIT_HELP}`)
    .action(async (ref: string, opts: { maxPositions?: string; json?: boolean; columns?: string; quiet?: boolean }) => {
      const deal0 = await loadDealArg(ref, opts.quiet);
      const numbering = numberingFor(deal0, opts.columns);
      const note = numberingNote(deal0, numbering);
      const { deal, max, r } = solveArg('hint', deal0, opts.maxPositions);
      const line = r.line.map((m) => toNumbering(m, numbering));
      const move = r.status === 'won' ? (line[0] ?? null) : null;
      if (opts.json) printJson({ code: deal.code, status: r.status, move, positions: r.positions, line, columns: numbering.name });
      else if (r.status === 'won') printLines([move === null ? 'the position is already won' : `${move}   (first move of a ${r.moveCount}-move win)`, ...(note && move !== null ? [note] : [])]);
      else if (r.status === 'lost') printLines(['no hint: this position is lost (proven: no line wins)']);
      else printLines([`no hint: no win proven within ${max.toLocaleString('en-US')} position${max === 1 ? '' : 's'} (try --max-positions)`]);
      process.exitCode = SOLVE_EXIT_CODES[r.status];
    });
}
