/**
 * An HTML page written to a terminal (a pseudo-terminal, through Python's pty module): `view` with no
 * --out writes the page there all the same, and a note on stderr says it is for a browser and how to
 * write it to a file. Needs a whole process: standard output a terminal.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

const HAS_PYTHON = spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' }).status === 0;

describe('view on a terminal', () => {
  it.skipIf(!HAS_PYTHON)('the page, then one line of note: it is HTML, and --out FILE.html writes it to a file', () => {
    const r = spawnSync('python3', [join(ROOT, 'test/helpers/ptyrun.py'), 'no marker', process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'view', 'SE4-7'], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000,
    });
    const [json, status] = r.stdout.trim().split('\n');
    const screen = JSON.parse(json!) as string;
    expect(Number(status)).toBe(0);
    expect(screen).toMatch(/^<!doctype html>/i);
    expect(screen).toMatch(/<\/html>\r?\nspidersolve: note: that was an HTML page \(\d+ KB\), for a browser; give --out FILE\.html to write it to a file\r\n$/);
  });
});
