import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { HEARTBEAT_MS } from '../../../../electron/engine/history/recorder.ts';
import { deployment, event, pod, replicaSet } from './fixtures.ts';
import { harnessPerTest, MANUAL_TIMING, type StoreHarness } from './harness.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

let h: StoreHarness;
harnessPerTest((next) => (h = next));

const allEpisodes = () => h.store.episodes.episodes({ from: 0, to: Number.MAX_SAFE_INTEGER });
const series = (name: string, uid = 'd1', from = 0, to = Number.MAX_SAFE_INTEGER) => h.store.series({ uid, from, to })?.series.find((s) => s.name === name)?.points;

describe('recording a rollout', () => {
  it('records the samples, the rollout, one episode with its trigger, and the Warnings of the pods', async () => {
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { generation: 1, image: 'web:v1' }));
    upsertBuiltin(h.cache, replicaSet('web-2', 'rs2', 'd1'));
    upsertBuiltin(h.cache, pod('web-2-a', 'p1', 'rs2'));
    h.store.synced();
    h.clock.advance(1_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { generation: 2, observedGeneration: 1, image: 'web:broken' }));
    h.clock.advance(1_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { generation: 2, current: 3, updated: 1, image: 'web:broken', progressing: { status: 'True', reason: 'ReplicaSetUpdated' } }));
    upsertBuiltin(h.cache, event('e1', { kind: 'Pod', name: 'web-2-a', uid: 'p1' }, h.clock.now(), 'Warning', 'Failed'));
    upsertBuiltin(h.cache, event('e2', { kind: 'Deployment', name: 'web', uid: 'd1' }, h.clock.now(), 'Normal', 'ScalingReplicaSet'));
    upsertBuiltin(h.cache, event('e3', { kind: 'Pod', name: 'other', uid: 'unrelated' }, h.clock.now(), 'Warning', 'Failed'));
    h.clock.advance(5_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { generation: 2, image: 'web:broken' }));
    await h.store.flush();

    const result = h.store.series({ uid: 'd1', from: t0, to: t0 + 10_000 });
    expect(result?.rawSamples).toBe(4);
    expect(result?.series.find((s) => s.name === 'updated')?.points).toEqual([
      [t0, 2],
      [t0 + 1_000, 2],
      [t0 + 2_000, 1],
      [t0 + 7_000, 2],
    ]);
    expect(result?.series.find((s) => s.name === 'observedGeneration')?.points.map((p) => p[1])).toEqual([1, 1, 2, 2]);
    expect(result?.rollouts).toEqual([{ generation: 2, start: t0 + 1_000, end: t0 + 7_000, image: 'web:broken' }]);
    expect(result?.warnings.map((w) => w.uid)).toEqual(['e1']);
    expect(result?.episodes).toHaveLength(1);
    const episode = result?.episodes[0];
    expect(episode).toMatchObject({ start: t0 + 1_000, end: t0 + 7_000, durationMs: 6_000, trigger: { generation: 2, image: 'web:broken' }, peakGap: 0 });
    expect(episode?.reasons.sort()).toEqual(['generation', 'progressing']);

    const detail = h.store.episodes.episode(episode?.id ?? -1);
    expect(detail?.events?.map((e) => [e.uid, e.type])).toEqual([
      ['e1', 'Warning'],
      ['e2', 'Normal'],
    ]);
  });

  it('makes a release during an episode without a cause that episode\'s trigger', async () => {
    upsertBuiltin(h.cache, deployment('web', 'd1', { generation: 1 }));
    h.clock.advance(1_000);
    // A node goes away with one pod: drift without any spec change.
    upsertBuiltin(h.cache, deployment('web', 'd1', { generation: 1, ready: 1 }));
    h.clock.advance(1_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { generation: 2, observedGeneration: 2, ready: 1, updated: 1, image: 'web:broken' }));
    h.clock.advance(1_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { generation: 3, observedGeneration: 3, ready: 1, updated: 1, image: 'web:fixed' }));
    await h.store.flush();
    const [episode] = allEpisodes().episodes;
    expect(episode?.trigger).toEqual({ generation: 2, image: 'web:broken' });
  });

  it('writes a sample only when a recorded field changed, plus heartbeats', async () => {
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1'));
    h.clock.advance(1_000);
    // A change nobody records (a label, a new resourceVersion) writes nothing.
    upsertBuiltin(h.cache, deployment('web', 'd1'));
    h.clock.advance(HEARTBEAT_MS);
    h.store.heartbeat();
    await h.store.flush();
    expect(series('desired')).toEqual([
      [t0, 2],
      [t0 + 1_000 + HEARTBEAT_MS, 2],
    ]);
  });

  it('breaks the line where recording was interrupted and where the workload was deleted', async () => {
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1'));
    await h.restartAfter(3_600_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { ready: 1 }));
    h.clock.advance(1_000);
    h.cache.delete('deployments.apps', 'd1');
    await h.store.flush();
    expect(series('ready')).toEqual([
      [t0, 2],
      [t0 + HEARTBEAT_MS, null],
      [t0 + 3_600_000, 1],
      [t0 + 3_601_000, null],
    ]);
    const all = allEpisodes().episodes;
    expect(all).toEqual([expect.objectContaining({ start: t0 + 3_600_000, end: t0 + 3_601_000, reasons: ['ready'] })]);
  });
});

describe('history across restarts', () => {
  it('continues an episode after a quick restart', async () => {
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { ready: 0 }));
    await h.restartAfter(20_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { ready: 1 }));
    h.clock.advance(5_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { ready: 2 }));
    await h.store.flush();
    const { episodes } = allEpisodes();
    expect(episodes).toEqual([expect.objectContaining({ start: t0, end: t0 + 25_000, peakGap: 2 })]);
  });

  it('closes an episode at the last known moment after a long gap and starts a new one', async () => {
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'd1', { ready: 0 }));
    h.clock.advance(10_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { ready: 1 }));
    await h.restartAfter(3_600_000);
    upsertBuiltin(h.cache, deployment('web', 'd1', { ready: 1 }));
    await h.store.flush();
    const { episodes } = allEpisodes();
    expect(episodes.map((e) => [e.start - t0, e.end === null ? null : e.end - t0])).toEqual([
      [0, 10_000],
      [3_610_000, null],
    ]);
  });

  it('closes what was left open for workloads deleted while the app was closed, once synced', async () => {
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('gone', 'g1', { ready: 0 }));
    await h.restartAfter(600_000);
    upsertBuiltin(h.cache, deployment('web', 'd1'));
    h.store.synced();
    await h.store.flush();
    const { episodes } = allEpisodes();
    expect(episodes).toEqual([expect.objectContaining({ workload: expect.objectContaining({ uid: 'g1' }), start: t0, end: t0 })]);
  });
});

describe('ownership during the first sync', () => {
  const warningsOf = (uid: string) => h.store.series({ uid, from: 0, to: Number.MAX_SAFE_INTEGER })?.warnings.map((w) => w.uid);
  /** A Deployment d1 -> ReplicaSet rs1 -> pods p1 (with a Warning, e1) and p2 (with e2), as listed. */
  const listWorkload = (): void => {
    upsertBuiltin(h.cache, deployment('web', 'd1'));
    upsertBuiltin(h.cache, replicaSet('web-1', 'rs1', 'd1'));
    upsertBuiltin(h.cache, pod('web-1-a', 'p1', 'rs1'));
    upsertBuiltin(h.cache, pod('web-1-b', 'p2', 'rs1'));
    upsertBuiltin(h.cache, event('e1', { kind: 'Pod', name: 'web-1-a', uid: 'p1' }, h.clock.now(), 'Warning', 'BackOff'));
    upsertBuiltin(h.cache, event('e2', { kind: 'Pod', name: 'web-1-b', uid: 'p2' }, h.clock.now(), 'Warning', 'Unhealthy'));
  };

  it('writes who owns what with the first keyframe, once every kind is listed', async () => {
    listWorkload();
    await h.store.flush();
    // Still listing: the samples are written, the ownership rows wait.
    expect(series('ready')).toHaveLength(1);
    expect(warningsOf('d1')).toEqual([]);
    h.cache.delete('pods', 'p1');
    h.store.synced();
    h.clock.advance(1_000);
    await h.store.flush();
    expect(warningsOf('d1')?.sort()).toEqual(['e1', 'e2']);
  });

  it('writes what it held a slice per flush, the rows of children gone last', async () => {
    h.reopen({ timing: { ...MANUAL_TIMING, ownershipRowsPerFlush: 1 } });
    listWorkload();
    h.cache.delete('pods', 'p1');
    h.store.synced();
    const flushes: Array<string[] | undefined> = [];
    for (let i = 0; i < 4; i += 1) {
      h.clock.advance(1_000);
      await h.store.flush();
      flushes.push(warningsOf('d1')?.sort());
    }
    // rs1 -> d1, then p1 -> rs1 (e1 reaches d1), then p2 -> rs1 (e2 too), then p1 gone.
    expect(flushes).toEqual([[], ['e1'], ['e1', 'e2'], ['e1', 'e2']]);
    const db = new DatabaseSync(h.file, { readOnly: true });
    expect(db.prepare('SELECT child_uid AS child, gone_at AS gone FROM owners ORDER BY child_uid').all()).toEqual([
      { child: 'p1', gone: expect.any(Number) },
      { child: 'p2', gone: null },
      { child: 'rs1', gone: null },
    ]);
    db.close();
    h.reopen();
    expect(warningsOf('d1')?.sort()).toEqual(['e1', 'e2']);
  });

  it('writes the ownership rows it holds when closed before the lists are done', async () => {
    listWorkload();
    await h.store.flush();
    h.reopen();
    expect(warningsOf('d1')?.sort()).toEqual(['e1', 'e2']);
  });
});
