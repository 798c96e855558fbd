/**
 * The check a batch makes before it runs a shard taken from a scheduler's environment (a job array's
 * variables): that the database does not hold another shard of the study.
 */
import { InputError, pathForMessage, quoteInput } from '../game/errors.js';
import { fittingShard, shardAssignment } from './shard.js';
import type { ResultStore } from './store.js';

/**
 * Fewest deals of one shard a database must hold before refuseOtherShard infers that shard from them.
 * n deals of a shard of N also fit a shard of 2N by chance with probability 2^−(n−1), and n deals of
 * a whole study share a count by chance with probability about 1 − 1/ζ(n−1): some 2·10⁻⁶ at 20, where
 * 8 would refuse one resumed shard in a few hundred.
 */
export const SHARD_INFERENCE_MIN = 20;

/**
 * Refuses a shard run taken from a job array's environment (`shard`, K/N) into a database that holds
 * another shard of the study. Two cases:
 * - some of the study's deals there are not in shard K/N: the database was written with another
 *   count or index (`sbatch --array=2-3` resubmitting two tasks of `--array=0-3` reads as shards 0/2
 *   and 1/2; a Kubernetes Job's `--shard-count` changed), and this run would solve another set of
 *   deals into it. Exact: any one such deal is proof.
 * - all of them fall in one shard of a count that N divides at least twice (fittingShard, with at
 *   least SHARD_INFERENCE_MIN of them): the database holds a narrower shard, which this run would
 *   widen N'/N times over. That is what a Slurm array task resubmitted on its own (`sbatch
 *   --array=7`) looks like: an array of one task reads as shard 0/1, the whole study.
 * Nothing is refused once the plan has grown since the database's study was planned (the split is
 * of another length). Throws InputError `bad-option`. (A shard given with --shard is the user's word,
 * and not checked: one database may take several shards in turn.)
 */
export function refuseOtherShard(store: ResultStore, study: string, planned: number, shard: { readonly index: number; readonly count: number }, dbPath: string): void {
  const places = store.studyPlaces(study).filter((p) => p < planned);
  if (places.length === 0) return;
  // the split depends on the plan's length: a plan that grew since (lines added to its deals file,
  // which the study's next batch runs) splits every shard anew, and the shard this database holds
  // cannot be told (refusing then would refuse every task of the same array)
  const recorded = store.studyPlanned(study);
  if (recorded !== null && recorded !== planned) return;
  const fit = places.length >= SHARD_INFERENCE_MIN ? fittingShard(places, planned) : null;
  const give = (example: string) =>
    `a job array (or Indexed Job) resubmitted in part, or with another count, cannot tell the study's shard count, so give --shard K/N (the shard this database was written with, ${example}), or use another --db; nothing was run`;
  const assignment = shardAssignment(planned, shard.count);
  const outside = places.filter((p) => assignment[p] !== shard.index).length;
  if (outside > 0) {
    const was = fit && fit.count > 1 ? `, all of one shard of ${fit.count} (shard ${fit.index}/${fit.count}),` : '';
    throw new InputError(
      'bad-option',
      `database ${pathForMessage(dbPath)} holds ${places.length} deals of study ${quoteInput(study)}${was} of which ${outside} are not in this run's shard ${shard.index}/${shard.count}: ` +
        give(fit && fit.count > 1 ? `e.g. --shard ${fit.index}/${fit.count}` : 'as its run printed it'),
    );
  }
  if (!fit || fit.count < 2 * shard.count || fit.count % shard.count !== 0 || fit.index % shard.count !== shard.index) return;
  throw new InputError(
    'bad-option',
    `database ${pathForMessage(dbPath)} holds ${places.length} deals of study ${quoteInput(study)}, all of one shard of ${fit.count} (shard ${fit.index}/${fit.count}), but this run is shard ${shard.index}/${shard.count}, ` +
      `${fit.count / shard.count} times as many deals: ${give(`e.g. --shard ${fit.index}/${fit.count}`)}`,
  );
}
