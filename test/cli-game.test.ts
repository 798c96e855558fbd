/**
 * The game commands end to end (src/cli/main.ts, src/cli/game.ts), run in-process as from the
 * repository root (test/helpers/cli.ts runInProcess); stdout, stderr and exit codes checked. Bad input
 * exits 2 with one line on stderr and no stack trace. What needs a whole process (a full disk, a pipe
 * on standard input) is in cli-game.slow.test.ts.
 */
import { DEAL_HELP } from '../src/cli/common.js';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { buildProgram, runProgram } from '../src/cli/main.js';
import { InputError } from '../src/game/errors.js';
import { makeDealCode } from '../src/game/code.js';
import { dealCards } from '../src/game/deal.js';
import { getVariant } from '../src/game/variant.js';
import { SOLVER_VERSION } from '../src/solver/types.js';
import { expectOneLineError, runInProcess } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spidersolve-cli-'));

async function cli(...args: string[]) {
  const r = await runInProcess(args);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
async function json(...args: string[]) {
  const r = await cli(...args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}
/** Runs a command that must fail on its input (helpers/cli.ts expectOneLineError); returns its one stderr line. */
async function refused(...args: string[]): Promise<string> {
  const r = await cli(...args);
  expectOneLineError(r, /^spidersolve: /);
  return r.stderr.trimEnd();
}

describe('spidersolve program', () => {
  it("--help lists the game commands; --version prints the package's version and the solver's", async () => {
    const h = await cli('--help');
    expect(h.status).toBe(0);
    for (const c of ['deal', 'show', 'moves', 'play']) expect(h.stdout).toContain(`${c} [options]`);
    const v = await cli('--version');
    expect(v.stdout.trim()).toBe(`0.1.0 (solver ${SOLVER_VERSION})`);
    const sub = await cli('play', '--help');
    expect(sub.status).toBe(0);
    expect(sub.stdout).toContain('Usage: spidersolve play [options] <deal> <move...>');
  });
  it('every command has a short one-line description in the same style: lowercase first, no final period', () => {
    const descriptions = Object.fromEntries(buildProgram().commands.map((c) => [c.name(), c.description()]));
    expect(Object.keys(descriptions)).toEqual(['deal', 'show', 'moves', 'play', 'solve', 'hint', 'batch', 'report', 'export', 'studies', 'merge', 'view', 'blind', 'completion']);
    for (const [name, d] of Object.entries(descriptions)) {
      expect(d, name).toMatch(/^[a-z][^\n]*[^.]$/);
      expect(d.length, name).toBeLessThanOrEqual(140);
    }
    expect(descriptions.solve).toBe('solve a deal or position with perfect information (R18): won with the whole line, lost (proven) or undecided');
    expect(descriptions.hint).toBe('print the first move of a winning line, if the solver proves one within the budget');
  });
  it('solve and hint --help keep the detail after the options: what a <deal> is, and the exit codes', async () => {
    for (const c of ['solve', 'hint']) {
      const h = await cli(c, '--help');
      expect(h.status).toBe(0);
      const tail = h.stdout.slice(h.stdout.indexOf('display help for command'));
      expect(tail).toContain(DEAL_HELP);
      expect(tail).toContain('Exit codes: 0 won, 3 lost (proven), 4 undecided (budget spent), 2 bad input, 1 internal error, 130 stopped by Ctrl-C (SIGINT), 143 stopped by SIGTERM.');
    }
  });
  it('solve --help names every field that solve --json prints (label, game and suits were missing)', async () => {
    const help = (await cli('solve', '--help')).stdout.replace(/\s+/g, ' ');
    const listed = /--json print one JSON object \{ ([^}]*) \}/.exec(help)![1]!;
    const fields = listed.replace(/, and with --explain explain: \[one object per move\]$/, '').split(', ');
    for (const extra of [[], ['--explain']]) {
      const printed = Object.keys(JSON.parse((await cli('solve', 'SE1-1', '--json', ...extra)).stdout) as object);
      expect(printed).toEqual(extra.length ? [...fields, 'explain'] : fields);
    }
  });
  it('help <command> prints that command\'s help; help <unknown> is one line, exit 2', async () => {
    const h = await cli('help', 'solve');
    expect(h.status).toBe(0);
    expect(h.stdout).toContain('Usage: spidersolve solve [options] <deal>');
    expect(await refused('help', 'nope')).toBe("spidersolve: help: unknown command 'nope' (spidersolve --help lists the commands)");
  });
  it('help --help (and help -h, help help) prints the general help, which lists help, exit 0 (it said unknown command)', async () => {
    const general = await cli('--help');
    expect(general.stdout).toContain('help [command]');
    for (const a of ['--help', '-h', 'help']) expect(await cli('help', a)).toEqual({ status: 0, stdout: general.stdout, stderr: '' });
  });
  it('an unknown command or option is a usage error: exit 2, one line', async () => {
    expect(await refused('bogus')).toBe("spidersolve: unknown command 'bogus'");
    expect(await refused('deal', '--colour', 'red')).toBe("spidersolve: unknown option '--colour'");
    expect(await refused('show')).toBe("spidersolve: missing required argument 'deal'");
  });
  it('an option given twice with two values is refused, exit 2, one line (commander kept the last); the same value twice, a flag twice and a repeatable option pass', async () => {
    expect(await refused('deal', '--game', 'spiderette', '--suits', '2', '--seed', '7', '--game', 'spider')).toBe('spidersolve: option --game given twice ("spiderette", then "spider"): give it once');
    expect(await refused('solve', 'SE1-1', '--max-positions', '1000', '--max-positions=2000')).toBe('spidersolve: option --max-positions given twice ("1000", then "2000"): give it once');
    const same = await cli('deal', '--game', 'spiderette', '--suits', '2', '--seed', '7', '--game', 'spiderette', '--json', '--json');
    expect([same.status, JSON.parse(same.stdout).code]).toEqual([0, (await cli('deal', '--game', 'spiderette', '--suits', '2', '--seed', '7')).stdout.trim()]);
    // report --study is repeatable: two studies, each looked for (neither is in this empty folder's database)
    expect(await refused('report', '--db', join(tmpdir(), 'spidersolve-no-such-dir', 'r.sqlite'), '--study', 'a', '--study', 'b')).toMatch(/^spidersolve: database .*r\.sqlite: no such file/);
  });
});

describe('an option with its value missing', () => {
  it('is refused when the next word is an option, exit 2, one line naming it, nothing run (commander took "--json" as the value)', async () => {
    const db = join(dir, 'missing-value.sqlite');
    expect(await refused('batch', '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '10', '--db', db, '--study', '--json')).toBe(
      'spidersolve: option --study <name>: no value given (the next word, "--json", is an option); give --study its value',
    );
    expect(existsSync(db)).toBe(false);
    // (commander took --db as the budget and left the file over: "too many arguments", naming neither)
    expect(await refused('batch', '--game', 'spider', '--suits', '1', '--seeds', '1-2', '--max-positions', '--db', db)).toBe(
      'spidersolve: option --max-positions <n>: no value given (the next word, "--db", is an option); give --max-positions its value',
    );
    expect(existsSync(db)).toBe(false);
    expect(await refused('report', '--db', db, '--out', '--json')).toMatch(/^spidersolve: option --out <file>: no value given \(the next word, "--json", is an option\)/);
    // (--json is taken for an option, so solve says the error in JSON on stdout too)
    const json = await cli('solve', 'SE1-1', '--max-positions', '--json');
    expect([json.status, json.stderr]).toEqual([2, expect.stringMatching(/^spidersolve: option --max-positions <n>: no value given[^\n]*\n$/)]);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'bad-option', message: json.stderr.replace(/^spidersolve: /, '').trimEnd() } });
    // the option last, with no value at all, once or after a first value (where "true" was shown as the second)
    expect(await refused('blind', 'SP1-5', '--player', 'greedy', '--player')).toBe('spidersolve: option --player <spec>: no value given; give --player its value');
    expect(await refused('solve', 'SE1-1', '--max-positions')).toBe('spidersolve: option --max-positions <n>: no value given; give --max-positions its value');
    // a value written with = is the user's own: here a budget that is not one
    expect(await refused('solve', 'SE1-1', '--max-positions=--json')).toBe('spidersolve: option --max-positions "--json": not a whole number in digits (1..200000000)');
  });
});

describe('error reporting in one place (runProgram, in process)', () => {
  async function run(action: () => void): Promise<{ code: number; err: string }> {
    const program = new Command('spidersolve');
    program.command('boom').action(action);
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await runProgram(program, ['boom']);
      return { code, err: spy.mock.calls.map((c) => String(c[0])).join('') };
    } finally {
      spy.mockRestore();
      process.exitCode = undefined;
    }
  }
  it('an InputError exits 2 with its one-line message', async () => {
    expect(await run(() => { throw new InputError('bad-option', 'option --x "y": no'); })).toEqual({ code: 2, err: 'spidersolve: option --x "y": no\n' });
  });
  it('any other error exits 1 as an internal error, on one line, without a stack', async () => {
    expect(await run(() => { throw new TypeError('oops\nsecond line'); })).toEqual({ code: 1, err: 'spidersolve: internal error: oops second line\n' });
  });
  it('a status a command sets (batch: 130) is kept', async () => {
    expect(await run(() => { process.exitCode = 130; })).toEqual({ code: 130, err: '' });
  });
});

describe('deal', () => {
  it('prints seeded codes (default seed 1, spider 4 suits)', async () => {
    expect((await cli('deal')).stdout).toBe('SP4-1\n');
    expect((await cli('deal', '--game', 'spider', '--suits', '2', '--seed', '1007')).stdout).toBe('SP2-1007\n');
    expect((await cli('deal', '--game', 'spiderette', '--suits', '1', '--count', '3', '--from', '10')).stdout).toBe('SE1-10\nSE1-11\nSE1-12\n');
  });
  it('--json: one object { game, suits, codes, code when one }', async () => {
    expect(await json('deal', '--game', 'Spiderette', '--suits', '4', '--seed', '7', '--json')).toEqual({ game: 'spiderette', suits: 4, codes: ['SE4-7'], code: 'SE4-7' });
    expect(await json('deal', '--suits', '2', '--count', '2', '--json')).toEqual({ game: 'spider', suits: 2, codes: ['SP2-1', 'SP2-2'] });
  });
  it('refuses bad options: --suits 3, bad game, bad seed, --seed with --count', async () => {
    expect(await refused('deal', '--suits', '3')).toBe('spidersolve: option --suits "3": use 1, 2 or 4');
    expect(await refused('deal', '--game', 'klondike')).toBe('spidersolve: option --game "klondike": use spider or spiderette');
    expect(await refused('deal', '--seed', 'abc')).toBe('spidersolve: option --seed "abc": not a whole number in digits (0..4294967295)');
    expect(await refused('solve', 'SE1-1', '--max-positions', '1e6')).toBe('spidersolve: option --max-positions "1e6": not a whole number in digits (1..200000000)');
    // a ladder of budgets (or a budget with thousands separators) is told that solve and hint take one
    expect(await refused('solve', 'SE1-1', '--max-positions', '100,200')).toBe('spidersolve: option --max-positions "100,200": a ladder of budgets is for batch only; solve takes one budget, in digits without separators (1..200000000)');
    expect(await refused('hint', 'SE1-1', '--max-positions', '1,000,000')).toBe('spidersolve: option --max-positions "1,000,000": a ladder of budgets is for batch only; hint takes one budget, in digits without separators (1..200000000)');
    expect(await refused('solve', 'SE1-1', '--max-positions', '100,x')).toBe('spidersolve: option --max-positions "100,x": not a whole number in digits (1..200000000)');
    expect(await refused('deal', '--seed', '4294967296')).toBe('spidersolve: option --seed "4294967296": must be 0..4294967295');
    expect(await refused('deal', '--seed', '1', '--count', '2')).toBe('spidersolve: option --seed: give either --seed or --count/--from, not both');
  });
});

describe('show', () => {
  it('text: header, hidden face-down cards, stock, removed', async () => {
    const r = await cli('show', 'SE4-7');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        'deal SE4-7 (spiderette, 4 suits)',
        '1: | 8♠',
        '2: ## | 6♣',
        '3: ## ## | 6♠',
        '4: ## ## ## | 6♦',
        '5: ## ## ## ## | 5♦',
        '6: ## ## ## ## ## | 6♥',
        '7: ## ## ## ## ## ## | 8♥',
        'stock: 4 deals left (7, 7, 7, 3 cards, 24 in all)',
        'removed: none (0 of 4 runs completed)',
        '',
      ].join('\n'),
    );
  });
  it('--reveal shows face-down cards and the stock', async () => {
    const r = await cli('show', 'SE4-7', '--reveal');
    expect(r.stdout).toContain('\n2: 2♣ | 6♣\n');
    expect(r.stdout).toContain('\nstock 4/4: K♥ 10♣ 4♥\n');
  });
  it('--json and --format json: faceDown counts unless --reveal', async () => {
    const o = await json('show', 'SE4-7', '--json');
    expect(o.code).toBe('SE4-7');
    expect(o.game).toBe('spiderette');
    expect(o.suits).toBe(4);
    expect(o.columns[1]).toEqual({ faceDown: 1, faceUp: ['6C'] });
    expect(o.stock).toEqual([7, 7, 7, 3]);
    expect(o.removed).toEqual([]);
    expect(o.won).toBe(false);
    const rv = await json('show', 'SE4-7', '--format', 'json', '--reveal');
    expect(rv.columns[1]).toEqual({ faceDown: ['2C'], faceUp: ['6C'] });
    expect(rv.stock[3]).toEqual(['KH', '10C', '4H']);
    expect(o.position).toBeUndefined(); // no face-down card is shown without --reveal
    // with --reveal, `position` is a position file: read back, it is the same position
    const file = join(dir, 'se4-7.json');
    writeFileSync(file, JSON.stringify(rv.position));
    const back = await json('show', file, '--json', '--reveal');
    expect(back.position).toEqual(rv.position);
    expect(back.columns).toEqual(rv.columns);
  });
  it('a PySolFC deal prints the column mapping in one line and its explicit code', async () => {
    const r = await cli('show', 'pysol:spider:14934');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('PySolFC spider game 14934 (spider, 4 suits)');
    expect(lines[1]).toBe('mapping: PySolFC columns 1,4,7,10,2,3,5,6,8,9 are our columns 1-10 (stock deals relabelled alike)');
    expect(lines[2]).toMatch(/^code: SP4X-[0-9A-Z]+$/);
    expect(lines[3]).toBe('columns: PySolFC\'s, 1-10 left to right as PySolFC lays the deal out, so the moves can be played in PySolFC as printed (--columns spidersolve for spidersolve\'s layout)');
    expect(lines[4]).toBe(' 1: ## ## ## ## ## | 5♠');
    const o = await json('show', 'pysol:spider:14934', '--json');
    expect(o.pysolGameId).toBe(11);
    expect(o.pysolColumns).toEqual([1, 4, 7, 10, 2, 3, 5, 6, 8, 9]);
    expect(o.source).toEqual({ kind: 'pysol', game: 'spider', number: 14934 });
    // the code shown loads the same deal
    expect((await json('show', o.code, '--json', '--reveal')).columns).toEqual((await json('show', 'pysol:spider:14934', '--json', '--reveal')).columns);
  });
  it('show lays a PySolFC deal out in PySolFC\'s columns, as play and moves number them; --columns spidersolve in spidersolve\'s', async () => {
    const pysol = (await cli('show', 'pysol:spider:3', '--reveal')).stdout.split('\n');
    const own = (await cli('show', 'pysol:spider:3', '--reveal', '--columns', 'spidersolve')).stdout.split('\n');
    // PySolFC's column 2 is spidersolve's 5; its first stock deal, PySolFC's column 1 first
    expect(pysol[5]).toBe(' 2: Q♥ 3♣ 4♠ J♥ | 8♦');
    expect(own[8]).toBe(' 5: Q♥ 3♣ 4♠ J♥ | 8♦');
    expect(pysol[14]).toBe('stock 1/5: 10♥ 3♦ K♠ 9♠ 10♥ 7♠ A♣ 9♠ 5♥ A♣');
    expect(own[14]).toBe('stock 1/5: 10♥ 9♠ A♣ A♣ 3♦ K♠ 10♥ 7♠ 9♠ 5♥');
    // and after a deal, play prints the same board show does
    const played = (await cli('play', 'pysol:spider:3', 'd')).stdout.split('\n');
    expect(played.slice(-13, -3).map((l) => l.replace(/\|.*$/, ''))).toEqual((await cli('show', 'pysol:spider:3')).stdout.split('\n').slice(4, 14).map((l) => l.replace(/\|.*$/, '')));
    // PySolFC's suits for its one- and two-suit games: clubs where spidersolve has spades
    expect((await cli('show', 'pysol:spider2:3')).stdout.split('\n')[4]).toBe(' 1: ## ## ## ## ## | Q♣');
    expect(await cli('show', 'SE4-7', '--columns', 'pysol')).toMatchObject({ status: 2, stderr: 'spidersolve: option --columns pysol: SE4-7 is not a PySolFC deal (pysol:GAME:N); its columns are spidersolve\'s\n' });
  });
  it('an explicit code is shown as given', async () => {
    const v = getVariant('spiderette', 2);
    const code = makeDealCode(v, dealCards(v, 9));
    expect((await cli('show', code.toLowerCase())).stdout.split('\n')[0]).toBe(`deal ${code} (spiderette, 2 suits)`);
  });
  it('refuses a bad code, a mistyped code, a missing file, a bad --format', async () => {
    expect(await refused('show', 'SP3-1')).toBe('spidersolve: deal code "SP3-1": 3 suits is not a variant; use 1, 2 or 4');
    const v = getVariant('spider', 4);
    const code = makeDealCode(v, dealCards(v, 1));
    const typo = code.slice(0, 10) + (code[10] === '0' ? '1' : '0') + code.slice(11);
    expect(await refused('show', typo)).toBe(`spidersolve: deal code "${typo}": checksum does not match; the code is mistyped or damaged`);
    const cut = code.slice(0, -3); // the last 3 characters lost in a copy: too short, not a checksum fault
    expect(await refused('show', cut)).toBe(
      `spidersolve: deal code "${cut}": too short: 117 characters after "SP4X-", a spider 4-suit code has exactly 120 (115 payload + 5 check); it looks cut short`,
    );
    const missing = join(dir, 'missing.txt');
    expect(await refused('show', missing)).toBe(`spidersolve: position file ${missing}: no such file (and not a deal code or pysol:GAME:N)`);
    expect(await refused('show', 'SE4-7', '--format', 'xml')).toBe('spidersolve: option --format "xml": use text, json, position or position-json');
    expect(await refused('show', 'pysol:spider:0')).toBe('spidersolve: deal "pysol:spider:0": game number 0 is out of range 1..9007199254740991');
    // a long number is shown cut, as any long input (300 digits repeated whole)
    expect(await refused('show', `pysol:spider:${'9'.repeat(300)}`)).toBe(`spidersolve: deal "pysol:spider:${'9'.repeat(84)}…${'9'.repeat(32)}" (313 characters): game number "${'9'.repeat(29)}…${'9'.repeat(10)}" (300 characters) is out of range 1..9007199254740991`);
    expect(await refused('show', dir)).toBe(`spidersolve: position file ${dir}: is a directory`);
  });
  it('refuses a position file over 1 MiB, and a device that never ends, without reading them whole', async () => {
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'game: spider 2\n' + '#'.repeat(1024 * 1024) + '\n');
    expect(await refused('show', big)).toBe(`spidersolve: position file ${big}: too large (over 1 MiB; a position file holds a few kilobytes)`);
    expect(await refused('solve', '/dev/zero')).toBe('spidersolve: position file /dev/zero: too large (over 1 MiB; a position file holds a few kilobytes)');
  });
  it('refuses a binary file given as a position file (a program) in one line that says it is not text', async () => {
    const prog = join(dir, 'prog');
    writeFileSync(prog, Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(5000, 0x90)]));
    const why = 'not a text file (a zero byte at line 1); give a position file in the text or JSON form, a deal code or pysol:GAME:N';
    expect(await refused('solve', prog)).toBe(`spidersolve: position file ${prog}: ${why}`);
    expect(await refused('show', prog)).toBe(`spidersolve: position file ${prog}: ${why}`);
  });
  it('writes a position file in either form (--format position, position-json) that every <deal> argument reads back to the same deal', async () => {
    const start = await json('show', 'SE4-7', '--json', '--reveal');
    const text = (await cli('show', 'SE4-7', '--format', 'position')).stdout;
    expect(text.split('\n').slice(0, 5)).toEqual(['# spidersolve position', 'game: spiderette 4', 'source: SE4-7', '1: | 8S', '2: 2C | 6C']);
    for (const [name, body] of [['se4-7.txt', text], ['se4-7.json', (await cli('show', 'SE4-7', '--format', 'position-json')).stdout]] as const) {
      const f = join(dir, name);
      writeFileSync(f, body);
      const back = await json('show', f, '--json', '--reveal');
      // the same cards (its code is the deal's explicit code, which shows the same deal) and the same
      // answer from the solver
      expect([back.columns, back.stock]).toEqual([start.columns, start.stock]);
      expect(back.code).toMatch(/^SE4X-/);
      expect((await json('show', back.code, '--json', '--reveal')).columns).toEqual(start.columns);
      expect((await json('solve', f, '--json', '--max-positions', '50000')).positions).toBe((await json('solve', 'SE4-7', '--json', '--max-positions', '50000')).positions);
    }
    // a position in mid-game round-trips too
    const mid = join(dir, 'mid.json');
    writeFileSync(mid, JSON.stringify((await json('play', 'SE4-7', '5-2 d', '--json')).position));
    const midText = join(dir, 'mid.txt');
    writeFileSync(midText, (await cli('show', mid, '--format', 'position')).stdout);
    expect((await json('show', midText, '--json', '--reveal')).columns).toEqual((await json('show', mid, '--json', '--reveal')).columns);
  });
  it('a position file written from a position file keeps its source line, in either form', async () => {
    const first = join(dir, 'src-se4-7.txt');
    writeFileSync(first, (await cli('show', 'SE4-7', '--format', 'position')).stdout);
    const again = (await cli('show', first, '--format', 'position')).stdout;
    expect(again).toBe(readFileSync(first, 'utf8'));
    expect(again.split('\n')[2]).toBe('source: SE4-7');
    const asJson = join(dir, 'src-se4-7.json');
    writeFileSync(asJson, (await cli('show', first, '--format', 'position-json')).stdout);
    expect(JSON.parse(readFileSync(asJson, 'utf8')).source).toBe('SE4-7');
    expect((await cli('show', asJson, '--format', 'position')).stdout).toBe(again);
    expect((await json('show', first, '--json')).source).toEqual({ kind: 'file', path: first, text: 'SE4-7' });
    // a file without one gets its own name
    const bare = join(dir, 'bare.txt');
    writeFileSync(bare, again.replace('source: SE4-7\n', ''));
    expect((await cli('show', bare, '--format', 'position')).stdout.split('\n')[2]).toBe(`source: ${bare}`);
  });
  it('says in words why a position file cannot be read, with the system\'s code', async () => {
    const a = join(dir, 'loop-a');
    const b = join(dir, 'loop-b');
    symlinkSync(b, a);
    symlinkSync(a, b);
    expect(await refused('show', a)).toBe(`spidersolve: position file ${a}: too many symbolic links (a loop of links?) (ELOOP)`);
    expect(await refused('batch', '--deals', a, '--db', join(dir, 'loop.sqlite'))).toBe(`spidersolve: --deals ${a}: too many symbolic links (a loop of links?) (ELOOP)`);
    const long = join(dir, 'x'.repeat(300));
    expect(await refused('show', long)).toMatch(/^spidersolve: position file ".*" \(\d+ characters\): the name is too long for the file system \(ENAMETOOLONG\)$/);
  });
  it('reads a position file and names its faulty line', async () => {
    const f = join(dir, 'bad.txt');
    writeFileSync(f, 'game: spider 2\n1: 5D | 7H\n');
    expect(await refused('show', f)).toBe(`spidersolve: position file ${f}: column 2 is missing (1 of 10 columns given; write "2: |" for an empty column)`);
  });
});

describe('moves', () => {
  it('text: one legal move a line with a description', async () => {
    const r = await cli('moves', 'SE4-7');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        '5-2  move 5♦ from column 5 onto 6♣ in column 2, turns up a card',
        '5-3  move 5♦ from column 5 onto 6♠ in column 3, turns up a card',
        '5-4  move 5♦ from column 5 onto 6♦ in column 4, turns up a card',
        '5-6  move 5♦ from column 5 onto 6♥ in column 6, turns up a card',
        'd    deal 7 cards from the stock onto columns 1-7 (3 deals left after it)',
        '',
      ].join('\n'),
    );
  });
  it('--json: { code, moves, won }', async () => {
    expect(await json('moves', 'SE4-7', '--json')).toEqual({ code: 'SE4-7', moves: ['5-2', '5-3', '5-4', '5-6', 'd'], won: false, columns: 'spidersolve' });
  });
});

describe('play', () => {
  it('text: moves played, scores, won or not, the position', async () => {
    const r = await cli('play', 'SE4-7', '5-2', 'd');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'deal SE4-7 (spiderette, 4 suits)',
      'played 2 moves: 5-2 d',
      'classic score 498 (R16), reveal score 5 (R17); 1 card turned up, 0 suits completed',
      'not won',
    ]);
    expect(lines[4]).toBe('1: | 8♠ 5♣');
    expect(lines[5]).toBe('2: ## | 6♣ 5♦ 9♥');
  });
  it('--json: { code, moves, movesPlayed, classicScore, revealScore, won, position }; a quoted line works too', async () => {
    const o = await json('play', 'SE4-7', '5-2 d', '--json');
    expect(o.code).toBe('SE4-7');
    expect(o.moves).toEqual(['5-2', 'd']);
    expect(o.movesPlayed).toBe(2);
    expect(o.classicScore).toBe(498);
    expect(o.revealScore).toBe(5);
    expect(o.won).toBe(false);
    expect(o.position.game).toBe('spiderette');
    expect(o.position.columns[1]).toEqual({ faceDown: ['2C'], faceUp: ['6C', '5D', '9H'] });
    expect(o.position.stockDeals).toHaveLength(3);
    expect(o.position.removed).toEqual([]);
  });
  it('the examples of play --help are legal lines', async () => {
    const examples = (await cli('play', '--help')).stdout.split('Examples:')[1]!.split('\n\nExit codes:')[0]!.trim().split('\n');
    expect(examples).toHaveLength(3);
    for (const ex of examples) {
      // split the shell line: words, and one double-quoted group
      const args = [...ex.trim().matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
      const r = await cli(...args);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
  });
  it('hint --json: { code, status, move, positions, line }, the move being the line\'s first', async () => {
    const o = await json('hint', 'SE1-1', '--max-positions', '20000', '--json');
    expect(o).toMatchObject({ code: 'SE1-1', status: 'won' });
    expect(Object.keys(o)).toEqual(['code', 'status', 'move', 'positions', 'line', 'columns']);
    expect(o.line.length).toBeGreaterThan(10);
    expect(o.move).toBe(o.line[0]);
  });
  it('R14, R16, R17: a won game from a position file', async () => {
    const f = join(dir, 'almost.txt');
    writeFileSync(f, 'game: spiderette 1\n1: | KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S\n2: | AS\n3: |\n4: |\n5: |\n6: |\n7: |\nremoved: S S S\n');
    const o = await json('play', f, '2-1', '--json');
    expect(o).toMatchObject({ code: null, moves: ['2-1'], movesPlayed: 1, classicScore: 899, revealScore: 400, won: true });
    expect(o.position.removed).toEqual(['S', 'S', 'S', 'S']);
    const text = (await cli('play', f, '2-1')).stdout.split('\n');
    expect(text[2]).toBe('classic score 899 (R16), reveal score 400 (R17); 0 cards turned up, 1 suit completed (the scores also count the 3 removed before the line)');
    expect(text[3]).toBe('won');
  });
  it('the first illegal move is refused with the rule it breaks: exit 2, one line', async () => {
    expect(await refused('play', 'SE4-7', '5-2', '1-2')).toBe(
      'spidersolve: move "1-2": no movable group of column 1 starts one rank below the last card of column 2 (R6, R9) (move 2 of the line)',
    );
    expect(await refused('play', 'SE4-7', 'x')).toBe('spidersolve: move "x": not a move; write d (deal), FROM-TO (3-7) or FROM-TOxCOUNT (3-7x4) (move 1 of the line)');
    expect(await refused('play', 'SE4-7', '5-9')).toBe('spidersolve: move "5-9": column 9 does not exist (columns are 1-7) (move 1 of the line)');
  });
  it('refuses a bad code', async () => {
    expect(await refused('play', 'SP2-x', 'd')).toBe('spidersolve: deal code "SP2-x": the seed "x" is not a whole number 0..4294967295 in digits');
    expect(await refused('solve', 'SE2--1')).toBe('spidersolve: deal code "SE2--1": the seed "-1" is not a whole number 0..4294967295 in digits');
  });
  it('a deal of spaces only is quoted as given, spaces and all', async () => {
    expect(await refused('solve', ' ')).toBe('spidersolve: deal " ": empty; give a deal code (SP2-1007), pysol:spider:N or a position file');
  });
});

describe('solve', () => {
  it('solve prints the status, the budget used and the solver version that answered (results are keyed by it)', async () => {
    const r = await cli('solve', 'SE2-5');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('SE2-5 (spiderette, 2 suits): won: a winning line was found and replayed through the rules engine');
    expect(lines[1]).toMatch(/^positions: 129 of 1,000,000 \(/);
    expect(lines[1]!.endsWith(`; peak memory: 0.1 MiB; solver ${SOLVER_VERSION}`)).toBe(true);
    expect(lines[2]).toBe('stages: quick 129 (won)');
  });

  it('solve names the stages that ran, what each stored and how it ended; --json gives them as objects', async () => {
    const lost = await cli('solve', 'SE4-1011', '--max-positions', '2972');
    expect(lost.status).toBe(3);
    expect(lost.stdout.split('\n')[2]).toBe('stages: quick 1,364 (ran dry), beam 607 in 4 iterations (budget short), complete 708 (lost)');
    const o = JSON.parse((await cli('solve', 'SE4-1001', '--max-positions', '20000', '--json')).stdout) as { status: string; stages: unknown[] };
    expect(o.status).toBe('undecided');
    expect(o.stages).toEqual([
      { stage: 'quick', positions: 10_000, iterations: null, end: 'share spent' },
      { stage: 'beam', positions: 9154, iterations: 3, end: 'budget short' },
      { stage: 'complete', positions: 846, iterations: null, end: 'budget spent' },
    ]);
  });

  it('solve says what another budget could change only where it could: the line of a win, the answer of an undecided solve, not a proven loss', async () => {
    expect((await cli('solve', 'SE2-5')).stdout.split('\n')[1]).toMatch(/^positions: 129 of 1,000,000 \(the stages share the budget, so another budget may find another line\); time: /);
    const undecided = await cli('solve', 'SP4-1', '--max-positions', '10');
    expect(undecided.status).toBe(4);
    expect(undecided.stdout.split('\n')[1]).toMatch(/^positions: 10 of 10 \(a larger --max-positions may settle it\); time: /);
    // a proven loss: no word of another budget, even where it took the whole budget
    const lost = await cli('solve', 'SE4-1011', '--max-positions', '2679');
    expect(lost.status).toBe(3);
    expect(lost.stdout.split('\n')[1]).toMatch(/^positions: 2,679 of 2,679; time: /);
  });
});
