/**
 * Writing the results database: studies, runs (start, heartbeat, end, abandoned), results and the
 * links of deals to studies. Every function takes the connection to write (ResultStore switches it
 * to WAL mode first) and writes in one transaction, so that a killed process leaves the file
 * consistent and loses only what it had not yet written.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { dealName } from './deals.js';
import { DIED_NOTE, runIsDead, type RunStatus } from './liveness.js';
import { writeBlindRows, type BlindRecord } from './blind.js';
import { RESULT_COLUMNS, sourceOf, type DealLink, type ResultRecord } from './records.js';
import { studyWith, type StudyParams } from './studyParams.js';

/** The time now, ISO 8601 UTC. */
export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * The id of study `name` (parameters `params`, `json` their studyParamsJson), created if new, in one
 * transaction (a new plan length is written on an existing study). Throws InputError `bad-option`
 * if the name exists with other parameters (studyWith).
 */
export function writeStudy(db: Database.Database, path: string, name: string, json: string, params: StudyParams): number {
  return db.transaction(() => {
    const id = studyWith(db, path, name, json);
    if (id !== undefined) {
      if (params.planned != null) db.prepare('UPDATE studies SET planned = ? WHERE id = ?').run(params.planned, id);
      return id;
    }
    const budgets = params.budgets ?? [params.maxPositions];
    const info = db
      .prepare('INSERT INTO studies (name, game, suits, deals_spec, max_positions, params, created_at, budgets, until_width, planned, player, player_seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(name, params.game, params.suits, params.dealsSpec, budgets[0], json, nowIso(), budgets.join(','), params.untilWidth ?? null, params.planned ?? null, params.player ?? null, params.player != null ? (params.playerSeed ?? null) : null);
    return Number(info.lastInsertRowid);
  }).immediate();
}

/**
 * Records the start of a run (status `running`, this process's id and host, a heartbeat, and a uid:
 * a random UUID, its key across databases); returns its id.
 */
export function startRun(db: Database.Database, studyId: number, r: { workers: number; solverVersion: string; planned: number; skipped: number }): number {
  const now = nowIso();
  const info = db
    .prepare("INSERT INTO runs (uid, study_id, started_at, workers, solver_version, status, planned, skipped, pid, host, heartbeat_at) VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)")
    .run(randomUUID(), studyId, now, r.workers, r.solverVersion, r.planned, r.skipped, process.pid, hostname(), now);
  return Number(info.lastInsertRowid);
}

/** Refreshes a running run's heartbeat (and, when given, its counts of planned and skipped deals). */
export function heartbeat(db: Database.Database, runId: number, counts?: { planned: number; skipped: number }): void {
  // a run another process marked abandoned while this one was silent (stopped, asleep, on a host
  // whose heartbeats it could not see) is running again, without the note that it died
  const revive = "status = 'running', finished_at = NULL, note = CASE WHEN note = @died THEN NULL ELSE note END";
  const where = "WHERE id = @id AND status IN ('running', 'abandoned')";
  if (counts) db.prepare(`UPDATE runs SET heartbeat_at = @now, planned = @planned, skipped = @skipped, ${revive} ${where}`).run({ now: nowIso(), planned: counts.planned, skipped: counts.skipped, id: runId, died: DIED_NOTE });
  else db.prepare(`UPDATE runs SET heartbeat_at = @now, ${revive} ${where}`).run({ now: nowIso(), id: runId, died: DIED_NOTE });
}

/** Sets a run's final status, finish time and an optional note (why it stopped). */
export function finishRun(db: Database.Database, runId: number, status: Exclude<RunStatus, 'running'>, note: string | null = null): void {
  // (a note that the run died, written while this process was silent, is not true: it is dropped)
  db.prepare('UPDATE runs SET status = @status, finished_at = @now, heartbeat_at = @now, note = coalesce(@note, CASE WHEN note = @died THEN NULL ELSE note END) WHERE id = @id').run({ status, now: nowIso(), note, id: runId, died: DIED_NOTE });
}

/**
 * Marks every dead `running` run (see `runIsDead`) `abandoned`, its finish time its last heartbeat.
 * Returns how many it marked.
 */
export function markAbandoned(db: Database.Database, writer: () => Database.Database, now = Date.now()): number {
  const running = db.prepare("SELECT id, status, pid, host, heartbeat_at AS heartbeatAt, started_at AS startedAt FROM runs WHERE status = 'running'").all() as
    { id: number; status: string; pid: number | null; host: string | null; heartbeatAt: string | null; startedAt: string }[];
  const dead = running.filter((r) => runIsDead(r, now));
  if (dead.length === 0) return 0;
  const w = writer();
  const mark = w.prepare("UPDATE runs SET status = 'abandoned', finished_at = coalesce(heartbeat_at, started_at), note = coalesce(note, ?) WHERE id = ? AND status = 'running'");
  w.transaction(() => {
    for (const r of dead) mark.run(DIED_NOTE, r.id);
  }).immediate();
  return dead.length;
}

/** Sets the --until-width stop of a study: it counts its first `n` deals of the plan only. */
export function stopStudyAt(db: Database.Database, studyId: number, n: number): void {
  db.transaction(() => {
    db.prepare('DELETE FROM study_deals WHERE study_id = ? AND ord >= ?').run(studyId, n);
    db.prepare('UPDATE studies SET stopped_at = ?, planned = ? WHERE id = ?').run(n, n, studyId);
  }).immediate();
}

/**
 * Gives an open-ended study (planned null: `--seeds N-` with --until-width) the plan of its first `n`
 * deals, when its seeds ran out at the largest seed before its rule was met: the study is then whole
 * (report.ts isPartial), not an unfinished run. A study with a plan keeps it.
 */
export function closeOpenPlan(db: Database.Database, studyId: number, n: number): void {
  db.prepare('UPDATE studies SET planned = ? WHERE id = ? AND planned IS NULL').run(n, studyId);
}

/** Links deals to a study (and their names to the deals), in one transaction; existing links are kept. */
export function linkDeals(db: Database.Database, studyId: number, links: readonly DealLink[]): void {
  if (links.length === 0) return;
  db.transaction(() => link(db, studyId, links)).immediate();
}

/** Links deals to a study and their names to the deals, inside the caller's transaction; existing links are kept. */
function link(db: Database.Database, studyId: number, links: readonly DealLink[]): void {
  const ins = db.prepare('INSERT OR IGNORE INTO study_deals (study_id, deal, ord, name) VALUES (?, ?, ?, ?)');
  const name = db.prepare('INSERT OR IGNORE INTO deal_names (deal, name) VALUES (?, ?)');
  for (const l of links) {
    ins.run(studyId, l.deal, l.ord, l.name);
    name.run(l.deal, l.name);
  }
}

/**
 * Writes results in one transaction and counts them on the run. A new (deal, budget, version)
 * row is inserted; an existing `error` row is replaced; an existing settled row is kept (so two
 * processes racing on one deal store it once). `blind`: a blind study's games, written alike to
 * `blind_results` (blind.ts writeBlindRows). Returns the number of rows inserted or replaced.
 */
export function writeResults(db: Database.Database, runId: number | null, records: readonly ResultRecord[], studyId: number | null = null, links: readonly DealLink[] = [], blind: readonly BlindRecord[] = []): number {
  if (records.length === 0 && links.length === 0 && blind.length === 0) return 0;
  const cols = RESULT_COLUMNS.map(([c]) => c);
  const upsert = db.prepare(`
    INSERT INTO results (${cols.join(', ')})
    VALUES (${RESULT_COLUMNS.map(([, f]) => `@${f}`).join(', ')})
    ON CONFLICT (deal, max_positions, solver_version) DO UPDATE SET
      ${cols.filter((c) => !['deal', 'max_positions', 'solver_version'].includes(c)).map((c) => `${c} = excluded.${c}`).join(', ')}
    WHERE results.status = 'error'`);
  const bump = db.prepare('UPDATE runs SET completed = completed + ?, errors = errors + ?, heartbeat_at = ? WHERE id = ?');
  const name = db.prepare('INSERT OR IGNORE INTO deal_names (deal, name) VALUES (?, ?)');
  return db.transaction(() => {
    const createdAt = nowIso();
    let changed = 0;
    let errors = 0;
    for (const r of records) {
      const info = upsert.run({ ...r, runId, createdAt });
      name.run(r.deal, dealName({ key: r.code, source: sourceOf(r) }));
      if (info.changes > 0) {
        changed++;
        if (r.status === 'error') errors++;
      }
    }
    for (const r of blind) name.run(r.deal, dealName({ key: r.code, source: sourceOf(r) }));
    const blindChanged = writeBlindRows(db, runId, blind, createdAt);
    changed += blindChanged;
    // (the blind rows' errors: every error written was new or replaced one, so counted as written)
    errors += blindChanged > 0 ? blind.filter((r) => r.status === 'error').length : 0;
    if (runId !== null) bump.run(changed, errors, createdAt, runId);
    if (studyId !== null) link(db, studyId, links);
    return changed;
  }).immediate();
}

/**
 * Makes study `studyId` count a prefix of its plan: finds the first place before its last counted
 * one that `mine` accepts and the study does not count (a deal still in flight when a run was
 * stopped), and unlinks the deals at the places after it that `mine` accepts (their results stay
 * stored; a later run finds them and counts them again). Counting the quick deals dispatched after
 * the slow ones a stop cancelled would make the floor read high (18 of 18 won, where the deals left
 * out are the undecided ones). `mine`: the places of the run's plan (a shard's, or all). Returns how
 * many deals it unlinked.
 */
export function keepCountedPrefix(db: Database.Database, studyId: number, mine: (ord: number) => boolean): number {
  const places = db.prepare('SELECT ord FROM study_deals WHERE study_id = ? ORDER BY ord').pluck().all(studyId) as number[];
  const counted = new Set(places);
  // (a first gap after the last counted place leaves nothing after it to unlink)
  const last = places.length ? places[places.length - 1]! : -1;
  let gap = -1;
  for (let o = 0; o < last; o++) {
    if (mine(o) && !counted.has(o)) {
      gap = o;
      break;
    }
  }
  if (gap < 0) return 0;
  const after = places.filter((o) => o > gap && mine(o));
  if (after.length === 0) return 0;
  const del = db.prepare('DELETE FROM study_deals WHERE study_id = ? AND ord = ?');
  db.transaction(() => {
    for (const o of after) del.run(studyId, o);
  }).immediate();
  return after.length;
}

