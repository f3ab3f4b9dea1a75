import { describe, expect, it } from 'vitest';
import { compareObjects } from '../../../../electron/engine/diff/fields/compare.ts';
import { LAST_APPLIED, managedFieldsOf, maskSecrets, normalise } from '../../../../electron/engine/diff/normalise.ts';
import { foldStringData, predictClientSide } from '../../../../electron/engine/diff/cluster/approximate.ts';
import { applyManagerOf } from '../../../../electron/engine/diff/cluster/fetch.ts';
import { lastAppliedOf, pruneLastApplied } from '../../../../electron/engine/diff/cluster/prune.ts';
import type { JsonObject } from '../../../../electron/engine/diff/load/types.ts';
import { liveDeployment } from './fixtures.ts';

describe('normalising live and predicted objects', () => {
  it('drops the server bookkeeping, status and the last-applied annotation of a real Deployment', async () => {
    const live = await liveDeployment();
    const normal = normalise(live) as { metadata: Record<string, unknown>; status?: unknown; spec: unknown };
    expect(Object.keys(normal.metadata).sort()).toEqual(['annotations', 'labels', 'name', 'namespace']);
    expect(normal.metadata['annotations']).toEqual({ 'deployment.kubernetes.io/revision': '4', 'team.acme.dev/owner': 'payments-squad' });
    expect(normal.status).toBeUndefined();
    expect(normal.spec).toEqual(live['spec']);
    // The original is untouched (its managedFields still explain owners).
    expect(managedFieldsOf(live).map((entry) => entry.manager)).toEqual(['kubectl-client-side-apply', 'kube-controller-manager', 'kube-controller-manager', 'kubectl-set']);
  });

  it('shows no difference between a live object and its dry-run prediction that only moved bookkeeping', async () => {
    const live = await liveDeployment();
    const predicted = structuredClone(live) as JsonObject & { metadata: JsonObject };
    predicted.metadata = { ...predicted.metadata, managedFields: [{ manager: 'kubedrift', operation: 'Apply' }], generation: 8, resourceVersion: '48214' };
    (predicted.metadata['annotations'] as JsonObject)[LAST_APPLIED] = '{"changed":true}';
    predicted['status'] = { replicas: 1 };
    expect(compareObjects(normalise(live), normalise(predicted))).toEqual([]);
  });

  it('removes an annotations map left empty by dropping last-applied, so it matches an object without one', () => {
    const applied = normalise({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', annotations: { [LAST_APPLIED]: '{}' } } });
    expect(compareObjects(applied, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } })).toEqual([]);
  });
});

describe('masking Secret values as kubectl does', () => {
  const secret = (data: Record<string, string>): JsonObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data });

  it('shows *** for equal values, *** (before) / *** (after) for changed ones and *** for one-sided keys', () => {
    const live = secret({ same: 'YQ==', changed: 'Yg==', gone: 'Yw==' });
    const predicted = secret({ same: 'YQ==', changed: 'ZA==', added: 'ZQ==' });
    maskSecrets(live, predicted);
    expect(live['data']).toEqual({ same: '***', changed: '*** (before)', gone: '***' });
    expect(predicted['data']).toEqual({ same: '***', changed: '*** (after)', added: '***' });
    // The masked objects still differ exactly where the real ones did.
    expect(compareObjects(live, predicted).map((d) => `${d.op} ${d.segments.map((s) => ('key' in s ? s.key : s.index)).join('.')}`)).toEqual(['added data.added', 'changed data.changed', 'removed data.gone']);
  });

  it('masks a missing object (no live side) and stringData too', () => {
    const predicted = { ...secret({ token: 'dG9r' }), stringData: { password: 'hunter2' } };
    maskSecrets(undefined, predicted);
    expect(JSON.stringify(predicted)).not.toMatch(/dG9r|hunter2/);
    expect(predicted).toMatchObject({ data: { token: '***' }, stringData: { password: '***' } });
  });

  it('leaves other kinds alone', () => {
    const cm: JsonObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    maskSecrets(cm, cm);
    expect(cm['data']).toEqual({ a: 'b' });
  });
});

describe('the client-side prediction (no dry-run permission)', () => {
  it('lays the manifest over the live object, merging containers by name and keeping defaulted fields', async () => {
    const live = await liveDeployment();
    const manifest = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'checkout', namespace: 'shop' }, spec: { replicas: 2, template: { spec: { containers: [{ name: 'checkout', image: 'ghcr.io/acme-shop/checkout:v3.4.0' }] } } } };
    const predicted = predictClientSide(live, manifest) as { spec: { replicas: number; template: { spec: { containers: Array<Record<string, unknown>>; dnsPolicy: string } } } };
    expect(predicted.spec.replicas).toBe(2);
    expect(predicted.spec.template.spec.dnsPolicy).toBe('ClusterFirst');
    expect(predicted.spec.template.spec.containers[0]).toMatchObject({ name: 'checkout', image: 'ghcr.io/acme-shop/checkout:v3.4.0', imagePullPolicy: 'IfNotPresent' });
    const changed = compareObjects(normalise(live), normalise(predicted)).map((d) => d.segments.map((s) => ('key' in s ? s.key : `[${s.match?.value ?? s.index}]`)).join('.'));
    expect(changed).toEqual(['spec.replicas', 'spec.template.spec.containers.[checkout].image']);
  });

  it('folds a Secret manifest stringData into base64 data as the API server would', () => {
    expect(foldStringData({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'YQ==' }, stringData: { b: 'b' } })).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'YQ==', b: 'Yg==' } });
  });
});

describe('what a client-side apply would prune', () => {
  it('drops fields and named list elements the last apply set and the file no longer has, keeping the rest', () => {
    const lastApplied = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web', tier: 'front' } }, spec: { revisionHistoryLimit: 3, template: { spec: { containers: [{ name: 'web', image: 'a', args: ['-v'] }, { name: 'sidecar', image: 's' }] } } } };
    const manifest = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } }, spec: { template: { spec: { containers: [{ name: 'web', image: 'a' }] } } } };
    const predicted = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', uid: 'u', labels: { app: 'web', tier: 'front', 'added-by': 'controller' } }, spec: { replicas: 1, revisionHistoryLimit: 3, template: { spec: { containers: [{ name: 'web', image: 'a', args: ['-v'], imagePullPolicy: 'Always' }, { name: 'sidecar', image: 's' }] } } } };
    expect(lastAppliedOf({ metadata: { annotations: { [LAST_APPLIED]: JSON.stringify(lastApplied) } } })).toEqual(lastApplied);
    expect(pruneLastApplied(predicted, lastApplied, manifest)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', uid: 'u', labels: { app: 'web', 'added-by': 'controller' } },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'web', image: 'a', imagePullPolicy: 'Always' }] } } },
    });
  });

  it('dry-runs as the one manager that server-side applies the object, else as kubedrift', () => {
    const withManagers = (...entries: object[]) => ({ metadata: { managedFields: entries } });
    expect(applyManagerOf(withManagers({ manager: 'argocd-controller', operation: 'Apply' }, { manager: 'kube-controller-manager', operation: 'Update' }))).toBe('argocd-controller');
    expect(applyManagerOf(withManagers({ manager: 'kubectl-client-side-apply', operation: 'Update' }))).toBe('kubedrift');
    expect(applyManagerOf(withManagers({ manager: 'a', operation: 'Apply' }, { manager: 'b', operation: 'Apply' }))).toBe('kubedrift');
  });
});
