/**
 * Runs that die (issue 12, item 3): a run stores its process id, host and a heartbeat; a later process
 * tells a dead run from a live one (runs.slow.test.ts kills a real batch).
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runIsDead, STALE_MS } from '../src/batch/store.js';

describe('runIsDead', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  const fresh = new Date(now - 5_000).toISOString();
  const stale = new Date(now - STALE_MS - 1_000).toISOString();
  const base = { status: 'running', startedAt: fresh, heartbeatAt: fresh };

  it('a running run of a live process on this host is alive; of a process that is gone, dead', () => {
    expect(runIsDead({ ...base, pid: process.pid, host: hostname() }, now)).toBe(false);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    expect(runIsDead({ ...base, pid: gone, host: hostname() }, now)).toBe(true);
  });

  it('on another host only a stale heartbeat tells; a run with no process id (schema 1) is dead; finished runs are not', () => {
    expect(runIsDead({ ...base, pid: 1234, host: 'elsewhere.example' }, now)).toBe(false);
    expect(runIsDead({ ...base, heartbeatAt: stale, pid: 1234, host: 'elsewhere.example' }, now)).toBe(true);
    expect(runIsDead({ ...base, pid: null, host: null }, now)).toBe(true);
    expect(runIsDead({ ...base, status: 'done', pid: null, host: null }, now)).toBe(false);
  });
});
