/**
 * The parent's handle on the live-pipeline benchmark's simulated cluster, which runs in a child
 * process (live-sim-child.ts) as a real API server would: its own event loop and heap, so the
 * engine's CPU and heap are measured without the server's, and serving a list overlaps with
 * the engine reading it, as it does against a real cluster.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { kubeconfigObjectFor } from '../../electron/engine/simcluster/server/kubeconfig.ts';
import type { PresetUser } from '../../electron/engine/simcluster/rbac/preset-users.ts';
import type { ClientTarget } from './http-client.ts';
import type { SeedSizes } from './sim-fixture.ts';
import type { StampedRun } from './stamped-churn.ts';

/** What the parent asks the child; `id` pairs each request with its reply. */
export type SimChildRequest =
  | { id: number; op: 'stamps' }
  | { id: number; op: 'churn'; perSecond: number; count: number; withOrder?: boolean }
  | { id: number; op: 'cpu' }
  | { id: number; op: 'install-crds'; count: number; excluded: boolean }
  | { id: number; op: 'remove-crds' }
  | { id: number; op: 'create-resources'; count: number }
  | { id: number; op: 'record-requests'; prefixes: string[] }
  | { id: number; op: 'recorded-requests' }
  | { id: number; op: 'connections' }
  | { id: number; op: 'count-lists'; resource: string }
  | { id: number; op: 'counted-lists' }
  | { id: number; op: 'add-user'; user: PresetUser };

/** The child's answer to one request. */
export type SimChildReply = { id: number; value: unknown } | { id: number; error: string };

/** The child's first message, once the cluster is seeded and listening. */
export interface SimChildReady {
  ready: true;
  pods: number;
  target: ClientTarget;
}

/** Distributive Omit, so each request variant keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Seeding 50,000 pods takes a few seconds; a busy machine, a few more. */
const READY_TIMEOUT_MS = 120_000;

/** A seeded simulated cluster in its own process. */
export interface SimProcess {
  readonly pods: number;
  /** Where a client reaches the API server as its admin (URL, CA, token). */
  readonly target: ClientTarget;
  /** A kubeconfig for the cluster, its context named `contextName` (the engine's demo cluster). */
  kubeconfigObject(contextName?: string): object;
  /** How many objects of the watched kinds the cluster holds (what a synced store holds). */
  watchedObjects(): Promise<number>;
  /** Stamped pod modifications at `perSecond` (see stamped-churn.ts), written in the child. */
  churn(perSecond: number, count: number, options?: { withOrder?: boolean }): Promise<StampedRun>;
  /**
   * Counts, from now on, the requests that (re)read every `resource` (a plural of the core group,
   * `pods`): a list (a GET of the collection without watch=true) or a WatchList watch
   * (sendInitialEvents=true). An ordinary watch resuming from a resourceVersion is not counted.
   */
  countLists(resource: string): Promise<void>;
  /** What `countLists` has counted; counting stops. */
  countedLists(): Promise<number>;
  /** Adds a user with a preset role (its bindings in namespaces that exist); its kubeconfig (bearer token). */
  addUser(user: PresetUser): Promise<object>;
  /** CPU seconds the child has used so far. */
  cpuSeconds(): Promise<number>;
  /** The custom-resource side of the cluster (crd-fixture.ts's CrdBench, run in the child). */
  readonly crds: {
    /** Creates `count` benchmark CRDs (and one of the excluded group); resolves with their names. */
    install(count: number, excluded: boolean): Promise<string[]>;
    /** Deletes them all and waits until they are gone. */
    remove(): Promise<void>;
    /** Creates `count` ~3 KB custom resources of one kind; their kind key and mean JSON size. */
    createResources(count: number): Promise<{ key: string; meanBytes: number }>;
    /** Counts requests whose path starts with each of `prefixes` from now on. */
    recordRequests(prefixes: string[]): Promise<void>;
    recordedRequests(): Promise<number[]>;
    /** Open watch streams and established TCP connections at the server. */
    connections(): Promise<{ watches: number; tcp: number | null }>;
  };
  stop(): Promise<void>;
}

function waitReady(child: ChildProcess): Promise<SimChildReady> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the simulated cluster was not seeded after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.kill();
      reject(error);
    };
    const onMessage = (message: SimChildReady | SimChildReply): void => {
      if (!('ready' in message)) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message);
    };
    const onExit = (code: number | null): void => fail(new Error(`the simulated cluster's process exited (${code}) before it was ready`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Forks the child, seeds `sizes` there and resolves once it listens. */
export async function startSimProcess(sizes: SeedSizes): Promise<SimProcess> {
  // Without the parent's flags: the child is a plain server, but for --expose-gc, with which it
  // collects its seeded heap once before it reports ready (sim-settle.ts).
  const child = fork(new URL('./live-sim-child.ts', import.meta.url), [JSON.stringify(sizes)], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await waitReady(child);
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message: SimChildReply) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if ('error' in message) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.value);
  });
  void exited.then(() => {
    for (const waiter of pending.values()) waiter.reject(new Error('the simulated cluster process exited'));
    pending.clear();
  });
  const ask = <T>(request: WithoutId<SimChildRequest>): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...request, id });
    });
  const { target } = ready;
  return {
    pods: ready.pods,
    target,
    kubeconfigObject: (contextName) => kubeconfigObjectFor({ server: target.url, ...(target.caPem ? { caPem: target.caPem } : {}), ...(target.token ? { token: target.token } : {}), ...(contextName ? { contextName } : {}) }),
    watchedObjects: () => ask<number>({ op: 'stamps' }),
    churn: (perSecond, count, options) => ask<StampedRun>({ op: 'churn', perSecond, count, ...(options?.withOrder ? { withOrder: true } : {}) }),
    countLists: (resource) => ask<void>({ op: 'count-lists', resource }),
    countedLists: () => ask<number>({ op: 'counted-lists' }),
    addUser: (user) => ask<object>({ op: 'add-user', user }),
    cpuSeconds: () => ask<number>({ op: 'cpu' }),
    crds: {
      install: (count, excluded) => ask<string[]>({ op: 'install-crds', count, excluded }),
      remove: () => ask<void>({ op: 'remove-crds' }),
      createResources: (count) => ask<{ key: string; meanBytes: number }>({ op: 'create-resources', count }),
      recordRequests: (prefixes) => ask<void>({ op: 'record-requests', prefixes }),
      recordedRequests: () => ask<number[]>({ op: 'recorded-requests' }),
      connections: () => ask<{ watches: number; tcp: number | null }>({ op: 'connections' }),
    },
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}
