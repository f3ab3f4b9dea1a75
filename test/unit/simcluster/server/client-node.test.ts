import { CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { call, startTestCluster, type TestCluster } from './helpers.ts';

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

function kubeConfig(yaml: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(yaml);
  return kc;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Shortens client-node's 30 s watch inactivity timeout (private in its types) so tests take a second. */
function withInactivityTimeout(watch: Watch, ms: number): Watch {
  (watch as unknown as { requestTimeoutMs: number }).requestTimeoutMs = ms;
  return watch;
}

describe('@kubernetes/client-node against the server', () => {
  it('lists over HTTPS with the generated kubeconfig', async () => {
    cluster = await startTestCluster({ tls: true, tokens: { readWrite: 'secret' } });
    const api = kubeConfig(cluster.server.kubeconfig()).makeApiClient(CoreV1Api);
    const list = await api.listNamespace();
    expect(list.items.map((n) => n.metadata?.name)).toEqual(['default']);
    expect(list.metadata?.resourceVersion).toBe(String(cluster.store.currentRv()));
  });

  it('keeps a client-node watch open past its inactivity timeout with newline keep-alives', async () => {
    cluster = await startTestCluster({ bookmarkIntervalMs: 100 });
    const { server, store } = cluster;
    const watch = withInactivityTimeout(new Watch(kubeConfig(server.kubeconfig())), 600);
    const events: string[] = [];
    let done: unknown;
    const controller = await watch.watch('/api/v1/namespaces/default/configmaps', { resourceVersion: String(store.currentRv()) }, (type) => events.push(type), (err) => (done = err ?? 'ended'));
    await sleep(1500);
    expect(done).toBeUndefined();
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } } });
    await sleep(100);
    expect(events).toEqual(['ADDED']);
    controller.abort();
  });

  it('is dropped by client-node after its timeout when keep-alives are slower', async () => {
    cluster = await startTestCluster({ bookmarkIntervalMs: 60_000 });
    const watch = withInactivityTimeout(new Watch(kubeConfig(cluster.server.kubeconfig())), 300);
    let done: unknown;
    await watch.watch('/api/v1/namespaces/default/configmaps', {}, () => undefined, (err) => (done = err));
    await sleep(800);
    expect(done).toBeInstanceOf(Error);
    expect((done as Error).name).toBe('TimeoutError');
  });
});
