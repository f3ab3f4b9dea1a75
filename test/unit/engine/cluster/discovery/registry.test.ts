import { afterEach, describe, expect, it } from 'vitest';
import { CRD_DEBOUNCE_MAX_MS, CRD_DEBOUNCE_MS, DISCOVERY_REFRESH_INTERVAL_MS } from '../../../../../electron/engine/cluster/discovery/registry.ts';
import type { FakeTimer } from '../../informers/helpers.ts';
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { AGGREGATED_API, AGGREGATED_APIS, SERVICE_UNAVAILABLE } from './fixtures.ts';
import { registryRig, type RegistryRig } from './registry-helpers.ts';

let fake: FakeServer | undefined;
let rig: RegistryRig | undefined;
afterEach(async () => {
  rig?.registry.stop();
  await fake?.close();
  fake = undefined;
  rig = undefined;
});

const METRICS_DOWN = { '/apis/metrics.k8s.io/v1beta1': { status: 503, body: SERVICE_UNAVAILABLE } };
const METRICS_UP = {
  '/apis/metrics.k8s.io/v1beta1': { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'metrics.k8s.io/v1beta1', resources: [{ name: 'pods', kind: 'PodMetrics', namespaced: true, verbs: ['get', 'list', 'watch'] }] },
};

/** A CRD object as the CRD watch reports it, for `example.com` `gadgets` v1 with the given schema. */
function gadgetCrd(schema: object | undefined, subresources?: object): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com', uid: 'crd-1', resourceVersion: '10', generation: 1 },
    spec: {
      group: 'example.com',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      scope: 'Cluster',
      versions: [{ name: 'v1', served: true, storage: true, ...(schema ? { schema: { openAPIV3Schema: schema } } : {}), ...(subresources ? { subresources } : {}) }],
    },
  };
}

async function started(documents: Record<string, object> = METRICS_DOWN): Promise<RegistryRig> {
  fake = await startFakeServer({ ...documents }, { api: AGGREGATED_API, apis: structuredClone(AGGREGATED_APIS) });
  rig = registryRig(fake);
  await rig.registry.start();
  return rig;
}

/** The one timer of a list, failing the test when there is not exactly one. */
function only(timers: FakeTimer[]): FakeTimer {
  if (timers.length !== 1 || !timers[0]) throw new Error(`expected one timer, found ${timers.length}`);
  return timers[0];
}

const apisRequests = () => fake?.requests.filter((r) => r.path === '/apis').length ?? 0;

describe('watch modes', () => {
  it('watches kinds with status in full and status-less built-ins as metadata', async () => {
    const { modes } = await started();
    expect(modes()).toMatchObject({
      pods: 'full',
      nodes: 'full',
      namespaces: 'full',
      services: 'full',
      persistentvolumeclaims: 'full',
      events: 'full',
      'deployments.apps': 'full',
      'statefulsets.apps': 'full',
      'cronjobs.batch': 'full',
      'horizontalpodautoscalers.autoscaling': 'full',
      configmaps: 'metadata',
      secrets: 'metadata',
      serviceaccounts: 'metadata',
      // No status, but read for the revision number that dates a rollout (history backfill).
      'controllerrevisions.apps': 'full',
    });
    expect(rig?.registry.get('secrets')?.message).toBe('Watched as metadata only, so Secret values never reach Kubedrift.');
  });

  it('excludes Leases, EndpointSlices, Endpoints and the events.k8s.io view of core Events by default', async () => {
    const { registry } = await started();
    expect(registry.get('leases.coordination.k8s.io')).toMatchObject({ mode: 'excluded', message: "Excluded by the context's rule coordination.k8s.io/Lease." });
    expect(registry.get('endpointslices.discovery.k8s.io')?.mode).toBe('excluded');
    expect(registry.get('endpoints')).toMatchObject({ mode: 'excluded', message: "Excluded by the context's rule core/Endpoints." });
    expect(registry.get('events.events.k8s.io')).toMatchObject({ mode: 'excluded', message: 'The same objects as core v1 Events, which are watched.' });
  });

  it('watches custom resources in full unless their CRD defines no status', async () => {
    const { registry } = await started();
    expect(registry.get('certificates.cert-manager.io')).toMatchObject({ mode: 'full', custom: true });
    // Gadgets have no status subresource and no CRD is known yet: assume they report status.
    expect(registry.get('gadgets.example.com')).toMatchObject({ mode: 'full', custom: true });
    registry.onCrdEvent({ type: 'ADDED', object: gadgetCrd({ type: 'object', properties: { spec: { type: 'object' } } }) });
    await registry.refresh('test');
    expect(registry.get('gadgets.example.com')).toMatchObject({ mode: 'metadata', message: 'Watched as metadata only: its CustomResourceDefinition defines no status.' });
    registry.onCrdEvent({ type: 'MODIFIED', object: gadgetCrd({ type: 'object', properties: { spec: { type: 'object' }, status: { type: 'object' } } }) });
    await registry.refresh('test');
    expect(registry.get('gadgets.example.com')?.mode).toBe('full');
    registry.onCrdEvent({ type: 'MODIFIED', object: gadgetCrd({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) });
    await registry.refresh('test');
    expect(registry.get('gadgets.example.com')?.mode).toBe('full');
  });

  it('marks kinds of a down APIService and list-only kinds unavailable, with the reason', async () => {
    const { registry, states } = await started();
    expect(registry.get('pods.metrics.k8s.io')).toMatchObject({ mode: 'unavailable', message: expect.stringContaining('the server is currently unable to handle the request') });
    expect(registry.get('componentstatuses')).toMatchObject({ mode: 'unavailable', message: 'The server lists componentstatuses but does not serve watch for it, so it cannot be followed live.' });
    expect(states.at(-1)?.unavailable).toEqual([{ group: 'metrics.k8s.io', version: 'v1beta1', message: expect.stringContaining('503') }]);
  });

  it('lets events.k8s.io Events take over when core Events are forbidden', async () => {
    const { registry, changes } = await started();
    changes.length = 0;
    registry.setForbidden('events', 'events is forbidden: User "dev" cannot list resource "events" in API group "" at the cluster scope');
    expect(registry.get('events')).toMatchObject({ mode: 'forbidden', message: expect.stringContaining('cannot list resource "events"') });
    expect(registry.get('events.events.k8s.io')?.mode).toBe('full');
    expect(changes).toHaveLength(1);
    expect(changes[0]?.changed.map((c) => [c.after.key, c.before.mode, c.after.mode])).toEqual([
      ['events', 'full', 'forbidden'],
      ['events.events.k8s.io', 'excluded', 'full'],
    ]);
  });

  it('watches events.k8s.io Events when a rule excludes core Events', async () => {
    const { registry } = await started();
    registry.setExclusions([{ apiGroups: [''], kinds: ['Event'] }]);
    expect(registry.get('events')?.mode).toBe('excluded');
    expect(registry.get('events.events.k8s.io')?.mode).toBe('full');
  });

  it('follows new exclusion rules with wildcards and reports the kinds that changed', async () => {
    const { registry, changes } = await started();
    changes.length = 0;
    registry.setExclusions([{ apiGroups: ['cert-manager.*'], kinds: ['*'] }]);
    expect(registry.get('certificates.cert-manager.io')).toMatchObject({ mode: 'excluded', message: "Excluded by the context's rule cert-manager.*/*." });
    expect(registry.get('issuers.cert-manager.io')?.mode).toBe('excluded');
    // The defaults were replaced: Leases come back, as metadata (they carry no status).
    expect(registry.get('leases.coordination.k8s.io')?.mode).toBe('metadata');
    expect(changes[0]?.changed.map((c) => c.after.key).sort()).toEqual(['certificates.cert-manager.io', 'endpoints', 'endpointslices.discovery.k8s.io', 'issuers.cert-manager.io', 'leases.coordination.k8s.io']);
  });

  it('keeps object counts without calling them changes', async () => {
    const { registry, changes } = await started();
    changes.length = 0;
    registry.setCount('pods', 42);
    expect(registry.get('pods')?.count).toBe(42);
    expect(registry.get('nodes')?.count).toBeNull();
    await registry.refresh('test');
    expect(registry.get('pods')?.count).toBe(42);
    expect(changes).toEqual([]);
    expect(() => registry.setCount('pods', -1)).toThrow('an object count is a non-negative integer, got -1 for pods');
  });
});

describe('refresh', () => {
  it('runs discovery once, half a second after a burst of CRD events', async () => {
    const r = await started();
    const before = apisRequests();
    const crd = gadgetCrd(undefined);
    r.registry.onCrdEvent({ type: 'ADDED', object: crd });
    r.clock.time += 200;
    r.registry.onCrdEvent({ type: 'MODIFIED', object: crd });
    r.clock.time += 200;
    r.registry.onCrdEvent({ type: 'MODIFIED', object: crd });
    const debounce = only(r.clock.pending().filter((t) => t.ms === CRD_DEBOUNCE_MS));
    expect(debounce.at).toBe(r.clock.now() + CRD_DEBOUNCE_MS);
    expect(apisRequests()).toBe(before);
    r.clock.fire(debounce);
    await r.untilFinished(2);
    expect(apisRequests()).toBe(before + 1);
  });

  it('does not let a steady stream of CRD events put discovery off for more than the cap', async () => {
    const r = await started();
    const first = r.clock.now();
    for (let i = 0; i < 6; i += 1) {
      r.registry.onCrdEvent({ type: 'MODIFIED', object: gadgetCrd(undefined) });
      r.clock.time += 300;
    }
    const timer = r.clock.pending().find((t) => t.ms <= CRD_DEBOUNCE_MS);
    expect(timer?.at).toBe(first + CRD_DEBOUNCE_MAX_MS);
  });

  it('ignores watch objects that are not CRDs', async () => {
    const r = await started();
    const pending = r.clock.pending().length;
    r.registry.onCrdEvent({ type: 'ADDED', object: { kind: 'Status' } });
    expect(r.clock.pending()).toHaveLength(pending);
  });

  it('refreshes every 10 minutes and reports kinds that appeared and disappeared', async () => {
    const r = await started();
    r.changes.length = 0;
    const apis = fake?.aggregated.apis as typeof AGGREGATED_APIS;
    const certManager = apis.items.find((g) => g.metadata.name === 'cert-manager.io');
    apis.items = apis.items.filter((g) => g !== certManager);
    apis.items.push({
      metadata: { name: 'db.example.io', creationTimestamp: null },
      versions: [{ version: 'v1alpha1', resources: [{ resource: 'databases', responseKind: { group: '', version: '', kind: 'Database' }, scope: 'Namespaced', singularResource: 'database', verbs: ['get', 'list', 'watch'] }], freshness: 'Current' }],
    } as (typeof apis.items)[number]);
    r.clock.fire(only(r.clock.pending().filter((t) => t.ms === DISCOVERY_REFRESH_INTERVAL_MS)));
    await r.untilFinished(2);
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]?.added.map((k) => [k.key, k.ref.version, k.mode])).toEqual([['databases.db.example.io', 'v1alpha1', 'full']]);
    expect(r.changes[0]?.removed.map((k) => k.key)).toEqual(['certificates.cert-manager.io', 'issuers.cert-manager.io']);
    expect(r.clock.pending().filter((t) => t.ms === DISCOVERY_REFRESH_INTERVAL_MS)).toHaveLength(1);
  });

  it('reports a kind whose preferred version changed as changed, not removed and added', async () => {
    const r = await started();
    r.changes.length = 0;
    const apis = fake?.aggregated.apis as typeof AGGREGATED_APIS;
    const example = apis.items.find((g) => g.metadata.name === 'example.com');
    if (!example) throw new Error('no example.com group');
    example.versions.reverse();
    await r.registry.refresh('test');
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]?.added).toEqual([]);
    expect(r.changes[0]?.removed).toEqual([]);
    expect(r.changes[0]?.changed.map((c) => [c.after.key, c.before.ref.version, c.after.ref.version])).toEqual([['widgets.example.com', 'v2', 'v1']]);
  });

  it('keeps the kinds it had and retries with backoff when discovery fails', async () => {
    const r = await started();
    const kinds = r.registry.kinds().length;
    if (!fake) throw new Error('no server');
    fake.aggregated.apis = undefined;
    fake.documents['/apis'] = { status: 500, body: { kind: 'Status', code: 500, reason: 'InternalError', message: 'etcdserver: leader changed' } };
    await r.registry.refresh('test');
    expect(r.registry.state().error).toBe(`${fake.url} answered 500 InternalError to discovery: etcdserver: leader changed`);
    expect(r.registry.kinds()).toHaveLength(kinds);
    const retry = only(r.clock.pending());
    expect(retry.ms).toBeLessThan(1_000);
    fake.aggregated.apis = structuredClone(AGGREGATED_APIS);
    r.clock.fire(retry);
    await r.untilFinished(3);
    expect(r.registry.state().error).toBeUndefined();
  });

  it('keeps the kinds of a group that goes down, marked unavailable', async () => {
    fake = await startFakeServer({ ...METRICS_UP }, { api: AGGREGATED_API, apis: AGGREGATED_APIS });
    rig = registryRig(fake);
    await rig.registry.start();
    expect(rig.registry.get('pods.metrics.k8s.io')?.mode).toBe('full');
    rig.changes.length = 0;
    fake.documents = { ...METRICS_DOWN };
    await rig.registry.refresh('test');
    expect(rig.registry.get('pods.metrics.k8s.io')).toMatchObject({ mode: 'unavailable', message: expect.stringContaining('503 ServiceUnavailable') });
    expect(rig.changes[0]?.changed.map((c) => c.after.key)).toEqual(['pods.metrics.k8s.io']);
    expect(rig.changes[0]?.removed).toEqual([]);
  });

  it('runs a refresh asked for during another right after it, not alongside', async () => {
    const r = await started();
    if (!fake) throw new Error('no server');
    const before = apisRequests();
    const first = r.registry.refresh('one');
    const second = r.registry.refresh('two');
    const third = r.registry.refresh('three');
    await Promise.all([first, second, third]);
    expect(apisRequests()).toBe(before + 2);
  });

  it('stops: no timers left, no more discoveries', async () => {
    const r = await started();
    r.registry.onCrdEvent({ type: 'ADDED', object: gadgetCrd(undefined) });
    r.registry.stop();
    expect(r.clock.pending()).toEqual([]);
    const before = apisRequests();
    await r.registry.refresh('after stop');
    expect(apisRequests()).toBe(before);
  });
});
