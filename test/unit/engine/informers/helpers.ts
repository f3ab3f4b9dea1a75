/**
 * Shared set-up for the informer tests: a simulated cluster seeded with churn objects (no
 * controllers, so nothing changes unless a test changes it), a fake clock whose timers a test
 * fires one by one, a request-recording proxy, and polling without fixed sleeps.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import type { KindKey, KindHealth, KindHealthState, SlimObject } from '../../../../shared/cluster.ts';
import type { Clock } from '../../../../electron/engine/cluster/informers/timing.ts';
import { startSimCluster, type SimCluster, type SimClusterOptions } from '../../../../electron/engine/simcluster/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { startChurn } from '../../../../electron/engine/simcluster/scenarios/churn.ts';
import { createClusterWatcher, type ClusterWatcher, type ClusterWatcherOptions } from '../../../../electron/engine/cluster/informers/watcher.ts';
import { ObjectCache, type CacheChange } from '../../../../electron/engine/stream/cache.ts';

export const T = (id: string): ResourceType => {
  const type = typeById(id);
  if (!type) throw new Error(`no type ${id}`);
  return type;
};

/** Store resource ids of the watched kinds (Events excluded: churn makes none). */
export const STORE_IDS: Partial<Record<KindKey, string>> = {
  namespaces: 'namespaces',
  nodes: 'nodes',
  pods: 'pods',
  'deployments.apps': 'deployments.apps',
  'replicasets.apps': 'replicasets.apps',
};

/** A quiet cluster: the minimal scenario's objects plus 2 namespaces x 2 Deployments x 3 pods. */
export async function startQuietCluster(options: SimClusterOptions = {}): Promise<SimCluster> {
  const sim = await startSimCluster({ scenario: 'minimal', controllers: false, bookmarkIntervalMs: 50, ...options });
  startChurn({ store: sim.store, namespaces: 2, deploymentsPerNamespace: 2, podsPerDeployment: 3, eventsPerSecond: 0 });
  return sim;
}

/** Polls until `check` returns a value that is not undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** uid -> resourceVersion of one kind, from the cache. */
export function cacheVersions(cache: ObjectCache, kind: KindKey): Record<string, string> {
  return Object.fromEntries(cache.list(kind).map((o: SlimObject) => [o.metadata.uid, o.metadata.resourceVersion]));
}

/** uid -> resourceVersion of one kind, from the simulator's store (the truth). */
export function storeVersions(sim: SimCluster, kind: KindKey): Record<string, string> {
  const id = STORE_IDS[kind];
  if (!id) throw new Error(`no store id for ${kind}`);
  return Object.fromEntries(sim.store.all(T(id)).map((o) => [o.metadata.uid, String(o.metadata.resourceVersion)]));
}

/** Whether the cache holds exactly the store's objects at their versions, for every seeded kind. */
export function cacheMatchesStore(cache: ObjectCache, sim: SimCluster): boolean {
  return (Object.keys(STORE_IDS) as KindKey[]).every((kind) => JSON.stringify(sortKeys(cacheVersions(cache, kind))) === JSON.stringify(sortKeys(storeVersions(sim, kind))));
}

function sortKeys(record: Record<string, string>): Array<[string, string]> {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Records every health report and answers questions about it. */
export class HealthLog {
  readonly reports: KindHealth[][] = [];
  readonly onHealth = (kinds: KindHealth[]): void => {
    this.reports.push(kinds);
  };

  latest(kind: KindKey): KindHealth | undefined {
    return this.reports.at(-1)?.find((h) => h.kind === kind);
  }

  /**
   * The states a kind went through from report `from` on, without repeats, starting with the
   * state it was in just before (so `['live', 'reconnecting', 'live']` after a cut).
   */
  states(kind: KindKey, from = 0): KindHealthState[] {
    const out: KindHealthState[] = [];
    for (const report of this.reports.slice(Math.max(0, from - 1))) {
      const state = report.find((h) => h.kind === kind)?.state;
      if (state && out.at(-1) !== state) out.push(state);
    }
    return out;
  }

  /** Whether every listed kind's latest report is `state`. */
  all(kinds: readonly KindKey[], state: KindHealthState): boolean {
    return kinds.every((kind) => this.latest(kind)?.state === state);
  }
}

/** A pending fake timer. */
export interface FakeTimer {
  id: number;
  ms: number;
  at: number;
  fn: () => void;
}

/** A clock whose time only moves when the test says, with every timer inspectable. */
export class FakeClock implements Clock {
  time = 1_700_000_000_000;
  private nextId = 1;
  private readonly timers = new Map<number, FakeTimer>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { id, ms, at: this.time + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  pending(): FakeTimer[] {
    return [...this.timers.values()];
  }

  /** Moves time to the timer's due time and runs it. */
  fire(timer: FakeTimer): void {
    if (!this.timers.delete(timer.id)) throw new Error(`timer ${timer.id} is not pending`);
    this.time = Math.max(this.time, timer.at);
    timer.fn();
  }
}

/** One request as the proxy saw it. */
export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  /** The client's port: requests sharing it came over one kept-alive connection. */
  clientPort: number;
}

/** An HTTP proxy in front of a plain-HTTP simulated cluster that records every request. */
export interface RecordingProxy {
  url: string;
  readonly requests: SeenRequest[];
  /** Runs before a request is forwarded (a test's hook to change the cluster at that moment). */
  before: (request: SeenRequest) => void;
  /** The sim's kubeconfig object pointed at the proxy. */
  kubeconfig(): object;
  close(): Promise<void>;
}

export async function startRecordingProxy(sim: SimCluster): Promise<RecordingProxy> {
  const target = new URL(sim.server.url);
  const requests: SeenRequest[] = [];
  const proxy: Partial<RecordingProxy> = { requests, before: () => undefined };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const seen = { path: url.pathname, query: url.searchParams, clientPort: req.socket.remotePort ?? 0 };
    requests.push(seen);
    proxy.before?.(seen);
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      pipeline(answer, res, () => undefined);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(proxy, {
    url,
    kubeconfig: () => {
      const config = sim.kubeconfigObject();
      return { ...config, clusters: config.clusters.map((c) => ({ ...c, cluster: { server: url, 'insecure-skip-tls-verify': true } })) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as RecordingProxy;
}

/** A watcher on a cache, with everything it reported. */
export interface Watching {
  cache: ObjectCache;
  watcher: ClusterWatcher;
  health: HealthLog;
  /** Every cache change since the watcher was created (or since `changes.length = 0`). */
  changes: CacheChange[];
  logs: string[];
}

/** Small backoff so recovery tests take milliseconds. */
export const FAST_BACKOFF = { initialMs: 20, maxMs: 200 };

/** Creates (not starts) a watcher with fast backoff, recording health, cache changes and logs. */
export function watching(config: object, options: Partial<ClusterWatcherOptions> = {}): Watching {
  const cache = new ObjectCache();
  const health = new HealthLog();
  const changes: CacheChange[] = [];
  const logs: string[] = [];
  cache.onChange((change) => changes.push(change));
  const watcher = createClusterWatcher({ config, cache, onHealth: health.onHealth, backoff: FAST_BACKOFF, log: (m) => logs.push(m), ...options });
  return { cache, watcher, health, changes, logs };
}
