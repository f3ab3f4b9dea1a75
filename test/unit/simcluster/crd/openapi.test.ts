import { describe, expect, it } from 'vitest';
import { documentJson } from '../openapi/gnostic-decoder.ts';
import { certificateCrd, databaseCrd } from './fixtures.ts';
import { call, settle, useCrdCluster, type Json } from './helpers.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CERT_PATH = '/apis/cert-manager.io/v1/namespaces/{namespace}/certificates/{name}';

async function binary(url: string, path: string, accept: string): Promise<Buffer> {
  const res = await fetch(new URL(path, url), { headers: { Accept: accept } });
  return Buffer.from(await res.arrayBuffer());
}

describe('OpenAPI of custom resources', () => {
  const clusters = useCrdCluster();

  it('publishes the kind in v2, JSON and protobuf, with its GVK and a PATCH taking dryRun but no strategic merge', async () => {
    const { server } = await clusters.start();
    const before = await call(server, 'GET', '/openapi/v2');
    expect(before.json.paths[CERT_PATH]).toBeUndefined();
    await call(server, 'POST', CRDS, { body: certificateCrd() });
    const v2 = await call(server, 'GET', '/openapi/v2');
    const definition = v2.json.definitions['io.cert-manager.v1.Certificate'];
    expect(definition['x-kubernetes-group-version-kind']).toEqual([{ group: 'cert-manager.io', kind: 'Certificate', version: 'v1' }]);
    expect(definition.properties.metadata).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', description: expect.stringContaining("Standard object's metadata") });
    expect(definition.properties.spec.required).toEqual(['issuerRef', 'secretName']);
    expect(definition.properties.spec.properties.revisionHistoryLimit).not.toHaveProperty('nullable');
    expect(v2.json.definitions['io.cert-manager.v1.CertificateList'].properties.items.items).toEqual({ $ref: '#/definitions/io.cert-manager.v1.Certificate' });
    const patch = v2.json.paths[CERT_PATH].patch;
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'cert-manager.io', kind: 'Certificate', version: 'v1' });
    expect(patch.operationId).toBe('patchCertManagerIoV1NamespacedCertificate');
    expect(patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    expect(patch.parameters.map((p: Json) => p.name)).toContain('dryRun');
    expect(v2.json.paths['/apis/cert-manager.io/v1/namespaces/{namespace}/certificates/{name}/status']).toBeDefined();

    // The gnostic document kubectl 1.2x reads says the same, value bounds included.
    const protobuf = await binary(server.url, '/openapi/v2', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf');
    expect(documentJson(protobuf)).toEqual(JSON.parse(v2.text));
  });

  it('indexes a v3 document per custom group version, built from the CRD schema, and drops it with the CRD', async () => {
    const { server } = await clusters.start();
    await call(server, 'POST', CRDS, { body: databaseCrd() });
    const index = await call(server, 'GET', '/openapi/v3');
    expect(Object.keys(index.json.paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/db.example.com/v1', 'apis/db.example.com/v1alpha1']));
    const url = index.json.paths['apis/db.example.com/v1'].serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/db\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
    const doc = await call(server, 'GET', url);
    const schema = doc.json.components.schemas['com.example.db.v1.Database'];
    expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'db.example.com', kind: 'Database', version: 'v1' }]);
    expect(schema.properties.spec.properties.storage).toEqual({ 'x-kubernetes-int-or-string': true });
    expect(schema.properties.metadata.allOf).toEqual([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    const patch = doc.json.paths['/apis/db.example.com/v1/namespaces/{namespace}/databases/{name}'].patch;
    expect(patch.parameters).toContainEqual(expect.objectContaining({ name: 'dryRun', in: 'query' }));
    expect(doc.json.paths['/apis/db.example.com/v1/namespaces/{namespace}/databases/{name}/scale'].get['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', kind: 'Scale', version: 'v1' });

    await call(server, 'DELETE', `${CRDS}/databases.db.example.com`);
    await settle();
    const after = await call(server, 'GET', '/openapi/v3');
    expect(Object.keys(after.json.paths)).not.toContain('apis/db.example.com/v1');
    expect((await call(server, 'GET', '/openapi/v3/apis/db.example.com/v1')).status).toBe(404);
  });
});
