import { describe, expect, it } from 'vitest';
import { ObjectCache, type CacheChange } from '../../../../electron/engine/stream/cache.ts';
import { sharePod, ValuePool } from '../../../../electron/engine/stream/shared-values.ts';
import { jsonEqual } from '../../../../shared/json-equal.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { slimPod } from './fixtures.ts';

/** A pod as the engine gets it: parsed from its own JSON text, sharing nothing with any other. */
const parsed = (pod: SlimObject): SlimObject => JSON.parse(JSON.stringify(pod)) as SlimObject;

type Json = Record<string, unknown>;
const containerOf = (pod: SlimObject): Json => ((pod as unknown as { spec: { containers: Json[] } }).spec.containers[0] as Json);

/** A pod with init containers, env and volume references and a terminated container. */
function richPod(index: number): SlimObject {
  const pod = slimPod(index) as SlimObject & { spec: Json; status: Json };
  pod.spec['initContainers'] = [{ name: 'migrate', image: 'registry.example.com/shop/migrate:7', envFrom: [{ secretRef: { name: 'db-credentials' } }] }];
  pod.spec['volumes'] = [{ name: 'config', configMap: { name: 'checkout-config' } }];
  pod.spec['affinity'] = {};
  pod.status['initContainerStatuses'] = [
    { name: 'migrate', ready: false, restartCount: 0, image: 'registry.example.com/shop/migrate:7', state: { terminated: { reason: 'Completed', exitCode: 0, finishedAt: '2024-05-02T10:15:33Z' } } },
  ];
  return pod;
}

describe('sharePod', () => {
  it('leaves every pod\'s JSON exactly as it was', () => {
    const pool = new ValuePool();
    for (let i = 0; i < 20; i += 1) {
      const pod = parsed(richPod(i));
      const before = JSON.stringify(pod);
      sharePod(pod, pool);
      expect(JSON.stringify(pod)).toBe(before);
    }
  });

  it('gives the replicas of one owner the same labels, owner references and container parts', () => {
    const pool = new ValuePool();
    const [a, b] = [parsed(richPod(1)), parsed(richPod(2))];
    sharePod(a, pool);
    sharePod(b, pool);
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect(b.metadata.ownerReferences).toBe(a.metadata.ownerReferences);
    for (const part of ['resources', 'ports', 'readinessProbe']) expect(containerOf(b)[part]).toBe(containerOf(a)[part]);
    const specOf = (pod: SlimObject) => (pod as unknown as { spec: Json }).spec;
    expect(specOf(b)['volumes']).toBe(specOf(a)['volumes']);
    expect((specOf(b)['initContainers'] as Json[])[0]?.['envFrom']).toBe((specOf(a)['initContainers'] as Json[])[0]?.['envFrom']);
  });

  it('keeps a changed template part to itself and shares it from then on', () => {
    const pool = new ValuePool();
    const first = parsed(slimPod(1));
    const resized = parsed(slimPod(2));
    containerOf(resized)['resources'] = { requests: { cpu: '500m' } };
    const next = parsed(resized);
    for (const pod of [first, resized, next]) sharePod(pod, pool);
    expect(containerOf(resized)['resources']).not.toBe(containerOf(first)['resources']);
    expect(containerOf(resized)['resources']).toEqual({ requests: { cpu: '500m' } });
    expect(containerOf(next)['resources']).toBe(containerOf(resized)['resources']);
  });

  it('never shares parts between pods of different owners', () => {
    const pool = new ValuePool();
    const mine = parsed(slimPod(1));
    const other = parsed(slimPod(2));
    (other.metadata.ownerReferences as Array<{ uid: string }>)[0]!.uid = 'another-replicaset';
    sharePod(mine, pool);
    sharePod(other, pool);
    expect(other.metadata.labels).toEqual(mine.metadata.labels);
    expect(other.metadata.labels).not.toBe(mine.metadata.labels);
  });

  it('freezes what it shares, so a write cannot change another pod', () => {
    const pool = new ValuePool();
    const pod = parsed(slimPod(1));
    sharePod(pod, pool);
    const labels = pod.metadata.labels as Record<string, string>;
    expect(Object.isFrozen(labels)).toBe(true);
    expect(() => {
      labels['app'] = 'changed';
    }).toThrow(TypeError);
    expect(Object.isFrozen(containerOf(pod)['resources'])).toBe(true);
    // The pod's own objects stay as they were parsed.
    expect(Object.isFrozen(pod.metadata)).toBe(false);
  });

  it('pools repeated strings but not those unique to a pod (name, uid, resourceVersion, IPs)', () => {
    const pool = new ValuePool();
    for (let i = 0; i < 50; i += 1) sharePod(parsed(slimPod(i)), pool);
    // Node names and host IPs are worker-0..39: at most 40 of each, however many pods.
    expect(pool.size().strings).toBeLessThan(100);
    expect(pool.size().owners).toBe(1);
  });

  it('starts over at its cap, so it never holds more than that many values', () => {
    const pool = new ValuePool({ maxStrings: 5, maxOwners: 3 });
    for (let i = 0; i < 40; i += 1) expect(pool.string(`a-longer-string-${i}`)).toBe(`a-longer-string-${i}`);
    expect(pool.size().strings).toBeLessThanOrEqual(5);
    for (let i = 0; i < 12; i += 1) pool.part(`owner-${i}`, 'labels', { app: 'x' });
    expect(pool.size().owners).toBeLessThanOrEqual(3);
  });
});

describe('jsonEqual', () => {
  it('compares JSON values: object keys in any order, array items in order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual({ a: null }, { a: {} })).toBe(false);
    expect(jsonEqual({ a: '1' }, { a: 1 })).toBe(false);
  });
});

describe('ObjectCache with shared pod values', () => {
  it('stores pods sharing their owner\'s parts, each announced with its JSON unchanged', () => {
    const cache = new ObjectCache({ sharePods: true });
    const changes: CacheChange[] = [];
    cache.onChange((change) => changes.push(change));
    const pods = [parsed(slimPod(1)), parsed(slimPod(2))];
    const texts = pods.map((pod) => JSON.stringify(pod));
    pods.forEach((pod, i) => cache.upsert('pods', pod, texts[i]));
    const [a, b] = [cache.get('pods', pods[0]!.metadata.uid)!, cache.get('pods', pods[1]!.metadata.uid)!];
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect(changes.map((change) => (change.type === 'upsert' ? JSON.stringify(change.object) === change.json : false))).toEqual([true, true]);
  });

  it('leaves other kinds as they were written', () => {
    const cache = new ObjectCache({ sharePods: true });
    const replicaSet = { ...parsed(slimPod(1)), apiVersion: 'apps/v1', kind: 'ReplicaSet' };
    cache.upsert('replicasets.apps', replicaSet);
    expect(Object.isFrozen(cache.get('replicasets.apps', replicaSet.metadata.uid)!.metadata.labels)).toBe(false);
  });

  it('shares nothing unless asked: a writer may go on changing the pods it wrote', () => {
    const cache = new ObjectCache();
    const pods = [parsed(slimPod(1)), parsed(slimPod(2))];
    for (const pod of pods) cache.upsert('pods', pod);
    expect(pods[1]!.metadata.labels).not.toBe(pods[0]!.metadata.labels);
    (pods[0]!.metadata.labels as Record<string, string>)['app'] = 'changed';
    expect(pods[1]!.metadata.labels?.['app']).toBe('checkout');
  });

  it('takes a pod written again with parts it shares already (a copy of a cached pod, newer version)', () => {
    const cache = new ObjectCache({ sharePods: true });
    const pod = parsed(slimPod(1));
    cache.upsert('pods', pod);
    const resized = { ...pod, metadata: { ...pod.metadata, resourceVersion: '2', labels: { ...pod.metadata.labels, tier: 'edge' } } };
    cache.upsert('pods', resized);
    // The frozen owner references come back as they were; the new labels are kept from now on.
    const again = { ...resized, metadata: { ...resized.metadata, resourceVersion: '3', labels: pod.metadata.labels } };
    expect(() => cache.upsert('pods', again)).not.toThrow();
    expect(cache.get('pods', pod.metadata.uid)?.metadata.labels).toEqual(pod.metadata.labels);
  });
});
