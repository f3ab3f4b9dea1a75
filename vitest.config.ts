import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';
import { slowFirst } from './test/slow-first.ts';

/**
 * The history tests that drive a store through its interface, run a second time against the
 * shared PostgreSQL store (test/unit/engine/history/postgres-harness.ts starts the server).
 * disk-full.test.ts stays SQLite-only: it fills the journal file with SQLite's max_page_count.
 */
const HISTORY_SUITE = ['backfill', 'coverage', 'custom-resources', 'demo-operators', 'episode-causes', 'queries', 'recorder', 'retention', 'state-at'].map(
  (name) => `test/unit/engine/history/${name}.test.ts`,
);

/**
 * The longest unit files of a CI run, longest first (ms on 2 cores; history-postgres ones with its
 * server): started before the rest (test/slow-first.ts). A stale list costs time, never a test.
 */
const SLOW_UNIT_FILES = [
  'test/unit/bench/bench.test.ts', // 92,000
  'test/unit/engine/history/retention.test.ts', // 45,000 with PostgreSQL, 7,000 without
  'test/unit/engine/history/ground-truth.test.ts', // 32,000
  'test/unit/engine/history/state-at.test.ts', // postgres
  'test/unit/engine/history/recorder.test.ts', // postgres
  'test/unit/engine/history/episode-causes.test.ts', // postgres
  'test/unit/engine/history/custom-resources.test.ts', // postgres
  'test/unit/cli/cli.test.ts', // 22,000
  'test/unit/engine/history/queries.test.ts', // postgres
  'test/unit/cli/snapshot.test.ts', // 14,000
  'test/unit/cli/record.test.ts', // 12,000
  'test/unit/cli/record-takeover.test.ts', // 16,000: two recorders, PostgreSQL, a takeover after kill -9
  'test/unit/engine/history/sources.test.ts', // 14,000
  'test/unit/engine/history/sources-past.test.ts', // 15,000
  'test/kubectl/crd.test.ts', // 11,500
  'test/kubectl/apply.test.ts', // 10,500
  'test/unit/cli/record-kill.test.ts',
  'test/unit/cli/record-postgres.test.ts',
  'test/unit/cli/diff.test.ts', // 9,000
  'test/kubectl/workloads.test.ts', // 9,000
  'test/kubectl/diff-parity.test.ts', // 7,600
  'test/unit/cli/serve-smoke.test.ts', // 7,400
  'test/kubectl/access.test.ts', // 7,200
  'test/unit/engine/history/kill.test.ts', // 6,300
];

export default defineConfig({
  plugins: [vue()],
  test: {
    environment: 'node',
    // Vitest's default on 2 cores is one worker (cores - 1), which leaves a core idle while a file
    // waits on the processes and servers it started (kubectl, the CLI, PostgreSQL, the simulator):
    // two files at a time keep both cores busy. A test that starts several `kubedrift` processes
    // (~1.5 CPU-s each to load) then shares the cores with another file: up to twice as long as
    // alone, hence 40 s where one file at a time had 20 s.
    maxWorkers: 2,
    testTimeout: 40_000,
    // The longest files start first, so none of them is left running alone at the end.
    sequence: { sequencer: slowFirst(SLOW_UNIT_FILES) },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/kubectl/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'history-postgres',
          include: HISTORY_SUITE,
          env: { KUBEDRIFT_TEST_HISTORY_STORE: 'postgres' },
          // Every flush goes through a real server and back, beside the rest of the suite: the
          // retention tests (four days of 20 KB pods) take 7-12 s on a quiet VM, 30-70 s on a loaded one.
          testTimeout: 180_000,
        },
      },
    ],
  },
});
