/**
 * Records core/v1 Events the way client-go's recorder does: named `<object>.<hex of the time in
 * nanoseconds>` (so a list, which is ordered by name, shows an object's events in the order they
 * happened, as `kubectl get events` and `describe` do on a real cluster), aggregated
 * (a repeat of the same object/reason/message/source bumps `count` and `lastTimestamp` instead
 * of creating a new Event), with `source.component` and `reportingComponent` set to the
 * controller's Kubernetes name.
 */
import { typeById } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';

export interface EventInput {
  /** The object the event is about. */
  regarding: KubeObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** `deployment-controller`, `kubelet`, `default-scheduler`, ... */
  component: string;
  /** The node, for kubelet events. */
  host?: string;
  /** e.g. `spec.containers{web}` for container events. */
  fieldPath?: string;
}

const EVENTS = typeById('events');

function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A core/v1 Event's `involvedObject` for `regarding` (no namespace for a cluster-scoped one). */
export function involvedObjectOf(regarding: KubeObject, fieldPath?: string): Record<string, unknown> {
  const involvedObject: Record<string, unknown> = {
    kind: regarding.kind,
    namespace: regarding.metadata.namespace,
    name: regarding.metadata.name,
    uid: regarding.metadata.uid,
    apiVersion: regarding.apiVersion,
    resourceVersion: regarding.metadata.resourceVersion,
  };
  if (!regarding.metadata.namespace) delete involvedObject['namespace'];
  if (fieldPath) involvedObject['fieldPath'] = fieldPath;
  return involvedObject;
}

export class EventRecorder {
  private readonly store: ObjectStore;
  private readonly now: () => number;
  /** Aggregation key -> event name, like client-go's EventCorrelator cache. */
  private readonly recent = new Map<string, { namespace: string; name: string }>();
  /** The last name suffix handed out: events recorded within one millisecond still get increasing, distinct names. */
  private lastNanos = 0n;

  constructor(store: ObjectStore, now: () => number) {
    this.store = store;
    this.now = now;
  }

  record(input: EventInput): KubeObject | undefined {
    if (!EVENTS) return undefined;
    const { regarding } = input;
    const namespace = regarding.metadata.namespace ?? 'default';
    const aggregateKey = [regarding.metadata.uid, input.type, input.reason, input.message, input.component, input.host ?? '', input.fieldPath ?? ''].join('\u0001');
    const at = timestamp(this.now());
    const previous = this.recent.get(aggregateKey);
    if (previous) {
      const existing = this.store.find(EVENTS, previous.namespace, previous.name);
      if (existing) {
        return this.store.mutate(EVENTS, previous.namespace, previous.name, (copy) => {
          copy['count'] = Number(copy['count'] ?? 1) + 1;
          copy['lastTimestamp'] = at;
        });
      }
    }
    const nanos = BigInt(this.now()) * 1_000_000n;
    this.lastNanos = nanos > this.lastNanos ? nanos : this.lastNanos + 1n;
    const name = `${regarding.metadata.name}.${this.lastNanos.toString(16)}`;
    const involvedObject = involvedObjectOf(regarding, input.fieldPath);
    const event = this.store.create(EVENTS, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject,
      reason: input.reason,
      message: input.message,
      source: input.host ? { component: input.component, host: input.host } : { component: input.component },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
      type: input.type,
      eventTime: null,
      reportingComponent: input.component,
      reportingInstance: input.host ?? `${input.component}-simcluster`,
    });
    this.recent.set(aggregateKey, { namespace, name });
    if (this.recent.size > 10_000) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
    return event;
  }
}
