import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { buildGraph, type BuildOptions, type GraphBuild } from '../../../../electron/engine/graph/build.ts';
import { createGraphIndex } from '../../../../electron/engine/graph/objects.ts';
import { danglingPod, orphanRs, reportPod, runningPod, shop, UID, webPods, webService, worker1 } from './fixtures.ts';

/** A static pod's mirror, owned by its Node: its owner is in a Node's focus but never in a namespace's scope. */
const mirrorPod: SlimObject = (() => {
  const pod = runningPod('kube-proxy-worker-1', '3b0e4f2a-9c1d-4e7f-8a6b-5d2c1e0f9a87');
  return { ...pod, metadata: { ...pod.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'worker-1', uid: UID.worker1, controller: true }] } } as SlimObject;
})();

/** The answer without its timing, which differs between any two builds. */
const answer = (build: GraphBuild | null): unknown => (build ? { ...build, stats: { ...build.stats, buildMs: 0 } } : null);

const objects = (): SlimObject[] => [...shop(), danglingPod, orphanRs, mirrorPod];

const asks: BuildOptions[] = [
  { namespace: 'shop', focus: null },
  { namespace: null, focus: UID.web },
  { namespace: null, focus: webPods[0]?.metadata.uid ?? '' },
  { namespace: null, focus: webService.metadata.uid },
  { namespace: null, focus: worker1.metadata.uid },
  { namespace: null, focus: mirrorPod.metadata.uid },
  { namespace: null, focus: danglingPod.metadata.uid },
  { namespace: null, focus: reportPod.metadata.uid },
  { namespace: 'shop', focus: null, limits: { groupThreshold: 1, podBudget: 1 } },
  { namespace: null, focus: null },
];

describe('graph answers from one index asked many times', () => {
  it('gives each ask the same answer as an index built for it alone, in either order', () => {
    const fresh = asks.map((ask) => answer(buildGraph(createGraphIndex(objects()), ask)));
    const shared = createGraphIndex(objects());
    // Forwards then backwards: what one build memoised must not change the next one's answer.
    const order = [...asks.keys(), ...[...asks.keys()].reverse()];
    for (const i of order) expect(answer(buildGraph(shared, asks[i] as BuildOptions)), `ask ${i}`).toEqual(fresh[i]);
  });

  it('places a pod under an owner that one ask has in scope and another not, whichever comes first', () => {
    const parentIn = (graph: GraphBuild | null): string | undefined => graph?.nodes.find((node) => node.id === mirrorPod.metadata.uid)?.parent;
    for (const nodeFirst of [false, true]) {
      const shared = createGraphIndex(objects());
      const focus = (): GraphBuild | null => buildGraph(shared, { namespace: null, focus: UID.worker1 });
      const namespace = (): GraphBuild | null => buildGraph(shared, { namespace: 'shop', focus: null });
      const [inFocus, inNamespace] = nodeFirst ? [focus(), namespace()] : [undefined, namespace()];
      expect(parentIn(inNamespace)).toBeUndefined();
      expect(parentIn(inFocus ?? focus())).toBe(UID.worker1);
    }
  });

  it('still draws a pod whose owner is absent under a missing reference node after other asks', () => {
    const shared = createGraphIndex(objects());
    buildGraph(shared, { namespace: 'shop', focus: null });
    const graph = buildGraph(shared, { namespace: null, focus: danglingPod.metadata.uid });
    const owner = danglingPod.metadata.ownerReferences?.[0]?.uid ?? '';
    expect(graph?.nodes.find((node) => node.id === `ref:${owner}`)?.flags).toContain('missing');
    expect(graph?.nodes.find((node) => node.id === danglingPod.metadata.uid)?.parent).toBe(`ref:${owner}`);
  });
});
