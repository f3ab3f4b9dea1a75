/**
 * Pod churn for the fault tests, written straight into the simulator's store: label changes on
 * existing pods, and standalone pods created and deleted, so a watch that misses events leaves
 * the engine with stale, missing and extra objects alike. The simulated kubelet runs the new
 * pods, which adds status updates and Events of its own.
 */
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import type { ObjectStore } from '../../electron/engine/simcluster/store.ts';

const PODS = typeById('pods') as ResourceType;
/** How often the generator catches up with its rate. */
const TICK_MS = 20;
/** Share of the operations that modify an existing pod; creates and deletes split the rest. */
const MODIFY_SHARE = 0.7;
/** Pods created at the start, so a burst always has some of the churn's own to delete. */
const POOL_PODS = 10;
/** Each kind of write a burst makes this many times (modifications twice as many). */
const BURST_WRITES = 5;
/** Numbers the runs, so the pods of a new run never collide with those an old run left behind. */
let runs = 0;

/** Options of `startPodChurn`. */
export interface PodChurnOptions {
  store: ObjectStore;
  /** Where the modified pods live and the churned pods are created. */
  namespace: string;
  /** Store writes per second. */
  changesPerSecond: number;
  /** The node the created pods are bound to (its simulated kubelet runs them). */
  node: string;
  random?: () => number;
}

/** A running churn. */
export interface PodChurn {
  /** Writes made so far. */
  readonly writes: number;
  /**
   * Deletes, creates and modifies a few pods at once, synchronously: called right after a fault
   * is injected, the engine is certain to miss them until it has recovered.
   */
  burst(): void;
  stop(): void;
}

function newPod(namespace: string, name: string, node: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app: 'churn-standalone' } },
    spec: { nodeName: node, containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
  };
}

/** Starts writing at `changesPerSecond` until `stop()`. */
export function startPodChurn(options: PodChurnOptions): PodChurn {
  const { store, namespace } = options;
  const random = options.random ?? Math.random;
  const created: string[] = [];
  const { node } = options;
  const run = ++runs;
  const startedAt = Date.now();
  let writes = 0;
  let serial = 0;
  let stopped = false;

  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];

  function modify(): void {
    const pod = pick(store.all(PODS, namespace));
    if (!pod || pod.metadata.deletionTimestamp) return;
    store.mutate(PODS, namespace, pod.metadata.name, (copy) => {
      copy.metadata.labels = { ...copy.metadata.labels, 'churn.kubedrift.dev/write': String(writes) };
    });
  }

  function create(): void {
    serial += 1;
    const name = `churn-pod-${run}-${serial}`;
    store.create(PODS, newPod(namespace, name, node) as Parameters<ObjectStore['create']>[1]);
    created.push(name);
  }

  function remove(): void {
    const index = Math.floor(random() * created.length);
    const [name] = created.splice(index, 1);
    if (name && store.find(PODS, namespace, name)) store.delete(PODS, namespace, name, { gracePeriodSeconds: 0 });
  }

  function write(): void {
    const roll = random();
    if (roll < MODIFY_SHARE) modify();
    else if (roll < MODIFY_SHARE + (1 - MODIFY_SHARE) / 2 || created.length === 0) create();
    else remove();
    writes += 1;
  }

  for (let i = 0; i < POOL_PODS; i += 1) create();

  const timer = setInterval(() => {
    if (stopped) return;
    const due = Math.floor(((Date.now() - startedAt) * options.changesPerSecond) / 1000) - writes;
    // A late tick catches up, but never by more than a second's worth.
    for (let i = 0; i < Math.min(due, options.changesPerSecond); i += 1) write();
  }, TICK_MS);

  return {
    get writes() {
      return writes;
    },
    burst() {
      for (let i = 0; i < BURST_WRITES; i += 1) {
        remove();
        create();
        modify();
        modify();
      }
      writes += 4 * BURST_WRITES;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
