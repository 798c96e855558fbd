/**
 * The Piscina pool of the batch's workers: each task solves a deal, or plays it blind in a blind study
 * (workers/solve.worker.ts hands those to blind.worker.ts). Handles the two ways the code runs: from source
 * (tsx, vitest: the worker is `workers/solve.worker.ts` and needs `--import tsx`, which vitest does
 * not pass on) and from the compiled build (`dist/workers/solve.worker.js`).
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { PoolOutcome, PoolTask } from './protocol.js';

/** True when this module runs from TypeScript source (tsx or vitest), false from the build. */
export const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');

/** Default worker count: the number of cores (`os.availableParallelism()`). */
export function defaultWorkerCount(): number {
  return availableParallelism();
}

/** Absolute path of the solve worker for the way the code runs: `.ts` from source, `.js` built. */
export function solveWorkerFile(): string {
  return fileURLToPath(new URL(`../../workers/solve.worker.${RUNNING_FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url));
}

/**
 * `execArgv` for workers running `file`: undefined (inherit the process's) for a `.js` file or when
 * the process already loads tsx; otherwise the process's flags plus `--import <tsx loader URL>`.
 */
export function workerExecArgv(file: string): string[] | undefined {
  if (!file.endsWith('.ts')) return undefined;
  if (process.execArgv.some((a) => a.includes('tsx'))) return undefined;
  let loader = 'tsx';
  try {
    loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    // fall back to the bare name, resolved from the working directory
  }
  return [...process.execArgv, '--import', loader];
}

/** Options of `createSolvePool`. */
export interface PoolOptions {
  /** Worker threads, ≥ 1 (fixed: min = max, so the count is exactly this). */
  readonly workers: number;
  /** Worker module (absolute path); default `solveWorkerFile()`. Tests and benchmarks swap it. */
  readonly workerFile?: string;
  /** Heap limit of each worker, MiB; a worker over it dies and its task is rejected. Default: Node's. */
  readonly maxOldGenerationSizeMb?: number;
}

/** A pool of exactly `workers` threads running the solve worker. Destroy it when done. */
export function createSolvePool(opts: PoolOptions): Piscina<PoolTask, PoolOutcome> {
  if (!Number.isInteger(opts.workers) || opts.workers < 1) throw new RangeError(`createSolvePool: workers must be an integer >= 1, got ${opts.workers}`);
  const filename = opts.workerFile ?? solveWorkerFile();
  return new Piscina<PoolTask, PoolOutcome>({
    filename: pathToFileURL(filename).href,
    minThreads: opts.workers,
    maxThreads: opts.workers,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: 1,
    execArgv: workerExecArgv(filename),
    ...(opts.maxOldGenerationSizeMb ? { resourceLimits: { maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb } } : {}),
  });
}
