/**
 * The order of one column's keys, stable: rows that arrive in tie-key order leave in (key, tie)
 * order, the order sort.ts's comparators give, with no tie comparison at all (columns with few
 * distinct values, such as nodes, owners and statuses, made most of the comparator's calls
 * compare tie keys).
 *
 * Tried and not kept (docs/benchmarks.md, "2026-11-28 12:40–13:50 — the Pods table keeps its
 * column orders"): an MSD radix sort of the strings' code units and a counting sort of numbers by
 * rank. Warm, they took 0.4–0.7 of this; but in the page a sort's code runs a handful of times,
 * and cold (not yet optimised) they were as slow or slower, and they doubled the first build.
 * Array.prototype.sort is native from the start.
 */

/** Stable ascending order (indices into `keys`) of strings compared by code unit, as `<` does. */
export function stringOrder(keys: readonly string[]): number[] {
  const order = keys.map((_, i) => i);
  order.sort((a, b) => {
    const x = keys[a] as string;
    const y = keys[b] as string;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return order;
}

/** Stable ascending order of numbers; NaN last, -0 equal to 0 (as `===`). */
export function numberOrder(keys: readonly number[]): number[] {
  const order = keys.map((_, i) => i);
  order.sort((a, b) => {
    const x = keys[a] as number;
    const y = keys[b] as number;
    if (x === y) return 0;
    // NaN !== NaN, so two unknowns land here: equal, and after every known number.
    if (x !== x) return y !== y ? 0 : 1;
    if (y !== y) return -1;
    return x < y ? -1 : 1;
  });
  return order;
}

export type Key = string | number;
/** All keys strings, all numbers, or both (no fast order; see sort.ts). */
export type KeyKind = 'string' | 'number' | 'mixed';

/** Each item's key, and the keys' kind, in one pass. */
export function keysOf<T>(items: ReadonlyArray<T>, keyOf: (item: T) => Key): { keys: Key[]; kind: KeyKind } {
  const keys: Key[] = new Array(items.length);
  let strings = 0;
  for (let i = 0; i < items.length; i += 1) {
    const key = keyOf(items[i] as T);
    if (typeof key === 'string') strings += 1;
    keys[i] = key;
  }
  return { keys, kind: kindOf(strings, items.length) };
}

/** The kind of `total` keys of which `strings` are strings. */
export function kindOf(strings: number, total: number): KeyKind {
  return strings === total ? 'string' : strings === 0 ? 'number' : 'mixed';
}
