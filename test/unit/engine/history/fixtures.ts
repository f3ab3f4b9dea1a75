/**
 * Workload objects in their slim form (as the cache holds them) for the history tests, with a
 * Deployment whose status a test moves through a rollout by hand.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';

let rv = 1;

export interface DeploymentState {
  replicas?: number;
  generation?: number;
  observedGeneration?: number;
  current?: number;
  ready?: number;
  available?: number;
  updated?: number;
  image?: string;
  progressing?: { status: 'True' | 'False'; reason: string };
}

export function deployment(name: string, uid: string, state: DeploymentState = {}, namespace = 'shop'): SlimObject {
  const replicas = state.replicas ?? 2;
  const ready = state.ready ?? replicas;
  const status: Record<string, unknown> = {
    observedGeneration: state.observedGeneration ?? state.generation ?? 1,
    replicas: state.current ?? replicas,
    readyReplicas: ready,
    availableReplicas: state.available ?? ready,
    updatedReplicas: state.updated ?? replicas,
    unavailableReplicas: Math.max(0, replicas - (state.available ?? ready)),
    conditions: [
      { type: 'Available', status: (state.available ?? ready) >= replicas ? 'True' : 'False', reason: 'MinimumReplicasAvailable' },
      { type: 'Progressing', status: state.progressing?.status ?? 'True', reason: state.progressing?.reason ?? 'NewReplicaSetAvailable' },
    ],
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { uid, name, namespace, resourceVersion: String(rv++), generation: state.generation ?? 1 },
    spec: { replicas, template: { metadata: {}, spec: { containers: [{ name, image: state.image ?? `${name}:v1` }] } } },
    status,
  } as SlimObject;
}

export function replicaSet(name: string, uid: string, owner: string, namespace = 'shop'): SlimObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { uid, name, namespace, resourceVersion: String(rv++), generation: 1, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', uid: owner, controller: true }] },
    spec: { replicas: 2 },
    status: { replicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 },
  } as SlimObject;
}

export function pod(name: string, uid: string, owner: string, namespace = 'shop'): SlimObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { uid, name, namespace, resourceVersion: String(rv++), ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: owner, controller: true }] },
    spec: { nodeName: 'worker-1', containers: [{ name: 'c', image: 'c:v1' }] },
    status: { phase: 'Running' },
  } as SlimObject;
}

export function event(uid: string, involved: { kind: string; name: string; uid: string }, at: number, type = 'Warning', reason = 'Failed', count = 1): SlimObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { uid, name: `${involved.name}.${uid}`, namespace: 'shop', resourceVersion: String(rv++) },
    involvedObject: { ...involved, namespace: 'shop' },
    reason,
    message: `${reason} happened`,
    type,
    count,
    source: { component: 'kubelet' },
    firstTimestamp: new Date(at).toISOString(),
    lastTimestamp: new Date(at).toISOString(),
  } as SlimObject;
}

/** A manual clock for recorder tests. */
export function manualClock(start = 1_700_000_000_000): { now: () => number; advance: (ms: number) => number; set: (at: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms), set: (t) => (at = t) };
}
