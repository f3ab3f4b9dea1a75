/**
 * Each drift episode keeps the cause that explained it: the cause finder's headline cause, noted
 * on the open episode when it first becomes known and when it changes, stored with the episode
 * and read back after the pods, the Events and the app itself are gone.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createCauseView, findCauses } from '../../../../electron/engine/causes/index.ts';
import { decodeCauses, headlinesOf, noteCause } from '../../../../electron/engine/history/episode-causes.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/engine/history/schema.ts';
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { EpisodeSchema, MAX_EPISODE_CAUSES } from '../../../../shared/contracts/history.ts';
import { deployment, event, IMAGE, pod, replicaSet } from '../causes/fixtures.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

let h: StoreHarness;
harnessPerTest((next) => (h = next));

const PULL_FAILED = `Failed to pull image "${IMAGE}": rpc error: code = NotFound desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": ${IMAGE}: not found`;
const PULL_SENTENCE = `1 pod can't pull ${IMAGE}: not found`;
const DEADLINE = { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "catalog-7d9f8b6c2d" has timed out progressing.', lastUpdateTime: '2026-11-27T09:10:00Z', lastTransitionTime: '2026-11-27T09:10:00Z' };

/** A one-replica Deployment whose new pod cannot pull its image, as the cluster holds it. */
function brokenImage() {
  const catalog = deployment('catalog', { replicas: 1 });
  const rs = replicaSet(catalog, 2, { replicas: 1, status: { readyReplicas: 0, availableReplicas: 0 } });
  const broken = pod(rs, 'x1', {
    ready: false,
    phase: 'Pending',
    containerStatuses: [{ name: 'catalog', image: IMAGE, imageID: '', ready: false, restartCount: 0, started: false, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` } } }],
  });
  const failed = event(broken, 'Failed', PULL_FAILED, { first: 40, count: 3, fieldPath: 'spec.containers{catalog}' });
  const drifting = (extra: Record<string, unknown> = {}): SlimObject => ({ ...catalog, status: { ...(catalog.status as object), updatedReplicas: 1, readyReplicas: 0, availableReplicas: 0, unavailableReplicas: 1, ...extra } }) as SlimObject;
  return { catalog, rs, broken, failed, drifting };
}

/** What the causes feature pushes for these objects now, handed to the store as the history feature does. */
function pushCauses(objects: readonly SlimObject[]): void {
  const at = h.clock.now();
  const reports = findCauses(createCauseView(objects), { now: at });
  h.store.noteCauses(headlinesOf({ context: 'test', revision: 1, at, reports }), at);
}

let resourceVersion = 50_000;
/** Upserts `object` into the history's cache as a watch would, with a new resourceVersion. */
function put(object: SlimObject): void {
  upsertBuiltin(h.cache, { ...object, metadata: { ...object.metadata, resourceVersion: String((resourceVersion += 1)) } } as SlimObject);
}

const allEpisodes = () => h.store.episodes.episodes({ from: 0, to: Number.MAX_SAFE_INTEGER }).episodes;
const episodeOf = (uid: string) => allEpisodes().find((episode) => episode.workload.uid === uid);

describe('an episode keeps its cause', () => {
  it("stores the broken image's \"1 pod can't pull …\" with the episode it opened, with the pod as evidence", async () => {
    const { catalog, rs, broken, failed, drifting } = brokenImage();
    put(catalog);
    h.clock.advance(1_000);
    const opened = h.clock.now();
    put(drifting());
    h.clock.advance(1_000);
    pushCauses([drifting(), rs, broken, failed]);
    await h.store.flush();

    const episode = episodeOf(catalog.metadata.uid);
    expect(episode?.start).toBe(opened);
    expect(episode?.causes).toEqual([{ at: opened + 1_000, code: 'image-pull', sentence: PULL_SENTENCE, evidence: { kind: 'Pod', name: broken.metadata.name } }]);
    expect(EpisodeSchema.parse(episode)).toEqual(episode);
  });

  it('records a change of cause with when it was first seen, and no repeat of one it already has', async () => {
    const { catalog, rs, broken, failed, drifting } = brokenImage();
    put(catalog);
    h.clock.advance(1_000);
    put(drifting());
    h.clock.advance(1_000);
    pushCauses([drifting(), rs, broken, failed]);
    await h.store.flush();
    h.clock.advance(10_000);
    const stalled = drifting({ conditions: [DEADLINE] });
    put(stalled);
    const changedAt = h.clock.now();
    pushCauses([stalled, rs, broken, failed]);
    h.clock.advance(1_000);
    pushCauses([stalled, rs, broken, failed]);
    await h.store.flush();

    const causes = episodeOf(catalog.metadata.uid)?.causes ?? [];
    expect(causes.map((cause) => [cause.code, cause.at])).toEqual([
      ['image-pull', changedAt - 10_000],
      ['progress-deadline', changedAt],
    ]);
    expect(causes[1]?.sentence).toMatch(/ProgressDeadlineExceeded|timed out progressing/);
  });

  it('keeps the causes of a closed episode after the pods, the Events and the app are gone, and of an open one across a restart', async () => {
    const { catalog, rs, broken, failed, drifting } = brokenImage();
    put(catalog);
    h.clock.advance(1_000);
    put(drifting());
    h.clock.advance(1_000);
    pushCauses([drifting(), rs, broken, failed]);
    await h.store.flush();
    // The app restarts within the gap: the episode goes on and keeps what it had, then learns more.
    h.reopen();
    h.clock.advance(1_000);
    const stalled = drifting({ conditions: [DEADLINE] });
    put(stalled);
    pushCauses([stalled, rs, broken, failed]);
    h.clock.advance(5_000);
    put(catalog);
    h.cache.delete(BUILTIN_KEYS.Pod, broken.metadata.uid);
    pushCauses([catalog, rs]);
    await h.store.flush();
    h.reopen({ record: false });

    const episode = episodeOf(catalog.metadata.uid);
    expect(episode?.end).not.toBeNull();
    expect(episode?.causes?.map((cause) => cause.code)).toEqual(['image-pull', 'progress-deadline']);
    expect(episode?.causes?.[0]?.sentence).toBe(PULL_SENTENCE);
    expect(h.store.episodes.episode(episode?.id ?? -1)?.causes?.[0]?.sentence).toBe(PULL_SENTENCE);
  });

  it('gives an episode that opens the cause already known, but never the last episode\'s stale one', async () => {
    const { catalog, rs, broken, failed, drifting } = brokenImage();
    put(catalog);
    // The finder names the cause before the workload's own change reaches the recorder.
    pushCauses([drifting(), rs, broken, failed]);
    h.clock.advance(500);
    put(drifting());
    h.clock.advance(1_000);
    put(catalog);
    h.clock.advance(1_000);
    // Drifting again before the finder's next push: no cause is known for this one yet.
    put(drifting({ readyReplicas: 0, updatedReplicas: 0 }));
    await h.store.flush();

    const [first, second] = allEpisodes().filter((episode) => episode.workload.uid === catalog.metadata.uid);
    expect(first?.causes?.map((cause) => cause.sentence)).toEqual([PULL_SENTENCE]);
    expect(second).toBeDefined();
    expect(second?.causes).toBeUndefined();
  });
});

describe('the causes an episode keeps', () => {
  it(`are distinct by code, at most ${MAX_EPISODE_CAUSES}, the first sentence of each kept`, () => {
    let causes = noteCause(undefined, { code: 'image-pull', sentence: "1 pod can't pull a:1: not found" }, 1);
    expect(noteCause(causes, { code: 'image-pull', sentence: "3 pods can't pull a:1: not found" }, 2)).toBeUndefined();
    for (const [i, code] of ['crash-loop', 'unschedulable', 'progress-deadline'].entries()) causes = noteCause(causes, { code, sentence: code }, 10 + i) ?? causes;
    expect(causes?.map((cause) => cause.code)).toEqual(['image-pull', 'crash-loop', 'unschedulable', 'progress-deadline']);
    expect(noteCause(causes, { code: 'node-not-ready', sentence: 'x' }, 20)).toBeUndefined();
  });

  it('keep the "not ready" fallback only until a specific cause is known, and never add it after one', () => {
    const fallback = noteCause(undefined, { code: 'not-ready', sentence: '1 of 2 replicas not ready' }, 1);
    expect(fallback?.map((cause) => cause.code)).toEqual(['not-ready']);
    const specific = noteCause(fallback, { code: 'image-pull', sentence: "1 pod can't pull a:1: not found" }, 2);
    expect(specific?.map((cause) => [cause.code, cause.at])).toEqual([['image-pull', 2]]);
    expect(noteCause(specific, { code: 'not-ready', sentence: '1 of 2 replicas not ready' }, 3)).toBeUndefined();
  });

  it("note the cause under a controller's verdict with it, marked as found under it", () => {
    const under = headlinesOf({
      context: 'c',
      revision: 1,
      at: 5,
      reports: [
        {
          target: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'api', uid: 'd1' },
          causes: [
            {
              code: 'progress-deadline',
              sentence: 'Deployment api exceeded its progress deadline: ReplicaSet "api-1" has timed out progressing.',
              evidence: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'api', uid: 'd1', detail: 'Progressing=False' }],
              chain: [],
              underneath: [{ code: 'readiness-probe', sentence: '1 new pod fails its readiness probe', evidence: [{ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'api-1-x', uid: 'p1', detail: 'Unhealthy' }], chain: [] }],
            },
          ],
        },
        { target: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'calm', uid: 'd2' }, causes: [] },
      ],
    });
    expect([...under.keys()]).toEqual(['d1']);
    expect(under.get('d1')).toEqual([
      { code: 'progress-deadline', sentence: 'Deployment api exceeded its progress deadline: ReplicaSet "api-1" has timed out progressing.', evidence: { kind: 'Deployment', name: 'api' } },
      { code: 'readiness-probe', sentence: '1 new pod fails its readiness probe', evidence: { kind: 'Pod', name: 'api-1-x' }, under: true },
    ]);
  });

  it('read a damaged column as none rather than failing the episode list', () => {
    expect(decodeCauses('{not json')).toBeUndefined();
    expect(decodeCauses(JSON.stringify([{ code: 'image-pull' }]))).toBeUndefined();
    expect(decodeCauses(JSON.stringify([{ at: 1, code: 'x', sentence: 'y' }]))).toEqual([{ at: 1, code: 'x', sentence: 'y' }]);
  });
});

describe('history schema: episode causes', () => {
  const version = MIGRATIONS.findIndex((migration) => String(migration).includes('ADD COLUMN causes')) + 1;

  it('is one added nullable column', () => {
    expect(version).toBeGreaterThan(5);
    expect(version).toBeLessThanOrEqual(SCHEMA_VERSION);
    expect(String(MIGRATIONS[version - 1]).trim()).toBe('ALTER TABLE episodes ADD COLUMN causes TEXT;');
  });

  it('upgrades a database written before it: old episodes read without causes, new ones keep theirs', async () => {
    const { catalog, rs, broken, failed, drifting } = brokenImage();
    put(catalog);
    h.clock.advance(1_000);
    put(drifting());
    h.clock.advance(1_000);
    put(catalog);
    await h.store.flush();
    h.store.close();
    // What a build without the column wrote.
    const db = new DatabaseSync(h.file);
    db.exec(`ALTER TABLE episodes DROP COLUMN causes; PRAGMA user_version = ${version - 1};`);
    db.close();

    h.reopen();
    h.clock.advance(1_000);
    put(drifting());
    h.clock.advance(1_000);
    pushCauses([drifting(), rs, broken, failed]);
    await h.store.flush();

    const check = new DatabaseSync(h.file, { readOnly: true });
    expect((check.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    check.close();
    const [old, fresh] = allEpisodes();
    expect(old?.causes).toBeUndefined();
    expect(fresh?.causes?.[0]?.sentence).toBe(PULL_SENTENCE);
  });
});
