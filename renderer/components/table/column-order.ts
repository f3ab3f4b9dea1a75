/**
 * One column's rows in ascending order, kept once computed (live-rows.ts holds one per column
 * sorted so far). Either direction is a view of it: descending is the ascending order read
 * backwards group by group (equal keys keep their tie order, unknown numbers stay last), O(n)
 * instead of a sort. Rows that change while another column is on view wait in `pending` and are
 * merged in (binary insertion, one copying pass) when the order is next read.
 */
import type { SortDirection } from './columns.ts';
import { keysOf, numberOrder, stringOrder, type Key, type KeyKind } from './key-order.ts';
import { comparator, type Keyed } from './sort.ts';

/** One object's row as the orders hold it; replaced (and marked dead) when the object changes. */
export interface RowRecord<Row> {
  uid: string;
  row: Row;
  tie: string;
  /** Set when a newer record replaced this one or its object went away. */
  dead: boolean;
}

/** (key, tie) ascending, unknown numbers last: comparatorFor's order for one direction. */
function compareAsc(x: Key, xTie: string, y: Key, yTie: string): number {
  if (x !== y) {
    if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : 1;
    if (typeof x === 'number' && typeof y === 'number') {
      if (x !== x) return y !== y ? (xTie < yTie ? -1 : xTie > yTie ? 1 : 0) : 1;
      if (y !== y) return -1;
      return x < y ? -1 : 1;
    }
  }
  return xTie < yTie ? -1 : xTie > yTie ? 1 : 0;
}

const sameKey = (x: Key, y: Key): boolean => x === y || (x !== x && y !== y);

export class ColumnOrder<Row> {
  /** Records in ascending (key, tie) order, and each one's key. */
  private records: Array<RowRecord<Row>>;
  private keys: Key[];
  /** uids changed since the order was last brought up to date. */
  readonly pending = new Set<string>();
  /** Bumped whenever the order changes, so a caller can keep what it derived from it. */
  version = 0;
  /** Mixed string/number keys have no ascending order to reverse: such an order is per direction. */
  readonly mixed: boolean;
  private readonly kind: KeyKind;
  private readonly keyOf: (record: RowRecord<Row>) => Key;

  /**
   * Sorts `inTieOrder` (live records ordered by tie key) by `keyOf`. Mixed keys fall back to
   * sort.ts's generic comparator for `direction`.
   */
  static build<Row>(inTieOrder: ReadonlyArray<RowRecord<Row>>, keyOf: (record: RowRecord<Row>) => Key, direction: SortDirection = 'asc'): ColumnOrder<Row> {
    const { keys, kind } = keysOf(inTieOrder, keyOf);
    let order: ArrayLike<number>;
    if (kind === 'string') order = stringOrder(keys as string[]);
    else if (kind === 'number') order = numberOrder(keys as number[]);
    else {
      const compare = comparator<number>(direction);
      const keyed: Array<Keyed<number>> = keys.map((key, i) => ({ key, tie: (inTieOrder[i] as RowRecord<Row>).tie, row: i }));
      order = keyed.sort(compare).map((entry) => entry.row);
    }
    const records: Array<RowRecord<Row>> = new Array(order.length);
    const sortedKeys: Key[] = new Array(order.length);
    for (let i = 0; i < order.length; i += 1) {
      const index = order[i] as number;
      records[i] = inTieOrder[index] as RowRecord<Row>;
      sortedKeys[i] = keys[index] as Key;
    }
    return new ColumnOrder(records, sortedKeys, kind, keyOf);
  }

  /** An order from records already in ascending (key, tie) order (or `mixed`'s one direction). */
  constructor(records: Array<RowRecord<Row>>, keys: Key[], kind: KeyKind, keyOf: (record: RowRecord<Row>) => Key) {
    this.records = records;
    this.keys = keys;
    this.kind = kind;
    this.keyOf = keyOf;
    this.mixed = kind === 'mixed';
  }

  get size(): number {
    return this.records.length;
  }

  /** Live records in ascending order (the tie order when this is the tie key's order). */
  ascending(): ReadonlyArray<RowRecord<Row>> {
    return this.records;
  }

  /**
   * Merges the pending changes in: `current(uid)` is a uid's live record, undefined when gone.
   * Dead records drop out and the current ones go in at their places, in one copying pass.
   * False (nothing changed) when it cannot: a key of another kind than the order's (mixed keys
   * have no ascending order), so the caller sorts afresh.
   */
  catchUp(current: (uid: string) => RowRecord<Row> | undefined): boolean {
    if (this.pending.size === 0) return true;
    if (this.mixed) return false;
    const added: Array<{ record: RowRecord<Row>; key: Key }> = [];
    for (const uid of this.pending) {
      const record = current(uid);
      if (!record) continue;
      const key = this.keyOf(record);
      if (typeof key !== this.kind) return false;
      added.push({ record, key });
    }
    this.pending.clear();
    added.sort((a, b) => compareAsc(a.key, a.record.tie, b.key, b.record.tie));
    const { records, keys } = this;
    const nextRecords: Array<RowRecord<Row>> = [];
    const nextKeys: Key[] = [];
    let i = 0;
    const copyUntil = (end: number): void => {
      for (; i < end; i += 1) {
        const record = records[i] as RowRecord<Row>;
        if (record.dead) continue;
        nextRecords.push(record);
        nextKeys.push(keys[i] as Key);
      }
    };
    for (const { record, key } of added) {
      // Dead records still sit where their keys sort, so they do not disturb the search.
      let low = i;
      let high = records.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compareAsc(keys[middle] as Key, (records[middle] as RowRecord<Row>).tie, key, record.tie) <= 0) low = middle + 1;
        else high = middle;
      }
      copyUntil(low);
      nextRecords.push(record);
      nextKeys.push(key);
    }
    copyUntil(records.length);
    this.records = nextRecords;
    this.keys = nextKeys;
    this.version += 1;
    return true;
  }

  /** The rows in `direction` (a mixed order only in the direction it was built for). */
  rows(direction: SortDirection): Row[] {
    const { records, keys } = this;
    const n = records.length;
    const rows: Row[] = new Array(n);
    if (direction === 'asc' || this.mixed) {
      for (let i = 0; i < n; i += 1) rows[i] = (records[i] as RowRecord<Row>).row;
      return rows;
    }
    // Unknown numbers sort last in both directions: they stay at the end, in tie order.
    let known = n;
    while (known > 0 && Number.isNaN(keys[known - 1])) known -= 1;
    let out = 0;
    let end = known;
    while (end > 0) {
      let start = end - 1;
      while (start > 0 && sameKey(keys[start - 1] as Key, keys[end - 1] as Key)) start -= 1;
      for (let i = start; i < end; i += 1) rows[out++] = (records[i] as RowRecord<Row>).row;
      end = start;
    }
    for (let i = known; i < n; i += 1) rows[out++] = (records[i] as RowRecord<Row>).row;
    return rows;
  }
}
