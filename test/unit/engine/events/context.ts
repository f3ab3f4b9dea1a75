/**
 * A minimal EngineContext for feature tests: a real ObjectCache and StreamHub, an injected clock,
 * and a context switch that behaves like the engine's (cache cleared silently, then listeners).
 */
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { EventsChanged } from '../../../../shared/contracts/events.ts';
import type { EngineContext, SelectedContext } from '../../../../electron/engine/features.ts';
import { StreamHub } from '../../../../electron/engine/hub.ts';
import type { SettingsStore } from '../../../../electron/engine/settings.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';

export function fakeContext(now: () => number) {
  const cache = new ObjectCache();
  const hub = new StreamHub();
  const listeners = new Set<(context: SelectedContext | null) => void>();
  let selected: SelectedContext | null = { name: 'kind-dev', demo: false };
  const changes: EventsChanged[] = [];
  hub.listen((stream, payload) => {
    if (stream === 'events:changed') changes.push(payload as EventsChanged);
  });
  const context: EngineContext = {
    version: 'test',
    dataDir: '/nonexistent',
    now,
    log: () => {},
    hub,
    settings: undefined as unknown as SettingsStore,
    cache,
    selected: () => selected,
    onContextChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clientConfig: () => Promise.resolve(undefined),
    objectsAt: () => Promise.reject(new Error('no history in this test')),
    provideObjectsAt: () => {},
  };
  return {
    context,
    cache,
    changes,
    switchTo(name: string): void {
      cache.clear();
      selected = { name, demo: false };
      for (const listener of listeners) listener(selected);
    },
  };
}

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
  return { apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', kind, metadata, spec: {}, status, ...o.extra } as SlimObject;
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
