import { afterEach, describe, expect, it } from 'vitest';
import type { KindKey } from '../../../../shared/cluster.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { cacheMatchesStore, startQuietCluster, T, waitFor, watching, type Watching } from './helpers.ts';

const KINDS: KindKey[] = ['namespaces', 'nodes', 'pods', 'deployments.apps', 'replicasets.apps'];

let sim: SimCluster | undefined;
let w: Watching | undefined;
afterEach(async () => {
  await w?.watcher.stop();
  await sim?.stop();
  w = undefined;
  sim = undefined;
});

async function live(options: Parameters<typeof watching>[1] = {}): Promise<{ sim: SimCluster; w: Watching }> {
  sim = await startQuietCluster();
  w = watching(sim.kubeconfigObject(), { kinds: KINDS, pageSize: 5, ...options });
  await w.watcher.start();
  await waitFor('every kind live', () => w?.health.all(KINDS, 'live'));
  w.changes.length = 0;
  return { sim, w };
}

function pods(sim: SimCluster): KubeObject[] {
  return sim.store.all(T('pods'));
}

/** Relabels one pod in the store; returns its uid. */
function relabel(sim: SimCluster, pod: KubeObject, value: string): string {
  sim.store.update(T('pods'), { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, touched: value } } });
  return pod.metadata.uid as string;
}

describe('recovery', () => {
  it.each(['in-stream', 'http'] as const)('relists after 410 Gone (%s) and emits only what changed', async (mode) => {
    const { sim, w } = await live();
    sim.server.faults.watch410Mode(mode);
    const [first, second] = pods(sim) as [KubeObject, KubeObject];
    const mark = w.health.reports.length;
    // While every watch is down: one pod changes, one goes, and the history is compacted away.
    sim.server.faults.cutWatches();
    const changed = relabel(sim, first, 'yes');
    sim.store.delete(T('pods'), second.metadata.namespace, second.metadata.name);
    sim.server.faults.compact();
    await waitFor('the cache to equal the store', () => cacheMatchesStore(w.cache, sim) && w.health.all(KINDS, 'live'));
    for (const kind of KINDS) expect(w.logs.some((m) => m.startsWith(`${kind}: `) && m.includes('(410); relisting'))).toBe(true);
    // The status bar saw the reconnect and the resync (in-stream, the watch opens before its ERROR).
    const states = w.health.states('pods', mark);
    expect(states.slice(0, 2)).toEqual(['live', 'reconnecting']);
    expect(states.slice(-2)).toEqual(['syncing', 'live']);
    // Five kinds relisted, twenty-odd objects: exactly one upsert and one delete reached listeners.
    expect(w.changes.map((c) => (c.type === 'upsert' ? ['upsert', c.object.metadata.uid] : ['delete', c.ref.uid]))).toEqual([
      ['upsert', changed],
      ['delete', second.metadata.uid],
    ]);
  });

  it('relists Events without a resourceVersion, so the empty-200 quirk cannot empty the cache', async () => {
    sim = await startQuietCluster();
    const recorded = sim.store.create(T('events'), { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Started', message: 'ok', type: 'Normal' });
    w = watching(sim.kubeconfigObject(), { kinds: ['events'] });
    await w.watcher.start();
    await waitFor('events live', () => w?.health.latest('events')?.state === 'live');
    sim.server.faults.emptyListOnStaleEvents(true);
    sim.server.faults.cutWatches();
    const later = sim.store.create(T('events'), { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e2', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Killing', message: 'bye', type: 'Normal' });
    sim.server.faults.compact();
    await waitFor('a relist', () => w?.logs.some((m) => m.includes('relisting')) && w.health.latest('events')?.state === 'live');
    expect(w.cache.list('events').map((e) => e.metadata.uid).sort()).toEqual([recorded.metadata.uid, later.metadata.uid].sort());
  });

  it('restarts a watch after the server cuts it', async () => {
    const { sim, w } = await live();
    const mark = w.health.reports.length;
    expect(sim.server.faults.cutWatches()).toBe(KINDS.length);
    const [pod] = pods(sim) as [KubeObject];
    const uid = relabel(sim, pod, 'after-cut');
    await waitFor('the change after the cut', () => w.cache.get('pods', uid)?.metadata.labels?.['touched'] === 'after-cut');
    expect(w.health.states('pods', mark)).toEqual(['live', 'reconnecting', 'live']);
    expect(w.logs.some((m) => m.startsWith('pods: ') && m.includes('ECONNRESET'))).toBe(true);
    // Resumed from the last resourceVersion: no relist, and only the one change emitted.
    expect(w.logs.some((m) => m.includes('relisting'))).toBe(false);
    expect(w.changes).toHaveLength(1);
    await waitFor('one watch per kind again', () => sim.server.faults.openWatches() === KINDS.length);
  });

  it('restarts a stalled watch via the watchdog', async () => {
    const { sim, w } = await live({ watchdogMs: 300 });
    expect(sim.server.faults.stallWatches()).toBe(KINDS.length);
    const [pod] = pods(sim) as [KubeObject];
    const uid = relabel(sim, pod, 'while-stalled');
    await waitFor('the change held back by the stalled watch', () => w.cache.get('pods', uid)?.metadata.labels?.['touched'] === 'while-stalled');
    expect(w.logs.some((m) => m.startsWith('pods: No data from') && m.includes('reconnecting'))).toBe(true);
    expect(w.health.states('pods')).toContain('reconnecting');
    await waitFor('pods live again', () => w.health.latest('pods')?.state === 'live');
  });

  it('keeps a quiet watch that receives bookmarks', async () => {
    const { sim, w } = await live({ watchdogMs: 300 });
    // Once every watch is open: a connection's set-up (its own TLS handshake, on a loaded machine) is not the quiet watch this is about.
    await waitFor('one watch per kind', () => sim.server.faults.openWatches() === KINDS.length);
    const mark = w.logs.length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(w.logs.slice(mark).filter((m) => m.includes('No data'))).toEqual([]);
    expect(sim.server.faults.openWatches()).toBe(KINDS.length);
  });

  it('resumes after the API server restarts', async () => {
    const { sim, w } = await live();
    const mark = w.health.reports.length;
    await sim.server.restart();
    const [pod] = pods(sim) as [KubeObject];
    const uid = relabel(sim, pod, 'after-restart');
    await waitFor('the change after the restart', () => w.cache.get('pods', uid)?.metadata.labels?.['touched'] === 'after-restart' && w.health.all(KINDS, 'live'));
    expect(w.health.states('pods', mark)).toEqual(['live', 'reconnecting', 'live']);
    expect(cacheMatchesStore(w.cache, sim)).toBe(true);
  });

  it('restarts every watch on restartAll without relisting', async () => {
    const { sim, w } = await live();
    const mark = w.health.reports.length;
    w.watcher.restartAll('system resumed');
    const [pod] = pods(sim) as [KubeObject];
    const uid = relabel(sim, pod, 'after-resume');
    await waitFor('the change after the restart', () => w.cache.get('pods', uid)?.metadata.labels?.['touched'] === 'after-resume' && w.health.all(KINDS, 'live'));
    for (const kind of KINDS) expect(w.health.states(kind, mark)).toEqual(['live', 'reconnecting', 'live']);
    expect(w.health.reports.slice(mark).some((r) => r.some((h) => h.message === 'Restarting: system resumed'))).toBe(true);
    expect(w.logs.some((m) => m.includes('relisting'))).toBe(false);
    expect(w.changes).toHaveLength(1);
    await waitFor('one watch per kind', () => sim.server.faults.openWatches() === KINDS.length);
  });
});
