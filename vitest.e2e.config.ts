import { defineConfig } from 'vitest/config';

// The browser end-to-end tests (`npm run test:e2e`): they build the library and
// the Next.js example, start it, and drive Debian's Chromium with playwright-core.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    // one Next.js server and one browser at a time: 2 cores
    fileParallelism: false,
    testTimeout: 90_000,
    // beforeAll installs the example's dependencies and runs `next build`
    hookTimeout: 600_000,
    teardownTimeout: 30_000,
  },
});
