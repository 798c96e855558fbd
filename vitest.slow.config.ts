import { defineConfig } from 'vitest/config';

// The slow tests only (`npm run test:slow`): real browsers and long runs, files test/*.slow.test.ts.
export default defineConfig({
  test: {
    include: ['test/**/*.slow.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
