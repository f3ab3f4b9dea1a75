/**
 * The engine side of the CRD benchmarks: a LiveCluster (informers, discovery registry, CRD watch,
 * object cache, frame stream) in this process, watching a simulated cluster that runs in its own
 * process (live-sim.ts), and the moment a condition on its published state first held. The
 * condition is checked at every health and discovery report the engine publishes, so the time
 * is the engine's own, not a poll's.
 */
import type { ClusterDiscovery } from '../../shared/discovery.ts';
import { DEFAULT_KIND_EXCLUSIONS, type KindExclusion } from '../../shared/kind-exclusions.ts';
import { StreamHub } from '../../electron/engine/hub.ts';
import { LiveCluster } from '../../electron/engine/live-cluster.ts';
import type { SimProcess } from './live-sim.ts';
import type { SeedSizes } from './sim-fixture.ts';
import type { BenchContext } from './types.ts';

/**
 * >>> THE HTTP/2 SWITCH of the CRD scenarios' simulated cluster (discovery, heap; and crd-sync
 * with --quick). Set it to true once the simulator's `http2` option (ALPN h2, as kube-apiserver)
 * and the engine's HTTP/2 transport have landed: 300 kinds' watches then share connections, and
 * `tcp_connections_300_crds` shows it. The only place this switch goes.
 */
export const CRD_SIM_HTTP2 = true;

/** A handful of pods: what the discovery and heap benchmarks measure is kinds, not pods. */
const FEW_PODS: SeedSizes = { namespaces: 1, deploymentsPerNamespace: 2, podsPerDeployment: 2, ...(CRD_SIM_HTTP2 ? { http2: true } : {}) };

/**
 * The simulated cluster process of the discovery and heap benchmarks (and with --quick of the
 * sync one too: one process then serves every CRD benchmark): a handful of pods.
 */
export function fewPodsSim(ctx: BenchContext): Promise<SimProcess> {
  return ctx.simProcess(FEW_PODS);
}

/**
 * The shared 50,000-pod process in a whole run; with --quick, the CRD benchmarks' few-pods one
 * (already running: a process of its own would cost the quick run its start-up, ~15 s on a busy
 * machine), with the sizes it was seeded with.
 */
export async function sizedSim(ctx: BenchContext): Promise<{ sim: SimProcess; sizes: SeedSizes }> {
  const sizes = ctx.quick ? FEW_PODS : { ...ctx.sizes, ...(CRD_SIM_HTTP2 ? { http2: true } : {}) };
  return { sim: await ctx.simProcess(sizes), sizes };
}

/** What a condition reads: the engine and its last discovery report. */
export interface EngineView {
  cluster: LiveCluster;
  discovery: ClusterDiscovery | undefined;
}

/** A started engine and when (performance.now()) it was told to watch. */
export interface RunningEngine {
  readonly cluster: LiveCluster;
  readonly startedAt: number;
  /** Resolves with the first performance.now() at which `check` held; rejects after `timeoutMs`. */
  until(what: string, check: (view: EngineView) => boolean, timeoutMs: number): Promise<number>;
  /**
   * Resolves once the frame stream has emitted nothing for `quietMs`: every change has left as a
   * frame (until then the stream holds each pending object's JSON, and a list page's JSON texts
   * are slices of the whole page).
   */
  streamIdle(quietMs: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a LiveCluster on `sim` with the default exclusions plus `exclude`; `accessibleNamespaces`
 * are the namespaces a restricted user added by hand (namespaced-sync.ts).
 */
export async function startEngine(sim: Pick<SimProcess, 'kubeconfigObject'>, exclude: readonly KindExclusion[] = [], accessibleNamespaces: readonly string[] = []): Promise<RunningEngine> {
  const hub = new StreamHub();
  const cluster = new LiveCluster({ hub, log: () => undefined });
  await cluster.reset('bench');
  cluster.setExclusions([...DEFAULT_KIND_EXCLUSIONS, ...exclude]);
  if (accessibleNamespaces.length > 0) await cluster.setAccessibleNamespaces(accessibleNamespaces);
  let discovery: ClusterDiscovery | undefined;
  let lastFrameAt = performance.now();
  const checks = new Set<() => void>();
  const unlisten = hub.listen((stream, payload) => {
    if (stream === 'cluster:discovery') discovery = payload as ClusterDiscovery;
    if (stream === 'cluster:frames') lastFrameAt = performance.now();
    if (stream === 'cluster:discovery' || stream === 'cluster:health') for (const check of [...checks]) check();
  });
  const startedAt = performance.now();
  await cluster.watch(sim.kubeconfigObject('bench'));
  return {
    cluster,
    startedAt,
    until(what, check, timeoutMs) {
      return new Promise((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          checks.delete(run);
        };
        const run = (): void => {
          if (!check({ cluster, discovery })) return;
          done();
          resolve(performance.now());
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`the engine did not reach "${what}" within ${timeoutMs} ms`));
        }, timeoutMs);
        checks.add(run);
        run();
      });
    },
    async streamIdle(quietMs, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() - lastFrameAt < quietMs) {
        if (performance.now() > deadline) throw new Error(`the frame stream was still emitting after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, quietMs / 4));
      }
    },
    async stop() {
      unlisten();
      await cluster.stop();
    },
  };
}

/** Every kind in `keys` reports live in the engine's health (informer listed and watching). */
export function allLive(view: EngineView, keys: readonly string[]): boolean {
  const live = new Set(view.cluster.health().kinds.filter((k) => k.state === 'live').map((k) => k.kind as string));
  return keys.every((key) => live.has(key));
}

/** Discovery has finished a run and knows every kind in `keys`. */
export function discovered(view: EngineView, keys: readonly string[]): boolean {
  const state = view.discovery?.state;
  if (!state || state.refreshedAt === null || state.progress !== null) return false;
  const known = new Set(state.kinds.map((k) => k.key));
  return keys.every((key) => known.has(key));
}

/** Discovery finished, and every kind it says the engine follows (full or metadata) reports live. */
export function followedLive(view: EngineView): boolean {
  const state = view.discovery?.state;
  if (!state || state.refreshedAt === null || state.progress !== null) return false;
  return allLive(
    view,
    state.kinds.filter((k) => k.mode === 'full' || k.mode === 'metadata').map((k) => k.key),
  );
}

/** Collects garbage twice and reads the heap in use. */
export function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (run.ts re-spawns itself with it)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
