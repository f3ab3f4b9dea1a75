/**
 * Issue #20 against the demo with its developer user: payments' RoleBinding is deleted while the
 * app records, payments/payments-api is deleted while the developer cannot see it, and the binding
 * is granted again. When payments is listed again without it, the history closes its stretch out
 * of view there (it no longer grows to "now"), marks it gone (deleted at an unknown moment within
 * the stretch) and says so on its gap.
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

describe('a workload deleted while its namespace could not be read', () => {
  it('closes its stretch out of view when the namespace is listed again without it, as a deletion within the stretch', async () => {
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
    expect((await admin.request('DELETE', `${BINDING}/dev-view`)).status).toBe(200);
    cluster.restartAll('test: reconnect');
    await waitFor('payments out of view', () => paymentsApi() === undefined && cluster.accessState().summary?.namespaces.join() === 'shop', 10_000);
    await recording.flush();
    // Deleted while the developer cannot see it.
    expect((await admin.request('DELETE', '/apis/apps/v1/namespaces/payments/deployments/payments-api')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2 * GAP_MS));

    const body = binding.body as { metadata: Record<string, unknown> };
    const granted = await admin.request('POST', BINDING, { json: { ...body, metadata: { name: 'dev-view', namespace: 'payments' } }, contentType: 'application/json' });
    expect(granted.status).toBe(201);
    await cluster.recheckAccess();
    await waitFor('payments listed again', () => cluster.accessState().summary?.namespaces.join() === 'payments,shop' && cluster.cache.list('deployments.apps').some((d) => d.metadata.namespace === 'payments'), 10_000);
    await recording.flush();
    const stretches = () => recording.db.prepare('SELECT u.start_at AS start, u.end_at AS "end", u.gone FROM unobserved u JOIN workloads w ON w.id = u.workload_id WHERE w.uid = ?').all(uid) as Array<{ start: number; end: number | null; gone: number | null }>;
    await waitFor('the stretch closed', () => {
      void recording.flush();
      return stretches()[0]?.end !== null;
    }, 10_000);
    const [stretch] = stretches();
    expect(stretch?.gone).toBe(1);
    expect(paymentsApi()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 2 * GAP_MS));
    const gaps = recording.series({ uid, from, to: Date.now() })?.gaps;
    // It ends where payments was read again, not at "now".
    expect(gaps).toEqual([{ start: stretch?.start, end: stretch?.end, reason: 'access-withdrawn', deletedWithin: true }]);
  });
});
