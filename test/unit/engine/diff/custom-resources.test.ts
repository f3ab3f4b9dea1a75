/**
 * Custom resources in manifests diff against the simulated cluster like built-in kinds: by a
 * server-side dry run, compared with the list semantics of their CRD's schema (list maps and
 * sets ignore order, atomic lists do not). A kind whose CRD is not installed and an object the
 * server refuses (422) are precise Error rows while the rest of the files still diff.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { objectDiff } from '../../../../electron/engine/diff/evaluate.ts';
import { createApiClient, type ApiClient } from '../../../../electron/engine/diff/cluster/client.ts';
import { createSchemaCache, createSchemaSource, type SchemaCache } from '../../../../electron/engine/diff/cluster/crd-schema.ts';
import { createDiscovery } from '../../../../electron/engine/diff/cluster/discovery.ts';
import { compareObjects } from '../../../../electron/engine/diff/fields/compare.ts';
import { readablePath } from '../../../../electron/engine/diff/fields/paths.ts';
import { runDiff, type DiffRunData } from '../../../../electron/engine/diff/run.ts';
import { rowsOf } from '../../../../electron/engine/diff/summary.ts';
import type { ApiServer } from '../../../../electron/engine/simcluster/server/http.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { certificate, certificateCrd, routeCrd } from '../../simcluster/crd/fixtures.ts';
import { call, settle, useCrdCluster } from '../../simcluster/crd/helpers.ts';
import { applyManifests } from './apply.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const clusters = useCrdCluster();
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir('kubedrift-diff-crs-')));
afterEach(() => cleanup());

/** A route as its owner writes it; `spec` replaces the defaults field by field. */
function route(spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'net.kubedrift.dev/v1',
    kind: 'Route',
    metadata: { name: 'shop', namespace: 'default' },
    spec: {
      backends: [{ name: 'web', weight: 90, port: 8080 }, { name: 'canary', weight: 10, port: 8080 }],
      ports: [{ port: 80, protocol: 'TCP', name: 'http' }, { port: 443, name: 'https' }, { port: 443, protocol: 'UDP', name: 'quic' }],
      hosts: ['shop.example.com', 'www.shop.example.com'],
      rules: [{ name: 'api', path: '/api', backend: 'web' }, { name: 'static', path: '/static', backend: 'canary' }],
      ...spec,
    },
  };
}

async function start(...crds: Array<Record<string, unknown>>): Promise<{ config: object; server: ApiServer }> {
  const cluster = await clusters.start();
  for (const crd of crds) expect((await call(cluster.server, 'POST', CRDS, { body: crd })).status).toBe(201);
  await settle();
  return { config: parse(cluster.server.kubeconfig('crs')) as object, server: cluster.server };
}

/** Writes one manifest file (several documents) and answers its path. */
async function manifests(name: string, ...objects: Array<Record<string, unknown>>): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, objects.map((o) => JSON.stringify(o)).join('\n---\n'));
  return file;
}

const diff = (config: object, paths: string[], cache = createSchemaCache()) => runDiff({ paths, config, context: 'crs', kubectl: null, schemaCache: cache });
function only(run: DiffRunData, kind: string, name: string) {
  const object = run.objects.find((o) => o.kind === kind && o.name === name);
  if (!object) throw new Error(`no ${kind} ${name} in the run`);
  return { object, diff: objectDiff(object, [], run.hpas) };
}

describe('custom resources in manifests', () => {
  it('find no difference in a reordered list map, a multi-key list map or a set, and the texts show none either', async () => {
    const { config } = await start(routeCrd());
    await applyManifests(config, [await manifests('route.yaml', route())]);
    const reordered = route({
      backends: [{ name: 'canary', weight: 10, port: 8080 }, { name: 'web', weight: 90, port: 8080 }],
      ports: [{ port: 443, protocol: 'UDP', name: 'quic' }, { port: 443, name: 'https' }, { port: 80, protocol: 'TCP', name: 'http' }],
      hosts: ['www.shop.example.com', 'shop.example.com'],
    });
    const run = await diff(config, [await manifests('route.yaml', reordered)]);
    const { diff: result } = only(run, 'Route', 'shop');
    expect(result.row).toMatchObject({ status: 'InSync', changed: 0 });
    expect(result.unified).toBe('');
  });

  it('shows a changed item of a list map by its keys, and a multi-key item by all of them', async () => {
    const { config } = await start(routeCrd());
    await applyManifests(config, [await manifests('route.yaml', route())]);
    const changed = route({
      backends: [{ name: 'canary', weight: 25, port: 8080 }, { name: 'web', weight: 75, port: 8080 }],
      ports: [{ port: 443, name: 'https' }, { port: 80, protocol: 'TCP', name: 'http' }, { port: 443, protocol: 'UDP', name: 'http3' }],
    });
    const run = await diff(config, [await manifests('route.yaml', changed)]);
    const { diff: result } = only(run, 'Route', 'shop');
    expect(result.row.status).toBe('OutOfSync');
    expect(result.fields.map((f) => [f.path, f.live, f.predicted])).toEqual([
      ['spec.backends[name=web].weight', '90', '75'],
      ['spec.backends[name=canary].weight', '10', '25'],
      ['spec.ports[port=443,protocol=UDP].name', 'quic', 'http3'],
    ]);
    // The suggested rule names the item by every key, so it survives reordering.
    expect(result.fields[2]?.ignore.jqPathExpressions).toEqual(['.spec.ports[] | select(.port == 443) | select(.protocol == "UDP") | .name']);
    expect(rowsOf(run, [result.fields[0]!.ignore, result.fields[1]!.ignore, result.fields[2]!.ignore])[0]).toMatchObject({ status: 'InSync', ignored: 3 });
  });

  it('shows an atomic list whose items only moved as one changed value, and a set with a new member', async () => {
    const { config } = await start(routeCrd());
    await applyManifests(config, [await manifests('route.yaml', route())]);
    const moved = route({
      rules: [{ name: 'static', path: '/static', backend: 'canary' }, { name: 'api', path: '/api', backend: 'web' }],
      hosts: ['shop.example.com', 'www.shop.example.com', 'm.shop.example.com'],
    });
    const run = await diff(config, [await manifests('route.yaml', moved)]);
    const { diff: result } = only(run, 'Route', 'shop');
    expect(result.fields.map((f) => [f.path, f.op])).toEqual([
      ['spec.hosts', 'changed'],
      ['spec.rules', 'changed'],
    ]);
    expect(result.fields[1]?.ignore.jsonPointers).toEqual(['/spec/rules']);
  });

  it('compares under the schema when a forbidden dry run leaves the comparison client-side', async () => {
    const { config, server } = await start(routeCrd());
    await applyManifests(config, [await manifests('route.yaml', route())]);
    server.faults.failRequests({ status: 403, match: (method, url) => method === 'PATCH' && url.includes('/routes/') });
    const edited = route({ rules: [{ name: 'api', path: '/api' }, { name: 'static', path: '/static' }], hosts: ['www.shop.example.com', 'shop.example.com'] });
    const { diff: result } = only(await diff(config, [await manifests('route.yaml', edited)]), 'Route', 'shop');
    expect(result.row).toMatchObject({ status: 'OutOfSync', approximate: true });
    // The atomic list is replaced whole, so the dropped backends go (merged by the items' names they would stay);
    // the reordered set is no difference.
    expect(result.fields.map((f) => f.path)).toEqual(['spec.rules']);
  });

  it('says per row that no CRD serves a kind, and diffs the other rows', async () => {
    const { config } = await start(certificateCrd());
    const database = { apiVersion: 'db.kubedrift.dev/v1', kind: 'Database', metadata: { name: 'orders-db' }, spec: { engine: 'postgres', version: '16.4' } };
    const otherVersion = { ...certificate('web'), apiVersion: 'cert-manager.io/v1beta1' };
    const typo = { ...certificate('typo'), kind: 'certificate' };
    const file = await manifests('mixed.yaml', database, otherVersion, typo, certificate('shop'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } });
    const run = await diff(config, [file]);
    const rows = rowsOf(run, []);
    expect(rows.find((r) => r.kind === 'Database')).toMatchObject({ status: 'Error', reason: 'no CustomResourceDefinition serves db.kubedrift.dev/v1 Database in this cluster' });
    expect(rows.find((r) => r.name === 'web')?.reason).toBe('no CustomResourceDefinition serves cert-manager.io/v1beta1 Certificate in this cluster (the cluster serves cert-manager.io at v1)');
    expect(rows.find((r) => r.name === 'typo')?.reason).toBe('no CustomResourceDefinition serves cert-manager.io/v1 certificate in this cluster (did you mean "Certificate"?)');
    expect(rows.find((r) => r.name === 'shop')).toMatchObject({ status: 'Missing', kind: 'Certificate', namespace: 'default' });
    expect(rows.find((r) => r.name === 'settings')).toMatchObject({ status: 'Missing' });
  });

  it('shows a custom resource whose CRD the same files create as Missing, as written', async () => {
    const { config } = await start();
    const file = await manifests('route.yaml', routeCrd(), route());
    const rows = rowsOf(await diff(config, [file]), []);
    expect(rows.find((r) => r.kind === 'Route')).toMatchObject({
      status: 'Missing',
      namespace: 'default',
      reason: expect.stringMatching(/^No CustomResourceDefinition serves net\.kubedrift\.dev\/v1 Route in this cluster yet \(it is created by .*route\.yaml:1\)/),
    });
  });

  it("shows the server's 422 message in the row of a custom resource that fails validation", async () => {
    const { config } = await start(certificateCrd());
    await applyManifests(config, [await manifests('web.yaml', certificate('web'))]);
    const broken = certificate('web', 'default', { secretName: 'Web_TLS' });
    const fresh = certificate('new');
    delete (fresh['spec'] as Record<string, unknown>)['secretName'];
    const run = await diff(config, [await manifests('certs.yaml', broken, fresh, certificate('shop'))]);
    const rows = rowsOf(run, []);
    expect(rows.find((r) => r.name === 'web')).toMatchObject({
      status: 'Error',
      reason: `the server rejected the dry-run apply: Certificate.cert-manager.io "web" is invalid: spec.secretName: Invalid value: "Web_TLS": spec.secretName in body should match '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$'`,
    });
    expect(rows.find((r) => r.name === 'new')).toMatchObject({ status: 'Error', reason: 'the server rejected the dry-run create: Certificate.cert-manager.io "new" is invalid: spec.secretName: Required value' });
    expect(rows.find((r) => r.name === 'shop')?.status).toBe('Missing');
  });
});

describe('the CRD list schema', () => {
  const routeResource = { apiVersion: 'net.kubedrift.dev/v1', group: 'net.kubedrift.dev', kind: 'Route', plural: 'routes', namespaced: true, verbs: [] };
  const hostsReordered = [{ spec: { hosts: ['a', 'b'] } }, { spec: { hosts: ['b', 'a'] } }] as const;

  it('is read again when the CRD changes (kept per CRD resourceVersion)', async () => {
    const { config, server } = await start(routeCrd());
    const real = createSchemaCache();
    const compiled: string[] = [];
    const cache: SchemaCache = { get: (key) => real.get(key), set: (key, schema) => (compiled.push(key), real.set(key, schema)) };
    await applyManifests(config, [await manifests('route.yaml', route())]);
    const file = await manifests('route.yaml', route({ hosts: ['www.shop.example.com', 'shop.example.com'] }));
    expect(only(await diff(config, [file], cache), 'Route', 'shop').diff.row.status).toBe('InSync');
    expect(only(await diff(config, [file], cache), 'Route', 'shop').diff.row.status).toBe('InSync');
    // Two runs, one compilation: the second found the CRD at the same resourceVersion.
    expect(compiled).toEqual([expect.stringMatching(/^crs\0crd\0routes\.net\.kubedrift\.dev\0\d+\0v1$/)]);

    const crd = (await call(server, 'GET', `${CRDS}/routes.net.kubedrift.dev`)).json;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.hosts['x-kubernetes-list-type'] = 'atomic';
    expect((await call(server, 'PUT', `${CRDS}/routes.net.kubedrift.dev`, { body: crd })).status).toBe(200);
    await settle();
    const after = only(await diff(config, [file], cache), 'Route', 'shop').diff;
    expect(after.fields.map((f) => f.path)).toEqual(['spec.hosts']);
    expect(compiled).toHaveLength(2);
  });

  it("comes from the OpenAPI v3 document when the user may not read CRDs", async () => {
    const { config } = await start(routeCrd());
    const real = await createApiClient(config);
    const asked: string[] = [];
    const client: ApiClient = {
      ...real,
      request: (method, url, body) => {
        asked.push(url);
        return url.startsWith(CRDS) ? Promise.resolve({ status: 403, body: { message: 'forbidden' } }) : real.request(method, url, body);
      },
    };
    try {
      const cache = createSchemaCache();
      const lookup = await createDiscovery(client).lookup('net.kubedrift.dev/v1', 'Route');
      expect(lookup).toMatchObject({ resource: { ...routeResource, verbs: expect.arrayContaining(['patch']) } });
      const schema = await createSchemaSource(client, { context: 'crs', cache }).schemaFor(routeResource);
      expect(asked.filter((url) => url.startsWith('/openapi/v3/apis/net.kubedrift.dev/v1?hash='))).toHaveLength(1);
      expect(compareObjects(...hostsReordered, schema)).toEqual([]);
      expect(compareObjects({ spec: { rules: [1, 2] } }, { spec: { rules: [2, 1] } }, schema).map((d) => readablePath(d.segments))).toEqual(['spec.rules']);
      // A second run on the same document is answered from the cache (one index read, no document).
      await createSchemaSource(client, { context: 'crs', cache }).schemaFor(routeResource);
      expect(asked.filter((url) => url.startsWith('/openapi/v3/apis/'))).toHaveLength(1);
    } finally {
      real.close();
    }
  });

  it('falls back to the built-in guess with a notice saying why when neither the CRD nor the OpenAPI document can be read', async () => {
    const { config, server } = await start(routeCrd());
    await applyManifests(config, [await manifests('route.yaml', route())]);
    server.faults.failRequests({ status: 403, message: 'forbidden by policy', match: (method, url) => method === 'GET' && (url.startsWith(CRDS) || url.startsWith('/openapi/v3')) });
    const file = await manifests('route.yaml', route({ hosts: ['www.shop.example.com', 'shop.example.com'] }));
    const run = await diff(config, [file]);
    expect(run.notices).toEqual([
      {
        level: 'warning',
        path: file,
        message: 'The list schema of Route (net.kubedrift.dev/v1) could not be read (the CRD routes.net.kubedrift.dev: forbidden by policy; /openapi/v3: forbidden by policy), so its lists are compared by the built-in merge-key guess.',
      },
    ]);
    // The guess takes a list of strings as one value: the reordered set now differs.
    expect(only(run, 'Route', 'shop').diff.fields.map((f) => f.path)).toEqual(['spec.hosts']);
  });

  it('is not asked for built-in kinds', async () => {
    const { config } = await start();
    const client = await createApiClient(config);
    try {
      const source = createSchemaSource(client, { context: 'crs', cache: createSchemaCache() });
      expect(await source.schemaFor({ apiVersion: 'apps/v1', group: 'apps', kind: 'Deployment', plural: 'deployments', namespaced: true, verbs: [] })).toBeUndefined();
    } finally {
      client.close();
    }
  });
});
