/**
 * The demo's own manifests (the Diff screen's "Try the demo manifests") against the demo cluster:
 * the deliberate differences and only those.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectDiff } from '../../../../electron/engine/diff/evaluate.ts';
import { runDiff, type DiffRunData } from '../../../../electron/engine/diff/run.ts';
import { rowsOf, summaryOf } from '../../../../electron/engine/diff/summary.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { demoManifestsDir } from '../../../../electron/engine/simcluster/scenarios/demo-manifests.ts';

let cluster: SimCluster;
let run: DiffRunData;

beforeAll(async () => {
  cluster = await startSimCluster({ scenario: 'demo' });
  run = await runDiff({ paths: [demoManifestsDir()], config: cluster.kubeconfigObject(), context: 'kubedrift-demo', kubectl: null });
});
afterAll(() => cluster?.stop());

const row = (kind: string, name: string) => {
  const found = rowsOf(run, []).find((entry) => entry.kind === kind && entry.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the run`);
  return found;
};
const fields = (kind: string, name: string) => {
  const object = run.objects.find((entry) => entry.kind === kind && entry.name === name);
  if (!object) throw new Error(`no ${kind} ${name} in the run`);
  return objectDiff(object, [], run.hpas).fields.map((field) => [field.path, field.live, field.predicted]);
};

describe('the demo manifests', () => {
  it('ship as a folder beside the built-in scenarios', () => {
    expect(existsSync(demoManifestsDir())).toBe(true);
  });

  it('differ from the demo cluster in an image tag and a replica count, a ConfigMap key, a custom resource field, and one object it does not have', () => {
    expect(summaryOf(run, rowsOf(run, [])).counts).toEqual({ InSync: 6, OutOfSync: 3, Missing: 1, Error: 0 });
    expect(run.notices).toEqual([]);
    expect(row('Deployment', 'auth')).toMatchObject({ status: 'OutOfSync', namespace: 'platform', changed: 2 });
    expect(fields('Deployment', 'auth')).toEqual([
      ['spec.replicas', '2', '3'],
      ['spec.template.spec.containers[name=auth].image', 'ghcr.io/acme-shop/auth:v4.2.1', 'ghcr.io/acme-shop/auth:v4.3.0'],
    ]);
    expect(row('ConfigMap', 'gateway-config')).toMatchObject({ status: 'OutOfSync', changed: 1 });
    expect(fields('ConfigMap', 'gateway-config')).toEqual([['data.rate-limit-rps', '200', '500']]);
    expect(row('Database', 'orders-db')).toMatchObject({ status: 'OutOfSync', namespace: 'shop', apiVersion: 'db.kubedrift.dev/v1', changed: 1 });
    expect(fields('Database', 'orders-db')).toEqual([['spec.storage', '10Gi', '20Gi']]);
    expect(row('Deployment', 'reviews')).toMatchObject({ status: 'Missing', namespace: 'shop' });
    expect(row('Certificate', 'payments-api-tls')).toMatchObject({ status: 'InSync', namespace: 'payments', apiVersion: 'cert-manager.io/v1' });
    for (const [kind, name] of [['Deployment', 'gateway'], ['Service', 'gateway'], ['Service', 'auth'], ['Deployment', 'grafana'], ['Service', 'grafana']] as const) {
      expect(row(kind, name).status, `${kind} ${name}`).toBe('InSync');
    }
  });
});
