/** A simulated API server with the real API modules, for the CRD tests. */
import { createApiExtensions } from '../../../../electron/engine/simcluster/api-extensions.ts';
import { useTestCluster, type TestCluster } from '../server/helpers.ts';

export { call, type Json } from '../server/helpers.ts';

/** What kubectl 1.32 asks /api and /apis for. */
export const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
export const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/** One cluster per test, serving the real defaulting, validation, tables, patching and OpenAPI. */
export function useCrdCluster(): { start(): Promise<TestCluster>; watch: ReturnType<typeof useTestCluster>['watch'] } {
  const clusters = useTestCluster();
  return {
    start: () => clusters.start({ extensions: createApiExtensions({ version: 'v1.32.6' }) }),
    watch: clusters.watch,
  };
}

/** Lets the CRD controllers' next turn (status conditions, cleanup) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 6; i += 1) await new Promise((resolve) => setImmediate(resolve));
}
