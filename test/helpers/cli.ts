/**
 * Running the CLI as a user does, and looking at files before and after: `runInProcess` runs a
 * command in the test's own process (the quick suite), `cli` in a child process (`node --import tsx
 * src/cli/main.ts …`, or another entry: the slow suite, for what needs a whole process — signals, the
 * real entry, standard input, a terminal).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `spidersolve ARGS` in a child process (tsx, from the project's root) and waits for it; returns
 * its stdout. Throws Error with its exit status and stderr if it does not exit 0 (a step a test needs
 * done, not the behaviour under test). `timeoutMs`: killed after this long (default 170 s).
 */
export function cliOk(args: readonly string[], timeoutMs = 170_000): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs });
  if (r.status !== 0) throw new Error(`spidersolve ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

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

/** Options of `runInProcess`. */
export interface InProcessOptions {
  /** Environment variables set for the run (then restored; `''` sets a variable empty). */
  env?: Record<string, string>;
  /** Working directory for the run (default the project's root; then restored). */
  cwd?: string;
  /** The text on standard input (`process.stdin`, as `batch --deals -` reads it; default empty). */
  stdin?: string;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI on `args` in this process, as `node src/cli/main.ts ...args` would run it from `cwd`
 * (default the project's root), and resolves with what it wrote and its exit status (`signal` is
 * always null). It goes through the program's own error handling (main.ts runProgram, which `main`
 * uses), with stdout and stderr captured (not terminals, as in a pipe), `process.stdin` reading
 * `o.stdin`, `process.argv` as the user's command line (the resume command is built from it), and
 * `o.env` set; all restored afterwards. A command that calls `process.exit` (the signal paths)
 * fails, as an internal error.
 * Runs are queued: one at a time, in the order called.
 *
 * What needs a whole process is for `cli`: signals, the real entry (entry.ts), a position file read
 * from /dev/stdin, a terminal.
 */
export function runInProcess(args: readonly string[], o: InProcessOptions = {}): Promise<Run> {
  const run = queue.then(() => runNow(args, o));
  queue = run.catch(() => undefined);
  return run;
}

/** A stream that keeps what is written to it, as text. */
function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function runNow(args: readonly string[], o: InProcessOptions): Promise<Run> {
  const { buildProgram, runProgram } = await import('../../src/cli/main.js');
  const out = capture();
  const err = capture();
  const stdin = Readable.from(o.stdin === undefined || o.stdin === '' ? [] : [Buffer.from(o.stdin)]);
  const saved = {
    stdout: Object.getOwnPropertyDescriptor(process, 'stdout')!,
    stderr: Object.getOwnPropertyDescriptor(process, 'stderr')!,
    stdin: Object.getOwnPropertyDescriptor(process, 'stdin')!,
    exit: process.exit,
    exitCode: process.exitCode,
    argv: process.argv,
    cwd: process.cwd(),
    env: Object.fromEntries(Object.keys(o.env ?? {}).map((k) => [k, process.env[k]])),
  };
  const define = (name: 'stdout' | 'stderr' | 'stdin', stream: unknown) => Object.defineProperty(process, name, { value: stream, configurable: true, enumerable: true, writable: true });
  try {
    define('stdout', out.stream);
    define('stderr', err.stream);
    define('stdin', stdin);
    // it would end the test's process: only the signal paths call it, which are `cli`'s to test
    process.exit = ((code?: number | string | null) => {
      throw new Error(`process.exit(${code ?? ''}) called by a command run in-process (a test for cli, in a child process)`);
    }) as typeof process.exit;
    process.argv = [process.execPath, join(ROOT, 'src', 'cli', 'main.ts'), ...args];
    Object.assign(process.env, o.env);
    process.chdir(o.cwd ?? ROOT);
    const status = await runProgram(buildProgram(), args);
    await new Promise((r) => setImmediate(r));
    return { status, signal: null, stdout: out.text(), stderr: err.text() };
  } finally {
    Object.defineProperty(process, 'stdout', saved.stdout);
    Object.defineProperty(process, 'stderr', saved.stderr);
    Object.defineProperty(process, 'stdin', saved.stdin);
    process.exit = saved.exit;
    process.exitCode = saved.exitCode;
    process.argv = saved.argv;
    process.chdir(saved.cwd);
    for (const [k, v] of Object.entries(saved.env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
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

/** Asserts exit `status` (2), one line `spidersolve: …` matching `pattern` on stderr, and nothing on stdout but, with --json, that error as JSON. */
export function expectOneLineError(r: Pick<Run, 'status' | 'stdout' | 'stderr'>, pattern: RegExp, status = 2): void {
  expect(r.stderr).toMatch(/^spidersolve: [^\n]*\n$/);
  expect(r.stderr).toMatch(pattern);
  // nothing on stdout; with --json, the same error as JSON (src/cli/main.ts printsJsonErrors)
  if (r.stdout !== '') expect(JSON.parse(r.stdout)).toEqual({ error: { code: expect.any(String), message: r.stderr.replace(/^spidersolve: /, '').trimEnd() } });
  expect(r.status).toBe(status);
}
