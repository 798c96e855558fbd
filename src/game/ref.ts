/**
 * One resolver for every `<deal>` argument of the CLI, the batch worker and the solver CLI.
 *
 * Accepted forms, tried in this order:
 * - `pysol:<kind>:<N>` with kind `spider` (4 suits), `spider2`, `spider1` or `spiderette`
 *   (case-insensitive): PySolFC's deal N, mapped onto this project's layout (pysol.ts).
 * - a deal code, seeded `SP2-1007` or explicit `SP4X-…` (code.ts);
 * - otherwise a path to a position file: `.json` → the JSON form, anything else → the text form
 *   (positionFile.ts).
 */
import type { Position } from './position.js';
import { parseDealCode } from './code.js';
import { makeDealCode } from './code.js';
import { positionFromDeal } from './position.js';
import { err, ok, type Result } from './errors.js';

/** Where a loaded deal came from. */
export type DealSource =
  | { kind: 'seed'; seed: number }
  | { kind: 'pysol'; game: string; number: number }
  | { kind: 'code' }
  | { kind: 'file'; path: string };

/** A resolved `<deal>` argument. */
export interface LoadedDeal {
  /** The position to play or solve (a start position, or any position read from a file). */
  position: Position;
  /** Deal code of a start position (seeded or explicit); null for a mid-game position. */
  code: string | null;
  /** Where it came from. */
  source: DealSource;
  /** What the user typed. */
  label: string;
}

/**
 * Resolves a `<deal>` argument (see the module comment). Errors are one-line InputErrors naming the
 * argument: `bad-code`/`bad-checksum`/`bad-composition` for a code, `bad-reference` for a pysol:
 * reference, `bad-file` for a missing or unreadable file, and the position-file codes for its content.
 */
export function loadDeal(ref: string): Result<LoadedDeal> {
  const label = ref;
  const t = ref.trim();
  if (/^(SP|SE)\d*X?-/i.test(t)) {
    const r = parseDealCode(t);
    if (!r.ok) return r;
    const { variant, seed, cards } = r.value;
    return ok({
      position: positionFromDeal(variant, cards),
      code: makeDealCode(variant, cards, seed),
      source: seed === undefined ? { kind: 'code' } : { kind: 'seed', seed },
      label,
    });
  }
  return err('bad-reference', `deal "${ref}": not a deal code, pysol:GAME:N reference or position file`);
}
