/**
 * The game commands in a whole process (`node --import tsx src/cli/main.ts …`, spawned from the
 * repository root): output to a full disk, a position file read from a shell's pipe as /dev/stdin or
 * `-`, and a solve of a lost deal at the default budget (some seconds). The rest of the game commands
 * are tested in-process (test/cli-game.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spidersolve-cli-'));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
function json(...args: string[]) {
  const r = cli(...args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

describe('spidersolve program', () => {
  it.runIf(existsSync('/dev/full'))('output that cannot be written (a full disk) ends with one line on stderr and exit 1, no stack trace', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'moves', 'SP4-3'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', fd, 'pipe'] });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe('spidersolve: cannot write the output: ENOSPC: no space left on device, write\n');
    } finally {
      closeSync(fd);
    }
  });
});

describe('solve', () => {
  it('solve and hint read a position file from a pipe (it can be read once)', () => {
    const file = join(dir, 'piped.txt');
    writeFileSync(file, cli('show', 'SE2-5', '--format', 'position').stdout);
    // through a shell's pipe, as a user types it (Node's own stdin pipes are sockets, which /dev/stdin cannot open)
    const piped = (...args: string[]) => {
      const r = spawnSync('bash', ['-c', `cat "$0" | "${process.execPath}" --import tsx src/cli/main.ts ${args.join(' ')} /dev/stdin`, file], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const solved = piped('solve', '--json');
    expect([solved.status, solved.stderr]).toEqual([0, '']);
    expect(JSON.parse(solved.stdout)).toMatchObject({ status: 'won', positions: 129, line: json('solve', 'SE2-5', '--json').line });
    const hint = piped('hint', '--json');
    expect([hint.status, hint.stderr]).toEqual([0, '']);
    expect(JSON.parse(hint.stdout)).toMatchObject({ status: 'won', move: json('hint', 'SE2-5', '--json').move });
  });

  it('a position in the JSON form from a pipe is read as JSON: its name says nothing, its first character does', () => {
    const file = join(dir, 'piped-json.txt');
    writeFileSync(file, `  \n${cli('show', 'SE2-5', '--format', 'position-json').stdout}`);
    const r = spawnSync('bash', ['-c', `cat "$0" | "${process.execPath}" --import tsx src/cli/main.ts solve --json /dev/stdin`, file], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'won', positions: 129, line: json('solve', 'SE2-5', '--json').line });
    // `-` names standard input, as batch --deals - does
    for (const body of [cli('show', 'SE2-5', '--format', 'position').stdout, cli('show', 'SE2-5', '--format', 'position-json').stdout]) {
      writeFileSync(file, body);
      const dash = spawnSync('bash', ['-c', `cat "$0" | "${process.execPath}" --import tsx src/cli/main.ts solve --json -`, file], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
      expect([dash.status, dash.stderr]).toEqual([0, '']);
      expect(JSON.parse(dash.stdout)).toMatchObject({ status: 'won', positions: 129, line: json('solve', 'SE2-5', '--json').line });
    }
    // a file of the text form still reads as text whatever its name, and a JSON-looking one that is not JSON says so
    writeFileSync(file, '{ "game": \n');
    expect(cli('show', file)).toMatchObject({ status: 2, stderr: expect.stringMatching(/^spidersolve: position file .*piped-json\.txt: not valid JSON \(/) });
  });

  it('a proven loss at the default budget says nothing of another budget (pysol:spiderette:56: 84,823 positions)', () => {
    const lost = cli('solve', 'pysol:spiderette:56');
    expect(lost.status).toBe(3);
    expect(lost.stdout.split('\n')[1]).toMatch(/^positions: 84,823 of 1,000,000; time: /);
  });
});
