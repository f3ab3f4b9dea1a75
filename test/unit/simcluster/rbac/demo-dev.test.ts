/** The demo's restricted user as in-process clients (the engine's client-node) see it. */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';

let cluster: SimCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

describe('a preset restricted user of the simulated cluster', () => {
  it('reads its namespaces through its own kubeconfig and gets the real 403 cluster-wide', async () => {
    cluster = await startSimCluster({ scenario: 'demo', controllers: false, users: [{ name: 'dev', role: 'view', namespaces: ['shop', 'payments'] }], onError: () => {} });
    const config = cluster.userKubeconfigObject('dev', 'kubedrift-demo-dev');
    expect(config['current-context']).toBe('kubedrift-demo-dev');
    expect(config.users[0]?.user.token).toMatch(/^kubedrift-dev-[0-9a-f]{32}$/);
    const kc = new KubeConfig();
    kc.loadFromString(stringify(config));
    const api = kc.makeApiClient(CoreV1Api);
    const shop = await api.listNamespacedService({ namespace: 'shop' });
    expect(shop.items.length).toBeGreaterThan(0);
    await expect(api.listServiceForAllNamespaces()).rejects.toMatchObject({
      code: 403,
      body: expect.stringContaining('services is forbidden: User \\"dev\\" cannot list resource \\"services\\" in API group \\"\\" at the cluster scope'),
    });
    await expect(api.listNamespacedService({ namespace: 'platform' })).rejects.toMatchObject({ code: 403 });
  });

  it('writes a context per user beside the admin\'s, with client certificates', async () => {
    cluster = await startSimCluster({ scenario: 'minimal', controllers: false, users: [{ name: 'ops', role: 'edit' }], onError: () => {} });
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfigWithUsers());
    expect(kc.getContexts().map((c) => c.name)).toEqual(['kubedrift-demo', 'kubedrift-demo-ops']);
    expect(kc.getCurrentContext()).toBe('kubedrift-demo');
    expect(kc.getUser('kubedrift-demo-ops')?.certData).toBeTruthy();
    kc.setCurrentContext('kubedrift-demo-ops');
    const nodes = kc.makeApiClient(CoreV1Api).listNode();
    await expect(nodes).rejects.toMatchObject({ code: 403 });
    expect((await kc.makeApiClient(CoreV1Api).listPodForAllNamespaces()).items).toBeDefined();
  });
});
