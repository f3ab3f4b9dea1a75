/**
 * The simulated cluster the benchmarks measure: the composed `startSimCluster` (HTTPS, as real
 * clients use it; no controllers, so only the benchmark changes the store), seeded by the churn
 * generator with Running pods of a real pod's size, and modified on demand with the churn
 * generator's mix of readiness flips, label changes and restarts.
 */
import { ManualClock } from '../../electron/engine/simcluster/controllers/runtime.ts';
import { startSimCluster, type SimCluster } from '../../electron/engine/simcluster/index.ts';
import { startChurn, type Churn } from '../../electron/engine/simcluster/scenarios/churn.ts';
import type { ObjectStore } from '../../electron/engine/simcluster/store.ts';
import type { ClientTarget } from './http-client.ts';

/** How the churn generator lays out the pods: namespaces x deployments x pods. */
export interface SeedSizes {
  namespaces: number;
  deploymentsPerNamespace: number;
  podsPerDeployment: number;
  /** Pods per node (default 110: 455 nodes for 50,000 pods); the scale scenario's 30 gives 5,000 nodes for 150,000. */
  podsPerNode?: number;
  /** Serve HTTP/2 as well (the simulator's `http2` option; crd-engine.ts's CRD_SIM_HTTP2). */
  http2?: boolean;
}

/** 50,000 pods: 50 namespaces x 20 Deployments x 50 pods (455 nodes at 110 pods each). */
export const FULL_SIZES: SeedSizes = { namespaces: 50, deploymentsPerNamespace: 20, podsPerDeployment: 50 };
/** 1,000 pods for `--quick`. */
export const QUICK_SIZES: SeedSizes = { namespaces: 2, deploymentsPerNamespace: 10, podsPerDeployment: 50 };

export function podCount(sizes: SeedSizes): number {
  return sizes.namespaces * sizes.deploymentsPerNamespace * sizes.podsPerDeployment;
}

/** Modifications per churn tick: the clock is advanced 1 ms per batch. */
const MODIFICATIONS_PER_BATCH = 50;

/** A churn generator on a manual clock: it modifies exactly when told to. */
export interface ChurnDriver {
  readonly churn: Churn;
  /** Makes `batches` x `batchSize` modifications, synchronously. */
  modify(batches: number): void;
  readonly batchSize: number;
}

/** Seeds `store` with `sizes` and returns a driver for modifying it. */
export function seedChurn(store: ObjectStore, sizes: SeedSizes): ChurnDriver {
  const clock = new ManualClock();
  const churn = startChurn({ store, clock, ...sizes, eventsPerSecond: MODIFICATIONS_PER_BATCH * 1_000, tickMs: 1 });
  return {
    churn,
    batchSize: MODIFICATIONS_PER_BATCH,
    modify: (batches) => clock.advance(batches),
  };
}

/** A running, seeded simulated cluster. */
export interface SimFixture {
  readonly sim: SimCluster;
  readonly pods: number;
  readonly driver: ChurnDriver;
  /** Where a client reaches the API server, with its CA and token. */
  readonly target: ClientTarget;
  stop(): Promise<void>;
}

export async function startSimFixture(sizes: SeedSizes): Promise<SimFixture> {
  const { http2, ...seed } = sizes;
  // `http2` is passed only when asked for, so a simulator without the option still starts.
  const options: Parameters<typeof startSimCluster>[0] & { http2?: boolean } = { scenario: 'minimal', controllers: false, tls: true, onError: (message) => console.error(`[bench] ${message}`), ...(http2 ? { http2 } : {}) };
  const sim = await startSimCluster(options);
  try {
    const driver = seedChurn(sim.store, seed);
    const user = sim.kubeconfigObject().users[0]?.user;
    return {
      sim,
      pods: podCount(sizes),
      driver,
      target: { url: sim.server.url, ...(sim.server.caPem ? { caPem: sim.server.caPem } : {}), ...(user?.token ? { token: user.token } : {}) },
      async stop() {
        driver.churn.stop();
        await sim.stop();
      },
    };
  } catch (error) {
    await sim.stop();
    throw error;
  }
}
