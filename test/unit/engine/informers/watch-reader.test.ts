import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createWatchReader, type WatchReader } from '../../../../electron/engine/cluster/informers/watch-reader.ts';
import { startQuietCluster, T, waitFor, watching, type Watching } from './helpers.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';

/** The sim's bound on how far a watch client may fall behind: small, so a held-up reader is ended soon. */
const LIMIT_BYTES = 256 * 1024;

let sim: Worker | undefined;
let w: Watching | undefined;
let local: SimCluster | undefined;
let reader: WatchReader | undefined;
afterEach(async () => {
  await w?.watcher.stop();
  reader?.close();
  await local?.stop();
  local = undefined;
  reader = undefined;
  sim?.postMessage({ op: 'stop' });
  await sim?.terminate();
  sim = undefined;
  w = undefined;
});

type Churned = { op: 'churned'; ended: boolean; versions: Record<string, string> };

async function startSimThread(): Promise<{ kubeconfig: object; next: () => Promise<Churned> }> {
  sim = new Worker(new URL('./fixtures/sim-thread.ts', import.meta.url), { workerData: { limitBytes: LIMIT_BYTES } });
  const messages: Array<{ op: 'ready'; kubeconfig: object } | Churned> = [];
  sim.on('message', (message: (typeof messages)[number]) => messages.push(message));
  const ready = await waitFor('the simulator thread', () => messages.find((m) => m.op === 'ready'), 30_000);
  return { kubeconfig: ready.kubeconfig, next: () => waitFor('the churn', () => messages.find((m): m is Churned => m.op === 'churned'), 30_000) };
}

/** Holds this thread (the engine's) up, as a long task or a major GC does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spinning
  }
}

/** While this thread is held up for 1.5 s, the simulator writes ~25 MB of pod changes. */
async function holdUpDuringChurn(reader: boolean): Promise<Churned> {
  const { kubeconfig, next } = await startSimThread();
  w = watching(kubeconfig, { kinds: ['pods'], ...(reader ? {} : { reader: false }) });
  await w.watcher.start();
  await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live');
  // The watch is open (a first change arrived through it) before the churn starts.
  await new Promise((resolve) => setTimeout(resolve, 300));
  sim?.postMessage({ op: 'churn', count: 15_000, spanMs: 1_000 });
  busy(1_500);
  const churned = await next();
  const cache = (w as Watching).cache;
  await waitFor('every last state', () => Object.entries(churned.versions).every(([uid, rv]) => cache.get('pods', uid)?.metadata.resourceVersion === rv), 30_000);
  return churned;
}

describe('watches read off the engine thread', () => {
  it('keeps reading a watch while the engine thread is held up, so the server never ends it as unresponsive', async () => {
    const churned = await holdUpDuringChurn(true);
    expect(churned.ended).toBe(false);
    expect(w?.logs.filter((m) => m.includes('watch reader'))).toEqual([]);
  }, 60_000);

  it('(control) a watch read on the engine thread itself is ended meanwhile, and resumed', async () => {
    const churned = await holdUpDuringChurn(false);
    expect(churned.ended).toBe(true);
  }, 60_000);

  it('hands every state of an object over while the engine keeps up: a change and the one written right after it both arrive', async () => {
    local = await startQuietCluster({ tls: false });
    w = watching(local.kubeconfigObject(), { kinds: ['pods'] });
    await w.watcher.start();
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live');
    const uid = local.store.all(T('pods'))[0]?.metadata.uid as string;
    const label = (step: string) => {
      const pod = local?.store.all(T('pods')).find((p) => p.metadata.uid === uid);
      if (!pod) throw new Error('no pod');
      local?.store.update(T('pods'), { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, step } } });
    };
    const steps: string[] = [];
    // Each pair in one turn of the simulator's thread, as a spec change and a controller's status write often come.
    for (let i = 0; i < 10; i += 1) {
      label(`${i}a`);
      label(`${i}b`);
      steps.push(`${i}a`, `${i}b`);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await waitFor('the last state', () => w?.cache.get('pods', uid)?.metadata.labels?.['step'] === '9b');
    const seen = w.changes.flatMap((c) => (c.type === 'upsert' && c.object.metadata.uid === uid ? [c.object.metadata.labels?.['step']] : [])).filter((step) => step !== undefined);
    expect(seen).toEqual(steps);
    expect(w.logs.filter((m) => m.includes('watch reader') || m.includes('engine thread'))).toEqual([]);
  });

  it('refuses to read a watch aborted between its answer and the read, instead of waiting for replies nobody forwards', async () => {
    local = await startQuietCluster({ tls: false });
    reader = createWatchReader();
    const server = (local.kubeconfigObject() as { clusters: Array<{ cluster: { server: string } }> }).clusters[0]?.cluster.server as string;
    const controller = new AbortController();
    const stream = await reader.open({ url: `${server}/api/v1/pods?watch=true`, headers: { Accept: 'application/json' }, tls: {}, http2: false }, controller.signal);
    expect(stream.statusCode).toBe(200);
    controller.abort();
    await expect(stream.read({ onLine: () => undefined, onResume: () => undefined, onData: () => undefined })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads watches on the engine thread when its worker cannot start, and says so once', async () => {
    local = await startQuietCluster({ tls: false });
    const logs: string[] = [];
    reader = createWatchReader({ workerUrl: new URL('./no-such-watch-reader.ts', import.meta.url), log: (m) => logs.push(m) });
    w = watching(local.kubeconfigObject(), { kinds: ['pods'], reader });
    await w.watcher.start();
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live');
    const [pod] = local.store.all(T('pods'));
    if (!pod) throw new Error('no pod');
    local.store.update(T('pods'), { ...pod, metadata: { ...pod.metadata, labels: { touched: 'yes' } } });
    await waitFor('the change', () => w?.cache.get('pods', pod.metadata.uid as string)?.metadata.labels?.['touched'] === 'yes');
    expect(reader.available()).toBe(false);
    expect(logs).toEqual([expect.stringMatching(/^watches are read on the engine thread from now on: .*no-such-watch-reader/)]);
    expect(w.health.states('pods')).not.toContain('reconnecting');
  });
});
