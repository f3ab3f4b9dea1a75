/**
 * One resource's objects in key order (`namespace/name`), for lists: built by sorting once, then
 * kept valid through modifications (the same key gets a new object), so a store under steady
 * churn answers every list and every page without sorting or walking its whole map again.
 */

export class SortedIndex<T> {
  private readonly keys: string[];
  private readonly values: T[];

  constructor(entries: Iterable<[string, T]>) {
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.keys = sorted.map(([key]) => key);
    this.values = sorted.map(([, value]) => value);
  }

  /** The first position whose key is not less than `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.keys[mid] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Replaces the value of a key the index holds; false (nothing changed) for a key it lacks. */
  replace(key: string, value: T): boolean {
    const at = this.lowerBound(key);
    if (this.keys[at] !== key) return false;
    this.values[at] = value;
    return true;
  }

  /** The values whose keys start with `prefix` ('' for all), in key order, as a new array. */
  range(prefix: string): T[] {
    if (!prefix) return this.values.slice();
    // Keys sharing a prefix are contiguous in sorted order.
    const from = this.lowerBound(prefix);
    let to = from;
    while (to < this.keys.length && (this.keys[to] as string).startsWith(prefix)) to += 1;
    return this.values.slice(from, to);
  }
}
