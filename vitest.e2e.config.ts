import { defineConfig } from 'vitest/config';
import { slowFirst } from './test/slow-first.ts';

/**
 * The longest end-to-end files of a CI run, longest first (ms on 2 cores). Most of their time is
 * waiting: on the demo's timeline (a release 15 s in, its rollback at 38 s), on watchdogs,
 * Retry-After and retries. They start first, so the short files run beside their waits.
 */
const SLOW_E2E_FILES = [
  'test/e2e/timeline.e2e.ts', // 66,800
  'test/e2e/faults.e2e.ts', // 39,400
  'test/e2e/demo.e2e.ts', // 21,100
  'test/e2e/causes.e2e.ts', // 20,700
  'test/e2e/graph.e2e.ts', // 16,600
  'test/e2e/snapshots.e2e.ts', // 11,700
  'test/e2e/diff.e2e.ts', // 10,700
];

// End-to-end tests drive the browser shell in headless Chromium, each file with its own server
// and browser: two files at a time on a 2-core machine, one waiting while the other works.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    maxWorkers: 2,
    sequence: { sequencer: slowFirst(SLOW_E2E_FILES) },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
