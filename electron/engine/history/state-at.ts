/**
 * The read side of "the cluster at time T": the last complete keyframe at or before T, then every
 * recorded change after it up to T. The last rebuilt state is kept, so paging through it costs
 * nothing and scrubbing forward from it only replays the changes in between. Decompression is
 * synchronous but the replay yields to the event loop every few milliseconds, so a long rebuild
 * never stalls the live stream.
 */
import type { DatabaseSync } from 'node:sqlite';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { WATCHED_KINDS, type SlimObject } from '../../../shared/cluster.ts';
import { decodeChunk, decodeDeltas, lineText, type DeltaHeader, type Lines } from './state-log.ts';

/** Replay work between two yields to the event loop. */
const SLICE_MS = 8;
/** The rebuilt state is dropped after this long without a request (it can be large). */
export const STATE_CACHE_IDLE_MS = 120_000;

interface Position {
  /** The batch holding the first change not applied yet, and that change's index in it. */
  batch: number;
  index: number;
}

interface ObjectLine {
  lines: Lines;
  index: number;
}

interface Rebuilt {
  at: number;
  keyframe: number;
  /** uid -> where the object's JSON is (decoded and parsed only for the answer). */
  objects: Map<string, ObjectLine>;
  next: Position;
  sorted: SlimObject[] | undefined;
}

/** Parses the objects a slice at a time, yielding between slices. */
async function parseAll(entries: Iterable<ObjectLine>): Promise<SlimObject[]> {
  const out: SlimObject[] = [];
  let sliceStart = performance.now();
  for (const { lines, index } of entries) {
    out.push(JSON.parse(lineText(lines, index)) as SlimObject);
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  return out;
}

export interface StateReader {
  /** All objects (Events excepted) at `at`, sorted by kind, namespace and name. */
  objectsAt(at: number): Promise<SlimObject[]>;
  /** Forgets the cached state (context switch, retention). */
  clear(): void;
}

const KIND_ORDER = new Map<string, number>(WATCHED_KINDS.map((kind, i) => [kind, i]));

/** Code-unit order (localeCompare is ~50x slower and the order only needs to be stable for paging). */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareObjects(a: SlimObject, b: SlimObject): number {
  return (
    (KIND_ORDER.get(a.kind) ?? 99) - (KIND_ORDER.get(b.kind) ?? 99) ||
    compareText(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
    compareText(a.metadata.name, b.metadata.name) ||
    compareText(a.metadata.uid, b.metadata.uid)
  );
}

export function createStateReader(db: DatabaseSync, options: { idleMs?: number } = {}): StateReader {
  const keyframeAt = db.prepare('SELECT id, after_batch FROM keyframes WHERE complete = 1 AND at <= ? ORDER BY at DESC, id DESC LIMIT 1');
  // Ids first, then each row's data: no statement stays open across an await, while flushes
  // and retention write to the same connection.
  const chunkList = db.prepare('SELECT chunk FROM keyframe_chunks WHERE keyframe_id = ? ORDER BY chunk');
  const chunkData = db.prepare('SELECT data FROM keyframe_chunks WHERE keyframe_id = ? AND chunk = ?');
  const batchList = db.prepare('SELECT id FROM delta_batches WHERE id >= ? AND first_at <= ? ORDER BY id');
  const batchData = db.prepare('SELECT data FROM delta_batches WHERE id = ?');
  let cached: Rebuilt | undefined;
  let idle: NodeJS.Timeout | undefined;
  /** One rebuild at a time: they share (and advance) the cached state. */
  let running: Promise<unknown> = Promise.resolve();

  function touch(): void {
    clearTimeout(idle);
    idle = setTimeout(() => (cached = undefined), options.idleMs ?? STATE_CACHE_IDLE_MS);
    idle.unref();
  }

  async function replay(state: Rebuilt, at: number): Promise<void> {
    let sliceStart = performance.now();
    for (const { id } of batchList.all(state.next.batch, at) as Array<{ id: number }>) {
      const row = batchData.get(id) as { data: Uint8Array } | undefined;
      if (!row) continue;
      const { headers, lines } = decodeDeltas(row.data);
      let index = id === state.next.batch ? state.next.index : 0;
      for (; index < headers.length; index += 1) {
        const [deltaAt, op, , uid] = headers[index] as DeltaHeader;
        if (deltaAt > at) {
          state.next = { batch: id, index };
          return;
        }
        if (op === 'u' && (lines.ends[index] ?? 0) > (lines.starts[index] ?? 0)) state.objects.set(uid, { lines, index });
        else state.objects.delete(uid);
      }
      state.next = { batch: id + 1, index: 0 };
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
  }

  async function fromKeyframe(at: number): Promise<Rebuilt> {
    const keyframe = keyframeAt.get(at) as { id: number; after_batch: number } | undefined;
    const objects = new Map<string, ObjectLine>();
    if (keyframe) {
      for (const { chunk } of chunkList.all(keyframe.id) as Array<{ chunk: number }>) {
        const row = chunkData.get(keyframe.id, chunk) as { data: Uint8Array } | undefined;
        if (!row) continue;
        const { uids, lines } = decodeChunk(row.data);
        uids.forEach((uid, index) => objects.set(uid, { lines, index }));
        await yieldToLoop();
      }
    }
    return { at, keyframe: keyframe?.id ?? 0, objects, next: { batch: (keyframe?.after_batch ?? 0) + 1, index: 0 }, sorted: undefined };
  }

  async function rebuild(at: number): Promise<Rebuilt> {
    if (cached && cached.at === at) return cached;
    const keyframe = (keyframeAt.get(at) as { id: number } | undefined)?.id ?? 0;
    // Scrubbing forward within one keyframe's span continues from the cached state.
    const state = cached && cached.at < at && cached.keyframe === keyframe ? cached : await fromKeyframe(at);
    cached = undefined;
    await replay(state, at);
    state.at = at;
    state.sorted = undefined;
    cached = state;
    return state;
  }

  return {
    objectsAt(at) {
      const result = running.then(async () => {
        const state = await rebuild(at);
        touch();
        state.sorted ??= (await parseAll(state.objects.values())).sort(compareObjects);
        return state.sorted;
      });
      running = result.catch(() => undefined);
      return result;
    },
    clear() {
      cached = undefined;
      clearTimeout(idle);
    },
  };
}
