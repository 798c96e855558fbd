/**
 * The progress bar of a batch, on stderr and only when stderr is a terminal, so that stdout (summary,
 * JSON) stays clean when piped and nothing is drawn into log files.
 */
import cliProgress from 'cli-progress';

/** Running counts of a batch. */
export interface ProgressCounts {
  won: number;
  lost: number;
  undecided: number;
  errors: number;
}

/**
 * Receives a batch's progress, one rung of its budget ladder at a time. `done` counts the deals the
 * rung has reached (solved now, or found settled by an earlier run), out of the `total` it looks at.
 */
export interface ProgressSink {
  /**
   * Starts the bar at `already` of `total` (deals the rung found settled before its first dispatch):
   * the rate and the time left count only the deals reached after it.
   */
  start(total: number, already?: number): void;
  update(done: number, counts: ProgressCounts): void;
  /**
   * Removes nothing; leaves the last state on screen and ends the line, so that whatever is printed
   * next starts on a line of its own. Idempotent; after it, start and update show nothing (call it
   * before printing anything else on the terminal, e.g. when a signal comes).
   */
  stop(): void;
}

/**
 * The time `left` deals take at `rate` deals a second, as the bar shows it: `…` before the first deal
 * is done (no rate yet), else `45s`, `3m04s` or `2h05m`.
 */
export function timeLeft(left: number, rate: number): string {
  if (left <= 0) return '0s';
  if (!(rate > 0)) return '…';
  const t = Math.round(left / rate);
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
}

/** A sink that shows nothing. */
export const NO_PROGRESS: ProgressSink = { start() {}, update() {}, stop() {} };

/**
 * A cli-progress bar on `stream` showing done/total, deals per second (those reached since start, less
 * the `already` settled then), ETA and the running won/lost/undecided/errors; NO_PROGRESS when the
 * stream is not a TTY. `now`: the clock, in milliseconds (a test's own).
 */
export function createProgress(stream: NodeJS.WriteStream = process.stderr, now: () => number = () => performance.now()): ProgressSink {
  if (!stream.isTTY) return NO_PROGRESS;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{bar} {value}/{total} | {rate} deals/s | ETA {left} | won {won} lost {lost} undecided {undecided} errors {errors}',
      hideCursor: true,
      etaBuffer: 100,
      fps: 5,
      barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  let t0 = 0;
  let base = 0;
  let state: 'new' | 'running' | 'stopped' = 'new';
  const zero = { won: 0, lost: 0, undecided: 0, errors: 0 };
  return {
    start(total, already = 0) {
      if (state !== 'new') return;
      state = 'running';
      t0 = now();
      base = already;
      bar.start(total, already, { rate: '0.0', left: '…', ...zero });
    },
    update(done, counts) {
      if (state !== 'running') return;
      const s = (now() - t0) / 1000;
      // deals found settled before the start are no speed: a resumed run would show thousands a second
      const rate = s > 0 ? Math.max(0, done - base) / s : 0;
      bar.update(done, { rate: rate.toFixed(1), left: timeLeft(bar.getTotal() - done, rate), ...counts });
    },
    stop() {
      // the bar saves the cursor when it starts and restores it when it stops: anything written to
      // the terminal in between would be overwritten by what comes after the stop
      if (state === 'running') bar.stop();
      state = 'stopped';
    },
  };
}
