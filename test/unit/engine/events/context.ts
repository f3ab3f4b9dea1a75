/**
 * Slim objects and core/v1 Events as the engine cache holds them, for the events feature tests.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';
import { builtinKind, LEGACY_KIND_KEYS } from '../../../../shared/builtin-kinds.ts';
import { apiVersionOf } from '../../../../shared/kinds.ts';

let rv = 1;

interface WorkloadOptions {
  namespace?: string;
  generation?: number;
  observedGeneration?: number;
  owner?: SlimObject;
  created?: string;
  extra?: Record<string, unknown>;
}

/** A slim object of `kind` as the cache holds it. */
export function object(kind: SlimObject['kind'], name: string, uid: string, o: WorkloadOptions = {}): SlimObject {
  rv += 1;
  const metadata: SlimObject['metadata'] = { name, uid, namespace: o.namespace ?? 'shop', resourceVersion: String(rv), creationTimestamp: o.created ?? '2025-05-02T09:00:00Z' };
  if (o.generation !== undefined) metadata.generation = o.generation;
  if (o.owner) metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: o.owner.kind, name: o.owner.metadata.name, uid: o.owner.metadata.uid, controller: true }];
  const status = o.observedGeneration !== undefined ? { observedGeneration: o.observedGeneration } : {};
  const ref = LEGACY_KIND_KEYS[kind] === undefined ? undefined : builtinKind(LEGACY_KIND_KEYS[kind] as string)?.ref;
  return { apiVersion: ref ? apiVersionOf(ref) : 'apps/v1', kind, metadata, spec: {}, status, ...o.extra } as SlimObject;
}

/** A core/v1 Event about `about`, reported by `component`, at `time`. */
export function event(uid: string, about: SlimObject, reason: string, component: string, time: string, o: { type?: string; count?: number; last?: string; message?: string } = {}): SlimObject {
  rv += 1;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${about.metadata.name}.${uid}`, namespace: about.metadata.namespace ?? 'default', uid, resourceVersion: String(rv) },
    involvedObject: { kind: about.kind, namespace: about.metadata.namespace, name: about.metadata.name, uid: about.metadata.uid },
    reason,
    message: o.message ?? `${reason} ${about.metadata.name}`,
    source: { component },
    firstTimestamp: time,
    lastTimestamp: o.last ?? time,
    count: o.count ?? 1,
    type: o.type ?? 'Normal',
    reportingComponent: component,
  } as SlimObject;
}
