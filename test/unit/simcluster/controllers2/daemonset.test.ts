import { describe, expect, it } from 'vitest';
import { createDaemonSetController } from '../../../../electron/engine/simcluster/controllers/daemonset.ts';
import { daemonPodNode } from '../../../../electron/engine/simcluster/controllers/daemonset-nodes.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { harness, node, NODES, setPods, T, template, type Harness } from './harness.ts';

const DS = T('daemonsets.apps');
const CONTROL_PLANE_TAINT = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };

function daemonSet(spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}) {
  const t = template({ app: 'node-exporter' }, 'quay.io/prometheus/node-exporter:v1.8.2');
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'node-exporter', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'node-exporter' } }, template: { ...t, spec: { ...t.spec, ...podSpec } }, ...spec },
  };
}

function cluster(): Harness {
  const h = harness([createDaemonSetController()]);
  h.create('nodes', node('control-plane', { taints: [CONTROL_PLANE_TAINT], labels: { 'node-role.kubernetes.io/control-plane': '' } }));
  for (const name of ['worker-1', 'worker-2', 'worker-3']) h.create('nodes', node(name, { labels: { disk: name === 'worker-3' ? 'hdd' : 'ssd' } }));
  return h;
}

const live = (h: Harness) => h.pods().filter((p) => !p.metadata.deletionTimestamp);
const placement = (h: Harness) => live(h).map((p) => daemonPodNode(p)).sort();
const status = (h: Harness) => h.store.get(DS, 'default', 'node-exporter')['status'];

describe('daemonset-controller', () => {
  it('runs one pod per untainted node, pinned by node affinity', () => {
    const h = cluster();
    h.create('daemonsets.apps', daemonSet());
    expect(placement(h)).toEqual(['worker-1', 'worker-2', 'worker-3']);
    const pod = live(h).find((p) => daemonPodNode(p) === 'worker-2') as KubeObject;
    const spec = pod['spec'] as Record<string, unknown>;
    expect(spec['affinity']).toEqual({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['worker-2'] }] }] } },
    });
    expect(spec['nodeName']).toBeUndefined();
    expect(spec['tolerations']).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(pod.metadata.generateName).toBe('node-exporter-');
    expect(pod.metadata.labels).toMatchObject({ app: 'node-exporter', 'pod-template-generation': '1', 'controller-revision-hash': expect.stringMatching(/^[bcdfghjklmnpqrstvwxz2456789]+$/) });
    expect(h.events({ reason: 'SuccessfulCreate' })).toHaveLength(3);
    expect(h.events({ reason: 'SuccessfulCreate' })[0]).toMatch(/^SuccessfulCreate: Created pod: node-exporter-[a-z0-9]{5}$/);
  });

  it('runs on the control plane when the pods tolerate its taint', () => {
    const h = cluster();
    h.create('daemonsets.apps', daemonSet({}, { tolerations: [{ operator: 'Exists' }] }));
    expect(placement(h)).toEqual(['control-plane', 'worker-1', 'worker-2', 'worker-3']);
  });

  it('follows nodeSelector, including a node labelled later', () => {
    const h = cluster();
    h.create('daemonsets.apps', daemonSet({}, { nodeSelector: { disk: 'ssd' } }));
    expect(placement(h)).toEqual(['worker-1', 'worker-2']);
    h.store.mutate(NODES, undefined, 'worker-3', (copy) => {
      copy.metadata.labels = { ...copy.metadata.labels, disk: 'ssd' };
    });
    h.settle();
    expect(placement(h)).toEqual(['worker-1', 'worker-2', 'worker-3']);
  });

  it('removes the pod from a node that gains an untolerated NoExecute taint or disappears', () => {
    const h = cluster();
    h.create('daemonsets.apps', daemonSet());
    h.store.mutate(NODES, undefined, 'worker-1', (copy) => {
      copy['spec'] = { taints: [{ key: 'maintenance', effect: 'NoExecute' }] };
    });
    h.settle();
    expect(placement(h)).toEqual(['worker-2', 'worker-3']);
    h.store.delete(NODES, undefined, 'worker-3');
    h.settle();
    expect(placement(h)).toEqual(['worker-2']);
    expect(h.events({ reason: 'SuccessfulDelete' })).toHaveLength(2);
  });

  it('reports scheduled, ready and available counts', () => {
    const h = cluster();
    h.create('daemonsets.apps', daemonSet());
    expect(status(h)).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 0, observedGeneration: 1, updatedNumberScheduled: 3, numberUnavailable: 3 });
    setPods(h, 'ready');
    expect(status(h)).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 1, updatedNumberScheduled: 3, numberAvailable: 3 });
  });

  it('rolls a new template one node at a time with maxUnavailable 1', () => {
    const h = cluster();
    h.create('daemonsets.apps', daemonSet());
    setPods(h, 'ready');
    const oldHash = live(h)[0]?.metadata.labels?.['controller-revision-hash'];
    h.store.mutate(DS, 'default', 'node-exporter', (copy) => {
      ((copy['spec'] as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0] as { image: string }).image = 'quay.io/prometheus/node-exporter:v1.9.0';
    });
    h.settle();
    const hashes = () => live(h).map((p) => p.metadata.labels?.['controller-revision-hash']);
    expect(hashes().filter((x) => x === oldHash)).toHaveLength(2);
    expect(live(h)).toHaveLength(3);
    for (let round = 0; round < 3; round += 1) setPods(h, 'ready', { names: live(h).filter((p) => p.metadata.labels?.['controller-revision-hash'] !== oldHash).map((p) => p.metadata.name) });
    expect(hashes().filter((x) => x === oldHash)).toHaveLength(0);
    expect(status(h)).toMatchObject({ observedGeneration: 2, updatedNumberScheduled: 3, numberAvailable: 3 });
    expect(live(h).every((p) => p.metadata.labels?.['pod-template-generation'] === '2')).toBe(true);
  });
});
