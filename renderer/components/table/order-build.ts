/**
 * A column's order built in small steps, for idle time: keying, sorting and copying 150,000 rows
 * is 80–130 ms of one task, and a click that lands while such a task runs waits for all of it.
 * Here each `step()` does a bounded piece (a chunk of keys, one run sorted, part of one merge,
 * a chunk copied), so the caller can stop after a few milliseconds and let a click in.
 *
 * The sort is a bottom-up merge sort of indices: runs of RUN keys sorted natively, then merged
 * pairwise, width doubling, each merge resumable at any element. Equal keys keep their input
 * (tie) order, as ColumnOrder.build's stable sorts do, so both give the same order.
 */
import { ColumnOrder, type RowRecord } from './column-order.ts';
import { kindOf, numberOrder, stringOrder, type Key } from './key-order.ts';

/** Rows keyed, merged or copied per step. */
const CHUNK = 4_096;
/** Keys per natively sorted run (key-order.ts's sorts, the ones a click's sort runs too). */
const RUN = 4_096;

/** Whether `y` sorts before `x` (numbers: unknown last). Equal keys keep their places. */
const numberBefore = (y: number, x: number): boolean => y === y && (x !== x || y < x);

export class OrderBuild<Row> {
  /** uids changed since the build started: the order merges them in once it is installed. */
  readonly pending = new Set<string>();
  private readonly n: number;
  private readonly keys: Key[];
  private strings = 0;
  private phase: 'key' | 'run' | 'merge' | 'copy' | 'done' | 'mixed' = 'key';
  /** Next index to key, next run to sort, or next index to copy. */
  private at = 0;
  private source: Int32Array;
  private target: Int32Array;
  /** The merge under way: runs [low, middle) and [middle, high) of `source` into `target`. */
  private width = RUN;
  private low = 0;
  private left = 0;
  private right = 0;
  private out = 0;
  private records: Array<RowRecord<Row>> = [];
  private sortedKeys: Key[] = [];

  private readonly inTieOrder: ReadonlyArray<RowRecord<Row>>;
  private readonly keyOf: (record: RowRecord<Row>) => Key;

  constructor(inTieOrder: ReadonlyArray<RowRecord<Row>>, keyOf: (record: RowRecord<Row>) => Key) {
    this.inTieOrder = inTieOrder;
    this.keyOf = keyOf;
    this.n = inTieOrder.length;
    this.keys = new Array(this.n);
    this.source = new Int32Array(this.n);
    this.target = new Int32Array(this.n);
  }

  /** True once the order is known, or once its keys turned out to mix strings and numbers (see `result`). */
  get done(): boolean {
    return this.phase === 'done' || this.phase === 'mixed';
  }

  /** Does one bounded piece of the work; true when there is none left. */
  step(): boolean {
    switch (this.phase) {
      case 'key':
        this.keyChunk();
        break;
      case 'run':
        this.sortRun();
        break;
      case 'merge':
        this.mergeChunk();
        break;
      case 'copy':
        this.copyChunk();
        break;
      default:
        break;
    }
    return this.done;
  }

  /**
   * The finished order, or null when the keys mix strings and numbers (no order to slice). Asked
   * for while still keying (a click on the column being prepared), it keys the rest and sorts
   * natively in one go; once runs are sorted, what is left (the rest of the runs, merges of
   * inline comparisons, the copy) costs less than a whole sort, so it goes on step by step.
   */
  result(): ColumnOrder<Row> | null {
    if (this.phase === 'key') this.sortAtOnce();
    while (!this.step());
    if (this.phase === 'mixed') return null;
    const order = new ColumnOrder(this.records, this.sortedKeys, this.strings === this.n ? 'string' : 'number', this.keyOf);
    for (const uid of this.pending) order.pending.add(uid);
    return order;
  }

  private sortAtOnce(): void {
    this.keyChunk(this.n);
    if (this.phase === 'mixed') return;
    const order = this.strings === this.n ? stringOrder(this.keys as string[]) : numberOrder(this.keys as number[]);
    this.source.set(order);
    this.phase = 'copy';
    this.at = 0;
  }

  private keyChunk(rows = CHUNK): void {
    const end = Math.min(this.at + rows, this.n);
    for (let i = this.at; i < end; i += 1) {
      const key = this.keyOf(this.inTieOrder[i] as RowRecord<Row>);
      if (typeof key === 'string') this.strings += 1;
      this.keys[i] = key;
    }
    this.at = end;
    if (end < this.n) return;
    const kind = kindOf(this.strings, this.n);
    if (kind === 'mixed') {
      this.phase = 'mixed';
      return;
    }
    this.phase = 'run';
    this.at = 0;
  }

  private sortRun(): void {
    const { at } = this;
    const end = Math.min(at + RUN, this.n);
    const keys = this.keys.slice(at, end);
    const order = this.strings === this.n ? stringOrder(keys as string[]) : numberOrder(keys as number[]);
    for (let i = 0; i < order.length; i += 1) this.source[at + i] = at + (order[i] as number);
    this.at = end;
    if (end < this.n) return;
    this.phase = RUN >= this.n ? 'copy' : 'merge';
    this.at = 0;
    this.startMerge(0);
  }

  private startMerge(low: number): void {
    this.low = low;
    this.left = low;
    this.right = Math.min(low + this.width, this.n);
    this.out = low;
  }

  /**
   * Merges the next CHUNK rows of two neighbouring runs. The left run's rows all come before the
   * right's in tie order, so on equal keys the left one goes first and the merge stays stable.
   */
  private mergeChunk(): void {
    const { source, target, n, keys } = this;
    const middle = Math.min(this.low + this.width, n);
    const high = Math.min(this.low + 2 * this.width, n);
    let { left, right, out } = this;
    const end = Math.min(out + CHUNK, high);
    if (this.strings === n) {
      while (out < end) {
        if (left < middle && (right >= high || !((keys[source[right] as number] as string) < (keys[source[left] as number] as string)))) target[out++] = source[left++] as number;
        else target[out++] = source[right++] as number;
      }
    } else {
      while (out < end) {
        if (left < middle && (right >= high || !numberBefore(keys[source[right] as number] as number, keys[source[left] as number] as number))) target[out++] = source[left++] as number;
        else target[out++] = source[right++] as number;
      }
    }
    this.left = left;
    this.right = right;
    this.out = out;
    if (out < high) return;
    if (high < n) {
      this.startMerge(high);
      return;
    }
    // A pass is done: what was merged is the next pass's input.
    this.source = target;
    this.target = source;
    this.width *= 2;
    if (this.width >= n) this.phase = 'copy';
    else this.startMerge(0);
  }

  private copyChunk(): void {
    if (this.at === 0) {
      this.records = new Array(this.n);
      this.sortedKeys = new Array(this.n);
    }
    const end = Math.min(this.at + CHUNK, this.n);
    for (let i = this.at; i < end; i += 1) {
      const index = this.source[i] as number;
      this.records[i] = this.inTieOrder[index] as RowRecord<Row>;
      this.sortedKeys[i] = this.keys[index] as Key;
    }
    this.at = end;
    if (end >= this.n) this.phase = 'done';
  }
}
