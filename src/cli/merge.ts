/**
 * The `merge` command: option parsing and printing only; the work is in src/batch/merge.ts.
 * Bad input (a file that is not ours, a newer schema, a damaged input, a conflict) throws InputError:
 * main.ts prints `spidersolve: <message>` and exits 2, and the target is left as it was.
 */
import type { Command } from 'commander';
import { mergeDatabases, type MergeCounts, type MergeSummary } from '../batch/merge.js';
import { isPartial, type StudyCompleteness } from '../batch/report.js';
import { partialStudyNotes } from '../report/text.js';
import { ResultStore } from '../batch/store.js';
import { printableName } from './batch.js';
import { QUIET_HELP } from './common.js';

function counts(table: string, c: MergeCounts | undefined): string {
  if (!c) return `${table} -`;
  return `${table} ${c.added} added, ${c.present} already there${c.updated ? `, ${c.updated} updated` : ''}`;
}

/**
 * The text summary of a merge (stdout). `studies` (the target's, after the merge) adds one line a
 * study: `study X: 20 of 20 planned deals counted`, or the partialStudyNotes warnings when it is short
 * (fewer deals counted than planned, or a ladder not yet taken to its last rung).
 */
export function formatMergeSummary(s: MergeSummary, studies: readonly StudyCompleteness[] = []): string {
  const tables = Object.keys(s.totals);
  const merged = s.inputs.filter((i) => i.skipped === null).length;
  // (paths as given, with control and invisible characters written as \u{hex}, as study names are)
  const lines = [`merged ${merged} database${merged === 1 ? '' : 's'} into ${printableName(s.into)}${s.created ? ' (new)' : ''} in ${(s.elapsedMs / 1000).toFixed(1)} s`];
  for (const i of s.inputs) {
    const path = printableName(i.path);
    lines.push(i.skipped ? `  ${path}: skipped, ${i.skipped}` : `  ${path}: ${tables.map((t) => counts(t, i.tables[t])).join('; ')}`);
  }
  lines.push(`  in all: ${tables.map((t) => counts(t, s.totals[t])).join('; ')}`);
  for (const st of studies) {
    if (isPartial(st)) for (const note of partialStudyNotes([st], printableName)) lines.push(`  ${note}`);
    else lines.push(`  study ${printableName(st.name)}: ${st.counted.toLocaleString('en-US')}${st.planned === null ? ' deals counted' : ` of ${st.planned.toLocaleString('en-US')} planned deals counted`}`);
  }
  return lines.join('\n') + '\n';
}

/** Adds `merge` to the program (called by src/cli/main.ts). */
export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description('copy the studies, runs, results, deal names and study links of databases (e.g. a study\'s shards) into one; idempotent, refuses conflicts')
    .argument('<files...>', 'spidersolve results databases to merge (e.g. shards/shard-*.sqlite)')
    .requiredOption('--into <file>', 'the database to merge into (created, with its directory, if absent)')
    .option('--quiet', QUIET_HELP)
    .option('--json', 'print one JSON object { into, created, inputs: [{ path, skipped, tables: { studies, runs, results, blind_results (only when the merge met blind games), deal_names, study_deals: { added, present, updated } } }], totals, elapsedMs, studies: [{ name, planned, counted, stoppedAt, unfinished, untilWidth, partial }] } instead of the text summary')
    .addHelpText(
      'after',
      '\nPrints, for each input and in all, the rows of each table added, already there and updated, then for each study of ' +
        'the target how many of its planned deals it counts (partial: missing shards or an unfinished run). ' +
        'Rows are matched by their natural keys, never by ids (a study by name, a run by uid, a result by deal, budget and ' +
        'solver version, a deal name by deal and name, a study link by study and deal), so merging twice adds nothing, and ' +
        'an input that is the target is skipped (a glob that also matches it), as is another name (a link) of an input ' +
        'given before; but the target as the only input, or one name given twice, is refused (exit 2). An error result is replaced by a settled one, never the reverse. ' +
        'Inputs are only read (an older schema is upgraded in a temporary copy).\nChecks, before anything is written: ' +
        "each input is read whole by SQLite's integrity check, and every row is checked: each deal code with its check " +
        'characters, status, positions and budget consistent, and each won line replayed through the rules engine to a ' +
        'win in its stored number of moves, with its scores (a line the target holds already is not replayed again). A ' +
        'damaged input, a conflict (the same deal, budget and solver version with different results, or one study name ' +
        'with other parameters), a missing file, a file that is not a spidersolve database or one with a newer schema ' +
        'refuses the whole merge before anything is written: one line naming the file and its first bad row. Then every ' +
        'input is merged in one transaction: all of them or, on any failure, none. A merge that adds nothing leaves the ' +
        'target byte for byte as it was.\nExit codes: 0 merged, 2 refused (one line on stderr; the target is left as it ' +
        'was, nothing of any input merged), 1 internal error. A target that another program keeps locked for over 60 s ' +
        '(a second merge into the same target waits that long for the first to finish), or a full disk, also exits 1, ' +
        'with one line naming it; nothing is merged then either.',
    )
    .action((files: string[], o: { into: string; json?: boolean; quiet?: boolean }) => {
      const s = mergeDatabases(o.into, files);
      // the target's studies after the merge: a study still short of its plan (a shard missing) is said
      const store = ResultStore.openForReading(o.into);
      let studies: StudyCompleteness[];
      try {
        // (sharded: whether a partial study's line may name missing shards, or only an unfinished run)
        studies = store.studies().map(({ name, planned, counted, stoppedAt, unfinished, untilWidth, sharded }) => ({ name, planned, counted, stoppedAt, unfinished, untilWidth, ...(sharded === undefined ? {} : { sharded }) }));
      } finally {
        store.close();
      }
      const json = { ...s, studies: studies.map(({ sharded: _, ...st }) => ({ ...st, partial: isPartial(st) })) };
      process.stdout.write(o.json ? JSON.stringify(json) + '\n' : formatMergeSummary(s, studies));
    });
}
