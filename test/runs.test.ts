/**
 * Runs that die (issue 12, item 3): a run stores its process id, host and a heartbeat; a later process
 * tells a dead run from a live one (runs.slow.test.ts kills a real batch).
 */
import { spawn, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseProcStat, processStartMs, processStat, runIsDead, STALE_MS } from '../src/batch/store.js';

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

  it('a live process on this host that started before its run is that run, however stale the heartbeat (a stopped batch was marked dead); one that started after the run took the process id of a dead one', async () => {
    const child = spawn('sleep', ['30']);
    try {
      await new Promise((r) => child.once('spawn', r));
      const started = processStartMs(child.pid!);
      expect(started).not.toBeNull();
      // /proc's clock ticks and boot time, against the clock: within a few seconds of now
      expect(Math.abs(started! - Date.now())).toBeLessThan(5_000);
      const long = new Date(Date.now() - 3_600_000).toISOString();
      // the run started after the process (a batch's run starts after its process): alive, though silent an hour
      expect(runIsDead({ status: 'running', pid: child.pid!, host: hostname(), startedAt: new Date(started! + 3_000).toISOString(), heartbeatAt: long })).toBe(false);
      // the run started an hour before this process did: the id was reused, the run's process is gone
      expect(runIsDead({ status: 'running', pid: child.pid!, host: hostname(), startedAt: long, heartbeatAt: long })).toBe(true);
    } finally {
      child.kill();
    }
  });

  it('a process that has exited but that its parent has not reaped (a zombie) is gone: a killed batch showed as running while its parent lived', async () => {
    // perl forks a child that exits at once and never waits for it
    const parent = spawn('perl', ['-e', '$| = 1; my $p = fork(); if ($p == 0) { exit 0 } print "$p\\n"; sleep 30']);
    try {
      const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
      let state = processStat(pid)?.state;
      for (let i = 0; i < 50 && state !== 'Z'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        state = processStat(pid)?.state;
      }
      expect(state).toBe('Z');
      const fresh = new Date().toISOString();
      expect(runIsDead({ status: 'running', pid, host: hostname(), startedAt: fresh, heartbeatAt: fresh })).toBe(true);
      // the parent itself, live and started before that run, is not
      expect(runIsDead({ status: 'running', pid: parent.pid!, host: hostname(), startedAt: fresh, heartbeatAt: fresh })).toBe(false);
    } finally {
      parent.kill();
    }
  });

  it('reads the state and start of a /proc stat line whose command name holds spaces and parentheses', () => {
    const tail = Array.from({ length: 50 }, (_, i) => String(i + 4));
    tail[22 - 4] = '123456';
    expect(parseProcStat(`4242 (node (a) Z b) S ${tail.join(' ')}\n`)).toEqual({ state: 'S', startTicks: 123456 });
    expect(parseProcStat(`4242 (x) Z ${tail.join(' ')}`)).toEqual({ state: 'Z', startTicks: 123456 });
    expect(parseProcStat('garbage')).toBeNull();
    expect(parseProcStat('1 (x) ? 2')).toBeNull();
  });

  it('on another host only a stale heartbeat tells; a run with no process id (schema 1) is dead; finished runs are not', () => {
    expect(runIsDead({ ...base, pid: 1234, host: 'elsewhere.example' }, now)).toBe(false);
    expect(runIsDead({ ...base, heartbeatAt: stale, pid: 1234, host: 'elsewhere.example' }, now)).toBe(true);
    expect(runIsDead({ ...base, pid: null, host: null }, now)).toBe(true);
    expect(runIsDead({ ...base, status: 'done', pid: null, host: null }, now)).toBe(false);
  });
});
