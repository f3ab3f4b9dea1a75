import { defineConfig } from 'vitest/config';

// End-to-end tests drive the browser shell in headless Chromium; one at a time, since each
// starts its own server and browser on a 2-core machine.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
