import { describe, expect, it } from 'vitest';
import { createEventStore } from '../../../../electron/engine/events/event-store.ts';
import { listEvents } from '../../../../electron/engine/events/list.ts';
import { normalizeEvent, UNKNOWN_CONTROLLER } from '../../../../electron/engine/events/normalize.ts';
import { KUBELET_BACKOFF, LEGACY_SOURCE_ONLY, SCALING_REPLICASET, SCHEDULED_CORE, SCHEDULED_V1, SCHEDULER_FAILED_V1, at, slim } from './fixtures.ts';

const NOW = at('2025-05-02T10:00:00Z');
const record = (raw: { apiVersion: string; [field: string]: unknown }) => normalizeEvent(slim(raw), NOW);
const page = { offset: 0, limit: 50 };

describe('normalizeEvent', () => {
  it('reads a kubelet Event of the legacy recorder: count, first and last timestamps, node', () => {
    expect(record(KUBELET_BACKOFF)).toMatchObject({
      type: 'Warning',
      reason: 'BackOff',
      controller: 'kubelet',
      instance: 'kind-worker',
      kind: 'Pod',
      namespace: 'shop',
      name: 'web-7d4b9c8f6d-x2x9k',
      fieldPath: 'spec.containers{web}',
      first: at('2025-05-02T09:14:35Z'),
      last: at('2025-05-02T09:18:35Z'),
      count: 23,
    });
  });

  it('reads an events.k8s.io/v1 Event with a series: eventTime, series.count and lastObservedTime, reportingController, note', () => {
    const r = record(SCHEDULER_FAILED_V1);
    expect(r).toMatchObject({ type: 'Warning', reason: 'FailedScheduling', controller: 'default-scheduler', instance: 'default-scheduler-kind-control-plane', count: 4, kind: 'Pod', name: 'checkout-5f8d7b6c9-q7w2e' });
    expect(r.first).toBe(at('2025-05-02T09:15:02.118Z'));
    expect(r.last).toBe(at('2025-05-02T09:17:32.508Z'));
    expect(r.message).toMatch(/^0\/3 nodes are available/);
  });

  it('gives one stored Event the same record through either API', () => {
    const fromEvents = record(SCHEDULED_V1);
    expect(record(SCHEDULED_CORE)).toEqual(fromEvents);
    expect(fromEvents).toMatchObject({ controller: 'default-scheduler', count: 1, first: at('2025-05-02T09:14:01.482Z'), last: at('2025-05-02T09:14:01.482Z') });
  });

  it('falls back to source.component when reportingComponent is empty, and names no reporter "(unknown)"', () => {
    expect(record(LEGACY_SOURCE_ONLY).controller).toBe('replicaset-controller');
    const anonymous = { ...LEGACY_SOURCE_ONLY, metadata: { ...LEGACY_SOURCE_ONLY.metadata, uid: 'anon' }, source: {} };
    expect(record(anonymous).controller).toBe(UNKNOWN_CONTROLLER);
  });

  it('dates an Event with no time at all by its creationTimestamp, and caps a huge message', () => {
    const bare = { ...SCALING_REPLICASET, firstTimestamp: null, lastTimestamp: null, message: 'x'.repeat(5_000) };
    const r = record(bare);
    expect(r.first).toBe(at('2025-05-02T09:14:00Z'));
    expect(r.message.length).toBe(1_000);
  });
});

describe('event store', () => {
  it('counts the same Event seen through core/v1 and events.k8s.io/v1 once', () => {
    const store = createEventStore();
    store.upsert(record(SCHEDULED_V1));
    store.upsert(record(SCHEDULED_CORE));
    expect(store.size()).toBe(1);
    expect(listEvents(store.values(), page).events).toEqual([expect.objectContaining({ id: SCHEDULED_V1.metadata.uid, reason: 'Scheduled', count: 1, expired: false })]);
  });

  it('merges one occurrence written by both recorders (two uids) into one, keeping the larger count', () => {
    const store = createEventStore();
    const legacy = { ...SCHEDULED_CORE, metadata: { ...SCHEDULED_CORE.metadata, uid: 'legacy-copy' }, firstTimestamp: '2025-05-02T09:14:01Z', lastTimestamp: '2025-05-02T09:14:01Z', count: 1, eventTime: null, source: { component: 'default-scheduler' } };
    store.upsert(record(SCHEDULED_V1));
    store.upsert(record(legacy));
    expect(store.size()).toBe(1);
    const [merged] = [...store.values()];
    expect(merged?.members.map((m) => m.record.uid)).toEqual([SCHEDULED_V1.metadata.uid, 'legacy-copy']);
    expect(merged?.first).toBe(at('2025-05-02T09:14:01Z'));
    // Expiring one copy keeps the occurrence live; expiring both marks it expired, still kept.
    store.expire('legacy-copy');
    expect(merged?.expired).toBe(false);
    store.expire(SCHEDULED_V1.metadata.uid);
    expect(listEvents(store.values(), page).events[0]?.expired).toBe(true);
  });

  it('does not merge two different occurrences of one reason on one object', () => {
    const store = createEventStore();
    store.upsert(record(SCALING_REPLICASET));
    store.upsert(record({ ...SCALING_REPLICASET, metadata: { ...SCALING_REPLICASET.metadata, uid: 'scale-2' }, message: 'Scaled up replica set web-7d4b9c8f6d from 1 to 3' }));
    store.upsert(record({ ...SCALING_REPLICASET, metadata: { ...SCALING_REPLICASET.metadata, uid: 'scale-3' }, firstTimestamp: '2025-05-02T09:20:00Z', lastTimestamp: '2025-05-02T09:20:00Z' }));
    expect(store.size()).toBe(3);
  });

  it('updates a repeated Event in place (count and lastTimestamp grow)', () => {
    const store = createEventStore();
    store.upsert(record(KUBELET_BACKOFF));
    store.upsert(record({ ...KUBELET_BACKOFF, count: 24, lastTimestamp: '2025-05-02T09:23:35Z' }));
    expect(store.size()).toBe(1);
    expect([...store.values()][0]).toMatchObject({ count: 24, last: at('2025-05-02T09:23:35Z') });
  });

  it('stays within maxEvents, forgetting the least recently active first', () => {
    const store = createEventStore({ maxEvents: 100 });
    for (let i = 0; i < 250; i += 1) {
      const time = new Date(at('2025-05-02T09:00:00Z') + i * 1_000).toISOString();
      store.upsert(record({ ...SCALING_REPLICASET, metadata: { ...SCALING_REPLICASET.metadata, uid: `e-${i}` }, firstTimestamp: time, lastTimestamp: time }));
    }
    expect(store.size()).toBeLessThanOrEqual(110);
    const kept = [...store.values()].map((e) => Number(e.id.slice(2)));
    expect(Math.min(...kept)).toBeGreaterThan(130);
    expect(kept).toContain(249);
  });
});

describe('listEvents', () => {
  const store = createEventStore();
  for (const raw of [KUBELET_BACKOFF, SCHEDULER_FAILED_V1, SCHEDULED_V1, SCALING_REPLICASET, LEGACY_SOURCE_ONLY]) store.upsert(record(raw));

  it('pages newest first with facets of the controller and range, before the other filters', () => {
    const all = listEvents(store.values(), { offset: 0, limit: 2 });
    expect(all.total).toBe(5);
    expect(all.events.map((e) => e.reason)).toEqual(['BackOff', 'FailedScheduling']);
    expect(listEvents(store.values(), { offset: 2, limit: 2 }).events.map((e) => e.reason)).toEqual(['Scheduled', 'ScalingReplicaSet']);
    const warnings = listEvents(store.values(), { offset: 0, limit: 10, type: 'Warning' });
    expect(warnings.total).toBe(2);
    expect(warnings.facets.types).toEqual([
      { value: 'Normal', count: 3 },
      { value: 'Warning', count: 2 },
    ]);
  });

  it('filters by controller, reason, namespace and object (Kind/name substring or uid)', () => {
    expect(listEvents(store.values(), { ...page, controller: 'kubelet' }).events.map((e) => e.reason)).toEqual(['BackOff']);
    expect(listEvents(store.values(), { ...page, reason: 'Scheduled' }).total).toBe(1);
    expect(listEvents(store.values(), { ...page, namespace: 'payments' }).total).toBe(0);
    expect(listEvents(store.values(), { ...page, object: 'pod/web-7d4b' }).events.map((e) => e.reason)).toEqual(['BackOff', 'Scheduled']);
    expect(listEvents(store.values(), { ...page, object: '2e4a6c8e-0b2d-4f6a-8c0e-4b6d8f0a2c4e' }).events.map((e) => e.reason)).toEqual(['ScalingReplicaSet']);
  });

  it('keeps to a time range: an Event counts when any of its occurrences falls inside', () => {
    const range = { from: at('2025-05-02T09:16:00Z'), to: at('2025-05-02T09:17:00Z') };
    expect(listEvents(store.values(), { ...page, ...range }).events.map((e) => e.reason)).toEqual(['BackOff', 'FailedScheduling']);
  });
});
