/**
 * The store's retained window of changes: what watches replay from a resourceVersion, and what
 * lets a list be served exactly at an older resourceVersion (by undoing newer changes).
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

export class ChangeLog {
  private entries: Change[] = [];
  private head = 0;
  /** Changes with rv > compactedThrough are retained. */
  private compactedThrough = 0;
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  append(change: Change): void {
    this.entries.push(change);
    if (this.entries.length - this.head > this.capacity) {
      const dropped = this.entries[this.head];
      if (dropped) this.compactedThrough = dropped.rv;
      this.head += 1;
      if (this.head > 4096 && this.head * 2 > this.entries.length) {
        this.entries = this.entries.slice(this.head);
        this.head = 0;
      }
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
