import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

/**
 * The history tests that drive a store through its interface, run a second time against the
 * shared PostgreSQL store (test/unit/engine/history/postgres-harness.ts starts the server).
 * disk-full.test.ts stays SQLite-only: it fills the journal file with SQLite's max_page_count.
 */
const HISTORY_SUITE = ['backfill', 'coverage', 'custom-resources', 'demo-operators', 'episode-causes', 'queries', 'recorder', 'retention', 'state-at'].map(
  (name) => `test/unit/engine/history/${name}.test.ts`,
);

export default defineConfig({
  plugins: [vue()],
  test: {
    environment: 'node',
    testTimeout: 20_000,
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
