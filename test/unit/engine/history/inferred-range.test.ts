/**
 * The timeline's inferred rows (backfill-run.ts `createInferredQuery().timeline`): only what
 * overlaps the range, found from the range's start through the inferred_last index rather than
 * by reading every older row; at most MAX_INFERRED (the rollouts, then the newest Events), and
 * when that cut applies the answer says how many rows the range holds (`inferredTotal`), also
 * through a merge with a history source's answer.
 */
import { describe, expect, it } from 'vitest';
import { MAX_INFERRED, TIMELINE_WHERE } from '../../../../electron/engine/history/backfill-run.ts';
import { mergeEpisodeLists } from '../../../../electron/engine/history/sources/merge.ts';
import { EpisodeListSchema, SeriesResultSchema, type EpisodeList, type SeriesResult } from '../../../../shared/contracts/history.ts';
import { mergeSeries } from '../../../../electron/engine/history/sources/merge.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment } from './fixtures.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

const MIN = 60_000;

let h: StoreHarness;
harnessPerTest((next) => (h = next));

/** One row as backfill writes it: an Event (first to last time), a ReplicaSet's revision, or a pod's container termination. */
function insert(id: string, fact: 'event' | 'rollout' | 'terminated', at: number | null, end: number | null = null, namespace = 'shop'): void {
  h.store.db
    .prepare('INSERT INTO inferred (id, object_uid, workload_uid, kind, namespace, name, fact, at, end_at, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(id, `obj-${id}`, 'uid-web', fact === 'rollout' ? 'ReplicaSet' : 'Pod', namespace, `web-${id}`, fact, at, end, fact === 'rollout' ? `revision ${id}` : 'BackOff: Back-off restarting failed container');
}

describe('the timeline\'s inferred rows', () => {
  it('holds what overlaps the range only, all of it when under the cap, and says nothing more', () => {
    const from = h.clock.now() - 60 * MIN;
    const to = h.clock.now();
    insert('old', 'event', from - 30 * MIN, from - MIN);
    insert('spanning', 'event', from - 30 * MIN, from + MIN);
    insert('inside', 'event', from + 5 * MIN);
    insert('r1', 'rollout', from + 10 * MIN);
    insert('later', 'event', to + MIN);
    insert('elsewhere', 'event', from + 5 * MIN, null, 'payments');
    const answer = h.store.episodes.episodes({ from, to, namespace: 'shop' });
    expect(answer.inferred?.map((fact) => fact.id)).toEqual(['spanning', 'inside', 'r1']);
    expect(answer.inferredTotal).toBeUndefined();
    expect('inferredTotal' in answer).toBe(false);
  });

  it('keeps the rollouts and the newest Events when the range holds more than the cap, and says how many there are', () => {
    const from = h.clock.now() - 24 * 60 * MIN;
    const to = h.clock.now();
    const events = MAX_INFERRED + 5;
    for (let i = 0; i < events; i += 1) insert(`e${String(i).padStart(5, '0')}`, 'event', from + i * 1_000);
    insert('r1', 'rollout', from + 10);
    insert('r2', 'rollout', from + 20);
    insert('r3', 'rollout', from + 30);
    const answer = h.store.episodes.episodes({ from, to });
    expect(answer.inferred).toHaveLength(MAX_INFERRED);
    expect(answer.inferredTotal).toBe(events + 3);
    const ids = new Set(answer.inferred?.map((fact) => fact.id));
    expect(['r1', 'r2', 'r3'].every((id) => ids.has(id))).toBe(true);
    // The 8 oldest Events are the ones left out; the newest is kept.
    expect(ids.has('e00007')).toBe(false);
    expect(ids.has('e00008')).toBe(true);
    expect(ids.has(`e${String(events - 1).padStart(5, '0')}`)).toBe(true);
    // Sorted by time for the chart.
    const times = answer.inferred?.map((fact) => fact.at ?? 0) ?? [];
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(EpisodeListSchema.parse({ ...answer, since: h.store.since() }).inferredTotal).toBe(events + 3);
  });

  it('finds the range from its start with the inferred_last index, not by reading every older row', () => {
    const plan = (h.store.db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM inferred WHERE ${TIMELINE_WHERE}`).all({ from: 0, to: 1, namespace: null }) as Array<{ detail: string }>).map((row) => row.detail).join('\n');
    expect(plan).toMatch(/USING INDEX inferred_last \(fact=\? AND <expr>>\?\)/);
  });

  it('keeps the count through a merge with a history source whose rows were cut', () => {
    const base: EpisodeList = { from: 0, to: 1, episodes: [], truncated: false, driftCount: [], since: 0, gaps: [], inferred: [] };
    const merged = mergeEpisodeLists(base, [{ source: 'recorder', value: { ...base, inferred: [], inferredTotal: 1_500 } }], (_source, id) => id, 1);
    expect(merged?.inferredTotal).toBe(1_500);
    expect(mergeEpisodeLists(base, [{ source: 'recorder', value: base }], (_source, id) => id, 1)?.inferredTotal).toBeUndefined();
  });
});

describe("a workload's inferred rows (its chart's series answer)", () => {
  /** Records the Deployment `uid-web` once, so the store answers its series. */
  async function recordWeb(): Promise<void> {
    upsertBuiltin(h.cache, deployment('web', 'uid-web'));
    await h.store.flush();
  }

  it('holds all of them, by time and those of unknown time last, and says nothing more when under the cap', async () => {
    await recordWeb();
    const from = h.clock.now() - 60 * MIN;
    const to = h.clock.now() + MIN;
    insert('old', 'terminated', from - 30 * MIN);
    insert('unknown', 'terminated', null);
    insert('inside', 'event', from + 5 * MIN);
    insert('r1', 'rollout', from + 10 * MIN);
    const answer = h.store.series({ uid: 'uid-web', from, to });
    expect(answer?.inferred?.map((fact) => fact.id)).toEqual(['inside', 'r1', 'unknown']);
    expect(answer && 'inferredTotal' in answer).toBe(false);
  });

  it('keeps its rollouts, then the newest of the others, when the range holds more than the cap, and says how many there are', async () => {
    await recordWeb();
    const from = h.clock.now() - 24 * 60 * MIN;
    const to = h.clock.now() + MIN;
    const terminations = MAX_INFERRED + 5;
    for (let i = 0; i < terminations; i += 1) insert(`t${String(i).padStart(5, '0')}`, 'terminated', from + 60_000 + i * 1_000);
    insert('r1', 'rollout', from + 10);
    insert('r2', 'rollout', from + 20);
    insert('unknown', 'terminated', null);
    const answer = h.store.series({ uid: 'uid-web', from, to });
    expect(answer?.inferred).toHaveLength(MAX_INFERRED);
    expect(answer?.inferredTotal).toBe(terminations + 3);
    const ids = new Set(answer?.inferred?.map((fact) => fact.id));
    expect(ids.has('r1') && ids.has('r2')).toBe(true);
    // 8 rows are left out: the unknown one and the 7 oldest terminations; the newest is kept.
    expect(ids.has('unknown')).toBe(false);
    expect(ids.has('t00006')).toBe(false);
    expect(ids.has('t00007')).toBe(true);
    expect(ids.has(`t${String(terminations - 1).padStart(5, '0')}`)).toBe(true);
    const times = answer?.inferred?.map((fact) => fact.at ?? 0) ?? [];
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(SeriesResultSchema.parse({ ...answer, since: h.store.since() }).inferredTotal).toBe(terminations + 3);
  });

  it('keeps the count through a merge with a history source whose rows were cut', () => {
    const base: SeriesResult = { workload: { uid: 'uid-web', kind: 'deployments.apps', namespace: 'shop', name: 'web' }, from: 0, to: 1, series: [], rawSamples: 0, rollouts: [], warnings: [], episodes: [], since: 0, gaps: [], inferred: [] };
    expect(mergeSeries(base, [{ source: 'recorder', value: { ...base, inferredTotal: 2_500 } }], (_source, id) => id, 1)?.inferredTotal).toBe(2_500);
    expect(mergeSeries(null, [{ source: 'recorder', value: { ...base, inferredTotal: 2_500 } }], (_source, id) => id, 1)?.inferredTotal).toBe(2_500);
    expect(mergeSeries(base, [{ source: 'recorder', value: base }], (_source, id) => id, 1)?.inferredTotal).toBeUndefined();
  });
});
