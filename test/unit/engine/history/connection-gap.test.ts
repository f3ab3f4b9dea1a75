/**
 * A lost connection stops observing the whole context: no heartbeat sample is written while it
 * lasts, an episode open at the loss ends at the loss once the loss is longer than GAP_MS, and a
 * workload still drifting when the cluster answers again (and is listed again) starts a new
 * episode there. The coverage labels the stretch `connection-lost`.
 */
import { describe, expect, it } from 'vitest';
import { GAP_MS, HEARTBEAT_MS } from '../../../../electron/engine/history/recorder.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment } from './fixtures.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

const MIN = 60_000;

let h: StoreHarness;
harnessPerTest((next) => (h = next));

const episodes = (from: number) => h.store.episodes.episodes({ from, to: h.clock.now() }).episodes.map((e) => ({ start: e.start, end: e.end }));
const sampleTimes = (from: number) => (h.store.series({ uid: 'd1', from, to: h.clock.now() })?.series.find((s) => s.name === 'ready')?.points ?? []).filter(([, value]) => value !== null).map(([at]) => at);

/** Heartbeat checks every 15 s for `ms`, as the session's timer runs them. */
function beatFor(ms: number): void {
  for (let passed = 0; passed < ms; passed += 15_000) {
    h.clock.advance(15_000);
    h.store.heartbeat();
  }
}

describe('a lost connection', () => {
  it('writes no sample while lost, ends the open episode at the loss, and starts a new one when the cluster is listed again', async () => {
    const start = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { replicas: 2, ready: 1 }));
    h.store.synced();
    beatFor(2 * MIN);
    const lostAt = h.clock.now();
    h.store.connection(true);
    beatFor(10 * MIN);
    await h.store.flush();
    // Past GAP_MS the episode ends at the loss, before the cluster answers again.
    expect(episodes(start)).toEqual([{ start, end: lostAt }]);
    const backAt = h.clock.now();
    h.store.connection(false);
    h.clock.advance(2_000);
    // The relist found the Deployment unchanged (the cache says nothing): every kind is listed.
    const listedAt = h.clock.now();
    h.store.synced();
    beatFor(2 * MIN);
    await h.store.flush();

    expect(sampleTimes(start).filter((at) => at > lostAt && at < listedAt)).toEqual([]);
    expect(sampleTimes(start)).toContain(listedAt);
    expect(episodes(start)).toEqual([
      { start, end: lostAt },
      { start: listedAt, end: null },
    ]);
    // The charts label it "not recording: connection to the cluster lost HH:MM → HH:MM" (coverage-marks.ts).
    expect(h.store.gaps(start, h.clock.now())).toEqual([{ start: lostAt, end: backAt, reason: 'connection-lost' }]);
  });

  it('ends the episode at the loss when the relist brings the workload changed, and opens a new one there if it still drifts', async () => {
    const start = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { replicas: 2, ready: 1 }));
    h.store.synced();
    h.clock.advance(MIN);
    const lostAt = h.clock.now();
    h.store.connection(true);
    // No heartbeat check ran meanwhile: the relist's change itself must not extend the episode.
    h.clock.advance(GAP_MS + MIN);
    h.store.connection(false);
    h.clock.advance(1_000);
    const relistAt = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { replicas: 3, ready: 1 }));
    h.store.synced();
    await h.store.flush();
    expect(episodes(start)).toEqual([
      { start, end: lostAt },
      { start: relistAt, end: null },
    ]);
  });

  it('dates each workload from its own last sight when the connection is lost again before the relist ends', async () => {
    const start = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { replicas: 2, ready: 1 }));
    h.store.synced();
    h.clock.advance(MIN);
    const firstLoss = h.clock.now();
    h.store.connection(true);
    beatFor(GAP_MS + MIN);
    h.store.connection(false);
    h.clock.advance(1_000);
    const relistAt = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { replicas: 3, ready: 1 }));
    h.clock.advance(1_000);
    // Gone again before every kind was listed: web was seen at relistAt, so its gap starts here.
    const secondLoss = h.clock.now();
    h.store.connection(true);
    beatFor(GAP_MS + MIN);
    h.store.connection(false);
    const listedAt = h.clock.now();
    h.store.synced();
    await h.store.flush();
    expect(sampleTimes(start).filter((at) => at > secondLoss && at < listedAt)).toEqual([]);
    expect(episodes(start)).toEqual([
      { start, end: firstLoss },
      { start: relistAt, end: secondLoss },
      { start: listedAt, end: null },
    ]);
  });

  it('carries the episode across a loss no longer than GAP_MS (no gap, one episode)', async () => {
    const start = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { replicas: 2, ready: 1 }));
    h.store.synced();
    h.clock.advance(MIN);
    h.store.connection(true);
    beatFor(GAP_MS / 2);
    h.store.connection(false);
    h.store.synced();
    beatFor(HEARTBEAT_MS);
    await h.store.flush();
    expect(episodes(start)).toEqual([{ start, end: null }]);
    expect(h.store.gaps(start, h.clock.now())).toEqual([]);
  });

  it('closes nothing and writes heartbeats again for a workload that was healthy through the loss', async () => {
    const start = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1'));
    h.store.synced();
    h.clock.advance(MIN);
    const lostAt = h.clock.now();
    h.store.connection(true);
    beatFor(10 * MIN);
    h.store.connection(false);
    h.store.synced();
    const listedAt = h.clock.now();
    beatFor(2 * MIN);
    await h.store.flush();
    expect(episodes(start)).toEqual([]);
    const times = sampleTimes(start);
    expect(times.filter((at) => at > lostAt && at < listedAt)).toEqual([]);
    expect(times.filter((at) => at >= listedAt).length).toBeGreaterThanOrEqual(2);
  });
});
