/**
 * Shards: one study's planned deals split into N parts, so that N processes (Slurm job-array tasks,
 * Kubernetes Indexed Job pods, GNU parallel jobs, on one machine or many) each run one part into its
 * own database, to be merged afterwards (`spidersolve merge`). Pure: no files, no database; the
 * environment is passed in.
 *
 * Numbering: shard K of N is written `K/N` with **K counting from 0** (0 ≤ K < N), as Slurm array
 * indices (`--array=0-31`) and Kubernetes completion indices do. A Slurm array that starts elsewhere
 * (`--array=1-32`, or stepped `--array=0-62:2`) is read through SLURM_ARRAY_TASK_MIN and
 * SLURM_ARRAY_TASK_STEP: K = (SLURM_ARRAY_TASK_ID − MIN) / STEP, N = SLURM_ARRAY_TASK_COUNT.
 *
 * The split: the planned list (n deals, in the study's order) is shuffled once by a fixed-seed
 * Fisher–Yates permutation π of 0..n−1 (pure-rand 7.0.1 `xoroshiro128plus(SHARD_SEED)`, the same
 * draws as the deals' own shuffle), and the deal at list index π[j] goes to shard j mod N. So every
 * deal is in exactly one shard, shard K holds ⌈(n − K) / N⌉ deals (sizes differ by at most one), the
 * split depends only on n and N (the same command gives the same split on every machine), and each
 * shard is a random-looking sample of the list — a mix of suit counts and seeds, so the shards take
 * about as long as each other even when the list is ordered by difficulty (a deals file with every
 * 1-suit deal first, or `--suits 1,2` where `i mod 2` would give one shard all the 1-suit deals).
 * Within a shard, deals keep the study's order.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { InputError, quoteInput } from '../game/errors.js';

/** Most shards a study may be split into. */
export const MAX_SHARDS = 100_000;

/** Seed of the shard permutation ("SpSo"). Frozen: changing it changes every split. */
export const SHARD_SEED = 0x5370536f;

/** One shard of a study: `index` counts from 0, `0 ≤ index < count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
  /**
   * Where it came from, for the run's printout: `--shard 3/32`, or the scheduler's variables
   * (`Slurm job array: SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=32`).
   */
  readonly source: string;
}

/** The scheduler variables spidersolve reads (a subset of process.env). */
export type ShardEnv = Readonly<Record<string, string | undefined>>;

/** `K/N` as printed: `3/32`. */
export function makeShard(s: Pick<Shard, 'index' | 'count'>): string {
  return `${s.index}/${s.count}`;
}

function wholeNumber(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim();
  return /^\d{1,9}$/.test(t) ? Number(t) : null;
}

/**
 * Parses `--shard K/N` (K counting from 0). Throws InputError `bad-option`, one line, for anything
 * else: not `K/N`, N outside 1..MAX_SHARDS, or K ≥ N (the message says that K counts from 0, and how
 * to pass an index that counts from 1).
 */
export function parseShard(text: string): Shard {
  // (any number of digits: a count past MAX_SHARDS gets the count's message, not "use K/N")
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new InputError('bad-option', `option --shard ${quoteInput(text)}: use K/N, shard K of N with K counting from 0 (e.g. 0/4 … 3/4)`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new InputError('bad-option', `option --shard ${quoteInput(text)}: the shard count must be 1..${MAX_SHARDS}`);
  if (index >= count) {
    throw new InputError(
      'bad-option',
      `option --shard "${text}": K counts from 0, so shard K of ${count} is 0..${count - 1}` +
        (index === count ? ` (for indices that count from 1, pass K-1, e.g. --shard $((i-1))/${count})` : ''),
    );
  }
  return { index, count, source: `--shard ${index}/${count}` };
}

/** Parses `--shard-count N` (the count of a Kubernetes Indexed Job's completions). */
export function parseShardCount(text: string): number {
  const n = wholeNumber(text);
  if (n === null || n < 1 || n > MAX_SHARDS) throw new InputError('bad-option', `option --shard-count "${text}": must be a whole number 1..${MAX_SHARDS}`);
  return n;
}

/**
 * The shard given by a scheduler's environment, or null when there is none:
 *
 * - **Kubernetes Indexed Job**: `JOB_COMPLETION_INDEX` (from 0). Kubernetes does not export the number
 *   of completions, so `count` (`--shard-count N`) is required; without it, an InputError says so.
 * - **Slurm job array**: `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT`
 *   and `SLURM_ARRAY_TASK_STEP` (1 when absent): K = (ID − MIN) / STEP, N = COUNT. An array that is
 *   not one evenly stepped range (`--array=1,4,9`) is refused (its tasks cannot be numbered 0..N−1
 *   from the environment), as is a `count` that differs from SLURM_ARRAY_TASK_COUNT.
 *
 * When both `JOB_COMPLETION_INDEX` and `SLURM_ARRAY_TASK_ID` are set, which scheduler runs the task
 * is ambiguous: refused. Throws InputError `bad-option` for a malformed or missing value.
 */
export function shardFromEnvironment(env: ShardEnv, count?: number): Shard | null {
  const k8s = env.JOB_COMPLETION_INDEX;
  const slurmId = env.SLURM_ARRAY_TASK_ID;
  if (k8s !== undefined && k8s.trim() !== '' && slurmId !== undefined && slurmId.trim() !== '') {
    throw new InputError(
      'bad-option',
      `both JOB_COMPLETION_INDEX=${k8s.trim()} (Kubernetes Indexed Job) and SLURM_ARRAY_TASK_ID=${slurmId.trim()} (Slurm job array) are set, so the shard is ambiguous: give --shard K/N, or --no-shard to run the whole study`,
    );
  }
  if (k8s !== undefined && k8s.trim() !== '') {
    const index = wholeNumber(k8s);
    if (index === null) throw new InputError('bad-option', `JOB_COMPLETION_INDEX="${k8s}" (Kubernetes Indexed Job): not a whole number`);
    if (count === undefined) {
      throw new InputError('bad-option', `JOB_COMPLETION_INDEX=${index} is set (a Kubernetes Indexed Job), which does not say how many shards there are: give --shard-count N (the Job's completions), or --shard K/N, or --no-shard to run the whole study`);
    }
    if (index >= count) throw new InputError('bad-option', `JOB_COMPLETION_INDEX=${index} with --shard-count ${count}: the index must be 0..${count - 1} (completions must equal --shard-count)`);
    return { index, count, source: `Kubernetes Indexed Job: JOB_COMPLETION_INDEX=${index}, --shard-count ${count}` };
  }
  const id = env.SLURM_ARRAY_TASK_ID;
  if (id !== undefined && id.trim() !== '') {
    const vars = ['SLURM_ARRAY_TASK_ID', 'SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_MAX', 'SLURM_ARRAY_TASK_COUNT', 'SLURM_ARRAY_TASK_STEP'] as const;
    const shown = vars.filter((v) => env[v] !== undefined).map((v) => `${v}=${env[v]}`).join(', ');
    const refuse = (why: string): never => {
      throw new InputError('bad-option', `Slurm job array (${shown}): ${why}; give --shard K/N yourself, or --no-shard to run the whole study`);
    };
    const task = wholeNumber(id);
    const min = wholeNumber(env.SLURM_ARRAY_TASK_MIN);
    const n = wholeNumber(env.SLURM_ARRAY_TASK_COUNT);
    const step = env.SLURM_ARRAY_TASK_STEP === undefined ? 1 : wholeNumber(env.SLURM_ARRAY_TASK_STEP);
    const max = env.SLURM_ARRAY_TASK_MAX === undefined ? null : wholeNumber(env.SLURM_ARRAY_TASK_MAX);
    const missing = (['SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_COUNT'] as const).filter((v) => env[v] === undefined || env[v]!.trim() === '');
    if (missing.length > 0) refuse(`${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set (Slurm sets them for every array task)`);
    if (task === null || min === null || n === null || step === null || step < 1 || n < 1) {
      refuse('SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT must all be whole numbers');
    }
    if (max !== null && min! + (n! - 1) * step! !== max) refuse('the array is not one evenly stepped range (like --array=0-31 or 1-64:2)');
    if (task! < min! || (task! - min!) % step! !== 0) refuse('the task id is not on the array\'s range');
    const index = (task! - min!) / step!;
    if (index >= n!) refuse('the task id is past the array\'s range');
    if (n! > MAX_SHARDS) refuse(`more than ${MAX_SHARDS} tasks`);
    if (count !== undefined && count !== n) refuse(`--shard-count ${count} differs from the array's ${n} tasks`);
    return { index, count: n!, source: `Slurm job array: ${shown}` };
  }
  return null;
}

/** The shard options of `batch` as commander hands them over (`--no-shard` makes `shard` false). */
export interface ShardOptions {
  readonly shard?: string | boolean;
  readonly shardCount?: string;
  /**
   * True when the command line held both `--shard K/N` and `--no-shard` (commander keeps only the
   * last of them in `shard`, so the CLI records the clash apart). Refused: they contradict each other.
   */
  readonly shardAndNoShard?: boolean;
}

/**
 * The shard a batch runs: `--shard K/N` if given; else, unless `--no-shard`, the scheduler's
 * environment (shardFromEnvironment, with `--shard-count`); else null (the whole study).
 * `--shard-count` without a scheduler index, or with `--shard`/`--no-shard` disagreeing, is refused.
 */
export function resolveShard(o: ShardOptions, env: ShardEnv): Shard | null {
  if (o.shardAndNoShard) throw new InputError('bad-option', 'options --shard and --no-shard contradict each other: give one of them');
  const count = o.shardCount === undefined ? undefined : parseShardCount(o.shardCount);
  if (typeof o.shard === 'string') {
    const s = parseShard(o.shard);
    if (count !== undefined && count !== s.count) throw new InputError('bad-option', `options --shard ${o.shard} and --shard-count ${count} disagree; give one of them`);
    return s;
  }
  if (o.shard === false) {
    if (count !== undefined) throw new InputError('bad-option', 'options --no-shard and --shard-count: give one of them');
    return null;
  }
  const s = shardFromEnvironment(env, count);
  if (s === null && count !== undefined) {
    throw new InputError('bad-option', `option --shard-count ${count}: no shard index in the environment (JOB_COMPLETION_INDEX of a Kubernetes Indexed Job, or SLURM_ARRAY_TASK_ID of a Slurm job array); give --shard K/N`);
  }
  return s;
}

/**
 * Shard of each index of a planned list of `n` deals split `count` ways (see the module comment):
 * `result[i]` is the shard (0..count−1) of list index i. Deterministic in (n, count) only.
 */
export function shardAssignment(n: number, count: number): Uint32Array {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`shardAssignment: count=${count}`);
  const out = shardRanks(n);
  for (let i = 0; i < n; i++) out[i] = out[i]! % count;
  return out;
}

/**
 * Each index's rank in the fixed shuffle of a planned list of `n` deals: index i goes to shard
 * `rank[i] mod count`, for any count (shardAssignment). Throws RangeError for a bad `n`.
 */
export function shardRanks(n: number): Uint32Array {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`shardAssignment: n=${n}`);
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const rng = xoroshiro128plus(SHARD_SEED);
  for (let i = n - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, rng);
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
  const out = new Uint32Array(n);
  for (let j = 0; j < n; j++) out[perm[j]!] = j;
  return out;
}

/**
 * The largest shard count for which the places `places` (indices of a plan of `n` deals) all fall
 * in one shard, and that shard: the greatest common divisor of their ranks' differences (shardRanks),
 * for they share a shard of `count` exactly when `count` divides every difference. Null when they
 * are fewer than two, or all one place. A database that holds one shard's results fits that shard's
 * count, or rarely a multiple of it (every difference must share the extra factor).
 */
export function fittingShard(places: readonly number[], n: number): { index: number; count: number } | null {
  if (places.length < 2) return null;
  const rank = shardRanks(n);
  const r0 = rank[places[0]!]!;
  let g = 0;
  for (const p of places) {
    let a = Math.abs(rank[p]! - r0);
    let b = g;
    while (b !== 0) [a, b] = [b, a % b];
    g = a;
  }
  return g === 0 ? null : { index: r0 % g, count: g };
}

/** How many of `n` planned deals shard K of N holds: ⌈(n − K) / N⌉ (see shardAssignment). */
export function shardSize(n: number, shard: Pick<Shard, 'index' | 'count'>): number {
  return Math.max(0, Math.ceil((n - shard.index) / shard.count));
}

/** The items of one shard of a planned list, in the list's order (see shardAssignment). */
export function selectShard<T>(items: readonly T[], shard: Pick<Shard, 'index' | 'count'>): T[] {
  if (shard.count === 1) return items.slice();
  const a = shardAssignment(items.length, shard.count);
  return items.filter((_, i) => a[i] === shard.index);
}
