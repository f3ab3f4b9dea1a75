/**
 * Creations, updates and deletions of pods straight through the store at a steady pace, so
 * informers have objects appearing and disappearing (the churn generator only modifies).
 * Names are never reused: client-node keys its cache by name, and a name reused under a new
 * uid would hide a lost DELETE.
 */
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import type { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';

export const PODS = typeById('pods') as ResourceType;
const NAMESPACES = typeById('namespaces') as ResourceType;

/** A pod as `kubectl run` would post it. */
export function podManifest(namespace: string, name: string): { apiVersion: 'v1'; kind: 'Pod'; metadata: { name: string; namespace: string; labels: Record<string, string> }; spec: { containers: Array<{ name: string; image: string }> } } {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels: { run: name } }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } };
}

/** Pace and size of the traffic. */
export interface PodTrafficOptions {
  namespace?: string;
  intervalMs?: number;
  /** Live traffic pods beyond this many get the oldest deleted. Default 8. */
  keep?: number;
}

/** A running traffic generator and what it has done. */
export interface PodTraffic {
  readonly counters: { created: number; updated: number; deleted: number };
  stop(): void;
}

/** Each tick creates a pod, relabels a live one and deletes the oldest beyond `keep`. */
export function startPodTraffic(store: ObjectStore, options: PodTrafficOptions = {}): PodTraffic {
  const namespace = options.namespace ?? 'traffic';
  const keep = options.keep ?? 8;
  if (!store.find(NAMESPACES, undefined, namespace)) {
    store.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  }
  const counters = { created: 0, updated: 0, deleted: 0 };
  const live: string[] = [];
  const tick = (): void => {
    const name = `traffic-${counters.created}`;
    store.create(PODS, podManifest(namespace, name));
    live.push(name);
    counters.created += 1;
    const target = live[counters.created % live.length] as string;
    store.mutate(PODS, namespace, target, (copy) => {
      copy.metadata.labels = { ...copy.metadata.labels, tick: String(counters.created) };
    });
    counters.updated += 1;
    if (live.length > keep) {
      store.delete(PODS, namespace, live.shift() as string);
      counters.deleted += 1;
    }
  };
  const timer = setInterval(tick, options.intervalMs ?? 40);
  return {
    counters,
    stop: () => clearInterval(timer),
  };
}
