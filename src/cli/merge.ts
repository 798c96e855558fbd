/**
 * The `merge` command: option parsing and printing only; the work is in src/batch/merge.ts.
 * Bad input (a file that is not ours, a newer schema, a conflict) throws InputError: main.ts prints
 * `spidersolve: <message>` and exits 2, and the target is left as it was.
 */
import type { Command } from 'commander';
import { mergeDatabases, type MergeCounts, type MergeSummary } from '../batch/merge.js';
import { isPartial, partialStudyNotes, type StudyCompleteness } from '../batch/report.js';
import { ResultStore } from '../batch/store.js';
import { printableName } from './batch.js';

function counts(table: string, c: MergeCounts | undefined): string {
  if (!c) return `${table} -`;
  return `${table} ${c.added} added, ${c.present} already there${c.updated ? `, ${c.updated} updated` : ''}`;
}

/**
 * The text summary of a merge (stdout). `studies` (the target's, after the merge) adds one line a
 * study: `study X: 20 of 20 planned deals counted`, or the partialStudyNotes warning when it is short.
 */
export function formatMergeSummary(s: MergeSummary, studies: readonly StudyCompleteness[] = []): string {
  const tables = Object.keys(s.totals);
  const merged = s.inputs.filter((i) => i.skipped === null).length;
  const lines = [`merged ${merged} database${merged === 1 ? '' : 's'} into ${s.into}${s.created ? ' (new)' : ''} in ${(s.elapsedMs / 1000).toFixed(1)} s`];
  for (const i of s.inputs) {
    lines.push(i.skipped ? `  ${i.path}: skipped, ${i.skipped}` : `  ${i.path}: ${tables.map((t) => counts(t, i.tables[t])).join('; ')}`);
  }
  lines.push(`  in all: ${tables.map((t) => counts(t, s.totals[t])).join('; ')}`);
  for (const st of studies) {
    if (isPartial(st)) lines.push(`  ${partialStudyNotes([st], printableName)[0]}`);
    else lines.push(`  study ${printableName(st.name)}: ${st.counted.toLocaleString('en-US')}${st.planned === null ? ' deals counted' : ` of ${st.planned.toLocaleString('en-US')} planned deals counted`}`);
  }
  return lines.join('\n') + '\n';
}

/** Adds `merge` to the program (called by src/cli/main.ts). */
export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description('copy the studies, runs, results and links of databases (e.g. the shards of a study) into one; idempotent, refuses conflicts')
    .argument('<files...>', 'spidersolve results databases to merge (e.g. shards/shard-*.sqlite)')
    .requiredOption('--into <file>', 'the database to merge into (created if absent)')
    .option('--json', 'print one JSON object instead of the text summary')
    .addHelpText(
      'after',
      '\nEach input is merged in one transaction. Rows are matched by their natural keys (studies by name, ' +
        'results by deal code, budget and solver version), so merging twice adds nothing. A conflict (the same ' +
        'deal, budget and solver version with different results, or one study name with other parameters), a file ' +
        'that is not a spidersolve database or one with a newer schema refuses the whole merge before anything is ' +
        'written.\nExit status: 0 merged, 2 refused (one line on stderr; the target is left as it was).',
    )
    .action((files: string[], o: { into: string; json?: boolean }) => {
      const s = mergeDatabases(o.into, files);
      // the target's studies after the merge: a study still short of its plan (a shard missing) is said
      const store = ResultStore.openForReading(o.into);
      let studies: StudyCompleteness[];
      try {
        studies = store.studies().map(({ name, planned, counted, stoppedAt }) => ({ name, planned, counted, stoppedAt }));
      } finally {
        store.close();
      }
      const json = { ...s, studies: studies.map((st) => ({ ...st, partial: isPartial(st) })) };
      process.stdout.write(o.json ? JSON.stringify(json) + '\n' : formatMergeSummary(s, studies));
    });
}
