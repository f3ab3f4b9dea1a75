/**
 * The yardstick of `pipeline_cpu_ratio_vs_bare_informer`: a bare @kubernetes/client-node
 * informer on /api/v1/pods (list, then watch; its own cache, no handlers beyond a counter)
 * consuming the same stamped churn as the engine did, CPU of this process measured the same way
 * (the simulated cluster runs in its own process, see live-sim.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import type { SimProcess } from './live-sim.ts';

const POLL_INTERVAL_MS = 20;

/** CPU seconds of this process while the informer consumes `count` writes made at `perSecond`. */
export async function bareInformerCpuSeconds(sim: Pick<SimProcess, 'kubeconfigObject' | 'churn'>, perSecond: number, count: number, timeoutMs: number): Promise<number> {
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(sim.kubeconfigObject()));
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer(kc, '/api/v1/pods', () => api.listPodForAllNamespaces());
  let updates = 0;
  let stopping = false;
  informer.on('update', () => (updates += 1));
  // Stopping aborts the watch, which the informer reports as an error too.
  informer.on('error', (error: unknown) => stopping || console.error(`[bench] bare informer: ${String(error)}`));
  await informer.start();
  try {
    const before = process.cpuUsage();
    await sim.churn(perSecond, count);
    const deadline = performance.now() + timeoutMs;
    while (updates < count && performance.now() < deadline) await sleep(POLL_INTERVAL_MS);
    const used = process.cpuUsage(before);
    if (updates < count) throw new Error(`the bare informer saw ${updates} of ${count} updates`);
    return (used.user + used.system) / 1e6;
  } finally {
    stopping = true;
    await informer.stop();
  }
}
