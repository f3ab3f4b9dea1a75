/**
 * The demo's developer recorded through the real access checks and informers, and the payments
 * RoleBinding deleted while it runs (revoked-namespace and revoked-deleted tests): the simulator,
 * an admin client, the engine's LiveCluster as dev, a recording history store, and
 * payments/payments-api's uid, taken once it was watched.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../electron/engine/diff/cluster/client.ts';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { openStore, type HistoryStore } from '../../../../electron/engine/history/store.ts';
import { StreamHub } from '../../../../electron/engine/hub.ts';
import { LiveCluster } from '../../../../electron/engine/live-cluster.ts';
import { startDemoWithDeveloper } from '../../../../electron/engine/simcluster/demo-users.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { waitFor } from '../informers/helpers.ts';

const BINDING = '/apis/rbac.authorization.k8s.io/v1/namespaces/payments/rolebindings';
/** Short, so the tests need not wait minutes for a stretch to count as a gap. */
export const GAP_MS = 300;

export interface Revoked {
  sim: SimCluster;
  admin: ApiClient;
  cluster: LiveCluster;
  recording: HistoryStore;
  /** When recording started. */
  from: number;
  /** payments-api's uid, recorded while payments could be read. */
  uid: string;
  paymentsApi(): SlimObject | undefined;
  /** Grants the deleted RoleBinding again and has the engine check its access. */
  grantAgain(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the developer's recording and revokes payments: resolves once payments is out of view. */
export async function startRevoked(): Promise<Revoked> {
  const temp = await withTempDir();
  const sim = await startDemoWithDeveloper({ controllers: false, onError: () => {} });
  const admin = await createApiClient(sim.kubeconfigObject());
  const cluster = new LiveCluster({ hub: new StreamHub(), log: () => undefined });
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
  const stop = async (): Promise<void> => {
    recording.close();
    await cluster.stop();
    admin.close();
    await sim.stop();
    await temp.cleanup();
  };
  try {
    await cluster.reset('kubedrift-demo-dev');
    await cluster.watch(sim.userKubeconfigObject('dev'));
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
    const grantAgain = async (): Promise<void> => {
      const body = binding.body as { metadata: Record<string, unknown> };
      const granted = await admin.request('POST', BINDING, { json: { ...body, metadata: { name: 'dev-view', namespace: 'payments' } }, contentType: 'application/json' });
      expect(granted.status).toBe(201);
      await cluster.recheckAccess();
    };
    return { sim, admin, cluster, recording, from, uid, paymentsApi, grantAgain, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
