import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { deployment, event, pod } from './fixtures.ts';
import { FIRST_KEYFRAME_WAIT_MS } from '../../../../electron/engine/history/session.ts';
import { BeforeStateLogError } from '../../../../electron/engine/history/state-at.ts';
import { MANUAL_TIMING, harnessPerTest, type StoreHarness } from './harness.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

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

/**
 * Lets the keyframe job (async compression) finish its chunks: waits until no keyframe is
 * incomplete (a fixed wait was too short on a loaded machine).
 */
async function settle(): Promise<void> {
  const incomplete = () => (h.store.db.prepare('SELECT count(*) AS n FROM keyframes WHERE complete = 0').get() as { n: number }).n;
  do await new Promise((resolve) => setTimeout(resolve, 5));
  while (incomplete() > 0);
}

/** The informers have listed every kind: the first flush takes the keyframe the state log starts from. */
async function listed(): Promise<void> {
  h.store.synced();
  await h.store.flush();
  await settle();
}

describe('the cluster at a past time', () => {
  it('rebuilds exactly the objects the cache held at every recorded moment', async () => {
    const next = seeded(42);
    const truth: Array<{ at: number; objects: string[] }> = [];
    await listed();
    for (let step = 0; step < 300; step++) {
      const i = Math.floor(next() * 40);
      const roll = next();
      if (roll < 0.15) h.cache.delete('pods', `p${i}`);
      else if (roll < 0.2) upsertBuiltin(h.cache, deployment(`d${i % 5}`, `d${i % 5}`, { ready: Math.floor(next() * 3) }));
      else upsertBuiltin(h.cache, pod(`p${i}`, `p${i}`, 'rs'));
      if (step % 5 === 0) upsertBuiltin(h.cache, event(`e${step}`, { kind: 'Pod', name: `p${i}`, uid: `p${i}` }, h.clock.now()));
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
    await listed();
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'w'));
    h.clock.advance(1_000);
    h.cache.delete('deployments.apps', 'w');
    await h.store.flush();
    expect(names(await h.store.objectsAt(t0 + 500))).toHaveLength(1);
    expect(await h.store.objectsAt(t0 + 1_500)).toEqual([]);
  });

  it('survives a restart, and a keyframe cut off half written', async () => {
    h.store.synced();
    for (let i = 0; i < 40; i++) {
      upsertBuiltin(h.cache, pod(`p${i}`, `p${i}`, 'rs'));
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
    await listed();
    const t0 = h.clock.now();
    for (let i = 0; i < 10; i++) upsertBuiltin(h.cache, pod(`p${i}`, `p${i}`, 'rs'));
    h.clock.advance(1_000);
    h.cache.delete('pods', 'p3');
    await h.store.flush();
    h.store.db.exec('UPDATE delta_batches SET headers = NULL');
    h.store.close();
    h.reopen({ record: false });
    expect(await h.store.objectsAt(t0)).toHaveLength(10);
    expect((await h.store.objectsAt(t0 + 1_000)).map((o) => o.metadata.name)).not.toContain('p3');
  });

  it('starts the state log without waiting for ever on a kind that never finishes syncing, then takes keyframes by count', async () => {
    const keyframes = () => (h.store.db.prepare('SELECT count(*) AS n FROM keyframes WHERE complete = 1').get() as { n: number }).n;
    const changes = async (from: number) => {
      for (let i = from; i < from + 60; i++) {
        upsertBuiltin(h.cache, pod(`p${i}`, `p${i}`, 'rs'));
        if (i % 10 === 9) {
          await h.store.flush();
          await settle();
        }
      }
    };
    await changes(0);
    // Until the lists are done (or the wait is over) the first keyframe would be half filled.
    expect(keyframes()).toBe(0);
    h.clock.advance(FIRST_KEYFRAME_WAIT_MS);
    await h.store.flush();
    await settle();
    expect(keyframes()).toBe(1);
    const at = h.clock.now();
    expect(await h.store.objectsAt(at)).toHaveLength(60);
    // From here on every change is logged: keyframes by count (25 here), and every state rebuilt.
    h.clock.advance(1);
    await changes(60);
    expect(keyframes()).toBeGreaterThan(1);
    expect(await h.store.objectsAt(h.clock.now())).toHaveLength(120);
  });

  it('logs no change before the first keyframe, which holds the state they would spell out', async () => {
    const t0 = h.clock.now();
    for (let i = 0; i < 30; i++) upsertBuiltin(h.cache, pod(`p${i}`, `p${i}`, 'rs'));
    h.cache.delete('pods', 'p0');
    await h.store.flush();
    const logged = () => (h.store.db.prepare('SELECT coalesce(sum(count), 0) AS n FROM delta_batches').get() as { n: number }).n;
    expect(logged()).toBe(0);
    await expect(h.store.objectsAt(t0)).rejects.toThrow(/no state of this cluster is recorded yet/);
    h.clock.advance(1_000);
    await listed();
    // Before it, nothing is known: not an empty cluster.
    await expect(h.store.objectsAt(t0)).rejects.toThrow(BeforeStateLogError);
    await expect(h.store.objectsAt(t0)).rejects.toThrow(`the first recorded state of this cluster is from ${new Date(t0 + 1_000).toISOString()}`);
    expect(names(await h.store.objectsAt(h.clock.now()))).toEqual(names(h.cache.list()));
    h.clock.advance(500);
    h.cache.delete('pods', 'p1');
    await h.store.flush();
    expect(logged()).toBe(1);
    expect(await h.store.objectsAt(h.clock.now())).toHaveLength(28);
  });
});
