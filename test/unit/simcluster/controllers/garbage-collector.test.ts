import { describe, expect, it } from 'vitest';
import { cluster, deployment, DEPLOYMENTS, T, type Cluster } from './cluster.ts';

function running(): Cluster {
  const c = cluster();
  c.create('deployments.apps', deployment('web', { replicas: 2 }));
  c.advance(5_000);
  expect(c.replicaSets()).toHaveLength(1);
  expect(c.pods()).toHaveLength(2);
  return c;
}

describe('garbage-collector', () => {
  it('deletes ReplicaSets and then pods of a Deployment deleted in the background', () => {
    const c = running();
    const { deleted } = c.store.delete(DEPLOYMENTS, 'default', 'web', { propagationPolicy: 'Background' });
    c.settle();
    expect(deleted).toBe(true);
    expect(c.replicaSets()).toHaveLength(0);
    // Pods go gracefully: Terminating first, gone once kubelet has stopped them.
    expect(c.pods().every((p) => p.metadata.deletionTimestamp !== undefined)).toBe(true);
    expect(c.pods()).toHaveLength(2);
    c.advance(1_000);
    expect(c.pods()).toHaveLength(0);
  });

  it('keeps a Deployment deleted in the foreground until its dependents are gone', () => {
    const c = running();
    c.store.delete(DEPLOYMENTS, 'default', 'web', { propagationPolicy: 'Foreground' });
    c.settle();
    const d = c.store.find(DEPLOYMENTS, 'default', 'web');
    expect(d?.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(d?.metadata.deletionTimestamp).toBeDefined();
    // The ReplicaSet is itself waiting for its pods, which are terminating.
    const [rs] = c.replicaSets();
    expect(rs?.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(c.pods().every((p) => p.metadata.deletionTimestamp !== undefined)).toBe(true);
    c.advance(1_000);
    expect(c.pods()).toHaveLength(0);
    expect(c.replicaSets()).toHaveLength(0);
    expect(c.store.find(DEPLOYMENTS, 'default', 'web')).toBeUndefined();
  });

  it('orphans the ReplicaSet and its pods when the Deployment is deleted with Orphan', () => {
    const c = running();
    c.store.delete(DEPLOYMENTS, 'default', 'web', { propagationPolicy: 'Orphan' });
    c.settle();
    expect(c.store.find(DEPLOYMENTS, 'default', 'web')).toBeUndefined();
    const [rs] = c.replicaSets();
    expect(rs?.metadata.ownerReferences).toBeUndefined();
    c.advance(3_000);
    expect(c.pods()).toHaveLength(2);
    expect(c.pods().every((p) => p.metadata.deletionTimestamp === undefined)).toBe(true);
    // A new Deployment with the same selector adopts the orphaned ReplicaSet.
    c.create('deployments.apps', deployment('web', { replicas: 2 }));
    c.advance(1_000);
    expect(c.replicaSets()).toHaveLength(1);
    expect(c.replicaSets()[0]?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Deployment', name: 'web', uid: c.get('deployments.apps', 'web').metadata.uid })]);
  });

  it('removes dependents created for an owner that no longer exists', () => {
    const c = running();
    const [rs] = c.replicaSets();
    c.create('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'stale', namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs!.metadata.name, uid: 'not-the-uid' }] },
      data: {},
    });
    expect(c.store.find(T('configmaps'), 'default', 'stale')).toBeUndefined();
  });
});

