import { describe, expect, it } from 'vitest';
import { getCondition, setCondition } from '../../../../electron/engine/simcluster/controllers/conditions.ts';
import { deploymentSpec, maxSurge, maxUnavailable, podTemplateHash, resolveFenceposts, scaledValue } from '../../../../electron/engine/simcluster/controllers/deployment-util.ts';
import { controllerRef, isControlledBy, ownerKeysFor } from '../../../../electron/engine/simcluster/controllers/owner.ts';
import { isPodAvailable, podDeleteOptions, podFromTemplate } from '../../../../electron/engine/simcluster/controllers/pods.ts';
import { bytes, cpuMillis } from '../../../../electron/engine/simcluster/controllers/quantity.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const rs: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web-7d9c5b8f4c', namespace: 'default', uid: 'rs-uid', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' },
};

describe('controller helpers', () => {
  it('parses CPU and memory quantities', () => {
    expect([cpuMillis('100m'), cpuMillis('0.5'), cpuMillis('2'), cpuMillis(1), cpuMillis('1500u')]).toEqual([100, 500, 2000, 1000, 2]);
    expect([bytes('128Mi'), bytes('1Gi'), bytes('1G'), bytes('500k'), bytes('1e3')]).toEqual([134217728, 1073741824, 1e9, 500000, 1000]);
  });

  it('rounds maxSurge up and maxUnavailable down, never resolving both to zero', () => {
    expect(scaledValue('25%', 10, true)).toBe(3);
    expect(scaledValue('25%', 10, false)).toBe(2);
    const d = (replicas: number, strategy?: unknown): ReturnType<typeof deploymentSpec> =>
      deploymentSpec({ ...rs, kind: 'Deployment', spec: { replicas, ...(strategy ? { strategy } : {}) } });
    expect(resolveFenceposts(d(3))).toEqual({ surge: 1, unavailable: 0 });
    expect(resolveFenceposts(d(1, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '10%' } }))).toEqual({ surge: 0, unavailable: 1 });
    expect([maxSurge(d(4, { type: 'Recreate' })), maxUnavailable(d(4, { type: 'Recreate' }))]).toEqual([0, 0]);
    expect(maxUnavailable(d(2, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 5 } }))).toBe(2);
  });

  it('hashes pod templates into stable, safe-alphabet suffixes', () => {
    const a = podTemplateHash({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } });
    const b = podTemplateHash({ spec: { containers: [{ image: 'nginx:1.27', name: 'web' }] }, metadata: { labels: { app: 'web' } } });
    const c = podTemplateHash({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).toMatch(/^[4-9bcdf]{1,10}$/);
  });

  it('moves lastTransitionTime only when a condition flips', () => {
    const status: Record<string, unknown> = {};
    expect(setCondition(status, 'Ready', 'False', 'ContainersNotReady', 'containers with unready status: [web]', Date.UTC(2026, 0, 1, 0, 0, 0), { updateTimeField: 'lastProbeTime' })).toBe(true);
    expect(setCondition(status, 'Ready', 'False', 'ContainersNotReady', 'containers with unready status: [web]', Date.UTC(2026, 0, 1, 0, 0, 5), { updateTimeField: 'lastProbeTime' })).toBe(false);
    setCondition(status, 'Ready', 'False', 'ContainersNotReady', 'containers with unready status: [web sidecar]', Date.UTC(2026, 0, 1, 0, 0, 9), { updateTimeField: 'lastProbeTime' });
    expect(getCondition(status, 'Ready')?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    setCondition(status, 'Ready', 'True', undefined, undefined, Date.UTC(2026, 0, 1, 0, 1, 0), { updateTimeField: 'lastProbeTime' });
    expect(status['conditions']).toEqual([{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:01:00Z' }]);
  });

  it('builds controlled, defaulted pods from a template', () => {
    const pod = podFromTemplate(rs, { metadata: { labels: { app: 'web' }, annotations: { team: 'a' } }, spec: { containers: [{ name: 'web', image: 'nginx', resources: { limits: { cpu: '1', memory: '1Gi' } } }] } }) as unknown as KubeObject;
    expect(pod.metadata).toMatchObject({ generateName: 'web-7d9c5b8f4c-', namespace: 'default', labels: { app: 'web' }, annotations: { team: 'a' } });
    expect(controllerRef(pod)).toEqual({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9c5b8f4c', uid: 'rs-uid', controller: true, blockOwnerDeletion: true });
    expect(isControlledBy(pod, rs)).toBe(true);
    const spec = pod['spec'] as Record<string, unknown>;
    expect(spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30, serviceAccountName: 'default', enableServiceLinks: true, priority: 0 });
    expect((spec['containers'] as Array<Record<string, unknown>>)[0]).toMatchObject({
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } },
    });
    expect(spec['tolerations']).toEqual([
      { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
      { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
    ]);
    expect(pod['status']).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    expect(ownerKeysFor({ rv: 2, type: 'ADDED', resource: 'pods', key: 'default/x', object: pod }, 'ReplicaSet', 'replicasets.apps')).toEqual([{ resource: 'replicasets.apps', namespace: 'default', name: 'web-7d9c5b8f4c' }]);
  });

  it('judges availability by minReadySeconds and picks the delete grace period', () => {
    const pod = {
      ...rs,
      kind: 'Pod',
      spec: { nodeName: 'node-1', terminationGracePeriodSeconds: 10 },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    } as KubeObject;
    expect(isPodAvailable(pod, 0, Date.UTC(2026, 0, 1))).toBe(true);
    expect(isPodAvailable(pod, 5, Date.UTC(2026, 0, 1, 0, 0, 5))).toBe(false);
    expect(isPodAvailable(pod, 5, Date.UTC(2026, 0, 1, 0, 0, 6))).toBe(true);
    expect(podDeleteOptions(pod).gracePeriodSeconds).toBe(10);
    expect(podDeleteOptions({ ...pod, spec: {} }).gracePeriodSeconds).toBe(0);
  });
});
