/**
 * The second check of a row's losses (src/results/confirm.ts, `npm run results -- confirm ROW`): each
 * deal a row's database holds as lost is searched again without the solver's reductions, the answers
 * go to ROW-losses.csv, and the row's page says how many were confirmed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSeeds, type PlannedDeal } from '../src/batch/deals.js';
import { recordFromOutcome, ResultStore, type ResultRecord } from '../src/batch/store.js';
import { parseResultsArgs, resultsMain, shrinkRefusal, UsageError } from '../src/results/cli.js';
import { CHECK_BUDGET, confirmRow, lossesCsv, lossesPath, parseLossesCsv, type LossCheck } from '../src/results/confirm.js';
import { exportRow } from '../src/results/export.js';
import type { ResultsRow } from '../src/results/rows.js';
import { lossCheckLine, renderTable } from '../src/results/table.js';

const V = '9.9.9';
/** A row of Spiderette 1 suit seeds: SE1-2152 stored lost as the solver proves it (184 positions), SE1-3 stored lost by hand (a solve wins it), SE1-1 won. */
const row: ResultsRow = {
  id: 'check', title: 'Spiderette 1 suit (check)', game: 'spiderette', suits: 1, source: { kind: 'seeds' }, count: 3000,
  budgets: [1000], study: 'results-check', db: 'data/results/check.sqlite', csv: 'data/results/check.csv', published: [],
};

function rec(d: PlannedDeal, status: 'won' | 'lost', positions: number): ResultRecord {
  return recordFromOutcome(d, 1000, {
    key: d.key, status, positions, elapsedMs: 5, line: status === 'won' ? '1-2' : '', moveCount: status === 'won' ? 1 : null,
    classicScore: null, revealScore: null, peakBytes: positions * 100, solverVersion: V, workerMs: 5,
  });
}

function root(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spidersolve-confirm-'));
  const d = [...planSeeds('spiderette', [1], [{ from: 1, to: 1 }]), ...planSeeds('spiderette', [1], [{ from: 3, to: 3 }]), ...planSeeds('spiderette', [1], [{ from: 2152, to: 2152 }])];
  const records = [rec(d[0]!, 'won', 50), rec(d[1]!, 'lost', 60), rec(d[2]!, 'lost', 184)];
  const s = ResultStore.openForWriting(join(dir, row.db));
  const study = s.ensureStudy(row.study, { game: null, suits: null, dealsSpec: 'file:/dev/stdin', maxPositions: 1000, budgets: [1000], planned: d.length });
  s.writeResults(null, records, study, d.map((x, i) => ({ deal: records[i]!.deal, ord: i, name: x.key })));
  s.close();
  return dir;
}

describe('npm run results -- confirm ROW', () => {
  it('parses a row and an optional budget', () => {
    expect(parseResultsArgs(['confirm', 'spiderette1'])).toMatchObject({ kind: 'confirm', budget: CHECK_BUDGET, row: { id: 'spiderette1' } });
    expect(parseResultsArgs(['confirm', 'spiderette1', '--budget', '5000'])).toMatchObject({ kind: 'confirm', budget: 5000 });
    expect(parseResultsArgs(['confirm', 'spiderette1', '--budget=5000'])).toMatchObject({ kind: 'confirm', budget: 5000 });
    expect(() => parseResultsArgs(['confirm', 'spiderette1', '--budget', '0'])).toThrow(UsageError);
    expect(() => parseResultsArgs(['confirm', 'spiderette1', '--workers', '2'])).toThrow(UsageError);
    expect(() => parseResultsArgs(['confirm', 'nosuchrow'])).toThrow(UsageError);
    // the option before the row, a value left out, a value too large: each says so
    expect(() => parseResultsArgs(['confirm', '--budget', '1000', 'spiderette1'])).toThrow(/^confirm: no row given before --budget; give one of spider4, /);
    expect(() => parseResultsArgs(['confirm', 'spiderette1', '--budget'])).toThrow(/^option --budget needs a value: give a positive whole number$/);
    expect(() => parseResultsArgs(['confirm', 'spiderette1', '--budget='])).toThrow(/^option --budget needs a value/);
    expect(() => parseResultsArgs(['confirm', 'spiderette1', '--budget', '-1'])).toThrow(/^option --budget "-1": give a positive whole number$/);
    expect(() => parseResultsArgs(['confirm', 'spiderette1', '--budget', '9007199254740992'])).toThrow(/^option --budget "9007199254740992": too large; give a whole number up to 9007199254740991$/);
  });

  it('a row without losses: nothing checked, and no file made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spidersolve-confirm-'));
    const d = planSeeds('spiderette', [1], [{ from: 1, to: 1 }]);
    const s = ResultStore.openForWriting(join(dir, row.db));
    const study = s.ensureStudy(row.study, { game: null, suits: null, dealsSpec: 'file:/dev/stdin', maxPositions: 1000, budgets: [1000], planned: 1 });
    const records = [rec(d[0]!, 'won', 50)];
    s.writeResults(null, records, study, [{ deal: records[0]!.deal, ord: 0, name: d[0]!.key }]);
    s.close();
    let plan = -1;
    expect(await confirmRow(row, dir, V, 1000, undefined, { onPlan: (n) => (plan = n) })).toEqual([]);
    expect(plan).toBe(0);
    expect(existsSync(join(dir, lossesPath(row)))).toBe(false);
  });

  it('a losses file\'s line whose numbers cannot be read is left out (its deal is checked again)', () => {
    const text = 'deal,solver_positions,check,check_positions,check_budget,check_seconds\nSE1-7,100,lost,abc,16000000,0.50\nSE1-8,100,lost,150,16000000,0.50\nSE1-9,100,lost,150,,0.50\n';
    expect(parseLossesCsv(text).map((c) => c.deal)).toEqual(['SE1-8']);
  });

  it('a row not run yet: one line naming the command that runs it, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spidersolve-confirm-'));
    const err: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((t: string) => (err.push(String(t)), true)) as typeof process.stderr.write;
    try {
      expect(await resultsMain(['confirm', 'spiderette1'], dir)).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    // (the database named as it opens from the working folder: the row's folder is elsewhere)
    expect(err.join('')).toBe(`results: confirm spiderette1: the row has no results yet (no database, ${join(dir, 'data/results/spiderette1.sqlite')}, and no committed files); run npm run results -- spiderette1 first\n`);
  });

  it('a row committed but without its database here (a new checkout): the committed losses are checked', async () => {
    const dir = root();
    exportRow(row, dir, V);
    rmSync(join(dir, row.db));
    const searched: string[] = [];
    const checks = await confirmRow(row, dir, V, 1000, undefined, { check: async (deal) => (searched.push(deal), { status: 'lost', positions: 9, elapsedMs: 1, peakBytes: 0, line: [] }) });
    expect(searched).toEqual(['SE1-3', 'SE1-2152']);
    expect(checks.map((c) => [c.deal, c.solverPositions, c.check])).toEqual([['SE1-3', 60, 'lost'], ['SE1-2152', 184, 'lost']]);
  });

  it('confirms a true loss, leaves a false one undecided within its budget, writes the file, and does not check an answered deal again', async () => {
    const dir = root();
    const seen: string[] = [];
    const checks = await confirmRow(row, dir, V, 2000, (c) => seen.push(`${c.deal} ${c.check}`));
    expect(seen).toEqual(['SE1-3 undecided', 'SE1-2152 lost']);
    expect(checks.map((c) => [c.deal, c.solverPositions, c.check, c.checkPositions, c.checkBudget])).toEqual([
      ['SE1-3', 60, 'undecided', 2000, 2000],
      ['SE1-2152', 184, 'lost', 184, 2000],
    ]);
    const text = readFileSync(join(dir, lossesPath(row)), 'utf8');
    expect(text.split('\n')[0]).toBe('deal,solver_positions,check,check_positions,check_budget,check_seconds');
    expect(parseLossesCsv(text).map((c) => c.deal)).toEqual(['SE1-3', 'SE1-2152']);
    // again at the same budget: both answered, nothing searched (the times are the file's)
    const again = await confirmRow(row, dir, V, 2000);
    expect(again).toEqual(parseLossesCsv(text));
    // a larger budget checks the undecided deal again only
    const more: string[] = [];
    await confirmRow(row, dir, V, 3000, (c) => more.push(`${c.deal} ${c.check} ${c.checkBudget}`));
    expect(more).toEqual(['SE1-3 undecided 3000', 'SE1-2152 lost 2000']);
  });

  it('keeps the file\'s answer for a deal whose proof changed (another solver version), with the new proof\'s count', async () => {
    const dir = root();
    // SE1-2152 confirmed by an earlier check, whose proof stored 999 positions (the row's stores 184)
    const earlier: LossCheck = { deal: 'SE1-2152', solverPositions: 999, check: 'lost', checkPositions: 184, checkBudget: 2000, checkSeconds: 0.25 };
    writeFileSync(join(dir, lossesPath(row)), lossesCsv([earlier]));
    const searched: string[] = [];
    const checks = await confirmRow(row, dir, V, 2000, undefined, { check: async (deal) => (searched.push(deal), { status: 'undecided', positions: 2000, elapsedMs: 1, peakBytes: 0, line: [] }) });
    expect(searched).toEqual(['SE1-3']);
    expect(checks.map((c) => [c.deal, c.solverPositions, c.check, c.checkPositions, c.checkSeconds])).toEqual([
      ['SE1-3', 60, 'undecided', 2000, 0.001],
      ['SE1-2152', 184, 'lost', 184, 0.25],
    ]);
  });

  it("the row's page gives the check: confirmed, undecided (named), contradicted (named), not checked", () => {
    const c = (deal: string, check: LossCheck['check'], positions: number): LossCheck => ({ deal, solverPositions: 100, check, checkPositions: positions, checkBudget: 16_000_000, checkSeconds: 0.5 });
    const text = lossesCsv([c('SE1-7', 'lost', 150), c('SE1-8', 'undecided', 16_000_000), c('SE1-9', 'won', 900)]);
    const line = lossCheckLine(row, ['SE1-7', 'SE1-8', 'SE1-9', 'SE1-10'], text).join('\n');
    expect(line).toContain("without the solver's reductions and without its earlier stages (`npm run results -- confirm check`, src/solver/confirm.ts)");
    expect(line).toContain('1 of the 4 losses confirmed; 1 undecided at 16M positions (SE1-8); **1 contradicted** (won: SE1-9); 1 not checked yet. The confirmed checks stored 50 positions more than the solves in all, in 1.5 s; `data/results/check-losses.csv` lists each.');
    expect(lossCheckLine(row, ['SE1-7'], null).join('')).toContain('not run yet');
    // a check run above the default budget: the command that gives every answer names it
    const larger = lossesCsv([c('SE1-7', 'lost', 150), { ...c('SE1-8', 'lost', 20_000_000), checkBudget: 64_000_000 }]);
    expect(lossCheckLine(row, ['SE1-7', 'SE1-8'], larger).join('')).toContain('(`npm run results -- confirm check --budget 64000000`, src/solver/confirm.ts): 2 of the 2 losses confirmed; none contradicted.');
    expect(lossCheckLine(row, [], text)).toEqual([]);
  });

  it('the table shows the check under the row', async () => {
    const dir = root();
    await confirmRow(row, dir, V, 2000);
    const s = exportRow(row, dir, V);
    const md = renderTable([row], [s], () => readFileSync(join(dir, row.csv), 'utf8'), () => readFileSync(join(dir, lossesPath(row)), 'utf8'));
    expect(md).toContain('Lost (proven): SE1-3, SE1-2152. Undecided: none.');
    expect(md).toContain('1 of the 2 losses confirmed; 1 undecided at 2k positions (SE1-3); none contradicted.');
  });

  it('keeps every answer the file held, and refuses a database without the row\'s study', async () => {
    const dir = root();
    const old: LossCheck = { deal: 'SE1-999', solverPositions: 10, check: 'lost', checkPositions: 10, checkBudget: 16_000_000, checkSeconds: 0.1 };
    writeFileSync(join(dir, lossesPath(row)), lossesCsv([old]));
    const checks = await confirmRow(row, dir, V, 2000);
    expect(checks.map((c) => c.deal)).toEqual(['SE1-3', 'SE1-2152']);
    expect(parseLossesCsv(readFileSync(join(dir, lossesPath(row)), 'utf8')).map((c) => c.deal)).toEqual(['SE1-3', 'SE1-2152', 'SE1-999']);
    const other: ResultsRow = { ...row, study: 'results-other' };
    await expect(confirmRow(other, dir, V, 2000)).rejects.toThrow(`database ${join(dir, 'data/results/check.sqlite')} holds no study "results-other": it is not this row's database; run npm run results -- check to make it`);
  });

  it('names only the budgets of the checks left undecided', () => {
    const c = (deal: string, check: LossCheck['check'], budget: number): LossCheck => ({ deal, solverPositions: 100, check, checkPositions: 100, checkBudget: budget, checkSeconds: 0.5 });
    const line = lossCheckLine(row, ['SE1-7', 'SE1-8'], lossesCsv([c('SE1-7', 'lost', 100_000), c('SE1-8', 'undecided', 1000)])).join('');
    expect(line).toContain('1 of the 2 losses confirmed; 1 undecided at 1k positions (SE1-8); none contradicted.');
  });

  it('refuses to replace a row\'s committed files by a smaller row (a fresh clone has no databases)', () => {
    const dir = root();
    exportRow(row, dir, V); // the committed files: 3 deals
    expect(shrinkRefusal(row, dir, 3, 'export check')).toBeNull();
    expect(shrinkRefusal(row, dir, 2, 'check --limit 2')).toBe(
      'check --limit 2: would shrink the committed row from 3 to 2 deals; rebuild it first: npm run results -- check --limit 3 --rebuild',
    );
    expect(shrinkRefusal(row, dir, 0, 'export check')).toBe('export check: would shrink the committed row from 3 to 0 deals; rebuild it first: npm run results -- check --limit 3 --rebuild');
  });
});
