/**
 * The store's retained window of changes: what watches replay from a resourceVersion, and what
 * lets a list be served exactly at an older resourceVersion (by undoing newer changes).
 *
 * Sized as kube-apiserver's watch cache is: it keeps `eventFreshDuration` (75 s) of history,
 * growing up to 100 x 1024 events, and a window of events it keeps whatever their age (the
 * store's `retainedChanges`). A client that falls further behind than that gets 410 Gone, "too
 * old resource version: X (Y)", and must relist.
 */
import type { KubeObject } from './types.ts';

export interface Change {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  key: string;
  object: KubeObject;
  /** The object before this change (MODIFIED, DELETED). */
  old?: KubeObject;
}

/** kube-apiserver's `eventFreshDuration`: the watch cache grows to keep this much history. */
export const WATCH_CACHE_FRESH_MS = 75_000;
/** kube-apiserver's `defaultUpperBoundCapacity`: the most events its watch cache grows to. */
export const WATCH_CACHE_UPPER_BOUND = 100 * 1024;

/** How many changes a ChangeLog keeps. */
export interface ChangeLogWindow {
  /** Kept whatever their age. */
  capacity: number;
  /** Changes younger than `freshMs` are kept beyond `capacity`, up to this many (default: capacity). */
  upperBound?: number;
  freshMs?: number;
  /** The clock (ms) the freshness is read from. */
  now?: () => number;
}

export class ChangeLog {
  private entries: Change[] = [];
  /** When each entry was appended (the window's clock), parallel to `entries`. */
  private times: number[] = [];
  private head = 0;
  /** Changes with rv > compactedThrough are retained. */
  private compactedThrough = 0;
  private readonly capacity: number;
  private readonly upperBound: number;
  private readonly freshMs: number;
  private readonly now: () => number;

  constructor(window: number | ChangeLogWindow) {
    const options = typeof window === 'number' ? { capacity: window } : window;
    this.capacity = options.capacity;
    this.upperBound = Math.max(options.capacity, options.upperBound ?? options.capacity);
    this.freshMs = options.freshMs ?? WATCH_CACHE_FRESH_MS;
    this.now = options.now ?? Date.now;
  }

  append(change: Change): void {
    const now = this.now();
    this.entries.push(change);
    this.times.push(now);
    // Beyond the capacity only fresh changes stay, and never more than the upper bound.
    while (this.entries.length - this.head > this.capacity) {
      const kept = this.entries.length - this.head;
      if (kept <= this.upperBound && now - (this.times[this.head] ?? now) < this.freshMs) break;
      const dropped = this.entries[this.head];
      if (dropped) this.compactedThrough = dropped.rv;
      this.head += 1;
    }
    if (this.head > 4096 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  /** The oldest resourceVersion a watch or an exact list can still start from. */
  oldestServable(): number {
    return this.compactedThrough;
  }

  /** Forget everything up to `rv` (fault injection: forces 410 on the next watch from older). */
  compact(rv: number): void {
    while (this.head < this.entries.length && (this.entries[this.head]?.rv ?? Infinity) <= rv) this.head += 1;
    this.compactedThrough = Math.max(this.compactedThrough, rv);
  }

  /** Retained changes with rv greater than `after`, oldest first. */
  since(after: number): Change[] {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.entries[mid]?.rv ?? 0) <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.entries.slice(lo);
  }
}

/**
 * The objects of resource `id` (its current ones in `current`, by key) as they were before
 * `newer` (the log's changes after some version), in key order, optionally of one namespace.
 */
export function objectsAt(current: ReadonlyMap<string, KubeObject>, newer: readonly Change[], id: string, namespace?: string): KubeObject[] {
  const state = new Map(current);
  for (let i = newer.length - 1; i >= 0; i -= 1) {
    const change = newer[i] as Change;
    if (change.resource !== id) continue;
    if (change.type === 'ADDED') state.delete(change.key);
    else if (change.old) state.set(change.key, change.old);
  }
  const prefix = namespace ? `${namespace}/` : '';
  return [...state.entries()]
    .filter(([key]) => !prefix || key.startsWith(prefix))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, object]) => object);
}
