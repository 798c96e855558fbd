/**
 * The `view` command: writes the solution viewer page (src/view/page.ts) for a deal and a line — one
 * given with `--line`, or the winning line of `--solve` (a stored won or lost result of the deal in
 * the results database is used first, so a deal a batch has solved is not solved again). Parsing and
 * printing only; the frames come from src/view/frames.ts, the solving from src/solver/solve.ts.
 *
 * Exit codes: 0 the page was written (whatever the verdict; the line printed says it), 2 bad input
 * (a bad deal, a bad or illegal move of --line, --line with --solve, a bad --out or database).
 */
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { canonicalPath, makeDirs, sameFileAs, statOrNull, writeTextAtomically } from '../batch/files.js';
import { dealIdentity } from '../batch/deals.js';
import { oneLine } from '../batch/faults.js';
import { ResultStore, type StoredOutcome } from '../batch/store.js';
import { InputError, quoteInput } from '../game/errors.js';
import { fromNumbering, type Numbering } from '../game/numbering.js';
import type { LoadedDeal } from '../game/ref.js';
import { solve } from '../solver/solve.js';
import { DEFAULT_MAX_POSITIONS, MAX_MAX_POSITIONS, SOLVER_VERSION } from '../solver/types.js';
import { lineFrames } from '../view/frames.js';
import { moveCount, viewerPage, type Verdict } from '../view/page.js';
import { checkOutPath, checkOutReplaceable, stdoutDash } from './batch.js';
import { HTML_PAGE, cardWords, COLUMNS_HELP, dbOption, DEAL_HELP, dealTitle, lineWords, loadDealArg, numberingFor, numberingNote, parseBudgetOption, QUIET_HELP, variantLabel, writeHtmlToStdout, wroteLine } from './common.js';

interface ViewOptions {
  line?: string;
  columns?: string;
  solve?: boolean;
  maxPositions?: string;
  db: string;
  stored: boolean;
  out?: string;
  quiet?: boolean;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The stored outcome of a deal, or null when the database file does not exist (nothing is created).
 * An empty name or a folder's (ending in /), and an empty file, are refused as every command refuses them (InputError).
 */
function lookUp(deal: LoadedDeal, db: string): StoredOutcome | null {
  if (db.trim() !== '' && !/[\\/]$/.test(db) && statOrNull(db) === null) return null;
  const store = ResultStore.openForReading(db);
  try {
    return store.storedOutcome(dealIdentity(deal), SOLVER_VERSION);
  } finally {
    store.close();
  }
}

/** What the page shows: the line, the verdict and the sentence under the heading. */
function planView(deal: LoadedDeal, o: ViewOptions, numbering: Numbering): { line: string[]; verdict: Verdict; note: string } {
  if (o.line !== undefined) {
    // read in the deal's numbering, as play reads it (PySolFC's columns for a pysol: deal)
    const line = lineWords([o.line], o.quiet).map((m, i) => {
      const t = fromNumbering(m, numbering);
      if (!t.ok) throw new InputError(t.error.code, `${t.error.message} (move ${i + 1} of the line)`);
      return t.value;
    });
    if (line.length === 0) throw new InputError('bad-move', 'option --line: no moves given (the line is empty); give moves such as "5-2 d", or leave --line out to show the position alone');
    return { line, verdict: 'line', note: `The line given (${moveCount(line.length)}), replayed through the rules engine.` };
  }
  if (!o.solve) return { line: [], verdict: 'position', note: 'The position alone: give --line "…" or --solve to step through a line.' };
  const max = o.maxPositions === undefined ? DEFAULT_MAX_POSITIONS : parseBudgetOption('view', o.maxPositions);
  const stored = o.stored ? lookUp(deal, o.db) : null;
  if (stored?.status === 'won') {
    const line = stored.line!.split(' ').filter(Boolean);
    return {
      line,
      verdict: 'won',
      note: `A winning line of ${moveCount(line.length)}, stored in ${o.db} (solver ${stored.solverVersion}, budget ${fmt(stored.maxPositions)} positions, found in ${fmt(stored.positions ?? 0)} positions); not solved again.`,
    };
  }
  if (stored?.status === 'lost') {
    return {
      line: [],
      verdict: 'lost',
      note: `Lost: stored in ${o.db} (solver ${stored.solverVersion}), the solver examined every reachable position and none wins. Nothing to step through.`,
    };
  }
  const r = solve(deal.position, { maxPositions: max });
  if (r.status === 'won') {
    return {
      line: [...r.line],
      verdict: 'won',
      note: `A winning line of ${moveCount(r.line.length)} found by the solver (${fmt(r.positions)} of ${fmt(max)} positions, solver ${r.solverVersion}).`,
    };
  }
  if (r.status === 'lost') {
    return { line: [], verdict: 'lost', note: `Lost: the solver examined every reachable position (${fmt(r.positions)}) and none wins. Nothing to step through.` };
  }
  return {
    line: [],
    verdict: 'undecided',
    note: `Undecided: no win found within the budget of ${fmt(max)} positions, and no proof that none exists. A larger --max-positions may find one.`,
  };
}

/**
 * `view`'s action. `given(name)` says whether option `name` came from the command line (not its
 * default), for the options that only --solve reads.
 */
async function viewAction(ref: string, o: ViewOptions, version: string, given: (name: string) => boolean = () => false): Promise<void> {
  stdoutDash(o);
  if (o.line !== undefined && o.solve) throw new InputError('bad-option', 'option --line: give either --line or --solve, not both');
  if (!o.solve) {
    // options that only --solve reads: refused alike, not silently ignored
    if (o.maxPositions !== undefined) throw new InputError('bad-option', 'option --max-positions: only with --solve');
    if (given('db')) throw new InputError('bad-option', 'option --db: only with --solve');
    if (given('stored')) throw new InputError('bad-option', 'option --no-stored: only with --solve');
  }
  if (o.out !== undefined) checkOutPath(o.out, o.db);
  const deal = await loadDealArg(ref, o.quiet);
  // the page over the position file it shows would destroy it (a study reads its position files again
  // when it resumes)
  if (o.out !== undefined && deal.source.kind === 'file' && sameFileAs(o.out, [deal.source.path]) !== null) {
    throw new InputError('bad-option', `option --out ${quoteInput(o.out, 120)}: is the position file ${quoteInput(deal.source.path, 120)} this page shows; writing there would destroy it, so nothing was written: give another file name`);
  }
  // a file the tool did not write (notes, another program's page) is not overwritten
  if (o.out !== undefined) checkOutReplaceable(o.out);
  const numbering = numberingFor(deal, o.columns);
  const cards = cardWords(deal, numbering);
  const plan = planView(deal, o, numbering);
  const frames = lineFrames(deal.position, plan.line, { numbering, cardName: cards.card });
  if (!frames.ok) throw frames.error;
  const fs = frames.value;
  const won = fs[fs.length - 1]!.won;
  const verdict: Verdict = plan.verdict === 'line' && won && plan.line.length > 0 ? 'won' : plan.verdict;
  const v = deal.position.variant;
  const title = dealTitle(deal);
  const html = viewerPage({
    title,
    variantLabel: variantLabel(deal.position),
    completeSuits: v.completeSuits,
    verdict,
    note: plan.note,
    frames: fs,
    generator: `spidersolve ${version}`,
    columnLabels: numbering.shown,
    spadesAsClubs: cards.suit(0) !== '\u2660',
    columnsNote: numberingNote(deal, numbering),
    startIsDeal: deal.code !== null,
  });
  if (o.out === undefined) {
    // (a note when that is a terminal: the page is for a browser)
    writeHtmlToStdout(html, o.quiet);
    return;
  }
  try {
    makeDirs(dirname(canonicalPath(o.out)));
    await writeTextAtomically(o.out, html);
  } catch (e) {
    throw new InputError('bad-file', `option --out ${quoteInput(o.out, 120)}: cannot write it (${oneLine(e)}); nothing was written there`);
  }
  const what = { won: `won in ${moveCount(plan.line.length)}`, lost: 'lost (proven)', undecided: 'undecided', line: `a line of ${moveCount(plan.line.length)}, not won`, position: 'the position alone' }[verdict];
  // (with a note when the name says another form, p.txt)
  wroteLine(o.out, `${title}, ${what}`, o.quiet, HTML_PAGE);
}

/** Registers `view` on the program. */
export function registerViewCommand(program: Command): void {
  program
    .command('view')
    .description('write a self-contained HTML page that steps through a line of play, card by card (a given --line, or the winning line of --solve)')
    .argument('<deal>', 'deal code, pysol: reference or position file')
    .option('--line <moves>', 'the line to show, in the move notation, one quoted argument: "5-2 d 3-1x2"')
    .option('--columns <numbering>', COLUMNS_HELP)
    .option('--solve', 'show the winning line: a stored won or lost result of the deal in --db is used first, else the deal is solved')
    .option('--max-positions <n>', `position budget when solving, 1..${MAX_MAX_POSITIONS} (default ${DEFAULT_MAX_POSITIONS})`)
    .addOption(dbOption('results database looked up by --solve (a missing file is skipped)'))
    .option('--no-stored', 'with --solve, always solve (do not look in the database)')
    .option('--out <file>', 'write the page to this file (missing parent directories are created) and say so on stderr; default stdout (also -)')
    .option('--quiet', QUIET_HELP)
    .addHelpText(
      'after',
      `\n${DEAL_HELP}\n\nExamples:\n  spidersolve view SE1-1 --solve --out reports/SE1-1.html\n  spidersolve view SE4-7 --line "5-2 d" --out se4-7.html\n\nExit codes: 0 page written (won, lost, undecided or a line), 2 bad input, 1 the --db database held locked by another program too long, or an internal error.`,
    )
    .action(async (ref: string, o: ViewOptions, cmd: Command) => viewAction(ref, o, program.version() ?? '', (name) => cmd.getOptionValueSource(name) === 'cli'));
}
