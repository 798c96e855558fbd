/**
 * The JS step of schema migration 2 (schema.ts): results re-keyed by the deal's identity, the names
 * each deal was reached by, and the deals each study counts. Runs inside the migration transaction,
 * after its SQL has created `runs_v2`, `results_v2`, `deal_names` and `study_deals`.
 *
 * Nothing stored is lost: every v1 result row moves to `results_v2` under its deal's identity; when
 * two v1 rows are the same deal at the same budget and solver version (SP2-7 and a position file of
 * that deal), one row is kept (a settled one over an `error`, then the older) and both names are kept
 * in `deal_names`. A study counts the deals its runs stored and, for a `seeds:` study, every deal of
 * its plan already stored at its budget (skipped in v1 because another study had solved it).
 */
import type Database from 'better-sqlite3';
import { isGameName, isSuitCount } from '../game/variant.js';
import { dealName, identityOfCode, parseSeeds, seedDeals, MAX_PLANNED_DEALS } from './deals.js';

interface V1Row {
  id: number;
  code: string;
  source_kind: 'seed' | 'pysol' | 'code' | 'file';
  seed: number | null;
  pysol_game: string | null;
  pysol_number: number | null;
  file_path: string | null;
  run_id: number | null;
  study_id: number | null;
}

/**
 * Canonical study parameters as schema version 2 wrote them (the form of studyParams.ts
 * studyParamsJson then), kept apart and frozen: a migration writes what its version wrote, whatever
 * the code writes later.
 */
function paramsJson(game: string | null, suits: string | null, deals: string, budgets: readonly number[], untilWidth: number | null): string {
  return JSON.stringify({ game, suits, deals, budgets, untilWidth });
}

/** Migration 2's JS step (see the module comment). */
export function migrateToV2(db: Database.Database): void {
  const cols = 'code, game, suits, source_kind, seed, pysol_game, pysol_number, file_path, max_positions, status, positions, elapsed_ms, move_count, line, classic_score, reveal_score, peak_bytes, error, solver_version, run_id, created_at';
  const copy = db.prepare(`INSERT OR IGNORE INTO results_v2 (id, deal, ${cols}) SELECT id, ?, ${cols} FROM results WHERE id = ?`);
  const name = db.prepare('INSERT OR IGNORE INTO deal_names (deal, name) VALUES (?, ?)');
  const link = db.prepare('INSERT OR IGNORE INTO study_deals (study_id, deal, ord, name) VALUES (?, ?, ?, ?)');
  // settled rows first, then errors, so that of two rows of one deal a settled one is kept; in pages,
  // since a connection cannot write while it iterates
  const page = db.prepare(
    `SELECT r.id, r.code, r.source_kind, r.seed, r.pysol_game, r.pysol_number, r.file_path, r.run_id, runs.study_id
     FROM results r LEFT JOIN runs ON runs.id = r.run_id
     WHERE (r.status = 'error') = ? AND r.id > ? ORDER BY r.id LIMIT 5000`,
  );
  const linked: { studyId: number; deal: string; name: string }[] = [];
  for (const errors of [0, 1]) {
    let after = 0;
    for (;;) {
      const rows = page.all(errors, after) as V1Row[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.id;
      for (const r of rows) {
        const deal = identityOfCode(r.code) ?? r.code;
        copy.run(deal, r.id);
        const source =
          r.source_kind === 'seed' ? { kind: 'seed' as const, seed: r.seed ?? 0 }
          : r.source_kind === 'pysol' ? { kind: 'pysol' as const, game: r.pysol_game ?? '', number: r.pysol_number ?? 0 }
          : r.source_kind === 'file' ? { kind: 'file' as const, path: r.file_path ?? '' }
          : { kind: 'code' as const };
        const n = dealName({ key: r.code, source });
        name.run(deal, n);
        if (r.study_id !== null) linked.push({ studyId: r.study_id, deal, name: n });
      }
    }
  }

  // (looked up by v1 key below; the index stays with the table when it is renamed)
  db.exec('CREATE INDEX results_by_code ON results_v2 (code, max_positions)');

  // the deals each study counts: first a seeds study's whole plan (in order) where stored at its budget…
  const studies = db.prepare('SELECT id, game, suits, deals_spec AS spec, max_positions AS budget FROM studies ORDER BY id').all() as
    { id: number; game: string | null; suits: string | null; spec: string; budget: number }[];
  const nextOrd = new Map<number, number>();
  const stored = db.prepare('SELECT deal FROM results_v2 WHERE code = ? AND max_positions = ? LIMIT 1').pluck();
  for (const st of studies) {
    let ord = 0;
    if (st.spec.startsWith('seeds:') && st.game && isGameName(st.game) && st.suits) {
      try {
        const suits = st.suits.split(',').map(Number).filter(isSuitCount);
        const ranges = parseSeeds(st.spec.slice('seeds:'.length));
        for (const p of seedDeals(st.game, suits, ranges)) {
          if (ord >= MAX_PLANNED_DEALS) break;
          const deal = stored.get(p.key, st.budget) as string | undefined;
          if (deal !== undefined) link.run(st.id, deal, ord, p.key);
          ord++;
        }
      } catch {
        // an unreadable spec: the study keeps the deals its runs stored (below)
      }
    }
    nextOrd.set(st.id, ord);
  }
  // …then every deal a study's runs stored, in the order they were stored
  for (const l of linked) {
    const ord = nextOrd.get(l.studyId) ?? 0;
    if (link.run(l.studyId, l.deal, ord, l.name).changes > 0) nextOrd.set(l.studyId, ord + 1);
  }

  // studies: the v1 parameters in the v2 form (one budget, no stopping rule)
  const setParams = db.prepare('UPDATE studies SET budgets = ?, params = ?, planned = (SELECT max(planned) FROM runs WHERE study_id = ?) WHERE id = ?');
  for (const st of db.prepare('SELECT id, game, suits, deals_spec AS spec, max_positions AS budget FROM studies').all() as
    { id: number; game: string | null; suits: string | null; spec: string; budget: number }[]) {
    setParams.run(String(st.budget), paramsJson(st.game, st.suits, st.spec, [st.budget], null), st.id, st.id);
  }

  db.exec(`
    DROP TABLE results;
    DROP TABLE runs;
    ALTER TABLE runs_v2 RENAME TO runs;
    ALTER TABLE results_v2 RENAME TO results;
    CREATE INDEX results_by_group ON results (game, suits, max_positions, solver_version, status);
  `);
}
