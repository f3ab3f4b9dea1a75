/**
 * The YAML bundle is what kubectl accepts: the demo cluster's bundle is applied for real to a
 * fresh simulated cluster with the real kubectl, and the "keep status" record passes a
 * client-side dry run.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { kubectlMissing } from '../../../kubectl/kubectl.ts';
import { openSession, type KubectlSession } from '../../../kubectl/session.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { exportBytes, startFixture, waitForKinds, type Fixture } from './engine-fixture.ts';

/** A parsed YAML document, read loosely. */
type Doc = { kind: string; status?: { phase?: string }; metadata: { name?: string; uid?: string } };

let fixture: Fixture;
let fresh: SimCluster;
let k: KubectlSession;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-yaml-'));
  fixture = await startFixture(dir, 'demo');
  await waitForKinds(fixture.engine, ['customresourcedefinitions.apiextensions.k8s.io', 'certificates.cert-manager.io', 'secrets']);
  fresh = await startSimCluster({ scenario: 'minimal' });
  k = await openSession(fresh);
  await installCrds();
}, 60_000);

/**
 * The demo's CustomResourceDefinitions, as their operators would install them: a cluster needs
 * them before the bundle's custom resources (Kubedrift holds CRDs as metadata only).
 */
async function installCrds(): Promise<void> {
  const type = fixture.cluster.store.types.byId('customresourcedefinitions.apiextensions.k8s.io');
  if (!type) throw new Error('the simulator serves no CRDs');
  const items = fixture.cluster.store.all(type).map((crd) => ({ apiVersion: crd.apiVersion, kind: crd.kind, metadata: { name: crd.metadata.name }, spec: (crd as { spec?: unknown }).spec }));
  expect(items.length).toBeGreaterThan(0);
  const file = path.join(dir, 'crds.json');
  await writeFile(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  const applied = await k.run(['apply', '-f', file]);
  expect(applied.code, applied.stderr).toBe(0);
  const established = await k.run(['wait', '--for=condition=Established', 'crd', '--all', '--timeout=20s']);
  expect(established.code, established.stderr).toBe(0);
}

afterAll(async () => {
  await k?.close();
  await fresh?.stop();
  await fixture?.stop();
  await cleanup?.();
});

describe.skipIf(kubectlMissing !== undefined)('YAML bundle', () => {
  it('applies to a fresh cluster with the real kubectl: manifests without status or server-set fields', async () => {
    const { bytes, result } = await exportBytes(fixture.engine, { format: 'yaml', scope: { type: 'cluster' }, at: null });
    expect(result.fileName).toMatch(/^kubedrift-demo-\d{8}-\d{6}\.yaml$/);
    const text = bytes.toString('utf8');
    const docs = parseAllDocuments(text).map((doc) => doc.toJS() as Doc);
    expect(docs.length).toBeGreaterThan(10);
    for (const doc of docs) {
      expect(doc.status, `${doc.kind}/${doc.metadata.name}`).toBeUndefined();
      expect(Object.keys(doc.metadata)).not.toContain('uid');
      expect(Object.keys(doc.metadata)).not.toContain('resourceVersion');
      expect(['Pod', 'Event', 'Node']).not.toContain(doc.kind);
    }
    expect(docs.findIndex((doc) => doc.kind !== 'Namespace')).toBeGreaterThan(docs.findLastIndex((doc) => doc.kind === 'Namespace'));
    expect(text).toMatch(/^# Left out: .*Events/m);
    // Custom resources are manifests too; CRDs and Secrets, read as metadata only, are not.
    expect(text).toMatch(/^# Custom resources of .*certificates\.cert-manager\.io.*: install their CustomResourceDefinitions/m);
    expect(text).toMatch(/^# Left out: .*CustomResourceDefinitions read as metadata only/m);
    expect(docs.some((doc) => doc.kind === 'Certificate')).toBe(true);
    expect(docs.filter((doc) => ['CustomResourceDefinition', 'Secret', 'ConfigMap'].includes(doc.kind))).toEqual([]);
    const file = path.join(dir, 'bundle.yaml');
    await writeFile(file, text);
    const applied = await k.run(['apply', '-f', file]);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/deployment\.apps\/frontend created/);
    const listed = await k.run(['get', 'deployments', '-A', '-o', 'name']);
    expect(listed.stdout.trim().split('\n').length).toBe(docs.filter((doc) => doc.kind === 'Deployment').length + 1);
  });

  it('keeps every object with its status when asked, and kubectl still reads it', async () => {
    const { bytes } = await exportBytes(fixture.engine, { format: 'yaml', scope: { type: 'namespace', namespace: 'shop' }, at: null, keepStatus: true });
    const text = bytes.toString('utf8');
    const docs = parseAllDocuments(text).map((doc) => doc.toJS() as Doc);
    expect(docs.some((doc) => doc.kind === 'Pod' && doc.status?.phase)).toBe(true);
    expect(docs.some((doc) => doc.kind === 'Deployment' && doc.metadata.uid)).toBe(true);
    const file = path.join(dir, 'record.yaml');
    await writeFile(file, text);
    const dryRun = await k.run(['create', '--dry-run=client', '-o', 'name', '-f', file]);
    expect(dryRun.stderr).toBe('');
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout.trim().split('\n').length).toBe(docs.length);
  });
});
