/**
 * A bench's simulated cluster settles before it says it is ready. Just seeded, the simulator
 * still has every object's JSON to make (json-texts.ts: in its idle turns, ~0.5 CPU-s for the
 * aged 5,000-pod cluster, more than 1 for 50,000 pods) and its first full collection of the
 * seeded heap ahead of it: work a long-running API server did long ago, and which, on this
 * 2-core machine, ran during the first sync or connect the bench measured, on the core the
 * engine's list worker needs. So the child waits until its store has no JSON left to make, then
 * collects its heap (when started with --expose-gc), and only then reports ready.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectStore } from '../../electron/engine/simcluster/store.ts';

/** A store still making JSON after this long is written to: settling gives up (the bench goes on). */
export const SETTLE_TIMEOUT_MS = 120_000;
const POLL_MS = 50;

/** Waits until `store` has made every current object's JSON (or the timeout), then runs a full GC if exposed; ms taken. */
export async function settleStore(store: Pick<ObjectStore, 'jsonBacklog'>, timeoutMs = SETTLE_TIMEOUT_MS): Promise<number> {
  const start = performance.now();
  while (store.jsonBacklog() > 0 && performance.now() - start < timeoutMs) await sleep(POLL_MS);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return Math.round(performance.now() - start);
}
