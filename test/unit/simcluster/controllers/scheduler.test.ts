import { describe, expect, it } from 'vitest';
import { fitErrorMessage } from '../../../../electron/engine/simcluster/controllers/scheduler-fit.ts';
import { cluster, condition, deployment, DEPLOYMENTS, NODES, PODS, statusOf } from './cluster.ts';

const SMALL = { cpu: '1', memory: '2Gi', pods: '110' };

describe('default-scheduler', () => {
  it('leaves pods that fit nowhere Pending with Unschedulable and FailedScheduling in the real format', () => {
    const c = cluster({ capacity: SMALL });
    c.create('deployments.apps', deployment('big', { replicas: 1, resources: { requests: { cpu: '1500m', memory: '128Mi' } } }));
    c.advance(2_000);
    const [pod] = c.pods();
    const message = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..';
    expect(statusOf(pod!)['phase']).toBe('Pending');
    expect((pod!['spec'] as { nodeName?: string }).nodeName).toBeUndefined();
    expect(condition(pod!, 'PodScheduled')).toEqual({ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: '2026-01-01T12:00:00Z', reason: 'Unschedulable', message });
    expect(c.events({ reason: 'FailedScheduling' })).toEqual([expect.objectContaining({ type: 'Warning', component: 'default-scheduler', message, count: 1 })]);

    // A heartbeat is no reason to retry; a node that could fit is.
    c.advance(60_000, 1_000);
    expect(c.events({ reason: 'FailedScheduling' })[0]?.count).toBe(1);
    c.store.create(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-big' }, spec: {}, status: { capacity: { cpu: '8', memory: '32Gi', pods: '110' } } });
    c.advance(3_000);
    const placed = c.pods()[0]!;
    expect((placed['spec'] as { nodeName?: string }).nodeName).toBe('node-big');
    expect(statusOf(placed)['phase']).toBe('Running');
    expect(c.events({ reason: 'Scheduled' })[0]?.message).toBe(`Successfully assigned default/${placed.metadata.name} to node-big`);
  });

  it('retries parked pods when resources are freed and on the periodic flush', () => {
    const c = cluster({ nodes: 1, capacity: SMALL });
    c.create('deployments.apps', deployment('a', { replicas: 1, resources: { requests: { cpu: '600m' } } }));
    c.create('deployments.apps', deployment('b', { replicas: 1, resources: { requests: { cpu: '600m' } } }));
    c.advance(2_000);
    const pending = c.pods().find((p) => !(p['spec'] as { nodeName?: string }).nodeName)!;
    expect(pending.metadata.name).toMatch(/^b-/);
    c.advance(300_000, 10_000);
    expect(c.events({ reason: 'FailedScheduling' })[0]?.count).toBe(2);
    // Scaling `a` away frees its CPU once its pod is really gone, not while it terminates.
    c.store.mutate(DEPLOYMENTS, 'default', 'a', (copy) => {
      (copy['spec'] as { replicas: number }).replicas = 0;
    });
    c.settle();
    expect((c.store.get(PODS, 'default', pending.metadata.name)['spec'] as { nodeName?: string }).nodeName).toBeUndefined();
    c.advance(3_000);
    expect((c.store.get(PODS, 'default', pending.metadata.name)['spec'] as { nodeName?: string }).nodeName).toBe('node-1');
  });

  it('respects nodeSelector and untolerated NoSchedule taints, naming them in the message', () => {
    expect(
      fitErrorMessage(3, [
        { reasons: ['node(s) had untolerated taint {dedicated: gpu}'], unresolvable: true },
        { reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true },
        { reasons: ['Insufficient cpu', 'Insufficient memory'], unresolvable: false },
      ]),
    ).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling..",
    );
    const c = cluster();
    c.store.mutate(NODES, undefined, 'node-1', (copy) => {
      copy['spec'] = { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] };
    });
    c.store.mutate(NODES, undefined, 'node-2', (copy) => {
      copy.metadata.labels = { ...copy.metadata.labels, disk: 'ssd' };
    });
    c.settle();
    const d = deployment('db', { replicas: 2 });
    const template = (d['spec'] as { template: { spec: Record<string, unknown> } }).template;
    template.spec['nodeSelector'] = { disk: 'ssd' };
    c.create('deployments.apps', d);
    c.advance(3_000);
    expect(c.pods().map((p) => (p['spec'] as { nodeName?: string }).nodeName)).toEqual(['node-2', 'node-2']);

    const gpu = deployment('trainer', { replicas: 1 });
    (gpu['spec'] as { template: { spec: Record<string, unknown> } }).template.spec['nodeSelector'] = { 'kubernetes.io/hostname': 'node-1' };
    c.create('deployments.apps', gpu);
    expect(c.events({ reason: 'FailedScheduling' })[0]?.message).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    // A DaemonSet-style pin (matchFields metadata.name) with a toleration reaches the tainted node.
    const pinned = deployment('agent', { replicas: 1 });
    (pinned['spec'] as { template: { spec: Record<string, unknown> } }).template.spec = {
      ...(pinned['spec'] as { template: { spec: Record<string, unknown> } }).template.spec,
      tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] } } },
    };
    c.create('deployments.apps', pinned);
    expect((c.pods().find((p) => p.metadata.name.startsWith('agent-'))!['spec'] as { nodeName?: string }).nodeName).toBe('node-1');
  });
});
