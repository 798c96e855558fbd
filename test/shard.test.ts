/**
 * Shard arithmetic and the schedulers' environments (src/batch/shard.ts): parsing K/N (K from 0),
 * Slurm job arrays (offsets and steps), Kubernetes Indexed Jobs, and the split itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/game/errors.js';
import { fittingShard, parseShard, resolveShard, selectShard, shardAssignment, shardFromEnvironment, shardSize } from '../src/batch/shard.js';
import { parseBatchOptions } from '../src/cli/batch.js';

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('parseShard', () => {
  it('reads K/N with K counting from 0', () => {
    expect(parseShard('0/4')).toMatchObject({ index: 0, count: 4 });
    expect(parseShard(' 3 / 4 ')).toMatchObject({ index: 3, count: 4 });
    expect(parseShard('0/1')).toMatchObject({ index: 0, count: 1 });
  });
  it('refuses K = N and says that K counts from 0', () => {
    const m = message(() => parseShard('4/4'));
    expect(m).toContain('K counts from 0, so shard K of 4 is 0..3');
    expect(m).toContain('$((i-1))/4');
  });
  it('refuses malformed text and bad counts', () => {
    expect(message(() => parseShard('3'))).toContain('use K/N');
    expect(message(() => parseShard('-1/4'))).toContain('use K/N');
    expect(message(() => parseShard('1/0'))).toContain('must be 1..');
    expect(message(() => parseShard('0/100001'))).toContain('must be 1..100000');
    expect(message(() => parseShard('0/99999999999'))).toBe('option --shard "0/99999999999": the shard count must be 1..100000');
    expect(message(() => parseShard('99999999999/4'))).toContain('K counts from 0, so shard K of 4 is 0..3');
  });
});

describe('shardFromEnvironment', () => {
  it('reads a Slurm array that counts from 0', () => {
    const s = shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '31', SLURM_ARRAY_TASK_COUNT: '32', SLURM_ARRAY_TASK_STEP: '1' });
    expect(s).toMatchObject({ index: 5, count: 32 });
    expect(s!.source).toBe('Slurm job array: SLURM_ARRAY_TASK_ID=5, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_MAX=31, SLURM_ARRAY_TASK_COUNT=32, SLURM_ARRAY_TASK_STEP=1');
  });
  it('takes away SLURM_ARRAY_TASK_MIN (--array=1-32) and divides by the step (--array=1-7:3)', () => {
    expect(shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '32' })).toMatchObject({ index: 0, count: 32 });
    expect(shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '32', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '32' })).toMatchObject({ index: 31, count: 32 });
    // what a real sbatch --array=1-7:3 exported (tasks 1, 4, 7)
    const env = { SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '7', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_STEP: '3' };
    expect([1, 4, 7].map((id) => shardFromEnvironment({ ...env, SLURM_ARRAY_TASK_ID: String(id) })!.index)).toEqual([0, 1, 2]);
  });
  it('refuses an array that is not one stepped range, as sbatch --array=1,4,9 exports it', () => {
    const m = message(() => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '9', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_STEP: '1' }));
    expect(m).toContain('not one evenly stepped range');
    expect(m).toContain('--shard K/N');
  });
  it('refuses a Slurm count that disagrees with --shard-count', () => {
    expect(message(() => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '4' }, 8))).toContain('--shard-count 8 differs from the array\'s 4 tasks');
  });
  it('reads a Kubernetes completion index with the count from the command line, and asks for it when missing', () => {
    expect(shardFromEnvironment({ JOB_COMPLETION_INDEX: '2' }, 4)).toMatchObject({ index: 2, count: 4, source: 'Kubernetes Indexed Job: JOB_COMPLETION_INDEX=2, --shard-count 4' });
    expect(message(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '2' }))).toContain('give --shard-count N');
    expect(message(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '4' }, 4))).toContain('must be 0..3');
    expect(message(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: 'x' }, 4))).toContain('not a whole number');
  });
  it('names the Slurm variables that are missing rather than calling them not whole numbers', () => {
    const m = message(() => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '3' }));
    expect(m).toContain('SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT are not set');
    expect(m).not.toContain('whole numbers');
    expect(message(() => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '0' }))).toContain('SLURM_ARRAY_TASK_COUNT is not set');
  });
  it('refuses as ambiguous a Kubernetes index and a Slurm task id set together', () => {
    const m = message(() => shardFromEnvironment({ JOB_COMPLETION_INDEX: '0', SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '4' }, 4));
    expect(m).toContain('JOB_COMPLETION_INDEX=0');
    expect(m).toContain('SLURM_ARRAY_TASK_ID=1');
    expect(m).toContain('ambiguous');
  });
  it('is null outside a scheduler array (a plain Slurm job has no SLURM_ARRAY_TASK_ID)', () => {
    expect(shardFromEnvironment({})).toBeNull();
    expect(shardFromEnvironment({ SLURM_JOB_ID: '12', PARALLEL_SEQ: '3' })).toBeNull();
  });
});

describe('resolveShard', () => {
  const slurm = { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '4' };
  it('prefers --shard to the environment, and --no-shard turns the environment off', () => {
    expect(resolveShard({ shard: '3/8' }, slurm)).toMatchObject({ index: 3, count: 8, source: '--shard 3/8' });
    expect(resolveShard({ shard: false }, slurm)).toBeNull();
    expect(resolveShard({}, slurm)).toMatchObject({ index: 1, count: 4 });
    expect(resolveShard({}, {})).toBeNull();
  });
  it('refuses --shard-count with nothing to index it, or against --shard', () => {
    expect(message(() => resolveShard({ shardCount: '4' }, {}))).toContain('no shard index in the environment');
    expect(message(() => resolveShard({ shard: '1/4', shardCount: '8' }, {}))).toContain('disagree');
    expect(message(() => resolveShard({ shardCount: '0' }, {}))).toContain('1..100000');
  });
  it('refuses --shard K/N given with --no-shard (either order; the CLI sets shardAndNoShard)', () => {
    expect(message(() => resolveShard({ shard: false, shardAndNoShard: true }, {}))).toBe('options --shard and --no-shard contradict each other: give one of them');
    expect(message(() => resolveShard({ shard: '0/3', shardAndNoShard: true }, {}))).toContain('--no-shard');
  });
  it('lets --shard or --no-shard settle a Kubernetes index and Slurm id set together', () => {
    const both = { JOB_COMPLETION_INDEX: '0', SLURM_ARRAY_TASK_ID: '1' };
    expect(resolveShard({ shard: '2/3' }, both)).toMatchObject({ index: 2, count: 3 });
    expect(resolveShard({ shard: false }, both)).toBeNull();
    expect(message(() => resolveShard({}, both))).toContain('ambiguous');
  });
});

describe('the split', () => {
  it('puts every index in exactly one shard, with sizes differing by at most one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 50 }), (n, count) => {
        const a = shardAssignment(n, count);
        const sizes = new Array<number>(count).fill(0);
        for (const s of a) sizes[s]!++;
        expect(sizes.reduce((x, y) => x + y, 0)).toBe(n);
        // shard K holds ceil((n - K) / count)
        sizes.forEach((size, k) => expect(size).toBe(Math.max(0, Math.ceil((n - k) / count))));
        const items = Array.from({ length: n }, (_, i) => i);
        const parts = Array.from({ length: count }, (_, k) => selectShard(items, { index: k, count }));
        expect(parts.flat().sort((x, y) => x - y)).toEqual(items);
        // each shard keeps the list's order
        for (const p of parts) expect(p).toEqual([...p].sort((x, y) => x - y));
      }),
      { numRuns: 100 },
    );
  });
  it('is frozen: the same n and N give the same split, pinned here for 10 deals in 3 shards', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const parts = [0, 1, 2].map((index) => selectShard(items, { index, count: 3 }));
    expect(parts.map((p) => p.join(''))).toEqual(PINNED_10_IN_3);
    expect(Array.from(shardAssignment(10, 3))).toEqual(Array.from(shardAssignment(10, 3)));
  });
  it('mixes an interleaved list: two suit counts in 2 or 4 shards are not split by suit', () => {
    // planSeeds' order for --suits 1,2: SP1-1, SP2-1, SP1-2, SP2-2, … (i mod 2 would give shard 0 all 1-suit deals)
    const list = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? 1 : 2));
    for (const count of [2, 4]) {
      for (let k = 0; k < count; k++) {
        const part = selectShard(list, { index: k, count });
        const ones = part.filter((s) => s === 1).length;
        expect(ones / part.length).toBeGreaterThan(0.35);
        expect(ones / part.length).toBeLessThan(0.65);
      }
    }
  });
  it('one shard is the whole list', () => {
    expect(selectShard([3, 1, 2], { index: 0, count: 1 })).toEqual([3, 1, 2]);
  });
  it('fittingShard finds the shard a set of places came from: a shard of 4, 16 or 32 is found as that shard; places of two shards fit none', () => {
    const n = 400;
    for (const count of [4, 16, 32]) {
      for (const index of [0, 3]) {
        const a = shardAssignment(n, count);
        const places = Array.from({ length: n }, (_, i) => i).filter((i) => a[i] === index);
        expect(fittingShard(places, n)).toEqual({ index, count });
        // a few of them still fit it, or a multiple of it
        const some = fittingShard(places.slice(0, 8), n)!;
        expect([some.count % count, some.index % count]).toEqual([0, index]);
      }
    }
    const a = shardAssignment(n, 4);
    const two = Array.from({ length: n }, (_, i) => i).filter((i) => a[i] === 1 || a[i] === 3);
    expect(fittingShard(two, n)!.count).toBe(2);
    expect(fittingShard([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], n)!.count).toBe(1);
    expect(fittingShard([5], n)).toBeNull();
  });
});

const PINNED_10_IN_3 = ['deij', 'fgh', 'abc'];

describe('batch --shard (parseBatchOptions)', () => {
  const base = { game: 'spiderette', suits: '1,2', seeds: '1-5', db: 'x.sqlite', maxPositions: '1000' };
  it('keeps the study whole (its plan, name and parameters) and says which shard to run', () => {
    const whole = parseBatchOptions(base, {});
    expect(whole.shard).toBeNull();
    expect(whole.studyDeals).toBe(10);
    const parts = [0, 1, 2].map((k) => parseBatchOptions({ ...base, shard: `${k}/3` }, {}));
    expect(parts.map((p) => p.shard && shardSize(p.studyDeals!, p.shard))).toEqual([4, 3, 3]);
    for (const p of parts) {
      expect([...p.deals].map((d) => d.key)).toEqual([...whole.deals].map((d) => d.key));
      expect(p.study).toBe(whole.study);
      expect(p.studyParams).toEqual(whole.studyParams);
    }
  });
  it('reads a Slurm array task from the environment unless --no-shard', () => {
    const env = { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '3' };
    expect(parseBatchOptions(base, env).shard).toMatchObject({ index: 1, count: 3 });
    expect(parseBatchOptions({ ...base, shard: false }, env).shard).toBeNull();
  });
  it('takes a ladder per shard, refuses --until-width with a shard (also one from the environment), and a bad shard before reading a deals file', () => {
    expect(parseBatchOptions({ ...base, maxPositions: '1000,4000', shard: '0/2' }, {}).budgets).toEqual([1000, 4000]);
    expect(message(() => parseBatchOptions({ ...base, untilWidth: '0.1', shardCount: '4' }, { JOB_COMPLETION_INDEX: '1' }))).toContain(
      'option --until-width cannot run as a shard (shard 1/4, from Kubernetes Indexed Job: JOB_COMPLETION_INDEX=1, --shard-count 4)',
    );
    expect(message(() => parseBatchOptions({ ...base, untilWidth: '0.1', shard: '1/4' }, {}))).toContain(
      'option --until-width cannot run as a shard (shard 1/4, from --shard 1/4): its rule stops at the first prefix of the plan',
    );
    expect(parseBatchOptions({ ...base, untilWidth: '0.1', shard: false }, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '2' }).untilWidth).toBe(0.1);
    expect(message(() => parseBatchOptions({ deals: '/nonexistent/deals.txt', db: 'x.sqlite', shard: '3/3' }, {}))).toContain('K counts from 0');
  });
});
