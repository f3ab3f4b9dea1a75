/**
 * The order of one column's keys without a comparator. A comparator sort of 150,000 rows makes
 * ~2.6 million calls (81–115 ms for pod names on a slow VM even in a native string sort), while
 * these sorts touch each key a few times:
 * - strings: an MSD radix sort on code units (ASCII buckets; a bucket of other code units and
 *   small ranges are finished by comparison), so shared prefixes like `svc-012-` cost one
 *   counting pass each, not a comparison per pair;
 * - numbers: the distinct values sorted as a Float64Array (native, no callback), then a counting
 *   sort by their rank; NaN (unknown) last.
 * Both are stable, so rows that arrive in tie-key order leave in (key, tie) order: the order
 * sort.ts's comparators give, with no tie comparisons at all.
 */

/** Ranges at most this long are finished by insertion sort. */
const SMALL_RANGE = 48;
/** Buckets of a radix pass: the key ended, the 128 ASCII code units, every other code unit. */
const ENDED = 0;
const OTHER = 129;
const BUCKETS = 130;

const byString = (keys: readonly string[]) => (a: number, b: number): number => {
  const x = keys[a] as string;
  const y = keys[b] as string;
  return x < y ? -1 : x > y ? 1 : 0;
};

function insertionSort(order: Int32Array, lo: number, hi: number, keys: readonly string[]): void {
  for (let i = lo + 1; i < hi; i += 1) {
    const index = order[i] as number;
    const key = keys[index] as string;
    let j = i - 1;
    // Strictly greater moves: equal keys keep their order (stable).
    while (j >= lo && (keys[order[j] as number] as string) > key) {
      order[j + 1] = order[j] as number;
      j -= 1;
    }
    order[j + 1] = index;
  }
}

/**
 * Every key's code units in one buffer, read in one pass: the radix passes then read this
 * instead of 150,000 strings scattered over the heap (reading those on every pass was slower
 * than a comparison sort: each pass missed the cache on each string).
 */
interface Units {
  units: Uint16Array;
  /** Key i's units are units[offsets[i], offsets[i + 1]). */
  offsets: Int32Array;
}

function unitsOf(keys: readonly string[]): Units {
  const offsets = new Int32Array(keys.length + 1);
  for (let i = 0; i < keys.length; i += 1) offsets[i + 1] = (offsets[i] as number) + (keys[i] as string).length;
  const units = new Uint16Array(offsets[keys.length] as number);
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    const at = offsets[i] as number;
    for (let j = 0; j < key.length; j += 1) units[at + j] = key.charCodeAt(j);
  }
  return { units, offsets };
}

function bucketOf({ units, offsets }: Units, index: number, depth: number): number {
  const at = (offsets[index] as number) + depth;
  if (at >= (offsets[index + 1] as number)) return ENDED;
  const unit = units[at] as number;
  return unit < 128 ? unit + 1 : OTHER;
}

/**
 * Stable ascending order (indices into `keys`) of strings compared by code unit, as `<` does.
 * Columns with few distinct values (nodes, owners, statuses) sort their distinct values and then
 * place every key by its value's rank in one counting pass; columns of mostly distinct values
 * (names) give that up after a quarter of the keys and radix-sort them all.
 */
export function stringOrder(keys: readonly string[]): Int32Array {
  const n = keys.length;
  const ids = new Int32Array(n);
  const idOf = new Map<string, number>();
  const distinct: string[] = [];
  const most = Math.max(64, n >> 2);
  for (let i = 0; i < n; i += 1) {
    const key = keys[i] as string;
    let id = idOf.get(key);
    if (id === undefined) {
      if (distinct.length === most) return radixOrder(keys);
      id = distinct.length;
      idOf.set(key, id);
      distinct.push(key);
    }
    ids[i] = id;
  }
  const ranks = new Int32Array(distinct.length);
  radixOrder(distinct).forEach((id, rank) => (ranks[id] = rank));
  return countingOrder(ids, ranks);
}

/** Stable order of items by `ranks[ids[i]]` (ranks 0..ranks.length - 1). */
function countingOrder(ids: Int32Array, ranks: Int32Array): Int32Array {
  const starts = new Int32Array(ranks.length + 1);
  for (const id of ids) {
    const at = (ranks[id] as number) + 1;
    starts[at] = (starts[at] as number) + 1;
  }
  for (let r = 1; r < starts.length; r += 1) starts[r] = (starts[r] as number) + (starts[r - 1] as number);
  const order = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i += 1) {
    const rank = ranks[ids[i] as number] as number;
    order[starts[rank] as number] = i;
    starts[rank] = (starts[rank] as number) + 1;
  }
  return order;
}

function radixOrder(keys: readonly string[]): Int32Array {
  const n = keys.length;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  const text = unitsOf(keys);
  const scratch = new Int32Array(n);
  const counts = new Int32Array(BUCKETS);
  const starts = new Int32Array(BUCKETS + 1);
  // Pending ranges as (lo, hi, depth) triples; every key in a range shares its first `depth` units.
  const stack: number[] = [0, n, 0];
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    const hi = stack.pop() as number;
    const lo = stack.pop() as number;
    if (hi - lo <= SMALL_RANGE) {
      insertionSort(order, lo, hi, keys);
      continue;
    }
    // Shared prefixes (`svc-012-`, `churn-node-`) are common: check for one unit before counting.
    const first = bucketOf(text, order[lo] as number, depth);
    let same = lo + 1;
    while (same < hi && bucketOf(text, order[same] as number, depth) === first) same += 1;
    if (same === hi && first === ENDED) continue;
    if (same === hi && first !== OTHER) {
      // Every key has the same unit here: nothing moves, look one unit further.
      stack.push(lo, hi, depth + 1);
      continue;
    }
    counts.fill(0);
    counts[first] = same - lo;
    for (let i = same; i < hi; i += 1) {
      const b = bucketOf(text, order[i] as number, depth);
      counts[b] = (counts[b] as number) + 1;
    }
    starts[0] = lo;
    for (let b = 0; b < BUCKETS; b += 1) starts[b + 1] = (starts[b] as number) + (counts[b] as number);
    const next = starts.slice(0, BUCKETS);
    for (let i = lo; i < hi; i += 1) {
      const index = order[i] as number;
      const b = bucketOf(text, index, depth);
      scratch[next[b] as number] = index;
      next[b] = (next[b] as number) + 1;
    }
    order.set(scratch.subarray(lo, hi), lo);
    // ENDED holds equal keys (already in their arrival order); the rest sort further.
    for (let b = 1; b < OTHER; b += 1) if ((counts[b] as number) > 1) stack.push(starts[b] as number, starts[b + 1] as number, depth + 1);
    if ((counts[OTHER] as number) > 1) sortRange(order, starts[OTHER] as number, hi, byString(keys));
  }
  return order;
}

/** Sorts order[lo, hi) with a comparator (Array.prototype.sort is stable). */
function sortRange(order: Int32Array, lo: number, hi: number, compare: (a: number, b: number) => number): void {
  order.set(Array.from(order.subarray(lo, hi)).sort(compare), lo);
}

/** Stable ascending order of numbers; NaN last, -0 equal to 0 (as `===`). */
export function numberOrder(keys: readonly number[]): Int32Array {
  const n = keys.length;
  const values = new Float64Array(n);
  let known = 0;
  for (const key of keys) if (key === key) values[known++] = key;
  const sorted = values.subarray(0, known).sort();
  // Distinct values, -0 and 0 as one (=== is how the comparators see them).
  let distinct = 0;
  for (let i = 0; i < known; i += 1) if (distinct === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i] as number;
  const ranks = new Int32Array(n);
  const counts = new Int32Array(distinct + 2);
  for (let i = 0; i < n; i += 1) {
    const key = keys[i] as number;
    let rank = distinct;
    if (key === key) {
      let low = 0;
      let high = distinct - 1;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((sorted[middle] as number) < key) low = middle + 1;
        else high = middle;
      }
      rank = low;
    }
    ranks[i] = rank;
    counts[rank + 1] = (counts[rank + 1] as number) + 1;
  }
  for (let r = 1; r < counts.length; r += 1) counts[r] = (counts[r] as number) + (counts[r - 1] as number);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i += 1) {
    const rank = ranks[i] as number;
    order[counts[rank] as number] = i;
    counts[rank] = (counts[rank] as number) + 1;
  }
  return order;
}

/** The keys' kind: all strings, all numbers, or both (no fast order; see sort.ts). */
export function keyKind(keys: ReadonlyArray<string | number>): 'string' | 'number' | 'mixed' {
  let strings = 0;
  for (const key of keys) if (typeof key === 'string') strings += 1;
  return strings === keys.length ? 'string' : strings === 0 ? 'number' : 'mixed';
}
