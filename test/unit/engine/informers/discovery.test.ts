import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WATCHED_KINDS } from '../../../../shared/cluster.ts';
import { discoverKinds } from '../../../../electron/engine/cluster/informers/discovery.ts';
import { createTransport, type Transport } from '../../../../electron/engine/cluster/informers/http.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { startRecordingProxy, waitFor, watching, type RecordingProxy, type Watching } from './helpers.ts';

let sim: SimCluster | undefined;
let proxy: RecordingProxy | undefined;
let transport: Transport | undefined;
let old: Server | undefined;
let w: Watching | undefined;
afterEach(async () => {
  await w?.watcher.stop();
  transport?.close();
  await proxy?.close();
  await sim?.stop();
  if (old) {
    old.closeAllConnections();
    await new Promise((resolve) => old?.close(resolve));
  }
  w = undefined;
  transport = undefined;
  proxy = undefined;
  sim = undefined;
  old = undefined;
});

const VERBS = ['get', 'list', 'watch'];
const resource = (name: string, kind: string, namespaced: boolean, verbs = VERBS) => ({ name, kind, namespaced, verbs });

/**
 * An old cluster (think 1.20) without aggregated discovery: CronJob only in batch/v1beta1,
 * HPA only in autoscaling/v2beta2, no events.k8s.io/v1, and StatefulSets without watch.
 */
const OLD_CLUSTER: Readonly<Record<string, object>> = {
  '/api': { kind: 'APIVersions', versions: ['v1'] },
  '/apis': { kind: 'APIGroupList', groups: [] },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      resource('namespaces', 'Namespace', false),
      resource('nodes', 'Node', false),
      resource('pods', 'Pod', true),
      resource('pods/status', 'Pod', true),
      resource('services', 'Service', true),
      resource('events', 'Event', true),
      resource('secrets', 'Secret', true),
    ],
  },
  '/apis/apps/v1': {
    kind: 'APIResourceList',
    groupVersion: 'apps/v1',
    resources: [resource('deployments', 'Deployment', true), resource('replicasets', 'ReplicaSet', true), resource('statefulsets', 'StatefulSet', true, ['get', 'list']), resource('daemonsets', 'DaemonSet', true)],
  },
  '/apis/batch/v1': { kind: 'APIResourceList', groupVersion: 'batch/v1', resources: [resource('jobs', 'Job', true)] },
  '/apis/batch/v1beta1': { kind: 'APIResourceList', groupVersion: 'batch/v1beta1', resources: [resource('cronjobs', 'CronJob', true)] },
  '/apis/autoscaling/v2beta2': { kind: 'APIResourceList', groupVersion: 'autoscaling/v2beta2', resources: [resource('horizontalpodautoscalers', 'HorizontalPodAutoscaler', true)] },
};

let watchRequests = 0;

/**
 * Serves OLD_CLUSTER minus the `missing` group versions, empty lists, and watches that stay open
 * (or, with `endWatches`, end as soon as they start).
 */
async function startOldCluster(missing: string[] = [], endWatches = false): Promise<string> {
  watchRequests = 0;
  old = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://old');
    const document = missing.includes(url.pathname) ? undefined : OLD_CLUSTER[url.pathname];
    if (document) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(document));
    } else if (url.searchParams.get('watch') === 'true') {
      watchRequests += 1;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (endWatches) res.end();
      else res.write('\n');
    } else if (/^\/(api\/v1|apis\/[^/]+\/[^/]+)\/[a-z]+$/.test(url.pathname)) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'List', metadata: { resourceVersion: '7' }, items: [] }));
    } else {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' }));
    }
  });
  await new Promise<void>((resolve) => old?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(old.address() as AddressInfo).port}`;
}

function kubeconfigFor(server: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'old', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'old', user: { token: 't' } }],
    contexts: [{ name: 'old', context: { cluster: 'old', user: 'old' } }],
    'current-context': 'old',
  };
}

const signal = () => new AbortController().signal;

describe('discovery', () => {
  it('finds every watched kind on a current cluster through aggregated discovery', async () => {
    sim = await startSimCluster({ scenario: 'minimal', controllers: false, tls: false });
    proxy = await startRecordingProxy(sim);
    transport = createTransport(proxy.kubeconfig());
    const found = await discoverKinds(transport, WATCHED_KINDS, signal());
    expect(proxy.requests.map((r) => r.path).sort()).toEqual(['/api', '/apis']);
    const paths = Object.fromEntries(found.map((f) => [f.kind, 'endpoints' in f ? f.endpoints.map((e) => e.path) : f.unavailable]));
    expect(paths).toMatchObject({
      pods: ['/api/v1/pods'],
      'deployments.apps': ['/apis/apps/v1/deployments'],
      'cronjobs.batch': ['/apis/batch/v1/cronjobs'],
      'horizontalpodautoscalers.autoscaling': ['/apis/autoscaling/v2/horizontalpodautoscalers'],
      events: ['/api/v1/events', '/apis/events.k8s.io/v1/events'],
    });
    expect(found.every((f) => 'endpoints' in f)).toBe(true);
  });

  it('falls back to per-group-version resource lists when aggregated discovery fails', async () => {
    sim = await startSimCluster({ scenario: 'minimal', controllers: false, tls: false });
    sim.server.faults.failRequests({ status: 500, count: 2, match: (_method, path) => path === '/api' || path === '/apis' });
    transport = createTransport(sim.kubeconfigObject());
    const found = await discoverKinds(transport, WATCHED_KINDS, signal());
    expect(found.every((f) => 'endpoints' in f)).toBe(true);
    expect(found.find((f) => f.kind === 'nodes')).toMatchObject({ endpoints: [{ path: '/api/v1/nodes', namespaced: false, apiVersion: 'v1' }] });
  });

  it('uses older group versions and names what an old cluster does not serve', async () => {
    transport = createTransport(kubeconfigFor(await startOldCluster()));
    const found = Object.fromEntries((await discoverKinds(transport, WATCHED_KINDS, signal())).map((f) => [f.kind, f]));
    expect(found['cronjobs.batch']).toMatchObject({ endpoints: [{ apiVersion: 'batch/v1beta1', path: '/apis/batch/v1beta1/cronjobs' }] });
    expect(found['horizontalpodautoscalers.autoscaling']).toMatchObject({ endpoints: [{ apiVersion: 'autoscaling/v2beta2' }] });
    expect(found['events']).toMatchObject({ endpoints: [{ path: '/api/v1/events' }] });
    expect(found['statefulsets.apps']).toEqual({ kind: 'statefulsets.apps', unavailable: 'This cluster serves statefulsets.apps/v1 without the list and watch verbs.' });
  });

  it('marks a kind the cluster does not serve as unavailable with the reason and watches the rest', async () => {
    const server = await startOldCluster(['/apis/autoscaling/v2beta2']);
    w = watching(kubeconfigFor(server), { kinds: ['horizontalpodautoscalers.autoscaling', 'statefulsets.apps', 'cronjobs.batch'] });
    await w.watcher.start();
    expect(w.health.latest('horizontalpodautoscalers.autoscaling')).toMatchObject({
      state: 'unavailable',
      message: 'This cluster does not serve horizontalpodautoscalers.autoscaling/v2 or horizontalpodautoscalers.autoscaling/v2beta2.',
    });
    expect(w.health.latest('statefulsets.apps')?.state).toBe('unavailable');
    await waitFor('cronjobs live', () => w?.health.latest('cronjobs.batch')?.state === 'live');
  });

  it('backs off instead of spinning when the server ends every watch at once', async () => {
    w = watching(kubeconfigFor(await startOldCluster([], true)), { kinds: ['pods'] });
    await w.watcher.start();
    await waitFor('a reconnect', () => w?.health.latest('pods')?.state === 'reconnecting');
    expect(w.health.latest('pods')?.message).toMatch(/ended the pods watch at once/);
    await new Promise((resolve) => setTimeout(resolve, 600));
    // 20, 40, 80, 160, 200 ms...: a handful of attempts, where a busy loop would make thousands.
    expect(watchRequests).toBeGreaterThanOrEqual(3);
    expect(watchRequests).toBeLessThan(12);
  });

  it('never lists or watches Secrets', async () => {
    sim = await startSimCluster({ scenario: 'minimal', tls: false, bookmarkIntervalMs: 50 });
    proxy = await startRecordingProxy(sim);
    const seen = proxy;
    w = watching(proxy.kubeconfig());
    await w.watcher.start();
    await waitFor('every kind live', () => w?.health.all(WATCHED_KINDS, 'live'));
    expect(seen.requests.filter((r) => r.path.includes('secrets'))).toEqual([]);
    expect(new Set(seen.requests.filter((r) => r.query.get('watch') === 'true').map((r) => r.path)).size).toBe(WATCHED_KINDS.length);
  });
});
