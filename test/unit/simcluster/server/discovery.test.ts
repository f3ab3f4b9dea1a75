import { afterEach, describe, expect, it } from 'vitest';
import { STANDARD_VERBS } from '../../../../electron/engine/simcluster/resources.ts';
import { call, startTestCluster, type TestCluster } from './helpers.ts';

const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const AGGREGATED_V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
/** What kubectl 1.32 sends for /api and /apis. */
const KUBECTL_ACCEPT = `${AGGREGATED_V2},${AGGREGATED_V2BETA1},application/json`;

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

async function start(minor?: number): Promise<TestCluster> {
  cluster = await startTestCluster(minor === undefined ? {} : { kubernetesMinor: minor });
  return cluster;
}

describe('version', () => {
  it('reports the configured minor the way kube-apiserver does', async () => {
    const { server } = await start(27);
    const res = await call(server, 'GET', '/version?timeout=5s');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      major: '1',
      minor: '27',
      gitVersion: 'v1.27.16',
      gitCommit: expect.stringMatching(/^[0-9a-f]{40}$/),
      gitTreeState: 'clean',
      buildDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      goVersion: 'go1.22.5',
      compiler: 'gc',
      platform: 'linux/amd64',
    });
  });

  it('defaults to 1.32', async () => {
    const { server } = await start();
    expect((await call(server, 'GET', '/version')).json).toMatchObject({ major: '1', minor: '32', gitVersion: 'v1.32.6' });
  });
});

describe('legacy discovery', () => {
  it('answers /api with APIVersions and the server address', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/api', { headers: { Accept: 'application/json' } });
    expect(res.json).toEqual({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${server.port}` }] });
  });

  it('answers /apis with every named group and its preferred version', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/apis');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json.kind).toBe('APIGroupList');
    expect(res.json.apiVersion).toBe('v1');
    expect(res.json.groups).toContainEqual({ name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } });
    expect(res.json.groups.map((g: { name: string }) => g.name).sort()).toEqual(['apiextensions.k8s.io', 'apps', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch', 'events.k8s.io', 'rbac.authorization.k8s.io']);
    expect((await call(server, 'GET', '/apis/autoscaling')).json).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'autoscaling',
      versions: [{ groupVersion: 'autoscaling/v2', version: 'v2' }],
      preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
    });
  });

  it('lists core resources with verbs, short names, categories and storage hashes', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/api/v1?timeout=32s');
    expect(res.json.kind).toBe('APIResourceList');
    expect(res.json.apiVersion).toBeUndefined();
    expect(res.json.groupVersion).toBe('v1');
    const byName = new Map(res.json.resources.map((r: { name: string }) => [r.name, r]));
    expect(byName.get('pods')).toEqual({ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: STANDARD_VERBS, shortNames: ['po'], categories: ['all'], storageVersionHash: 'xPOwRZ+Yhw8=' });
    expect(byName.get('pods/status')).toEqual({ name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    expect(byName.get('namespaces')).toMatchObject({ namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'Q3oi5N2YM8M=' });
    expect(byName.get('secrets')).not.toHaveProperty('shortNames');
  });

  it('lists scale subresources as autoscaling/v1 Scale', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/apis/apps/v1');
    expect(res.json).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'apps/v1' });
    const names = res.json.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['deployments', 'deployments/scale', 'deployments/status', 'daemonsets/status']));
    expect(names).not.toContain('daemonsets/scale');
    expect(res.json.resources.find((r: { name: string }) => r.name === 'deployments/scale')).toEqual({
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    expect(res.json.resources.find((r: { name: string }) => r.name === 'deployments').storageVersionHash).toBe('8aSe+NMegvE=');
  });
});

describe('aggregated discovery', () => {
  it('serves the core group from /api as apidiscovery.k8s.io/v2 when kubectl asks first', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/api?timeout=32s', { headers: { Accept: KUBECTL_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(AGGREGATED_V2);
    expect(res.json).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {} });
    expect(res.json.items).toHaveLength(1);
    const [core] = res.json.items;
    expect(core.metadata).toEqual({ creationTimestamp: null });
    expect(core.versions).toHaveLength(1);
    expect(core.versions[0]).toMatchObject({ version: 'v1', freshness: 'Current' });
    const pods = core.versions[0].resources.find((r: { resource: string }) => r.resource === 'pods');
    expect(pods).toEqual({
      resource: 'pods',
      responseKind: { group: '', version: '', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      verbs: STANDARD_VERBS,
      shortNames: ['po'],
      categories: ['all'],
      subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] }],
    });
    const nodes = core.versions[0].resources.find((r: { resource: string }) => r.resource === 'nodes');
    expect(nodes.scope).toBe('Cluster');
  });

  it('serves the named groups from /apis with scale subresources', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/apis', { headers: { Accept: KUBECTL_ACCEPT } });
    expect(res.headers['content-type']).toBe(AGGREGATED_V2);
    const apps = res.json.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'apps');
    expect(apps.metadata).toEqual({ name: 'apps', creationTimestamp: null });
    const deployments = apps.versions[0].resources.find((r: { resource: string }) => r.resource === 'deployments');
    expect(deployments.subresources).toEqual([
      { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
    ]);
    expect(res.json.items.map((g: { metadata: { name: string } }) => g.metadata.name)).not.toContain('');
  });

  it('answers v2beta1 to clients that only know v2beta1', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/apis', { headers: { Accept: `${AGGREGATED_V2BETA1},application/json` } });
    expect(res.headers['content-type']).toBe(AGGREGATED_V2BETA1);
    expect(res.json.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
  });

  it('skips the protobuf form it cannot produce and falls back to plain JSON when not asked', async () => {
    const { server } = await start();
    const protobufFirst = await call(server, 'GET', '/api', { headers: { Accept: `application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${AGGREGATED_V2},application/json` } });
    expect(protobufFirst.headers['content-type']).toBe(AGGREGATED_V2);
    const plain = await call(server, 'GET', '/api', { headers: { Accept: 'application/json, */*' } });
    expect(plain.json.kind).toBe('APIVersions');
  });
});

describe('openapi and health', () => {
  it('serves OpenAPI v2 as octet-stream protobuf to kubectl and JSON otherwise', async () => {
    const { server } = await start();
    const proto = await call(server, 'GET', '/openapi/v2?timeout=32s', { headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect(proto.status).toBe(200);
    expect(proto.headers['content-type']).toBe('application/octet-stream');
    expect(proto.json).toBeUndefined();
    expect((await call(server, 'GET', '/openapi/v2')).json).toMatchObject({ swagger: '2.0' });
    expect((await call(server, 'GET', '/openapi/v3')).json).toEqual({ paths: { 'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=TEST' } } });
    expect((await call(server, 'GET', '/openapi/v3/api/v1?hash=TEST')).json).toMatchObject({ openapi: '3.0.0' });
    expect((await call(server, 'GET', '/openapi/v3/apis/nope/v1')).status).toBe(404);
  });

  it('answers health checks with ok', async () => {
    const { server } = await start();
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/ping']) {
      const res = await call(server, 'GET', path);
      expect([res.status, res.text, res.headers['content-type']]).toEqual([200, 'ok', 'text/plain; charset=utf-8']);
    }
  });

  it('answers unknown paths with the NotFound Status kube-apiserver sends', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/apis/apps/v2/deployments');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });
  });
});
