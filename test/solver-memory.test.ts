/**
 * A search that runs out of memory: the table's growth failing (an ArrayBuffer that cannot be
 * allocated) stops the search with SolverMemoryError (its positions stored), the table is freed, and
 * the command line says so in one line, exit 1, with no stack. The failure is injected: the table's
 * store of a new position throws V8's allocation RangeError once the table holds 2,000 positions.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadDeal } from '../src/game/ref.js';
import { confirmLoss } from '../src/solver/confirm.js';
import { solve } from '../src/solver/solve.js';
import { PositionTable } from '../src/solver/table.js';
import { isAllocationFailure, SolverMemoryError } from '../src/solver/types.js';
import { runInProcess } from './helpers/cli.js';

const AT = 2000;

/** Makes every table throw V8's allocation failure when asked to store a position beyond AT. */
function failAt(n: number): void {
  const proto = PositionTable.prototype as unknown as { store: (...a: unknown[]) => number };
  const real = proto.store;
  vi.spyOn(proto, 'store').mockImplementation(function (this: PositionTable, ...a: unknown[]) {
    if (this.size >= n) throw new RangeError('Array buffer allocation failed');
    return real.apply(this, a);
  });
}

function position(ref: string) {
  const d = loadDeal(ref);
  if (!d.ok) throw new Error(d.error.message);
  return d.value.position;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('isAllocationFailure', () => {
  it('knows V8 allocation failures and nothing else', () => {
    expect(isAllocationFailure(new RangeError('Array buffer allocation failed'))).toBe(true);
    expect(isAllocationFailure(new RangeError('Invalid typed array length: 4294967296'))).toBe(true);
    expect(isAllocationFailure(new RangeError('Maximum call stack size exceeded'))).toBe(false);
    expect(isAllocationFailure(new Error('Array buffer allocation failed'))).toBe(false);
  });
});

describe('a search out of memory', () => {
  it('solve stops with SolverMemoryError at the positions it had stored', () => {
    failAt(AT);
    let caught: unknown;
    try {
      solve(position('SE4-1011'), { maxPositions: 1_000_000 });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SolverMemoryError);
    expect((caught as SolverMemoryError).positions).toBe(AT);
    expect((caught as SolverMemoryError).message).toMatch(/^memory ran out with 2,000 positions stored \(\d+\.\d\d GB of table\)$/);
  });

  it('the next solve in the thread answers as if nothing had happened (SE4-1011 lost in 7,462 positions without reductions)', () => {
    failAt(AT);
    expect(() => confirmLoss(position('SE4-1011'), 1_000_000)).toThrow(SolverMemoryError);
    vi.restoreAllMocks();
    const r = confirmLoss(position('SE4-1011'), 1_000_000);
    expect(r.status).toBe('lost');
    expect(r.positions).toBe(7462);
  });

  it('solve on the command line: one line, exit 1, no stack', async () => {
    failAt(AT);
    const r = await runInProcess(['solve', 'SE4-1011']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('spidersolve: memory ran out with 2,000 positions stored (0.00 GB of table): no more memory was to be had (the machine\'s, or a limit such as ulimit -v); give a position budget below 2,000, or run where more memory is free\n');
  });
});
