/**
 * The diff engine against the simulated cluster: applied files diff clean, an edit, a deletion
 * and an HPA's scaling each show up as they should, a read-only user gets an approximate diff,
 * and bad input becomes precise Error rows while the rest still diffs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { objectDiff } from '../../../../electron/engine/diff/evaluate.ts';
import { runDiff, type DiffRunData } from '../../../../electron/engine/diff/run.ts';
import { rowsOf, summaryOf } from '../../../../electron/engine/diff/summary.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { applyManifests, deleteObject } from './apply.ts';
import { copyFixtures, fixture } from './fixtures.ts';

let cluster: SimCluster;
let dir: string;
let cleanup: () => Promise<void>;
let shop: string;
let guestbook: string;

beforeAll(async () => {
  // Fast enough that the HPA syncs twice a second.
  cluster = await startSimCluster({ scenario: 'minimal', speed: 30 });
});
afterAll(() => cluster?.stop());
beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-diff-run-'));
  const copies = await copyFixtures(dir, 'shop', 'guestbook');
  shop = copies[0] as string;
  guestbook = copies[1] as string;
});
afterEach(() => cleanup());

const diff = (paths: string[], extra: { config?: object; namespace?: string } = {}) => runDiff({ paths, config: extra.config ?? cluster.kubeconfigObject(), context: 'sim', kubectl: null, ...(extra.namespace ? { namespace: extra.namespace } : {}) });
const byName = (run: DiffRunData, kind: string, name: string) => {
  const object = run.objects.find((o) => o.kind === kind && o.name === name);
  if (!object) throw new Error(`no ${kind} ${name} in the run`);
  return object;
};
const statuses = (run: DiffRunData) => Object.fromEntries(rowsOf(run, []).map((row) => [`${row.kind}/${row.name}`, row.status]));

describe('diffing against the simulated cluster', () => {
  it('shows every object of an applied folder InSync, and a missing one as Missing with a full prediction', async () => {
    const before = await diff([shop]);
    expect(summaryOf(before, rowsOf(before, [])).counts).toEqual({ InSync: 0, OutOfSync: 0, Missing: 6, Error: 0 });
    // The objects in namespace "shop" cannot be dry-run before the namespace exists: shown as written.
    expect(rowsOf(before, []).find((row) => row.kind === 'Deployment')?.reason).toMatch(/^Namespace "shop" does not exist yet \(it is created by .*namespace\.yaml:1\)/);

    await applyManifests(cluster.kubeconfigObject(), [shop, guestbook]);
    const after = await diff([shop, guestbook]);
    expect(summaryOf(after, rowsOf(after, [])).counts).toEqual({ InSync: 8, OutOfSync: 0, Missing: 0, Error: 0 });
    for (const object of after.objects) expect(objectDiff(object, [], after.hpas).unified).toBe('');
  });

  it('shows an edited file as OutOfSync with exactly the changed lines and the field owner', async () => {
    await applyManifests(cluster.kubeconfigObject(), [shop]);
    const file = path.join(shop, 'checkout.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('checkout:v3.4.0', 'checkout:v3.5.0'));
    const run = await diff([shop]);
    expect(statuses(run)['Deployment/checkout']).toBe('OutOfSync');
    const result = objectDiff(byName(run, 'Deployment', 'checkout'), [], run.hpas);
    const changed = result.unified.split('\n').filter((line) => /^[-+] /.test(line));
    expect(changed).toEqual(['-        image: ghcr.io/acme-shop/checkout:v3.4.0', '+        image: ghcr.io/acme-shop/checkout:v3.5.0']);
    expect(result.unified).toMatch(/^diff -u -N LIVE\/apps\.v1\.Deployment\.shop\.checkout MERGED\/apps\.v1\.Deployment\.shop\.checkout\n/);
    expect(result.fields).toEqual([
      expect.objectContaining({
        path: 'spec.template.spec.containers[name=checkout].image',
        op: 'changed',
        live: 'ghcr.io/acme-shop/checkout:v3.4.0',
        predicted: 'ghcr.io/acme-shop/checkout:v3.5.0',
        owner: expect.objectContaining({ kind: 'kubectl', manager: 'kubectl' }),
        ignore: { group: 'apps', kind: 'Deployment', name: 'checkout', namespace: 'shop', jqPathExpressions: ['.spec.template.spec.containers[] | select(.name == "checkout") | .image'] },
      }),
    ]);
    // The side-by-side view gets both texts and the line edits that align them.
    expect(result.live).toContain('checkout:v3.4.0');
    expect(result.predicted).toContain('checkout:v3.5.0');
    expect(result.edits.filter(([op]) => op !== '=')).toEqual([['-', 1], ['+', 1]]);
    // The ignore rule it suggests brings the object back in sync.
    const ignored = rowsOf(run, [result.fields[0]!.ignore]).find((row) => row.kind === 'Deployment');
    expect(ignored).toMatchObject({ status: 'InSync', changed: 0, ignored: 1 });
  });

  it('shows an object deleted from the cluster as Missing', async () => {
    await applyManifests(cluster.kubeconfigObject(), [shop]);
    await deleteObject(cluster.kubeconfigObject(), '/api/v1/namespaces/shop/configmaps/checkout-config');
    const run = await diff([shop]);
    expect(statuses(run)).toMatchObject({ 'ConfigMap/checkout-config': 'Missing', 'Deployment/checkout': 'InSync' });
    const missing = objectDiff(byName(run, 'ConfigMap', 'checkout-config'), [], run.hpas);
    expect(missing.live).toBeNull();
    expect(missing.unified).toMatch(/@@ -0,0 \+1,\d+ @@\n\+apiVersion: v1\n/);
  });

  it('puts a replicas difference down to the HPA that scaled the Deployment', async () => {
    await applyManifests(cluster.kubeconfigObject(), [shop]);
    cluster.scenario.hpa?.setLoad('shop', 'Deployment', 'checkout', 140);
    const deadline = Date.now() + 15_000;
    let run = await diff([shop]);
    while (statuses(run)['Deployment/checkout'] !== 'OutOfSync' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      run = await diff([shop]);
    }
    cluster.scenario.hpa?.setLoad('shop', 'Deployment', 'checkout', undefined);
    const result = objectDiff(byName(run, 'Deployment', 'checkout'), [], run.hpas);
    expect(result.fields.map((f) => f.path)).toEqual(['spec.replicas']);
    expect(result.fields[0]).toMatchObject({ predicted: '2', owner: { kind: 'hpa', text: expect.stringMatching(/^The HorizontalPodAutoscaler "checkout" owns replicas: it scales this Deployment between 2 and 6 replicas/) } });
    expect(Number(result.fields[0]?.live)).toBeGreaterThan(2);
  });

  it('gives objects with no namespace the context namespace, and keeps cluster-scoped kinds cluster-scoped', async () => {
    const run = await diff([guestbook, path.join(shop, 'namespace.yaml')], { namespace: 'shop' });
    expect(run.objects.map((o) => `${o.kind}/${o.namespace ?? '-'}/${o.name}`).sort()).toEqual(['Deployment/shop/guestbook-ui', 'Namespace/-/shop', 'Service/shop/guestbook-ui']);
  });

  it('falls back to an approximate client-side comparison when the dry run is forbidden (403)', async () => {
    const guarded = await startSimCluster({ scenario: 'minimal', token: 'writer', readOnlyToken: 'reader', controllers: false });
    try {
      await applyManifests(guarded.kubeconfigObject(), [guestbook]);
      const file = path.join(guestbook, 'guestbook-ui-deployment.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('replicas: 1', 'replicas: 3'));
      const readOnly = structuredClone(guarded.kubeconfigObject()) as { users: Array<{ user: { token?: string } }> };
      for (const user of readOnly.users) user.user.token = 'reader';
      const run = await diff([guestbook], { config: readOnly });
      const rows = rowsOf(run, []);
      expect(rows.map((row) => [row.kind, row.status, row.approximate])).toEqual([['Deployment', 'OutOfSync', true], ['Service', 'InSync', true]]);
      expect(rows[0]?.reason).toMatch(/^Approximate: the server refused the dry-run apply \(403: .*\), so this was compared client-side/);
      expect(rows[0]?.fields).toEqual(['spec.replicas']);
    } finally {
      await guarded.stop();
    }
  });

  it('makes Error rows of bad documents, unknown kinds, duplicates and missing namespaces while the rest still diffs', async () => {
    await writeFile(path.join(dir, 'elsewhere.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lost\n  namespace: nowhere\n');
    const run = await diff([fixture('bad'), fixture('kustomize'), path.join(dir, 'elsewhere.yaml')]);
    const rows = rowsOf(run, []);
    // Rows come in path order, and the temp folder may sort before or after the checkout: compare as sets.
    const errors = rows.filter((row) => row.status === 'Error').map((row) => `${path.basename(row.source.file)}:${row.source.line} ${row.reason}`);
    expect(errors.sort()).toEqual([
      'elsewhere.yaml:1 namespace "nowhere" does not exist in the cluster',
      'broken-indent.yaml:6 invalid YAML: Nested mappings are not allowed in compact mappings',
      'broken.json:5 invalid JSON: Expected double-quoted property name',
      `duplicate-a.yaml:1 ConfigMap "twice" in namespace "default" is defined more than once: also at ${fixture('bad', 'duplicate-b.yaml')}:1. Keep one definition.`,
      `duplicate-b.yaml:1 ConfigMap "twice" in namespace "default" is defined more than once: also at ${fixture('bad', 'duplicate-a.yaml')}:1. Keep one definition.`,
      'mixed.yaml:8 the document has neither apiVersion nor kind, so it is not a Kubernetes object',
      'mixed.yaml:13 ConfigMap has no metadata.name',
      'mixed.yaml:19 no CustomResourceDefinition serves example.com/v1 Frobnicator in this cluster',
      'mixed.yaml:24 Job uses metadata.generateName ("migrate-"): the server picks its name at creation, so there is no live object to compare it with',
      'kustomization.yaml:1 this folder is a kustomization; rendering it needs kubectl ("kubectl kustomize"), which is not on PATH. Install kubectl, or render it yourself ("kustomize build") into a folder and diff that.',
    ].sort());
    expect(rows.filter((row) => row.status !== 'Error').map((row) => `${row.kind}/${row.name} ${row.status}`)).toEqual(['ConfigMap/good-neighbour Missing']);
  });

  it('names a kind the server does not serve in a served group', async () => {
    await writeFile(path.join(dir, 'typo.yaml'), 'apiVersion: apps/v1\nkind: deployment\nmetadata:\n  name: x\n');
    const run = await diff([path.join(dir, 'typo.yaml')]);
    expect(rowsOf(run, [])[0]?.reason).toBe('kind "deployment" is not served in apps/v1 by this cluster (did you mean "Deployment"?)');
  });

  it('rejects the run when the cluster cannot be reached at all', async () => {
    const config = structuredClone(cluster.kubeconfigObject()) as { clusters: Array<{ cluster: { server: string } }> };
    for (const entry of config.clusters) entry.cluster.server = 'https://127.0.0.1:9';
    await expect(diff([guestbook], { config })).rejects.toThrow(/ECONNREFUSED/);
  });
});
