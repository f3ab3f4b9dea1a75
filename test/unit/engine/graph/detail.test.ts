import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { objectDetail, recentEvents } from '../../../../electron/engine/graph/detail.ts';
import { createGraphIndex } from '../../../../electron/engine/graph/objects.ts';
import { desiredVsActual } from '../../../../electron/engine/graph/pairs.ts';
import { danglingPod, event, patched, reportJob, runningPod, shop, UID, web, webHpa, webPods, webRs3, webService } from './fixtures.ts';

const RS_NEW = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-8c4f7d9b6e', uid: 'rs-new' };

/** web mid-rollout to v3.2.0: generation 4 observed, one new pod up, three old ones still running. */
function midRollout(): SlimObject[] {
  const template = { metadata: { labels: { 'app.kubernetes.io/name': 'web' } }, spec: { containers: [{ name: 'web', image: 'ghcr.io/acme/web:v3.2.0' }] } };
  const rolling = patched(web, { metadata: { generation: 4 }, spec: { template }, status: { observedGeneration: 4, updatedReplicas: 1, replicas: 4 } });
  const rs = patched(webRs3, { metadata: { name: RS_NEW.name, uid: RS_NEW.uid }, spec: { replicas: 1 }, status: { replicas: 1 } });
  const pod = (name: string, uid: string, owner: typeof RS_NEW, image: string): SlimObject => runningPod(name, uid, { owner, labels: { 'app.kubernetes.io/name': 'web' }, image, container: 'web' });
  const oldRs = { ...RS_NEW, name: 'web-7d9f8c6b5d', uid: UID.webRs3 };
  const pods = [pod('web-8c4f7d9b6e-n7d2q', 'new-pod', RS_NEW, 'ghcr.io/acme/web:v3.2.0'), ...webPods.map((old) => pod(old.metadata.name, old.metadata.uid, oldRs, 'ghcr.io/acme/web:v3.1.0'))];
  const replaced = new Set([UID.web, ...webPods.map((old) => old.metadata.uid)]);
  return [...shop().filter((o) => !replaced.has(o.metadata.uid)), rolling, rs, ...pods];
}

describe('desired vs actual', () => {
  it('shows a Deployment mid-rollout: up-to-date short of desired and which images the pods run', () => {
    const objects = midRollout();
    const index = createGraphIndex(objects);
    const pairs = desiredVsActual(index.get(UID.web) as SlimObject, index);
    expect(pairs).toEqual([
      { field: 'Replicas', desired: '3', actual: '3 ready', match: true },
      { field: 'Current', desired: '3', actual: '4 running', match: false },
      { field: 'Up-to-date', desired: '3', actual: '1 updated', match: false },
      { field: 'Generation', desired: '4', actual: 'observed 4', match: true },
      { field: 'Image web', desired: 'web:v3.2.0', actual: '3× web:v3.1.0 · 1× web:v3.2.0', match: false },
    ]);
  });

  it('shows each container of a pod: its image and state', () => {
    const index = createGraphIndex(shop());
    const pairs = desiredVsActual(danglingPod, index);
    expect(pairs).toEqual([
      { field: 'Node', desired: 'worker-2', actual: 'scheduled (10.0.1.11)', match: true },
      { field: 'Container main', desired: 'web:v3.1.0', actual: 'running, ready', match: true },
    ]);
  });

  it('shows a Service’s selector against the pods it matches, an HPA’s range against its replicas, a Job’s completions', () => {
    const index = createGraphIndex(shop());
    expect(desiredVsActual(webService, index)).toEqual([{ field: 'Selector', desired: 'app.kubernetes.io/name=web', actual: '3 pods match', match: true }]);
    expect(desiredVsActual(webHpa, index)).toEqual([
      { field: 'Target', desired: 'Deployment web', actual: 'found', match: true },
      { field: 'Replicas', desired: '2–10', actual: '3', match: true },
    ]);
    expect(desiredVsActual(reportJob, index)[0]).toEqual({ field: 'Completions', desired: '1', actual: '1 succeeded', match: true });
  });
});

describe('object detail', () => {
  it('lists owners (present or not) and the drift reasons of a workload', () => {
    const index = createGraphIndex(shop());
    const detail = objectDetail(danglingPod, index, [], null);
    expect(detail.owners).toEqual([{ kind: 'ReplicaSet', name: 'api-6b8d9c7f4', uid: UID.goneRs, present: false }]);
    expect(detail.node.flags).toContain('dangling-owner');
    const short = patched(web, { status: { readyReplicas: 1 } });
    expect(objectDetail(short, index, [], null).reasons).toEqual(['1 of 3 desired replicas ready']);
  });

  it('lists Events newest first, counting series, and caps the list', () => {
    const pod = webPods[0] as SlimObject;
    const events = Array.from({ length: 40 }, (_, i) => event(`p.${i}`, pod, { reason: i % 2 ? 'Pulled' : 'BackOff', message: `m${i}`, minutes: i, type: i % 2 ? 'Normal' : 'Warning', component: 'kubelet' }));
    const series = { ...event('p.series', pod, { reason: 'Unhealthy', message: 'Readiness probe failed', minutes: 100, type: 'Warning' }), series: { count: 12, lastObservedTime: '2025-05-01T12:00:00.000000Z' } } as SlimObject;
    const listed = recentEvents([...events, series]);
    expect(listed).toHaveLength(30);
    expect(listed[0]).toMatchObject({ reason: 'Unhealthy', count: 12, type: 'Warning', last: Date.parse('2025-05-01T12:00:00Z') });
    expect(listed[1]?.message).toBe('m39');
  });
});
