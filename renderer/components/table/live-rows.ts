/**
 * A sorted list of rows kept current by patching. After a batch, only the objects that changed
 * get new rows; the old rows of those objects drop out in one pass and the new ones merge in,
 * O(n + k log k) light work instead of deriving and sorting 50,000 rows, O(n log n) with
 * hashing. At 50,000 pods and a few hundred changes a batch that is the difference between a
 * long task that stalls scrolling and one that fits in a frame.
 *
 * Each column's order is kept once computed (column-order.ts), so going back to a column or
 * reversing it costs a merge of what changed meanwhile and one O(n) pass, not a sort. A new
 * column is sorted by its key alone (key-order.ts), stably, from the rows in tie-key order, which
 * is itself kept like a column's. With `idle`, the orders of the other sortable columns are also
 * computed in idle time, so a first click is cheap too: in slices of a few milliseconds
 * (order-build.ts), so a click never waits long behind one, and a click on the column being
 * prepared finishes its build instead of starting again. `prepare` does the first build ahead,
 * in idle slices too, for a table not on view yet (the Pods screen's, pod-rows.ts).
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { ColumnOrder, type RowRecord } from './column-order.ts';
import type { SortState, TableColumn } from './columns.ts';
import { OrderBuild } from './order-build.ts';
import { sortColumn, sortKeyOf } from './sort.ts';

export interface LiveRowsInput {
  sort: SortState;
  /** Every object the table shows, for a rebuild. */
  all: () => Iterable<SlimObject>;
  /** uids changed since the last call, or null when that is not known (rebuild). */
  changed: ReadonlySet<string> | null;
  /** The current object of a uid, undefined when it is gone. */
  lookup: (uid: string) => SlimObject | undefined;
}

/** A table's patcher: call it with each batch's changes; `prepare` builds ahead, in idle time. */
export interface LiveRows<Row> {
  (input: LiveRowsInput): readonly Row[];
  /**
   * Builds the rows of `all()` and their tie order in idle slices (with `idle` only), then, as
   * after any call, every sortable column's order; `done` runs once the rows are in place. A
   * call meanwhile (the table shown) builds at once instead, and the preparing stops.
   */
  prepare(all: () => Iterable<SlimObject>, done: () => void): void;
}

/** Runs a task when nothing more urgent waits (idle.ts: a background-priority task or requestIdleCallback; a test's queue). */
export type IdleScheduler = (task: () => void) => void;

export interface LiveRowsOptions<Row> {
  derive: (object: SlimObject) => Row;
  columns: ReadonlyArray<TableColumn<Row>>;
  tieKey: (row: Row) => string;
  /** When given, the sortable columns' orders are computed ahead, in idle time. */
  idle?: IdleScheduler;
  /** The clock that bounds an idle slice, in ms (performance.now; tests pass their own). */
  now?: () => number;
}

/** An order that has missed more than this share of the rows is dropped, not patched. */
const STALE_SHARE = 0.25;
/** The order of the tie keys, the input of every new column's sort. */
const TIE = '\u0000tie';
/** Most of an idle slice's work, in ms: a click waits at most about this long behind it. */
const SLICE_MS = 5;

/** Rows made between two looks at the clock while preparing. */
const PREPARE_CLOCK_EVERY = 128;

/** A column's order being built in idle slices. */
interface Building<Row> {
  column: string;
  build: OrderBuild<Row>;
}

/** Creates the patcher for one table; call it with each batch's changes. */
export function createLiveRows<Row>(options: LiveRowsOptions<Row>): LiveRows<Row> {
  let byUid = new Map<string, RowRecord<Row>>();
  /** Orders computed so far, by column id (`id:direction` for mixed keys). */
  const orders = new Map<string, ColumnOrder<Row>>();
  let built = false;
  let view: { order: ColumnOrder<Row>; version: number; direction: string; rows: readonly Row[] } | null = null;
  let idleQueued = false;
  /** The column being ordered in idle slices. */
  let building: Building<Row> | null = null;
  /** Bumped by every call: a `prepare` under way stops when it changes. */
  let generation = 0;
  const now = options.now ?? (() => performance.now());
  const current = (uid: string): RowRecord<Row> | undefined => byUid.get(uid);

  const recordOf = (object: SlimObject): RowRecord<Row> => {
    const row = options.derive(object);
    return { uid: object.metadata.uid, row, tie: options.tieKey(row), dead: false };
  };

  const keyFor = (column: string): ((record: RowRecord<Row>) => string | number) => {
    const sortKey = sortColumn(options.columns, { column, direction: 'asc' });
    if (!sortKey) return () => '';
    const keyOf = sortKeyOf(sortKey);
    return (record) => keyOf(record.row);
  };

  /** The tie order, up to date. */
  const tieOrder = (): ColumnOrder<Row> => {
    const kept = orders.get(TIE);
    if (kept?.catchUp(current)) return kept;
    const order = ColumnOrder.build([...byUid.values()], (record) => record.tie);
    orders.set(TIE, order);
    return order;
  };

  /** The order of `column` (for `direction` when its keys are mixed), up to date. */
  const orderOf = (column: string, direction: SortState['direction']): ColumnOrder<Row> => {
    const id = orders.has(column) ? column : `${column}:${direction}`;
    const kept = orders.get(id) ?? (building?.column === column ? finish(building) : undefined);
    if (kept?.catchUp(current)) return kept;
    orders.delete(id);
    const order = ColumnOrder.build(tieOrder().ascending(), keyFor(column), direction);
    orders.set(order.mixed ? `${column}:${direction}` : column, order);
    return order;
  };

  /** Completes the idle build under way and keeps its order (none when its keys are mixed). */
  const finish = ({ column, build }: Building<Row>): ColumnOrder<Row> | undefined => {
    building = null;
    const order = build.result();
    if (order) orders.set(column, order);
    return order ?? undefined;
  };

  /** Files a batch's changes: new records, and the uids every kept order must merge in. */
  const apply = (changed: ReadonlySet<string>, lookup: (uid: string) => SlimObject | undefined): void => {
    for (const uid of changed) {
      const old = byUid.get(uid);
      if (old) old.dead = true;
      byUid.delete(uid);
      const object = lookup(uid);
      if (object) byUid.set(uid, recordOf(object));
    }
    for (const [id, order] of orders) {
      // A mixed order cannot be patched, and a very stale one costs as much to patch as to redo.
      if (order.mixed || order.pending.size + changed.size > Math.max(64, order.size * STALE_SHARE)) {
        orders.delete(id);
        continue;
      }
      for (const uid of changed) order.pending.add(uid);
    }
    if (building) {
      const { pending } = building.build;
      for (const uid of changed) pending.add(uid);
      if (pending.size > Math.max(64, byUid.size * STALE_SHARE)) building = null;
    }
  };

  /** The next sortable column with no order kept. */
  const nextMissing = (): TableColumn<Row> | undefined =>
    // Only missing orders: a kept one merges what it missed when it is next shown, cheaply.
    options.columns.find((column) => column.sortKey && !orders.has(column.id) && !orders.has(`${column.id}:asc`) && !orders.has(`${column.id}:desc`));

  /** One idle slice: works on the missing columns' orders for about SLICE_MS. */
  const prepareNext = (): void => {
    idleQueued = false;
    const end = now() + SLICE_MS;
    do {
      if (!building) {
        const column = nextMissing();
        if (!column) return;
        building = { column: column.id, build: new OrderBuild(tieOrder().ascending(), keyFor(column.id)) };
      }
      if (building.build.step()) {
        const { column } = building;
        // Mixed keys have no order to slice: that column is sorted in one go, as a click would.
        if (!finish(building)) orderOf(column, options.columns.find((candidate) => candidate.id === column)?.firstDirection ?? 'asc');
      }
    } while (now() < end);
    schedulePrepare();
  };

  function schedulePrepare(): void {
    if (!options.idle || idleQueued) return;
    idleQueued = true;
    options.idle(prepareNext);
  }

  /** See LiveRows.prepare. */
  const prepare = (all: () => Iterable<SlimObject>, done: () => void): void => {
    const { idle } = options;
    if (!idle) return;
    const mine = ++generation;
    const fresh = new Map<string, RowRecord<Row>>();
    const objects = all()[Symbol.iterator]();
    let tie: OrderBuild<Row> | undefined;
    const slice = (): void => {
      if (mine !== generation) return;
      const end = now() + SLICE_MS;
      while (!tie) {
        for (let i = 0; i < PREPARE_CLOCK_EVERY && !tie; i += 1) {
          const next = objects.next();
          if (next.done) tie = new OrderBuild([...fresh.values()], (record) => record.tie);
          else fresh.set(next.value.metadata.uid, recordOf(next.value));
        }
        if (now() >= end) return idle(slice);
      }
      while (!tie.step()) if (now() >= end) return idle(slice);
      byUid = fresh;
      orders.clear();
      orders.set(TIE, tie.result() ?? ColumnOrder.build([...fresh.values()], (record) => record.tie));
      building = null;
      view = null;
      built = true;
      done();
      schedulePrepare();
    };
    idle(slice);
  };

  const rows = (input: LiveRowsInput): readonly Row[] => {
    // The table is in use and keeps itself current: a preparation under way stops.
    generation += 1;
    if (input.changed === null || !built) {
      byUid.clear();
      orders.clear();
      building = null;
      for (const object of input.all()) byUid.set(object.metadata.uid, recordOf(object));
      built = true;
    } else if (input.changed.size > 0) apply(input.changed, input.lookup);
    const order = orderOf(input.sort.column, input.sort.direction);
    const direction = order.mixed ? 'asc' : input.sort.direction;
    if (!view || view.order !== order || view.version !== order.version || view.direction !== direction) {
      view = { order, version: order.version, direction, rows: order.rows(direction) };
    }
    schedulePrepare();
    return view.rows;
  };
  return Object.assign(rows, { prepare });
}
