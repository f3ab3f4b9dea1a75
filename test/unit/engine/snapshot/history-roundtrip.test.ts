/**
 * The timeline survives the round trip: a snapshot exported with a history window, opened as a
 * context, answers `history:series`, `history:episodes` and `history:episode` with the numbers
 * the live context gave for the same window, through the same contract calls.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../../../electron/engine/snapshot/file.ts';
import type { EpisodeList, SeriesResult } from '../../../../shared/contracts/history.ts';
import type { OpenedSnapshot, SnapshotFile } from '../../../../shared/contracts/snapshot.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { exportBytes, startFixture, unwrap, waitForSync, type Fixture } from './engine-fixture.ts';

let fixture: Fixture;
let dir: string;
let cleanup: () => Promise<void>;
let file: SnapshotFile;
let window: { from: number; to: number };
let liveSeries: SeriesResult;
let liveEpisodes: EpisodeList;
let uid: string;
let past: SnapshotFile;
let pastAt: number;

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-history-roundtrip-'));
  fixture = await startFixture(dir, 'demo');
  // Let the recorder see the demo's pods start (its workloads drift until they are ready).
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  const now = Date.now();
  window = { from: now - 60_000, to: now };
  const { bytes } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'cluster' }, at: null, window });
  file = await decodeSnapshot(bytes);
  const frontend = file.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'frontend');
  uid = frontend?.metadata.uid ?? '';
  liveSeries = unwrap(await fixture.engine.dispatch('history:series', { uid, ...window, maxPoints: 600 }));
  liveEpisodes = unwrap(await fixture.engine.dispatch('history:episodes', { ...window }));
  // A past moment, rebuilt from history (the time-travel store's T).
  pastAt = now - 1_500;
  past = await decodeSnapshot((await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'cluster' }, at: pastAt, window })).bytes);
  const target = path.join(dir, 'with-history.kubedrift.json.gz');
  await writeFile(target, bytes);
  const { snapshot } = unwrap<{ snapshot: OpenedSnapshot }>(await fixture.engine.dispatch('snapshot:open', { source: 'path', path: target }));
  unwrap(await fixture.engine.dispatch('contexts:select', { name: snapshot.contextName }));
  await waitForSync(fixture.engine, snapshot.contextName);
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
  await cleanup?.();
});

describe('a snapshot\'s timeline', () => {
  it('carries the recorded series, episodes and drift count of the window', () => {
    expect(file.history).not.toBeNull();
    expect(file.history?.window).toEqual(window);
    expect(file.history?.workloads.some((entry) => entry.workload.uid === uid && entry.rawSamples > 0)).toBe(true);
    expect(file.history?.episodes.length).toBeGreaterThan(0);
  });

  it('answers history:series for the opened snapshot as the live context did', async () => {
    const offline = unwrap<SeriesResult>(await fixture.engine.dispatch('history:series', { uid, ...window, maxPoints: 600 }));
    expect(offline.workload).toEqual(liveSeries.workload);
    const named = (result: SeriesResult, name: string) => result.series.find((series) => series.name === name)?.points;
    for (const name of ['desired', 'ready', 'available']) expect(named(offline, name), name).toEqual(named(liveSeries, name));
    expect(offline.episodes.map((e) => e.id)).toEqual(liveSeries.episodes.map((e) => e.id));
  });

  it('answers history:episodes and history:episode from the file', async () => {
    const offline = unwrap<EpisodeList>(await fixture.engine.dispatch('history:episodes', { ...window }));
    expect(offline.episodes.map((e) => [e.id, e.workload.name, e.start])).toEqual(liveEpisodes.episodes.map((e) => [e.id, e.workload.name, e.start]));
    expect(offline.driftCount[0]).toEqual(liveEpisodes.driftCount[0]);
    const first = offline.episodes[0];
    if (!first) throw new Error('no episode');
    const detail = await fixture.engine.dispatch('history:episode', { id: first.id });
    expect(detail).toMatchObject({ ok: true, value: { id: first.id, workload: first.workload } });
    const status = await fixture.engine.dispatch('history:status', {});
    expect(status).toMatchObject({ ok: true, value: { state: 'off', message: expect.stringContaining('offline snapshot') } });
    const before = await fixture.engine.dispatch('history:state-at', { at: window.from, offset: 0, limit: 10 });
    expect(before).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringContaining('holds the objects as they were at') } });
  });

  it('can be taken at a past time, from the recorded state', () => {
    expect(past).toMatchObject({ live: false, takenAt: pastAt });
    expect(past.objects.some((o) => o.kind === 'Deployment' && o.metadata.name === 'frontend')).toBe(true);
    expect(past.history?.window).toEqual(window);
  });
});
