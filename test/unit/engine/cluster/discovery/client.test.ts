import { afterEach, describe, expect, it } from 'vitest';
import type { DiscoveryProgress } from '../../../../../shared/discovery.ts';
import { AGGREGATED_DISCOVERY_ACCEPT, readDiscovery } from '../../../../../electron/engine/cluster/discovery/client.ts';
import { resolveKinds } from '../../../../../electron/engine/cluster/discovery/resolve.ts';
import { ApiStatusError } from '../../../../../electron/engine/cluster/informers/http.ts';
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { AGGREGATED_API, AGGREGATED_APIS, LEGACY, SERVICE_UNAVAILABLE } from './fixtures.ts';

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const signal = () => new AbortController().signal;
const METRICS_DOWN = { '/apis/metrics.k8s.io/v1beta1': { status: 503, body: SERVICE_UNAVAILABLE } };

async function discover(server: FakeServer, options: { concurrency?: number; onProgress?: (p: DiscoveryProgress) => void } = {}) {
  const result = await readDiscovery(server.transport(), { signal: signal(), ...options });
  return { result, ...resolveKinds(result.groups) };
}

describe('aggregated discovery', () => {
  it('reads every group from /api and /apis with the aggregated Accept header', async () => {
    fake = await startFakeServer({ ...METRICS_DOWN }, { api: AGGREGATED_API, apis: AGGREGATED_APIS });
    const { result, kinds } = await discover(fake);
    expect(result.source).toBe('aggregated');
    expect(fake.requests.filter((r) => r.path === '/api' || r.path === '/apis').map((r) => r.accept)).toEqual([AGGREGATED_DISCOVERY_ACCEPT, AGGREGATED_DISCOVERY_ACCEPT]);
    const byKey = new Map(kinds.map((k) => [k.key, k]));
    expect(byKey.get('deployments.apps')).toEqual({
      key: 'deployments.apps',
      ref: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
      versions: ['v1'],
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      listable: true,
      watchable: true,
      subresources: { status: true, scale: true },
      shortNames: ['deploy'],
      categories: ['all'],
    });
    expect(byKey.get('nodes')?.ref).toEqual({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false });
    expect(byKey.get('certificates.cert-manager.io')).toMatchObject({ ref: { kind: 'Certificate', version: 'v1' }, shortNames: ['cert', 'certs'], categories: ['cert-manager'] });
  });

  it('takes the first listed version as preferred and lists every served version', async () => {
    fake = await startFakeServer({ ...METRICS_DOWN }, { api: AGGREGATED_API, apis: AGGREGATED_APIS });
    const byKey = new Map((await discover(fake)).kinds.map((k) => [k.key, k]));
    expect(byKey.get('horizontalpodautoscalers.autoscaling')).toMatchObject({ ref: { version: 'v2' }, versions: ['v2', 'v1'] });
    expect(byKey.get('widgets.example.com')).toMatchObject({ ref: { version: 'v2' }, versions: ['v2', 'v1'], subresources: { status: true, scale: true } });
    // Served only by the non-preferred version: read there.
    expect(byKey.get('gadgets.example.com')).toMatchObject({ ref: { version: 'v1', namespaced: false }, versions: ['v1'] });
  });

  it('skips subresources and create-only resources as kinds, and keeps list-only ones as not watchable', async () => {
    fake = await startFakeServer({ ...METRICS_DOWN }, { api: AGGREGATED_API, apis: AGGREGATED_APIS });
    const { kinds } = await discover(fake);
    const keys = kinds.map((k) => k.key);
    expect(keys).not.toContain('bindings');
    expect(keys).not.toContain('subjectaccessreviews.authorization.k8s.io');
    expect(keys.some((k) => k.includes('/'))).toBe(false);
    expect(kinds.find((k) => k.key === 'componentstatuses')).toMatchObject({ listable: true, watchable: false });
  });

  it("marks a Stale group version unavailable with the server's 503 message and reads the rest", async () => {
    fake = await startFakeServer({ ...METRICS_DOWN }, { api: AGGREGATED_API, apis: AGGREGATED_APIS });
    const { kinds, unavailable } = await discover(fake);
    const message = 'The server answered 503 ServiceUnavailable for metrics.k8s.io/v1beta1: the server is currently unable to handle the request';
    expect(unavailable).toEqual([{ group: 'metrics.k8s.io', version: 'v1beta1', message }]);
    expect(kinds.find((k) => k.key === 'pods.metrics.k8s.io')).toMatchObject({ unavailable: message });
    expect(kinds.filter((k) => k.unavailable !== undefined).map((k) => k.key)).toEqual(['nodes.metrics.k8s.io', 'pods.metrics.k8s.io']);
    expect(kinds.find((k) => k.key === 'pods')?.unavailable).toBeUndefined();
  });

  it('reads a stale group version from its own list once the APIService answers again', async () => {
    fake = await startFakeServer(
      { '/apis/metrics.k8s.io/v1beta1': { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'metrics.k8s.io/v1beta1', resources: [{ name: 'pods', kind: 'PodMetrics', namespaced: true, verbs: ['get', 'list'] }] } },
      { api: AGGREGATED_API, apis: AGGREGATED_APIS },
    );
    const { kinds, unavailable } = await discover(fake);
    expect(unavailable).toEqual([]);
    expect(kinds.filter((k) => k.ref.group === 'metrics.k8s.io').map((k) => [k.key, k.unavailable])).toEqual([['pods.metrics.k8s.io', undefined]]);
  });
});

describe('legacy discovery', () => {
  it('falls back to per-group-version lists when /api and /apis answer APIVersions and APIGroupList', async () => {
    fake = await startFakeServer({ ...LEGACY, ...METRICS_DOWN });
    const { result, kinds, unavailable } = await discover(fake);
    expect(result.source).toBe('legacy');
    expect(fake.requests.filter((r) => r.path === '/api' || r.path === '/apis')).toHaveLength(2);
    expect(fake.requests.map((r) => r.path).sort()).toEqual(
      ['/api', '/api/v1', '/apis', '/apis/apps/v1', '/apis/autoscaling/v1', '/apis/autoscaling/v2', '/apis/example.com/v1', '/apis/example.com/v2', '/apis/metrics.k8s.io/v1beta1'].sort(),
    );
    const byKey = new Map(kinds.map((k) => [k.key, k]));
    expect(byKey.get('pods')).toMatchObject({ subresources: { status: true, scale: false }, shortNames: ['po'], categories: ['all'] });
    expect(byKey.get('deployments.apps')?.subresources).toEqual({ status: true, scale: true });
    expect(byKey.get('horizontalpodautoscalers.autoscaling')).toMatchObject({ ref: { version: 'v2' }, versions: ['v2', 'v1'] });
    // preferredVersion decides, not the order the versions are listed in.
    expect(byKey.get('widgets.example.com')).toMatchObject({ ref: { version: 'v2' }, versions: ['v2', 'v1'] });
    expect(byKey.get('gadgets.example.com')?.ref.version).toBe('v1');
    expect(unavailable).toEqual([{ group: 'metrics.k8s.io', version: 'v1beta1', message: expect.stringContaining('503 ServiceUnavailable') }]);
  });

  it('reads hundreds of group versions a bounded number at a time and reports progress', async () => {
    const documents: Record<string, object> = { '/api': LEGACY['/api'] as object, '/api/v1': LEGACY['/api/v1'] as object };
    const groups = Array.from({ length: 60 }, (_, i) => `crd${i}.example.io`);
    documents['/apis'] = { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((name) => ({ name, versions: [{ groupVersion: `${name}/v1`, version: 'v1' }], preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' } })) };
    for (const name of groups) {
      documents[`/apis/${name}/v1`] = { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${name}/v1`, resources: [{ name: 'things', singularName: 'thing', namespaced: true, kind: 'Thing', verbs: ['get', 'list', 'watch'] }] };
    }
    fake = await startFakeServer(documents);
    fake.delayMs = 5;
    const progress: DiscoveryProgress[] = [];
    const { kinds } = await discover(fake, { concurrency: 4, onProgress: (p) => progress.push(p) });
    expect(kinds.filter((k) => k.ref.kind === 'Thing')).toHaveLength(60);
    expect(fake.maxInFlight).toBeLessThanOrEqual(4);
    expect(fake.maxInFlight).toBeGreaterThan(1);
    expect(progress[0]).toEqual({ done: 0, total: 2 });
    expect(progress.at(-1)).toEqual({ done: 63, total: 63 });
    expect(progress.every((p, i) => i === 0 || p.done >= (progress[i - 1] as DiscoveryProgress).done)).toBe(true);
  });

  it('drops a group version that is gone (404) by the time it is read', async () => {
    const { '/apis/example.com/v1': _gone, ...rest } = LEGACY;
    fake = await startFakeServer({ ...rest, ...METRICS_DOWN });
    const { kinds, unavailable } = await discover(fake);
    expect(kinds.find((k) => k.key === 'gadgets.example.com')).toBeUndefined();
    expect(kinds.find((k) => k.key === 'widgets.example.com')).toMatchObject({ versions: ['v2'] });
    expect(unavailable.map((u) => u.group)).toEqual(['metrics.k8s.io']);
  });
});

describe('discovery failures', () => {
  it('rejects with the server status when /apis cannot be read at all', async () => {
    fake = await startFakeServer({ ...LEGACY, '/apis': { status: 500, body: { kind: 'Status', code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' } } });
    const failure = readDiscovery(fake.transport(), { signal: signal() });
    await expect(failure).rejects.toBeInstanceOf(ApiStatusError);
    await expect(failure).rejects.toThrow('etcdserver: request timed out');
  });

  it('rejects with a clear message when /apis answers something that is not discovery', async () => {
    fake = await startFakeServer({ ...LEGACY, '/apis': { kind: 'Status', status: 'Success' } });
    await expect(readDiscovery(fake.transport(), { signal: signal() })).rejects.toThrow(/^\/apis answered neither APIGroupDiscoveryList nor APIGroupList \(kind: /);
  });

  it('rejects on a 401 for a group version: the credentials, not the group, are at fault', async () => {
    fake = await startFakeServer({ ...LEGACY, ...METRICS_DOWN, '/apis/apps/v1': { status: 401, body: { kind: 'Status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' } } });
    await expect(readDiscovery(fake.transport(), { signal: signal() })).rejects.toMatchObject({ status: 401 });
  });
});
