/**
 * Engines for tests and benchmarks, cut off from the machine they run on: no kubeconfig (only
 * the demo context, whose cluster the caller supplies), no login-shell PATH, no watching of
 * kubeconfig files, and every file under one directory.
 */
import path from 'node:path';
import { createEngine, type DemoCluster, type Engine, type EngineOptions } from '../../electron/engine/engine.ts';

/** An engine whose only context is the demo one, served by `demoCluster`. */
export function createIsolatedEngine(dir: string, demoCluster: () => Promise<DemoCluster>, extra: Partial<EngineOptions> = {}): Engine {
  return createEngine({
    version: '0.0.0-test',
    dataDir: path.join(dir, 'data'),
    shell: 'test',
    kubeconfig: path.join(dir, 'no-kubeconfig'),
    env: {},
    homeDir: dir,
    log: () => {},
    loginShellPath: false,
    watchKubeconfig: false,
    demoCluster,
    ...extra,
  });
}

/** A cluster the caller started and stops itself, lent as the demo context's. */
export function borrowedCluster(cluster: { kubeconfigObject(contextName?: string): object }): () => Promise<DemoCluster> {
  return () => Promise.resolve({ kubeconfigObject: (name?: string) => cluster.kubeconfigObject(name), stop: () => Promise.resolve() });
}
