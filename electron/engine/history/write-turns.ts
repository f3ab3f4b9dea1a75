/**
 * Handing SQLite's one write lock from the backfill's worker (backfill-worker.ts) to the
 * recorder's flush. A flush that finds the worker in a transaction waits in SQLite's busy
 * handler, on the engine's thread, until that transaction commits: up to a whole chunk of
 * inferred rows (tens of ms on a loaded machine, at every flush of a first sync). So the
 * writer says when it wants the lock (`wantWrite`), and the worker, which checks every
 * HANDOVER_ROWS rows, commits what it has at once and waits until the flush is done.
 */

/** Index, in a backfill worker's shared flags, of the engine's "a flush wants to write" flag. */
export const FLAG_WANT = 2;
/** Rows the worker writes between two looks at the flag (~1 ms of upserts). */
export const HANDOVER_ROWS = 64;
/** How long the worker waits for a flush at most before it looks again (ms). */
export const HANDOVER_WAIT_MS = 50;

const flagsOf = new WeakMap<object, Int32Array>();

/** The engine: a worker also writes `db`'s file (its flags); undefined when it is done. */
export function shareWrites(db: object, flags: Int32Array | undefined): void {
  if (flags) flagsOf.set(db, flags);
  else flagsOf.delete(db);
}

/** The engine's writer, before it begins (`true`) and after it ends (`false`) a transaction on `db`. */
export function wantWrite(db: object, want: boolean): void {
  const flags = flagsOf.get(db);
  if (!flags) return;
  Atomics.store(flags, FLAG_WANT, want ? 1 : 0);
  if (!want) Atomics.notify(flags, FLAG_WANT);
}

/** The worker: whether the engine waits to write. */
export const othersWant = (flags: Int32Array): boolean => Atomics.load(flags, FLAG_WANT) === 1;

/** The worker, between two transactions: waits while the engine wants to write (or until `until`, performance.now()). */
export function waitForOthers(flags: Int32Array, until = performance.now() + 10 * HANDOVER_WAIT_MS): void {
  while (othersWant(flags) && performance.now() < until) Atomics.wait(flags, FLAG_WANT, 1, HANDOVER_WAIT_MS);
}
