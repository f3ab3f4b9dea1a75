/**
 * Node status as a kubelet posts it (capacity, allocatable, addresses, nodeInfo, the pressure
 * and Ready conditions with heartbeats) and as node-lifecycle rewrites it when heartbeats stop
 * (every condition Unknown / NodeStatusUnknown), plus the taints node-lifecycle manages.
 */
import type { KubeObject } from '../types.ts';
import { timestamp, type Condition } from './conditions.ts';
import type { Taint } from './scheduler-fit.ts';

/** Conditions kubelet reports, in its order, with their healthy reason and message. */
const KUBELET_CONDITIONS: Array<[string, 'True' | 'False', string, string]> = [
  ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
];

export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
export const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';
const MANAGED_TAINTS = new Set([UNREACHABLE_TAINT, UNSCHEDULABLE_TAINT, 'node.kubernetes.io/not-ready']);

export interface NodeShape {
  kubeletVersion: string;
  minor: number;
  capacity: Record<string, string>;
  /** Index of the node's pod CIDR (10.244.N.0/24), which also picks its InternalIP. */
  index: number;
}

function hexOf(seed: string, length: number): string {
  let h = 0x811c9dc5;
  let out = '';
  while (out.length < length) {
    for (const ch of `${out.length}${seed}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, length);
}

function uuidOf(seed: string): string {
  const h = hexOf(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Fills what a registering kubelet reports, keeping anything the node object already has. */
export function registeredStatus(node: KubeObject, shape: NodeShape): Record<string, unknown> {
  const current = structuredClone((node['status'] as Record<string, unknown> | undefined) ?? {});
  const name = node.metadata.name;
  const capacity = (current['capacity'] as Record<string, string> | undefined) ?? shape.capacity;
  const nodeInfo: Record<string, string> = {
    machineID: hexOf(`machine${name}`, 32),
    systemUUID: uuidOf(`system${name}`),
    bootID: uuidOf(`boot${name}`),
    kernelVersion: '6.8.0-1019-gcp',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    containerRuntimeVersion: 'containerd://1.7.24',
    kubeletVersion: shape.kubeletVersion,
  };
  if (shape.minor < 31) nodeInfo['kubeProxyVersion'] = shape.kubeletVersion;
  nodeInfo['operatingSystem'] = 'linux';
  nodeInfo['architecture'] = 'amd64';
  return {
    capacity,
    allocatable: current['allocatable'] ?? capacity,
    conditions: current['conditions'] ?? [],
    addresses: current['addresses'] ?? [
      { type: 'InternalIP', address: `172.18.0.${shape.index + 2}` },
      { type: 'Hostname', address: name },
    ],
    daemonEndpoints: current['daemonEndpoints'] ?? { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: { ...nodeInfo, ...((current['nodeInfo'] as Record<string, string> | undefined) ?? {}) },
    ...Object.fromEntries(Object.entries(current).filter(([k]) => !['capacity', 'allocatable', 'conditions', 'addresses', 'daemonEndpoints', 'nodeInfo'].includes(k))),
  };
}

/**
 * The kubelet's healthy conditions. Heartbeat times move only when `heartbeat` is true (or a
 * condition changes), so a status write happens once per heartbeat interval, not per reconcile.
 */
export function healthyConditions(current: Condition[], now: number, heartbeat: boolean): Condition[] {
  const at = timestamp(now);
  return KUBELET_CONDITIONS.map(([type, status, reason, message]) => {
    const existing = current.find((c) => c.type === type);
    const changed = !existing || existing.status !== status || existing.reason !== reason;
    return {
      type,
      status,
      lastHeartbeatTime: changed || heartbeat ? at : (existing.lastHeartbeatTime ?? at),
      lastTransitionTime: existing && existing.status === status && existing.lastTransitionTime ? existing.lastTransitionTime : at,
      reason,
      message,
    };
  });
}

/** node-lifecycle's view once heartbeats stopped: every kubelet condition Unknown. */
export function unknownConditions(current: Condition[], now: number): Condition[] {
  const at = timestamp(now);
  return KUBELET_CONDITIONS.map(([type]) => {
    const existing = current.find((c) => c.type === type);
    return {
      type,
      status: 'Unknown',
      lastHeartbeatTime: existing?.lastHeartbeatTime ?? at,
      lastTransitionTime: existing?.status === 'Unknown' && existing.lastTransitionTime ? existing.lastTransitionTime : at,
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    };
  });
}

/** The taints node-lifecycle wants, keeping user taints and the timeAdded of kept ones. */
export function desiredTaints(node: KubeObject, options: { unreachable: boolean; now: number }): Taint[] {
  const spec = (node['spec'] as { taints?: Taint[]; unschedulable?: boolean } | undefined) ?? {};
  const current = spec.taints ?? [];
  const wanted: Taint[] = [];
  if (spec.unschedulable) wanted.push({ key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule' });
  if (options.unreachable) wanted.push({ key: UNREACHABLE_TAINT, effect: 'NoSchedule' }, { key: UNREACHABLE_TAINT, effect: 'NoExecute' });
  const kept = current.filter((t) => !MANAGED_TAINTS.has(t.key));
  const managed = wanted.map((t) => {
    const existing = current.find((c) => c.key === t.key && c.effect === t.effect);
    return { ...t, timeAdded: existing?.timeAdded ?? timestamp(options.now) };
  });
  return [...kept, ...managed];
}
