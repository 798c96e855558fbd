/**
 * The worker of `npm run results -- confirm ROW` (src/results/confirm.ts workerLossChecker, a Piscina
 * pool of one thread): loads one deal (its name as the row names it) and searches it with
 * confirmLoss (src/solver/confirm.ts) at the task's budget. Input `{ deal, budget }`, output
 * ConfirmResult; a deal that cannot be loaded rejects the task with its message. The search runs
 * here, not on the main thread, so that a signal (Ctrl-C) is handled at once: the main thread aborts
 * the task, which ends this thread, and keeps the answers it has.
 */
import { loadDeal } from '../src/game/ref.js';
import { confirmLoss, type ConfirmResult } from '../src/solver/confirm.js';

/** Checks one loss again (exported for Piscina). */
export default function confirmTask(task: { readonly deal: string; readonly budget: number }): ConfirmResult {
  const loaded = loadDeal(task.deal);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return confirmLoss(loaded.value.position, task.budget);
}
