// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { computed } from 'vue';
import type { ClusterFrame } from '../../../shared/cluster.ts';
import { err, ok } from '../../../shared/result.ts';
import { link, setApi } from '../../../renderer/api/index.ts';
import { useClusterStore } from '../../../renderer/stores/cluster.ts';
import {
  clusterHealth,
  deltaFrame,
  deployment,
  installFakeFrames,
  kindHealth,
  nextVersion,
  pod,
  refOf,
  replicaSet,
  snapshotFrames,
  type FakeFrames,
} from './cluster-fixtures.ts';
import { createFakeApi, type FakeApi, type Handlers } from './fake-api.ts';

let pinia: Pinia;
let frames: FakeFrames;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  link.value = { state: 'open' };
  pinia = createPinia();
  setActivePinia(pinia);
  frames = installFakeFrames();
});

afterEach(() => {
  disposePinia(pinia);
  frames.restore();
  vi.useRealTimers();
});

async function start(handlers: Handlers = {}): Promise<{ api: FakeApi; store: ReturnType<typeof useClusterStore> }> {
  const api = createFakeApi({
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(clusterHealth('e1', [kindHealth('deployments.apps', 'live', 0)])),
    ...handlers,
  });
  setApi(api);
  const store = useClusterStore();
  await flushPromises();
  return { api, store };
}

function send(api: FakeApi, list: ClusterFrame[]): void {
  for (const frame of list) api.emit('cluster:frames', frame);
}

const resyncs = (api: FakeApi): unknown[] => api.calls.filter((call) => call.channel === 'cluster:resync').map((call) => call.payload);

describe('cluster store', () => {
  it('applies a chunked snapshot in one animation frame, with progress before it completes', async () => {
    const { api, store } = await start();
    const objects = [deployment('web'), deployment('api'), pod('web-1'), pod('web-2'), pod('api-1')];
    const [begin, ...rest] = snapshotFrames('e1', 10, objects, { chunkSize: 2 });
    send(api, [begin as ClusterFrame, rest[0] as ClusterFrame]);
    frames.runFrame();
    expect(store.progress).toEqual({ sent: 2, total: 5 });
    expect(store.objects('pods').size).toBe(0);

    send(api, rest.slice(1));
    expect(frames.pending()).toBe(1);
    expect(frames.runFrame()).toBe(1);
    expect(store.objects('deployments.apps').size).toBe(2);
    expect(store.objects('pods').size).toBe(3);
    expect(store.synced).toBe(true);
    expect(store.seq).toBe(10);
    expect(store.progress).toBeNull();
    expect(store.objectCount).toBe(5);
  });

  it('applies every delta that arrived between two frames as one batch, re-deriving once', async () => {
    const { api, store } = await start();
    const web = deployment('web');
    send(api, snapshotFrames('e1', 1, [web]));
    frames.runFrame();
    let derivations = 0;
    const readyReplicas = computed(() => {
      derivations += 1;
      return [...store.objects('deployments.apps').values()].map((object) => (object['status'] as { readyReplicas: number }).readyReplicas);
    });
    expect(readyReplicas.value).toEqual([3]);
    const revision = store.revision('deployments.apps');

    for (let seq = 2; seq <= 6; seq += 1) {
      send(api, [deltaFrame('e1', seq, [nextVersion(web, String(1000 + seq), (copy) => ((copy['status'] as { readyReplicas: number }).readyReplicas = seq))])]);
    }
    expect(frames.pending()).toBe(1);
    expect(store.objects('deployments.apps').get(web.metadata.uid)?.metadata.resourceVersion).toBe('1000');
    frames.runFrame();
    expect(readyReplicas.value).toEqual([6]);
    expect(store.revision('deployments.apps')).toBe(revision + 1);
    expect(derivations).toBe(2);
    expect(store.seq).toBe(6);
  });

  it('leaves other kinds untouched by a batch that only changed pods', async () => {
    const { api, store } = await start();
    const web = pod('web-1');
    send(api, snapshotFrames('e1', 1, [deployment('web'), web]));
    frames.runFrame();
    const deployments = store.revision('deployments.apps');
    send(api, [deltaFrame('e1', 2, [nextVersion(web, '2000')])]);
    frames.runFrame();
    expect(store.revision('deployments.apps')).toBe(deployments);
  });

  it('keeps the namespace and owner indexes right through updates and deletes', async () => {
    const { api, store } = await start();
    const web = deployment('web', { namespace: 'shop' });
    const rs = replicaSet('web-5d8f7c9b6', { namespace: 'shop', owner: web });
    const pods = [pod('web-5d8f7c9b6-a', { namespace: 'shop' }), pod('web-5d8f7c9b6-b', { namespace: 'shop' })].map((object) =>
      nextVersion(object, '1000', (copy) => {
        (copy['metadata'] as { ownerReferences: unknown }).ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true }];
      }),
    );
    const lone = pod('debug', { namespace: 'tools' });
    send(api, snapshotFrames('e1', 1, [web, rs, ...pods, lone]));
    frames.runFrame();
    expect(store.ownedBy(web.metadata.uid)).toEqual([refOf(rs)]);
    expect(store.ownedBy(rs.metadata.uid).map((ref) => ref.uid).sort()).toEqual(pods.map((object) => object.metadata.uid).sort());
    expect(store.namespaces()).toEqual(['shop', 'tools']);

    // The first pod is orphaned (owner reference removed), the ReplicaSet and the lone pod deleted.
    const orphan = nextVersion(pods[0]!, '2000', (copy) => delete (copy['metadata'] as { ownerReferences?: unknown }).ownerReferences);
    send(api, [deltaFrame('e1', 2, [orphan], [refOf(rs), refOf(lone)])]);
    frames.runFrame();
    expect(store.ownedBy(web.metadata.uid)).toEqual([]);
    expect(store.ownedBy(rs.metadata.uid)).toEqual([refOf(pods[1]!)]);
    expect(store.inNamespace('shop').map((ref) => ref.uid).sort()).toEqual([web, ...pods].map((object) => object.metadata.uid).sort());
    expect(store.namespaces()).toEqual(['shop']);
    expect(store.objectCount).toBe(3);
  });

  it('drops everything when the engine starts a new epoch, and resyncs when deltas come without a snapshot', async () => {
    const { api, store } = await start();
    send(api, snapshotFrames('e1', 1, [deployment('web'), pod('web-1')]));
    frames.runFrame();
    expect(store.objectCount).toBe(2);

    api.emit('cluster:health', clusterHealth('e2', [kindHealth('pods', 'syncing', 0)], 'staging-eu'));
    frames.runFrame();
    expect(store.objectCount).toBe(0);
    expect(store.objects('deployments.apps').size).toBe(0);
    expect(store.synced).toBe(false);
    expect(store.epoch).toBe('e2');
    expect(store.context).toBe('staging-eu');

    const before = resyncs(api).length;
    send(api, [deltaFrame('e2', 5, [pod('api-1')])]);
    expect(resyncs(api)).toHaveLength(before + 1);
    send(api, snapshotFrames('e2', 7, [pod('api-1'), pod('api-2')]));
    frames.runFrame();
    expect(store.objects('pods').size).toBe(2);
    expect(store.synced).toBe(true);
  });

  it('replaces the data when a snapshot of a new epoch arrives directly', async () => {
    const { api, store } = await start();
    send(api, snapshotFrames('e1', 1, [deployment('web')]));
    frames.runFrame();
    send(api, snapshotFrames('e2', 1, [deployment('api'), deployment('db')]));
    frames.runFrame();
    expect([...store.objects('deployments.apps').values()].map((object) => object.metadata.name).sort()).toEqual(['api', 'db']);
    expect(store.epoch).toBe('e2');
  });

  it('ignores a late frame or health report from an epoch it has moved past', async () => {
    const { api, store } = await start();
    send(api, snapshotFrames('e1', 1, [deployment('web')]));
    frames.runFrame();
    send(api, snapshotFrames('e2', 1, [deployment('api')]));
    frames.runFrame();
    const before = resyncs(api).length;
    send(api, [deltaFrame('e1', 2, [deployment('ghost')])]);
    api.emit('cluster:health', clusterHealth('e1', []));
    frames.runFrame();
    expect([...store.objects('deployments.apps').values()].map((object) => object.metadata.name)).toEqual(['api']);
    expect(store.epoch).toBe('e2');
    expect(resyncs(api)).toHaveLength(before);
  });

  it('asks for a snapshot at start, after a seq gap and after the engine link comes back', async () => {
    const { api } = await start();
    expect(resyncs(api)).toEqual([{ reason: 'renderer start' }]);
    send(api, snapshotFrames('e1', 1, [deployment('web')]));
    send(api, [deltaFrame('e1', 4, [])]);
    await flushPromises();
    expect(resyncs(api)).toHaveLength(2);
    expect(resyncs(api)[1]).toEqual({ reason: 'frames went missing (seq 2 to 3)' });

    link.value = { state: 'closed' };
    await flushPromises();
    link.value = { state: 'open' };
    await flushPromises();
    expect(resyncs(api)).toHaveLength(3);
    expect(resyncs(api)[2]).toEqual({ reason: 'engine link reconnected' });
  });

  it('applies a batch after the fallback delay when animation frames are not running (hidden window)', async () => {
    const { api, store } = await start();
    send(api, snapshotFrames('e1', 1, [deployment('web')]));
    expect(store.objectCount).toBe(0);
    vi.advanceTimersByTime(200);
    expect(store.objectCount).toBe(1);
    expect(frames.pending()).toBe(0);
  });

  it('keeps the reason a resync failed and retries it with backoff', async () => {
    let calls = 0;
    const { store } = await start({
      'cluster:resync': () => {
        calls += 1;
        return calls === 1 ? err('internal', 'The informers are restarting') : ok({ epoch: 'e1', seq: 0 });
      },
    });
    expect(store.resyncError?.message).toBe('The informers are restarting');
    vi.advanceTimersByTime(999);
    expect(calls).toBe(1);
    vi.advanceTimersByTime(1);
    await flushPromises();
    expect(calls).toBe(2);
    expect(store.resyncError).toBeNull();
  });

  it('does not retry a resync the engine does not offer', async () => {
    let calls = 0;
    const { store } = await start({
      'cluster:resync': () => {
        calls += 1;
        return err('unknown-channel', 'No handler for cluster:resync');
      },
    });
    vi.advanceTimersByTime(60_000);
    await flushPromises();
    expect(calls).toBe(1);
    expect(store.resyncError?.code).toBe('unknown-channel');
  });

  it('follows cluster:health after the initial answer', async () => {
    const { api, store } = await start();
    expect(store.health?.kinds).toEqual([kindHealth('deployments.apps', 'live', 0)]);
    api.emit('cluster:health', clusterHealth('e1', [kindHealth('pods', 'reconnecting', 4, { message: 'watch stalled' })]));
    expect(store.health?.kinds[0]?.state).toBe('reconnecting');
  });

  it('shows exactly what it holds through the test hook', async () => {
    const { api } = await start();
    const web = deployment('web', { resourceVersion: '41' });
    const gone = pod('web-1');
    send(api, snapshotFrames('e1', 3, [web, gone]));
    send(api, [deltaFrame('e1', 4, [pod('web-2', { uid: 'p-2', resourceVersion: '42' })], [refOf(gone)])]);
    frames.runFrame();
    const hook = window.__kubedriftStore;
    expect(hook?.dump().sort((a, b) => a.uid.localeCompare(b.uid))).toEqual(
      [
        { kind: 'deployments.apps', uid: web.metadata.uid, resourceVersion: '41' },
        { kind: 'pods', uid: 'p-2', resourceVersion: '42' },
      ].sort((a, b) => a.uid.localeCompare(b.uid)),
    );
    expect(hook?.status()).toMatchObject({ epoch: 'e1', seq: 4, synced: true, objects: 2 });
    disposePinia(pinia);
    expect(window.__kubedriftStore).toBeUndefined();
  });
});
