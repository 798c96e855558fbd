/**
 * Signals from the very first moment of the process. Loading the program (commander, SQLite, the
 * solver, …) takes a few tenths of a second; a SIGINT or SIGTERM in that time would kill the process
 * with no word. `catchSignalsEarly` is the first thing the `spidersolve` entry does (src/cli/entry.ts,
 * before it loads anything else): it holds such a signal until the command is ready for it. A
 * command that handles signals itself (`batch`: summary, resume command, exit 130) installs its
 * handlers and then takes the held signal over (`takeOverEarlySignals`); for every other command
 * main.ts restores the usual handling (`releaseEarlySignals`) and, if a signal was held, sends it
 * again, so that it ends the process as it would have. A second signal while the program loads quits
 * at once (exit 130 for SIGINT, 143 for SIGTERM).
 *
 * Why the hand-over order matters: Node delivers a signal through its event loop. When the last
 * listener of a signal is removed, Node stops watching it, and a signal that had arrived but was not
 * yet delivered (the process was running code, such as loading modules) is dropped: neither a
 * handler nor the default action ends the process. So the early handler is removed only once
 * another listener is in place (`takeOverEarlySignals`), or once the event loop has delivered what
 * had arrived (`releaseEarlySignals`).
 *
 * This module imports nothing, so that loading it costs nothing.
 */

let pending: NodeJS.Signals | null = null;
let catching = false;

/** 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM (the shell's status for a process it ended). */
export function signalExitStatus(name: NodeJS.Signals): number {
  return name === 'SIGINT' ? 130 : 143;
}

function hold(name: NodeJS.Signals): void {
  if (pending !== null) process.exit(signalExitStatus(pending));
  pending = name;
}

/**
 * Starts holding SIGINT and SIGTERM (see the module comment). Test hooks: with
 * SPIDERSOLVE_TEST_SIGNAL_AT_START=SIGINT|SIGTERM the process sends itself that signal at once, so
 * that it arrives while the program is still loading; with SPIDERSOLVE_TEST_SIGNAL_READY=1 it writes
 * `spidersolve: test: holding signals` on stderr, so that a test knows from when a signal must count.
 */
export function catchSignalsEarly(): void {
  if (catching) return;
  catching = true;
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  if (process.env.SPIDERSOLVE_TEST_SIGNAL_READY === '1') process.stderr.write('spidersolve: test: holding signals\n');
  const test = process.env.SPIDERSOLVE_TEST_SIGNAL_AT_START;
  if (test === 'SIGINT' || test === 'SIGTERM') process.kill(process.pid, test);
}

/** Is the early handler in place (catchSignalsEarly called, not yet released or taken over)? */
export function catchingEarlySignals(): boolean {
  return catching;
}

function stopHolding(): NodeJS.Signals | null {
  if (catching) {
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
    catching = false;
  }
  const p = pending;
  pending = null;
  return p;
}

/**
 * For a command that handles SIGINT and SIGTERM itself, called once its own listeners are in place:
 * removes the early handler (no signal is lost: the command's listeners keep Node watching them)
 * and returns the signal that came while the program loaded, or null. The caller treats it as one
 * that came now.
 */
export function takeOverEarlySignals(): NodeJS.Signals | null {
  return stopHolding();
}

/**
 * For a command that keeps the usual handling of signals (the default action ends the process):
 * lets the event loop deliver a signal that has arrived meanwhile to the early handler (two turns:
 * one may begin after the loop last looked), then removes it, and returns the signal held, or null.
 * The caller sends it again (main.ts). Without catchSignalsEarly (in-process calls) returns null at once.
 */
export async function releaseEarlySignals(): Promise<NodeJS.Signals | null> {
  if (!catching) return stopHolding();
  for (let i = 0; i < 2; i++) await new Promise<void>((r) => setImmediate(r));
  return stopHolding();
}

/** The stages of a batch at which the test hook below can raise a signal, in the order a batch passes them. */
export const SIGNAL_STAGES = ['loaded', 'command', 'handlers', 'planned', 'opened', 'pool', 'dispatched'] as const;

/** A stage of SIGNAL_STAGES. */
export type SignalStage = (typeof SIGNAL_STAGES)[number];

/**
 * Test hook: with SPIDERSOLVE_TEST_SIGNAL_AT=<stage>[:<signal>] (a stage of SIGNAL_STAGES; the
 * signal SIGINT by default, or SIGTERM), the process sends itself that signal when it reaches that
 * stage, as if it came in the synchronous work just before: Node delivers it at the next turn of the
 * event loop. Stages: `loaded` (the program loaded, before main runs), `command` (the batch command
 * starts), `handlers` (its signal handlers installed), `planned` (its options read and planned),
 * `opened` (the study and run opened in the database), `pool` (the solve pool started), `dispatched`
 * (the first deal handed to the pool).
 */
export function signalAtStage(stage: SignalStage): void {
  const at = process.env.SPIDERSOLVE_TEST_SIGNAL_AT;
  if (!at) return;
  const [name, signal = 'SIGINT'] = at.split(':');
  if (name === stage && (signal === 'SIGINT' || signal === 'SIGTERM')) process.kill(process.pid, signal);
}
