import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { deployment, event, pod } from './fixtures.ts';
import { MANUAL_TIMING, harnessPerTest, type StoreHarness } from './harness.ts';

let h: StoreHarness;
// Small keyframes, often: the rebuild crosses keyframes, chunks and delta batches.
harnessPerTest((next) => (h = next), { timing: { ...MANUAL_TIMING, keyframeMaxDeltas: 25, keyframeChunkObjects: 7 } });

function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a * 1_103_515_245 + 12_345) % 2 ** 31;
    return a / 2 ** 31;
  };
}

const names = (objects: readonly SlimObject[]) => objects.map((o) => `${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`).sort();

/** Lets the keyframe job (async compression) finish its chunks. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the cluster at a past time', () => {
  it('rebuilds exactly the objects the cache held at every recorded moment', async () => {
    const next = seeded(42);
    const truth: Array<{ at: number; objects: string[] }> = [];
    h.store.synced();
    for (let step = 0; step < 300; step++) {
      const i = Math.floor(next() * 40);
      const roll = next();
      if (roll < 0.15) h.cache.delete('Pod', `p${i}`);
      else if (roll < 0.2) h.cache.upsert(deployment(`d${i % 5}`, `d${i % 5}`, { ready: Math.floor(next() * 3) }));
      else h.cache.upsert(pod(`p${i}`, `p${i}`, 'rs'));
      if (step % 5 === 0) h.cache.upsert(event(`e${step}`, { kind: 'Pod', name: `p${i}`, uid: `p${i}` }, h.clock.now()));
      truth.push({ at: h.clock.now(), objects: names(h.cache.list().filter((o) => o.kind !== 'Event')) });
      h.clock.advance(100 + Math.floor(next() * 900));
      if (step % 10 === 9) {
        await h.store.flush();
        await settle();
      }
    }
    await h.store.flush();
    await settle();
    const keyframes = (h.store.db.prepare('SELECT count(*) AS n FROM keyframes WHERE complete = 1').get() as { n: number }).n;
    expect(keyframes).toBeGreaterThan(3);
    // Forward (the cache continues from the last state) and backward (from a keyframe).
    for (const moment of [...truth.filter((_, i) => i % 7 === 0), ...truth.filter((_, i) => i % 11 === 0).reverse()]) {
      expect(names(await h.store.objectsAt(moment.at))).toEqual(moment.objects);
    }
  });

  it('knows the objects of a deleted workload before its deletion, and not after', async () => {
    const t0 = h.clock.now();
    h.cache.upsert(deployment('web', 'w'));
    h.clock.advance(1_000);
    h.cache.delete('Deployment', 'w');
    await h.store.flush();
    expect(names(await h.store.objectsAt(t0 + 500))).toHaveLength(1);
    expect(await h.store.objectsAt(t0 + 1_500)).toEqual([]);
  });

  it('survives a restart, and a keyframe cut off half written', async () => {
    h.store.synced();
    for (let i = 0; i < 40; i++) {
      h.cache.upsert(pod(`p${i}`, `p${i}`, 'rs'));
      h.clock.advance(100);
    }
    await h.store.flush();
    await settle();
    const at = h.clock.now();
    const before = names(await h.store.objectsAt(at));
    // A keyframe whose chunks never got written (the process died): readers must ignore it.
    h.store.db.prepare('INSERT INTO keyframes (at, after_batch, objects, complete) VALUES (?, 0, 99, 0)').run(at);
    h.store.close();
    h.reopen();
    expect(names(await h.store.objectsAt(at))).toEqual(before);
    expect((h.store.db.prepare('SELECT count(*) AS n FROM keyframes WHERE complete = 0').get() as { n: number }).n).toBe(0);
  });

  it('reads change batches stored before their headers were kept apart (schema v1)', async () => {
    const t0 = h.clock.now();
    for (let i = 0; i < 10; i++) h.cache.upsert(pod(`p${i}`, `p${i}`, 'rs'));
    h.clock.advance(1_000);
    h.cache.delete('Pod', 'p3');
    await h.store.flush();
    h.store.db.exec('UPDATE delta_batches SET headers = NULL');
    h.store.close();
    h.reopen({ record: false });
    expect(await h.store.objectsAt(t0)).toHaveLength(10);
    expect((await h.store.objectsAt(t0 + 1_000)).map((o) => o.metadata.name)).not.toContain('p3');
  });

  it('takes keyframes by count even when some kind never finishes syncing', async () => {
    for (let i = 0; i < 60; i++) {
      h.cache.upsert(pod(`p${i}`, `p${i}`, 'rs'));
      if (i % 10 === 9) {
        await h.store.flush();
        await settle();
      }
    }
    expect((h.store.db.prepare('SELECT count(*) AS n FROM keyframes WHERE complete = 1').get() as { n: number }).n).toBeGreaterThan(0);
  });
});
