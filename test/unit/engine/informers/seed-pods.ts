/** Running pods written straight into the simulated cluster's store, for tests that run no controllers. */
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { T } from './helpers.ts';

/** Creates `count` Running pods named `seeded-<i>` in `namespace`. */
export function seedPods(cluster: SimCluster, namespace: string, count: number): void {
  for (let i = 0; i < count; i += 1) {
    cluster.store.create(T('pods'), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `seeded-${i}`, namespace, labels: { app: 'seeded' } },
      spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
      status: { phase: 'Running' },
    });
  }
}
