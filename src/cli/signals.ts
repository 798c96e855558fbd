/**
 * Signals from the very first moment of the process. Loading the program (commander, SQLite, the
 * solver, …) takes a few tenths of a second; a SIGINT or SIGTERM in that time would kill the process
 * with no word. `catchSignalsEarly` is the first thing the `spidersolve` entry does (src/cli/entry.ts,
 * before it loads anything else): it holds such a signal until the command has been chosen
 * (`endEarlySignals`, in main.ts). A command that handles signals itself (`batch`: summary, resume
 * command, exit 130) then takes it with `takeEarlySignal`; for every other command main.ts sends the
 * signal again with the usual handling restored, so it ends the process as it would have. A second
 * signal while the program loads quits at once (exit 130 for SIGINT, 143 for SIGTERM).
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
 * Starts holding SIGINT and SIGTERM (see the module comment). Test hook: with
 * SPIDERSOLVE_TEST_SIGNAL_AT_START=SIGINT|SIGTERM the process sends itself that signal at once, so
 * that it arrives while the program is still loading.
 */
export function catchSignalsEarly(): void {
  if (catching) return;
  catching = true;
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  const test = process.env.SPIDERSOLVE_TEST_SIGNAL_AT_START;
  if (test === 'SIGINT' || test === 'SIGTERM') process.kill(process.pid, test);
}

/**
 * Stops holding signals (the usual handling is back) and returns the one that came meanwhile, or
 * null. It stays available to `takeEarlySignal` until taken.
 */
export function endEarlySignals(): NodeJS.Signals | null {
  if (catching) {
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
    catching = false;
  }
  return pending;
}

/** The signal that came while the program loaded (once; null after, or if none came). */
export function takeEarlySignal(): NodeJS.Signals | null {
  const p = pending;
  pending = null;
  return p;
}
