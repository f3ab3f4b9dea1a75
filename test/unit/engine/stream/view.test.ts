import { describe, expect, it } from 'vitest';
import { hasView, viewObject } from '../../../../electron/engine/stream/view.ts';
import { podStatus } from '../../../../shared/kube-status.ts';
import { WATCHED_KINDS, type SlimObject } from '../../../../shared/cluster.ts';
import { bulkyObject, slimPod } from './fixtures.ts';

/** A pod in the states kubectl's STATUS column tells apart: init containers, a sidecar, a crash loop, terminating. */
function troubledPod(): SlimObject {
  const pod = slimPod(3);
  return {
    ...pod,
    metadata: { ...pod.metadata, deletionTimestamp: '2024-05-02T11:00:00Z' },
    spec: {
      nodeName: 'worker-3',
      initContainers: [
        { name: 'migrate', image: 'registry.example.com/shop/migrate:1' },
        { name: 'mesh', image: 'registry.example.com/mesh:2', restartPolicy: 'Always' },
      ],
      containers: [{ name: 'checkout', image: 'registry.example.com/shop/checkout:1.42.3', resources: { requests: { cpu: '250m' } } }, { name: 'log' }],
    },
    status: {
      phase: 'Running',
      reason: 'Evicted',
      hostIP: '192.168.1.3',
      conditions: [
        { type: 'PodReadyToStartContainers', status: 'True' },
        { type: 'Initialized', status: 'True', lastTransitionTime: '2024-05-02T10:15:31Z' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [checkout]' },
        { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady' },
        { type: 'PodScheduled', status: 'True', reason: 'SchedulingGated' },
      ],
      initContainerStatuses: [
        { name: 'migrate', ready: false, restartCount: 0, image: 'x', state: { terminated: { reason: 'Completed', exitCode: 0, finishedAt: '2024-05-02T10:15:33Z' } } },
        { name: 'mesh', ready: true, started: true, restartCount: 2, image: 'y', state: { running: { startedAt: '2024-05-02T10:15:34Z' } } },
      ],
      containerStatuses: [
        {
          name: 'checkout',
          ready: false,
          started: false,
          restartCount: 7,
          image: 'z',
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
          lastState: { terminated: { reason: 'Error', exitCode: 1, finishedAt: '2024-05-02T10:55:00Z' } },
        },
        { name: 'log', ready: true, started: true, restartCount: 0, state: { running: { startedAt: '2024-05-02T10:15:35Z' } } },
      ],
    },
  };
}

describe('the renderer’s form of cached objects', () => {
  it('gives pods a form of their own and passes every other kind through as cached', () => {
    expect(WATCHED_KINDS.filter(hasView)).toEqual(['pods']);
    const replicaSet = bulkyObject(1);
    expect(viewObject(replicaSet, 'replicasets.apps')).toBe(replicaSet);
  });

  it('keeps everything the Pods and Nodes tables read, so their rows are the same from either form', () => {
    for (const pod of [slimPod(1), troubledPod()]) {
      const view = viewObject(pod, 'pods');
      // The Pods row (renderer/stores/rows/pods.ts): kubectl's STATUS, ready, restarts, then node, owner and age.
      expect(podStatus(view as never)).toEqual(podStatus(pod as never));
      expect(view['spec']).toMatchObject({ nodeName: (pod['spec'] as { nodeName: string }).nodeName });
      const { name, namespace, uid, resourceVersion, creationTimestamp, deletionTimestamp, ownerReferences } = pod.metadata;
      expect(view.metadata).toEqual({ name, namespace, uid, resourceVersion, creationTimestamp, ...(deletionTimestamp ? { deletionTimestamp } : {}), ownerReferences });
    }
    expect(podStatus(troubledPod() as never)).toMatchObject({ reason: 'Terminating', ready: 2, total: 3, restarts: 9 });
  });

  it('drops what no live table reads: images, resources, probes, IPs, labels, annotations, messages', () => {
    const pod = troubledPod();
    const view = viewObject(pod, 'pods');
    const text = JSON.stringify(view);
    for (const gone of ['registry.example.com', 'resources', '192.168.1.3', 'labels', 'annotations', 'back-off', 'containers with unready', 'lastTransitionTime']) {
      expect(text).not.toContain(gone);
    }
    expect(view).toMatchObject({ spec: { containers: [{ name: 'checkout' }, { name: 'log' }], initContainers: [{ name: 'migrate' }, { name: 'mesh', restartPolicy: 'Always' }] } });
    // Only the conditions kubectl's STATUS reads.
    expect((view['status'] as { conditions: unknown[] }).conditions).toEqual([
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
      { type: 'PodScheduled', status: 'True', reason: 'SchedulingGated' },
    ]);
    expect(JSON.stringify(viewObject(slimPod(1), 'pods')).length).toBeLessThan(JSON.stringify(slimPod(1)).length / 2);
  });

  it('leaves the cached object untouched', () => {
    const pod = troubledPod();
    const before = structuredClone(pod);
    viewObject(pod, 'pods');
    expect(pod).toEqual(before);
  });
});
