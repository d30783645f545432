import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 20_000,
    // a library warning no test asked for fails the test that emitted it (nothing is printed)
    setupFiles: ['test/helpers/library-warnings.ts'],
  },
});
