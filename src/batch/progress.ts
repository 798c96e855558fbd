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

/** Receives a batch's progress. `done` counts deals finished this run, out of `total` to run. */
export interface ProgressSink {
  start(total: number): void;
  update(done: number, counts: ProgressCounts): void;
  /**
   * Removes nothing; leaves the last state on screen and ends the line, so that whatever is printed
   * next starts on a line of its own. Idempotent; after it, start and update show nothing (call it
   * before printing anything else on the terminal, e.g. when a signal comes).
   */
  stop(): void;
}

/** A sink that shows nothing. */
export const NO_PROGRESS: ProgressSink = { start() {}, update() {}, stop() {} };

/**
 * A cli-progress bar on `stream` showing done/total, deals per second (since start), ETA and the
 * running won/lost/undecided/errors; NO_PROGRESS when the stream is not a TTY.
 */
export function createProgress(stream: NodeJS.WriteStream = process.stderr): ProgressSink {
  if (!stream.isTTY) return NO_PROGRESS;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{bar} {value}/{total} | {rate} deals/s | ETA {eta_formatted} | won {won} lost {lost} undecided {undecided} errors {errors}',
      hideCursor: true,
      etaBuffer: 100,
      fps: 5,
      barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  let t0 = 0;
  let state: 'new' | 'running' | 'stopped' = 'new';
  const zero = { won: 0, lost: 0, undecided: 0, errors: 0 };
  return {
    start(total) {
      if (state !== 'new') return;
      state = 'running';
      t0 = performance.now();
      bar.start(total, 0, { rate: '0.0', ...zero });
    },
    update(done, counts) {
      if (state !== 'running') return;
      const s = (performance.now() - t0) / 1000;
      bar.update(done, { rate: s > 0 ? (done / s).toFixed(1) : '0.0', ...counts });
    },
    stop() {
      // the bar saves the cursor when it starts and restores it when it stops: anything written to
      // the terminal in between would be overwritten by what comes after the stop
      if (state === 'running') bar.stop();
      state = 'stopped';
    },
  };
}
