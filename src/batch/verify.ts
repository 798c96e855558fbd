/**
 * The checks `merge` makes of every input before it copies anything of it (merge.ts): a results
 * database that came from another machine is not trusted until SQLite and the rules engine agree
 * that it is sound.
 *
 * In order, stopping at the first fault:
 * 1. SQLite's own `PRAGMA integrity_check` (every page, every index against its table, NOT NULL,
 *    CHECK and UNIQUE constraints), then `PRAGMA foreign_key_check` (a run's study, a result's run, a
 *    study link's study exist).
 * 2. Every row of every table, by `rowFault`: types and ranges of its columns; each deal identity
 *    parses as an explicit deal code with its check characters (code.ts parseDealCode, docs/rules.md R18)
 *    or is a well-formed `POS:` key; a result's name (`code`), game, suits and source agree with its
 *    deal; status, positions, budget, line, move count, scores and error agree with one another
 *    (`positions` never exceeds the budget: the solver stops at it); and a won result's line replays
 *    through the rules engine (score.ts playLine) from its deal to a win, in the stored number of
 *    moves, with the stored scores (R16, R17). A mid-game position (`POS:`) is not stored, so its
 *    line is checked for its length only. A blind game (`blind_results`) alike: its line replays
 *    from its deal to its stored status and suits completed.
 *
 * Cost: the replay is most of it (about 0.1 ms a won row of Spiderette, more for Spider's longer
 * lines); a `ReplayCache` shared by the inputs of one merge replays each (deal, line) once, and may be
 * seeded with the won rows the target holds already (merging a shard again replays nothing).
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { makeDealCode, parseDealCode, type DealCodeValue } from '../game/code.js';
import { quoteInput } from '../game/errors.js';
import { positionFromDeal } from '../game/position.js';
import { playLine } from '../game/score.js';
import { parsePlayerSpec, specText } from '../blind/players/index.js';

/** A row as better-sqlite3 returns it. */
type Row = Record<string, unknown>;

/** The first fault found in a database: where, and what. */
export interface VerifyFault {
  /** The table of the bad row, or null for a fault of the file (SQLite's checks). */
  readonly table: string | null;
  /** The bad row's `rowid`, or null. */
  readonly rowid: number | null;
  /** One line: the row as a person finds it (`results row 17 (deal SE1-5 at 10000 positions, …)`) and what is wrong. */
  readonly message: string;
}

/** What replaying a won line gave: its moves and scores, or why it is not a win. */
type Replayed = { readonly moves: number; readonly classic: number; readonly reveal: number } | { readonly fault: string };

/** Entries a ReplayCache holds before it starts afresh (about 150 bytes each). */
const REPLAY_CACHE_MAX = 500_000;

/**
 * Replays of won lines, by (deal, line), shared by the inputs of one merge: each line is replayed
 * once, and a line the target holds already (`trust`) is taken as it is stored there. Keys are SHA-1
 * digests (a line is a kilobyte), so memory is about 150 bytes a line; the cache starts afresh past
 * REPLAY_CACHE_MAX lines.
 */
export class ReplayCache {
  readonly #map = new Map<string, Replayed>();
  /** Lines replayed through the rules engine (not found in the cache). */
  replayed = 0;

  static #key(deal: string, line: string): string {
    return createHash('sha1').update(deal).update('\u0000').update(line).digest('base64');
  }

  /** Takes the stored move count and scores of a won (deal, line) of the target as its replay. */
  trust(deal: string, line: string, moves: number, classic: number | null, reveal: number | null): void {
    if (classic === null || reveal === null) return;
    this.#put(ReplayCache.#key(deal, line), { moves, classic, reveal });
  }

  /**
   * Is (deal, line) known to win: replayed already, or held by the target? Its deal is then a sound
   * identity (it parsed before it was replayed, or the target holds it) and need not be parsed again.
   */
  knownWin(deal: string, line: string): boolean {
    const hit = this.#map.get(ReplayCache.#key(deal, line));
    return hit !== undefined && !('fault' in hit);
  }

  /** The replay of `line` from the start of `value`'s deal (cached by `deal`, its identity). */
  replay(deal: string, value: DealCodeValue | null, line: string): Replayed {
    const key = ReplayCache.#key(deal, line);
    const hit = this.#map.get(key);
    if (hit) return hit;
    if (value === null) throw new Error(`ReplayCache.replay: ${deal} is neither cached nor decoded`);
    this.replayed++;
    const played = playLine(positionFromDeal(value.variant, value.cards), line.split(' '));
    const r: Replayed = !played.ok
      ? { fault: played.error.message }
      : !played.value.won
        ? { fault: `its line of ${played.value.moves.length} moves does not win (${played.value.completed} of ${value.variant.cards / 13} suits completed)` }
        : { moves: played.value.moves.length, classic: played.value.classic, reveal: played.value.reveal };
    this.#put(key, r);
    return r;
  }

  #put(key: string, r: Replayed): void {
    if (this.#map.size >= REPLAY_CACHE_MAX) this.#map.clear();
    this.#map.set(key, r);
  }
}

/** Result statuses (schema.ts). */
const STATUSES = new Set(['won', 'lost', 'undecided', 'error']);
/** Run statuses (schema.ts). */
const RUN_STATUSES = new Set(['running', 'done', 'interrupted', 'failed', 'abandoned']);
/** A mid-game position's key (deals.ts positionKey). */
const POS_KEY = /^POS:(SP|SE)([124]):[0-9a-f]{16}$/;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
/** A value as a fault names it: a text quoted short, anything else as it prints. */
const show = (v: unknown): string => (typeof v === 'string' ? quoteInput(v, 60) : v === null || v === undefined ? 'null' : Buffer.isBuffer(v) ? `a blob of ${v.length} bytes` : String(v));

/** Checks of one database's rows (see rowFault), with the deal identities already parsed. */
export class RowChecker {
  readonly #deals = new Map<string, DealCodeValue | 'pos' | string>();
  readonly #names = new Map<string, string | null>();
  /** Identities a result row of this database showed sound without decoding them (see #result). */
  readonly #sound = new Set<string>();
  readonly #replays: ReplayCache;
  /** Replay won lines (default true); false only for made-up results (tests of a fake worker). */
  readonly #replayLines: boolean;

  constructor(replays: ReplayCache = new ReplayCache(), replayLines = true) {
    this.#replays = replays;
    this.#replayLines = replayLines;
  }

  /**
   * A deal identity (schema.ts: an explicit deal code, or `POS:<tag><suits>:<16 hex>`): its parsed
   * code, `'pos'` for a position key, or the fault as a text (cached per identity).
   */
  deal(v: unknown): DealCodeValue | 'pos' | string {
    if (typeof v !== 'string') return `the deal is ${show(v)}, not a deal code`;
    const hit = this.#deals.get(v);
    if (hit !== undefined) return hit;
    let r: DealCodeValue | 'pos' | string;
    if (v.startsWith('POS:')) r = POS_KEY.test(v) ? 'pos' : `the deal ${show(v)} is not a position key (POS:<game><suits>:<16 hex digits>)`;
    else {
      const p = parseDealCode(v);
      if (!p.ok) r = p.error.message;
      else if (p.value.seed !== undefined || makeDealCode(p.value.variant, p.value.cards) !== v) r = `the deal ${show(v)} is not written as a deal's identity (its explicit code, in capitals)`;
      else r = p.value;
    }
    this.#deals.set(v, r);
    return r;
  }

  /**
   * The identity a result's name (`code`: a deal code of either form, or a POS: key) stands for, or
   * null if it is none. A seeded name's cards, written as an explicit code, are its identity: that
   * identity is then known sound without decoding it (makeDealCode is the inverse of the decoding,
   * and several times faster for a Spider deal).
   */
  #identityOf(code: string): string | null {
    const hit = this.#names.get(code);
    if (hit !== undefined) return hit;
    let r: string | null = null;
    if (code.startsWith('POS:')) r = POS_KEY.test(code) ? code : null;
    else {
      const p = parseDealCode(code);
      if (p.ok) {
        r = makeDealCode(p.value.variant, p.value.cards);
        if (!this.#deals.has(r)) this.#deals.set(r, { variant: p.value.variant, cards: p.value.cards });
      }
    }
    this.#names.set(code, r);
    return r;
  }

  /** What is wrong with `row` of `table` (null: nothing). Tables and columns: schema.ts, version 2. */
  rowFault(table: string, row: Row): string | null {
    switch (table) {
      case 'studies': return this.#study(row);
      case 'runs': return this.#run(row);
      case 'results': return this.#result(row);
      case 'blind_results': return this.#blind(row);
      case 'deal_names': return this.#dealOnly(row) ?? (isText(row.name) ? null : `its name is ${show(row.name)}`);
      case 'study_deals':
        return this.#dealOnly(row) ?? (isInt(row.ord) && row.ord >= 0 ? null : `its place in the plan (ord) is ${show(row.ord)}`) ?? (isText(row.name) ? null : `its name is ${show(row.name)}`);
      default: return null;
    }
  }

  #dealOnly(row: Row): string | null {
    if (typeof row.deal === 'string' && this.#sound.has(row.deal)) return null;
    const d = this.deal(row.deal);
    return typeof d === 'string' && d !== 'pos' ? d : null;
  }

  #study(row: Row): string | null {
    if (!isText(row.name)) return `its name is ${show(row.name)}`;
    // a blind study (schema 3: a player named) has no budget: 0
    const blind = row.player !== null && row.player !== undefined;
    if (blind) {
      const pf = playerFault(row.player);
      if (pf) return pf;
      if (!isInt(row.player_seed) || row.player_seed < 0 || row.player_seed > 0xffffffff) return `its player seed is ${show(row.player_seed)}`;
    }
    if (!isInt(row.max_positions) || row.max_positions < (blind ? 0 : 1)) return `its budget is ${show(row.max_positions)}`;
    let params: unknown;
    try {
      params = typeof row.params === 'string' ? JSON.parse(row.params) : undefined;
    } catch {
      params = undefined;
    }
    if (params === null || typeof params !== 'object' || Array.isArray(params)) return `its parameters ${show(row.params)} are not a JSON object`;
    if (row.budgets !== null && row.budgets !== undefined && !blind) {
      const b = typeof row.budgets === 'string' ? row.budgets.split(',').map(Number) : [];
      if (b.length === 0 || b.some((x, i) => !Number.isInteger(x) || x < 1 || (i > 0 && x <= b[i - 1]!))) return `its budget ladder ${show(row.budgets)} is not increasing whole numbers`;
    }
    for (const c of ['planned', 'stopped_at'] as const) {
      if (row[c] !== null && row[c] !== undefined && !(isInt(row[c]) && (row[c] as number) >= 0)) return `its ${c} is ${show(row[c])}`;
    }
    return null;
  }

  #run(row: Row): string | null {
    if (!isText(row.uid)) return `its uid is ${show(row.uid)}`;
    if (!RUN_STATUSES.has(row.status as string)) return `its status is ${show(row.status)}`;
    for (const c of ['workers', 'planned', 'skipped', 'completed', 'errors'] as const) {
      if (!isInt(row[c]) || (row[c] as number) < 0) return `its ${c} is ${show(row[c])}`;
    }
    if ((row.errors as number) > (row.completed as number)) return `it counts ${show(row.errors)} errors of ${show(row.completed)} results`;
    return null;
  }

  #result(row: Row): string | null {
    // a won line known to win from this deal (replayed for another input, or held by the target):
    // its deal is sound, and neither is decoded nor replayed again
    const known = this.#replayLines && row.status === 'won' && typeof row.deal === 'string' && typeof row.line === 'string' && this.#replays.knownWin(row.deal, row.line);
    // a seeded name stands for its deal's cards (decoded cheaply, see #identityOf): the name first
    const named = typeof row.code === 'string' && !known && /^S[PE]\d-/i.test(row.code) ? this.#identityOf(row.code) : null;
    const d = known ? 'known' : this.deal(row.deal);
    if (typeof d === 'string' && d !== 'pos' && d !== 'known') return d;
    const deal = row.deal as string;
    if (known) this.#sound.add(deal);
    // the deal's game and suits: from its code (its first three characters: SP2X-…), or from its position key
    const [game, suits] = d === 'pos' || d === 'known' ? [deal.slice(d === 'pos' ? 4 : 0, d === 'pos' ? 6 : 2) === 'SP' ? 'spider' : 'spiderette', Number(deal[d === 'pos' ? 6 : 2])] : [d.variant.game, d.variant.suits];
    if (row.game !== game || row.suits !== suits) return `it is filed as ${show(row.game)} with ${show(row.suits)} suits, but its deal is ${game} with ${suits}`;
    if (typeof row.code !== 'string' || (row.code !== deal && (named ?? this.#identityOf(row.code)) !== deal)) return `its name ${show(row.code)} is not a name of its deal`;
    if (row.source_kind === 'seed') {
      const p = parseDealCode(row.code);
      if (!p.ok || p.value.seed !== row.seed) return `its seed ${show(row.seed)} is not the seed of ${show(row.code)}`;
    }
    if (!isText(row.solver_version)) return `its solver version is ${show(row.solver_version)}`;
    const budget = row.max_positions;
    if (!isInt(budget) || budget < 1) return `its budget is ${show(budget)}`;
    const status = row.status;
    if (!STATUSES.has(status as string)) return `its status is ${show(status)}`;
    const none = (cols: readonly string[]) => cols.find((c) => row[c] !== null && row[c] !== undefined);
    if (status === 'error') {
      const set = none(['positions', 'line', 'move_count', 'classic_score', 'reveal_score']);
      if (set) return `an error result with ${set} ${show(row[set])}`;
      return isText(row.error) ? null : `an error result without its message`;
    }
    if (row.error !== null && row.error !== undefined) return `a ${String(status)} result with an error message`;
    // (the solver stores at most the budget's positions, and always the start)
    const positions = row.positions;
    if (!isInt(positions) || positions < 1 || positions > budget) return `${show(positions)} positions at a budget of ${budget}`;
    if (status !== 'won') {
      const set = none(['move_count', 'classic_score', 'reveal_score']) ?? (row.line === '' ? undefined : none(['line']));
      return set ? `a ${String(status)} result with ${set} ${show(row[set])}` : null;
    }
    const line = row.line;
    if (!isText(line)) return `a won result with the line ${show(line)}`;
    if (!isInt(row.move_count)) return `a won result with the move count ${show(row.move_count)}`;
    if (d === 'pos' || d === 'known' || !this.#replayLines) {
      const n = line.split(' ').length;
      if (n !== row.move_count) return `its line has ${n} moves, but its move count is ${row.move_count}`;
      if (d !== 'known') return null;
    }
    const r = this.#replays.replay(deal, d === 'known' ? null : d, line);
    if ('fault' in r) return `its line does not replay to a win: ${r.fault}`;
    if (r.moves !== row.move_count) return `its line wins in ${r.moves} moves, but its move count is ${show(row.move_count)}`;
    if (r.classic !== row.classic_score || r.reveal !== row.reveal_score) return `its line scores ${r.classic} (classic) and ${r.reveal} (reveal), but its scores are ${show(row.classic_score)} and ${show(row.reveal_score)}`;
    return null;
  }
  /**
   * A blind game (`blind_results`, schema 3): its deal, name, game, suits and source as a result's;
   * its player, seed and version set; an error row with nothing else; else its line replays through
   * the rules engine (score.ts playLine, R6–R15) from the deal to its recorded end — won (R5) when its
   * status is `won`, not won with exactly `completed` suits removed when `stuck` — in `move_count`
   * moves. A mid-game position's line (`POS:`, not stored) is checked for its length only.
   */
  #blind(row: Row): string | null {
    const d = this.deal(row.deal);
    if (typeof d === 'string' && d !== 'pos') return d;
    const deal = row.deal as string;
    const [game, suits] = d === 'pos' ? [deal.slice(4, 6) === 'SP' ? 'spider' : 'spiderette', Number(deal[6])] : [d.variant.game, d.variant.suits];
    if (row.game !== game || row.suits !== suits) return `it is filed as ${show(row.game)} with ${show(row.suits)} suits, but its deal is ${game} with ${suits}`;
    if (typeof row.code !== 'string' || (row.code !== deal && this.#identityOf(row.code) !== deal)) return `its name ${show(row.code)} is not a name of its deal`;
    if (row.source_kind === 'seed') {
      const p = parseDealCode(row.code);
      if (!p.ok || p.value.seed !== row.seed) return `its seed ${show(row.seed)} is not the seed of ${show(row.code)}`;
    }
    const pf = playerFault(row.player);
    if (pf) return pf;
    if (!isInt(row.player_seed) || row.player_seed < 0 || row.player_seed > 0xffffffff) return `its player seed is ${show(row.player_seed)}`;
    if (typeof row.version !== 'string' || !BLIND_VERSION_RE.test(row.version)) return `its version is ${show(row.version)}, not blind-N/solver-X.Y.Z`;
    const status = row.status;
    if (!BLIND_STATUSES.has(status as string)) return `its status is ${show(status)}`;
    const none = (cols: readonly string[]) => cols.find((c) => row[c] !== null && row[c] !== undefined);
    if (status === 'error') {
      const set = none(['completed', 'move_count', 'line', 'solves', 'positions', 'cpu_ms']);
      if (set) return `an error result with ${set} ${show(row[set])}`;
      return isText(row.error) ? null : 'an error result without its message';
    }
    if (row.error !== null && row.error !== undefined) return `a ${String(status)} game with an error message`;
    for (const c of ['completed', 'move_count', 'solves', 'positions'] as const) {
      if (!isInt(row[c]) || (row[c] as number) < 0) return `its ${c} is ${show(row[c])}`;
    }
    if (typeof row.cpu_ms !== 'number' || !(row.cpu_ms >= 0)) return `its cpu_ms is ${show(row.cpu_ms)}`;
    const line = row.line;
    if (typeof line !== 'string') return `its line is ${show(line)}`;
    const moves = line === '' ? [] : line.split(' ');
    if (moves.length !== row.move_count) return `its line has ${moves.length} moves, but its move count is ${show(row.move_count)}`;
    if (d === 'pos') return null;
    const played = playLine(positionFromDeal(d.variant, d.cards), moves);
    if (!played.ok) return `its line does not replay: ${played.error.message}`;
    const p = played.value;
    if (status === 'won' && !p.won) return `a won game whose line ends with ${p.position.removed.length} of ${p.position.variant.completeSuits} suits completed, not won`;
    if (status === 'stuck' && p.won) return 'a stuck game whose line wins';
    if (p.position.removed.length !== row.completed) return `its line ends with ${p.position.removed.length} suits completed, but it records ${show(row.completed)}`;
    return null;
  }
}

/**
 * Why `player` is not a player spec as a batch stores it (the canonical text of a spec that parses,
 * src/blind/players/index.ts specText), or null when it is.
 */
function playerFault(player: unknown): string | null {
  if (!isText(player)) return `its player is ${show(player)}`;
  try {
    if (specText(parsePlayerSpec(player)) === player) return null;
    // a sample spec without `eval` (players' version 1 stored them so) means eval=win
    const legacy = `${player},eval=win`;
    if (player.startsWith('sample:') && !player.includes('eval=') && specText(parsePlayerSpec(legacy)) === legacy) return null;
  } catch {
    // not a spec at all
  }
  return `its player ${show(player)} is not a player spec as a batch stores it`;
}

/** A blind game's version as a batch stores it: `blind-<players' version>/solver-<solver version>`. */
const BLIND_VERSION_RE = /^blind-[0-9A-Za-z.-]+\/solver-\d+\.\d+\.\d+$/;

/** Statuses of a blind game (schema 3). */
const BLIND_STATUSES = new Set(['won', 'stuck', 'error']);

/** A row as a fault names it: its table, rowid and what identifies it to a person. */
function rowName(table: string, row: Row): string {
  const id = row.rowid;
  const what =
    table === 'results' ? `deal ${show(row.code)} at ${show(row.max_positions)} positions, solver ${show(row.solver_version)}`
    : table === 'blind_results' ? `deal ${show(row.code)} played blind by ${show(row.player)}, player seed ${show(row.player_seed)}, version ${show(row.version)}`
    : table === 'studies' ? `study ${show(row.name)}`
    : table === 'runs' ? `run ${show(row.uid)}`
    : `deal ${show(row.deal)}`;
  return `${table} row ${show(id)} (${what})`;
}

/** The tables checked, in the order merge copies them. */
export const VERIFIED_TABLES = ['studies', 'runs', 'results', 'blind_results', 'deal_names', 'study_deals'] as const;

/** Options of verifyDatabase. */
export interface VerifyOptions {
  /** Replays shared with the other inputs of the merge (default: a new one). */
  readonly replays?: ReplayCache;
  /** Replay won lines (default true); false only for made-up results (tests of a fake worker). */
  readonly replayLines?: boolean;
  /** `quick`: PRAGMA quick_check (no index against its table, no UNIQUE) instead of integrity_check. */
  readonly sqliteCheck?: 'integrity' | 'quick';
}

/**
 * Checks the open database `db` (schema version SCHEMA_VERSION) as the module comment says and returns its first
 * fault, or null when it is sound. Reads only. SQLite errors that stop the reading (SQLITE_CORRUPT
 * of a page the checks reach first, a lock held past the busy timeout) are thrown as they are.
 */
export function verifyDatabase(db: Database.Database, opts: VerifyOptions = {}): VerifyFault | null {
  const pragma = opts.sqliteCheck === 'quick' ? 'quick_check' : 'integrity_check';
  // (the first few faults: SQLite lists up to 100, one a row)
  const faults = db.prepare(`PRAGMA ${pragma}(5)`).pluck().all() as string[];
  if (!(faults.length === 1 && faults[0] === 'ok')) {
    // (one line: SQLite heads its list with "*** in database main ***" and a line break)
    const said = faults.slice(0, 3).map((f) => String(f).replace(/\*\*\* in database \w+ \*\*\*/g, '').replace(/\s*\n\s*/g, ' ').trim()).filter(Boolean);
    return { table: null, rowid: null, message: `SQLite's ${pragma.replace('_', ' ')} finds it damaged: ${said.join('; ')}` };
  }
  const fk = db.prepare('PRAGMA foreign_key_check').get() as { table: string; rowid: number; parent: string } | undefined;
  if (fk) return { table: fk.table, rowid: fk.rowid, message: `${fk.table} row ${fk.rowid}: refers to a row of ${fk.parent} that is not there` };
  const checker = new RowChecker(opts.replays, opts.replayLines ?? true);
  for (const table of VERIFIED_TABLES) {
    for (const row of db.prepare(`SELECT rowid AS "rowid", * FROM ${table} ORDER BY rowid`).iterate() as IterableIterator<Row>) {
      const fault = checker.rowFault(table, row);
      if (fault !== null) return { table, rowid: Number(row.rowid), message: `${rowName(table, row)}: ${fault}` };
    }
  }
  return null;
}
