/**
 * The blind half of the batch worker (workers/solve.worker.ts hands it every `BlindTask`): loads one
 * deal and plays it blind (src/blind/game.ts playBlind) with the task's player and seed. Input
 * `BlindTask`, output `BlindOutcome` (a plain object). A deal that cannot be loaded, a bad spec or a
 * player that throws rejects the task; the main thread stores it as an error. Knows nothing of SQLite.
 */
import { performance } from 'node:perf_hooks';
import { unwrap } from '../src/game/errors.js';
import { loadDeal } from '../src/game/ref.js';
import { playBlind } from '../src/blind/game.js';
import { parsePlayerSpec } from '../src/blind/players/index.js';
import { blindVersion } from '../src/batch/blind.js';
import { dealKey } from '../src/batch/deals.js';
import type { BlindOutcome, BlindTask } from '../src/batch/protocol.js';

/** Plays one task (exported for tests and for the solve worker, which dispatches to it). */
export function playTask(task: BlindTask): BlindOutcome {
  const t0 = performance.now();
  const loaded = unwrap(loadDeal(task.ref));
  const g = playBlind(loaded.position, parsePlayerSpec(task.player), task.seed);
  return {
    kind: 'blind',
    key: dealKey(loaded),
    player: g.player,
    version: blindVersion(),
    result: g.result,
    completed: g.completed,
    line: g.line.join(' '),
    moveCount: g.line.length,
    solves: g.work.solves,
    positions: g.work.positions,
    workerMs: performance.now() - t0,
  };
}

export default playTask;
