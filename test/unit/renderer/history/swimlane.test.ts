import { describe, expect, it } from 'vitest';
import { buildLanes, filterLanes, hideManagedReplicaSets, laneBars, percentOf } from '../../../../renderer/views/timeline/swimlane.ts';
import { episode, MINUTE, T0, workloadRef } from './fixtures.ts';

const api = workloadRef('api');
const web = workloadRef('web', { namespace: 'shop', kind: 'statefulsets.apps' });
const range = { from: T0, to: T0 + 100 * MINUTE };
const NOW = T0 + 100 * MINUTE;

describe('swimlane layout', () => {
  it('groups episodes into one lane per workload with totals', () => {
    const lanes = buildLanes([episode(2, api, T0 + 50 * MINUTE, T0 + 60 * MINUTE), episode(1, api, T0 + 10 * MINUTE, T0 + 20 * MINUTE, { peakGap: 3 }), episode(3, web, T0 + 90 * MINUTE, null)], NOW);
    expect(lanes.map((lane) => lane.uid)).toEqual(['uid-api', 'uid-web']);
    const [first, second] = lanes;
    expect(first!.episodes.map((entry) => entry.id)).toEqual([1, 2]);
    expect(first!.driftMs).toBe(20 * MINUTE);
    expect(first!.peakGap).toBe(3);
    expect(first!.ongoing).toBe(false);
    expect(first!.lastActivity).toBe(T0 + 60 * MINUTE);
    expect(second!.ongoing).toBe(true);
    expect(second!.driftMs).toBe(10 * MINUTE);
    expect(second!.search).toBe('statefulset shop/web');
  });

  it('places bars as percentages of the window, clipping at its edges and dropping what is outside', () => {
    const [lane] = buildLanes([
      episode(1, api, T0 - 10 * MINUTE, T0 + 5 * MINUTE),
      episode(2, api, T0 + 40 * MINUTE, T0 + 50 * MINUTE),
      episode(3, api, T0 + 95 * MINUTE, null),
      episode(4, api, T0 - 30 * MINUTE, T0 - 20 * MINUTE),
    ], NOW);
    const bars = laneBars(lane!, range, NOW);
    expect(bars.map((bar) => [bar.episode.id, bar.left, bar.width, bar.ongoing])).toEqual([
      [1, 0, 5, false],
      [2, 40, 10, false],
      [3, 95, 5, true],
    ]);
  });

  it('merges episodes closer than the merge threshold into one bar that keeps the worst severity', () => {
    const [lane] = buildLanes([
      episode(1, api, T0 + 10 * MINUTE, T0 + 10.1 * MINUTE),
      episode(2, api, T0 + 10.2 * MINUTE, T0 + 10.3 * MINUTE, { reasons: ['stalled'] }),
      episode(3, api, T0 + 10.35 * MINUTE, T0 + 11 * MINUTE, { reasons: ['generation'] }),
      episode(4, api, T0 + 30 * MINUTE, T0 + 31 * MINUTE, { reasons: ['generation'] }),
    ], NOW);
    const bars = laneBars(lane!, range, NOW, 0.25);
    expect(bars).toHaveLength(2);
    expect(bars[0]).toMatchObject({ count: 3, severity: 'danger', left: 10 });
    expect(bars[0]!.width).toBeCloseTo(1, 6);
    expect(bars[1]).toMatchObject({ count: 1, severity: 'pending' });
  });

  it('draws a thousand flapping episodes as a handful of bars', () => {
    const flapping = Array.from({ length: 1000 }, (_, index) => episode(index, api, T0 + index * 3000, T0 + index * 3000 + 1000));
    const [lane] = buildLanes(flapping, NOW);
    expect(laneBars(lane!, range, NOW).length).toBeLessThan(20);
  });

  it('filters lanes by every word of the search and maps times to percent', () => {
    const lanes = buildLanes([episode(1, api, T0, T0 + MINUTE), episode(2, web, T0, T0 + MINUTE)], NOW);
    expect(filterLanes(lanes, 'shop WEB').map((lane) => lane.uid)).toEqual(['uid-web']);
    expect(filterLanes(lanes, '')).toHaveLength(2);
    expect(percentOf(T0 + 25 * MINUTE, range)).toBe(25);
    expect(percentOf(T0 - 1, range)).toBeNull();
    expect(percentOf(Number.NaN, range)).toBeNull();
  });

  it('hides the ReplicaSets a Deployment runs, by owner when the cluster still has them, else by name', () => {
    const deployment = workloadRef('payments-api');
    const owned = workloadRef('payments-api-6c897fc454', { kind: 'replicasets.apps' });
    const gone = workloadRef('payments-api-77b85fc8cd', { kind: 'replicasets.apps' });
    const bare = workloadRef('legacy-7d9f8', { kind: 'replicasets.apps' });
    const ofLiveDeployment = workloadRef('search-855ccd9d8', { kind: 'replicasets.apps', namespace: 'shop' });
    const lanes = buildLanes([deployment, owned, gone, bare, ofLiveDeployment].map((ref, index) => episode(index, ref, T0, T0 + MINUTE)), NOW);
    const result = hideManagedReplicaSets(lanes, (lane) => lane.workload, {
      ownedByDeployment: (uid) => (uid === owned.uid ? true : uid === bare.uid ? false : undefined),
      deploymentExists: (namespace, name) => namespace === 'shop' && name === 'search',
    });
    expect(result.kept.map((lane) => lane.workload.name)).toEqual(['payments-api', 'legacy-7d9f8']);
    expect(result.hidden).toBe(3);
    expect(hideManagedReplicaSets(lanes, (lane) => lane.workload).kept.map((lane) => lane.workload.name)).toEqual(['payments-api', 'legacy-7d9f8', 'search-855ccd9d8']);
  });
});
