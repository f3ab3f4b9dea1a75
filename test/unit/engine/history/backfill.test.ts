/**
 * Backfill on connect: what the cluster still holds (ReplicaSet revisions, ControllerRevisions,
 * conditions' transitions, terminated containers, Job runs, creation) becomes inferred rows
 * with deterministic ids, read back with the workload's series and the timeline's episodes.
 */
import { describe, expect, it } from 'vitest';
import { factId, inferFacts } from '../../../../electron/engine/history/backfill.ts';
import { runBackfill } from '../../../../electron/engine/history/backfill-run.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

const T = (iso: string) => Date.parse(iso);

const deploy = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', uid: 'd-1', resourceVersion: '10', generation: 3, creationTimestamp: '2026-11-20T08:00:00Z' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:v3' }] } } },
  status: {
    observedGeneration: 3,
    replicas: 2,
    readyReplicas: 1,
    availableReplicas: 1,
    updatedReplicas: 2,
    unavailableReplicas: 1,
    conditions: [
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', lastUpdateTime: '2026-11-27T09:05:00Z', lastTransitionTime: '2026-11-20T08:00:00Z' },
      { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.', lastUpdateTime: '2026-11-27T22:10:00Z', lastTransitionTime: '2026-11-27T22:10:00Z' },
    ],
  },
} as unknown as SlimObject;

const rs = (revision: number, uid: string, created: string): SlimObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `web-${uid}`,
      namespace: 'shop',
      uid,
      resourceVersion: '11',
      generation: 1,
      creationTimestamp: created,
      annotations: { 'deployment.kubernetes.io/desired-replicas': '2', 'deployment.kubernetes.io/max-replicas': '3', 'deployment.kubernetes.io/revision': String(revision) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-1', controller: true, blockOwnerDeletion: true }],
    },
    spec: { replicas: revision === 3 ? 2 : 0 },
    status: { replicas: revision === 3 ? 2 : 0, observedGeneration: 1 },
  }) as unknown as SlimObject;

const crashing = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-rs3-abcde', namespace: 'shop', uid: 'p-1', resourceVersion: '12', creationTimestamp: '2026-11-27T09:05:00Z', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs3', uid: 'rs-3', controller: true }] },
  spec: { nodeName: 'worker-1', containers: [{ name: 'web', image: 'web:v3' }] },
  status: {
    phase: 'Running',
    startTime: '2026-11-27T09:05:00Z',
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-11-27T09:05:00Z' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: '2026-11-27T22:10:00Z' },
    ],
    containerStatuses: [
      {
        name: 'web',
        ready: false,
        restartCount: 7,
        image: 'web:v3',
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } },
        lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: '2026-11-27T23:40:02Z', finishedAt: '2026-11-27T23:41:10Z' } },
      },
      { name: 'sidecar', ready: true, restartCount: 2, image: 'envoy:1', state: { running: { startedAt: '2026-11-27T09:05:03Z' } }, lastState: {} },
    ],
  },
} as unknown as SlimObject;

const job = (uid: string, status: Record<string, unknown>): SlimObject =>
  ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: `nightly-${uid}`, namespace: 'shop', uid, resourceVersion: '13', creationTimestamp: '2026-11-27T02:00:00Z' }, spec: { completions: 1 }, status }) as unknown as SlimObject;

const succeeded = job('j-1', { startTime: '2026-11-27T02:00:01Z', completionTime: '2026-11-27T02:03:30Z', succeeded: 1, conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: '2026-11-27T02:03:30Z' }] });
const failed = job('j-2', { startTime: '2026-11-27T03:00:01Z', failed: 7, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', lastTransitionTime: '2026-11-27T03:12:00Z' }] });

const statefulRevision = {
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name: 'db-7c9d8f6b5', namespace: 'shop', uid: 'cr-1', resourceVersion: '14', creationTimestamp: '2026-11-25T10:00:00Z', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 's-1', controller: true }] },
  revision: 2,
} as unknown as SlimObject;

describe('inferring facts from real object shapes', () => {
  it('reads ReplicaSet revisions as rollouts of their Deployment, at their creation', () => {
    const [row] = inferFacts(rs(2, 'rs-2', '2026-11-26T14:00:00Z'), 'replicasets.apps', 'd-1');
    expect(row).toMatchObject({ fact: 'rollout', at: T('2026-11-26T14:00:00Z'), workloadUid: 'd-1', detail: 'revision 2 (ReplicaSet web-rs-2)' });
  });

  it('reads a ControllerRevision, watched as metadata or in full', () => {
    expect(inferFacts(statefulRevision, 'controllerrevisions.apps', 's-1')[0]).toMatchObject({ fact: 'rollout', at: T('2026-11-25T10:00:00Z'), detail: 'revision 2 (ControllerRevision db-7c9d8f6b5)' });
    const { revision: _r, ...metadataOnly } = statefulRevision as unknown as Record<string, unknown>;
    expect(inferFacts(metadataOnly as unknown as SlimObject, 'controllerrevisions.apps', 's-1')[0]?.detail).toBe('a revision (ControllerRevision db-7c9d8f6b5)');
  });

  it('reads condition transitions and the creation of a Deployment', () => {
    const rows = inferFacts(deploy, 'deployments.apps', 'd-1');
    expect(rows.map((r) => [r.fact, r.at, r.detail])).toEqual([
      ['created', T('2026-11-20T08:00:00Z'), 'Deployment created'],
      ['condition', T('2026-11-20T08:00:00Z'), 'Progressing → True (NewReplicaSetAvailable)'],
      ['condition', T('2026-11-27T22:10:00Z'), 'Available → False (MinimumReplicasUnavailable)'],
    ]);
  });

  it("reads a pod's last termination and leaves unknown restart times unknown", () => {
    const rows = inferFacts(crashing, 'pods', 'd-1');
    expect(rows.map((r) => [r.fact, r.at, r.detail])).toEqual([
      ['condition', T('2026-11-27T22:10:00Z'), 'Ready → False (ContainersNotReady)'],
      ['terminated', T('2026-11-27T23:41:10Z'), 'container web exited 137 (OOMKilled), started 2026-11-27T23:40:02.000Z; 7 restarts'],
      ['terminated', null, 'container sidecar restarted 2 times; when is unknown'],
    ]);
  });

  it('reads Job runs: a success to its completionTime, a failure to its Failed condition', () => {
    expect(inferFacts(succeeded, 'jobs.batch', 'j-1').find((r) => r.fact === 'job-run')).toMatchObject({ at: T('2026-11-27T02:00:01Z'), end: T('2026-11-27T02:03:30Z'), detail: 'Job run succeeded' });
    expect(inferFacts(failed, 'jobs.batch', 'j-2').find((r) => r.fact === 'job-run')).toMatchObject({ at: T('2026-11-27T03:00:01Z'), end: T('2026-11-27T03:12:00Z'), detail: 'Job run failed (BackoffLimitExceeded)' });
  });

  it('never invents a time: a condition without lastTransitionTime is of unknown time', () => {
    const bare = { ...deploy, metadata: { ...deploy.metadata, creationTimestamp: undefined }, status: { conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }] } } as unknown as SlimObject;
    const rows = inferFacts(bare, 'deployments.apps', 'd-1');
    expect(rows.map((r) => [r.at, r.detail])).toEqual([
      [null, 'Deployment created at an unknown time'],
      [null, 'Available → False (MinimumReplicasUnavailable), since an unknown time'],
    ]);
  });

  it('gives the same ids for the same facts, and different ids for different times', () => {
    const a = inferFacts(crashing, 'pods', 'd-1').map((r) => r.id);
    expect(inferFacts(structuredClone(crashing), 'pods', 'd-1').map((r) => r.id)).toEqual(a);
    expect(new Set(a).size).toBe(a.length);
    expect(factId('u', 'condition', 'Ready=False', 1)).not.toBe(factId('u', 'condition', 'Ready=False', 2));
  });

  it('keeps the ids of earlier versions (the first 24 hex digits of the SHA-1 of the fact, UTF-8), so an update adds no duplicate rows', () => {
    expect(factId('u', 'condition', 'Ready=False', 1)).toBe('5bbde3258ee96ac1786aa64d');
    expect(factId('ü', 'event', 'x', null)).toBe('fea5a32f82e6a2ca29589af1');
  });
});

describe('backfill into the store', () => {
  let h: StoreHarness;
  harnessPerTest((harness) => (h = harness));
  const cluster = [deploy, rs(1, 'rs-1', '2026-11-20T08:00:00Z'), rs(2, 'rs-2', '2026-11-26T14:00:00Z'), rs(3, 'rs-3', '2026-11-27T09:05:00Z'), crashing, succeeded, failed];

  function connect(): void {
    for (const object of cluster) upsertBuiltin(h.cache, object);
  }

  it('runs once per connect after the first sync, and a reconnect adds no duplicates', async () => {
    h.clock.set(T('2026-11-28T00:10:00Z'));
    connect();
    const first = await h.store.synced();
    expect(first).toMatchObject({ objects: cluster.length });
    expect(first?.added).toBe(first?.rows);
    expect(first?.added).toBeGreaterThan(10);
    // The same store: synced again (a kind relisted) does not run it twice.
    expect(await h.store.synced()).toBe(first);
    // A reconnect (the store reopened over the same file) writes the same rows again: none new.
    h.cache.clear();
    h.reopen();
    connect();
    const second = await h.store.synced();
    expect(second).toMatchObject({ rows: first?.rows, added: 0 });
    expect((h.store.db.prepare('SELECT count(*) AS n FROM inferred').get() as { n: number }).n).toBe(first?.rows);
  });

  it("answers a workload's inferred facts with its series, and the rollouts with the timeline's episodes", async () => {
    h.clock.set(T('2026-11-28T00:10:00Z'));
    connect();
    await h.store.flush();
    await h.store.synced();
    const from = T('2026-11-26T00:00:00Z');
    const to = T('2026-11-28T00:10:00Z');
    const series = h.store.series({ uid: 'd-1', from, to });
    const facts = series?.inferred ?? [];
    expect(facts.filter((f) => f.fact === 'rollout').map((f) => f.detail)).toEqual(['revision 2 (ReplicaSet web-rs-2)', 'revision 3 (ReplicaSet web-rs-3)']);
    // The pod's facts belong to its Deployment (pod -> ReplicaSet -> Deployment); unknown times are kept.
    expect(facts.some((f) => f.object.uid === 'p-1' && f.fact === 'terminated' && f.at === T('2026-11-27T23:41:10Z'))).toBe(true);
    expect(facts.some((f) => f.at === null && f.detail.includes('when is unknown'))).toBe(true);
    const list = h.store.episodes.episodes({ from, to });
    expect(list.inferred?.map((f) => [f.workloadUid, f.detail])).toEqual([
      ['d-1', 'revision 2 (ReplicaSet web-rs-2)'],
      ['d-1', 'revision 3 (ReplicaSet web-rs-3)'],
    ]);
  });

  it('leaves out facts older than retention keeps (they would be pruned at once), never those of unknown time', async () => {
    const objects = [rs(1, 'rs-old', '2026-10-01T00:00:00Z'), rs(2, 'rs-new', '2026-11-27T00:00:00Z'), { ...rs(3, 'rs-unknown', ''), metadata: { ...rs(3, 'rs-unknown', '').metadata, creationTimestamp: undefined } } as unknown as SlimObject];
    const result = await runBackfill({ db: h.store.db, objects, kinds: objects.map(() => 'replicasets.apps'), now: h.clock.now, keepAfter: T('2026-11-14T00:00:00Z') });
    expect(result.rows).toBe(2);
    const kept = h.store.db.prepare('SELECT object_uid, at FROM inferred ORDER BY object_uid').all();
    expect(kept).toEqual([{ object_uid: 'rs-new', at: T('2026-11-27T00:00:00Z') }, { object_uid: 'rs-unknown', at: null }]);
  });

  it('writes the same rows whatever the sorted runs and transactions, giving the event loop back between transactions', async () => {
    const objects = Array.from({ length: 50 }, (_, i) => rs(i + 1, `rs-${i}`, '2026-11-27T09:05:00Z'));
    const kinds = objects.map(() => 'replicasets.apps');
    const all = () => h.store.db.prepare('SELECT * FROM inferred ORDER BY id').all();
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    // One slice infers everything: the turns given back are the writes'.
    const small = await runBackfill({ db: h.store.db, objects, kinds, now: h.clock.now, sliceObjects: 1_000, sliceMs: 1_000, writeRows: 3, sortRows: 7 });
    clearInterval(ticking);
    expect(small).toMatchObject({ rows: 50, added: 50 });
    expect(turns).toBeGreaterThan(0);
    const written = all();
    h.store.db.exec('DELETE FROM inferred');
    expect(await runBackfill({ db: h.store.db, objects, kinds, now: h.clock.now })).toMatchObject({ rows: 50, added: 50 });
    expect(all()).toEqual(written);
  });

  it('gives the event loop back between slices', async () => {
    const objects = Array.from({ length: 50 }, (_, i) => rs(i + 1, `rs-${i}`, '2026-11-27T09:05:00Z'));
    // Another task queued on the event loop gets a turn between slices, however fast the slices
    // (a timer needs a millisecond to pass, which a fast machine may not give it).
    let turns = 0;
    let running = true;
    const tick = (): void => {
      turns += 1;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await runBackfill({ db: h.store.db, objects, kinds: objects.map(() => 'replicasets.apps'), now: h.clock.now, sliceObjects: 5 });
    running = false;
    expect(result.rows).toBe(50);
    // 50 objects in slices of 5: ten slices, nine turns given back between them at least.
    expect(turns).toBeGreaterThanOrEqual(9);
  });
});
