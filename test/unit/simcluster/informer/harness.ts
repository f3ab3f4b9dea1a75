/**
 * A simulated cluster reached through the real `@kubernetes/client-node` 2.x, for the informer
 * tests: the kubeconfig the cluster writes, a Watch that records what each watch request asked
 * for and got, a server-side request log, polling with a deadline, and cleanup for afterEach.
 */
import { CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimCluster, type SimCluster, type SimClusterOptions } from '../../../../electron/engine/simcluster/index.ts';
import type { Faults } from '../../../../electron/engine/simcluster/server/faults.ts';

const POLL_INTERVAL_MS = 25;
/** Keep-alive period for tests: the scaled-down stand-in for the server's default 15 s. */
export const TEST_KEEPALIVE_MS = 200;

/** Polls `condition` until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(POLL_INTERVAL_MS);
  }
}

/** Stops everything a test started, last started first; run it in afterEach. */
export class Cleanup {
  private readonly steps: Array<() => unknown> = [];

  add(step: () => unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    const steps = this.steps.splice(0).reverse();
    for (const step of steps) await step();
  }
}

/** A running simulated cluster and client-node's view of it. */
export interface ClientCluster {
  cluster: SimCluster;
  kc: KubeConfig;
  api: CoreV1Api;
  /** Errors the simulator reported (failed timeline actions); a healthy run has none. */
  simErrors: string[];
}

/** Starts a simulated cluster (scenario `minimal`, fast keep-alives) and loads its kubeconfig. */
export async function startClientCluster(cleanup: Cleanup, options: SimClusterOptions = {}): Promise<ClientCluster> {
  const simErrors: string[] = [];
  const cluster = await startSimCluster({ scenario: 'minimal', bookmarkIntervalMs: TEST_KEEPALIVE_MS, onError: (message) => simErrors.push(message), ...options });
  cleanup.add(() => cluster.stop());
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig());
  return { cluster, kc, api: kc.makeApiClient(CoreV1Api), simErrors };
}

/** One watch request as client-node made it. */
export interface WatchCall {
  query: Record<string, string | number | boolean | undefined>;
  /** Events in arrival order: ERROR with its Status code, the others with their object's resourceVersion. */
  events: Array<{ type: string; code?: number; rv?: string }>;
  ended: boolean;
  /** What client-node passed to `done` (undefined for an orderly end). */
  error?: unknown;
}

/**
 * client-node's own Watch, unchanged on the wire, recording each call. `inactivityTimeoutMs`
 * scales down its 30 s silence timeout (a private field) so tests can outlast it in a second.
 */
export class RecordingWatch extends Watch {
  readonly calls: WatchCall[] = [];

  constructor(kc: KubeConfig, options: { inactivityTimeoutMs?: number } = {}) {
    super(kc);
    if (options.inactivityTimeoutMs !== undefined) (this as unknown as { requestTimeoutMs: number }).requestTimeoutMs = options.inactivityTimeoutMs;
  }

  override watch(...[path, query, callback, done]: Parameters<Watch['watch']>): ReturnType<Watch['watch']> {
    const call: WatchCall = { query: { ...query }, events: [], ended: false };
    this.calls.push(call);
    return super.watch(
      path,
      query,
      (phase, object: { code?: number; metadata?: { resourceVersion?: string } } | undefined, raw) => {
        const rv = object?.metadata?.resourceVersion;
        call.events.push(phase === 'ERROR' ? { type: phase, ...(object?.code !== undefined ? { code: object.code } : {}) } : { type: phase, ...(rv !== undefined ? { rv } : {}) });
        callback(phase, object, raw);
      },
      (err: unknown) => {
        call.ended = true;
        if (err) call.error = err;
        done(err);
      },
    );
  }

  /** Calls that have not ended. */
  open(): WatchCall[] {
    return this.calls.filter((c) => !c.ended);
  }
}

/** Requests the server received, by method and path (query strings are not visible to faults). */
export interface RequestLog {
  readonly entries: ReadonlyArray<{ method: string; path: string; at: number }>;
  count(method: string, path: string): number;
}

/**
 * Logs every request through the fault layer's per-request delay hook with a matcher that never
 * matches, so nothing is delayed. `faults.clear()` removes it, like every other fault.
 */
export function logRequests(faults: Faults): RequestLog {
  const entries: Array<{ method: string; path: string; at: number }> = [];
  faults.delayRequests(0, (method, path) => {
    entries.push({ method, path, at: Date.now() });
    return false;
  });
  return { entries, count: (method, path) => entries.filter((e) => e.method === method && e.path === path).length };
}

/** An error's HTTP status as client-node reports it (ApiException.code or Watch's statusCode). */
export function statusOf(error: unknown): number | undefined {
  const e = error as { code?: unknown; statusCode?: unknown } | undefined;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  return typeof e?.code === 'number' ? e.code : undefined;
}
