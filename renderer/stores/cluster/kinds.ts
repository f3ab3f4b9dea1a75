/**
 * How the renderer names the watched kinds. The list itself lives in shared/cluster.ts beside
 * its schema; this file restates it as labels so the bundle does not pull the schema library.
 */
import type { Kind } from '../../../shared/cluster.ts';

export interface KindLabel {
  /** kubectl's resource name, used in running text ("Syncing pods"). */
  resource: string;
  /** For headings and filters ("Deployments"). */
  title: string;
}

/** One entry per watched kind; `satisfies` makes a kind added to the contract fail to compile here. */
export const KIND_LABELS = {
  Namespace: { resource: 'namespaces', title: 'Namespaces' },
  Node: { resource: 'nodes', title: 'Nodes' },
  Pod: { resource: 'pods', title: 'Pods' },
  Service: { resource: 'services', title: 'Services' },
  Deployment: { resource: 'deployments', title: 'Deployments' },
  ReplicaSet: { resource: 'replicasets', title: 'ReplicaSets' },
  StatefulSet: { resource: 'statefulsets', title: 'StatefulSets' },
  DaemonSet: { resource: 'daemonsets', title: 'DaemonSets' },
  Job: { resource: 'jobs', title: 'Jobs' },
  CronJob: { resource: 'cronjobs', title: 'CronJobs' },
  HorizontalPodAutoscaler: { resource: 'horizontalpodautoscalers', title: 'HPAs' },
  Event: { resource: 'events', title: 'Events' },
} as const satisfies Record<Kind, KindLabel>;

export function kindResource(kind: Kind): string {
  return KIND_LABELS[kind].resource;
}
