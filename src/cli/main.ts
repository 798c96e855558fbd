/**
 * The `spidersolve` command-line program: builds the commander program and reports every error in one
 * place. Run from source with `node --import tsx src/cli/main.ts …`, from the build with
 * `bin/spidersolve.js`.
 *
 * Exit codes: 0 success (or the status a command set in `process.exitCode`, e.g. batch's 130); 2 a fault in the input (an InputError: bad deal code, bad move, missing file,
 * bad option value; or a commander usage error), reported on stderr as one line
 * `spidersolve: <message>` (a bad database whose path came from SPIDERSOLVE_DB, not --db, said so:
 * common.ts dbFromEnvMessage); 1 a fault of a file under the command (a FileFault: disk full, I/O error,
 * database deleted or replaced during a batch), one line `spidersolve: <message>` naming the file and
 * what was kept; 2 a damaged database file (SQLITE_CORRUPT, SQLITE_NOTADB), one line naming it; 1 a database
 * another program held locked past the busy timeout, or a full or failing disk under a command other
 * than batch, one line naming it (faults.ts databaseFaultMessage); 1 a search that ran out of memory
 * (SolverMemoryError), one line with the positions stored and the advice to give a smaller budget; 1 anything else, reported as `spidersolve: internal error: <message>` (set
 * SPIDERSOLVE_DEBUG=1 to get the stack as well). With --json, `solve` and `blind` also print the error
 * on stdout as one JSON object `{ "error": { "code", "message" } }` (Fault, printsJsonErrors).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { damagedDatabaseMessage, databaseFaultMessage, FileFault, forgetDatabases, isBusyDatabase, isDamagedDatabase, storageFaultKind } from '../batch/faults.js';
import { INVISIBLE_CHARS, InputError, quoteInput } from '../game/errors.js';
import { SOLVER_VERSION, SolverMemoryError } from '../solver/types.js';
import { registerBatchCommands } from './batch.js';
import { registerBlindCommand } from './blind.js';
import { registerCompletionCommand } from './completion.js';
import { DB_ENV, dbFromEnvMessage, packageInfo, printJson, REPEATABLE, useDefaultDbForEmptyEnv } from './common.js';
import { registerGameCommands } from './game.js';
import { registerMergeCommand } from './merge.js';
import { releaseEarlySignals } from './signals.js';
import { registerSolveCommands } from './solve.js';
import { registerViewCommand } from './view.js';

/** The version in package.json (common.ts packageInfo; '0.0.0' if none is found). */
export function packageVersion(): string {
  return packageInfo()?.version ?? '0.0.0';
}

/** Applies exit-override and silent error output to a command and all its subcommands. */
function quietErrors(cmd: Command): void {
  cmd.exitOverride();
  cmd.configureOutput({ outputError: () => {} });
  for (const sub of cmd.commands) quietErrors(sub);
}

/** Builds the `spidersolve` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('spidersolve')
    .version(`${packageVersion()} (solver ${SOLVER_VERSION})`, '-V, --version', "print the version: the package's and the solver's (results are stored under the solver's)")
    .description(
      'Spider and Spiderette solitaire research tool: seeded deals and deal codes, PySolFC import, ' +
        'position files, a rules engine, a bounded perfect-information solver, blind play and batch studies.\n' +
        'A <deal> is a deal code (SP2-1007, SE4-7, SP4X-…), pysol:spider:N / pysol:spider2:N / ' +
        'pysol:spider1:N / pysol:spiderette:N, or a position file (.json, or the text form).',
    )
    .showHelpAfterError(false)
    .addHelpText(
      'after',
      `\nEnvironment: ${DB_ENV} names the default results database of every command with --db (--db wins over it); SPIDERSOLVE_DEBUG=1 prints the stack of an internal error.\n` +
        'Shell completion: source <(spidersolve completion bash) (or zsh; fish: spidersolve completion fish | source).',
    );
  quietErrors(program);
  program.hook('preAction', useDefaultDbForEmptyEnv);
  registerGameCommands(program);
  registerSolveCommands(program);
  registerBatchCommands(program);
  registerMergeCommand(program);
  registerViewCommand(program);
  registerBlindCommand(program);
  registerCompletionCommand(program);
  quietErrors(program);
  return program;
}

/**
 * Refuses two mistakes in a command's options that commander lets through, before it parses them
 * (`args`: the user's arguments, the command's name first; those after `--` are not options). Throws
 * InputError `bad-option`.
 *
 * - An option given twice with two values (`--game spiderette … --game spider`): commander keeps the
 *   last one, and a script that adds options to a default command line would run what it did not
 *   mean to, without a word. The same value twice, a flag twice, and options
 *   whose help says REPEATABLE (`report --study`) are let through.
 * - An option that takes a value followed by another option instead (`batch … --db --json`):
 *   commander takes the next word as the value whatever it is, so the batch would run into a new
 *   database named `--json`, and `--study --json` would add a study of that name to the database,
 *   exit 0; and `--max-positions --db x.sqlite` would leave x.sqlite over, refused as "too many
 *   arguments" without naming the option. A value that starts with `--` is taken for a missing
 *   value; one written with `=` (`--study=--json`) is the user's. One that ends the arguments has
 *   none (`--player` last), said in the same words.
 */
export function refuseOptionMistakes(cmd: Command, args: readonly string[]): void {
  // per flag, the value it was first given (an option and its --no- form contradicting each other
  // are the command's to refuse: batch's --shard and --no-shard)
  const seen = new Map<string, string>();
  for (let i = 1; i < args.length; i++) {
    const token = args[i]!;
    if (token === '--') break;
    if (!token.startsWith('--')) continue;
    const eq = token.indexOf('=');
    const flag = eq < 0 ? token : token.slice(0, eq);
    const opt = cmd.options.find((o) => o.long === flag);
    if (!opt) continue;
    let value = 'true';
    if (eq >= 0) value = token.slice(eq + 1);
    else if (opt.required) {
      // the last word: the option has no value at all
      if (i + 1 >= args.length) throw new InputError('bad-option', `option ${opt.flags}: no value given; give ${flag} its value`);
      value = args[++i]!;
      if (value.startsWith('--')) {
        throw new InputError('bad-option', `option ${opt.flags}: no value given (the next word, ${quoteInput(value)}, is an option); give ${flag} its value`);
      }
    } else if (opt.optional && i + 1 < args.length && !args[i + 1]!.startsWith('-')) value = args[++i]!;
    if (opt.description.includes(REPEATABLE)) continue;
    const first = seen.get(flag);
    if (first !== undefined && first !== value) {
      throw new InputError('bad-option', `option ${flag} given twice (${quoteInput(first)}, then ${quoteInput(value)}): give it once`);
    }
    seen.set(flag, value);
  }
}

/**
 * Last line of defence: a message on one line of printable characters, at most 2,000 of them (the
 * messages quote the input short already, `quoteInput`; this is for any that does not).
 */
function oneLine(s: string): string {
  const line = s
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[^\x20-\x7e\u00a0-\uffff]|[\ufffd\u2028\u2029]/g, '?')
    // invisible format characters: U+202E and its kind reorder the rest of the line on a terminal
    .replace(INVISIBLE_CHARS, '?')
    .trim();
  return line.length > 2000 ? `${line.slice(0, 1997)}...` : line;
}

/**
 * A reader that stops reading (`spidersolve deal --count 100000 | head -1`) closes the pipe: end
 * quietly, as command-line tools do, instead of failing with EPIPE. Any other failure to write the
 * output (a full disk: `> /dev/full`) ends with one line on stderr and exit code 1.
 */
export function quietOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode === undefined ? 0 : Number(process.exitCode));
    process.stderr.write(`spidersolve: cannot write the output: ${oneLine(e.message)}\n`);
    process.exit(1);
  });
}

/** A failed command as reported (runProgram): its exit status, a stable code, and the one-line message. */
export interface Fault {
  /** The exit status: 2 bad input, 1 a fault of a file, of the machine, or an internal error. */
  status: number;
  /**
   * What went wrong, for programs: an InputError's code (errors.ts: `bad-code`, `bad-option`,
   * `bad-file`, …; `bad-file` too for a damaged database), `bad-option` or `bad-usage` for a command
   * line commander refused (an option, or an argument missing or too many), `file-fault` (a file or
   * database failed under the command: disk full, I/O error, held locked), `out-of-memory` (a search
   * the machine had no memory for), `internal`.
   */
  code: string;
  /** The message, one line, as printed after `spidersolve: `. */
  message: string;
  /** The stack of an internal error (printed with SPIDERSOLVE_DEBUG=1). */
  stack?: string;
  /** True when commander printed what is wrong already (its help, on stderr): nothing more is printed there. */
  shown?: boolean;
}

/**
 * What runProgram reports for error `e` thrown by command `named` (see the module comment), or null
 * for commander's help and version, which end the command with status 0 and say nothing more.
 */
export function faultOf(e: unknown, named?: Command): Fault | null {
  if (e instanceof InputError) {
    // a bad database named by SPIDERSOLVE_DB, not by --db: the message says so, and how to change it
    const db = named?.getOptionValueSource('db') === 'env' ? String(named.getOptionValue('db')) : null;
    return { status: 2, code: e.code, message: oneLine(db === null ? e.message : dbFromEnvMessage(e.message, db)) };
  }
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return null;
    if (e.code === 'commander.help' || e.code === 'commander.executeSubCommandAsync') return e.exitCode === 0 ? null : { status: 2, code: 'bad-usage', message: 'no command given; spidersolve --help lists the commands', shown: true };
    if (e.code === 'commander.excessArguments' && named) {
      // commander's "too many arguments for 'report'. Expected 0 arguments but got 1." names neither the
      // word nor what the command takes: `report pysol-sample` (a study is --study NAME)
      const takes = named.registeredArguments;
      const extra = named.args[takes.length];
      if (extra !== undefined) {
        const what = takes.length === 0 ? 'no arguments, only options' : `${takes.length === 1 ? 'one argument' : `${takes.length} arguments`}, ${takes.map((a) => `<${a.name()}>`).join(' ')}`;
        return { status: 2, code: 'bad-usage', message: `unexpected argument ${quoteInput(extra)}: ${named.name()} takes ${what}; spidersolve ${named.name()} --help lists ${takes.length === 0 ? 'them' : 'its options'}` };
      }
    }
    return { status: 2, code: /option/i.test(e.code) ? 'bad-option' : 'bad-usage', message: oneLine(e.message.replace(/^error:\s*/, '')) };
  }
  // a file failed under us (disk full, I/O error, database deleted): not a defect of ours
  if (e instanceof FileFault) return { status: 1, code: 'file-fault', message: oneLine(e.message) };
  if (e instanceof SolverMemoryError) {
    // the machine had no memory left for the search's table: a limit of the machine, not a defect
    return { status: 1, code: 'out-of-memory', message: `${oneLine(e.message)}: no more memory was to be had (the machine's, or a limit such as ulimit -v); give a position budget below ${e.positions.toLocaleString('en-US')}, or run where more memory is free` };
  }
  // a truncated or overwritten database file: bad input, named
  if (isDamagedDatabase(e)) return { status: 2, code: 'bad-file', message: oneLine(damagedDatabaseMessage(e)) };
  // another program held the database locked, or the disk was full or failed: not a defect of ours
  if (isBusyDatabase(e) || storageFaultKind(e) !== null) return { status: 1, code: 'file-fault', message: oneLine(databaseFaultMessage(e)) };
  const msg = e instanceof Error ? e.message : String(e);
  return { status: 1, code: 'internal', message: `internal error: ${oneLine(msg)}`, stack: (e as Error)?.stack ?? '' };
}

/**
 * Whether command `cmd`'s `--json` covers its errors too: with --json, an error is also printed on
 * stdout as one JSON object `{ "error": { "code", "message" } }` (Fault's code and message), with the
 * same exit status and the same line on stderr. Every command that has `--json`, but `export`, which
 * writes CSV only and takes `--json` only to refuse it.
 */
export function printsJsonErrors(cmd: Command): boolean {
  return cmd.name() !== 'export' && cmd.options.some((o) => o.long === '--json');
}

/**
 * Whether a command line (the command's name first) asks for JSON among its options (before any
 * `--`): `--json`, or `--format json` (`--format=json`), which report and show take as the same.
 */
function asksForJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const opts = end < 0 ? args : args.slice(0, end);
  return opts.includes('--json') || opts.includes('--format=json') || opts.some((a, i) => a === '--format' && opts[i + 1] === 'json');
}

/**
 * Runs the program on the user's arguments (`process.argv.slice(2)`), reporting errors as the module
 * comment says. Returns the exit code and also sets `process.exitCode`.
 */
export async function main(args: readonly string[] = process.argv.slice(2)): Promise<number> {
  quietOnClosedPipe();
  // A signal that came while the program loaded (signals.ts): `batch` takes it over once its own
  // handlers are in place and stops as on any signal; any other command gets the usual handling
  // back and ends now, by that signal, as it would have without the early handling.
  if (args[0] !== 'batch') {
    const early = await releaseEarlySignals();
    if (early !== null) {
      process.kill(process.pid, early);
      await new Promise(() => {}); // the signal ends the process
    }
  }
  return runProgram(buildProgram(), args);
}

/**
 * Parses `given` (the user's arguments) with a built program and reports any error in the one place (see the module comment).
 * `main` is this with `buildProgram()`; the tests run the CLI in their own process through it
 * (test/helpers/cli.ts runInProcess), and a program with extra commands. Each call is one command run:
 * it starts with no databases noted (faults.ts forgetDatabases), whatever earlier calls opened.
 */
export async function runProgram(program: Command, given: readonly string[]): Promise<number> {
  let code = 0;
  process.exitCode = undefined;
  forgetDatabases();
  quietErrors(program);
  // the help of `help` (`help --help`, `help -h`, `help help`) is the general help, which lists it
  const args = given.length === 2 && given[0] === 'help' && ['--help', '-h', 'help'].includes(given[1]!) ? ['--help'] : given;
  const named = program.commands.find((c) => c.name() === args[0]);
  try {
    // commander answers `help <unknown>` with the whole help on stderr; say what is wrong instead
    if (args[0] === 'help' && args[1] !== undefined && !program.commands.some((c) => c.name() === args[1])) {
      throw new InputError('bad-option', `help: unknown command '${args[1]}' (spidersolve --help lists the commands)`);
    }
    if (named) refuseOptionMistakes(named, args);
    await program.parseAsync([...args], { from: 'user' });
    // A command may set its own status (batch: 130 when interrupted); keep it.
    const set = process.exitCode;
    code = typeof set === 'number' ? set : set ? Number(set) || 0 : 0;
  } catch (e) {
    const fault = faultOf(e, named);
    if (fault !== null) {
      if (!fault.shown) process.stderr.write(`spidersolve: ${fault.message}\n`);
      if (fault.stack !== undefined && process.env.SPIDERSOLVE_DEBUG) process.stderr.write(`${fault.stack}\n`);
      // a script that asked for JSON gets the error as JSON too, on stdout
      if (named !== undefined && printsJsonErrors(named) && asksForJson(args)) printJson({ error: { code: fault.code, message: fault.message } });
    }
    code = fault?.status ?? 0;
  }
  process.exitCode = code;
  return code;
}

function isDirectRun(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isDirectRun()) await main();
