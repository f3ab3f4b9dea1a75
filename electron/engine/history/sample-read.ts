/**
 * Reading a workload's samples back: the blocks overlapping a time range (plus the block before,
 * for the value in effect when the range starts), decoded into one set of columns; and the
 * sample in effect at one moment.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Sample } from '../../../shared/contracts/history.ts';
import { allocateColumns, decodeInto, isEmpty, sampleAt, type SampleColumns } from './sample-codec.ts';

interface BlockRow {
  start_at: number;
  count: number;
  data: Uint8Array;
}

export interface SampleReader {
  /** Every sample of the blocks overlapping [from, to], and of the block before them. */
  range(workloadId: number, from: number, to: number): SampleColumns;
  /** The sample in effect at `at` (the last at or before it), or null (none, or deleted by then). */
  at(workloadId: number, at: number): Sample | null;
}

function decodeAll(rows: readonly BlockRow[]): SampleColumns {
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  const columns = allocateColumns(total);
  let offset = 0;
  for (const row of rows) {
    offset += decodeInto(row.start_at, row.data, columns, offset);
  }
  return columns;
}

/** The first index whose time fails `before` (times ascending, so `before` holds for a prefix). */
function partition(times: Float64Array, length: number, before: (time: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(times[mid] as number)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first sample after `at`. */
export const upperBound = (times: Float64Array, at: number, length = times.length): number => partition(times, length, (time) => time <= at);

/** Index of the first sample at or after `at`. */
export const lowerBound = (times: Float64Array, at: number, length = times.length): number => partition(times, length, (time) => time < at);

export function createSampleReader(db: DatabaseSync): SampleReader {
  const overlapping = db.prepare('SELECT start_at, count, data FROM sample_blocks WHERE workload_id = ? AND end_at >= ? AND start_at <= ? ORDER BY end_at, id');
  const before = db.prepare('SELECT start_at, count, data FROM sample_blocks WHERE workload_id = ? AND end_at < ? ORDER BY end_at DESC, id DESC LIMIT 1');
  const containing = db.prepare('SELECT start_at, count, data FROM sample_blocks WHERE workload_id = ? AND end_at >= ? ORDER BY end_at, id LIMIT 1');

  return {
    range(workloadId, from, to) {
      const rows = overlapping.all(workloadId, from, to) as unknown as BlockRow[];
      if (rows.length === 0 || (rows[0] as BlockRow).start_at >= from) {
        const previous = before.get(workloadId, from) as BlockRow | undefined;
        if (previous) rows.unshift(previous);
      }
      return decodeAll(rows);
    },
    at(workloadId, at) {
      const rows: BlockRow[] = [];
      const next = containing.get(workloadId, at) as BlockRow | undefined;
      if (next && next.start_at <= at) rows.push(next);
      else {
        const previous = before.get(workloadId, at) as BlockRow | undefined;
        if (previous) rows.push(previous);
      }
      const columns = decodeAll(rows);
      const index = upperBound(columns.at, at, columns.length) - 1;
      if (index < 0) return null;
      const sample = sampleAt(columns, index);
      return isEmpty(sample) ? null : sample;
    },
  };
}
