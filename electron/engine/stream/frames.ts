/**
 * Builds `cluster:frames` frames whose JSON stays within a byte budget. Sizes are exact, not
 * estimated: each item is measured with `JSON.stringify` and the frame's own skeleton (type,
 * epoch, seq, counters, brackets, commas) is measured too, so the packed frame's
 * `Buffer.byteLength(JSON.stringify(frame))` equals the `bytes` reported.
 *
 * Objects travel in the renderer's form (view.ts), each with its kind key at the same index of
 * the frame's `kinds` (a reference to the kind's one key string, never built per object). The items' JSON, made to measure them (or
 * made by the list worker that decoded the object, see CacheChange), is also the frame's text:
 * `frameText` hands it to a transport that sends text (the WebSocket), so 50,000 objects are
 * serialised once, not twice.
 *
 * An object whose JSON alone exceeds the budget cannot be split without losing data, so it
 * travels alone in its own frame (reported as `oversize`). Both transports carry such a frame
 * unchanged; it is the only way a frame can exceed the budget, and the stream counts it.
 */
import type { ClusterFrame, KindKey, SlimObject } from '../../../shared/cluster.ts';
import { refOf, type PendingChanges } from './pending.ts';
import { hasView, viewObject } from './view.ts';

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

/** The text of the frames packed here; weak, so a frame's text goes with the frame. */
const texts = new WeakMap<ClusterFrame, string>();

/** `JSON.stringify(frame)`: the text made while packing it, or a fresh serialisation. */
export function frameText(frame: ClusterFrame): string {
  return texts.get(frame) ?? JSON.stringify(frame);
}

/** One item's JSON and its UTF-8 size. */
interface ItemJson {
  text: string;
  bytes: number;
}

function itemJson(value: unknown, known?: string): ItemJson {
  const text = known ?? JSON.stringify(value);
  return { text, bytes: Buffer.byteLength(text) };
}

/** Kind keys' JSON, made once per key per frame rather than once per object. */
class KeyJson {
  private readonly known = new Map<KindKey, ItemJson>();

  of(kind: KindKey): ItemJson {
    let item = this.known.get(kind);
    if (!item) {
      item = itemJson(kind);
      this.known.set(kind, item);
    }
    return item;
  }
}

/**
 * Running size of a frame under construction: skeleton plus items plus the commas between them.
 * Keeps each array's item texts for `textOf`.
 */
class FrameSize {
  bytes: number;
  private items = 0;
  private readonly budget: number;
  private readonly perArray = new Map<string, string[]>();

  constructor(skeletonBytes: number, budget: number) {
    this.bytes = skeletonBytes;
    this.budget = budget;
  }

  /** Whether an item fits; the first item always does, so a frame is never empty. */
  fits(array: string, item: ItemJson): boolean {
    return this.items === 0 || this.bytes + item.bytes + this.comma(array) <= this.budget;
  }

  /** Whether an object and its kind key (two arrays, one item each) fit. */
  fitsPair(array: string, item: ItemJson, kindArray: string, kind: ItemJson): boolean {
    return this.items === 0 || this.bytes + item.bytes + this.comma(array) + kind.bytes + this.comma(kindArray) <= this.budget;
  }

  add(array: string, item: ItemJson): void {
    this.bytes += item.bytes + this.comma(array);
    const list = this.perArray.get(array);
    if (list) list.push(item.text);
    else this.perArray.set(array, [item.text]);
    this.items += 1;
  }

  /**
   * Registers `frame`'s text: its skeleton (serialised with every array empty) with the item
   * texts put between the brackets. A key in quotes cannot occur inside a JSON string value,
   * whose quotes are escaped, so the first `"name":[]` is the array's.
   */
  textOf<F extends ClusterFrame>(frame: F, empty: Partial<F>): void {
    const skeleton = JSON.stringify({ ...frame, ...empty });
    // Every position is found in the skeleton before anything is put in.
    const inserts = [...this.perArray].map(([array, items]) => {
      const marker = `${JSON.stringify(array)}:[`;
      return { at: skeleton.indexOf(`${marker}]`) + marker.length, text: items.join(',') };
    });
    inserts.sort((a, b) => a.at - b.at);
    let text = '';
    let from = 0;
    for (const insert of inserts) {
      text += skeleton.slice(from, insert.at) + insert.text;
      from = insert.at;
    }
    texts.set(frame, text + skeleton.slice(from));
  }

  private comma(array: string): number {
    return this.perArray.has(array) ? 1 : 0;
  }
}

/**
 * Takes the oldest pending changes that fit into one delta frame and removes them from `pending`.
 * Call only with something pending.
 */
export function packDelta(pending: PendingChanges, header: { epoch: string; seq: number }, budget: number): Packed<DeltaFrame> {
  const frame: DeltaFrame = { type: 'delta', epoch: header.epoch, seq: header.seq, upserts: [], kinds: [], deletes: [] };
  const size = new FrameSize(jsonBytes(frame), budget);
  const keys = new KeyJson();
  /** Per upsert, its view object, or undefined while it is only its writer's view JSON (`texts[i]`). */
  const views: (SlimObject | undefined)[] = [];
  const texts: string[] = [];
  let deferred = false;
  for (const entry of pending.entries()) {
    if (entry.object) {
      // A list page's view JSON (made in the list worker) is the frame's text already: the view
      // object is made only if someone reads the frame's objects (deferViews).
      const defer = entry.json !== undefined && hasView(entry.kind);
      const view = defer ? undefined : viewObject(entry.object, entry.kind);
      const item = itemJson(view, entry.json);
      const key = keys.of(entry.kind);
      if (!size.fitsPair('upserts', item, 'kinds', key)) break;
      size.add('upserts', item);
      size.add('kinds', key);
      views.push(view);
      texts.push(item.text);
      deferred ||= defer;
      frame.kinds.push(entry.kind);
    } else {
      const ref = refOf(entry);
      const item = itemJson(ref);
      if (!size.fits('deletes', item)) break;
      size.add('deletes', item);
      frame.deletes.push(ref);
    }
    pending.take(entry.uid);
  }
  size.textOf(frame, { upserts: [], kinds: [], deletes: [] });
  if (deferred) deferViews(frame, views, texts);
  else frame.upserts = views as SlimObject[];
  return { frame, bytes: size.bytes, oversize: size.bytes > budget };
}

/**
 * Makes `frame.upserts` on first read: each deferred view parsed from its JSON. A transport that
 * sends the frame's text (the WebSocket) never reads them, so a 50,000-pod sync makes no pod
 * views on the engine thread a second time; one that sends objects (Electron's IPC clone, which
 * reads the property like JSON.stringify does) gets objects equal to the views. The property
 * keeps its place among the frame's keys, so the frame's JSON is unchanged.
 */
function deferViews(frame: DeltaFrame, views: readonly (SlimObject | undefined)[], texts: readonly string[]): void {
  const settle = (upserts: SlimObject[]): void => {
    Object.defineProperty(frame, 'upserts', { value: upserts, enumerable: true, configurable: true, writable: true });
  };
  Object.defineProperty(frame, 'upserts', {
    enumerable: true,
    configurable: true,
    get(): SlimObject[] {
      const upserts = views.map((view, i) => view ?? (JSON.parse(texts[i] as string) as SlimObject));
      settle(upserts);
      return upserts;
    },
    set: settle,
  });
}

/**
 * Packs the snapshot objects from index `from` that fit into one chunk; `next` is the index of
 * the first object left for the following chunk.
 */
export function packChunk(
  objects: readonly SlimObject[],
  kinds: readonly KindKey[],
  from: number,
  header: { epoch: string; seq: number; total: number },
  budget: number,
): Packed<ChunkFrame> & { next: number } {
  const frame: ChunkFrame = { type: 'snapshot-chunk', epoch: header.epoch, seq: header.seq, objects: [], kinds: [], sent: header.total, total: header.total };
  // Measured with sent = total, the widest `sent` can be; corrected to the real digits below.
  const size = new FrameSize(jsonBytes(frame), budget);
  const keys = new KeyJson();
  let next = from;
  for (; next < objects.length; next += 1) {
    const kind = kinds[next] as KindKey;
    const view = viewObject(objects[next] as SlimObject, kind);
    const item = itemJson(view);
    const key = keys.of(kind);
    if (!size.fitsPair('objects', item, 'kinds', key)) break;
    size.add('objects', item);
    size.add('kinds', key);
    frame.objects.push(view);
    frame.kinds.push(kind);
  }
  frame.sent = next;
  size.textOf(frame, { objects: [], kinds: [] });
  const bytes = size.bytes - String(header.total).length + String(next).length;
  return { frame, bytes, oversize: bytes > budget, next };
}
