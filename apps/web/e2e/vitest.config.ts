import { defineConfig } from 'vitest/config';

/**
 * Browser tests: a real server and Debian's Chromium. Files run side by side (they mostly wait on
 * the browser and the server): each works on objects of its own, and a file that changes what the
 * whole server does (settings that apply to everyone, the licence, the admin's first login) starts
 * a server of its own (server.ts).
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./globalSetup.ts'],
    setupFiles: ['./failureSnapshot.ts'],
    maxWorkers: Number(process.env.E2E_WORKERS ?? 3),
    testTimeout: 60_000,
    // expect.poll waits for what the page shows; vitest gives up after 1 s, which a busy machine
    // (CI runs these files side by side with type-check and lint) overruns without anything wrong.
    expect: { poll: { timeout: 20_000 } },
    hookTimeout: 60_000,
  },
});
