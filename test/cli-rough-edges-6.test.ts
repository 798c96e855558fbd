/**
 * Rough edges of the command line, in process: a deal or position read from standard input (`-`) is
 * named `- (standard input)` in messages, as `batch --deals -` is.
 */
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runInProcess } from './helpers/cli.js';

describe('<deal> -: standard input named as such', () => {
  it('empty standard input: every command that reads a deal names it "- (standard input)", not /dev/stdin', async () => {
    for (const args of [['show', '-'], ['solve', '-'], ['hint', '-'], ['moves', '-'], ['play', '-', 'd'], ['blind', '-']]) {
      const r = await runInProcess(args, { stdin: '' });
      expectOneLineError(r, /^spidersolve: position file - \(standard input\): no columns; write one line per column/);
    }
  });

  it('a position on standard input is read through the process\'s standard input (a socket or a pipe alike)', async () => {
    const pos = await runInProcess(['show', 'SP1-1', '--format', 'position']);
    expect(pos.status).toBe(0);
    const r = await runInProcess(['show', '-', '--json'], { stdin: pos.stdout });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: { kind: 'file', path: '/dev/stdin', text: 'SP1-1' }, game: 'spider', suits: 1 });
  });

  it('a zero byte on standard input: not a text file, named as standard input', async () => {
    const r = await runInProcess(['show', '-'], { stdin: '\0\0' });
    expectOneLineError(r, /^spidersolve: position file - \(standard input\): not a text file \(a zero byte at line 1\)/);
  });
});
