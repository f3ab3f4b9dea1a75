import { describe, expect, it } from 'vitest';
import type { KindKey, SlimObject } from '../../../../shared/cluster.ts';
import type { CacheChange } from '../../../../electron/engine/stream/cache.ts';
import { buildGraph, type GraphBuild } from '../../../../electron/engine/graph/build.ts';
import { createLiveIndex } from '../../../../electron/engine/graph/live-index.ts';
import { createGraphIndex } from '../../../../electron/engine/graph/objects.ts';
import { node, patched, runningPod, shop, UID, webPods } from './fixtures.ts';

const configMap = (name: string, uid: string): SlimObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop', uid, resourceVersion: '1', creationTimestamp: '2024-05-01T10:00:00Z' } });
const cmA = configMap('settings-a', '4c1f0e55-0a3e-4b7c-9a55-1f1e2d3c4b5a');
const cmB = configMap('settings-b', '5d2f1e66-1b4f-4c8d-8b66-2f2e3d4c5b6b');

/** A pod reading one ConfigMap through envFrom, at a resourceVersion. */
function podUsing(settings: string, resourceVersion: string): SlimObject {
  const pod = runningPod('worker-7f9c-x2x4p', '6e3a2f77-2c5f-4d9e-9c77-3a3f4e5d6c7c', { labels: { app: 'worker' } }) as SlimObject & { spec: { containers: Array<Record<string, unknown>> } };
  const containers = pod.spec.containers.map((container) => ({ ...container, envFrom: [{ configMapRef: { name: settings } }] }));
  return patched(pod, { metadata: { resourceVersion }, spec: { containers } });
}

function live() {
  const index = createLiveIndex(() => undefined);
  index.reset('kind-dev', { objects: [cmA, cmB], kinds: ['configmaps', 'configmaps'] as KindKey[] });
  const upsert = (object: SlimObject, kind: KindKey, previous?: SlimObject): void => index.apply({ type: 'upsert', kind, object, previous } as CacheChange);
  const remove = (object: SlimObject, kind: KindKey): void =>
    index.apply({ type: 'delete', kind, object, ref: { namespace: object.metadata.namespace ?? '', name: object.metadata.name, uid: object.metadata.uid } } as unknown as CacheChange);
  const graph = (): GraphBuild => {
    const built = buildGraph(createGraphIndex(index.objectsFor('shop'), index.resolver), { namespace: 'shop', focus: null });
    if (!built) throw new Error('no graph');
    return built;
  };
  return { upsert, remove, graph };
}

const usesOf = (graph: GraphBuild, from: string): string[] => graph.edges.filter((edge) => edge.type === 'uses' && edge.from === from).map((edge) => edge.to);
const statusOf = (graph: GraphBuild, id: string): string | undefined => graph.nodes.find((graphNode) => graphNode.id === id)?.status;

describe('per-version graph facts kept across answers', () => {
  it('a pod updated to use another ConfigMap is drawn to the new one at the next answer, and a deleted one to none', () => {
    const cluster = live();
    const first = podUsing(cmA.metadata.name, '10');
    cluster.upsert(first, 'pods');
    const before = cluster.graph();
    expect(usesOf(before, first.metadata.uid)).toEqual([cmA.metadata.uid]);
    expect(statusOf(before, cmA.metadata.uid)).toBe('Used by 1 pod');

    // The cache replaces the pod with its next version (same uid): what it uses is read again.
    const second = podUsing(cmB.metadata.name, '11');
    cluster.upsert(second, 'pods', first);
    const after = cluster.graph();
    expect(usesOf(after, second.metadata.uid)).toEqual([cmB.metadata.uid]);
    expect(statusOf(after, cmA.metadata.uid)).toBe('Used by no pod');
    expect(statusOf(after, cmB.metadata.uid)).toBe('Used by 1 pod');

    cluster.remove(second, 'pods');
    const gone = cluster.graph();
    expect(gone.nodes.some((graphNode) => graphNode.id === second.metadata.uid)).toBe(false);
    expect(statusOf(gone, cmB.metadata.uid)).toBe('Used by no pod');
  });

  it('an owner reference names its owner by group, kind and uid, written with the owner\'s apiVersion or an older one', () => {
    const [pod] = webPods;
    if (!pod) throw new Error('no web pod');
    const rsUid = UID.webRs3;
    const withOwner = (owner: Record<string, unknown>): SlimObject => patched(pod, { metadata: { ownerReferences: [{ name: 'web-7d9f8c6b5d', uid: rsUid, controller: true, ...owner }] } });
    const parentOf = (object: SlimObject): string | undefined => {
      const objects = [...shop().filter((candidate) => candidate.metadata.uid !== pod.metadata.uid), object];
      return buildGraph(createGraphIndex(objects), { namespace: 'shop', focus: null, limits: { groupThreshold: 100 } })?.nodes.find((graphNode) => graphNode.id === pod.metadata.uid)?.parent;
    };
    expect(parentOf(withOwner({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }))).toBe(rsUid);
    expect(parentOf(withOwner({ apiVersion: 'apps/v1beta2', kind: 'ReplicaSet' }))).toBe(rsUid);
    // Same uid, another group or kind: not that ReplicaSet (an absent owner, drawn as a reference).
    expect(parentOf(withOwner({ apiVersion: 'example.com/v1', kind: 'ReplicaSet' }))).toBe(`ref:${rsUid}`);
    expect(parentOf(withOwner({ apiVersion: 'apps/v1', kind: 'StatefulSet' }))).toBe(`ref:${rsUid}`);
  });

  it('counts the nodes pods run on when they are too many to draw, and draws them up to the limit', () => {
    const pods = Array.from({ length: 6 }, (_, i) => runningPod(`spread-${i}`, `7f4b3a88-3d6a-4eaf-8d88-4b4a5f6e7d${String(i).padStart(2, '0')}`, { node: `worker-${(i % 3) + 1}` }));
    const nodes = [node('worker-1', UID.worker1, true), node('worker-2', UID.worker2, false)];
    const graph = (maxClusterNodes: number) => buildGraph(createGraphIndex([...pods, ...nodes]), { namespace: 'shop', focus: null, limits: { maxClusterNodes } });
    expect(graph(2)?.stats.hiddenNodes).toBe(3);
    expect(graph(2)?.edges.filter((edge) => edge.type === 'runs-on')).toHaveLength(0);
    const drawn = graph(3);
    expect(drawn?.stats.hiddenNodes).toBe(0);
    expect(drawn?.edges.filter((edge) => edge.type === 'runs-on')).toHaveLength(6);
    // worker-3 is not in the cluster: a reference node stands for it.
    expect(drawn?.nodes.filter((graphNode) => graphNode.kind === 'Node').map((graphNode) => graphNode.id)).toEqual(expect.arrayContaining([UID.worker1, UID.worker2, 'ref:node/worker-3']));
  });
});
