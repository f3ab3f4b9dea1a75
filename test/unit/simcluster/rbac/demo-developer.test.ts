/**
 * The demo's developer as the engine's demo starts it: view in shop and payments, a
 * namespace-viewer ClusterRole, context namespace shop. Kubedrift works out its namespaces with
 * nothing added by hand, and the other namespaces stay forbidden to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AccessSummarySchema } from '../../../../shared/access.ts';
import { createApiClient, type ApiClient } from '../../../../electron/engine/diff/cluster/client.ts';
import { StreamHub } from '../../../../electron/engine/hub.ts';
import { LiveCluster } from '../../../../electron/engine/live-cluster.ts';
import { startDemoWithDeveloper } from '../../../../electron/engine/simcluster/demo-users.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { waitFor } from '../../engine/informers/helpers.ts';

let sim: SimCluster | undefined;
let live: LiveCluster | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await live?.stop();
  client?.close();
  await sim?.stop();
  sim = live = client = undefined;
});

describe("the demo's developer", () => {
  it('may list and watch namespaces and read shop and payments only; its context namespace is shop', async () => {
    sim = await startDemoWithDeveloper({ controllers: false, onError: () => {} });
    const config = sim.userKubeconfigObject('dev', 'kubedrift-demo-dev');
    expect(config.contexts[0]?.context.namespace).toBe('shop');
    client = await createApiClient(config);
    expect((await client.request('GET', '/api/v1/namespaces')).status).toBe(200);
    expect((await client.request('GET', '/api/v1/namespaces?watch=1&timeoutSeconds=1')).status).toBe(200);
    expect((await client.request('GET', '/api/v1/namespaces/shop/pods')).status).toBe(200);
    const other = await client.request('GET', '/api/v1/namespaces/platform/pods');
    expect(other.status).toBe(403);
    expect((other.body as { message?: string }).message).toBe('pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "platform"');
    expect((await client.request('DELETE', '/api/v1/namespaces/shop')).status).toBe(403);
    // The admin's kubeconfig is untouched.
    expect(sim.kubeconfigObject().contexts[0]?.context.namespace).toBeUndefined();
  });

  it('is found to see shop and payments with nothing added by hand, each from the namespace list and shop from the context', async () => {
    sim = await startDemoWithDeveloper({ controllers: false, onError: () => {} });
    const cluster = new LiveCluster({ hub: new StreamHub(), log: () => undefined });
    live = cluster;
    await cluster.reset('kubedrift-demo-dev');
    await cluster.watch(sim.userKubeconfigObject('dev', 'kubedrift-demo-dev'));
    await waitFor('the first access check', () => typeof cluster.accessState().summary?.checkedAt === 'number', 10_000);
    const summary = AccessSummarySchema.parse(cluster.accessState().summary);
    expect(summary).toMatchObject({ restricted: true, namespaces: ['payments', 'shop'], noAccess: false });
    const checked = Object.fromEntries(summary.checked.map((c) => [c.name, [c.state, [...c.sources].sort()]]));
    expect(checked['shop']).toEqual(['watched', ['context', 'namespace-list']]);
    expect(checked['payments']).toEqual(['watched', ['namespace-list']]);
    expect(checked['platform']).toEqual(['none', ['namespace-list']]);
    await waitFor('shop and payments deployments only', () => {
      const namespaces = new Set(cluster.cache.list('deployments.apps').map((d) => d.metadata.namespace));
      return namespaces.size === 2 && namespaces.has('shop') && namespaces.has('payments');
    }, 10_000);
  });
});
