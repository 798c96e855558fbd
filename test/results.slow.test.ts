/**
 * `npm run results` end to end on a small slice, in a scratch folder: a row run whole, grown with a
 * larger --limit (resumed: only the new deals solved), and the same slice run as two shards and
 * merged, which must give the same per-deal CSV byte for byte; and the slice's first deals committed
 * without their database (a new checkout), the row grown from them. Runs real solves (Spider 1 suit,
 * PySolFC numbers 1-8, a second or two) through `spidersolve batch` in child processes.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultsMain } from '../src/results/cli.js';
import { readSummary, summaryPath } from '../src/results/export.js';
import { findRow } from '../src/results/rows.js';

const row = findRow('spider1')!;

describe('npm run results', () => {
  it('runs a slice, grows it, and gives the same CSV from two shards merged', async () => {
    // a rows' folder that does not exist yet is made
    const whole = join(mkdtempSync(join(tmpdir(), 'spidersolve-results-whole-')), 'not-yet');
    expect(await resultsMain(['spider1', '--limit', '6', '--workers', '1'], whole)).toBe(0);
    expect(await resultsMain(['spider1', '--limit', '8', '--workers', '1'], whole)).toBe(0);
    const csv = readFileSync(join(whole, row.csv), 'utf8');
    expect(csv.split('\n').slice(0, 2)).toEqual(['deal,status,budget,positions,total_positions,moves', expect.stringMatching(/^pysol:spider1:1,won,1000000,\d+,\d+,\d+$/)]);
    expect(csv.trim().split('\n')).toHaveLength(9);
    const s = readSummary(summaryPath(row, whole))!;
    expect(s.sittings.map((x) => [x.command, x.dealsBefore, x.dealsAfter, x.exit])).toEqual([
      ['npm run results -- spider1 --limit 6 --workers 1', 0, 6, 0],
      ['npm run results -- spider1 --limit 8 --workers 1', 6, 8, 0],
    ]);
    expect(s.sittings.every((x) => x.cpuSeconds > 0)).toBe(true);
    expect(s).toMatchObject({ counted: 8, planned: 10000, complete: false });

    // the shards' default databases are under the rows' folder, not the working folder
    const sharded = mkdtempSync(join(tmpdir(), 'spidersolve-results-shards-'));
    const dbs = [0, 1].map((k) => join(sharded, `data/results/shards/spider1-${k}.sqlite`));
    for (const k of [0, 1]) expect(await resultsMain(['spider1', '--shard', `${k}/2`, '--limit', '8', '--workers', '1'], sharded)).toBe(0);
    expect(dbs.every((f) => existsSync(f))).toBe(true);
    expect(await resultsMain(['merge', 'spider1', ...dbs], sharded)).toBe(0);
    expect(readFileSync(join(sharded, row.csv), 'utf8')).toBe(csv);
    const m = readSummary(summaryPath(row, sharded))!;
    expect(m.top).toEqual(s.top);
    expect(m.sittings.map((x) => x.command)).toEqual(['npm run results -- spider1 --limit 8 --shard 0/2 --workers 1', 'npm run results -- spider1 --limit 8 --shard 1/2 --workers 1']);
    expect(m.sittings.reduce((a, x) => a + x.dealsAfter - x.dealsBefore, 0)).toBe(8);
    // merging again adds nothing, the sittings included
    expect(await resultsMain(['merge', 'spider1', ...dbs], sharded)).toBe(0);
    expect(readSummary(summaryPath(row, sharded))!.sittings).toHaveLength(2);

    // a new checkout: the committed files of the first 6 deals, no database; the row goes on after them
    const carried = mkdtempSync(join(tmpdir(), 'spidersolve-results-carried-'));
    const first = mkdtempSync(join(tmpdir(), 'spidersolve-results-first-'));
    expect(await resultsMain(['spider1', '--limit', '6', '--workers', '1'], first)).toBe(0);
    cpSync(join(first, 'data'), join(carried, 'data'), { recursive: true });
    rmSync(join(carried, row.db));
    expect(await resultsMain(['spider1', '--limit', '6'], carried)).toBe(0); // nothing to run
    expect(existsSync(join(carried, row.db))).toBe(false);
    expect(await resultsMain(['spider1', '--limit', '8', '--workers', '1'], carried)).toBe(0);
    expect(readFileSync(join(carried, row.csv), 'utf8')).toBe(csv);
    const c = readSummary(summaryPath(row, carried))!;
    expect(c.rungs).toEqual(s.rungs);
    expect(c.carried).toMatchObject({ deals: 6, rerun: [] });
    expect(c.sittings.map((x) => [x.dealsBefore, x.dealsAfter])).toEqual([[0, 6], [6, 8]]);
    // its database holds the two deals run now; --rebuild refuses it
    expect(await resultsMain(['spider1', '--limit', '8', '--rebuild'], carried)).toBe(2);

    // --rebuild with no database: every deal solved again, the same CSV, and the sitting counts them
    const rebuilt = mkdtempSync(join(tmpdir(), 'spidersolve-results-rebuilt-'));
    cpSync(join(whole, 'data'), join(rebuilt, 'data'), { recursive: true });
    rmSync(join(rebuilt, row.db));
    expect(await resultsMain(['spider1', '--limit', '8', '--workers', '1', '--rebuild'], rebuilt)).toBe(0);
    expect(readFileSync(join(rebuilt, row.csv), 'utf8')).toBe(csv);
    const r = readSummary(summaryPath(row, rebuilt))!;
    expect(r.carried).toBeUndefined();
    expect(r.sittings.at(-1)).toMatchObject({ command: 'npm run results -- spider1 --limit 8 --workers 1 --rebuild', dealsBefore: 0, dealsAfter: 8 });
  }, 300_000);
});
