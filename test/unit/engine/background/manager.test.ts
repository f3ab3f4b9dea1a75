/**
 * Background recording against the simulated cluster: two contexts record while a third is
 * selected, selecting a recorded context hands its file over (its recorder stops, the samples it
 * wrote stay), and a context whose credentials fail is retried with its error shown, alone.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackgroundRecording, type BackgroundRecording } from '../../../../electron/engine/background/manager.ts';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import type { BackgroundStatus } from '../../../../shared/contracts/background.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let sim: SimCluster;
beforeAll(async () => {
  sim = await startSimCluster({ scenario: 'minimal' });
});
afterAll(async () => sim.stop());

function samplesIn(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return Number((db.prepare('SELECT coalesce(sum(count), 0) AS n FROM sample_blocks').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Rig {
  recording: BackgroundRecording;
  statuses: BackgroundStatus[];
  select(name: string | null): void;
  latest(context: string): BackgroundStatus['contexts'][number] | undefined;
}

function rig(dataDir: string, chosen: string[], failing: ReadonlySet<string> = new Set()): Rig {
  let selected: string | null = null;
  const statuses: BackgroundStatus[] = [];
  const recording = createBackgroundRecording({
    dataDir,
    now: Date.now,
    log: () => undefined,
    chosen: () => chosen,
    selected: () => selected,
    recordable: () => true,
    clientConfig: async (context) => {
      if (failing.has(context)) throw new Error('exec plugin "aws" exited with 255: the SSO session has expired');
      return sim.kubeconfigObject(context);
    },
    limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
    onStatus: (status) => statuses.push(status),
    recorder: { timing: { flushIntervalMs: 100 }, retryInitialMs: 200, retryMaxMs: 400 },
  });
  return {
    recording,
    statuses,
    select(name) {
      selected = name;
      recording.reconcile();
    },
    latest: (context) => statuses.at(-1)?.contexts.find((entry) => entry.context === context),
  };
}

describe('background recording', () => {
  it('records two contexts while a third is selected, each into its own file', async () => {
    const { dir, cleanup } = await withTempDir();
    const r = rig(dir, ['east', 'west', 'viewed']);
    try {
      r.select('viewed');
      await until(() => r.latest('east')?.state === 'recording' && r.latest('west')?.state === 'recording', 'both recorders');
      expect(r.latest('viewed')?.state).toBe('selected');
      await until(() => {
        void r.recording.flush();
        return samplesIn(historyFile(dir, 'east')) > 0 && samplesIn(historyFile(dir, 'west')) > 0;
      }, 'samples in both files');
      expect(r.latest('east')?.recordingSince).toEqual(expect.any(Number));
    } finally {
      await r.recording.dispose();
      await cleanup();
    }
  });

  it('hands a context over when it is selected, and takes it back when the user switches away', async () => {
    const { dir, cleanup } = await withTempDir();
    const r = rig(dir, ['east']);
    try {
      r.select(null);
      await until(() => r.latest('east')?.state === 'recording', 'east recording');
      await until(() => samplesIn(historyFile(dir, 'east')) > 0, 'east samples');
      r.select('east');
      expect(r.latest('east')).toMatchObject({ state: 'selected', recordingSince: null });
      // The store was closed synchronously: another connection can write the file at once.
      const db = new DatabaseSync(historyFile(dir, 'east'));
      db.exec('BEGIN IMMEDIATE; COMMIT;');
      db.close();
      r.select('other');
      await until(() => r.latest('east')?.state === 'recording', 'east recording again');
    } finally {
      await r.recording.dispose();
      await cleanup();
    }
  });

  it('retries a context whose credentials fail, with its error, while the others record', async () => {
    const { dir, cleanup } = await withTempDir();
    const r = rig(dir, ['good', 'expired'], new Set(['expired']));
    try {
      r.select(null);
      await until(() => r.latest('good')?.state === 'recording', 'good recording');
      await until(() => r.statuses.filter((s) => s.contexts.find((c) => c.context === 'expired')?.state === 'retrying').length >= 2, 'two failed attempts');
      const expired = r.latest('expired');
      expect(expired?.lastError?.message).toMatch(/credentials could not be read: exec plugin "aws" exited with 255/);
      expect(r.latest('good')?.state).toBe('recording');
    } finally {
      await r.recording.dispose();
      await cleanup();
    }
  });

  it('reports a token the API server refuses (401), and recovers once the credentials work again', async () => {
    const guarded = await startSimCluster({ scenario: 'minimal', token: 'right' });
    const { dir, cleanup } = await withTempDir();
    const statuses: BackgroundStatus[] = [];
    let token = 'expired';
    const config = guarded.kubeconfigObject('guarded') as { users: Array<{ user: Record<string, unknown> }> };
    const recording = createBackgroundRecording({
      dataDir: dir,
      now: Date.now,
      log: () => undefined,
      chosen: () => ['guarded'],
      selected: () => null,
      recordable: () => true,
      clientConfig: async () => ({ ...config, users: config.users.map((u) => ({ ...u, user: { ...u.user, token } })) }),
      limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: (status) => statuses.push(status),
      recorder: { retryInitialMs: 200, retryMaxMs: 400 },
    });
    const latest = () => statuses.at(-1)?.contexts[0];
    try {
      recording.reconcile();
      await until(() => latest()?.state === 'retrying', 'a refused attempt');
      expect(latest()?.lastError?.message).toMatch(/^https:\/\/127\.0\.0\.1:\d+ rejected the credentials \(401 Unauthorized\)/);
      token = 'right';
      await until(() => latest()?.state === 'recording', 'recording with the renewed token');
      // The last error stays visible after recovery, so the user can see what happened.
      expect(latest()?.lastError?.message).toMatch(/rejected the credentials \(401 Unauthorized\)/);
    } finally {
      await recording.dispose();
      await guarded.stop();
      await cleanup();
    }
  });

  it('reports an unreachable API server and keeps retrying', async () => {
    const { dir, cleanup } = await withTempDir();
    const r = rig(dir, ['gone']);
    const config = sim.kubeconfigObject('gone') as { clusters: Array<{ cluster: { server: string } }> };
    const recording = createBackgroundRecording({
      dataDir: dir,
      now: Date.now,
      log: () => undefined,
      chosen: () => ['gone'],
      selected: () => null,
      recordable: () => true,
      clientConfig: async () => ({ ...config, clusters: config.clusters.map((c) => ({ ...c, cluster: { ...c.cluster, server: 'https://127.0.0.1:1' } })) }),
      limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: (status) => r.statuses.push(status),
      recorder: { retryInitialMs: 200, retryMaxMs: 400 },
    });
    try {
      recording.reconcile();
      await until(() => r.latest('gone')?.state === 'retrying', 'a failed attempt');
      expect(r.latest('gone')?.lastError?.message).toMatch(/127\.0\.0\.1:1|refused|reach/i);
      expect(r.latest('gone')?.retryAt).toEqual(expect.any(Number));
    } finally {
      await recording.dispose();
      await r.recording.dispose();
      await cleanup();
    }
  });
});
