/**
 * `spidersolve merge`: copies the studies, runs, results, blind games, deal names and study links of several
 * results databases (the shards of a study run on a cluster, one file each) into one.
 *
 * Rows are matched by their **natural key**, never by their ids (each file numbers its rows itself):
 * a study by its name, a run by its uid, a result by (deal, budget, solver version), a deal's name by
 * (deal, name), a study's link to a deal by (study, deal). A column that holds another table's id
 * (`runs.study_id`, `results.run_id`, `study_deals.study_id`) is compared by that row's natural key
 * and rewritten to the target's id. What each table's key is, which
 * columns must agree, and which may be brought up to date, is data (`MERGE_TABLES`), so that a new
 * table or column of the schema is one entry or one name here.
 *
 * Guarantees:
 * - Every input is checked before anything is written: a file that is not a spidersolve database, has
 *   a newer schema or cannot be read (a WAL-mode file in a folder SQLite cannot write beside it); a
 *   **damaged** file (verify.ts: SQLite's integrity check, a dangling reference, or a row whose deal
 *   code fails its check characters, whose status, positions and budget disagree, or whose won line
 *   does not replay to a win in its stored moves), named with its first bad row; and any **conflict**
 *   — the same deal, budget and solver version with a different result (status, positions, line,
 *   move count or scores) in two files, or one study name with two sets of parameters — refuses the
 *   whole merge (InputError, naming the rows and the files), and the target is left as it was (not
 *   even created).
 * - All or nothing: every input is copied in one transaction, so a failure while writing (a full
 *   disk, a lock held past MERGE_BUSY_TIMEOUT_MS, a conflict with rows another merge or batch wrote
 *   since the check) or a crash leaves the target as it was, and running the same merge again does it.
 * - A merge with nothing to add or update does not open the target for writing: its bytes stay the same.
 * - Idempotent: a row already in the target adds nothing (merging twice adds nothing). An `error`
 *   result is replaced by a settled one from another file (as a resumed batch does); a settled result
 *   is never replaced by an error. A run recorded as `running` is brought up to date by a later copy of
 *   the same run (finished, or with a newer heartbeat).
 * - Inputs are only read. An input with an older schema is copied (VACUUM INTO a temporary file) and
 *   the copy migrated (and checked).
 * - Memory: the check holds, for every row of the target and the inputs, its natural key, a hash of
 *   its compared values and what `settle` reads (a few hundred bytes a result with its links), and a
 *   digest of each won line replayed or found in the target (verify.ts ReplayCache).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { InputError, pathForMessage } from '../game/errors.js';
import { FileFault, isBusyDatabase, isDamagedDatabase, noteDatabase, oneLine, storageFaultKind } from './faults.js';
import { checkSchema, inspectDatabaseFile, migrate, SCHEMA_VERSION } from './schema.js';
import { BUSY_TIMEOUT_MS, ResultStore } from './store.js';
import { paramsFieldPairs } from './studyParams.js';
import { databaseFiles, sameFileAs } from './files.js';
import { ReplayCache, verifyDatabase, type VerifyFault } from './verify.js';

/** A row as better-sqlite3 returns it. */
type Row = Record<string, unknown>;

/** What to do with an incoming row whose natural key is already there. */
type Settle = 'keep' | 'replace' | 'conflict';

/** How one table is merged. */
export interface MergeTable {
  readonly table: string;
  /** Natural key: the columns that identify a row in every file (unique in the schema). */
  readonly key: readonly string[];
  /** Columns holding another table's `id`: compared by that row's natural key, rewritten to the target's id. */
  readonly refs?: Readonly<Record<string, string>>;
  /** Columns that must be equal when the key matches (else `settle` decides; default: conflict). */
  readonly agree?: readonly string[];
  /** Decides between an existing row and an incoming one whose `agree` columns differ. */
  readonly settle?: (existing: Row, incoming: Row) => Settle;
  /** The columns `settle` reads of the existing row (the check keeps only these and a hash of the rest). */
  readonly settleOn?: readonly string[];
  /** Columns an existing row takes from the incoming one when `refreshWhen` says so (e.g. a run's end). */
  readonly refresh?: readonly string[];
  readonly refreshWhen?: (existing: Row, incoming: Row) => boolean;
  /** Columns `refreshWhen` reads of the existing row besides `refresh`. */
  readonly refreshOn?: readonly string[];
  /** A row's name in messages, from its key columns and `shown`. */
  readonly describe: (row: Row) => string;
  /** Columns besides the key that `describe` reads. */
  readonly shown?: readonly string[];
}

/**
 * The tables of the schema (version 3), parents before children, with their natural keys (the
 * comment of migration 2 in schema.ts lists them).
 */
export const MERGE_TABLES: readonly MergeTable[] = [
  {
    table: 'studies',
    key: ['name'],
    // the study's design (game, suits, deals, budgets, stopping rule) as canonical JSON
    agree: ['params'],
    // a deals file's study may have grown (lines added at its end) in one copy: the longer plan is the
    // study's, so that no merge counts more deals than it plans (not a study stopped by its rule)
    refresh: ['planned'],
    refreshOn: ['stopped_at'],
    refreshWhen: (e, i) => e.stopped_at == null && i.stopped_at == null && e.planned != null && i.planned != null && Number(i.planned) > Number(e.planned),
    describe: (r) => `study "${String(r.name)}"`,
  },
  {
    table: 'runs',
    key: ['uid'],
    refs: { study_id: 'studies' },
    refresh: ['finished_at', 'status', 'planned', 'skipped', 'completed', 'errors', 'heartbeat_at', 'note'],
    // a copy of a run taken while it ran, brought up to date by a later copy; and one that a batch on
    // the target marked abandoned meanwhile (its process was not there to be seen), by a copy that
    // the run itself finished (or one of later heartbeat)
    refreshWhen: (e, i) => {
      const later = String(i.heartbeat_at ?? '') > String(e.heartbeat_at ?? '');
      if (e.status === 'running') return i.status !== 'running' || later;
      if (e.status === 'abandoned') return (i.status !== 'running' && i.status !== 'abandoned') || (i.status === 'abandoned' && later);
      return false;
    },
    describe: (r) => `run ${String(r.uid)}`,
  },
  {
    table: 'results',
    key: ['deal', 'max_positions', 'solver_version'],
    refs: { run_id: 'runs' },
    agree: ['status', 'positions', 'move_count', 'line', 'classic_score', 'reveal_score'],
    settle: (e, i) => {
      if (i.status === 'error') return 'keep'; // never replace anything by an error
      if (e.status === 'error') return 'replace'; // an error is run again; a settled result takes its place
      return 'conflict';
    },
    settleOn: ['status'],
    describe: (r) => `deal ${String(r.code ?? r.deal)} at ${String(r.max_positions)} positions, solver ${String(r.solver_version)}`,
    shown: ['code'],
  },
  {
    // blind games (schema 3): one per deal, player, player seed and version
    table: 'blind_results',
    key: ['deal', 'player', 'player_seed', 'version'],
    refs: { run_id: 'runs' },
    agree: ['status', 'completed', 'move_count', 'line'],
    settle: (e, i) => {
      if (i.status === 'error') return 'keep'; // never replace anything by an error
      if (e.status === 'error') return 'replace'; // an error is played again; a settled game takes its place
      return 'conflict';
    },
    settleOn: ['status'],
    describe: (r) => `deal ${String(r.code ?? r.deal)} played blind by ${String(r.player)}, player seed ${String(r.player_seed)}, version ${String(r.version)}`,
    shown: ['code'],
  },
  {
    table: 'deal_names',
    key: ['deal', 'name'],
    describe: (r) => `name ${String(r.name)} of deal ${String(r.deal)}`,
  },
  {
    table: 'study_deals',
    key: ['study_id', 'deal'],
    refs: { study_id: 'studies' },
    agree: ['ord', 'name'],
    // a deal planned twice under two names (two places) is counted once, at its first place, as one
    // run does; two shards may each have reached it at one of them
    settle: (e, i) => (Number(i.ord) < Number(e.ord) ? 'replace' : 'keep'),
    settleOn: ['ord'],
    describe: (r) => `deal ${String(r.deal)} of a study`,
  },
];

/** What merging one input did, in rows per table. */
export interface MergeCounts {
  /** Rows copied in. */
  added: number;
  /** Rows already in the target (same key; nothing to do). */
  present: number;
  /** Existing rows replaced (an error result by a settled one) or brought up to date (a finished run). */
  updated: number;
}

/** One input's part of the merge. */
export interface MergeInputSummary {
  /** The path as given. */
  path: string;
  /** Why it was not merged (e.g. it is the target itself), or null. */
  skipped: string | null;
  tables: Record<string, MergeCounts>;
}

/** What `mergeDatabases` did. */
export interface MergeSummary {
  into: string;
  /** The target did not exist before. */
  created: boolean;
  inputs: MergeInputSummary[];
  /** Sums over the inputs, per table. */
  totals: Record<string, MergeCounts>;
  elapsedMs: number;
}

/** Largest number of conflicts named in the message of a refused merge. */
const MAX_CONFLICTS_SHOWN = 5;

function q(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function fmt(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  const s = typeof v === 'string' ? v : String(v);
  return s.length > 60 ? `"${s.slice(0, 57)}..."` : typeof v === 'string' ? `"${s}"` : s;
}

/**
 * Two differing values as a conflict shows them: as fmt shows them when both are short; else each cut
 * to the same window, from a little before their first difference, so that the difference shows
 * (two study parameters that differ in their budget, two lines that differ near their end).
 */
function fmtPair(a: unknown, b: unknown): [string, string] {
  if (typeof a !== 'string' || typeof b !== 'string' || (a.length <= 60 && b.length <= 60)) return [fmt(a), fmt(b)];
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  const cut = (s: string) => `"${from > 0 ? '...' : ''}${s.slice(from, from + 57)}${from + 57 < s.length ? '...' : ''}"`;
  return [cut(a), cut(b)];
}

/**
 * The fields that differ between two studies' `params` (JSON texts), as batch names them
 * (studyParams.ts paramsFieldPairs: [name, value in a, value in b], a blind study against a solve
 * study first, named ''); null when either is not a JSON object or none differs, for the caller to
 * show the texts.
 */
function jsonFieldPairs(a: unknown, b: unknown): [string, string, string][] | null {
  const parse = (x: unknown): Record<string, unknown> | null => {
    if (typeof x !== 'string') return null;
    try {
      const v: unknown = JSON.parse(x);
      return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return null;
  const pairs = paramsFieldPairs(pa, pb);
  return pairs.length ? pairs : null;
}

/** Column names of a table, in order, with whether it has an INTEGER PRIMARY KEY `id`. */
function columnsOf(db: Database.Database, table: string): { cols: string[]; hasId: boolean } {
  const info = db.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(table) as { name: string; pk: number }[];
  if (info.length === 0) throw new Error(`merge: table ${table} is missing`);
  const hasId = info.some((c) => c.name === 'id' && c.pk === 1);
  return { cols: info.map((c) => c.name).filter((c) => !(hasId && c === 'id')), hasId };
}

/** A read-only view of one database for the merge: natural keys of its rows. */
class Source {
  readonly db: Database.Database;
  readonly #byId = new Map<string, Database.Statement>();
  readonly #natKeys = new Map<string, Map<unknown, string>>();

  constructor(db: Database.Database) {
    this.db = db;
  }

  /** The natural key of `row` of `spec`'s table as one string (refs replaced by their rows' keys). */
  natKey(spec: MergeTable, row: Row): string {
    return JSON.stringify(spec.key.map((c) => (spec.refs?.[c] ? this.refKey(spec.refs[c]!, row[c]) : row[c] ?? null)));
  }

  /** The natural key of row `id` of `table` (memoised), or null for a null or dangling id. */
  refKey(table: string, id: unknown): string | null {
    if (id === null || id === undefined) return null;
    let memo = this.#natKeys.get(table);
    if (!memo) this.#natKeys.set(table, (memo = new Map()));
    const hit = memo.get(id);
    if (hit !== undefined) return hit;
    let stmt = this.#byId.get(table);
    if (!stmt) this.#byId.set(table, (stmt = this.db.prepare(`SELECT * FROM ${q(table)} WHERE id = ?`)));
    const row = stmt.get(id) as Row | undefined;
    const spec = MERGE_TABLES.find((t) => t.table === table);
    if (!row || !spec) return null;
    const k = this.natKey(spec, row);
    memo.set(id, k);
    return k;
  }
}

/** A checked input: where it is read from, and what to remove afterwards. */
interface OpenInput {
  path: string;
  db: Database.Database;
  tmpDir: string | null;
}

/**
 * inspectDatabaseFile for merge: its InputError (`database FILE: …; left untouched (use another --db
 * path)`) said as `merge: input FILE: …` or `merge: target FILE (--into): …`, without the --db advice
 * (merge has no --db).
 */
function inspectFor(role: 'input' | 'target', path: string): ReturnType<typeof inspectDatabaseFile> {
  try {
    return inspectDatabaseFile(path);
  } catch (e) {
    throw asMergeError(e, role, path);
  }
}

/**
 * An InputError about database `path` reworded for merge (see inspectFor), and a FileFault of the
 * target's opening (a full disk) told as merge's; anything else as it is.
 */
function asMergeError(e: unknown, role: 'input' | 'target', path: string): unknown {
  if (!(e instanceof InputError) && !(e instanceof FileFault)) return e;
  const prefix = `database ${pathForMessage(path)}: `;
  const what = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
  if (e instanceof FileFault) {
    return new FileFault(e.path, `merge: target ${pathForMessage(path)} (--into): ${what.replace('nothing was run', 'nothing was merged').replace('run the same command again', 'run the same merge again')}`);
  }
  return new InputError(e.code, `merge: ${role === 'input' ? 'input' : 'target'} ${pathForMessage(path)}${role === 'target' ? ' (--into)' : ''}: ${what.replace(/ \(use another --db path\)/, '')}`);
}

/**
 * checkSchema for merge: a table or column gone is refused as merge says it (asMergeError), the
 * database closed. Damage SQLite meets reading the schema is left to the reading of the rows, which
 * says it (`the file is damaged (SQLite: …); nothing was written to …`).
 */
function checkSchemaFor(role: 'input' | 'target', db: Database.Database, path: string): void {
  try {
    checkSchema(db, path);
  } catch (e) {
    if (!(e instanceof InputError)) return;
    db.close();
    throw asMergeError(e, role, path);
  }
}

/**
 * Reads the first page of the input `path` through `db` (read-only): a file left in WAL mode (its
 * batch killed) without its -shm beside it, in a folder that cannot be written, fails here, as
 * SQLite must make the -shm to read it. Refused as report, studies and export refuse it
 * (InputError, one line, exit 2), the connection closed; any other error is left to the reading.
 */
function probeRead(db: Database.Database, path: string, walMode: boolean): void {
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (e) {
    if (!String((e as { code?: unknown }).code ?? '').startsWith('SQLITE_READONLY')) return;
    db.close();
    throw new InputError(
      'bad-file',
      walMode
        ? `merge: input ${pathForMessage(path)}: cannot read it here: it is in WAL mode (the batch that wrote it did not close it) and SQLite must make ${pathForMessage(`${path}-shm`)} beside it, in a folder it cannot write; ` +
            `copy its -wal and -shm files with it, or merge it from a folder you can write (SQLite: ${oneLine(e)}); nothing was merged`
        : `merge: input ${pathForMessage(path)}: cannot read it here: SQLite must write beside it, in a folder it cannot write; merge it from a folder you can write (SQLite: ${oneLine(e)}); nothing was merged`,
    );
  }
}

/** probeRead for the target, opened read-only for the checks: its refusal names it as the target. */
function probeTarget(db: Database.Database, path: string, walMode: boolean): void {
  try {
    probeRead(db, path, walMode);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    throw new InputError('bad-file', e.message.replace(`merge: input ${pathForMessage(path)}:`, `merge: target ${pathForMessage(path)} (--into):`));
  }
}

function openInput(path: string): OpenInput {
  const state = inspectFor('input', path);
  if (state.kind === 'absent') throw new InputError('bad-file', `merge: input ${pathForMessage(path)}: no such file`);
  if (state.kind === 'fresh') throw new InputError('bad-file', `merge: input ${pathForMessage(path)}: an empty file, not a spidersolve results database`);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  } catch (e) {
    throw new InputError('bad-file', `merge: input ${pathForMessage(path)}: cannot open it (${oneLine(e)})`);
  }
  probeRead(db, path, state.walMode);
  if (state.version === SCHEMA_VERSION) {
    checkSchemaFor('input', db, path);
    return { path, db, tmpDir: null };
  }
  // an older schema: migrate a copy, never the input
  const tmpDir = mkdtempSync(join(tmpdir(), 'spidersolve-merge-'));
  try {
    const copy = join(tmpDir, 'input.sqlite');
    db.prepare('VACUUM INTO ?').run(copy);
    db.close();
    const w = new Database(copy);
    migrate(w);
    w.close();
    return { path, db: new Database(copy, { readonly: true }), tmpDir };
  } catch (e) {
    db.close();
    rmSync(tmpDir, { recursive: true, force: true });
    throw new InputError('bad-file', `merge: input ${pathForMessage(path)}: cannot upgrade a copy of its schema version ${state.version} (${oneLine(e)})`);
  }
}

function closeInput(i: OpenInput): void {
  if (i.db.open) i.db.close();
  if (i.tmpDir) rmSync(i.tmpDir, { recursive: true, force: true });
}

function differs(spec: MergeTable, a: Row, b: Row): string[] {
  return (spec.agree ?? []).filter((c) => (a[c] ?? null) !== (b[c] ?? null));
}

/**
 * Checks every input against the target and each other without writing anything; throws InputError
 * `bad-file` naming the conflicts (up to MAX_CONFLICTS_SHOWN, and how many in all).
 */
function checkConflicts(target: Database.Database | null, targetPath: string, inputs: readonly OpenInput[]): void {
  const conflicts: string[] = [];
  let total = 0;
  const sources: { db: Database.Database; path: string }[] = [...(target ? [{ db: target, path: targetPath }] : []), ...inputs];
  for (const spec of MERGE_TABLES) {
    if (!spec.agree) continue;
    // per natural key: a hash of the compared values, where they came from, and what `settle` reads
    // (a line of play is a kilobyte: a million of them are not held, only their hashes)
    const seen = new Map<string, { h: string; from: number; s: Row }>();
    const hash = (r: Row) => createHash('sha1').update(JSON.stringify(spec.agree!.map((c) => r[c] ?? null))).digest('base64');
    const kept = (r: Row, h: string, from: number) => ({ h, from, s: Object.fromEntries((spec.settleOn ?? []).map((c) => [c, r[c] ?? null])) });
    const cols = [...new Set([...spec.key, ...spec.agree, ...(spec.shown ?? [])])];
    const keyHasRefs = spec.key.some((k) => spec.refs?.[k]);
    const readRows = (db: Database.Database, path: string, from: number): void => {
      const src = new Source(db);
      for (const row of db.prepare(`SELECT ${cols.map(q).join(', ')} FROM ${q(spec.table)}`).iterate() as IterableIterator<Row>) {
        // the key itself hashed too (a deal's key is its 60-125 character code): 160 bits, no collision
        const k = createHash('sha1').update(src.natKey(spec, row)).digest('base64');
        const h = hash(row);
        const prev = seen.get(k);
        if (!prev) {
          seen.set(k, kept(row, h, from));
          continue;
        }
        if (prev.h === h) continue;
        const how = spec.settle ? spec.settle(prev.s, row) : 'conflict';
        if (how === 'replace') seen.set(k, kept(row, h, from));
        if (how !== 'conflict') continue;
        total++;
        if (conflicts.length >= MAX_CONFLICTS_SHOWN) continue;
        // the earlier row, read again from its file, to name what differs
        const earlier = sources[prev.from]!;
        const before = keyHasRefs
          ? undefined
          : (earlier.db.prepare(`SELECT ${cols.map(q).join(', ')} FROM ${q(spec.table)} WHERE ${spec.key.map((c) => `${q(c)} IS ?`).join(' AND ')}`).get(...spec.key.map((c) => row[c] ?? null)) as Row | undefined);
        conflicts.push(before
          ? `${spec.describe(row)}: ${differs(spec, before, row).flatMap((c) => {
            // a study's design (JSON): the fields that differ, by name, as batch names them
            const fields = c === 'params' ? jsonFieldPairs(before[c], row[c]) : null;
            if (fields) return fields.map(([f, was, is]) => `${f === '' ? '' : `${f} `}${was} in ${earlier.path} but ${is} in ${path}`);
            const [was, is] = fmtPair(before[c], row[c]);
            return [`${c} ${was} in ${earlier.path} but ${is} in ${path}`];
          }).join(', ')}`
          : `${spec.describe(row)}: ${spec.agree!.join(', ')} differ between ${earlier.path} and ${path}`);
      }
    };
    sources.forEach(({ db, path }, from) => {
      try {
        readRows(db, path, from);
      } catch (e) {
        const role = target && from === 0 ? `target ${pathForMessage(path)} (--into)` : `input ${pathForMessage(path)}`;
        if (isBusyDatabase(e)) throw new FileFault(path, `merge: ${role}: another program held it locked for too long (SQLite: ${oneLine(e)}); nothing was written to ${targetPath}; run the same merge again when the other program is done`);
        if (!isDamagedDatabase(e)) throw e;
        throw new InputError('bad-file', `merge: ${role}: the file is damaged (SQLite: ${oneLine(e)}); nothing was written to ${targetPath}; restore it from a copy`);
      }
    });
  }
  if (total > 0) {
    throw new InputError('bad-file', `merge refused, nothing written to ${targetPath}: ${total} conflict${total > 1 ? 's' : ''} (the same key with different values): ${conflicts.join('; ')}${total > conflicts.length ? `; … ${total - conflicts.length} more` : ''}`);
  }
}

/**
 * Raised inside the merge's transaction when a row of the target conflicts with an input's row that
 * the check passed: another program wrote to the target after the check (the transaction is rolled
 * back, so nothing is merged).
 */
class ChangedMeanwhile extends Error {}

/**
 * Merges one input into the target (inside the caller's transaction) and returns its counts per
 * table. With `dryRun` nothing is written (`target` may be read-only): it returns null at the first
 * row that would be added or updated, and the counts when every row is there already (a merge that
 * would change nothing, so the target need not be opened for writing).
 */
function mergeOne(target: Database.Database, input: OpenInput, targetPath: string, dryRun = false): Record<string, MergeCounts> | null {
  const counts: Record<string, MergeCounts> = {};
  const idMaps = new Map<string, Map<unknown, unknown>>();
  for (const spec of MERGE_TABLES) {
    const c: MergeCounts = (counts[spec.table] = { added: 0, present: 0, updated: 0 });
    const { cols, hasId } = columnsOf(target, spec.table);
    // the target's row of a key (its unique index), with the columns the merge compares
    const wanted = [...new Set([...(hasId ? ['id'] : []), ...spec.key, ...(spec.agree ?? []), ...(spec.refresh ?? []), ...(spec.refreshOn ?? [])])];
    const find = target.prepare(`SELECT ${wanted.map(q).join(', ')} FROM ${q(spec.table)} WHERE ${spec.key.map((k) => `${q(k)} IS ?`).join(' AND ')}`);
    const idMap = new Map<unknown, unknown>();
    idMaps.set(spec.table, idMap);
    const keyWhere = hasId ? 'id = ?' : spec.key.map((k) => `${q(k)} IS ?`).join(' AND ');
    const insert = dryRun ? null : target.prepare(`INSERT INTO ${q(spec.table)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
    const replace = dryRun ? null : target.prepare(`UPDATE ${q(spec.table)} SET ${cols.map((k) => `${q(k)} = ?`).join(', ')} WHERE ${keyWhere}`);
    const refreshStmt = spec.refresh && !dryRun ? target.prepare(`UPDATE ${q(spec.table)} SET ${spec.refresh.map((k) => `${q(k)} = ?`).join(', ')} WHERE ${keyWhere}`) : null;
    for (const row of input.db.prepare(`SELECT * FROM ${q(spec.table)}`).iterate() as IterableIterator<Row>) {
      const mapped: Row = row; // a fresh object per row: its ids are rewritten in place
      const srcId = row.id;
      for (const [col, table] of Object.entries(spec.refs ?? {})) {
        const v = row[col];
        mapped[col] = v === null || v === undefined ? null : (idMaps.get(table)?.get(v) ?? null);
      }
      const existing = find.get(...spec.key.map((k) => mapped[k] ?? null)) as Row | undefined;
      const where = (e: Row) => (hasId ? [e.id] : spec.key.map((k) => e[k] ?? null));
      if (!existing) {
        if (!insert) return null;
        const info = insert.run(...cols.map((k) => mapped[k] ?? null));
        if (hasId) idMap.set(srcId, Number(info.lastInsertRowid));
        c.added++;
        continue;
      }
      if (hasId) idMap.set(srcId, existing.id);
      const diff = differs(spec, existing, mapped);
      if (diff.length > 0) {
        const how = spec.settle ? spec.settle(existing, mapped) : 'conflict';
        if (how === 'conflict') {
          // checkConflicts ran first: only a write to the target since then gets here
          throw new ChangedMeanwhile(`merge into ${pathForMessage(targetPath)} refused, nothing was merged: another program (a merge or a batch) wrote to it while this merge checked its inputs, and now ${spec.describe(row)} conflicts with ${pathForMessage(input.path)}: ${diff.map((k) => {
            const [was, is] = fmtPair(existing[k], mapped[k]);
            return `${k} ${was} there but ${is} here`;
          }).join(', ')}`);
        }
        if (how === 'replace') {
          if (!replace) return null;
          replace.run(...cols.map((k) => mapped[k] ?? null), ...where(existing));
          c.updated++;
          continue;
        }
      }
      if (spec.refreshWhen?.(existing, mapped) && spec.refresh!.some((k) => (existing[k] ?? null) !== (mapped[k] ?? null))) {
        if (!refreshStmt) return null;
        refreshStmt.run(...spec.refresh!.map((k) => mapped[k] ?? null), ...where(existing));
        c.updated++;
        continue;
      }
      c.present++;
    }
  }
  return counts;
}

/** Does the results database at `path` hold no row of any merged table (true also when it cannot be read)? */
function holdsNothing(path: string): boolean {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const d = db;
    return MERGE_TABLES.every((t) => d.prepare(`SELECT 1 FROM ${q(t.table)} LIMIT 1`).get() === undefined);
  } catch {
    return true;
  } finally {
    db?.close();
  }
}

/** Do `a` and `b` name one file: the same path once links are resolved, or one inode (a hard link)? */
function sameFile(a: string, b: string): boolean {
  return sameFileAs(a, [b]) !== null;
}

/** Options of mergeDatabases. */
export interface MergeOptions {
  /**
   * Replay every won line of the inputs through the rules engine (default true; verify.ts). False
   * only for tests whose results a fake worker made up (their lines win nothing); every other check
   * is made.
   */
  readonly replayLines?: boolean;
}

/** How long the merge waits for another program's lock on the target (a merge or a batch writing it), milliseconds. */
export const MERGE_BUSY_TIMEOUT_MS = 60_000;

/**
 * Seeds `replays` with the won lines the target holds (verify.ts ReplayCache.trust): a row of an
 * input that the target holds already is not replayed again.
 */
function trustTarget(target: Database.Database, replays: ReplayCache): void {
  const rows = target.prepare("SELECT deal, line, move_count AS moves, classic_score AS classic, reveal_score AS reveal FROM results WHERE status = 'won'").iterate() as IterableIterator<{ deal: string; line: string; moves: number; classic: number | null; reveal: number | null }>;
  for (const r of rows) replays.trust(r.deal, r.line, r.moves, r.classic, r.reveal);
}

/**
 * Checks the input `i` with verify.ts (SQLite's integrity check, then every row) and throws
 * InputError `bad-file` naming the file and its first bad row; a lock held too long is a FileFault.
 */
function verifyInput(i: OpenInput, targetPath: string, replays: ReplayCache, opts: MergeOptions): void {
  let fault: VerifyFault | null;
  try {
    fault = verifyDatabase(i.db, { replays, replayLines: opts.replayLines ?? true });
  } catch (e) {
    if (isBusyDatabase(e)) throw new FileFault(i.path, `merge: input ${pathForMessage(i.path)}: another program held it locked for too long (SQLite: ${oneLine(e)}); nothing was written to ${pathForMessage(targetPath)}; run the same merge again when the other program is done`);
    if (!isDamagedDatabase(e)) throw e;
    throw new InputError('bad-file', `merge: input ${pathForMessage(i.path)}: the file is damaged (SQLite: ${oneLine(e)}); nothing was written to ${pathForMessage(targetPath)}; restore it from a copy`);
  }
  if (fault) throw new InputError('bad-file', `merge: input ${pathForMessage(i.path)}: damaged, refused: ${fault.message}; nothing was written to ${pathForMessage(targetPath)}; restore it from a copy, or leave it out`);
}

/**
 * Merges `inputs` into the database `into` (created if absent); see the module comment. An input
 * that is the target itself (a glob like `shards/*.sqlite` that also matches the target) is skipped
 * and said so, as is another name (a link) of an input given before; but when every input is the
 * target (`--into m.sqlite m.sqlite`), or one name is given twice, the merge is refused (InputError
 * `bad-option`, one line naming the file) before any file is opened. All or nothing: every input is checked (verify.ts, and
 * for conflicts) before anything is written, then all are copied in one transaction. Throws
 * InputError `bad-file` (nothing written) for a bad or damaged input or a conflict, and FileFault
 * (nothing written) for a full disk, an I/O error or a lock held past MERGE_BUSY_TIMEOUT_MS. A merge
 * that would add or update nothing does not open the target for writing: not a byte of it changes.
 */
export function mergeDatabases(into: string, inputs: readonly string[], opts: MergeOptions = {}): MergeSummary {
  const t0 = performance.now();
  if (inputs.length === 0) throw new InputError('bad-option', 'merge: give the databases to merge');
  const targetState = inspectFor('target', into);
  // nothing but the target to merge (`merge --into m.sqlite m.sqlite`): a slip, not a merge that adds nothing
  if (targetState.kind !== 'absent' && inputs.every((path) => sameFile(path, into))) {
    const other = inputs.find((path) => path !== into);
    throw new InputError('bad-option', `merge: ${other === undefined ? pathForMessage(into) : `input ${pathForMessage(other)}`} is the --into database${other === undefined ? '' : ` (${pathForMessage(into)})`}; give the databases to merge into it`);
  }
  // the same name twice (`s1.sqlite s1.sqlite`): a slip for another file (a shard left out?); a second
  // name of one file (a link a glob also matches) is skipped below instead
  const repeated = inputs.find((path, i) => inputs.indexOf(path) !== i);
  if (repeated !== undefined) throw new InputError('bad-option', `merge: input ${pathForMessage(repeated)} is given twice; give each database once (was another meant?)`);
  const summaries: MergeInputSummary[] = [];
  const open: OpenInput[] = [];
  const openFor = new Map<MergeInputSummary, OpenInput>();
  try {
    for (const path of inputs) {
      const s: MergeInputSummary = { path, skipped: null, tables: {} };
      summaries.push(s);
      if (targetState.kind !== 'absent' && sameFile(path, into)) {
        s.skipped = 'it is the target';
        continue;
      }
      const twice = summaries.find((o) => o !== s && o.skipped === null && sameFile(o.path, path));
      if (twice) {
        s.skipped = `given twice (as ${twice.path})`;
        continue;
      }
      const i = openInput(path);
      open.push(i);
      openFor.set(s, i);
    }

    // every check before the first write: the target stays as it was if anything is refused
    let targetRead: Database.Database | null = null;
    if (targetState.kind === 'ours') {
      try {
        targetRead = new Database(into, { readonly: true, fileMustExist: true });
        targetRead.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
        // so that SQLite meeting damage in it later names it (faults.ts damagedDatabaseMessage)
        noteDatabase(into, false);
      } catch (e) {
        throw new InputError('bad-file', `merge: target ${pathForMessage(into)} (--into): cannot open it (${oneLine(e)})`);
      }
      probeTarget(targetRead, into, targetState.walMode);
      if (targetState.version === SCHEMA_VERSION) checkSchemaFor('target', targetRead, into);
    }
    let unchanged: Map<MergeInputSummary, Record<string, MergeCounts>> | null = null;
    try {
      const replays = new ReplayCache();
      if (targetRead && targetState.kind === 'ours' && targetState.version === SCHEMA_VERSION) trustTarget(targetRead, replays);
      for (const i of open) verifyInput(i, into, replays, opts);
      checkConflicts(targetRead, into, open);
      // nothing to add or update (every input merged already, or each the target itself): the target
      // is not opened for writing, so not a byte of it changes (its header's change counter included)
      if (targetRead && targetState.kind === 'ours' && targetState.version === SCHEMA_VERSION) {
        unchanged = new Map();
        for (const s of summaries) {
          const i = openFor.get(s);
          const counts = i ? mergeOne(targetRead, i, into, true) : {};
          if (counts === null) {
            unchanged = null;
            break;
          }
          unchanged.set(s, counts);
        }
      }
    } finally {
      targetRead?.close();
    }
    if (open.length === 0) return summaryOf(into, targetState, summaries, t0);
    if (unchanged) {
      for (const [s, counts] of unchanged) s.tables = counts;
      return summaryOf(into, targetState, summaries, t0);
    }
    let store: ResultStore;
    try {
      store = ResultStore.openForWriting(into, MERGE_BUSY_TIMEOUT_MS);
    } catch (e) {
      throw asMergeError(e, 'target', into);
    }
    let merged = false;
    try {
      const db = store.writer();
      // one transaction for every input: a failure (or a crash) leaves the target as it was
      db.transaction(() => {
        for (const s of summaries) {
          const i = openFor.get(s);
          if (i) s.tables = mergeOne(db, i, into)!;
        }
      }).immediate();
      merged = true;
    } catch (e) {
      for (const s of summaries) s.tables = {};
      if (e instanceof ChangedMeanwhile) throw new InputError('bad-file', e.message);
      const kind = isBusyDatabase(e) ? 'busy' : storageFaultKind(e);
      if (kind !== null) {
        const what = kind === 'busy' ? 'another program (a merge or a batch) held it locked for too long' : kind === 'full' ? 'the disk is full' : 'the disk reported an I/O error (a disk that is full may report one)';
        const next = kind === 'busy' ? 'run the same merge again when the other program is done' : kind === 'full' ? 'free some space, then run the same merge again' : 'check the disk, then run the same merge again';
        throw new FileFault(into, `merge: target ${pathForMessage(into)} (--into): ${what} (SQLite: ${oneLine(e)}); nothing was merged (the merge is one transaction, rolled back); ${next}`);
      }
      if (!isDamagedDatabase(e)) throw e;
      // the inputs passed SQLite's integrity check: the damage SQLite met now is the target's
      throw new InputError('bad-file', `merge: target ${pathForMessage(into)} (--into): the file is damaged (SQLite: ${oneLine(e)}); nothing was merged; restore it from a copy`);
    } finally {
      store.close();
      // a target this merge created and could not fill is not left behind (an empty results database
      // reads as a finished merge of nothing); one that another merge filled meanwhile is kept
      if (!merged && targetState.kind === 'absent' && holdsNothing(into)) for (const f of databaseFiles(into)) rmSync(f, { force: true });
    }
  } finally {
    for (const i of open) closeInput(i);
  }
  return summaryOf(into, targetState, summaries, t0);
}

/**
 * The summary of a merge: the inputs' counts added up per table (`blind_results` only when some blind
 * game was added, present or updated), and the time since `t0` (performance.now()).
 */
function summaryOf(into: string, targetState: ReturnType<typeof inspectFor>, summaries: MergeInputSummary[], t0: number): MergeSummary {
  const totals: Record<string, MergeCounts> = {};
  for (const spec of MERGE_TABLES) {
    const t: MergeCounts = (totals[spec.table] = { added: 0, present: 0, updated: 0 });
    for (const s of summaries) {
      const c = s.tables[spec.table];
      if (!c) continue;
      t.added += c.added;
      t.present += c.present;
      t.updated += c.updated;
    }
  }
  // blind games (schema 3) are named only where a merge met some: a merge of solves names none
  const b = totals.blind_results;
  if (b && b.added + b.present + b.updated === 0) {
    delete totals.blind_results;
    for (const s of summaries) delete s.tables.blind_results;
  }
  return {
    into,
    created: targetState.kind === 'absent' || targetState.kind === 'fresh',
    inputs: summaries,
    totals,
    elapsedMs: Math.round((performance.now() - t0) * 10) / 10,
  };
}
