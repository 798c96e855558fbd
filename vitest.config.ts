import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child processes (not threads): the in-process CLI runner (test/helpers/cli.ts runInProcess)
    // changes the working directory, which worker threads cannot.
    pool: 'forks',
    // The files of a worker share one process and its loaded modules instead of loading the solver,
    // the CLI and SQLite again for each file: every test restores what it changes (the environment,
    // the working directory, spies) and uses its own temporary folder.
    isolate: false,
    // The quick suite two files at a time, on a machine of two cores too: much of a batch test is
    // spent starting worker threads and waiting on timers, time in which the other file runs. The slow
    // suite (`vitest run slow.test`) one file at a time: each of its files starts many processes.
    maxWorkers: process.argv.includes('slow.test') ? 1 : 2,
  },
});
