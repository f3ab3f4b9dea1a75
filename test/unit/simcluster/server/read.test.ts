import { describe, expect, it } from 'vitest';
import { call, deployment, NOW, useTestCluster, configMap } from './helpers.ts';

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

const fixture = useTestCluster();
const { start } = fixture;

describe('get', () => {
  it('returns the stored object with apiVersion and kind', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const res = await call(server, 'GET', `${DEPLOYMENTS}/web`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', generation: 1, creationTimestamp: '2025-06-01T12:00:00Z' } });
    expect(res.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a missing object with a NotFound Status naming the resource', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', `${DEPLOYMENTS}/nope`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'deployments.apps "nope" not found', reason: 'NotFound', details: { name: 'nope', group: 'apps', kind: 'deployments' }, code: 404 });
  });

  it('answers a single object as a one-row Table when kubectl asks', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const res = await call(server, 'GET', `${DEPLOYMENTS}/web`, { headers: { Accept: TABLE_ACCEPT } });
    expect(res.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '2' } });
    expect(res.json.rows).toHaveLength(1);
    expect(res.json.rows[0].cells[0]).toBe('web');
  });
});

describe('list', () => {
  it('answers a <Kind>List whose items carry apiVersion and kind', async () => {
    const { server, store } = await start();
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('a') });
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('b') });
    const res = await call(server, 'GET', '/api/v1/namespaces/default/configmaps');
    expect(res.json.kind).toBe('ConfigMapList');
    expect(res.json.apiVersion).toBe('v1');
    expect(res.json.metadata).toEqual({ resourceVersion: String(store.currentRv()) });
    expect(res.json.items.map((i: { kind: string; apiVersion: string; metadata: { name: string } }) => [i.apiVersion, i.kind, i.metadata.name])).toEqual([
      ['v1', 'ConfigMap', 'a'],
      ['v1', 'ConfigMap', 'b'],
    ]);
  });

  it('filters by label and field selectors and across namespaces', async () => {
    const { server } = await start();
    await call(server, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } } });
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('a', { tier: 'web' }) });
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('b', { tier: 'db' }) });
    await call(server, 'POST', '/api/v1/namespaces/shop/configmaps', { body: configMap('c', { tier: 'web' }, 'shop') });
    const names = async (path: string): Promise<string[]> => (await call(server, 'GET', path)).json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(await names('/api/v1/configmaps?labelSelector=tier%3Dweb')).toEqual(['a', 'c']);
    expect(await names('/api/v1/configmaps?labelSelector=tier%20in%20(db)')).toEqual(['b']);
    expect(await names('/api/v1/configmaps?fieldSelector=metadata.namespace%3Dshop')).toEqual(['c']);
    expect(await names('/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name!%3Da')).toEqual(['b']);
    const bad = await call(server, 'GET', '/api/v1/configmaps?fieldSelector=spec.nodeName%3Dx');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ reason: 'BadRequest', message: 'field label not supported: spec.nodeName' });
  });

  it('pages with limit and continue at the first page resourceVersion', async () => {
    const { server } = await start();
    for (const name of ['a', 'b', 'c']) await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap(name) });
    const first = await call(server, 'GET', '/api/v1/namespaces/default/configmaps?limit=2');
    expect(first.json.items).toHaveLength(2);
    expect(first.json.metadata).toMatchObject({ remainingItemCount: 1, continue: expect.any(String) });
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('d') });
    const second = await call(server, 'GET', `/api/v1/namespaces/default/configmaps?limit=2&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    expect(second.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['c']);
    expect(second.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    expect(second.json.metadata.continue).toBeUndefined();
  });

  it('serves an Exact resourceVersion from history', async () => {
    const { server } = await start();
    const created = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('a') });
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('b') });
    const rv = created.json.metadata.resourceVersion;
    const res = await call(server, 'GET', `/api/v1/namespaces/default/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(res.json.metadata.resourceVersion).toBe(rv);
    expect(res.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a']);
  });

  it('answers Tables with list metadata and PartialObjectMetadata rows for kubectl get', async () => {
    const { server, store } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const res = await call(server, 'GET', '/apis/apps/v1/namespaces/default/deployments?limit=500', { headers: { Accept: TABLE_ACCEPT } });
    expect(res.json.kind).toBe('Table');
    expect(res.json.apiVersion).toBe('meta.k8s.io/v1');
    expect(res.json.metadata).toEqual({ resourceVersion: String(store.currentRv()) });
    expect(res.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Age']);
    expect(res.json.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'web' } });
    const full = await call(server, 'GET', '/apis/apps/v1/deployments?includeObject=Object', { headers: { Accept: TABLE_ACCEPT } });
    expect(full.json.rows[0].object).toMatchObject({ kind: 'Deployment', spec: { replicas: 2 } });
    const beta = await call(server, 'GET', '/apis/apps/v1/deployments', { headers: { Accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' } });
    expect(beta.json.apiVersion).toBe('meta.k8s.io/v1beta1');
  });

  it('answers PartialObjectMetadataList to metadata-only clients', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const res = await call(server, 'GET', '/apis/apps/v1/deployments', { headers: { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json' } });
    expect(res.json.kind).toBe('PartialObjectMetadataList');
    expect(res.json.items[0]).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'web' }) });
  });

  it('answers 406 when only unservable media types are acceptable', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/api/v1/pods', { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.status).toBe(406);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  });
});

describe('tables', () => {
  it('computes ages from the injected clock', async () => {
    const { server } = await start({ now: () => NOW + 90_000 });
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const res = await call(server, 'GET', DEPLOYMENTS, { headers: { Accept: TABLE_ACCEPT } });
    expect(res.json.rows[0].cells).toEqual(['web', '90s']);
  });
});
