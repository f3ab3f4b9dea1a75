/**
 * The simulated cluster of the history benchmarks (backfill-connect.ts, background-cpu.ts), in a
 * process of its own as a real API server is, so the engine's time and CPU are measured without
 * the server's:
 *
 *   node history-sim-child.ts aged PODS   an aged cluster of at least PODS pods: namespaces of
 *                                         seedHistory (aging.ts; Deployments with their old
 *                                         ReplicaSets, crash-looping pods, Jobs, two hours of
 *                                         Events of which the last hour is kept); no controllers
 *   node history-sim-child.ts demo [N]    the demo scenario, its controllers and timeline running,
 *                                         and N pod changes a second besides (an annotation
 *                                         bumped, round the pods, every 100 ms)
 *
 * It sends `{ ready: true, pods, objects, kubeconfig }` once listening (the aged cluster once
 * settled too: sim-settle.ts), and stops when the parent disconnects.
 */
import { startSimCluster, type SimCluster } from '../../electron/engine/simcluster/index.ts';
import { typeById } from '../../electron/engine/simcluster/resources.ts';
import { seedHistory } from '../../electron/engine/simcluster/scenarios/aging.ts';
import type { ObjectStore } from '../../electron/engine/simcluster/store.ts';
import { settleStore } from './sim-settle.ts';

/** The message the parent waits for. */
export interface HistorySimReady {
  ready: true;
  pods: number;
  /** Every object the aged seeding created (the demo's: 0). */
  objects: number;
  kubeconfig: object;
}

/** The aged cluster's age: its Events from the last of these two hours are still kept. */
const AGE_MS = 2 * 3_600_000;

function seedAged(store: ObjectStore, pods: number): number {
  const podType = typeById('pods');
  if (!podType) throw new Error('no pods type');
  const now = Date.now();
  let created = 0;
  let count = 0;
  for (let i = 0; count < pods; i++) {
    const seeded = seedHistory(store, { ageMs: AGE_MS, now, namespace: `aged-${i}`, revisions: 3 });
    created += seeded.created;
    count = store.all(podType, `aged-${i}`).length + count;
  }
  return created;
}

/** Every CHURN_TICK_MS, perSecond / 10 pods get their `bench/tick` annotation bumped, in turn. */
const CHURN_TICK_MS = 100;

function churn(store: ObjectStore, perSecond: number): void {
  const podType = typeById('pods');
  if (!podType) throw new Error('no pods type');
  let tick = 0;
  let next = 0;
  const timer = setInterval(() => {
    tick += 1;
    const pods = store.all(podType);
    for (let i = 0; i < (perSecond * CHURN_TICK_MS) / 1_000 && pods.length > 0; i++) {
      const pod = pods[next++ % pods.length];
      if (!pod) continue;
      store.mutate(podType, pod.metadata.namespace, pod.metadata.name, (copy) => {
        copy.metadata.annotations = { ...copy.metadata.annotations, 'bench/tick': String(tick) };
      });
    }
  }, CHURN_TICK_MS);
  timer.unref();
}

const [mode, size] = process.argv.slice(2);
let objects = 0;
let sim: SimCluster;
if (mode === 'aged') {
  const pods = Number(size);
  if (!Number.isInteger(pods) || pods <= 0) throw new Error(`history-sim-child: aged needs a pod count, got ${String(size)}`);
  sim = await startSimCluster({ scenario: 'minimal', controllers: false, onError: () => undefined, seed: (store) => (objects = seedAged(store, pods)) });
} else if (mode === 'demo') {
  sim = await startSimCluster({ scenario: 'demo', onError: () => undefined });
  const perSecond = Number(size ?? 0);
  if (perSecond > 0) churn(sim.store, perSecond);
} else {
  throw new Error(`history-sim-child: mode must be aged or demo, got ${String(mode)}`);
}
// The aged cluster is written once: its objects' JSON made and its heap collected first, as a
// running API server's are (sim-settle.ts). The demo's controllers go on writing: not waited for.
if (mode === 'aged') await settleStore(sim.store);
const podType = typeById('pods');
const ready: HistorySimReady = { ready: true, pods: podType ? sim.store.all(podType).length : 0, objects, kubeconfig: sim.kubeconfigObject('bench') };
process.send?.(ready);
process.on('disconnect', () => void sim.stop().finally(() => process.exit(0)));
