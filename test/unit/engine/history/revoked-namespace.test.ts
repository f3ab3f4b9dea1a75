/**
 * Issue #18's revoked namespace, end to end in the engine: the demo's developer watches shop and
 * payments through the real access checks and informers, the history records them, and the
 * payments RoleBinding is deleted while it runs. payments/payments-api leaves the live cache but
 * the history does not call it deleted: it records the stretch it was out of view (a gap on its
 * chart), and when the binding is granted again the same uid goes on after the gap.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../electron/engine/diff/cluster/client.ts';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { openStore, type HistoryStore } from '../../../../electron/engine/history/store.ts';
import { StreamHub } from '../../../../electron/engine/hub.ts';
import { LiveCluster } from '../../../../electron/engine/live-cluster.ts';
import { startDemoWithDeveloper } from '../../../../electron/engine/simcluster/demo-users.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { waitFor } from '../informers/helpers.ts';

const BINDING = '/apis/rbac.authorization.k8s.io/v1/namespaces/payments/rolebindings';
/** Short, so the test need not wait minutes for a stretch to count as a gap. */
const GAP_MS = 300;

let sim: SimCluster | undefined;
let live: LiveCluster | undefined;
let admin: ApiClient | undefined;
let store: HistoryStore | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  store?.close();
  await live?.stop();
  admin?.close();
  await sim?.stop();
  await cleanup?.();
  store = undefined;
  live = undefined;
  admin = undefined;
  sim = undefined;
});

describe('history of a namespace whose access is revoked while the app runs', () => {
  it('keeps its workload (not deleted), records a gap while it is out of view, and goes on with the same uid when access returns', async () => {
    const temp = await withTempDir();
    cleanup = temp.cleanup;
    sim = await startDemoWithDeveloper({ controllers: false, onError: () => {} });
    admin = await createApiClient(sim.kubeconfigObject());
    const cluster = new LiveCluster({ hub: new StreamHub(), log: () => undefined });
    live = cluster;
    await cluster.reset('kubedrift-demo-dev');
    await cluster.watch(sim.userKubeconfigObject('dev'));
    const recording = openStore({
      file: historyFile(path.join(temp.dir, 'data'), 'kubedrift-demo-dev'),
      context: 'kubedrift-demo-dev',
      cache: cluster.cache,
      record: true,
      now: Date.now,
      log: () => undefined,
      limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: () => undefined,
      timing: { flushIntervalMs: 2 ** 30, heartbeatCheckMs: 2 ** 30, retryMs: 2 ** 30, gapMs: GAP_MS },
    });
    store = recording;
    const from = Date.now();
    const paymentsApi = () => cluster.cache.list('deployments.apps').find((d) => d.metadata.namespace === 'payments' && d.metadata.name === 'payments-api');
    await waitFor('payments-api watched', () => paymentsApi() !== undefined && cluster.accessState().summary?.namespaces.join() === 'payments,shop', 10_000);
    const uid = paymentsApi()?.metadata.uid as string;
    await recording.flush();

    const binding = await admin.request('GET', `${BINDING}/dev-view`);
    expect(binding.status).toBe(200);
    expect((await admin.request('DELETE', `${BINDING}/dev-view`)).status).toBe(200);
    // The server does not end open watches on an RBAC change; the next reconnect meets the 403.
    cluster.restartAll('test: reconnect');
    await waitFor('payments out of view', () => paymentsApi() === undefined && cluster.accessState().summary?.namespaces.join() === 'shop', 10_000);
    await recording.flush();
    const row = () => recording.db.prepare('SELECT deleted_at FROM workloads WHERE uid = ?').get(uid) as { deleted_at: number | null };
    const stretches = () => recording.db.prepare('SELECT u.start_at AS start, u.end_at AS "end" FROM unobserved u JOIN workloads w ON w.id = u.workload_id WHERE w.uid = ?').all(uid) as Array<{ start: number; end: number | null }>;
    expect(row().deleted_at).toBeNull();
    expect(stretches()).toEqual([{ start: expect.any(Number), end: null }]);
    // shop's workloads stayed in view.
    expect(recording.episodes.episodes({ from, to: Date.now(), namespace: 'shop' }).workloadGaps).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 2 * GAP_MS));
    const body = binding.body as { metadata: Record<string, unknown> };
    const granted = await admin.request('POST', BINDING, { json: { ...body, metadata: { name: 'dev-view', namespace: 'payments' } }, contentType: 'application/json' });
    expect(granted.status).toBe(201);
    await cluster.recheckAccess();
    await waitFor('payments-api back', () => paymentsApi() !== undefined, 10_000);
    expect(paymentsApi()?.metadata.uid).toBe(uid);
    await recording.flush();

    expect(row().deleted_at).toBeNull();
    const [stretch] = stretches();
    expect(stretch?.end).not.toBeNull();
    const series = recording.series({ uid, from, to: Date.now() });
    expect(series?.gaps).toEqual([{ start: stretch?.start, end: stretch?.end, reason: 'access-withdrawn' }]);
    expect(recording.episodes.episodes({ from, to: Date.now(), namespace: 'payments' }).workloadGaps.map((gap) => gap.uid)).toContain(uid);
  });
});
