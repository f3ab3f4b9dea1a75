/**
 * Builds `cluster:frames` frames whose JSON stays within a byte budget. Sizes are exact, not
 * estimated: each item is measured with `JSON.stringify` and the frame's own skeleton (type,
 * epoch, seq, counters, brackets, commas) is measured too, so the packed frame's
 * `Buffer.byteLength(JSON.stringify(frame))` equals the `bytes` reported.
 *
 * An object whose JSON alone exceeds the budget cannot be split without losing data, so it
 * travels alone in its own frame (reported as `oversize`). Both transports carry such a frame
 * unchanged; it is the only way a frame can exceed the budget, and the stream counts it.
 */
import type { ClusterFrame, SlimObject } from '../../../shared/cluster.ts';
import { refOf, type PendingChanges } from './pending.ts';

/**
 * Bytes kept free under the frame limit for the transport's own wrapping (the WebSocket
 * envelope `{"t":"evt","stream":"cluster:frames","payload":…}` is 48 bytes), so a whole
 * transport message stays within MAX_FRAME_BYTES.
 */
export const FRAME_ENVELOPE_BYTES = 256;

type DeltaFrame = Extract<ClusterFrame, { type: 'delta' }>;
type ChunkFrame = Extract<ClusterFrame, { type: 'snapshot-chunk' }>;

/** A packed frame with its exact JSON size in bytes. */
export interface Packed<F extends ClusterFrame> {
  frame: F;
  bytes: number;
  /** True when one object alone exceeded the budget. */
  oversize: boolean;
}

/** Exact UTF-8 byte length of a value's JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** Running size of a frame under construction: skeleton plus items plus the commas between them. */
class FrameSize {
  bytes: number;
  private items = 0;
  private readonly budget: number;
  private readonly perArray = new Map<string, number>();

  constructor(skeletonBytes: number, budget: number) {
    this.bytes = skeletonBytes;
    this.budget = budget;
  }

  /** Whether an item fits; the first item always does, so a frame is never empty. */
  fits(array: string, itemBytes: number): boolean {
    return this.items === 0 || this.bytes + itemBytes + this.comma(array) <= this.budget;
  }

  add(array: string, itemBytes: number): void {
    this.bytes += itemBytes + this.comma(array);
    this.perArray.set(array, (this.perArray.get(array) ?? 0) + 1);
    this.items += 1;
  }

  private comma(array: string): number {
    return (this.perArray.get(array) ?? 0) > 0 ? 1 : 0;
  }
}

/**
 * Takes the oldest pending changes that fit into one delta frame and removes them from `pending`.
 * Call only with something pending.
 */
export function packDelta(pending: PendingChanges, header: { epoch: string; seq: number }, budget: number): Packed<DeltaFrame> {
  const frame: DeltaFrame = { type: 'delta', epoch: header.epoch, seq: header.seq, upserts: [], deletes: [] };
  const size = new FrameSize(jsonBytes(frame), budget);
  for (const entry of pending.entries()) {
    if (entry.object) {
      const bytes = jsonBytes(entry.object);
      if (!size.fits('upserts', bytes)) break;
      size.add('upserts', bytes);
      frame.upserts.push(entry.object);
    } else {
      const ref = refOf(entry);
      const bytes = jsonBytes(ref);
      if (!size.fits('deletes', bytes)) break;
      size.add('deletes', bytes);
      frame.deletes.push(ref);
    }
    pending.take(entry.uid);
  }
  return { frame, bytes: size.bytes, oversize: size.bytes > budget };
}

/**
 * Packs the snapshot objects from index `from` that fit into one chunk; `next` is the index of
 * the first object left for the following chunk.
 */
export function packChunk(
  objects: readonly SlimObject[],
  from: number,
  header: { epoch: string; seq: number; total: number },
  budget: number,
): Packed<ChunkFrame> & { next: number } {
  const frame: ChunkFrame = { type: 'snapshot-chunk', epoch: header.epoch, seq: header.seq, objects: [], sent: header.total, total: header.total };
  // Measured with sent = total, the widest `sent` can be; corrected to the real digits below.
  const size = new FrameSize(jsonBytes(frame), budget);
  let next = from;
  for (; next < objects.length; next += 1) {
    const object = objects[next] as SlimObject;
    const bytes = jsonBytes(object);
    if (!size.fits('objects', bytes)) break;
    size.add('objects', bytes);
    frame.objects.push(object);
  }
  frame.sent = next;
  const bytes = size.bytes - String(header.total).length + String(next).length;
  return { frame, bytes, oversize: bytes > budget, next };
}
