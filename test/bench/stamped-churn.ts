/**
 * Pod modifications at a fixed rate, written straight into the simulator's store. Each write's
 * time (ms since the epoch, `performance.timeOrigin + performance.now()`: the browser runs on
 * the same machine, so its clock reads the same) is kept under the resourceVersion it gave the
 * pod, which is what the page sees arrive (the renderer's form of a pod keeps no annotations);
 * the pod's `bench/t` annotation carries the same time, so each write changes the pod.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import type { ObjectStore } from '../../electron/engine/simcluster/store.ts';
import { STAMP_ANNOTATION } from './live-page.ts';

const PODS = typeById('pods') as ResourceType;
/** How often the writer catches up with its rate: 25 writes a tick at 5,000 per second. */
const WRITE_TICK_MS = 5;
/**
 * Longest run of writes before the writer yields. The server shares this process: while the
 * writer runs, no watch event leaves for its client, and a writer that caught up a second's
 * worth at once (a few seconds of CPU when the process is short of it) made the server buffer
 * megabytes per watch and close it as a slow consumer, though the client was reading all along.
 */
const MAX_WRITE_RUN_MS = 20;

/** What a stamped churn wrote. */
export interface StampedRun {
  written: number;
  /** The resourceVersion of the last write (the store's versions only grow). */
  lastRv: number;
  /** Every write as [resourceVersion, write time], flattened: rv, time, rv, time... */
  writes: number[];
  /** Writes per second achieved (below the rate when the process could not keep up). */
  achievedPerSecond: number;
  /** With `withOrder`: the uids of the pods in write order (write i modified `order[i % order.length]`). */
  order?: string[];
  /** When the last write was made (ms since the epoch, as the write times). */
  endedAt: number;
}

/**
 * Modifies `count` pods at `perSecond` (round robin over every pod, so no pod changes twice
 * within a flush window and nothing is coalesced away), then resolves.
 */
export async function stampedChurn(store: ObjectStore, perSecond: number, count: number, options: { withOrder?: boolean } = {}): Promise<StampedRun> {
  const pods = store.all(PODS).map((pod) => ({ namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid }));
  if (pods.length === 0) throw new Error('the store holds no pods to modify');
  const start = performance.now();
  let written = 0;
  const writes: number[] = [];
  while (written < count) {
    const tickStart = performance.now();
    const due = Math.min(count, Math.floor(((tickStart - start) * perSecond) / 1000)) - written;
    // A late tick catches up, but never by more than a second's worth, nor for longer than MAX_WRITE_RUN_MS.
    for (let i = 0; i < Math.min(due, perSecond) && performance.now() - tickStart < MAX_WRITE_RUN_MS; i += 1) {
      const pod = pods[written % pods.length] as (typeof pods)[number];
      const stamp = performance.timeOrigin + performance.now();
      // An update of the stored object with its annotations replaced, as a client's PUT: the
      // store shares every unchanged subtree, where mutate's private deep copy cost more than the
      // serving of the write's watch event (this process also serves the engine under test).
      const current = store.get(PODS, pod.namespace, pod.name);
      const modified = store.update(PODS, { ...current, metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, [STAMP_ANNOTATION]: String(stamp) } } });
      writes.push(Number(modified.metadata.resourceVersion), stamp);
      written += 1;
    }
    await sleep(WRITE_TICK_MS);
  }
  return {
    written,
    lastRv: writes.at(-2) ?? 0,
    writes,
    achievedPerSecond: written / ((performance.now() - start) / 1000),
    endedAt: writes.at(-1) ?? performance.timeOrigin + performance.now(),
    ...(options.withOrder ? { order: pods.map((pod) => pod.uid) } : {}),
  };
}
