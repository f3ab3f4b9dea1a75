import { describe, expect, it } from 'vitest';
import { compareObjects, mergeKeyOf } from '../../../../electron/engine/diff/fields/compare.ts';
import { explainOwner, hpaKey, ownersOf, ownsField } from '../../../../electron/engine/diff/fields/owners.ts';
import { jqPath, jsonPointer, readablePath, type Segment } from '../../../../electron/engine/diff/fields/paths.ts';
import { managedFieldsOf, normalise } from '../../../../electron/engine/diff/normalise.ts';
import type { JsonObject } from '../../../../electron/engine/diff/load/types.ts';
import { liveDeployment } from './fixtures.ts';

const k = (key: string): Segment => ({ key });
const IMAGE: Segment[] = [k('spec'), k('template'), k('spec'), k('containers'), { index: 0, match: { key: 'name', value: 'checkout' } }, k('image')];
const REPLICAS: Segment[] = [k('spec'), k('replicas')];

describe('field differences', () => {
  it('compares containers by name, so a reordered list is no difference and a changed image is one', () => {
    const a = { spec: { containers: [{ name: 'app', image: 'a:1' }, { name: 'sidecar', image: 's:1' }] } };
    const b = { spec: { containers: [{ name: 'sidecar', image: 's:1' }, { name: 'app', image: 'a:2' }] } };
    const diffs = compareObjects(a, b);
    expect(diffs.map((d) => [d.op, readablePath(d.segments), d.live, d.predicted])).toEqual([['changed', 'spec.containers[name=app].image', 'a:1', 'a:2']]);
  });

  it('reports added and removed list elements and map keys, and scalar lists as one value', () => {
    const diffs = compareObjects(
      { metadata: { labels: { a: '1', 'app.kubernetes.io/name': 'x' } }, args: ['--a', '--b'], ports: [{ containerPort: 80 }] },
      { metadata: { labels: { a: '1', team: 't' } }, args: ['--a', '--c'], ports: [{ containerPort: 80 }, { containerPort: 9090 }] },
    );
    expect(diffs.map((d) => `${d.op} ${readablePath(d.segments)}`)).toEqual([
      'changed args',
      'removed metadata.labels["app.kubernetes.io/name"]',
      'added metadata.labels.team',
      'added ports[containerPort=9090]',
    ]);
  });

  it('picks a merge key only when every element has a unique scalar value for it', () => {
    expect(mergeKeyOf([{ name: 'a' }], [{ name: 'b' }])).toBe('name');
    expect(mergeKeyOf([{ name: 'a' }, { name: 'a' }], [])).toBeUndefined();
    expect(mergeKeyOf([{ containerPort: 80, protocol: 'TCP' }], [{ containerPort: 81 }])).toBe('containerPort');
    expect(mergeKeyOf(['a'], ['b'])).toBeUndefined();
  });

  it('spells a path as a readable path, a JSON pointer and a jq expression', () => {
    expect(readablePath(IMAGE)).toBe('spec.template.spec.containers[name=checkout].image');
    expect(jsonPointer(IMAGE)).toBe('/spec/template/spec/containers/0/image');
    expect(jqPath(IMAGE)).toBe('.spec.template.spec.containers[] | select(.name == "checkout") | .image');
    expect(jsonPointer([k('metadata'), k('annotations'), k('example.com/a~b')])).toBe('/metadata/annotations/example.com~1a~0b');
    expect(jqPath([k('metadata'), k('labels'), k('app.kubernetes.io/name')])).toBe('.metadata.labels["app.kubernetes.io/name"]');
  });
});

describe('field owners from managedFields', () => {
  it('finds the managers of a field through k: list keys, map keys and atomic leaves', async () => {
    const live = await liveDeployment();
    const entries = managedFieldsOf(live);
    const normal = normalise(live);
    expect(ownersOf(entries, IMAGE, normal).map((e) => e.manager)).toEqual(['kubectl-set', 'kubectl-client-side-apply']);
    expect(ownersOf(entries, REPLICAS, normal).map((e) => `${e.manager}/${e.subresource}`)).toEqual(['kube-controller-manager/scale']);
    // f:selector is a leaf: its owner owns everything below it.
    expect(ownersOf(entries, [k('spec'), k('selector'), k('matchLabels'), k('app.kubernetes.io/name')], normal).map((e) => e.manager)).toEqual(['kubectl-client-side-apply']);
    // Nobody claims the defaulted terminationGracePeriodSeconds.
    expect(ownersOf(entries, [k('spec'), k('template'), k('spec'), k('terminationGracePeriodSeconds')], normal)).toEqual([]);
    // A port element is matched by its whole key (containerPort and protocol).
    const port: Segment[] = [...IMAGE.slice(0, 5), k('ports'), { index: 1, match: { key: 'containerPort', value: 9090 } }, k('name')];
    expect(ownsField(entries[0]?.fieldsV1, port, normal)).toBe(true);
  });

  it('explains replicas by the HPA that targets the Deployment', async () => {
    const live = await liveDeployment();
    const base = { op: 'changed' as const, kind: 'Deployment', namespace: 'shop', name: 'checkout', live: normalise(live), managedFields: managedFieldsOf(live) };
    const hpas = new Map([[hpaKey('shop', 'Deployment', 'checkout'), { name: 'checkout', minReplicas: 2, maxReplicas: 6 }]]);
    const owner = explainOwner({ ...base, segments: REPLICAS, hpas });
    expect(owner).toEqual({ kind: 'hpa', manager: 'kube-controller-manager', text: 'The HorizontalPodAutoscaler "checkout" owns replicas: it scales this Deployment between 2 and 6 replicas, so the live value follows load, not the file.' });
    // Without an HPA, a /scale write by the controller manager is a controller's.
    expect(explainOwner({ ...base, segments: REPLICAS, hpas: new Map() })).toMatchObject({ kind: 'controller', manager: 'kube-controller-manager' });
  });

  it('explains a hand-made change by kubectl, a defaulted value, and a field only the file has', async () => {
    const live = await liveDeployment();
    const base = { kind: 'Deployment', namespace: 'shop', name: 'checkout', live: normalise(live) as JsonObject, managedFields: managedFieldsOf(live), hpas: new Map() };
    const image = explainOwner({ ...base, op: 'changed', segments: IMAGE });
    expect(image).toMatchObject({ kind: 'kubectl', manager: 'kubectl-set' });
    expect(image.text).toBe('Last set with kubectl set (field manager kubectl-set, Update): a change made by hand, not from the files. Also owned by kubectl-client-side-apply.');
    expect(explainOwner({ ...base, op: 'changed', segments: [k('spec'), k('template'), k('spec'), k('schedulerName')] })).toMatchObject({ kind: 'defaulted' });
    expect(explainOwner({ ...base, op: 'added', segments: [k('spec'), k('paused')] })).toEqual({ kind: 'file', text: 'Not set in the cluster: the file adds this field.' });
  });

  it('names any other field manager', () => {
    const live = { spec: { x: 1 } };
    const owner = explainOwner({ op: 'changed', segments: [k('spec'), k('x')], kind: 'Widget', namespace: undefined, name: 'w', live, managedFields: [{ manager: 'helm', operation: 'Update', fieldsV1: { 'f:spec': { 'f:x': {} } } }], hpas: new Map() });
    expect(owner).toEqual({ kind: 'manager', manager: 'helm', text: 'The field manager "helm" owns this value (Update).' });
  });
});
