import { defineConfig } from 'vitest/config';

// The packaging check builds out/ into a temp copy of the project and runs electron-builder
// against a stand-in Electron (test/package/): one file, one slow setup, run on its own.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
