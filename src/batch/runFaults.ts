/**
 * The faults that stop a batch while it runs, as one-line FileFaults (faults.ts) for the user: the
 * disk (full, an I/O error), another program holding the database locked too long, and the database
 * file deleted or replaced under the batch. runState.ts (BatchRun.fault) turns every error of a run
 * into one of these where it is one, in one place.
 */
import { FileFault, isBusyDatabase, oneLine, storageFaultKind } from './faults.js';
import type { BlindRecord } from './blind.js';
import type { DealLink, ResultRecord, ResultStore } from './store.js';

/**
 * A FileFault for a batch stopped by the disk (`storageFaultKind`: full, or an I/O error), or by
 * another program holding the database locked past BUSY_GIVE_UP_MS (isBusyDatabase), while it
 * wrote `path`, saying which file, what was kept (every result written before: `written` of this
 * run), what became of the run (`marked`: marked failed, or could not be; null when no run was
 * started yet) and how to go on; null when `e` is no such fault.
 */
export function storageFault(e: unknown, path: string, written: number, marked: boolean | null): FileFault | null {
  const run = marked === null ? '' : marked ? '; the run is marked failed' : '; the run could not be marked failed: it shows as running, then (once this process has ended) as abandoned';
  if (isBusyDatabase(e)) {
    const why = `another program held it locked for too long (${String((e as { code?: unknown }).code)}: ${oneLine(e)})`;
    if (marked === null) return new FileFault(path, `database ${path}: ${why}; nothing was run; run the same command again when the other program is done`);
    return new FileFault(path, `database ${path}: ${why}; the batch stopped: every result stored before it is kept (${written} of this run), the deals it had solved since are run again when it resumes${run}; run the same command again when the other program is done`);
  }
  const kind = storageFaultKind(e);
  if (kind === null) return null;
  const code = String((e as { code?: unknown }).code);
  const what = kind === 'full' ? `the disk is full (${code})` : `the disk reported an I/O error (${code}: ${oneLine(e)})`;
  const kept = kind === 'full'
    ? `every result stored before it is kept (${written} of this run)`
    : `every result stored before it is kept as far as the disk kept it (${written} of this run)`;
  const next = kind === 'full' ? 'free some space, then run the same command again to resume' : 'check the disk, then run the same command again to resume';
  return new FileFault(path, `database ${path}: ${what}; the batch stopped: ${kept}${run}; ${next}`);
}

/**
 * The fault of a batch whose database file was deleted, or replaced by another file, while it ran
 * (`where`). The connection still holds the old file: the results not yet written (`pending`), and
 * the links of deals to study `studyId` not yet written (`links`), go into it, the run is marked
 * failed there, and the whole old file is copied (VACUUM INTO) beside the path as
 * `<path>.rescued-<UTC time>.sqlite`, so that nothing is lost; nothing is written to the path.
 * The message says what happened, where the results are and how to go on.
 */
export function databaseGoneFault(store: ResultStore, where: 'deleted' | 'replaced', runId: number, pending: readonly ResultRecord[], written: number, studyId: number | null = null, links: readonly DealLink[] = [], blind: readonly BlindRecord[] = []): FileFault {
  const path = store.path;
  let stored = written;
  let rescue: string | null = null;
  let why = '';
  try {
    // with the study's links of those deals, so that the rescued study counts every result it holds
    if (pending.length > 0 || links.length > 0 || blind.length > 0) {
      store.writeResults(runId, pending, studyId, links, blind);
      stored += pending.length + blind.length;
    }
    store.finishRun(runId, 'failed');
    const target = `${path}.rescued-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}.sqlite`;
    store.saveCopy(target);
    rescue = target;
  } catch (e) {
    why = oneLine(e);
  }
  const what = where === 'deleted' ? 'was deleted (or moved away)' : 'was replaced by another file';
  const kept = rescue
    ? `the ${stored} results of this run, with every result the old file held, are saved in ${rescue}; to go on, move that file back to ${path} (or give --db ${rescue}) and run the same command again`
    : `the ${stored} results of this run went with the old file (a copy could not be saved: ${why}); run the same command again to redo them`;
  return new FileFault(path, `database ${path} ${what} while the batch was writing it; stopped, nothing was written to ${where === 'deleted' ? 'that path' : 'the new file'}; ${kept}`);
}
