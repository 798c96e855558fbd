/**
 * Whether a batch's run is still alive: a run records its process id, host and a heartbeat; a
 * `running` run whose process is gone (this host) or whose heartbeat is stale (another host) is dead,
 * and shown (and marked) `abandoned`.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Outcome of a run, as stored in `runs.status`. */
export type RunStatus = 'running' | 'done' | 'interrupted' | 'failed' | 'abandoned';

/** A run's heartbeat is refreshed this often while it runs, milliseconds. */
export const HEARTBEAT_MS = 10_000;

/**
 * A `running` run whose heartbeat is older than this is dead (abandoned), milliseconds: on another
 * host this is the only sign; on this host a process id that is no longer alive is enough.
 */
export const STALE_MS = 120_000;

/** The note markAbandoned writes on a run whose process died (heartbeat and finishRun drop it). */
export const DIED_NOTE = 'the process died (killed or crashed); its finished results are kept';

/** One row of `runs` (see schema.ts), with the status as it really is (a dead `running` run is `abandoned`). */
export interface RunInfo {
  uid: string;
  startedAt: string;
  finishedAt: string | null;
  workers: number;
  solverVersion: string;
  status: RunStatus;
  planned: number;
  skipped: number;
  completed: number;
  errors: number;
  pid: number | null;
  host: string | null;
  heartbeatAt: string | null;
  note: string | null;
}

/**
 * Is a `running` run dead? On this host: its process is gone (or its heartbeat is stale: the id was
 * reused). Elsewhere: its heartbeat is older than STALE_MS. A run with no process id (schema 1) is dead.
 */
export function runIsDead(r: { status: string; pid: number | null; host: string | null; heartbeatAt: string | null; startedAt: string }, now = Date.now()): boolean {
  if (r.status !== 'running') return false;
  if (r.pid === null) return true;
  const beat = Date.parse(r.heartbeatAt ?? r.startedAt);
  const stale = !(now - beat <= STALE_MS);
  if (r.host === hostname()) {
    if (r.pid === process.pid) return false;
    try {
      process.kill(r.pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
    const proc = processStat(r.pid);
    if (proc !== null) {
      // a process that has exited but whose parent has not reaped it yet (a zombie) is gone: signal 0
      // still finds it (a killed batch whose parent lives on)
      if (proc.state === 'Z' || proc.state === 'X') return true;
      // a live process that started before the run did is the run's own, however long it has been
      // silent (stopped with Ctrl-Z, a laptop asleep); one that started after it
      // took a dead run's process id
      return proc.startMs > Date.parse(r.startedAt) + PROCESS_START_SLACK_MS;
    }
  }
  return stale;
}

/** Allowance for the rounding of a process's start time as processStat reads it, milliseconds. */
const PROCESS_START_SLACK_MS = 2_000;

/**
 * What Linux's /proc says of process `pid` of this host: its state (/proc/PID/stat field 3: `R`
 * running, `S` sleeping, `T` stopped, `Z` exited but not yet reaped by its parent, …) and when it
 * started, in milliseconds since the epoch (field 22, its start in clock ticks after boot, at Linux's
 * USER_HZ of 100 a second, plus /proc/stat's btime, whole seconds). Null where /proc cannot be read
 * (another system, or the process gone).
 */
export function processStat(pid: number): { state: string; startMs: number } | null {
  try {
    const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (stat === null || !btime) return null;
    return { state: stat.state, startMs: Number(btime[1]) * 1000 + stat.startTicks * 10 };
  } catch {
    return null;
  }
}

/**
 * The state (field 3) and start time in clock ticks after boot (field 22) of a /proc/PID/stat line,
 * or null if it is not one. The command name (field 2) is in parentheses and may itself hold spaces
 * and parentheses, so the fields after it are counted from its last `)`.
 */
export function parseProcStat(text: string): { state: string; startTicks: number } | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0] ?? '';
  const startTicks = Number(fields[22 - 3]);
  if (!/^[A-Za-z]$/.test(state) || !Number.isInteger(startTicks)) return null;
  return { state, startTicks };
}

/** When process `pid` of this host started (milliseconds since the epoch; see processStat), or null. */
export function processStartMs(pid: number): number | null {
  return processStat(pid)?.startMs ?? null;
}
