/**
 * Backfill of the Events the cluster still holds: each becomes one inferred row on its involved
 * object's workload, with the Event's own times (a repeated Event is a span), a deterministic
 * id, and the timeline's episodes answer them beside the inferred rollouts. The aged simulated
 * cluster (simcluster/scenarios/aging.ts) gives exactly one row per Event kept within the TTL,
 * and connecting again adds none.
 */
import { describe, expect, it } from 'vitest';
import { eventFact, objectLookup } from '../../../../electron/engine/history/backfill-events.ts';
import { runBackfill } from '../../../../electron/engine/history/backfill-run.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { seedHistory } from '../../../../electron/engine/simcluster/scenarios/aging.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

const T = (iso: string) => Date.parse(iso);
const NOW = Date.UTC(2026, 10, 28, 0, 0, 0);

const backOff = (count: number, last: string): SlimObject =>
  ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web-7d4b9c-x2x9z.187a', namespace: 'shop', uid: 'ev-1', resourceVersion: '40', creationTimestamp: '2026-11-27T23:10:00Z' },
    involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-7d4b9c-x2x9z', uid: 'p-1', apiVersion: 'v1', fieldPath: 'spec.containers{web}' },
    reason: 'BackOff',
    message: 'Back-off restarting failed container web in pod web-7d4b9c-x2x9z_shop(p-1)',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2026-11-27T23:10:00Z',
    lastTimestamp: last,
    count,
    type: 'Warning',
  }) as unknown as SlimObject;

const owners = new Map([
  ['p-1', 'rs-1'],
  ['rs-1', 'd-1'],
]);
const none = objectLookup([]);

describe('an Event as an inferred row', () => {
  it('puts a pod’s repeated Event on its Deployment as a span from its first to its last time', () => {
    const row = eventFact(backOff(12, '2026-11-27T23:40:00Z'), owners, none);
    expect(row).toMatchObject({ fact: 'event', objectUid: 'p-1', workloadUid: 'd-1', kind: 'Pod', namespace: 'shop', name: 'web-7d4b9c-x2x9z', at: T('2026-11-27T23:10:00Z'), end: T('2026-11-27T23:40:00Z') });
    expect(row?.detail).toBe('Warning BackOff: Back-off restarting failed container web in pod web-7d4b9c-x2x9z_shop(p-1) (12 times over 30 min)');
  });

  it('is a moment when it happened once, and keeps its id while it repeats', () => {
    const once = eventFact(backOff(1, '2026-11-27T23:10:00Z'), owners, none);
    expect(once).toMatchObject({ at: T('2026-11-27T23:10:00Z'), end: null });
    expect(eventFact(backOff(5, '2026-11-27T23:20:00Z'), owners, none)?.id).toBe(once?.id);
  });

  it('reads an events.k8s.io Event by its eventTime and series', () => {
    const scheduled = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-0.18', namespace: 'shop', uid: 'ev-2', creationTimestamp: '2026-11-27T23:50:00Z' },
      involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-0', uid: 'p-1' },
      reason: 'FailedScheduling',
      message: '0/3 nodes are available: 3 Insufficient cpu.',
      type: 'Warning',
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: '2026-11-27T23:41:00.120000Z',
      series: { count: 4, lastObservedTime: '2026-11-27T23:49:00.000000Z' },
    } as unknown as SlimObject;
    expect(eventFact(scheduled, owners, none)).toMatchObject({ at: T('2026-11-27T23:41:00.120Z'), end: T('2026-11-27T23:49:00Z'), workloadUid: 'd-1' });
  });

  it('finds an involved object named without a uid among the listed objects', () => {
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', uid: 'd-1' } } as unknown as SlimObject;
    const scaled = { ...backOff(1, '2026-11-27T23:10:00Z'), involvedObject: { kind: 'Deployment', namespace: 'shop', name: 'web' }, reason: 'ScalingReplicaSet', type: 'Normal' } as unknown as SlimObject;
    expect(eventFact(scaled, owners, objectLookup([deployment]))).toMatchObject({ objectUid: 'd-1', workloadUid: 'd-1' });
  });

  it("leaves out a pod's Normal lifecycle Events, keeps its Warnings and Killing", () => {
    const started = { ...backOff(1, '2026-11-27T23:10:00Z'), reason: 'Started', type: 'Normal', message: 'Started container web' } as unknown as SlimObject;
    expect(eventFact(started, owners, none)).toBeUndefined();
    const killing = { ...started, reason: 'Killing', message: 'Stopping container web' } as unknown as SlimObject;
    expect(eventFact(killing, owners, none)?.detail).toBe('Normal Killing: Stopping container web');
    expect(eventFact({ ...started, type: 'Warning' } as unknown as SlimObject, owners, none)).toBeDefined();
  });

  it('never invents a time: an Event without any is of unknown time', () => {
    const timeless = { ...backOff(3, ''), firstTimestamp: null, lastTimestamp: null, metadata: { name: 'x', namespace: 'shop', uid: 'ev-3' } } as unknown as SlimObject;
    const row = eventFact(timeless, owners, none);
    expect(row).toMatchObject({ at: null, end: null });
    expect(row?.detail).toContain('when is unknown');
  });
});

/** An aged cluster's objects as the informers cache them, Events included (40 minutes old: its rollouts' Events are still kept). */
function agedCluster(ageMs = 40 * 60_000) {
  const store = new ObjectStore({ now: () => NOW });
  const seeded = seedHistory(store, { ageMs, now: NOW, namespace: 'aged', revisions: 3 });
  const objects: SlimObject[] = [];
  const sources = [
    { kind: 'deployments.apps', objectKind: 'Deployment', apiVersion: 'apps/v1' },
    { kind: 'replicasets.apps', objectKind: 'ReplicaSet', apiVersion: 'apps/v1' },
    { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' },
    { kind: 'jobs.batch', objectKind: 'Job', apiVersion: 'batch/v1' },
    { kind: 'events', objectKind: 'Event', apiVersion: 'v1' },
  ];
  for (const source of sources) {
    const type = typeById(source.kind);
    if (!type) throw new Error(`no ${source.kind}`);
    for (const raw of store.all(type, 'aged')) objects.push(slimObject(raw, source));
  }
  return { seeded, objects };
}

describe('backfill of the Events an aged simulated cluster still holds', () => {
  let h: StoreHarness;
  harnessPerTest((harness) => (h = harness));

  const eventRows = () => h.store.db.prepare("SELECT id, object_uid AS objectUid, workload_uid AS workloadUid, name, at, end_at AS end, detail FROM inferred WHERE fact = 'event'").all() as Array<{ id: string; objectUid: string; workloadUid: string; name: string; at: number | null; end: number | null; detail: string }>;

  it('writes one row per Event kept within the TTL (a pod start’s own Events aside), once, and a reconnect adds none', async () => {
    const { seeded, objects } = agedCluster();
    expect(seeded.events.kept.length).toBeGreaterThan(20);
    const reasons = new Set(objects.filter((o) => o.kind === 'Event').map((o) => (o as unknown as { reason: string }).reason));
    for (const reason of ['ScalingReplicaSet', 'SuccessfulCreate', 'Scheduled', 'BackOff', 'Started']) expect(reasons).toContain(reason);
    h.clock.set(NOW);
    for (const object of objects) upsertBuiltin(h.cache, object);
    await h.store.synced();
    const rows = eventRows();
    const events = objects.filter((o) => o.kind === 'Event') as unknown as Array<{ reason: string; type: string; involvedObject: { kind: string } }>;
    expect(events).toHaveLength(seeded.events.kept.length);
    const lifecycle = events.filter((e) => e.involvedObject.kind === 'Pod' && e.type === 'Normal' && ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started'].includes(e.reason));
    expect(lifecycle.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(seeded.events.kept.length - lifecycle.length);
    expect(rows.some((r) => / (Scheduled|Pulled|Created|Started):/.test(r.detail))).toBe(false);
    // Every row has the Event's own time, within the hour kube-apiserver keeps Events.
    for (const row of rows) expect(row.at).toBeGreaterThanOrEqual(NOW - 3_600_000);
    // Pods' Events belong to their Deployment or Job, never to the pod itself.
    const workloads = new Set(objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job').map((o) => o.metadata.uid));
    const podUids = new Set(objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.uid));
    for (const row of rows.filter((r) => podUids.has(r.objectUid))) expect(workloads.has(row.workloadUid)).toBe(true);
    // The crash-looping pod's BackOff was seen twice: a span.
    const backOffs = rows.filter((r) => r.detail.startsWith('Warning BackOff'));
    expect(backOffs.length).toBeGreaterThan(0);
    for (const row of backOffs) expect(row.end).toBeGreaterThan(row.at as number);
    // A three-day-old cluster keeps only its last hour of Events: those, and no more.
    const old = agedCluster(72 * 3_600_000);
    expect(old.seeded.events.expired).toBeGreaterThan(0);
    expect(old.seeded.events.kept.length).toBeLessThan(seeded.events.kept.length);

    const before = rows.map((r) => r.id).sort();
    h.cache.clear();
    h.reopen();
    for (const object of objects.map((o) => structuredClone(o))) upsertBuiltin(h.cache, object);
    const again = await h.store.synced();
    expect(again?.added).toBe(0);
    expect(eventRows().map((r) => r.id).sort()).toEqual(before);
  });

  it('puts the Event of a pod replaced since on the workload the recording saw it belong to', async () => {
    h.clock.set(T('2026-11-28T00:00:00Z'));
    // Recorded while the app ran: the pod under its ReplicaSet under its Deployment.
    h.store.db.exec(`INSERT INTO owners (child_uid, owner_uid, child_kind, first_at) VALUES ('p-1', 'rs-1', 'pods', 1), ('rs-1', 'd-1', 'replicasets.apps', 1)`);
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', uid: 'd-1', creationTimestamp: '2026-11-20T08:00:00Z' } } as unknown as SlimObject;
    const orphan = { ...backOff(3, '2026-11-27T23:20:00Z'), metadata: { name: 'other.1', namespace: 'shop', uid: 'ev-9' }, involvedObject: { kind: 'Pod', namespace: 'shop', name: 'other', uid: 'p-unknown' } } as unknown as SlimObject;
    const objects = [deployment, backOff(3, '2026-11-27T23:20:00Z'), orphan];
    await runBackfill({ db: h.store.db, objects, kinds: ['deployments.apps', 'events', 'events'], now: h.clock.now });
    const rows = eventRows();
    expect(rows.find((r) => r.objectUid === 'p-1')?.workloadUid).toBe('d-1');
    // Nobody recorded the other pod's owner: its Event stays on the pod, never guessed.
    expect(rows.find((r) => r.objectUid === 'p-unknown')?.workloadUid).toBe('p-unknown');
  });

  it("answers the Events with the timeline's episodes, after the rollouts, and with their workload's series", async () => {
    const { objects } = agedCluster();
    h.clock.set(NOW);
    for (const object of objects) upsertBuiltin(h.cache, object);
    await h.store.flush();
    await h.store.synced();
    const list = h.store.episodes.episodes({ from: NOW - 4 * 86_400_000, to: NOW });
    const facts = list.inferred ?? [];
    expect(facts.filter((f) => f.fact === 'event')).toHaveLength(eventRows().length);
    expect(facts.some((f) => f.fact === 'rollout')).toBe(true);
    expect(facts.every((f) => f.fact === 'rollout' || f.fact === 'event')).toBe(true);
    // A namespace filter keeps the involved objects' namespace.
    expect(h.store.episodes.episodes({ from: NOW - 3_600_000, to: NOW, namespace: 'other' }).inferred).toEqual([]);
    const web = objects.find((o) => o.kind === 'Deployment');
    const series = h.store.series({ uid: web?.metadata.uid as string, from: NOW - 3_600_000, to: NOW });
    expect(series?.inferred?.some((f) => f.fact === 'event' && f.detail.includes('ScalingReplicaSet'))).toBe(true);
  });
});
