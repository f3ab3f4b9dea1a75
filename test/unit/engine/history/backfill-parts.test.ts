/**
 * The backfill in two parts: everything but Events starts as soon as only the Events are still
 * listing (they are the most numerous kind and list last), the Events' part when they have
 * listed; together they write what one run over everything writes. A reconnect rewrites no row
 * whose content is unchanged, and still updates one that changed.
 */
import { describe, expect, it } from 'vitest';
import { backfillStage, runBackfill } from '../../../../electron/engine/history/backfill-run.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { seedHistory } from '../../../../electron/engine/simcluster/scenarios/aging.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KindHealth, KindKey, SlimObject } from '../../../../shared/cluster.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

const NOW = Date.UTC(2026, 10, 28, 0, 0, 0);

const SOURCES = [
  { kind: 'deployments.apps', objectKind: 'Deployment', apiVersion: 'apps/v1' },
  { kind: 'replicasets.apps', objectKind: 'ReplicaSet', apiVersion: 'apps/v1' },
  { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' },
  { kind: 'jobs.batch', objectKind: 'Job', apiVersion: 'batch/v1' },
  { kind: 'events', objectKind: 'Event', apiVersion: 'v1' },
];

/** An aged simulated cluster's objects (40 minutes old, so its rollouts' Events are kept), with their kind keys. */
function agedCluster(): { objects: SlimObject[]; kinds: KindKey[] } {
  const store = new ObjectStore({ now: () => NOW });
  seedHistory(store, { ageMs: 40 * 60_000, now: NOW, namespace: 'aged', revisions: 3 });
  const objects: SlimObject[] = [];
  const kinds: KindKey[] = [];
  for (const source of SOURCES) {
    const type = typeById(source.kind);
    if (!type) throw new Error(`no ${source.kind}`);
    for (const raw of store.all(type, 'aged')) {
      objects.push(slimObject(raw, source));
      kinds.push(source.kind);
    }
  }
  return { objects, kinds };
}

const health = (states: Record<string, KindHealth['state']>): KindHealth[] => Object.entries(states).map(([kind, state]) => ({ kind, state, count: 0, since: NOW }) as KindHealth);

describe('backfillStage', () => {
  it('says none while any kind but Events lists, objects while only Events list, all once every kind listed', () => {
    expect(backfillStage([])).toBe('none');
    expect(backfillStage(health({ pods: 'syncing', events: 'syncing', 'replicasets.apps': 'live' }))).toBe('none');
    expect(backfillStage(health({ pods: 'live', events: 'syncing', 'replicasets.apps': 'live' }))).toBe('objects');
    // A kind the server refuses is not waited for.
    expect(backfillStage(health({ pods: 'live', events: 'live', nodes: 'forbidden' }))).toBe('all');
  });
});

describe('the backfill in two parts', () => {
  let h: StoreHarness;
  harnessPerTest((harness) => (h = harness));

  const rows = () => h.store.db.prepare('SELECT id, object_uid, workload_uid, fact, at, end_at, detail FROM inferred ORDER BY id').all();

  it('writes from the objects before the Events have listed, then the Events, the same rows as one run over everything', async () => {
    const { objects, kinds } = agedCluster();
    h.clock.set(NOW);
    objects.forEach((object, i) => kinds[i] !== 'events' && upsertBuiltin(h.cache, object));
    h.store.objectsListed();
    objects.forEach((object, i) => kinds[i] === 'events' && upsertBuiltin(h.cache, object));
    const result = await h.store.synced();
    const split = rows();
    expect(split.some((r) => (r as { fact: string }).fact === 'event')).toBe(true);
    expect(split.some((r) => (r as { fact: string }).fact === 'rollout')).toBe(true);
    expect(result?.added).toBe(split.length);

    h.store.db.exec('DELETE FROM inferred');
    await runBackfill({ db: h.store.db, objects, kinds, now: h.clock.now });
    expect(rows()).toEqual(split);
  });

  it('rewrites no unchanged row on a reconnect, adds none, and still updates a row whose Event was seen again', async () => {
    const { objects, kinds } = agedCluster();
    h.clock.set(NOW);
    const db = h.store.db;
    db.exec("CREATE TEMP TABLE updated (id TEXT); CREATE TEMP TRIGGER inferred_updated AFTER UPDATE ON main.inferred BEGIN INSERT INTO updated VALUES (new.id); END;");
    const first = await runBackfill({ db, objects, kinds, now: h.clock.now });
    expect(first.added).toBeGreaterThan(0);
    const again = await runBackfill({ db, objects, kinds, now: h.clock.now });
    expect(again).toMatchObject({ rows: first.rows, added: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM updated').get()).toEqual({ n: 0 });

    // One Event repeated since: its row's span and count change, and only that row is rewritten.
    const index = objects.findIndex((o, i) => kinds[i] === 'events' && typeof (o as unknown as { count?: number }).count === 'number');
    const event = structuredClone(objects[index]) as unknown as { count: number; lastTimestamp: string; involvedObject: { uid: string } };
    event.count += 1;
    event.lastTimestamp = new Date(NOW - 60_000).toISOString();
    const changed = objects.map((o, i) => (i === index ? (event as unknown as SlimObject) : o));
    const third = await runBackfill({ db, objects: changed, kinds, now: h.clock.now });
    expect(third.added).toBe(0);
    const updated = db.prepare('SELECT id FROM updated').all() as Array<{ id: string }>;
    expect(updated).toHaveLength(1);
    expect(db.prepare('SELECT object_uid AS uid, end_at AS endAt FROM inferred WHERE id = ?').get(updated[0]?.id as string)).toEqual({ uid: event.involvedObject.uid, endAt: NOW - 60_000 });
  });
});
