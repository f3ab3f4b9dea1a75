/**
 * Custom resources in the drift history: episodes that open and close with the generic status
 * rule, replica samples where the resource reports counts, state transitions where it does not,
 * and continuity across a restart. Objects are in the shapes their controllers write.
 */
import { describe, expect, it } from 'vitest';
import { isCustomKind } from '../../../../electron/engine/history/custom-sample.ts';
import { createRecorder } from '../../../../electron/engine/history/recorder.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { historyRequests } from '../../../../shared/contracts/history.ts';
import { certificateFailed, certificateIssuing, certificateReady } from '../../shared/status-rules/fixtures.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

let h: StoreHarness;
harnessPerTest((next) => (h = next));

const DATABASES = 'databases.db.kubedrift.dev';
const CERTIFICATES = 'certificates.cert-manager.io';
const T = '2026-01-01T12:00:00Z';

interface DatabaseState {
  generation?: number;
  observedGeneration?: number;
  version?: string;
  replicas?: number;
  ready?: number;
  stalled?: boolean;
}

let rv = 1;

/** A Database as the demo's database operator writes it (status subresource, kstatus conditions). */
function database(state: DatabaseState = {}): SlimObject {
  const generation = state.generation ?? 1;
  const replicas = state.replicas ?? 2;
  const ready = state.ready ?? replicas;
  const version = state.version ?? '16.4';
  const done = !state.stalled && ready === replicas;
  const progress = `${ready}/${replicas} replicas ready`;
  const conditions = state.stalled
    ? [
        { type: 'Ready', status: 'False', reason: 'UnsupportedVersion', message: `postgres ${version} is not supported by this operator (supported: 15.8, 16.4)`, lastTransitionTime: T },
        { type: 'Reconciling', status: 'False', reason: 'UnsupportedVersion', message: `postgres ${version} is not supported by this operator (supported: 15.8, 16.4)`, lastTransitionTime: T },
        { type: 'Stalled', status: 'True', reason: 'UnsupportedVersion', message: `postgres ${version} is not supported by this operator (supported: 15.8, 16.4)`, lastTransitionTime: T },
      ]
    : [
        { type: 'Ready', status: done ? 'True' : 'False', reason: done ? 'Available' : 'Progressing', message: progress, lastTransitionTime: T },
        { type: 'Reconciling', status: done ? 'False' : 'True', reason: done ? 'ReconcileComplete' : 'Progressing', message: done ? `postgres ${version} is running` : `Rolling out postgres ${version}: ${progress}`, lastTransitionTime: T },
      ];
  return {
    apiVersion: 'db.kubedrift.dev/v1',
    kind: 'Database',
    metadata: { name: 'orders-db', namespace: 'shop', uid: 'db-1', resourceVersion: String(rv++), generation, creationTimestamp: T },
    spec: { engine: 'postgres', version, replicas, storage: '10Gi' },
    status: {
      observedGeneration: state.observedGeneration ?? generation,
      ...(state.stalled ? {} : { replicas, readyReplicas: ready }),
      phase: state.stalled ? 'Failed' : done ? 'Running' : 'Provisioning',
      conditions,
    },
  } as SlimObject;
}

/** `object` as the server sends it again: the cache takes a version it has not seen (a new resourceVersion). */
function sent(object: object): SlimObject {
  const copy = structuredClone(object) as SlimObject;
  copy.metadata.resourceVersion = String(rv++);
  return copy;
}

const all = () => h.store.episodes.episodes({ from: 0, to: Number.MAX_SAFE_INTEGER }).episodes;
const points = (uid: string, name: string) => h.store.series({ uid, from: 0, to: Number.MAX_SAFE_INTEGER })?.series.find((s) => s.name === name)?.points;

describe('recording custom resources', () => {
  it('opens an episode while a Database reconciles and closes it once ready, with its replica samples', async () => {
    const t0 = h.clock.now();
    h.cache.upsert(DATABASES, database({ ready: 0 }));
    h.clock.advance(5_000);
    h.cache.upsert(DATABASES, database({ ready: 1 }));
    h.clock.advance(5_000);
    h.cache.upsert(DATABASES, database({ ready: 2 }));
    await h.store.flush();

    expect(all()).toHaveLength(1);
    const [episode] = all();
    expect(episode).toMatchObject({
      workload: { kind: DATABASES, kindName: 'Database', namespace: 'shop', name: 'orders-db', uid: 'db-1' },
      start: t0,
      end: t0 + 10_000,
      peakGap: 2,
      status: { state: 'progressing', reason: 'Progressing', message: 'Rolling out postgres 16.4: 1/2 replicas ready' },
    });
    expect(episode?.reasons.sort()).toEqual(['progressing', 'ready']);
    expect(points('db-1', 'ready')).toEqual([
      [t0, 0],
      [t0 + 5_000, 1],
      [t0 + 10_000, 2],
    ]);
    expect(points('db-1', 'desired')?.map((p) => p[1])).toEqual([2, 2, 2]);
    // What it does not report stays empty rather than a false zero.
    expect(points('db-1', 'updated')).toEqual([]);
  });

  it('keeps the stall of an unsupported version as the episode\'s state and reason, triggered by the spec change', async () => {
    h.cache.upsert(DATABASES, database());
    h.clock.advance(1_000);
    const stalledAt = h.clock.now();
    h.cache.upsert(DATABASES, database({ generation: 2, observedGeneration: 1, version: '17.0' }));
    h.clock.advance(500);
    h.cache.upsert(DATABASES, database({ generation: 2, version: '17.0', stalled: true }));
    h.clock.advance(60_000);
    h.cache.upsert(DATABASES, database({ generation: 3, version: '16.4', ready: 1 }));
    h.clock.advance(10_000);
    const readyAt = h.clock.now();
    h.cache.upsert(DATABASES, database({ generation: 3, version: '16.4' }));
    await h.store.flush();

    const episodes = all();
    expect(episodes).toHaveLength(1);
    expect(episodes[0]).toMatchObject({
      start: stalledAt,
      end: readyAt,
      trigger: { generation: 2 },
      status: { state: 'failed', reason: 'UnsupportedVersion', message: 'postgres 17.0 is not supported by this operator (supported: 15.8, 16.4)' },
    });
    // The worst moment is kept: the later reconcile does not overwrite the stall.
    expect(episodes[0]?.reasons.sort()).toEqual(['generation', 'progressing', 'ready', 'stalled']);
    const detail = h.store.episodes.episode(episodes[0]?.id ?? -1);
    expect(detail?.status?.reason).toBe('UnsupportedVersion');
    expect(h.store.episodes.episodes({ from: 0, to: Number.MAX_SAFE_INTEGER, kind: DATABASES }).episodes).toHaveLength(1);
    // The contract carries it both ways: a custom kind key as the filter, the episode as answered.
    const episodesChannel = historyRequests['history:episodes'];
    const query = episodesChannel.request.parse({ from: 0, to: h.clock.now(), kind: DATABASES });
    expect(episodesChannel.response.parse({ ...h.store.episodes.episodes(query), since: null }).episodes[0]?.status?.reason).toBe('UnsupportedVersion');
    expect(episodesChannel.request.safeParse({ from: 0, to: 1, kind: 'Database' }).success).toBe(false);
    expect(h.store.episodes.episodes({ from: 0, to: Number.MAX_SAFE_INTEGER, kind: 'deployments.apps' }).episodes).toHaveLength(0);
  });

  it('records a Certificate without counts by its state transitions', async () => {
    const t0 = h.clock.now();
    h.cache.upsert(CERTIFICATES, sent(certificateIssuing));
    h.clock.advance(4_000);
    h.cache.upsert(CERTIFICATES, sent(certificateReady));
    await h.store.flush();

    const [episode] = all();
    expect(all()).toHaveLength(1);
    expect(episode).toMatchObject({ workload: { kind: CERTIFICATES, kindName: 'Certificate', name: 'web-tls' }, start: t0, end: t0 + 4_000, reasons: ['progressing'], peakGap: 0 });
    expect(episode?.status?.state).toBe('progressing');
    // No replica counts: the samples are its state, before and after.
    expect(points(episode?.workload.uid ?? '', 'ready')).toEqual([]);
    const [change] = h.store.compare(t0, t0 + 4_000);
    expect(change).toMatchObject({ workload: { kind: CERTIFICATES, kindName: 'Certificate' }, before: { state: 'progressing', availableCondition: 'False' }, after: { state: 'current', availableCondition: 'True', progressingReason: 'Ready' } });
    expect(change?.changed).toEqual(expect.arrayContaining(['state', 'availableCondition', 'progressingReason']));
  });

  it('leaves out custom resources without status and kinds Kubernetes serves itself', async () => {
    const { status: _status, ...fresh } = certificateIssuing as SlimObject & { status: unknown };
    h.cache.upsert(CERTIFICATES, { ...fresh, metadata: { ...fresh.metadata, uid: 'no-status' } } as SlimObject);
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'shop', uid: 'pvc-1', resourceVersion: '9' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Pending' },
    } as SlimObject;
    h.cache.upsert('persistentvolumeclaims', claim);
    await h.store.flush();
    expect(h.store.series({ uid: 'no-status', from: 0, to: Number.MAX_SAFE_INTEGER })).toBeNull();
    expect(h.store.series({ uid: 'pvc-1', from: 0, to: Number.MAX_SAFE_INTEGER })).toBeNull();
  });

  it('writes no sample when only a message or a resourceVersion changed', async () => {
    const first = sent(certificateReady);
    h.cache.upsert(CERTIFICATES, first);
    h.clock.advance(1_000);
    h.cache.upsert(CERTIFICATES, sent(certificateReady));
    h.clock.advance(1_000);
    const reworded = sent(certificateReady);
    const [ready] = (reworded['status'] as { conditions: Array<{ message: string }> }).conditions;
    if (ready) ready.message = 'Certificate is up to date and has not expired (renewal scheduled)';
    h.cache.upsert(CERTIFICATES, reworded);
    await h.store.flush();
    expect(h.store.series({ uid: first.metadata.uid, from: 0, to: Number.MAX_SAFE_INTEGER })?.rawSamples).toBe(1);
    expect(all()).toEqual([]);
  });

  it('continues an open episode across a restart with its state, and closes it when the resource converges', async () => {
    h.cache.upsert(CERTIFICATES, sent(certificateFailed));
    await h.store.flush();
    const [before] = all();
    expect(before).toMatchObject({ end: null, reasons: ['stalled'], status: { state: 'failed' } });

    await h.restartAfter(30_000);
    h.cache.upsert(CERTIFICATES, sent(certificateFailed));
    h.clock.advance(2_000);
    h.cache.upsert(CERTIFICATES, sent(certificateReady));
    await h.store.flush();
    const after = all();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before?.id, end: h.clock.now(), status: before?.status });
  });

  it('closes a custom resource\'s episode when the resource is deleted', async () => {
    h.cache.upsert(DATABASES, database({ ready: 0 }));
    h.clock.advance(3_000);
    h.cache.delete(DATABASES, 'db-1');
    await h.store.flush();
    expect(all()[0]?.end).toBe(h.clock.now());
  });

  it('reads replicas where the CRD\'s scale subresource says, when it is known', () => {
    const ETCD = 'etcdclusters.etcd.database.coreos.com';
    // An etcd-operator EtcdCluster: its scale subresource reads .spec.size and .status.size.
    const cluster = {
      apiVersion: 'etcd.database.coreos.com/v1beta2',
      kind: 'EtcdCluster',
      metadata: { name: 'etcd', namespace: 'platform', uid: 'etcd-1', resourceVersion: '7', generation: 2 },
      spec: { size: 3, version: '3.5.9' },
      status: {
        phase: 'Running',
        size: 2,
        members: { ready: ['etcd-0', 'etcd-1'], unready: ['etcd-2'] },
        conditions: [{ type: 'Scaling', status: 'True', reason: 'Scaling up', message: 'Current cluster size: 2, desired cluster size: 3', lastTransitionTime: T }],
      },
    } as SlimObject;
    const history = () => ({ previous: () => undefined, openEpisodes: new Map(), openRollouts: new Map(), nextEpisodeId: 1 });
    const withPaths = createRecorder({ now: () => 1, history: history(), scalePathsOf: (kind) => (kind === ETCD ? { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } : undefined) });
    withPaths.onChange({ type: 'upsert', kind: ETCD, object: cluster, previous: undefined });
    expect(withPaths.take().samples[0]?.values).toMatchObject({ desired: 3, current: 2, ready: null, state: 'none' });
    // Without them, the conventional spec.replicas / status.replicas, which it does not have.
    const without = createRecorder({ now: () => 1, history: history() });
    without.onChange({ type: 'upsert', kind: ETCD, object: cluster, previous: undefined });
    expect(without.take().samples[0]?.values).toMatchObject({ desired: null, current: null });
  });
});

describe('the user\'s status rules', () => {
  it('decide a custom resource\'s episodes as they decide its state everywhere else', () => {
    const WIDGETS = 'widgets.example.com';
    const widget = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'shop', uid: 'widget-1', resourceVersion: '3', generation: 1 },
      spec: { size: 'large' },
      status: { conditions: [{ type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'cannot reach the widget API', lastTransitionTime: T }] },
    } as SlimObject;
    const history = () => ({ previous: () => undefined, openEpisodes: new Map(), openRollouts: new Map(), nextEpisodeId: 1 });
    const plain = createRecorder({ now: () => 1, history: history() });
    plain.onChange({ type: 'upsert', kind: WIDGETS, object: widget, previous: undefined });
    expect(plain.take().episodes.size).toBe(0);
    let rules = [{ group: 'example.com', kind: 'Widget', conditionType: 'Synced', conditionStatus: 'False' as const, state: 'failed' as const }];
    const ruled = createRecorder({ now: () => 1, history: history(), userRules: () => rules });
    ruled.onChange({ type: 'upsert', kind: WIDGETS, object: widget, previous: undefined });
    expect([...ruled.take().episodes.values()]).toEqual([expect.objectContaining({ reasons: ['stalled'], status: expect.objectContaining({ state: 'failed', reason: 'ReconcileError' }) })]);
    // An edit of the rules applies from the next change on.
    rules = [];
    ruled.onChange({ type: 'upsert', kind: WIDGETS, object: { ...widget, metadata: { ...widget.metadata, resourceVersion: '4' } }, previous: widget });
    expect([...ruled.take().episodes.values()]).toEqual([expect.objectContaining({ end: 1 })]);
  });
});

describe('which kinds are custom', () => {
  it('counts kinds outside the groups Kubernetes serves, even under k8s.io, and nothing malformed', () => {
    expect(['databases.db.kubedrift.dev', 'httproutes.gateway.networking.k8s.io', 'rollouts.argoproj.io'].map(isCustomKind)).toEqual([true, true, true]);
    expect(['pods', 'persistentvolumeclaims', 'deployments.apps', 'ingresses.networking.k8s.io', 'customresourcedefinitions.apiextensions.k8s.io', '.db.kubedrift.dev', ''].map(isCustomKind)).toEqual([false, false, false, false, false, false, false]);
  });
});
