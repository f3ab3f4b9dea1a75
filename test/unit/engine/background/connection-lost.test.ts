/**
 * A context recorded in the background while its API server goes away and comes back (the
 * simulated cluster's server closed, then listening again on the same port over the same
 * objects): nothing is sampled while the connection is lost, the drift episode open at the loss
 * ends there, the coverage shows a `connection-lost` gap, and the still-drifting Deployment
 * starts a new episode once the cluster answers and is listed again.
 */
import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { startContextRecorder, type ContextRecorder } from '../../../../electron/engine/background/context-recorder.ts';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { openStore } from '../../../../electron/engine/history/store.ts';
import { createApiExtensions } from '../../../../electron/engine/simcluster/api-extensions.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { startApiServer, type ApiServer } from '../../../../electron/engine/simcluster/server/http.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { DEPLOYMENTS } from '../../simcluster/controllers/cluster.ts';

/** Short, so a stretch of a second is a gap: samples every 200 ms, heartbeats checked every 50 ms. */
const GAP_MS = 500;
const TIMING = { flushIntervalMs: 50, heartbeatCheckMs: 50, heartbeatMs: 200, gapMs: GAP_MS };

let sim: SimCluster | undefined;
let again: ApiServer | undefined;
let recorder: ContextRecorder | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await recorder?.stop();
  await again?.close();
  await sim?.stop();
  await cleanup?.();
  recorder = sim = again = cleanup = undefined;
});

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function rows<T>(file: string, sql: string): T[] {
  if (!existsSync(file)) return [];
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe('a background recorder losing its API server', () => {
  it('samples nothing while the server is gone, ends the episode at the loss, and starts a new one once the cluster is listed again', async () => {
    const temp = await withTempDir();
    cleanup = temp.cleanup;
    const cluster = await startSimCluster({ scenario: 'minimal', tls: false, controllers: false, onError: () => undefined });
    sim = cluster;
    // default/web: one of two replicas ready, and no controller to change it.
    cluster.store.mutate(DEPLOYMENTS, 'default', 'web', (copy) => {
      copy['status'] = {
        observedGeneration: copy.metadata.generation,
        replicas: 2,
        readyReplicas: 1,
        availableReplicas: 1,
        updatedReplicas: 2,
        unavailableReplicas: 1,
        conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }],
      };
    });
    const file = historyFile(temp.dir, 'sim');
    recorder = startContextRecorder({
      context: 'sim',
      dataDir: temp.dir,
      clientConfig: async () => cluster.kubeconfigObject('sim'),
      now: Date.now,
      log: () => undefined,
      limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: () => undefined,
      timing: TIMING,
      informers: { backoff: { initialMs: 50, maxMs: 200 } },
    });
    const episodes = () => rows<{ start: number; end: number | null }>(file, 'SELECT start_at AS start, end_at AS "end" FROM episodes ORDER BY id');
    const sessions = () => rows<{ start: number; end: number; reason: string | null }>(file, 'SELECT start_at AS start, end_at AS "end", end_reason AS reason FROM sessions ORDER BY id');
    await until(() => episodes().length === 1, 'the episode of default/web');
    await new Promise((resolve) => setTimeout(resolve, 600));

    const { port } = cluster.server;
    await cluster.server.close();
    await until(() => sessions()[0]?.reason === 'connection-lost', 'the loss noticed');
    // Four times the gap with nobody answering.
    await new Promise((resolve) => setTimeout(resolve, 4 * GAP_MS));
    again = await startApiServer({ store: cluster.store, extensions: createApiExtensions({ version: cluster.version }), port, tls: false });
    await until(() => episodes().length === 2, 'a new episode after the reconnect');
    await new Promise((resolve) => setTimeout(resolve, 600));
    await recorder.stop();

    const [first, second] = sessions();
    const lostAt = first?.end as number;
    const backAt = second?.start as number;
    expect(backAt - lostAt).toBeGreaterThan(4 * GAP_MS);
    const [before, after] = episodes();
    // Closed at the loss (the same moment, give or take the clock read between two writes).
    expect(before?.end).toBeGreaterThanOrEqual(lostAt - 5);
    expect(before?.end).toBeLessThanOrEqual(lostAt);
    expect(after?.start).toBeGreaterThanOrEqual(backAt);
    expect(after?.end).toBeNull();

    const store = openStore({ file, context: 'sim', cache: new ObjectCache(), record: false, now: Date.now, log: () => undefined, limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }), onStatus: () => undefined, timing: TIMING });
    try {
      const from = first?.start as number;
      const to = second?.end as number;
      expect(store.gaps(from, to)).toEqual([{ start: lostAt, end: backAt, reason: 'connection-lost' }]);
      const uid = rows<{ uid: string }>(file, "SELECT uid FROM workloads WHERE name = 'web'")[0]?.uid as string;
      const ready = store.series({ uid, from, to })?.series.find((s) => s.name === 'ready')?.points ?? [];
      const sampled = ready.filter(([, value]) => value !== null).map(([at]) => at);
      expect(sampled.filter((at) => at > lostAt && at < backAt)).toEqual([]);
      expect(sampled.filter((at) => at < lostAt).length).toBeGreaterThan(1);
      expect(sampled.filter((at) => at > backAt).length).toBeGreaterThan(1);
    } finally {
      store.close();
    }
  });
});
