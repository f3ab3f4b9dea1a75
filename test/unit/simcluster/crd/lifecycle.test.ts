import { describe, expect, it } from 'vitest';
import { certificate, certificateCrd, databaseCrd } from './fixtures.ts';
import { AGGREGATED, call, settle, useCrdCluster, type Json } from './helpers.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CERTS = '/apis/cert-manager.io/v1/namespaces/default/certificates';

describe('CustomResourceDefinitions', () => {
  const clusters = useCrdCluster();

  it('are created with the cleanup finalizer, then get NamesAccepted, Established and storedVersions', async () => {
    const { server } = await clusters.start();
    const created = await call(server, 'POST', CRDS, { body: certificateCrd() });
    expect(created.status).toBe(201);
    expect(created.json.metadata).toMatchObject({ name: 'certificates.cert-manager.io', generation: 1, finalizers: ['customresourcecleanup.apiextensions.k8s.io'] });
    expect(created.json.spec.conversion).toEqual({ strategy: 'None' });
    await settle();
    const got = await call(server, 'GET', `${CRDS}/certificates.cert-manager.io`);
    expect(got.json.status.acceptedNames).toMatchObject({ plural: 'certificates', singular: 'certificate', kind: 'Certificate', listKind: 'CertificateList', shortNames: ['cert', 'certs'] });
    expect(got.json.status.storedVersions).toEqual(['v1']);
    expect(got.json.status.conditions.map((c: Json) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
      ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
    ]);
  });

  it('refuse a name that is not <plural>.<group> and a schema that is not structural, with the real messages', async () => {
    const { server } = await clusters.start();
    const wrongName = certificateCrd();
    (wrongName['metadata'] as Json).name = 'certs.cert-manager.io';
    const res = await call(server, 'POST', CRDS, { body: wrongName });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('CustomResourceDefinition.apiextensions.k8s.io "certs.cert-manager.io" is invalid: metadata.name: Invalid value: "certs.cert-manager.io": must be spec.names.plural+"."+spec.group');

    const untyped = databaseCrd();
    const versions = (untyped['spec'] as Json).versions;
    // Both versions share the schema object, so both lose the type.
    delete versions[1].schema.openAPIV3Schema.properties.spec.properties.engine.type;
    versions[0].storage = true;
    const bad = await call(server, 'POST', CRDS, { body: untyped });
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.versions', message: expect.stringMatching(/^Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must have exactly one version marked as storage version$/) },
      { reason: 'FieldValueRequired', field: 'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[engine].type', message: 'Required value: must not be empty for specified object fields' },
      { reason: 'FieldValueRequired', field: 'spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[engine].type', message: 'Required value: must not be empty for specified object fields' },
    ]);
  });

  it('serve their kinds in discovery at once, newest version preferred, and stop when deleted', async () => {
    const { server } = await clusters.start();
    await call(server, 'POST', CRDS, { body: databaseCrd() });
    const group = await call(server, 'GET', '/apis/db.example.com');
    expect(group.json).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'db.example.com',
      versions: [
        { groupVersion: 'db.example.com/v1', version: 'v1' },
        { groupVersion: 'db.example.com/v1alpha1', version: 'v1alpha1' },
      ],
      preferredVersion: { groupVersion: 'db.example.com/v1', version: 'v1' },
    });
    const list = await call(server, 'GET', '/apis/db.example.com/v1');
    expect(list.json.resources).toEqual([
      { name: 'databases', singularName: 'database', namespaced: true, kind: 'Database', verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'], shortNames: ['db'], storageVersionHash: expect.any(String) },
      { name: 'databases/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
      { name: 'databases/status', singularName: '', namespaced: true, kind: 'Database', verbs: ['get', 'patch', 'update'] },
    ]);
    const aggregated = await call(server, 'GET', '/apis', { headers: { Accept: AGGREGATED } });
    const db = aggregated.json.items.find((g: Json) => g.metadata.name === 'db.example.com');
    expect(db.versions.map((v: Json) => v.version)).toEqual(['v1', 'v1alpha1']);
    expect(db.versions[0].resources[0]).toMatchObject({ resource: 'databases', scope: 'Namespaced', singularResource: 'database', shortNames: ['db'], responseKind: { group: 'db.example.com', version: 'v1', kind: 'Database' } });
    expect(db.versions[0].resources[0].subresources).toEqual([
      { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'status', responseKind: { group: 'db.example.com', version: 'v1', kind: 'Database' }, verbs: ['get', 'patch', 'update'] },
    ]);
    expect(db.versions[0].freshness).toBe('Current');

    await call(server, 'POST', '/apis/db.example.com/v1/namespaces/default/databases', { body: { apiVersion: 'db.example.com/v1', kind: 'Database', metadata: { name: 'orders' }, spec: { engine: 'postgres' } } });
    const deleted = await call(server, 'DELETE', `${CRDS}/databases.db.example.com`);
    expect([deleted.status, deleted.json.metadata.deletionTimestamp]).toEqual([200, expect.any(String)]);
    // Terminating: still served while its instances go, but nothing new may be created.
    const refused = await call(server, 'POST', '/apis/db.example.com/v1/namespaces/default/databases', { body: { apiVersion: 'db.example.com/v1', kind: 'Database', metadata: { name: 'late' }, spec: { engine: 'mysql' } } });
    expect([refused.status, refused.json.message]).toEqual([405, 'create not allowed while custom resource definition is terminating']);
    await settle();
    expect((await call(server, 'GET', '/apis/db.example.com/v1')).status).toBe(404);
    expect((await call(server, 'GET', '/apis/db.example.com/v1/namespaces/default/databases')).status).toBe(404);
    const groups = await call(server, 'GET', '/apis');
    expect(groups.json.groups.map((g: Json) => g.name)).not.toContain('db.example.com');
    // The finalizer controller deleted the instances, then let the CRD go.
    expect((await call(server, 'GET', `${CRDS}/databases.db.example.com`)).status).toBe(404);
  });

  it('end the watches on a deleted CRD\'s resources', async () => {
    const { server } = await clusters.start();
    await call(server, 'POST', CRDS, { body: certificateCrd() });
    const watch = await clusters.watch(`${CERTS}?watch=true`);
    await call(server, 'POST', CERTS, { body: certificate('web') });
    expect((await watch.next()).type).toBe('ADDED');
    await call(server, 'DELETE', `${CRDS}/certificates.cert-manager.io`);
    expect((await watch.next()).type).toBe('DELETED');
    expect(await watch.ended).toEqual({ cut: false });
  });

  it('serve a changed schema and printer columns as soon as the CRD is updated', async () => {
    const { server } = await clusters.start();
    await call(server, 'POST', CRDS, { body: databaseCrd() });
    const dbs = '/apis/db.example.com/v1/namespaces/default/databases';
    await call(server, 'POST', dbs, { body: { apiVersion: 'db.example.com/v1', kind: 'Database', metadata: { name: 'orders' }, spec: { engine: 'postgres', owner: 'shop' } } });
    expect((await call(server, 'GET', `${dbs}/orders`)).json.spec.owner).toBeUndefined();
    const patch = [
      { op: 'add', path: '/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/owner', value: { type: 'string' } },
      { op: 'add', path: '/spec/versions/1/additionalPrinterColumns/-', value: { name: 'Owner', type: 'string', jsonPath: '.spec.owner' } },
    ];
    const updated = await call(server, 'PATCH', `${CRDS}/databases.db.example.com`, { body: patch, headers: { 'Content-Type': 'application/json-patch+json' } });
    expect([updated.status, updated.json.metadata.generation]).toEqual([200, 2]);
    const merged = await call(server, 'PATCH', `${dbs}/orders`, { body: { spec: { owner: 'shop' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(merged.json.spec.owner).toBe('shop');
    const table = await call(server, 'GET', dbs, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.json.columnDefinitions.map((c: Json) => c.name)).toEqual(['Name', 'Engine', 'Replicas', 'Phase', 'Owner']);
    expect(table.json.rows[0].cells).toEqual(['orders', 'postgres', 1, null, 'shop']);
  });

  it('do not accept names another CRD of the group holds', async () => {
    const { server } = await clusters.start();
    await call(server, 'POST', CRDS, { body: certificateCrd() });
    await settle();
    const clash = certificateCrd();
    (clash['metadata'] as Json).name = 'certificaterequests.cert-manager.io';
    Object.assign((clash['spec'] as Json).names, { plural: 'certificaterequests', kind: 'CertificateRequest', listKind: 'CertificateRequestList', singular: 'certificaterequest' });
    expect((await call(server, 'POST', CRDS, { body: clash })).status).toBe(201);
    await settle();
    const got = await call(server, 'GET', `${CRDS}/certificaterequests.cert-manager.io`);
    expect(got.json.status.conditions.map((c: Json) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['NamesAccepted', 'False', 'ShortNamesConflict', '"cert" is already in use'],
      ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
    ]);
    expect((await call(server, 'GET', '/apis/cert-manager.io/v1/certificaterequests')).status).toBe(404);
  });
});
