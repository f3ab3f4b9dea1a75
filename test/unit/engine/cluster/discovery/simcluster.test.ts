/**
 * The discovery registry against the simulated API server, through the engine's own transport:
 * aggregated discovery as kubectl 1.26+ gets it, and the legacy documents an older server sends.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscoveryProgress } from '../../../../../shared/discovery.ts';
import { DiscoveryRegistry } from '../../../../../electron/engine/cluster/discovery/registry.ts';
import { createTransport, type Transport } from '../../../../../electron/engine/cluster/informers/http.ts';
import { startSimCluster, type SimCluster } from '../../../../../electron/engine/simcluster/index.ts';
import { FakeClock, startRecordingProxy, type RecordingProxy } from '../../informers/helpers.ts';

let sim: SimCluster | undefined;
let proxy: RecordingProxy | undefined;
let transport: Transport | undefined;
let registry: DiscoveryRegistry | undefined;
afterEach(async () => {
  registry?.stop();
  transport?.close();
  await proxy?.close();
  await sim?.stop();
  registry = undefined;
  transport = undefined;
  proxy = undefined;
  sim = undefined;
});

/** A transport that asks for plain JSON only, as clients before aggregated discovery did. */
function legacyOnly(inner: Transport): Transport {
  return { ...inner, get: (path, options) => inner.get(path, { ...options, accept: 'application/json' }), renewCredentials: () => inner.renewCredentials(), close: () => inner.close() };
}

/** The kinds the engine watches today, by registry key, with the version and mode discovery must give them. */
const WATCHED_TODAY = {
  namespaces: ['v1', 'full'],
  nodes: ['v1', 'full'],
  pods: ['v1', 'full'],
  services: ['v1', 'full'],
  'deployments.apps': ['v1', 'full'],
  'replicasets.apps': ['v1', 'full'],
  'statefulsets.apps': ['v1', 'full'],
  'daemonsets.apps': ['v1', 'full'],
  'jobs.batch': ['v1', 'full'],
  'cronjobs.batch': ['v1', 'full'],
  'horizontalpodautoscalers.autoscaling': ['v2', 'full'],
  events: ['v1', 'full'],
};

function summary(r: DiscoveryRegistry): Record<string, [string, string]> {
  return Object.fromEntries(r.kinds().map((k) => [k.key, [k.ref.version, k.mode]]));
}

describe('discovery of the simulated cluster', () => {
  it('finds the built-in kinds in two requests with their preferred versions and modes', async () => {
    sim = await startSimCluster({ scenario: 'minimal', controllers: false, tls: false });
    proxy = await startRecordingProxy(sim);
    transport = createTransport(proxy.kubeconfig());
    registry = new DiscoveryRegistry({ transport, clock: new FakeClock() });
    await registry.start();
    expect(proxy.requests.map((r) => r.path).sort()).toEqual(['/api', '/apis']);
    expect(summary(registry)).toMatchObject({
      ...WATCHED_TODAY,
      configmaps: ['v1', 'metadata'],
      secrets: ['v1', 'metadata'],
      endpoints: ['v1', 'excluded'],
      'customresourcedefinitions.apiextensions.k8s.io': ['v1', 'metadata'],
      'events.events.k8s.io': ['v1', 'excluded'],
    });
    expect(registry.get('deployments.apps')).toMatchObject({
      ref: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
      subresources: { status: true, scale: true },
      shortNames: ['deploy'],
      categories: ['all'],
      custom: false,
    });
    expect(registry.get('nodes')?.ref.namespaced).toBe(false);
    expect(registry.state()).toMatchObject({ unavailable: [], progress: null, refreshedAt: expect.any(Number) });
  });

  it('reads the legacy documents with progress, and marks only a failing group version unavailable', async () => {
    sim = await startSimCluster({ scenario: 'minimal', controllers: false, tls: false });
    sim.server.faults.failRequests({ status: 500, match: (_method, path) => path === '/apis/autoscaling/v2' });
    transport = legacyOnly(createTransport(sim.kubeconfigObject()));
    registry = new DiscoveryRegistry({ transport, clock: new FakeClock(), concurrency: 2 });
    const progress: DiscoveryProgress[] = [];
    registry.onState((s) => {
      if (s.progress) progress.push(s.progress);
    });
    await registry.start();
    const { 'horizontalpodautoscalers.autoscaling': _hpa, ...others } = WATCHED_TODAY;
    expect(summary(registry)).toMatchObject({ ...others, secrets: ['v1', 'metadata'] });
    expect(registry.get('horizontalpodautoscalers.autoscaling')).toBeUndefined();
    expect(registry.state().unavailable).toEqual([{ group: 'autoscaling', version: 'v2', message: 'The server answered 500 InternalError for autoscaling/v2: Internal error occurred: injected fault' }]);
    const last = progress.at(-1);
    expect(last?.total).toBeGreaterThan(4);
    expect(last?.done).toBe(last?.total);
  });
});
