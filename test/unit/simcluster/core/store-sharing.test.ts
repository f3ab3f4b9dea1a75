import { afterEach, describe, expect, it, vi } from 'vitest';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const PODS = typeById('pods') as ResourceType;
const DEPLOYMENTS = typeById('deployments.apps') as ResourceType;

function pod(name: string, namespace = 'shop'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] }], nodeName: 'node-1' },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  } as unknown as KubeObject;
}

type PodStatus = { phase: string; conditions: Array<{ type: string; status: string }> };
const statusOf = (object: KubeObject) => object['status'] as PodStatus;
const specOf = (object: KubeObject) => object['spec'] as { nodeName: string; containers: Array<{ image: string }> };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ObjectStore and the objects callers hand it', () => {
  it('keeps its own copy of a created object: later changes to what the caller passed do not reach it', () => {
    const store = new ObjectStore();
    const incoming = pod('web-1');
    store.create(PODS, incoming);
    specOf(incoming).containers[0]!.image = 'evil:latest';
    (incoming.metadata.labels as Record<string, string>)['app'] = 'other';
    statusOf(incoming).conditions[0]!.status = 'False';
    const stored = store.get(PODS, 'shop', 'web-1');
    expect(specOf(stored).containers[0]?.image).toBe('nginx:1.27');
    expect(stored.metadata.labels).toEqual({ app: 'web' });
    expect(statusOf(stored).conditions[0]?.status).toBe('True');
  });

  it('keeps its own copy of an update, down to the nested parts the caller built', () => {
    const store = new ObjectStore();
    const created = store.create(PODS, pod('web-1'));
    const labels = { app: 'web', tier: 'front' };
    const incoming = { ...created, metadata: { ...created.metadata, labels } };
    store.update(PODS, incoming);
    labels.tier = 'back';
    expect(store.get(PODS, 'shop', 'web-1').metadata.labels).toEqual({ app: 'web', tier: 'front' });
  });

  it('keeps its own copy of parts the stored object did not have before', () => {
    const store = new ObjectStore();
    const created = store.create(PODS, pod('web-1'));
    const annotations = { 'example.com/owner': 'team-a' };
    const tolerations = [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }];
    store.update(PODS, { ...created, metadata: { ...created.metadata, annotations }, spec: { ...specOf(created), tolerations } });
    annotations['example.com/owner'] = 'team-b';
    tolerations[0]!.effect = 'NoSchedule';
    const stored = store.get(PODS, 'shop', 'web-1');
    expect(stored.metadata.annotations).toEqual({ 'example.com/owner': 'team-a' });
    expect((stored['spec'] as { tolerations: unknown }).tolerations).toEqual([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }]);
  });

  it('keeps its own copy of a status write', () => {
    const store = new ObjectStore();
    const created = store.create(PODS, pod('web-1'));
    const status = { ...statusOf(created), phase: 'Failed', conditions: [{ type: 'Ready', status: 'False' }] };
    store.update(PODS, { ...created, status }, { subresource: 'status' });
    status.conditions[0]!.status = 'True';
    status.phase = 'Running';
    expect(statusOf(store.get(PODS, 'shop', 'web-1'))).toEqual({ phase: 'Failed', conditions: [{ type: 'Ready', status: 'False' }] });
  });

  it('gives mutate a private copy that the caller may keep changing after the write', () => {
    const store = new ObjectStore();
    const created = store.create(PODS, pod('web-1'));
    let kept: KubeObject | undefined;
    store.mutate(PODS, 'shop', 'web-1', (copy) => {
      specOf(copy).nodeName = 'node-2';
      kept = copy;
    });
    specOf(kept as KubeObject).nodeName = 'node-3';
    specOf(kept as KubeObject).containers[0]!.image = 'evil:latest';
    expect(specOf(store.get(PODS, 'shop', 'web-1'))).toMatchObject({ nodeName: 'node-2', containers: [{ image: 'nginx:1.27' }] });
    expect(specOf(created).nodeName).toBe('node-1');
  });

  it('shares the parts a write left alone with the previous version instead of copying them', () => {
    const store = new ObjectStore();
    const created = store.create(PODS, pod('web-1'));
    const flipped = store.update(PODS, { ...created, status: { ...statusOf(created), conditions: [{ type: 'Ready', status: 'False' }] } }, { subresource: 'status' });
    expect(flipped['spec']).toBe(created['spec']);
    expect(flipped.metadata.labels).toBe(created.metadata.labels);
    const relabelled = store.mutate(PODS, 'shop', 'web-1', (copy) => void (copy.metadata.labels = { app: 'web', tier: 'front' }));
    expect(relabelled['spec']).toBe(created['spec']);
    expect(relabelled['status']).toBe(flipped['status']);
    expect(relabelled.metadata.resourceVersion).toBe(String(store.currentRv()));
  });

  it('still writes an update that differs only in key order, and not one that only adds undefined members', () => {
    const store = new ObjectStore();
    const created = store.create(DEPLOYMENTS, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 1, paused: false } });
    const rv = store.currentRv();
    const same = store.update(DEPLOYMENTS, { ...created, spec: { replicas: 1, paused: false, revisionHistoryLimit: undefined } });
    expect(same).toBe(created);
    expect(store.currentRv()).toBe(rv);
    const reordered = store.update(DEPLOYMENTS, { ...created, spec: { paused: false, replicas: 1 } });
    expect(store.currentRv()).toBe(rv + 1);
    expect(reordered.metadata.generation).toBe(2);
  });
});

describe('ObjectStore lists', () => {
  it('lists the newest objects in key order after modifications, creations and deletions', () => {
    const store = new ObjectStore();
    for (const [name, namespace] of [['b', 'shop'], ['a', 'shop'], ['c', 'shop-2'], ['a', 'shop-2'], ['z', 'a']]) store.create(PODS, pod(name as string, namespace));
    const names = () => store.all(PODS).map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
    expect(names()).toEqual(['a/z', 'shop-2/a', 'shop-2/c', 'shop/a', 'shop/b']);
    const moved = store.mutate(PODS, 'shop', 'a', (copy) => void (specOf(copy).nodeName = 'node-9'));
    expect(store.all(PODS, 'shop')).toEqual([moved, store.get(PODS, 'shop', 'b')]);
    store.create(PODS, pod('0', 'shop'));
    store.delete(PODS, 'shop-2', 'a');
    expect(names()).toEqual(['a/z', 'shop-2/c', 'shop/0', 'shop/a', 'shop/b']);
    expect(store.all(PODS, 'shop').map((o) => o.metadata.name)).toEqual(['0', 'a', 'b']);
    expect(store.all(PODS, 'sho')).toEqual([]);
  });

  it('hands out a new array every time, so a caller sorting its list cannot reorder the next one', () => {
    const store = new ObjectStore();
    store.create(PODS, pod('a'));
    store.create(PODS, pod('b'));
    store.all(PODS).reverse();
    expect(store.all(PODS).map((o) => o.metadata.name)).toEqual(['a', 'b']);
  });
});

describe('ObjectStore.toJson', () => {
  it('writes what JSON.stringify writes, for stored objects and others', () => {
    const store = new ObjectStore();
    const created = store.create(PODS, pod('web-1'));
    expect(store.toJson(created)).toBe(JSON.stringify(created));
    const loose = { ...pod('web-2'), metadata: { name: 'web-2', uid: 'u', resourceVersion: '9', creationTimestamp: 'now' } } as KubeObject;
    expect(store.toJson(loose)).toBe(JSON.stringify(loose));
  });

  it('sends the texts it made of its objects while idle, and serialises a replaced version when sent', async () => {
    vi.useFakeTimers();
    try {
      const store = new ObjectStore();
      const created = store.create(PODS, pod('web-1'));
      store.create(PODS, pod('web-2'));
      const updated = store.mutate(PODS, 'shop', 'web-1', (copy) => void (specOf(copy).nodeName = 'node-2'));
      await vi.runAllTimersAsync();
      const expected = store.all(PODS).map((o) => JSON.stringify(o));
      const stringify = vi.spyOn(JSON, 'stringify');
      const texts = store.all(PODS).map((o) => store.toJson(o));
      const listing = stringify.mock.calls.length;
      const replaced = store.toJson(created);
      const replacedCalls = stringify.mock.calls.length - listing;
      stringify.mockRestore();
      expect(listing).toBe(0);
      expect(texts).toEqual(expected);
      expect(texts[0]).toBe(JSON.stringify(updated));
      expect(replacedCalls).toBe(1);
      expect(replaced).toBe(JSON.stringify(created));
    } finally {
      vi.useRealTimers();
    }
  });

  it('stringifies the newest change once however many watches encode it', () => {
    const store = new ObjectStore();
    store.create(PODS, pod('web-1'));
    const texts: string[] = [];
    for (let i = 0; i < 3; i += 1) store.onChange((change) => texts.push(store.toJson(change.object)));
    const stringify = vi.spyOn(JSON, 'stringify');
    store.mutate(PODS, 'shop', 'web-1', (copy) => void (specOf(copy).nodeName = 'node-2'));
    const calls = stringify.mock.calls.length;
    stringify.mockRestore();
    expect(calls).toBe(1);
    expect(texts).toEqual(new Array(3).fill(JSON.stringify(store.get(PODS, 'shop', 'web-1'))));
  });
});
