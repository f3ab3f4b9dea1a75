/**
 * How the renderer names kinds. A kind is a key (`deployments.apps`, shared/kinds.ts); the
 * built-in kinds have labels of their own, any other kind is named by its plural.
 */
import { BUILTIN_KEYS, builtinKind } from '../../../shared/builtin-kinds.ts';
import type { KindKey } from '../../../shared/cluster.ts';

export interface KindLabel {
  /** kubectl's resource name, used in running text ("Syncing pods"). */
  resource: string;
  /** For headings and filters ("Deployments"). */
  title: string;
}

/** Labels of the built-in kinds, by kind key. */
export const KIND_LABELS: Readonly<Record<string, KindLabel>> = {
  [BUILTIN_KEYS.Namespace]: { resource: 'namespaces', title: 'Namespaces' },
  [BUILTIN_KEYS.Node]: { resource: 'nodes', title: 'Nodes' },
  [BUILTIN_KEYS.Pod]: { resource: 'pods', title: 'Pods' },
  [BUILTIN_KEYS.Service]: { resource: 'services', title: 'Services' },
  [BUILTIN_KEYS.Deployment]: { resource: 'deployments', title: 'Deployments' },
  [BUILTIN_KEYS.ReplicaSet]: { resource: 'replicasets', title: 'ReplicaSets' },
  [BUILTIN_KEYS.StatefulSet]: { resource: 'statefulsets', title: 'StatefulSets' },
  [BUILTIN_KEYS.DaemonSet]: { resource: 'daemonsets', title: 'DaemonSets' },
  [BUILTIN_KEYS.Job]: { resource: 'jobs', title: 'Jobs' },
  [BUILTIN_KEYS.CronJob]: { resource: 'cronjobs', title: 'CronJobs' },
  [BUILTIN_KEYS.HorizontalPodAutoscaler]: { resource: 'horizontalpodautoscalers', title: 'HPAs' },
  [BUILTIN_KEYS.Event]: { resource: 'events', title: 'Events' },
};

/** The label of a kind: its own for a built-in kind, its key (kubectl's `plural.group`) otherwise. */
export function kindLabel(kind: KindKey): KindLabel {
  return KIND_LABELS[kind] ?? { resource: kind, title: kind };
}

export function kindResource(kind: KindKey): string {
  return kindLabel(kind).resource;
}

/** The Kubernetes kind name of a key (`Deployment`), for text that names one object's kind. */
export function kindName(kind: KindKey): string {
  return builtinKind(kind)?.ref.kind ?? kind;
}
