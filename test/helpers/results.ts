/**
 * The results command (`npm run results -- ARGS`, src/results/cli.ts resultsMain) run in process, with
 * what it wrote to stdout and stderr captured.
 */
import { resultsMain } from '../../src/results/cli.js';

/** What a results command run in process gave: its exit status and the text it wrote. */
export interface ResultsRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `npm run results -- ARGS` in process with `root` as the project's folder (null: the command's
 * own default, RESULTS_ROOT or the project's folder); its exit status and what it wrote.
 */
export function runResults(args: readonly string[], root: string | null): Promise<ResultsRun> {
  return captured(() => (root === null ? resultsMain(args) : resultsMain(args, root)));
}

/** Runs `command` (one of the results command's parts, resolving to an exit status) with what it writes to stdout and stderr captured. */
export async function captured(command: () => Promise<number>): Promise<ResultsRun> {
  const out: string[] = [];
  const err: string[] = [];
  const [wo, we] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
  process.stdout.write = ((t: string) => (out.push(String(t)), true)) as typeof process.stdout.write;
  process.stderr.write = ((t: string) => (err.push(String(t)), true)) as typeof process.stderr.write;
  try {
    const status = await command();
    return { status, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = wo;
    process.stderr.write = we;
  }
}
