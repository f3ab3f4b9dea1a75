import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterFrame } from '../../../shared/cluster.ts';
import type { ClusterDiscovery } from '../../../shared/discovery.ts';
import { StreamHub } from '../../../electron/engine/hub.ts';
import { LiveCluster } from '../../../electron/engine/live-cluster.ts';
import type { SimCluster } from '../../../electron/engine/simcluster/index.ts';
import { startQuietCluster, startRecordingProxy, T, waitFor } from './informers/helpers.ts';
import { seedPods } from './informers/seed-pods.ts';
import { call } from '../simcluster/server/helpers.ts';
import { certificate, certificateCrd } from '../simcluster/crd/fixtures.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

let sim: SimCluster | undefined;
let live: LiveCluster | undefined;
afterEach(async () => {
  await live?.stop();
  await sim?.stop();
  live = undefined;
  sim = undefined;
});

describe('LiveCluster', () => {
  it('ends on the last context when two switches overlap while the old informers stop', async () => {
    sim = await startQuietCluster();
    const hub = new StreamHub();
    const begins: Array<Extract<ClusterFrame, { type: 'snapshot-begin' }>> = [];
    hub.listen((stream, payload) => {
      const frame = payload as ClusterFrame;
      if (stream === 'cluster:frames' && frame.type === 'snapshot-begin') begins.push(frame);
    });
    const cluster = new LiveCluster({ hub, log: () => undefined });
    live = cluster;
    await cluster.reset('first');
    await cluster.watch(sim.kubeconfigObject('first'));
    await waitFor('the first context to be cached', () => cluster.cache.size('pods') === sim?.store.all(T('pods')).length);

    // The second reset is asked while the first still waits for the informers to stop.
    await Promise.all([cluster.reset('second'), cluster.reset('third')]);

    expect(cluster.health().context).toBe('third');
    const last = begins.at(-1);
    expect(last).toMatchObject({ context: 'third', epoch: cluster.health().epoch, total: 0 });
    expect(cluster.cache.size()).toBe(0);
  });

  it('stamps every cached object with its kind, uid and resourceVersion', async () => {
    sim = await startQuietCluster();
    const cluster = new LiveCluster({ hub: new StreamHub(), log: () => undefined });
    live = cluster;
    await cluster.reset('only');
    await cluster.watch(sim.kubeconfigObject('only'));
    await waitFor('the pods to be cached', () => cluster.cache.size('pods') === sim?.store.all(T('pods')).length);
    const stamps = cluster.stamps();
    expect(stamps).toHaveLength(cluster.cache.size());
    const pod = cluster.cache.list('pods')[0];
    expect(stamps).toContainEqual({ kind: 'pods', uid: pod?.metadata.uid, resourceVersion: pod?.metadata.resourceVersion });
  });

  it('publishes what discovery found in the context, with the informers’ object counts, and forgets it on a switch', async () => {
    sim = await startQuietCluster();
    const hub = new StreamHub();
    const cluster = new LiveCluster({ hub, log: () => undefined });
    live = cluster;
    await cluster.reset('only');
    expect(cluster.discoveryState().state).toBeNull();
    await cluster.watch(sim.kubeconfigObject('only'));
    const pods = sim.store.all(T('pods')).length;
    const published = await waitFor('discovery with the pod count', () => {
      const last = hub.last('cluster:discovery') as ClusterDiscovery | undefined;
      const entry = last?.state?.kinds.find((kind) => kind.key === 'pods');
      return entry?.count === pods ? last : undefined;
    });
    expect(published.context).toBe('only');
    expect(published.epoch).toBe(cluster.health().epoch);
    const byKey = new Map(published.state?.kinds.map((kind) => [kind.key, kind]));
    expect(byKey.get('deployments.apps')).toMatchObject({ ref: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true }, mode: 'full' });
    // Secrets are graph nodes only: watched as metadata, so their values never reach the engine.
    expect(byKey.get('secrets')).toMatchObject({ mode: 'metadata', message: 'Watched as metadata only, so Secret values never reach Kubedrift.' });
    expect(byKey.get('events')?.mode).toBe('full');
    expect(published.state?.refreshedAt).toEqual(expect.any(Number));

    await cluster.reset('next');
    expect(hub.last('cluster:discovery')).toMatchObject({ context: 'next', state: null });
  });

  it('shows a CRD created while it runs within two seconds, and drops it once deleted, without a restart', async () => {
    sim = await startQuietCluster();
    const hub = new StreamHub();
    const cluster = new LiveCluster({ hub, log: () => undefined });
    live = cluster;
    await cluster.reset('only');
    await cluster.watch(sim.kubeconfigObject('only'));
    const keys = (): string[] => (hub.last('cluster:discovery') as ClusterDiscovery | undefined)?.state?.kinds.map((kind) => kind.key) ?? [];
    await waitFor('the first discovery', () => keys().includes('deployments.apps'));
    expect(keys()).not.toContain('certificates.cert-manager.io');

    const created = await call(sim.server, 'POST', CRDS, { body: certificateCrd() });
    expect(created.status).toBe(201);
    const shownAt = Date.now();
    await waitFor('the new kind', () => keys().includes('certificates.cert-manager.io'), 2_000);
    expect(Date.now() - shownAt).toBeLessThan(2_000);
    const certificates = (hub.last('cluster:discovery') as ClusterDiscovery).state?.kinds.find((kind) => kind.key === 'certificates.cert-manager.io');
    expect(certificates).toMatchObject({ ref: { group: 'cert-manager.io', kind: 'Certificate', plural: 'certificates' }, custom: true, mode: 'full' });

    // Its objects are watched: one created now reaches the cache under the kind's key, with its status.
    const path = '/apis/cert-manager.io/v1/namespaces/default/certificates';
    expect((await call(sim.server, 'POST', path, { body: certificate('web-tls') })).status).toBe(201);
    const cached = await waitFor('the certificate cached', () => cluster.cache.list('certificates.cert-manager.io')[0], 4_000);
    expect(cached).toMatchObject({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'web-tls', namespace: 'default' }, spec: expect.any(Object) });
    expect(cluster.resolver.keyOf('cert-manager.io/v1', 'Certificate')).toBe('certificates.cert-manager.io');
    await waitFor('the kind live', () => cluster.health().kinds.find((k) => k.kind === 'certificates.cert-manager.io')?.state === 'live');

    expect((await call(sim.server, 'DELETE', `${CRDS}/certificates.cert-manager.io`)).status).toBeLessThan(300);
    await waitFor('the kind gone', () => !keys().includes('certificates.cert-manager.io'), 4_000);
    // Its informer stopped and its objects left the cache (the renderers got the deletes).
    await waitFor('the certificates dropped', () => cluster.cache.size('certificates.cert-manager.io') === 0, 4_000);
    expect(cluster.health().kinds.map((k) => k.kind)).not.toContain('certificates.cert-manager.io');
  });

  it('keeps no Secret value in the cache or in any frame: Secrets are read as metadata only', async () => {
    sim = await startQuietCluster();
    const hub = new StreamHub();
    const frames: string[] = [];
    hub.listen((stream, payload) => {
      if (stream === 'cluster:frames') frames.push(JSON.stringify(payload));
    });
    const cluster = new LiveCluster({ hub, log: () => undefined });
    live = cluster;
    await cluster.reset('only');
    await cluster.watch(sim.kubeconfigObject('only'));
    const value = 'correct-horse-battery-staple';
    const encoded = Buffer.from(value).toString('base64');
    const manifest = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-password', namespace: 'default' }, type: 'Opaque', data: { password: encoded }, stringData: undefined };
    // kubectl apply copies the whole manifest into an annotation, which metadata keeps.
    const applied = { ...manifest, metadata: { ...manifest.metadata, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(manifest), team: 'db' } } };
    expect((await call(sim.server, 'POST', '/api/v1/namespaces/default/secrets', { body: applied })).status).toBe(201);
    const secret = await waitFor('the secret cached', () => cluster.cache.list('secrets').find((s) => s.metadata.name === 'db-password'), 4_000);
    expect(secret).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: expect.objectContaining({ name: 'db-password', annotations: { team: 'db' } }) });
    // A change to the value arrives through the watch, as metadata again.
    const changed = { ...applied, data: { password: Buffer.from(`${value}-2`).toString('base64') } };
    expect((await call(sim.server, 'PUT', '/api/v1/namespaces/default/secrets/db-password', { body: changed })).status).toBe(200);
    await waitFor('the changed secret', () => cluster.cache.list('secrets').find((s) => s.metadata.name === 'db-password')?.metadata.resourceVersion !== secret.metadata.resourceVersion, 4_000);
    await waitFor('a frame naming the secret', () => frames.some((f) => f.includes('db-password')), 4_000);
    const everything = JSON.stringify(cluster.cache.list()) + frames.join('');
    for (const needle of [value, encoded, `${value}-2`, Buffer.from(`${value}-2`).toString('base64')]) expect(everything).not.toContain(needle);
  });
});


describe('LiveCluster with a custom resource the server cannot serve', () => {
  it('shows only that kind unavailable with the conversion webhook’s message; every other kind keeps going', async () => {
    sim = await startQuietCluster();
    expect((await call(sim.server, 'POST', CRDS, { body: certificateCrd() })).status).toBe(201);
    sim.server.faults.failConversion({ group: 'cert-manager.io', version: 'v1', plural: 'certificates', kind: 'Certificate' });
    const hub = new StreamHub();
    const cluster = new LiveCluster({ hub, log: () => undefined });
    live = cluster;
    await cluster.reset('only');
    await cluster.watch(sim.kubeconfigObject('only'));
    const health = await waitFor('the certificates unavailable', () => cluster.health().kinds.find((k) => k.kind === 'certificates.cert-manager.io' && k.state === 'unavailable'), 6_000);
    expect(health.message).toContain('conversion webhook for cert-manager.io/v1, Kind=Certificate failed: Post "https://certificates-conversion.default.svc:443/convert?timeout=30s"');
    const entry = cluster.discoveryState().state?.kinds.find((k) => k.key === 'certificates.cert-manager.io');
    expect(entry).toMatchObject({ mode: 'unavailable', message: health.message });
    const others = await waitFor('every other kind live', () => {
      const notLive = cluster.health().kinds.filter((k) => k.state !== 'live').map((k) => k.kind);
      return notLive.length === 1 ? notLive : undefined;
    }, 6_000);
    expect(others).toEqual(['certificates.cert-manager.io']);
    expect(cluster.cache.size('pods')).toBe(sim.store.all(T('pods')).length);
  });
});

describe('LiveCluster with a CustomResourceDefinition the server does not establish', () => {
  it('lists its kind as unavailable with the CRD condition’s reason, and keeps the other kinds', async () => {
    sim = await startQuietCluster();
    const hub = new StreamHub();
    const cluster = new LiveCluster({ hub, log: () => undefined });
    live = cluster;
    await cluster.reset('only');
    await cluster.watch(sim.kubeconfigObject('only'));
    expect((await call(sim.server, 'POST', CRDS, { body: certificateCrd() })).status).toBe(201);
    // A second CRD of the group claims the same kind: the API server accepts the object but never serves it.
    const clash = certificateCrd() as { metadata: { name: string }; spec: { names: Record<string, unknown> } };
    clash.metadata.name = 'certs2.cert-manager.io';
    clash.spec.names = { kind: 'Certificate', listKind: 'CertificateList', plural: 'certs2', singular: 'cert2' };
    expect((await call(sim.server, 'POST', CRDS, { body: clash })).status).toBe(201);
    const entry = await waitFor('the clashing kind listed', () => cluster.discoveryState().state?.kinds.find((k) => k.key === 'certs2.cert-manager.io'), 4_000);
    expect(entry).toMatchObject({ mode: 'unavailable', custom: true, ref: { group: 'cert-manager.io', kind: 'Certificate', plural: 'certs2' } });
    expect(entry.message).toMatch(/^The API server does not serve it: CustomResourceDefinition certs2\.cert-manager\.io is not established \(NamesAccepted KindConflict: "Certificate" is already in use\)\.$/);
    expect(cluster.discoveryState().state?.kinds.find((k) => k.key === 'certificates.cert-manager.io')?.mode).toBe('full');
  });
});

describe('LiveCluster first sync', () => {
  it('starts discovered kinds only after the built-in kinds have listed, so custom kinds never hold up the pods', async () => {
    sim = await startQuietCluster({ tls: false });
    seedPods(sim, 'default', 1_200);
    expect((await call(sim.server, 'POST', CRDS, { body: certificateCrd() })).status).toBe(201);
    const proxy = await startRecordingProxy(sim);
    try {
      const cluster = new LiveCluster({ hub: new StreamHub(), log: () => undefined });
      live = cluster;
      await cluster.reset('only');
      await cluster.watch(proxy.kubeconfig());
      await waitFor('the certificates live', () => cluster.health().kinds.find((k) => k.kind === 'certificates.cert-manager.io')?.state === 'live', 10_000);
      const paths = proxy.requests.map((r) => `${r.path}?${r.query.toString()}`);
      const lastPodPage = paths.findLastIndex((p) => p.startsWith('/api/v1/pods?') && !p.includes('watch=true'));
      const firstCertificates = paths.findIndex((p) => p.startsWith('/apis/cert-manager.io/v1/certificates'));
      expect(lastPodPage).toBeGreaterThan(0);
      expect(firstCertificates).toBeGreaterThan(lastPodPage);
    } finally {
      await proxy.close();
    }
  });
});
