/**
 * Snapshots of a cluster with custom resources: the export holds them and a kind table naming
 * their kind key, plural and scope; opening the file, with the cluster gone, files them under
 * the same keys as the live engine did, so every view sees them as it saw them live.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../../../electron/engine/snapshot/file.ts';
import type { ClusterHealth } from '../../../../shared/cluster.ts';
import type { ClusterDiscovery } from '../../../../shared/discovery.ts';
import type { OpenedSnapshot } from '../../../../shared/contracts/snapshot.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { call } from '../../simcluster/server/helpers.ts';
import { certificate, certificateCrd } from '../../simcluster/crd/fixtures.ts';
import { exportBytes, startFixture, unwrap, waitForSync, type Fixture } from './engine-fixture.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CERTIFICATES = '/apis/cert-manager.io/v1/namespaces/default/certificates';
const KEY = 'certificates.cert-manager.io';

let dir: string;
let cleanup: () => Promise<void>;
let fixture: Fixture | undefined;

beforeEach(async () => ({ dir, cleanup } = await withTempDir('kubedrift-custom-kinds-')));
afterEach(async () => {
  await fixture?.stop();
  fixture = undefined;
  await cleanup();
});

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Creates the certificate CRD and two Certificates, retrying while the new kind is not served yet. */
async function createCertificates(server: Fixture['cluster']['server']): Promise<void> {
  expect((await call(server, 'POST', CRDS, { body: certificateCrd() })).status).toBe(201);
  for (const name of ['web-tls', 'api-tls']) {
    const deadline = Date.now() + 5_000;
    const create = async () => (await call(server, 'POST', CERTIFICATES, { body: certificate(name) })).status;
    let status = await create();
    // The CRD's kind is served once the CRD is established, a moment after it was created.
    while (status === 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await create();
    }
    expect(status, name).toBe(201);
  }
}

describe('a snapshot with custom resources', () => {
  it('holds them with a kind table, and opening it restores them under their kind key without the cluster', async () => {
    fixture = await startFixture(dir, 'minimal', { dataDir: path.join(dir, 'data') });
    const { engine } = fixture;
    await createCertificates(fixture.cluster.server);
    await waitFor('both certificates cached', () => engine.inspectCache().filter((stamp) => stamp.kind === KEY).length === 2);
    await waitFor('the CRD cached as metadata', () => engine.inspectCache().some((stamp) => stamp.kind === 'customresourcedefinitions.apiextensions.k8s.io'));

    const { bytes } = await exportBytes(engine, { format: 'snapshot', scope: { type: 'cluster' }, at: null });
    const file = await decodeSnapshot(bytes);
    expect(file.kinds).toContainEqual({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', key: KEY, plural: 'certificates', namespaced: true, custom: true, metadataOnly: false });
    expect(file.kinds).toContainEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      key: 'customresourcedefinitions.apiextensions.k8s.io',
      plural: 'customresourcedefinitions',
      namespaced: false,
      custom: false,
      metadataOnly: true,
    });
    expect(file.kinds).toContainEqual(expect.objectContaining({ apiVersion: 'apps/v1', kind: 'Deployment', key: 'deployments.apps', custom: false }));
    const certificates = file.objects.filter((object) => object.kind === 'Certificate');
    expect(certificates.map((object) => object.metadata.name).sort()).toEqual(['api-tls', 'web-tls']);
    expect(certificates[0]).toMatchObject({ spec: { issuerRef: { name: 'letsencrypt' } } });
    // Every kind of the file is in its table: nothing is left out when it is opened.
    const named = new Set(file.kinds.map((entry) => `${entry.apiVersion} ${entry.kind}`));
    expect([...file.objects, ...file.events].filter((object) => !named.has(`${object.apiVersion} ${object.kind}`))).toEqual([]);

    // The HTML report lists them with their state (no Ready condition yet: waiting, by cert-manager's rule).
    const report = (await exportBytes(engine, { format: 'html', scope: { type: 'cluster' }, at: null })).bytes.toString('utf8');
    expect(report).toContain('Custom resources (2)');
    expect([...report.matchAll(/data-custom-resource="([^"]+)" data-state="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      'Certificate.cert-manager.io/default/api-tls progressing',
      'Certificate.cert-manager.io/default/web-tls progressing',
    ]);
    expect(report).toContain('Waiting for certificate: no Ready condition yet');

    const filePath = path.join(dir, 'custom.kubedrift.json.gz');
    await writeFile(filePath, bytes);
    const { snapshot: opened } = unwrap<{ snapshot: OpenedSnapshot }>(await engine.dispatch('snapshot:open', { source: 'path', path: filePath }));
    await fixture.cluster.stop();
    unwrap(await engine.dispatch('contexts:select', { name: opened.contextName }));
    await waitForSync(engine, opened.contextName);

    const keyOf = new Map(file.kinds.map((entry) => [`${entry.apiVersion} ${entry.kind}`, entry.key]));
    const expected = [...file.objects, ...file.events].map((o) => `${keyOf.get(`${o.apiVersion} ${o.kind}`)}/${o.metadata.uid}@${o.metadata.resourceVersion}`).sort();
    expect(engine.inspectCache().map((s) => `${s.kind}/${s.uid}@${s.resourceVersion}`).sort()).toEqual(expected);
    expect(engine.inspectCache().filter((stamp) => stamp.kind === KEY).map((stamp) => stamp.uid).sort()).toEqual(certificates.map((object) => object.metadata.uid).sort());
    const health = unwrap<ClusterHealth>(await engine.dispatch('cluster:health', {}));
    expect(health.kinds).toContainEqual(expect.objectContaining({ kind: KEY, state: 'live', count: 2 }));
    // Discovery of the snapshot context is the file's table: the views list its custom kinds as live.
    const discovery = unwrap<ClusterDiscovery>(await engine.dispatch('cluster:discovery', {}));
    const byKey = new Map(discovery.state?.kinds.map((entry) => [entry.key, entry]));
    expect(byKey.get(KEY)).toMatchObject({ ref: { group: 'cert-manager.io', version: 'v1', kind: 'Certificate', plural: 'certificates', namespaced: true }, custom: true, mode: 'full', count: 2 });
    expect(byKey.get('customresourcedefinitions.apiextensions.k8s.io')).toMatchObject({ custom: false, mode: 'metadata', count: 1 });
    expect(byKey.get('deployments.apps')).toMatchObject({ custom: false, mode: 'full', count: 1 });

    // Exported again from the opened snapshot: the same objects and the same table.
    const again = await decodeSnapshot((await exportBytes(engine, { format: 'snapshot', scope: { type: 'cluster' }, at: null })).bytes);
    expect(again.objects).toEqual(file.objects);
    expect(again.kinds).toEqual(file.kinds);
  });
});
