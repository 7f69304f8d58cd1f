import { defineConfig } from 'vitest/config';

/** Browser tests: a real server and Debian's Chromium, one file at a time (2-core machines). */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./globalSetup.ts'],
    setupFiles: ['./failureSnapshot.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
