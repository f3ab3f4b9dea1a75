/**
 * Node objects for a scenario's `spec.nodes`, labelled and tainted as kubeadm and a cloud
 * provider would leave them; node-lifecycle fills in the rest of the status on registration.
 */
import type { IncomingObject } from '../types.ts';
import type { ScenarioNode } from './schema.ts';

const CONTROL_PLANE_ROLE = 'node-role.kubernetes.io/control-plane';

/** The Node object for one `spec.nodes` entry (capacity in status; node-lifecycle registers the rest). */
export function nodeManifest(node: ScenarioNode): IncomingObject {
  const controlPlane = node.role === 'control-plane';
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': node.name,
    'kubernetes.io/os': 'linux',
    ...(controlPlane ? { [CONTROL_PLANE_ROLE]: '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' } : {}),
    ...(node.zone ? { 'topology.kubernetes.io/zone': node.zone } : {}),
    ...node.labels,
  };
  const taints = [...(controlPlane && !node.taints.some((t) => t.key === CONTROL_PLANE_ROLE) ? [{ key: CONTROL_PLANE_ROLE, effect: 'NoSchedule' }] : []), ...node.taints];
  const capacity = { cpu: node.cpu, 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: node.memory, pods: String(node.pods) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: node.name,
      labels,
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: taints.length > 0 ? { taints } : {},
    status: { capacity, allocatable: { ...capacity } },
  };
}
