import { describe, expect, it } from 'vitest';
import { cluster, condition, deployment, isReady, NODES, PODS, statusOf } from './cluster.ts';

describe('node lifecycle', () => {
  it('registers nodes with capacity, nodeInfo, addresses, pod CIDRs and heartbeats every 40s', () => {
    const c = cluster({ nodes: 2 });
    const node = c.store.get(NODES, undefined, 'node-2');
    expect(node['spec']).toEqual({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] });
    const status = statusOf(node);
    expect(status['capacity']).toMatchObject({ cpu: '4', memory: '16Gi', pods: '110' });
    expect(status['allocatable']).toEqual(status['capacity']);
    expect(status['addresses']).toEqual([
      { type: 'InternalIP', address: '172.18.0.3' },
      { type: 'Hostname', address: 'node-2' },
    ]);
    expect(status['nodeInfo']).toMatchObject({ kubeletVersion: 'v1.32.2', containerRuntimeVersion: 'containerd://1.7.24', operatingSystem: 'linux', architecture: 'amd64' });
    expect((status['conditions'] as Array<{ type: string; status: string }>).map((x) => `${x.type}=${x.status}`)).toEqual(['MemoryPressure=False', 'DiskPressure=False', 'PIDPressure=False', 'Ready=True']);
    expect(condition(node, 'Ready')).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: '2026-01-01T12:00:00Z' });
    expect(c.events({ object: 'node-2' }).map((e) => `${e.component}/${e.reason}`)).toEqual([
      'kubelet/Starting',
      'kubelet/NodeHasSufficientMemory',
      'kubelet/NodeHasNoDiskPressure',
      'kubelet/NodeHasSufficientPID',
      'kubelet/NodeAllocatableEnforced',
      'node-controller/RegisteredNode',
      'kubelet/NodeReady',
    ]);

    const rvBefore = c.store.get(NODES, undefined, 'node-2').metadata.resourceVersion;
    c.advance(39_000, 1_000);
    expect(c.store.get(NODES, undefined, 'node-2').metadata.resourceVersion).toBe(rvBefore);
    c.advance(1_000);
    expect(condition(c.store.get(NODES, undefined, 'node-2'), 'Ready')).toMatchObject({ lastHeartbeatTime: '2026-01-01T12:00:40Z', lastTransitionTime: '2026-01-01T12:00:00Z' });
  });

  it('marks a silent node NotReady, evicts its pods after tolerationSeconds and reschedules them', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web', { replicas: 3 }));
    c.advance(5_000);
    const onNode1 = c.pods().filter((p) => (p['spec'] as { nodeName: string }).nodeName === 'node-1');
    expect(onNode1).toHaveLength(1);
    const victim = onNode1[0]!;

    c.nodeLifecycle.setNodeReady('node-1', false);
    c.advance(30_000, 1_000);
    expect(condition(c.store.get(NODES, undefined, 'node-1'), 'Ready')).toMatchObject({ status: 'True' });
    c.advance(15_000, 1_000);
    const node = c.store.get(NODES, undefined, 'node-1');
    expect(condition(node, 'Ready')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect((node['spec'] as { taints: unknown[] }).taints).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: expect.any(String) },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: expect.any(String) },
    ]);
    expect(c.events({ reason: 'NodeNotReady', object: 'node-1' })).toEqual([expect.objectContaining({ component: 'node-controller', message: 'Node node-1 status is now: NodeNotReady' })]);
    expect(isReady(c.store.get(PODS, 'default', victim.metadata.name))).toBe(false);
    expect(c.events({ reason: 'NodeNotReady', object: victim.metadata.name })).toEqual([expect.objectContaining({ type: 'Warning', message: 'Node is not ready' })]);

    // The last heartbeat was at 12:00:00, so the taint came at 12:00:40; the default 300s
    // toleration for node.kubernetes.io/unreachable runs out at 12:05:40.
    expect((node['spec'] as { taints: Array<{ timeAdded: string }> }).taints[1]?.timeAdded).toBe('2026-01-01T12:00:40Z');
    c.advance(280_000, 5_000);
    expect(c.events({ reason: 'TaintManagerEviction' })).toHaveLength(0);
    c.advance(15_000, 1_000);
    expect(c.events({ reason: 'TaintManagerEviction' })).toEqual([
      expect.objectContaining({ component: 'taint-eviction-controller', object: victim.metadata.name, message: `Marking for deletion Pod default/${victim.metadata.name}` }),
    ]);
    c.advance(5_000);
    const evicted = c.pods().find((p) => p.metadata.name === victim.metadata.name)!;
    // Its kubelet is gone, so it stays Terminating; the ReplicaSet has replaced it elsewhere.
    expect(evicted.metadata.deletionTimestamp).toBeDefined();
    expect(condition(evicted, 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' });
    const live = c.pods().filter((p) => !p.metadata.deletionTimestamp);
    expect(live).toHaveLength(3);
    expect(live.every(isReady)).toBe(true);
    expect(live.every((p) => (p['spec'] as { nodeName: string }).nodeName !== 'node-1')).toBe(true);

    c.nodeLifecycle.setNodeReady('node-1', true);
    c.advance(2_000);
    expect(condition(c.store.get(NODES, undefined, 'node-1'), 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect((c.store.get(NODES, undefined, 'node-1')['spec'] as { taints?: unknown[] }).taints).toBeUndefined();
    expect(c.pods().find((p) => p.metadata.name === victim.metadata.name)).toBeUndefined();
  });
});

