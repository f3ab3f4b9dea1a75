import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSampleReader } from '../../../../electron/engine/history/sample-read.ts';
import { reopenIntact, runUntilKilled } from '../../../helpers/sigkill.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'kill-child.ts');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

/** Runs the recording child for `runMs`, then SIGKILLs it; resolves with the time of its last change. */
async function recordAndKill(file: string, runMs: number): Promise<{ lastChange: number; killedAt: number; stderr: string }> {
  let lastChange = 0;
  const { killedAt, stderr } = await runUntilKilled({
    args: ['--no-warnings', CHILD, file],
    ready: /^ready$/,
    runMs,
    onLine: (line, killed) => {
      const match = /^changed (\d+)$/.exec(line);
      if (match && !killed) lastChange = Number(match[1]);
    },
  });
  return { lastChange, killedAt, stderr };
}

describe('kill -9 while recording', () => {
  it('the database opens cleanly afterwards and at most the last second is lost, every time', async () => {
    const file = path.join(dir, 'history', 'kill.sqlite');
    for (const runMs of [1_300, 1_770, 2_150]) {
      const { lastChange, killedAt, stderr } = await recordAndKill(file, runMs);
      expect(stderr).not.toMatch(/paused|failed/);
      const db = reopenIntact(file);
      try {
        const workload = db.prepare("SELECT id FROM workloads WHERE uid = 'w'").get() as { id: number };
        const last = createSampleReader(db).at(workload.id, Number.MAX_SAFE_INTEGER);
        expect(last).not.toBeNull();
        // Everything changed up to a second before the kill is on disk.
        expect(last?.at ?? 0).toBeGreaterThanOrEqual(Math.min(lastChange, killedAt) - 1_000);
        expect(last?.at ?? 0).toBeLessThanOrEqual(killedAt);
        const batches = db.prepare('SELECT count(*) AS n FROM delta_batches').get() as { n: number };
        expect(batches.n).toBeGreaterThan(0);
      } finally {
        db.close();
      }
    }
  }, 30_000);
});
