import { describe, expect, it } from 'vitest';
import { certificate, certificateCrd, databaseCrd } from './fixtures.ts';
import { call, settle, TABLE, useCrdCluster, type Json } from './helpers.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CERTS = '/apis/cert-manager.io/v1/namespaces/default/certificates';
const DBS = '/apis/db.example.com/v1/namespaces/default/databases';

describe('custom resources', () => {
  const clusters = useCrdCluster();
  const start = async (...crds: Array<Record<string, unknown>>) => {
    const cluster = await clusters.start();
    for (const crd of crds) expect((await call(cluster.server, 'POST', CRDS, { body: crd })).status).toBe(201);
    await settle();
    return cluster.server;
  };

  it('are created pruned of unknown fields and defaulted from the schema, with generation 1', async () => {
    const server = await start(certificateCrd());
    const body = certificate('web', 'default', { privateKey: { algorithm: 'ECDSA' }, colour: 'blue' });
    const created = await call(server, 'POST', CERTS, { body });
    expect(created.status).toBe(201);
    expect(created.headers['warning']).toBe('299 - "unknown field \\"spec.colour\\""');
    expect(created.json.metadata.generation).toBe(1);
    expect(created.json.spec).toEqual({ secretName: 'web-tls', dnsNames: ['web.example.com'], issuerRef: { name: 'letsencrypt', kind: 'Issuer' }, privateKey: { algorithm: 'ECDSA', rotationPolicy: 'Never' } });
  });

  it('refuse unknown fields under fieldValidation=Strict with the strict decoding error', async () => {
    const server = await start(certificateCrd());
    const res = await call(server, 'POST', `${CERTS}?fieldValidation=Strict`, { body: certificate('web', 'default', { colour: 'blue' }) });
    expect([res.status, res.json.message]).toEqual([400, 'Certificate in version "v1" cannot be handled as a Certificate: strict decoding error: unknown field "spec.colour"']);
  });

  it('that fail their schema get the real 422 messages', async () => {
    const server = await start(certificateCrd(), databaseCrd());
    const missing = certificate('web');
    delete (missing['spec'] as Json).secretName;
    const res = await call(server, 'POST', CERTS, { body: missing });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('Certificate.cert-manager.io "web" is invalid: spec.secretName: Required value');
    expect(res.json.details).toMatchObject({ name: 'web', group: 'cert-manager.io', kind: 'Certificate', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.secretName' }] });

    const wrong = await call(server, 'POST', DBS, { body: { apiVersion: 'db.example.com/v1', kind: 'Database', metadata: { name: 'orders' }, spec: { engine: 'oracle', replicas: 'three' } } });
    expect(wrong.json.message).toBe(
      'Database.db.example.com "orders" is invalid: [spec.engine: Unsupported value: "oracle": supported values: "postgres", "mysql", spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"]',
    );
    const bounds = await call(server, 'POST', CERTS, { body: certificate('web', 'default', { secretName: 'Web_TLS', privateKey: { size: 128 } }) });
    expect(bounds.json.details.causes.map((c: Json) => `${c.field}: ${c.message}`)).toEqual([
      "spec.secretName: Invalid value: \"Web_TLS\": spec.secretName in body should match '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$'",
      "spec.privateKey.size: Invalid value: 128: spec.privateKey.size in body should be greater than or equal to 256",
    ]);
  });

  it('answer a strategic merge patch with the real 415 and take merge and JSON patches', async () => {
    const server = await start(certificateCrd());
    await call(server, 'POST', CERTS, { body: certificate('web') });
    const strategic = await call(server, 'PATCH', `${CERTS}/web`, { body: { spec: { secretName: 'x' } }, headers: { 'Content-Type': 'application/strategic-merge-patch+json' } });
    expect([strategic.status, strategic.json.reason, strategic.json.message]).toEqual([
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got application/strategic-merge-patch+json)',
    ]);
    const merged = await call(server, 'PATCH', `${CERTS}/web`, { body: { spec: { secretName: 'web-new' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect([merged.status, merged.json.spec.secretName, merged.json.metadata.generation]).toEqual([200, 'web-new', 2]);
    const json = await call(server, 'PATCH', `${CERTS}/web`, { body: [{ op: 'replace', path: '/spec/dnsNames/0', value: 'a.example.com' }], headers: { 'Content-Type': 'application/json-patch+json' } });
    expect([json.status, json.json.spec.dnsNames]).toEqual([200, ['a.example.com']]);
  });

  it('take server-side apply, creating the object and recording the manager', async () => {
    const server = await start(certificateCrd());
    const applied = await call(server, 'PATCH', `${CERTS}/web?fieldManager=kubectl&force=false`, { body: JSON.stringify(certificate('web')), headers: { 'Content-Type': 'application/apply-patch+yaml' } });
    expect(applied.status).toBe(201);
    expect(applied.json.metadata.managedFields.map((f: Json) => [f.manager, f.operation])).toEqual([['kubectl', 'Apply']]);
    expect(applied.json.spec.issuerRef).toEqual({ name: 'letsencrypt', kind: 'Issuer' });
  });

  it('keep status and spec apart: the main endpoint ignores status, /status everything else; generation follows the spec', async () => {
    const server = await start(certificateCrd());
    const created = await call(server, 'POST', CERTS, { body: { ...certificate('web'), status: { revision: 9 } } });
    expect(created.json.status).toBeUndefined();
    const withStatus = { ...created.json, spec: { ...created.json.spec, secretName: 'ignored' }, status: { conditions: [{ type: 'Ready', status: 'True', message: 'Certificate is up to date and has not expired' }] } };
    const status = await call(server, 'PUT', `${CERTS}/web/status`, { body: withStatus });
    expect([status.status, status.json.spec.secretName, status.json.status.conditions[0].type, status.json.metadata.generation]).toEqual([200, 'web-tls', 'Ready', 1]);
    const main = await call(server, 'PUT', `${CERTS}/web`, { body: { ...status.json, spec: { ...status.json.spec, secretName: 'web-2' }, status: {} } });
    expect([main.json.spec.secretName, main.json.status.conditions.length, main.json.metadata.generation]).toEqual(['web-2', 1, 2]);
    const labelled = await call(server, 'PATCH', `${CERTS}/web`, { body: { metadata: { labels: { team: 'web' } } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(labelled.json.metadata.generation).toBe(2);
  });

  it('serve /scale from the CRD paths and write the replicas back', async () => {
    const server = await start(databaseCrd());
    await call(server, 'POST', DBS, { body: { apiVersion: 'db.example.com/v1', kind: 'Database', metadata: { name: 'orders' }, spec: { engine: 'postgres', replicas: 2 } } });
    const got = await call(server, 'GET', `${DBS}/orders`);
    await call(server, 'PUT', `${DBS}/orders/status`, { body: { ...got.json, status: { replicas: 2, selector: 'app=orders' } } });
    const scale = await call(server, 'GET', `${DBS}/orders/scale`);
    expect(scale.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'orders', namespace: 'default' }, spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=orders' } });
    const scaled = await call(server, 'PATCH', `${DBS}/orders/scale`, { body: { spec: { replicas: 5 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(scaled.json.spec).toEqual({ replicas: 5 });
    expect((await call(server, 'GET', `${DBS}/orders`)).json.spec.replicas).toBe(5);
  });

  it('are served at every served version under that apiVersion, and listed with selectors and pages', async () => {
    const server = await start(databaseCrd());
    for (const name of ['a', 'b', 'c']) {
      await call(server, 'POST', DBS, { body: { apiVersion: 'db.example.com/v1', kind: 'Database', metadata: { name, labels: { tier: name === 'c' ? 'gold' : 'silver' } }, spec: { engine: 'mysql' } } });
    }
    const old = await call(server, 'GET', '/apis/db.example.com/v1alpha1/namespaces/default/databases/a');
    expect(old.json.apiVersion).toBe('db.example.com/v1alpha1');
    const selected = await call(server, 'GET', `${DBS}?labelSelector=tier%3Dsilver&fieldSelector=metadata.name!%3Da`);
    expect([selected.json.kind, selected.json.items.map((i: Json) => i.metadata.name)]).toEqual(['DatabaseList', ['b']]);
    const page = await call(server, 'GET', '/apis/db.example.com/v1/databases?limit=2');
    expect([page.json.items.length, page.json.metadata.remainingItemCount]).toEqual([2, 1]);
    const rest = await call(server, 'GET', `/apis/db.example.com/v1/databases?limit=2&continue=${encodeURIComponent(page.json.metadata.continue)}`);
    expect(rest.json.items.map((i: Json) => i.metadata.name)).toEqual(['c']);
    const badField = await call(server, 'GET', `${DBS}?fieldSelector=spec.engine%3Dmysql`);
    expect([badField.status, badField.json.message]).toEqual([400, 'field label not supported: spec.engine']);
    const collection = await call(server, 'DELETE', `${DBS}?labelSelector=tier%3Dsilver`);
    expect(collection.json.items.map((i: Json) => i.metadata.name)).toEqual(['a', 'b']);
  });

  it('print Tables with the CRD printer columns, or NAME and AGE without them', async () => {
    const server = await start(certificateCrd(), databaseCrd());
    await call(server, 'POST', CERTS, { body: certificate('web') });
    const got = await call(server, 'GET', `${CERTS}/web`);
    await call(server, 'PUT', `${CERTS}/web/status`, { body: { ...got.json, status: { conditions: [{ type: 'Issuing', status: 'False' }, { type: 'Ready', status: 'True', message: 'up to date' }] } } });
    const table = await call(server, 'GET', CERTS, { headers: { Accept: TABLE } });
    expect(table.json.columnDefinitions.map((c: Json) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Secret', 'string', 0],
      ['Issuer', 'string', 1],
      ['Status', 'string', 1],
      ['Age', 'date', 0],
    ]);
    expect(table.json.rows[0].cells).toEqual(['web', 'True', 'web-tls', 'letsencrypt', 'up to date', '0s']);
    const crds = await call(server, 'GET', CRDS, { headers: { Accept: TABLE } });
    expect(crds.json.columnDefinitions.map((c: Json) => c.name)).toEqual(['Name', 'Created At']);
    expect(crds.json.rows[0].cells).toEqual(['certificates.cert-manager.io', '2025-06-01T12:00:00Z']);
  });

  it('of a cluster-scoped CRD live outside namespaces', async () => {
    const crd = certificateCrd();
    (crd['metadata'] as Json).name = 'clusterissuers.cert-manager.io';
    Object.assign(crd['spec'] as Json, { scope: 'Cluster', names: { kind: 'ClusterIssuer', plural: 'clusterissuers' } });
    (crd['spec'] as Json).versions[0].schema.openAPIV3Schema = { type: 'object', properties: { spec: { type: 'object', properties: { selfSigned: { type: 'object' } } } } };
    const server = await start(crd);
    const created = await call(server, 'POST', '/apis/cert-manager.io/v1/clusterissuers', { body: { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'self', namespace: 'default' }, spec: { selfSigned: {} } } });
    expect([created.status, created.json.metadata.namespace, created.json.metadata.selfLink]).toEqual([201, undefined, undefined]);
    expect((await call(server, 'GET', '/apis/cert-manager.io/v1/clusterissuers/self')).json.spec).toEqual({ selfSigned: {} });
    expect((await call(server, 'GET', '/apis/cert-manager.io/v1/namespaces/default/clusterissuers')).status).toBe(404);
    const list = await call(server, 'GET', '/apis/cert-manager.io/v1');
    expect(list.json.resources[0]).toMatchObject({ name: 'clusterissuers', namespaced: false, kind: 'ClusterIssuer', singularName: 'clusterissuer' });
  });

  it('warn on every request to a deprecated version, and list as the CRD listKind', async () => {
    const crd = databaseCrd();
    Object.assign((crd['spec'] as Json).versions[0], { deprecated: true });
    (crd['spec'] as Json).names.listKind = 'DatabaseCollection';
    const server = await start(crd);
    const old = await call(server, 'GET', '/apis/db.example.com/v1alpha1/namespaces/default/databases');
    expect([old.json.kind, old.headers['warning']]).toEqual(['DatabaseCollection', '299 - "db.example.com/v1alpha1 Database is deprecated"']);
    expect((await call(server, 'GET', DBS)).headers['warning']).toBeUndefined();
  });

  it('answer 500 with the webhook message for a version whose conversion fails, and keep the others working', async () => {
    const server = await start(databaseCrd());
    await call(server, 'POST', DBS, { body: { apiVersion: 'db.example.com/v1', kind: 'Database', metadata: { name: 'orders' }, spec: { engine: 'postgres' } } });
    server.faults.failConversion({ group: 'db.example.com', version: 'v1alpha1', plural: 'databases', kind: 'Database', cause: 'Post "https://db-webhook.db-system.svc:443/convert?timeout=30s": dial tcp 10.96.0.12:443: connect: connection refused' });
    const broken = await call(server, 'GET', '/apis/db.example.com/v1alpha1/databases');
    expect([broken.status, broken.json.message]).toEqual([
      500,
      'conversion webhook for db.example.com/v1alpha1, Kind=Database failed: Post "https://db-webhook.db-system.svc:443/convert?timeout=30s": dial tcp 10.96.0.12:443: connect: connection refused',
    ]);
    expect((await call(server, 'GET', '/apis/db.example.com/v1/databases')).status).toBe(200);
    server.faults.clear();
    expect((await call(server, 'GET', '/apis/db.example.com/v1alpha1/databases')).status).toBe(200);
  });
});
