/**
 * Chooses a context's history store from the history store setting: the embedded SQLite file
 * (store.ts; empty or `sqlite`), or a shared PostgreSQL database named by a `postgres://`
 * connection string (postgres/shared-store.ts). Both answer the same interface.
 */
import { parseStoreLocation } from './postgres/connection.ts';
import { openSharedStore, type SharedStoreOptions } from './postgres/shared-store.ts';
import { openStore, type HistoryStore, type StoreOptions } from './store.ts';

export interface HistoryStoreOptions extends StoreOptions {
  /** The history store setting: undefined, '' or 'sqlite', or a postgres:// connection string. */
  store?: string | undefined;
  /** How often a shared store copies changes both ways (postgres/shared-store.ts). */
  syncIntervalMs?: SharedStoreOptions['syncIntervalMs'];
  /** How a shared store's writer claim names this recorder to others (postgres/writer-claim.ts). */
  writerLabel?: SharedStoreOptions['writerLabel'];
  /** How long a shared store's writer may be silent before another recorder takes over (default WRITER_TTL_MS). */
  writerTtlMs?: SharedStoreOptions['writerTtlMs'];
}

/** The takeover time the settings choose (historyTakeoverSeconds), in ms; undefined keeps the default. */
export const writerTtlOf = (seconds: number | undefined): number | undefined => (seconds === undefined ? undefined : seconds * 1000);

/** Whether the history store setting names a shared PostgreSQL store (a malformed one does not: opening it fails with its own message). */
export function namesSharedStore(store: string | undefined): boolean {
  try {
    return parseStoreLocation(store).kind === 'postgres';
  } catch {
    return false;
  }
}

/** Opens the chosen store; throws with a clear message on a bad connection string or unopenable files. */
export function openHistoryStore(options: HistoryStoreOptions): HistoryStore {
  const location = parseStoreLocation(options.store);
  if (location.kind === 'sqlite') return openStore(options);
  return openSharedStore({ ...options, shared: { url: location.url, target: location.target } });
}
