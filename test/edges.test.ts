/**
 * The command line's rough edges, in process: default study names (and the old names still resumed),
 * moves with spaces around the dash, look-alike characters that are not ASCII, SPIDERSOLVE_DB, the
 * "wrote" line of --out and --quiet, shell completion scripts, and the progress of a long solve.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/batch/store.js';
import { defaultStudyName, parseBatchOptions } from '../src/cli/batch.js';
import { asciiLookalike, lineWords, loadDealOrThrow } from '../src/cli/common.js';
import { completionCommands, completionScript } from '../src/cli/completion.js';
import { buildProgram, runProgram } from '../src/cli/main.js';
import { solveProgress, solveProgressText } from '../src/cli/solve.js';
import { loadDeal } from '../src/game/ref.js';
import { solve } from '../src/solver/solve.js';
import { PROGRESS_EVERY } from '../src/solver/types.js';
import { makeLostDb } from './helpers/db.js';
import { runInProcess } from './helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-edges-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the program in this process with `env` set; returns the exit code and what it wrote. */
async function run(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const w1 = process.stdout.write.bind(process.stdout);
  const w2 = process.stderr.write.bind(process.stderr);
  const old = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  process.stdout.write = ((s: string | Uint8Array) => (out.push(String(s)), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => (err.push(String(s)), true)) as typeof process.stderr.write;
  try {
    const code = await runProgram(buildProgram(), args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = w1;
    process.stderr.write = w2;
    process.exitCode = undefined;
    for (const [k, v] of Object.entries(old)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('default study names', () => {
  const base = { db: 'x.sqlite', game: 'spider', suits: '2' };

  it('say "at" before the budgets, so that seeds 1 at 5 positions does not read as seeds 1-5', () => {
    expect(parseBatchOptions({ ...base, seeds: '1', maxPositions: '5' })).toMatchObject({ study: 'spider-2-seeds-1-at-5-positions', legacyStudies: ['spider-2-seeds-1-5-positions'] });
    expect(parseBatchOptions({ ...base, seeds: '1-5', maxPositions: '5' })).toMatchObject({ study: 'spider-2-seeds-1-5-at-5-positions', legacyStudies: ['spider-2-seeds-1-5-5-positions'] });
    // a ladder as --max-positions takes it; the old names of seeds 1 with a ladder 5,10 and of seeds 1-5 at 10 were one
    expect(parseBatchOptions({ ...base, seeds: '1', maxPositions: '5,10' })).toMatchObject({ study: 'spider-2-seeds-1-at-5,10-positions', legacyStudies: ['spider-2-seeds-1-5-10-positions'] });
    expect(parseBatchOptions({ ...base, seeds: '1-5', maxPositions: '10' })).toMatchObject({ study: 'spider-2-seeds-1-5-at-10-positions', legacyStudies: ['spider-2-seeds-1-5-10-positions'] });
    expect(parseBatchOptions({ ...base, seeds: '1', maxPositions: '5', study: 'mine' }).legacyStudies).toBeUndefined();
  });

  it('resolve to a study made under the old name with the same parameters, and only then', () => {
    const db = join(dir, 'old-names.sqlite');
    const seeds1 = parseBatchOptions({ ...base, db, seeds: '1', maxPositions: '5' });
    // no database yet: the new name
    expect(defaultStudyName(seeds1)).toBe('spider-2-seeds-1-at-5-positions');
    // a database made before, with the study under its old name
    const store = ResultStore.openForWriting(db);
    store.ensureStudy('spider-2-seeds-1-5-positions', seeds1.studyParams);
    const ladder = parseBatchOptions({ ...base, db, seeds: '1', maxPositions: '5,10' });
    store.ensureStudy('spider-2-seeds-1-5-10-positions', ladder.studyParams);
    store.close();
    expect(defaultStudyName(seeds1)).toBe('spider-2-seeds-1-5-positions');
    expect(defaultStudyName(ladder)).toBe('spider-2-seeds-1-5-10-positions');
    // the same old name, another design (seeds 1-5 at 10): not taken; a new study under the new name
    expect(defaultStudyName(parseBatchOptions({ ...base, db, seeds: '1-5', maxPositions: '10' }))).toBe('spider-2-seeds-1-5-at-10-positions');
    // a study under the new name wins over the old one
    const s2 = ResultStore.openForWriting(db);
    s2.ensureStudy('spider-2-seeds-1-at-5-positions', seeds1.studyParams);
    s2.close();
    expect(defaultStudyName(seeds1)).toBe('spider-2-seeds-1-at-5-positions');
    // a file that is not a database: the default name (the batch says what is wrong with it)
    expect(defaultStudyName({ ...seeds1, dbPath: join(dir, 'edges.test.ts.missing') })).toBe('spider-2-seeds-1-at-5-positions');
  });
});

describe('moves and deals typed with look-alikes', () => {
  it('closes up spaces around a dash', () => {
    expect(lineWords(['5 - 4'])).toEqual(['5-4']);
    expect(lineWords(['5 -4 d', '3- 7x2'])).toEqual(['5-4', 'd', '3-7x2']);
    expect(lineWords(['5-4,d'])).toEqual(['5-4', 'd']);
  });

  it('plays "5 - 4" as 5-4', async () => {
    const a = await run(['play', 'SE4-7', '5 - 4', '--json']);
    const b = await run(['play', 'SE4-7', '5-4', '--json']);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).moves).toEqual(['5-4']);
    expect(a.stdout).toBe(b.stdout);
  });

  it('maps full-width and typographic look-alikes to ASCII, and nothing else', () => {
    expect(asciiLookalike('ＳＰ２-１')).toBe('SP2-1');
    expect(asciiLookalike('SP2\u20131')).toBe('SP2-1'); // en dash
    expect(asciiLookalike('５\u2212４')).toBe('5-4'); // minus sign
    expect(asciiLookalike('SP2-1')).toBeNull();
    expect(asciiLookalike('partie-\u00e9t\u00e9.json')).toBeNull();
  });

  it('reads ＳＰ２-１ as SP2-1, saying its characters are not ASCII', async () => {
    const r = await run(['show', 'ＳＰ２-１', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).code).toBe('SP2-1');
    expect(r.stderr).toBe('spidersolve: note: read deal "ＳＰ２-１" as SP2-1: its characters Ｓ (U+FF33), Ｐ (U+FF30), ２ (U+FF12), １ (U+FF11) are not ASCII (full-width or typographic look-alikes), taken as their ASCII forms\n');
    expect(loadDealOrThrow('ＳＰ２-１', true).code).toBe('SP2-1');
    // a look-alike that is no deal in ASCII either is refused, the characters named (not "no such file")
    const bad = await run(['show', 'ＳＰ９-１']);
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toBe('spidersolve: deal code "SP9-1": 9 suits is not a variant; use 1, 2 or 4 (read from "ＳＰ９-１", whose characters Ｓ (U+FF33), Ｐ (U+FF30), ９ (U+FF19), １ (U+FF11) are not ASCII: taken as their ASCII forms)\n');
  });

  it('plays full-width moves with a note', async () => {
    const r = await run(['play', 'SE4-7', '５－４', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).moves).toEqual(['5-4']);
    expect(r.stderr).toMatch(/^spidersolve: note: read the moves "５－４" as "5-4": their characters ５ \(U\+FF15\), － \(U\+FF0D\), ４ \(U\+FF14\) are not ASCII/);
  });
});

describe('SPIDERSOLVE_DB, --out and --quiet', () => {
  it('names the default database; --db wins; empty is unset; the help says so', async () => {
    const db = join(dir, 'env.sqlite');
    makeLostDb(db);
    const viaEnv = await run(['studies', '--json'], { SPIDERSOLVE_DB: db });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout).map((s: { name: string }) => s.name)).toEqual(['st']);
    const other = join(dir, 'absent.sqlite');
    const cli = await run(['studies', '--db', other], { SPIDERSOLVE_DB: db });
    expect([cli.code, cli.stderr]).toEqual([2, `spidersolve: database ${other}: no such file (run spidersolve batch first, or give --db)\n`]);
    // from a folder with no default database (the project's own may hold one: the README's main job makes it)
    const empty = await runInProcess(['studies'], { env: { SPIDERSOLVE_DB: '' }, cwd: dir });
    expect(empty.stderr).toBe('spidersolve: database data/results.sqlite: no such file (run spidersolve batch first, or give --db)\n');
    for (const cmd of ['batch', 'report', 'export', 'studies', 'view']) {
      const h = await run([cmd, '--help']);
      expect(h.stdout.replace(/\s+/g, ' ')).toContain('env: SPIDERSOLVE_DB');
    }
    expect((await run(['--help'])).stdout).toContain('SPIDERSOLVE_DB names the default results database');
  });

  it('report, export and show say what they wrote on stderr, view too, and --quiet says nothing', async () => {
    const db = join(dir, 'out.sqlite');
    makeLostDb(db);
    const md = join(dir, 'r.md');
    const csv = join(dir, 'e.csv');
    const sum = join(dir, 's.csv');
    const pos = join(dir, 'se4-7.txt');
    const cases: [string[], string][] = [
      [['report', '--db', db, '--format', 'md', '--out', md], `spidersolve: wrote ${md}: Markdown report, 1 row of 1 study\n`],
      [['export', '--db', db, '--csv', '--out', csv], `spidersolve: wrote ${csv}: CSV, 3 rows (one a study, deal and budget)\n`],
      [['export', '--db', db, '--csv', '--summary', '--out', sum], `spidersolve: wrote ${sum}: CSV of the report rows, 1 row\n`],
      [['show', 'SE4-7', '--format', 'position', '--out', pos], `spidersolve: wrote ${pos}: SE4-7, a position file (text form)\n`],
      [['view', 'SE4-7', '--line', '5-4', '--out', join(dir, 'v.html')], `spidersolve: wrote ${join(dir, 'v.html')}: SE4-7, a line of 1 move, not won\n`],
    ];
    for (const [args, said] of cases) {
      const r = await run(args);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', said]);
      const q = await run([...args, '--quiet']);
      expect([q.code, q.stdout, q.stderr]).toEqual([0, '', '']);
    }
    expect(readFileSync(csv, 'utf8').split('\r\n').filter(Boolean)).toHaveLength(4);
    // show --out writes what show prints
    expect(readFileSync(pos, 'utf8')).toBe((await run(['show', 'SE4-7', '--format', 'position'])).stdout);
    // errors are still said with --quiet
    const bad = await run(['show', 'SP9-1', '--quiet', '--out', join(dir, 'never.txt')]);
    expect([bad.code, bad.stderr]).toEqual([2, 'spidersolve: deal code "SP9-1": 9 suits is not a variant; use 1, 2 or 4\n']);
  });

  it('--quiet is on the commands that write notes or progress on stderr', async () => {
    for (const cmd of ['batch', 'solve', 'merge', 'report', 'export', 'show', 'view']) {
      expect((await run([cmd, '--help'])).stdout).toMatch(/--quiet +print nothing on stderr but errors/);
    }
  });
});

describe('shell completion', () => {
  it('lists every command and each command\'s options, in every shell', async () => {
    const program = buildProgram();
    const commands = program.commands.map((c) => c.name());
    expect(commands).toContain('completion');
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await run(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(completionScript(program, shell));
      for (const c of program.commands) {
        expect(r.stdout, `${shell}: ${c.name()}`).toMatch(new RegExp(`\\b${c.name()}\\b`));
        for (const o of c.options) expect(r.stdout, `${shell}: ${c.name()} ${o.long}`).toContain(shell === 'fish' ? `-l ${o.long!.slice(2)}` : o.long!);
      }
    }
    // the bash script's per-command option lists are the program's
    const bash = completionScript(program, 'bash');
    for (const c of completionCommands(program)) {
      expect(bash).toContain(`opts='${c.options.flatMap((o) => [o.long, ...(o.short ? [o.short] : [])]).join(' ')}'`);
    }
    const bad = await run(['completion', 'tcsh']);
    expect([bad.code, bad.stderr]).toEqual([2, 'spidersolve: completion: shell "tcsh": use bash, zsh or fish\n']);
  });
});

describe('progress of a long solve', () => {
  it('is called every PROGRESS_EVERY positions and changes nothing of the result', () => {
    const d = loadDeal('SP4-4');
    if (!d.ok) throw d.error;
    const seen: number[] = [];
    const a = solve(d.value.position, { maxPositions: 50_000, onProgress: (p) => seen.push(p.positions) });
    const b = solve(d.value.position, { maxPositions: 50_000 });
    expect(a.status).toBe('undecided');
    expect(seen).toEqual([1, 2, 3].map((k) => k * PROGRESS_EVERY));
    expect({ ...a, elapsedMs: 0 }).toEqual({ ...b, elapsedMs: 0 });
  });

  it('shows first after 2 s, then at most once a second, and clears its line', () => {
    const out: string[] = [];
    const p = solveProgress((t) => out.push(t), 10_000_000);
    p.onProgress({ positions: 16384, elapsedMs: 500 });
    expect(out).toEqual([]);
    p.onProgress({ positions: 800_000, elapsedMs: 2000 });
    p.onProgress({ positions: 900_000, elapsedMs: 2500 });
    p.onProgress({ positions: 1_245_184, elapsedMs: 3000 });
    p.done();
    expect(out).toEqual([
      '\rsolving: 800,000 of 10,000,000 positions (8%), 400,000 positions/s, 2.0 s\x1b[K',
      '\rsolving: 1,245,184 of 10,000,000 positions (12%), 415,061 positions/s, 3.0 s\x1b[K',
      '\r\x1b[K',
    ]);
    expect(solveProgressText({ positions: 0, elapsedMs: 0 }, 10)).toBe('solving: 0 of 10 positions (0%), 0.0 s');
  });
});
