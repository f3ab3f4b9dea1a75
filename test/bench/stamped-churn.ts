/**
 * Pod modifications at a fixed rate, written straight into the simulator's store, each carrying
 * its write time in the `bench/t` annotation (ms since the epoch, `performance.timeOrigin +
 * performance.now()`): the browser runs on the same machine, so its clock reads the same.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import type { ObjectStore } from '../../electron/engine/simcluster/store.ts';
import { STAMP_ANNOTATION } from './live-page.ts';

const PODS = typeById('pods') as ResourceType;
/** How often the writer catches up with its rate: 25 writes a tick at 5,000 per second. */
const WRITE_TICK_MS = 5;

/** What a stamped churn wrote. */
export interface StampedRun {
  written: number;
  /** The write time of the last write, ms since the epoch. */
  lastStamp: number;
  /** Writes per second achieved (below the rate when the process could not keep up). */
  achievedPerSecond: number;
}

/**
 * Modifies `count` pods at `perSecond` (round robin over every pod, so no pod changes twice
 * within a flush window and nothing is coalesced away), then resolves.
 */
export async function stampedChurn(store: ObjectStore, perSecond: number, count: number): Promise<StampedRun> {
  const pods = store.all(PODS).map((pod) => ({ namespace: pod.metadata.namespace, name: pod.metadata.name }));
  if (pods.length === 0) throw new Error('the store holds no pods to modify');
  const start = performance.now();
  let written = 0;
  let lastStamp = 0;
  while (written < count) {
    const due = Math.min(count, Math.floor(((performance.now() - start) * perSecond) / 1000)) - written;
    // A late tick catches up, but never by more than a second's worth at once.
    for (let i = 0; i < Math.min(due, perSecond); i += 1) {
      const pod = pods[written % pods.length] as { namespace: string | undefined; name: string };
      store.mutate(PODS, pod.namespace, pod.name, (copy) => {
        lastStamp = performance.timeOrigin + performance.now();
        copy.metadata.annotations = { ...copy.metadata.annotations, [STAMP_ANNOTATION]: String(lastStamp) };
      });
      written += 1;
    }
    await sleep(WRITE_TICK_MS);
  }
  return { written, lastStamp, achievedPerSecond: written / ((performance.now() - start) / 1000) };
}
