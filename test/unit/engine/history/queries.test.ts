import { describe, expect, it } from 'vitest';
import { driftCountSteps } from '../../../../electron/engine/history/episode-query.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { deployment, replicaSet } from './fixtures.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

let h: StoreHarness;
harnessPerTest((next) => (h = next));

const ALL = { from: 0, to: Number.MAX_SAFE_INTEGER };

/** Three workloads: web drifts 0-10 s, api 5-65 s, db (another namespace) drifts from 20 s on. */
async function threeEpisodes(): Promise<number> {
  const t0 = h.clock.now();
  upsertBuiltin(h.cache, deployment('web', 'w', { ready: 0 }));
  upsertBuiltin(h.cache, deployment('api', 'a'));
  upsertBuiltin(h.cache, deployment('db', 'd', {}, 'data'));
  h.clock.set(t0 + 5_000);
  upsertBuiltin(h.cache, deployment('api', 'a', { ready: 1 }));
  h.clock.set(t0 + 10_000);
  upsertBuiltin(h.cache, deployment('web', 'w'));
  h.clock.set(t0 + 20_000);
  upsertBuiltin(h.cache, deployment('db', 'd', { ready: 0, replicas: 3 }, 'data'));
  h.clock.set(t0 + 65_000);
  upsertBuiltin(h.cache, deployment('api', 'a'));
  h.clock.set(t0 + 100_000);
  await h.store.flush();
  return t0;
}

describe('episode list', () => {
  it('lists the episodes overlapping a range with the drift count as steps', async () => {
    const t0 = await threeEpisodes();
    const list = h.store.episodes.episodes({ from: t0 + 8_000, to: t0 + 30_000 });
    expect(list.episodes.map((e) => e.workload.name)).toEqual(['web', 'api', 'db']);
    expect(list.truncated).toBe(false);
    expect(list.driftCount).toEqual([
      [t0 + 8_000, 2],
      [t0 + 10_000, 1],
      [t0 + 20_000, 2],
      [t0 + 30_000, 2],
    ]);
    expect(h.store.episodes.episodes({ from: t0 + 11_000, to: t0 + 19_000 }).episodes.map((e) => e.workload.name)).toEqual(['api']);
  });

  it('filters by namespace, kind, ongoing and minimum duration', async () => {
    const t0 = await threeEpisodes();
    const names = (query: Parameters<StoreHarness['store']['episodes']['episodes']>[0]) => h.store.episodes.episodes(query).episodes.map((e) => e.workload.name);
    expect(names({ ...ALL, namespace: 'data' })).toEqual(['db']);
    expect(names({ ...ALL, kind: 'statefulsets.apps' })).toEqual([]);
    expect(names({ ...ALL, ongoingOnly: true })).toEqual(['db']);
    expect(names({ ...ALL, minDurationMs: 30_000 })).toEqual(['api', 'db']);
    const ongoing = h.store.episodes.episodes({ ...ALL, namespace: 'data' }).episodes[0];
    expect(ongoing).toMatchObject({ end: null, durationMs: 80_000, peakGap: 3 });
    expect(h.store.episodes.episodes({ from: t0, to: t0 + 100_000, namespace: 'shop' }).driftCount.at(-1)).toEqual([t0 + 100_000, 0]);
  });

  it('keeps the episodes covering most of the range when truncated', async () => {
    await threeEpisodes();
    const list = h.store.episodes.episodes({ ...ALL, limit: 2 });
    expect(list.truncated).toBe(true);
    expect(list.episodes.map((e) => e.workload.name)).toEqual(['api', 'db']);
  });

  it('counts a ReplicaSet run by a Deployment as that Deployment, not as a workload of its own', async () => {
    const t0 = h.clock.now();
    const notReady = (object: SlimObject): SlimObject => ({ ...object, status: { replicas: 2, readyReplicas: 0, availableReplicas: 0, observedGeneration: 1 } }) as SlimObject;
    upsertBuiltin(h.cache, deployment('web', 'w', { replicas: 2, ready: 0 }));
    upsertBuiltin(h.cache, notReady(replicaSet('web-5d8f7', 'rs-w', 'w')));
    // A ReplicaSet nothing runs (its owner is no Deployment the history knows) is a workload.
    upsertBuiltin(h.cache, notReady({ ...replicaSet('legacy', 'rs-l', 'w'), metadata: { uid: 'rs-l', name: 'legacy', namespace: 'shop', resourceVersion: '1', generation: 1 } } as SlimObject));
    h.clock.set(t0 + 10_000);
    await h.store.flush();
    // Still listing: ownership is not written yet, so nothing is known to run the ReplicaSets.
    expect(h.store.episodes.episodes({ from: t0, to: t0 + 10_000 }).driftCount.at(-1)).toEqual([t0 + 10_000, 3]);
    h.store.synced();
    await h.store.flush();
    const all = h.store.episodes.episodes({ from: t0, to: t0 + 10_000 });
    expect(all.episodes.map((e) => [e.workload.name, e.controller?.name ?? null])).toEqual([
      ['web', null],
      ['web-5d8f7', 'web'],
      ['legacy', null],
    ]);
    expect(all.driftCount.at(-1)).toEqual([t0 + 10_000, 2]);
    // Asked for ReplicaSets, every ReplicaSet counts; the ongoing filter does not change what drifting means.
    expect(h.store.episodes.episodes({ from: t0, to: t0 + 10_000, kind: 'replicasets.apps' }).driftCount.at(-1)).toEqual([t0 + 10_000, 2]);
    expect(h.store.episodes.episodes({ from: t0, to: t0 + 10_000, ongoingOnly: true }).driftCount.at(-1)).toEqual([t0 + 10_000, 2]);
    expect(h.store.episodes.episode(all.episodes[1]!.id)?.controller).toMatchObject({ kind: 'deployments.apps', name: 'web', uid: 'w' });
  });

  it('counts episodes that began before the range and ended inside it', () => {
    expect(
      driftCountSteps(
        [
          { start_at: 0, end_at: 50 },
          { start_at: 10, end_at: null },
          { start_at: 60, end_at: 70 },
          { start_at: 60, end_at: 200 },
        ],
        20,
        100,
      ),
    ).toEqual([
      [20, 2],
      [50, 1],
      [60, 3],
      [70, 2],
      [100, 2],
    ]);
  });
});

describe('compare', () => {
  it('names what changed between two times, and what was created or deleted', async () => {
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'w'));
    upsertBuiltin(h.cache, deployment('old', 'o'));
    h.clock.set(t0 + 10_000);
    upsertBuiltin(h.cache, deployment('web', 'w', { replicas: 4, ready: 2, generation: 2 }));
    h.cache.delete('deployments.apps', 'o');
    upsertBuiltin(h.cache, deployment('new', 'n', {}, 'data'));
    h.clock.set(t0 + 20_000);
    await h.store.flush();
    const changes = h.store.compare(t0 + 5_000, t0 + 15_000);
    expect(changes.map((c) => [c.workload.name, c.changed])).toEqual([
      ['new', ['created']],
      ['old', ['deleted']],
      ['web', ['desired', 'current', 'updated', 'unavailable', 'generation', 'observedGeneration', 'availableCondition']],
    ]);
    const web = changes.find((c) => c.workload.name === 'web');
    expect(web?.before).toMatchObject({ desired: 2, ready: 2 });
    expect(web?.after).toMatchObject({ desired: 4, ready: 2 });
    expect(h.store.compare(t0 + 5_000, t0 + 15_000, 'data').map((c) => c.workload.name)).toEqual(['new']);
    expect(h.store.compare(t0 + 15_000, t0 + 16_000)).toEqual([]);
  });
});

describe('series', () => {
  it('starts with the value in effect at the range start and downsamples to maxPoints', async () => {
    const t0 = h.clock.now();
    for (let i = 0; i < 3_000; i++) {
      upsertBuiltin(h.cache, deployment('web', 'w', { ready: i % 3 }));
      h.clock.advance(1_000);
    }
    await h.store.flush();
    const result = h.store.series({ uid: 'w', from: t0 + 500, to: t0 + 2_999_000, maxPoints: 200 });
    expect(result?.rawSamples).toBe(2_999);
    const ready = result?.series.find((s) => s.name === 'ready')?.points ?? [];
    expect(ready.length).toBeLessThanOrEqual(200);
    expect(ready[0]).toEqual([t0 + 500, 0]);
    expect(ready.at(-1)).toEqual([t0 + 2_999_000, 2]);
    expect(h.store.series({ uid: 'nope', from: 0, to: 1 })).toBeNull();
  });
});
