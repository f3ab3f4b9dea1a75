/**
 * A read-only window onto the cluster store for the end-to-end consistency checker and the
 * benchmarks, which run the real renderer in Chromium and must compare what it holds with the
 * simulator and the engine cache. It exposes stamps and counters only, never object contents.
 */
import type { ObjectStamp } from './object-index.ts';

export interface ClusterStoreStatus {
  epoch: string | null;
  /** seq of the last applied snapshot or delta (null before the first snapshot). */
  seq: number | null;
  /** A snapshot of the current epoch has been applied. */
  synced: boolean;
  objects: number;
  /** performance.now() of the last applied batch, for latency measurements. */
  appliedAt: number | null;
}

/** `window.__kubedriftStore` (test hook, not an API): `dump()` every object's stamp, `status()` the counters. */
export interface ClusterStoreHook {
  dump(): ObjectStamp[];
  status(): ClusterStoreStatus;
}

declare global {
  interface Window {
    __kubedriftStore?: ClusterStoreHook;
  }
}

/** Installs the hook; returns its removal (a disposed store must not answer for a new one). */
export function installTestHook(hook: ClusterStoreHook): () => void {
  window.__kubedriftStore = hook;
  return () => {
    if (window.__kubedriftStore === hook) delete window.__kubedriftStore;
  };
}
