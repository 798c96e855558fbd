/**
 * The signals that stop a batch (Ctrl-C, a kill, a hang-up) as one AbortSignal: the first stops the
 * batch in order (src/batch/runner.ts: results kept, run marked interrupted), a second quits at once.
 */

/**
 * Signals that stop a batch as Ctrl-C does; SIGHUP is the terminal or an ssh connection closing (Node
 * resets every signal to its default at start, so `nohup` does not keep SIGHUP away from it: without
 * a handler a hang-up would end a batch at once, its unwritten results lost).
 */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * An AbortSignal fired by the first SIGINT, SIGTERM or SIGHUP (calling `onFirst` with the signal's
 * name); a second one exits the process at once with status 130 (the database stays consistent:
 * every write is a transaction). Writes to stderr that fail are ignored, and after a SIGHUP (the
 * terminal may be gone) those to stdout too, so that the batch still stores its finished results and
 * marks its run interrupted (where it wrote to a terminal, the caller then ends the process by SIGHUP:
 * see cli/batch.ts). Call `dispose` to remove the handlers. A caller that held signals before
 * (cli/signals.ts) removes its handler only after this one is in place, or a signal that has arrived
 * but is not yet delivered is dropped.
 */
export function abortOnSignals(onFirst?: (name: NodeJS.Signals) => void): { signal: AbortSignal; dispose(): void; readonly hungUp: boolean } {
  const ctl = new AbortController();
  const ignore = () => {};
  let hungUp = false;
  // stderr carries only the progress bar and notes: a write that fails (a terminal that hung up, its
  // SIGHUP not handled yet) is dropped, not an uncaught error that ends the process before it stores
  process.stderr.on('error', ignore);
  const handler = (name: NodeJS.Signals) => {
    if (name === 'SIGHUP') {
      // (a terminal's hang-up may come twice, to its controlling process and to its foreground group:
      // never quits at once)
      if (hungUp) return;
      hungUp = true;
      process.stdout.on('error', ignore);
      if (ctl.signal.aborted) return;
    } else if (ctl.signal.aborted) process.exit(130);
    onFirst?.(name);
    ctl.abort();
  };
  for (const s of STOP_SIGNALS) process.on(s, handler);
  return {
    signal: ctl.signal,
    /** Has a SIGHUP come (first or after another signal)? */
    get hungUp() {
      return hungUp;
    },
    dispose() {
      for (const s of STOP_SIGNALS) process.off(s, handler);
      process.stderr.off('error', ignore);
    },
  };
}

/**
 * After a run stopped by abortOnSignals has cleaned up: if a terminal hung up (`stop.hungUp`, and
 * stdout or stderr is a terminal), the process ends as a hung-up process does, by SIGHUP with no
 * handler. There is no one left to tell, and Node's exit would abort restoring the gone terminal's
 * settings. With the output in files (as under nohup) it does nothing: the caller ends as after
 * SIGTERM.
 */
export function endIfHungUp(stop: { readonly hungUp: boolean }): void {
  if (stop.hungUp && (process.stdout.isTTY || process.stderr.isTTY)) {
    process.removeAllListeners('SIGHUP');
    process.kill(process.pid, 'SIGHUP');
  }
}
