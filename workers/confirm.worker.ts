/**
 * The worker of `npm run results -- confirm ROW` (src/results/confirm.ts workerLossChecker, a Piscina
 * pool of one thread): loads one deal (its name as the row names it) and searches it with
 * confirmLoss (src/solver/confirm.ts) at the task's budget. Input `{ deal, budget }`, output
 * ConfirmAnswer: the ConfirmResult, or the fault that stopped it (`load`: the deal cannot be loaded;
 * `memory`: the machine ran out of memory for the table, SolverMemoryError), with its message. The
 * search runs here, not on the main thread, so that a signal (Ctrl-C) is handled at once: the main
 * thread aborts the task, which ends this thread, and keeps the answers it has.
 */
import { loadDeal } from '../src/game/ref.js';
import type { ConfirmAnswer } from '../src/results/confirm.js';
import { confirmLoss } from '../src/solver/confirm.js';
import { SolverMemoryError } from '../src/solver/types.js';


/** Checks one loss again (exported for Piscina). Any other error (a defect) rejects the task. */
export default function confirmTask(task: { readonly deal: string; readonly budget: number }): ConfirmAnswer {
  const loaded = loadDeal(task.deal);
  if (!loaded.ok) return { fault: 'load', message: loaded.error.message };
  try {
    return { result: confirmLoss(loaded.value.position, task.budget) };
  } catch (e) {
    if (e instanceof SolverMemoryError) return { fault: 'memory', message: e.message };
    throw e;
  }
}
