import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { CacheChange } from '../../../../electron/engine/stream/cache.ts';
import { createLineage } from '../../../../electron/engine/events/lineage.ts';

function object(kind: string, apiVersion: string, name: string, uid: string, owner?: { kind: string; name: string; uid: string }): SlimObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      namespace: 'shop',
      uid,
      resourceVersion: '1',
      ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }] } : {}),
    },
  };
}

const deployment = object('Deployment', 'apps/v1', 'checkout', 'd-1');
const rsA = object('ReplicaSet', 'apps/v1', 'checkout-7d9f8b6c5', 'rs-a', { kind: 'Deployment', name: 'checkout', uid: 'd-1' });
const rsB = object('ReplicaSet', 'apps/v1', 'checkout-5c6b8f9d7', 'rs-b', { kind: 'Deployment', name: 'checkout', uid: 'd-1' });
const pod = (i: number, rs: SlimObject): SlimObject => object('Pod', 'v1', `${rs.metadata.name}-${i}`, `pod-${i}`, { kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid });

const upsert = (o: SlimObject, previous?: SlimObject): CacheChange => ({ type: 'upsert', kind: o.kind === 'Pod' ? 'pods' : `${o.kind.toLowerCase()}s.apps`, object: o, previous });
const remove = (o: SlimObject): CacheChange => ({ type: 'delete', kind: o.kind === 'Pod' ? 'pods' : `${o.kind.toLowerCase()}s.apps`, ref: { kind: 'pods', uid: o.metadata.uid }, object: o });
const depths = (family: Map<string, { depth: number }>) => Object.fromEntries([...family].map(([uid, { depth }]) => [uid, depth]));

describe('events lineage', () => {
  it('finds a workload, its ReplicaSets and their pods, and describes each as a workload', () => {
    const lineage = createLineage();
    for (const o of [deployment, rsA, pod(1, rsA), pod(2, rsA)]) lineage.observe(upsert(o));
    expect(depths(lineage.family('d-1'))).toEqual({ 'd-1': 0, 'rs-a': 1, 'pod-1': 2, 'pod-2': 2 });
    expect(lineage.describe('pod-1')).toEqual({ kind: 'Pod', name: 'checkout-7d9f8b6c5-1', uid: 'pod-1', namespace: 'shop' });
    expect(lineage.family('pod-1').get('pod-1')?.workload).toEqual({ kind: 'Pod', name: 'checkout-7d9f8b6c5-1', uid: 'pod-1', namespace: 'shop' });
  });

  it('remembers deleted pods under their owner, as they were last seen', () => {
    const lineage = createLineage();
    const gone = pod(1, rsA);
    for (const o of [deployment, rsA, gone]) lineage.observe(upsert(o));
    lineage.observe(remove(gone));
    expect(depths(lineage.family('d-1'))).toEqual({ 'd-1': 0, 'rs-a': 1, 'pod-1': 2 });
    expect(lineage.describe('pod-1')).toEqual({ kind: 'Pod', name: 'checkout-7d9f8b6c5-1', uid: 'pod-1', namespace: 'shop' });
  });

  it('moves a pod whose new version names another owner, and forgets the oldest deleted past the cap', () => {
    const lineage = createLineage({ maxDeleted: 1 });
    const first = pod(1, rsA);
    for (const o of [deployment, rsA, rsB, first, pod(2, rsA)]) lineage.observe(upsert(o));
    const adopted = { ...pod(1, rsB), metadata: { ...pod(1, rsB).metadata, resourceVersion: '2' } };
    lineage.observe(upsert(adopted, first));
    expect(depths(lineage.family('rs-a'))).toEqual({ 'rs-a': 0, 'pod-2': 1 });
    expect(depths(lineage.family('rs-b'))).toEqual({ 'rs-b': 0, 'pod-1': 1 });
    lineage.observe(remove(adopted));
    lineage.observe(remove(pod(2, rsA)));
    expect(lineage.describe('pod-1')).toBeUndefined();
    expect(depths(lineage.family('d-1'))).toEqual({ 'd-1': 0, 'rs-a': 1, 'rs-b': 1, 'pod-2': 2 });
  });
});
