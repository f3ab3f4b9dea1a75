/**
 * The merge of the app's own history with a recorder's (history/sources/merge.ts), rule by rule:
 * coverage is the union, the recorder fills only the app's gaps, the same drift is one episode,
 * inferred rows are one per deterministic id and stay inferred.
 */
import { describe, expect, it } from 'vitest';
import { fillPoints, intersectGaps, mergeEpisodeLists, mergeSeries } from '../../../../electron/engine/history/sources/merge.ts';
import type { Episode, EpisodeList, InferredFact, SeriesResult } from '../../../../shared/contracts/history.ts';

const WEB = { kind: 'deployments.apps', namespace: 'shop', name: 'web', uid: 'uid-web' };
const API = { kind: 'deployments.apps', namespace: 'shop', name: 'api', uid: 'uid-api' };

function episode(id: number, workload: typeof WEB, start: number, end: number | null): Episode {
  return { id, workload, start, end, durationMs: (end ?? start) - start, peakGap: 1, reasons: ['ready'], trigger: null };
}

function rollout(id: string, at: number): InferredFact {
  return { id, fact: 'rollout', at, end: null, object: { kind: 'ReplicaSet', namespace: 'shop', name: `web-${id}`, uid: `rs-${id}` }, workloadUid: WEB.uid, detail: `revision ${id}` };
}

function list(episodes: Episode[], gaps: EpisodeList['gaps'], extra: Partial<EpisodeList> = {}): EpisodeList {
  return { from: 0, to: 100_000, episodes, truncated: false, driftCount: [], since: 0, gaps, ...extra };
}

const ids = (source: string, id: number): number => -(id * 10 + source.length);

describe('merging a recorder\'s history into the app\'s', () => {
  it('keeps only the spans neither observed as gaps, with the app\'s reason', () => {
    expect(intersectGaps([{ start: 10_000, end: 50_000, reason: 'app-closed' }], [{ start: 0, end: 20_000, reason: 'not-yet' }, { start: 40_000, end: 60_000, reason: 'stopped' }])).toEqual([
      { start: 10_000, end: 20_000, reason: 'app-closed' },
      { start: 40_000, end: 50_000, reason: 'app-closed' },
    ]);
    expect(intersectGaps([{ start: 10_000, end: 50_000, reason: 'app-closed' }], [])).toEqual([]);
  });

  it('adds the recorder\'s episodes the app did not see, marked and re-identified, and drops its copies of the app\'s', () => {
    const local = list([episode(1, WEB, 5_000, 8_000), episode(2, API, 70_000, null)], [{ start: 20_000, end: 60_000, reason: 'app-closed' }]);
    const remote = list(
      [
        episode(7, WEB, 5_400, 8_100), // the same drift, seen 400 ms later
        episode(8, WEB, 30_000, 35_000), // while the app was closed
        episode(9, API, 80_000, 90_000), // inside the app's ongoing episode
      ],
      [{ start: 0, end: 4_000, reason: 'not-yet' }],
    );
    const merged = mergeEpisodeLists(local, [{ source: 'rack', value: remote }], ids, 100_000);
    expect(merged?.episodes.map((entry) => [entry.id, entry.workload.name, entry.start, entry.recordedBy])).toEqual([
      [1, 'web', 5_000, undefined],
      [-84, 'web', 30_000, 'rack'],
      [2, 'api', 70_000, undefined],
    ]);
    // The recorder observed the app's gap: nothing is unobserved now.
    expect(merged?.gaps).toEqual([]);
  });

  it('keeps a recorder\'s short drift that starts more than a second after the app\'s own', () => {
    const local = list([episode(1, WEB, 5_000, 5_100)], []);
    const remote = list([episode(3, WEB, 6_500, 6_600)], []);
    expect(mergeEpisodeLists(local, [{ source: 'rack', value: remote }], ids, 100_000)?.episodes.map((entry) => entry.start)).toEqual([5_000, 6_500]);
  });

  it('fills the drift count only inside the app\'s gaps', () => {
    const gaps = [{ start: 20_000, end: 60_000, reason: 'app-closed' as const }];
    const local: Array<[number, number | null]> = [[0, 0], [20_000, 1], [25_000, null], [60_000, 0]];
    const remote: Array<[number, number | null]> = [[10_000, 5], [30_000, 1], [35_000, 0], [70_000, 9]];
    expect(fillPoints(local, gaps, [remote])).toEqual([[0, 0], [20_000, 1], [30_000, 1], [35_000, 0], [60_000, 0]]);
    // A gap the recorder has nothing for keeps the app's own points.
    expect(fillPoints(local, gaps, [[[70_000, 9]]])).toEqual(local);
  });

  it('keeps one inferred row per deterministic id, still inferred, and marks the recorder\'s own', () => {
    const local = list([], [], { inferred: [rollout('a', 1_000)] });
    const remote = list([], [], { inferred: [rollout('a', 1_000), rollout('b', 2_000)] });
    const merged = mergeEpisodeLists(local, [{ source: 'rack', value: remote }], ids, 100_000);
    expect(merged?.inferred?.map((fact) => [fact.id, fact.fact, fact.recordedBy])).toEqual([
      ['a', 'rollout', undefined],
      ['b', 'rollout', 'rack'],
    ]);
  });

  it('serves a context only a recorder knows, every row marked as its', () => {
    const remote = list([episode(4, WEB, 1_000, 2_000)], [{ start: 0, end: 500, reason: 'not-yet' }]);
    const merged = mergeEpisodeLists(null, [{ source: 'rack', value: remote }], ids, 100_000);
    expect(merged?.episodes).toEqual([expect.objectContaining({ id: -44, recordedBy: 'rack' })]);
    expect(merged?.gaps).toEqual([{ start: 0, end: 500, reason: 'not-yet' }]);
    expect(mergeEpisodeLists(null, [], ids, 100_000)).toBeNull();
  });

  it('merges a workload\'s series: the recorder\'s samples in the app\'s gap, rollouts and warnings once', () => {
    const series = (points: Array<[number, number | null]>, gaps: SeriesResult['gaps'], extra: Partial<SeriesResult> = {}): SeriesResult => ({
      workload: WEB,
      from: 0,
      to: 100_000,
      series: [{ name: 'ready', points }],
      rawSamples: points.length,
      rollouts: [],
      warnings: [],
      episodes: [],
      since: 0,
      gaps,
      ...extra,
    });
    const local = series([[0, 2], [20_000, 2], [60_000, 2]], [{ start: 20_000, end: 60_000, reason: 'app-closed' }], { rollouts: [{ generation: 2, start: 1_000, end: 3_000 }] });
    const remote = series([[30_000, 1], [40_000, 2]], [], { rollouts: [{ generation: 2, start: 1_000, end: 3_000 }, { generation: 3, start: 30_000, end: 40_000 }] });
    const merged = mergeSeries(local, [{ source: 'rack', value: remote }], ids, 100_000);
    expect(merged?.series[0]?.points).toEqual([[0, 2], [20_000, 2], [30_000, 1], [40_000, 2], [60_000, 2]]);
    expect(merged?.rollouts.map((entry) => entry.generation)).toEqual([2, 3]);
    expect(merged?.gaps).toEqual([]);
  });
});
