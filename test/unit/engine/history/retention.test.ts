import { describe, expect, it } from 'vitest';
import { DAY_MS, usedBytes } from '../../../../electron/engine/history/retention.ts';
import { deployment, event, pod } from './fixtures.ts';
import { MANUAL_TIMING, harnessPerTest, type StoreHarness } from './harness.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

let h: StoreHarness;
harnessPerTest((next) => (h = next), { timing: { ...MANUAL_TIMING, keyframeIntervalMs: DAY_MS / 4 } });

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const count = (table: string) => (h.store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

/** Incompressible text, so the database grows as a real one does. */
function noise(seed: number, length: number): string {
  let a = seed;
  let out = '';
  while (out.length < length) {
    a = (a * 1_103_515_245 + 12_345) % 2 ** 31;
    out += a.toString(36);
  }
  return out.slice(0, length);
}

/** Four days of a flapping workload, pods and Warnings, one change an hour. */
async function fourDays(): Promise<number> {
  const t0 = h.clock.now();
  h.store.synced();
  for (let hour = 0; hour < 96; hour++) {
    upsertBuiltin(h.cache, deployment('web', 'w', { ready: hour % 2 === 0 ? 0 : 2 }));
    const p = pod(`p${hour}`, `p${hour}`, 'rs');
    p.metadata.annotations = { note: noise(hour + 1, 20_000) };
    upsertBuiltin(h.cache, p);
    upsertBuiltin(h.cache, event(`e${hour}`, { kind: 'Deployment', name: 'web', uid: 'w' }, h.clock.now()));
    await h.store.flush();
    await settle();
    h.clock.advance(3_600_000);
  }
  return t0;
}

describe('retention', () => {
  it('removes what is older than the age limit and moves "since" forward', async () => {
    const t0 = await fourDays();
    const now = h.clock.now();
    h.limits = { maxAgeMs: 2 * DAY_MS, maxBytes: 1024 ** 3 };
    h.store.applyRetention();
    const since = h.store.since();
    expect(since).toBe(now - 2 * DAY_MS);
    const { episodes } = h.store.episodes.episodes({ from: 0, to: now });
    expect(episodes.length).toBeGreaterThan(20);
    expect(episodes.every((e) => (e.end ?? now) >= (since ?? 0))).toBe(true);
    expect((h.store.db.prepare('SELECT min(last_at) AS at FROM events').get() as { at: number }).at).toBeGreaterThanOrEqual(since ?? 0);
    // The series still knows the value in effect at `since`.
    const ready = h.store.series({ uid: 'w', from: since ?? 0, to: now })?.series.find((s) => s.name === 'ready')?.points ?? [];
    expect(ready[0]?.[0]).toBe(since);
    // A state after `since` can still be rebuilt; one before it is refused by the feature (see feature tests).
    expect((await h.store.objectsAt((since ?? 0) + 1)).filter((o) => o.kind === 'Pod')).toHaveLength(49);
    expect(t0).toBeLessThan(since ?? 0);
    const status = h.statuses.at(-1);
    expect(status?.since).toBe(since);
  });

  it('cuts the oldest history until the database fits the size limit', async () => {
    await fourDays();
    const now = h.clock.now();
    const before = usedBytes(h.store.db);
    const blocksBefore = count('delta_batches');
    h.limits = { maxAgeMs: 30 * DAY_MS, maxBytes: Math.floor(before / 2) };
    h.store.applyRetention();
    expect(usedBytes(h.store.db)).toBeLessThanOrEqual(before / 2);
    expect(count('delta_batches')).toBeLessThan(blocksBefore);
    const since = h.store.since() ?? 0;
    expect(since).toBeGreaterThan(now - 4 * DAY_MS);
    expect(since).toBeLessThan(now);
    expect((await h.store.objectsAt(now)).length).toBeGreaterThan(90);
  });

  it('keeps recording into the same open block after pruning', async () => {
    await fourDays();
    h.limits = { maxAgeMs: DAY_MS, maxBytes: 1024 ** 3 };
    h.store.applyRetention();
    upsertBuiltin(h.cache, deployment('web', 'w', { ready: 7 }));
    await h.store.flush();
    const ready = h.store.series({ uid: 'w', from: 0, to: h.clock.now() })?.series.find((s) => s.name === 'ready')?.points ?? [];
    expect(ready.at(-1)).toEqual([h.clock.now(), 7]);
  });
});
