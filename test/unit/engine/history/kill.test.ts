import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { createSampleReader } from '../../../../electron/engine/history/sample-read.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'kill-child.ts');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

/** Runs the recording child for `runMs`, then SIGKILLs it; resolves with the time of its last change. */
function recordAndKill(file: string, runMs: number): Promise<{ lastChange: number; killedAt: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-warnings', CHILD, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let lastChange = 0;
    let killedAt = 0;
    let stderr = '';
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') setTimeout(() => {
          killedAt = Date.now();
          child.kill('SIGKILL');
        }, runMs);
        const match = /^changed (\d+)$/.exec(line);
        if (match && !killedAt) lastChange = Number(match[1]);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the child exited by itself (${code}): ${stderr}`));
      else resolve({ lastChange, killedAt, stderr });
    });
  });
}

describe('kill -9 while recording', () => {
  it('the database opens cleanly afterwards and at most the last second is lost, every time', async () => {
    const file = path.join(dir, 'history', 'kill.sqlite');
    for (const runMs of [1_300, 1_770, 2_150]) {
      const { lastChange, killedAt, stderr } = await recordAndKill(file, runMs);
      expect(stderr).not.toMatch(/paused|failed/);
      const { db, recovered } = openHistoryDb(file);
      try {
        expect(recovered).toBeUndefined();
        expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
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
