/**
 * Node helpers shared by kubelet, node-lifecycle and the scheduler: whether a node's (simulated)
 * kubelet is alive, its addresses and pod CIDR.
 */
import type { KubeObject } from '../types.ts';

/**
 * Set to `stopped` on a Node to simulate its kubelet going silent (a crashed or partitioned
 * machine): heartbeats stop, its pods freeze, and node-lifecycle marks it NotReady.
 */
export const HEARTBEAT_ANNOTATION = 'simcluster.kubedrift.dev/heartbeat';

export function isKubeletRunning(node: KubeObject): boolean {
  return node.metadata.annotations?.[HEARTBEAT_ANNOTATION] !== 'stopped';
}

/** The node's InternalIP, as pods report in `status.hostIP`. */
export function nodeInternalIP(node: KubeObject): string | undefined {
  const addresses = ((node['status'] as { addresses?: Array<{ type: string; address: string }> } | undefined)?.addresses) ?? [];
  return addresses.find((a) => a.type === 'InternalIP')?.address;
}

/** `spec.podCIDR` (`10.244.1.0/24`), if the node has one. */
export function nodePodCIDR(node: KubeObject): string | undefined {
  return (node['spec'] as { podCIDR?: string } | undefined)?.podCIDR;
}
