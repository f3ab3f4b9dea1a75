import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const DEPLOYMENTS = typeById('deployments.apps')!;
const PODS = typeById('pods')!;
const NAMESPACES = typeById('namespaces')!;

function deployment(name: string, replicas = 1, namespace = 'default') {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
  };
}

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('ObjectStore', () => {
  it('assigns uid, a cluster-wide monotonic resourceVersion, creationTimestamp and generation 1', () => {
    const store = new ObjectStore({ now: () => Date.UTC(2026, 0, 1, 12), uid: () => 'uid-1' });
    const created = store.create(DEPLOYMENTS, deployment('web'));
    expect(created.metadata).toMatchObject({ name: 'web', namespace: 'default', uid: 'uid-1', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T12:00:00Z' });
    store.create(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: {} });
    expect(store.currentRv()).toBe(2);
    expect(store.get(PODS, 'default', 'p').metadata.generation).toBeUndefined();
  });

  it("writes metadata in ObjectMeta's field order, as kube-apiserver does, whatever order the client sent", () => {
    const store = new ObjectStore({ now: () => Date.UTC(2026, 0, 1, 12), uid: () => 'uid-1' });
    const managedFields = [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T12:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': {} } }];
    const sent = { apiVersion: 'v1', kind: 'Pod', metadata: { managedFields, labels: { app: 'a' }, ownerReferences: [], name: 'p', namespace: 'default', annotations: { note: 'x' } }, spec: {} };
    const order = ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'labels', 'annotations', 'ownerReferences', 'managedFields'];
    expect(Object.keys(store.create(PODS, sent).metadata)).toEqual(order);
    expect(Object.keys(store.get(PODS, 'default', 'p').metadata)).toEqual(order);
    const updated = store.update(PODS, { ...sent, metadata: { ...sent.metadata, labels: { app: 'b' } } });
    expect(Object.keys(updated.metadata)).toEqual(order);
    expect(updated.metadata.labels).toEqual({ app: 'b' });
  });

  it('refuses a duplicate name with AlreadyExists and a bad name with Invalid', () => {
    const store = new ObjectStore();
    store.create(DEPLOYMENTS, deployment('web'));
    const dup = apiError(() => store.create(DEPLOYMENTS, deployment('web')));
    expect(dup.toStatus()).toMatchObject({ code: 409, reason: 'AlreadyExists', message: 'deployments.apps "web" already exists' });
    const bad = apiError(() => store.create(DEPLOYMENTS, deployment('Web_1')));
    expect(bad.toStatus()).toMatchObject({ code: 422, reason: 'Invalid' });
  });

  it('generates names from generateName', () => {
    const store = new ObjectStore();
    const pod = store.create(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'web-', namespace: 'default' }, spec: {} });
    expect(pod.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
  });

  it('bumps generation only when the spec changes', () => {
    const store = new ObjectStore();
    const created = store.create(DEPLOYMENTS, deployment('web'));
    const relabelled = store.mutate(DEPLOYMENTS, 'default', 'web', (o) => {
      o.metadata.labels = { app: 'web', tier: 'front' };
    });
    expect(relabelled.metadata.generation).toBe(1);
    const scaled = store.mutate(DEPLOYMENTS, 'default', 'web', (o) => {
      (o['spec'] as { replicas: number }).replicas = 3;
    });
    expect(scaled.metadata.generation).toBe(2);
    expect(Number(scaled.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
  });

  it('rejects an update carrying a stale resourceVersion with 409 Conflict', () => {
    const store = new ObjectStore();
    const created = store.create(DEPLOYMENTS, deployment('web'));
    store.mutate(DEPLOYMENTS, 'default', 'web', (o) => void ((o['spec'] as { replicas: number }).replicas = 2));
    const stale = { ...created, spec: { ...(created['spec'] as object), replicas: 5 } };
    expect(apiError(() => store.update(DEPLOYMENTS, stale)).toStatus()).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('keeps status out of main updates and spec out of status updates', () => {
    const store = new ObjectStore();
    store.create(DEPLOYMENTS, deployment('web'));
    store.mutate(DEPLOYMENTS, 'default', 'web', (o) => void (o['status'] = { replicas: 1 }), { subresource: 'status' });
    const main = store.mutate(DEPLOYMENTS, 'default', 'web', (o) => {
      o['status'] = { replicas: 99 };
      (o['spec'] as { replicas: number }).replicas = 4;
    });
    expect(main['status']).toEqual({ replicas: 1 });
    const status = store.mutate(DEPLOYMENTS, 'default', 'web', (o) => {
      o['status'] = { replicas: 4 };
      (o['spec'] as { replicas: number }).replicas = 10;
    }, { subresource: 'status' });
    expect((status['spec'] as { replicas: number }).replicas).toBe(4);
    expect(status['status']).toEqual({ replicas: 4 });
  });

  it('does not write (nor bump resourceVersion) when nothing changed', () => {
    const store = new ObjectStore();
    store.create(DEPLOYMENTS, deployment('web'));
    const rv = store.currentRv();
    store.mutate(DEPLOYMENTS, 'default', 'web', () => undefined);
    expect(store.currentRv()).toBe(rv);
  });

  it('stores nothing on dryRun', () => {
    const store = new ObjectStore();
    const dry = store.create(DEPLOYMENTS, deployment('web'), { dryRun: true });
    expect(dry.metadata.name).toBe('web');
    expect(store.find(DEPLOYMENTS, 'default', 'web')).toBeUndefined();
    expect(store.currentRv()).toBe(0);
  });

  it('answers dry runs without assigning a resourceVersion, as kube-apiserver does', () => {
    const store = new ObjectStore({ uid: () => 'uid-dry' });
    const dry = store.create(DEPLOYMENTS, deployment('web'), { dryRun: true });
    expect(dry.metadata).toMatchObject({ name: 'web', uid: 'uid-dry', generation: 1 });
    expect(dry.metadata).not.toHaveProperty('resourceVersion');

    const live = store.create(DEPLOYMENTS, deployment('web'));
    const updated = store.update(DEPLOYMENTS, { ...deployment('web', 3), metadata: { ...live.metadata } }, { dryRun: true });
    // generation moves with the spec change; resourceVersion stays the live one (kubectl diff shows no rv change).
    expect([updated.metadata.generation, updated.metadata.resourceVersion]).toEqual([2, live.metadata.resourceVersion]);
    expect(store.delete(DEPLOYMENTS, 'default', 'web', { dryRun: true }).object.metadata.resourceVersion).toBe(live.metadata.resourceVersion);
    expect(store.delete(DEPLOYMENTS, 'default', 'web', { dryRun: true, propagationPolicy: 'Foreground' }).object.metadata.resourceVersion).toBe(live.metadata.resourceVersion);
    expect(store.get(DEPLOYMENTS, 'default', 'web')).toBe(live);
    expect(store.currentRv()).toBe(1);
  });

  it('marks an object with finalizers for deletion and removes it when they are gone', () => {
    const store = new ObjectStore();
    store.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', finalizers: ['example.com/hold'] } });
    const marked = store.delete(NAMESPACES, undefined, 'shop');
    expect(marked.deleted).toBe(false);
    expect(marked.object.metadata.deletionTimestamp).toBeDefined();
    store.mutate(NAMESPACES, undefined, 'shop', (o) => void (o.metadata.finalizers = []));
    expect(store.find(NAMESPACES, undefined, 'shop')).toBeUndefined();
  });

  it('adds the foregroundDeletion or orphan finalizer for those propagation policies', () => {
    const store = new ObjectStore();
    store.create(DEPLOYMENTS, deployment('a'));
    store.create(DEPLOYMENTS, deployment('b'));
    store.create(DEPLOYMENTS, deployment('c'));
    expect(store.delete(DEPLOYMENTS, 'default', 'a', { propagationPolicy: 'Foreground' }).object.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(store.delete(DEPLOYMENTS, 'default', 'b', { propagationPolicy: 'Orphan' }).object.metadata.finalizers).toEqual(['orphan']);
    expect(store.delete(DEPLOYMENTS, 'default', 'c', { propagationPolicy: 'Background' }).deleted).toBe(true);
  });

  it('checks delete preconditions', () => {
    const store = new ObjectStore();
    store.create(DEPLOYMENTS, deployment('web'));
    expect(apiError(() => store.delete(DEPLOYMENTS, 'default', 'web', { preconditions: { uid: 'other' } })).code).toBe(409);
  });

  it('rebuilds the state at an older resourceVersion from the change log', () => {
    const store = new ObjectStore();
    store.create(DEPLOYMENTS, deployment('a'));
    store.create(DEPLOYMENTS, deployment('b'));
    const at = store.currentRv();
    store.mutate(DEPLOYMENTS, 'default', 'a', (o) => void ((o['spec'] as { replicas: number }).replicas = 7));
    store.delete(DEPLOYMENTS, 'default', 'b');
    store.create(DEPLOYMENTS, deployment('c'));
    const past = store.allAt(DEPLOYMENTS, at);
    expect(past.map((o: KubeObject) => [o.metadata.name, (o['spec'] as { replicas: number }).replicas])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(store.all(DEPLOYMENTS).map((o) => o.metadata.name)).toEqual(['a', 'c']);
  });

  it('answers 410 Gone for history that was compacted away', () => {
    const store = new ObjectStore({ retainedChanges: 2 });
    for (const name of ['a', 'b', 'c', 'd']) store.create(DEPLOYMENTS, deployment(name));
    expect(apiError(() => store.changesSince(1)).code).toBe(410);
    expect(store.changesSince(2).map((c) => c.object.metadata.name)).toEqual(['c', 'd']);
    store.compact();
    expect(apiError(() => store.changesSince(3)).code).toBe(410);
    expect(store.changesSince(4)).toEqual([]);
  });
});
