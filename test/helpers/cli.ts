/**
 * Running the CLI as a user does, in a child process (`node --import tsx src/cli/main.ts …`, or
 * another entry), and looking at files before and after.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A finished child process. */
export interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of `cli`. */
export interface CliOptions {
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** The script to run (default src/cli/main.ts, under tsx). */
  entry?: string;
  /** Called every 50 ms with a function that signals the child, until it returns true. */
  poll?: (kill: (s: NodeJS.Signals) => void, stderr: () => string) => boolean;
  /** Working directory (default the project's root). */
  cwd?: string;
}

/** Runs the CLI with `args`; resolves when it has exited. */
export function cli(args: readonly string[], o: CliOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', o.entry ?? 'src/cli/main.ts', ...args], {
      cwd: o.cwd ?? ROOT,
      env: { ...process.env, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let timer: NodeJS.Timeout | undefined;
    if (o.poll) {
      const poll = o.poll;
      timer = setInterval(() => {
        if (poll((s) => child.kill(s), () => stderr)) clearInterval(timer);
      }, 50);
    }
    child.on('error', reject);
    child.on('close', (status, signal) => {
      if (timer) clearInterval(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** A file's bytes and modification time. */
export function snapshot(path: string): { bytes: Buffer; mtime: number } {
  return { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
}

/** Asserts the file has the same bytes and modification time as in `before`. */
export function expectUnchanged(path: string, before: { bytes: Buffer; mtime: number }): void {
  const now = snapshot(path);
  expect(now.bytes.equals(before.bytes)).toBe(true);
  expect(now.mtime).toBe(before.mtime);
}

/** Asserts exit 2, nothing on stdout and one line `spidersolve: …` matching `pattern` on stderr. */
export function expectOneLineError(r: Run, pattern: RegExp, status = 2): void {
  expect(r.stderr).toMatch(/^spidersolve: [^\n]*\n$/);
  expect(r.stderr).toMatch(pattern);
  expect(r.stdout).toBe('');
  expect(r.status).toBe(status);
}
