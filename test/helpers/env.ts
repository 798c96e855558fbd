/**
 * Environment variables for the test worker (test/batch-fixtures/test.worker.ts), set for the duration
 * of one call: a pool's workers copy the environment when they are created, so the variables must be
 * set while the batch runs, then restored.
 */

/** Sets `env` in process.env for the duration of `f`, then restores each variable (or removes it). */
export async function withEnv<T>(env: Record<string, string>, f: () => Promise<T>): Promise<T> {
  const old = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await f();
  } finally {
    for (const [k, v] of Object.entries(old)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
