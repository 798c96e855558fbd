import { configDefaults, defineConfig } from 'vitest/config';

// `npm test` runs the quick tests; files named *.slow.test.ts (real browsers, long runs) run with
// `npm run test:slow` (vitest.slow.config.ts), which CI also runs.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/**/*.slow.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
