/**
 * A study's identity in the database: the parameters a study name stands for (StudyParams, stored
 * as canonical JSON), the refusal of a name re-used with other parameters, and the check that a
 * deals file's study keeps the deals it was planned with. Read-only: nothing here writes.
 */
import { basename } from 'node:path';
import type Database from 'better-sqlite3';
import { InputError } from '../game/errors.js';
import type { DealLink } from './records.js';

/** Parameters that identify a study; a re-run under the same name must give the same ones. */
export interface StudyParams {
  readonly game: string | null;
  /** Suit counts, e.g. `1,2,4`; null when a deals file is not restricted. */
  readonly suits: string | null;
  /** `seeds:<spec>` or `file:<absolute path>`. */
  readonly dealsSpec: string;
  /** The budget of the first rung (the only one without a ladder). */
  readonly maxPositions: number;
  /** The ladder's budgets, increasing; absent = `[maxPositions]`. */
  readonly budgets?: readonly number[];
  /** The stopping rule's width (--until-width), or absent. */
  readonly untilWidth?: number | null;
  /** Deals in the plan; absent when not known before (an open-ended seed range). */
  readonly planned?: number | null;
  /**
   * A blind study's player: its canonical spec (src/blind/players/index.ts specText); absent or null
   * for a solve study. A blind study has no budget (`maxPositions` 0).
   */
  readonly player?: string | null;
  /** A blind study's player seed (0..2^32-1); absent or null for a solve study. */
  readonly playerSeed?: number | null;
}

/**
 * What the refusal of a study's other parameters adds after "choose another --study name": that a new
 * study costs no solving of what is stored (a user growing a seeds study to more deals need not
 * solve its deals again).
 */
const NEW_STUDY_NOTE = '(a new study reuses every result stored for the same deals and budget; report --pool combines studies)';

/** NEW_STUDY_NOTE for a run of a blind study, whose games are stored by deal, player and player seed. */
const NEW_BLIND_STUDY_NOTE = '(a new study reuses every blind game stored for the same deals, player and player seed; report --pool combines studies)';

/**
 * A study's kind in words, for a clash between a blind study and a solve study: a blind study by its
 * player spec and player seed (its budgets are a placeholder [0]: a blind game has no budget of its
 * own), a solve study by its budgets. `p` is a parsed studyParamsJson.
 */
function studyKind(p: Record<string, unknown>): string {
  if (p.player != null) return `a blind study (player ${JSON.stringify(p.player)}, player seed ${p.playerSeed == null ? 'none' : JSON.stringify(p.playerSeed)})`;
  return `a solve study (budgets ${JSON.stringify(p.budgets ?? null)})`;
}

/** How a field of studyParamsJson is named in a clash: as the user gives it where the key is not a word. */
const FIELD_NAMES: Readonly<Record<string, string>> = { playerSeed: 'player seed' };

/**
 * The fields in which two studies' parameters (parsed studyParamsJson forms) differ, each as [name
 * as the user gives it, value in `a`, value in `b`], values as JSON (an absent or null value is `any`
 * for game and suits, a deals file's study taking the file's, `none` for the others). A blind study
 * against a solve study comes first as one pair named '' describing each whole (`a blind study
 * (player "greedy", player seed 7)`, `a solve study (budgets [1000])`), in place of their budgets,
 * player and player seed. Used by batch's refusal of a name re-used (paramsClash) and merge's.
 */
export function paramsFieldPairs(a: Record<string, unknown>, b: Record<string, unknown>): [string, string, string][] {
  let keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const show = (k: string, v: unknown) => (v === null || v === undefined ? (k === 'game' || k === 'suits' ? 'any' : 'none') : JSON.stringify(v));
  const out: [string, string, string][] = [];
  if ((a.player != null) !== (b.player != null)) {
    out.push(['', studyKind(a), studyKind(b)]);
    keys = keys.filter((k) => k !== 'budgets' && k !== 'player' && k !== 'playerSeed');
  }
  return [...out, ...keys.map((k): [string, string, string] => [FIELD_NAMES[k] ?? k, show(k, a[k]), show(k, b[k])])];
}

/**
 * How two studies' parameters (studyParamsJson forms, the stored one first) clash, for an error:
 * `diff`, the fields that differ (paramsFieldPairs: `suits "1" there, "2" in this run`, joined by
 * "; "; both whole if either does not parse); `hint`, when they differ only in the path of a deals
 * file of the same name, that a study names its deals file by its absolute path (the same command
 * run on a moved copy of the file is another study), ending "or " before the error's "choose another
 * --study name"; else "".
 */
function paramsClash(stored: string, given: string): { diff: string; hint: string } {
  let a: Record<string, unknown>;
  let b: Record<string, unknown>;
  try {
    a = JSON.parse(stored) as Record<string, unknown>;
    b = JSON.parse(given) as Record<string, unknown>;
  } catch {
    return { diff: `${stored} there; this run has ${given}`, hint: '' };
  }
  const pairs = paramsFieldPairs(a, b);
  const diff = pairs.map(([f, was, is]) => `${f === '' ? '' : `${f} `}${was} there, ${is} in this run`).join('; ');
  const file = (v: unknown) => (typeof v === 'string' && v.startsWith('file:') ? v.slice(5) : null);
  const fa = file(a.deals);
  const fb = file(b.deals);
  const moved = pairs.length === 1 && pairs[0]![0] === 'deals' && fa !== null && fb !== null && basename(fa) === basename(fb);
  return { diff, hint: moved ? `a study names its deals file by its absolute path: give --deals ${fa}, or ` : '' };
}

/**
 * Can a study of game `st.game` and suit counts `st.suits` (`1,2`; null: any, a deals file's study)
 * hold deals of this game and suit count?
 */
export function studyHolds(st: { readonly game: string | null; readonly suits: string | null }, game: string, suits: number): boolean {
  return (st.game === null || st.game === game) && (st.suits === null || st.suits.split(',').map(Number).includes(suits));
}

/** Whether a studyParamsJson form is a blind study's (it names a player). */
function isBlind(json: string): boolean {
  try {
    return (JSON.parse(json) as Record<string, unknown>).player != null;
  } catch {
    return false;
  }
}

/** The fields in which two studies' parameters differ (paramsClash's `diff`). */
export function paramsDiff(stored: string, given: string): string {
  return paramsClash(stored, given).diff;
}

/** The canonical JSON of a study's parameters, compared when a study name is used again. */
export function studyParamsJson(p: StudyParams): string {
  const base = { game: p.game, suits: p.suits, deals: p.dealsSpec, budgets: p.budgets ?? [p.maxPositions], untilWidth: p.untilWidth ?? null };
  // a blind study adds its player; a solve study's JSON has no player fields
  return JSON.stringify(p.player != null ? { ...base, player: p.player, playerSeed: p.playerSeed ?? null } : base);
}

/**
 * The id of study `name` in `db` (the database at `path`) if it exists with parameters `json`
 * (studyParamsJson), undefined if it does not exist; throws InputError `bad-option` naming what
 * differs if it exists with others.
 */
export function studyWith(db: Database.Database, path: string, name: string, json: string): number | undefined {
  const row = db.prepare('SELECT id, params FROM studies WHERE name = ?').get(name) as { id: number; params: string } | undefined;
  if (row && row.params !== json) {
    const clash = paramsClash(row.params, json);
    const note = isBlind(json) ? NEW_BLIND_STUDY_NOTE : NEW_STUDY_NOTE;
    throw new InputError('bad-option', `study "${name}" exists in ${path} with other parameters: ${clash.diff}; ${clash.hint}choose another --study name ${note}`);
  }
  return row?.id;
}

/**
 * Checks a study's plan against the deals already linked to it (a study planned from a deals file):
 * each deal stored at place `ord` must be the plan's deal at that place (identity, as `study_deals.deal`),
 * so a file may gain lines at its end but not change, lose or reorder the ones already planned.
 * Nothing happens for a study not in the database. Throws InputError (nothing written) naming the
 * first place that differs (or that its position file now holds another deal) and how many do; for
 * a study of standard input, the fix is a --study name of the list's own.
 */
export function checkPlan(db: Database.Database, path: string, name: string, plan: readonly { deal: string; name: string }[]): void {
  const row = db.prepare('SELECT id, deals_spec FROM studies WHERE name = ?').get(name) as { id: number; deals_spec: string } | undefined;
  if (!row) return;
  const links = db.prepare('SELECT deal, ord, name FROM study_deals WHERE study_id = ? ORDER BY ord').all(row.id) as DealLink[];
  const differ = links.filter((l) => plan[l.ord]?.deal !== l.deal);
  if (differ.length === 0) return;
  const first = differ[0]!;
  const now = plan[first.ord];
  // the same name, another deal: a position file edited since (a deal code names its deal)
  const was = now === undefined ? `the list now ends at ${plan.length}` : now.name === first.name ? 'the list still names it, but the file now holds another deal' : `the list now gives ${now.name}`;
  // deals read from standard input: every list piped in gets the same study name by default
  const fix = row.deals_spec === 'file:/dev/stdin'
    ? 'a study of deals read from standard input keeps the deals it was planned with: give this list its own --study name (nothing was written)'
    : 'lines may be added at the end, not changed, removed or reordered: restore the list, or give another --study name (nothing was written)';
  throw new InputError(
    'bad-option',
    `study "${name}" in ${path}: its deals changed since it was planned: deal ${first.ord + 1} of the plan was ${first.name}, ${was}` +
      `${differ.length > 1 ? ` (${differ.length} planned deals differ)` : ''}; ${fix}`,
  );
}
