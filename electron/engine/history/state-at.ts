/**
 * The read side of "the cluster at time T": the last complete keyframe at or before T, then every
 * recorded change after it up to T, in two passes:
 *
 * 1. the batches' headers alone ([at, op, kind, uid] per change) say which change is the newest
 *    of each object by T;
 * 2. only those changes' lines (and the keyframe's lines of objects that did not change) are
 *    decoded, one batch at a time, and parsed once at the end.
 *
 * So a rebuild parses each object once however often it changed, and holds one decompressed
 * batch at a time rather than all of them. The last rebuilt state is kept: paging through it
 * costs nothing, and scrubbing forward from it only reads the changes in between. The work
 * yields to the event loop every few milliseconds, so a long rebuild never stalls the stream.
 */
import type { DatabaseSync } from 'node:sqlite';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { builtinRef } from '../../../shared/builtin-kinds.ts';
import { WATCHED_KINDS, type SlimObject } from '../../../shared/cluster.ts';
import { decodeChunk, decodeDeltas, decodeHeaders, lineText, type DeltaHeader } from './state-log.ts';

/** Work between two yields to the event loop. */
const SLICE_MS = 8;
/** The rebuilt state is dropped after this long without a request (it can be large). */
export const STATE_CACHE_IDLE_MS = 120_000;

interface Position {
  /** The batch holding the first change not applied yet, and that change's index in it. */
  batch: number;
  index: number;
}

interface Rebuilt {
  at: number;
  keyframe: number;
  /** uid -> the object's JSON (parsed only for the answer). */
  texts: Map<string, string>;
  next: Position;
  sorted: SlimObject[] | undefined;
}

export interface StateReader {
  /** All objects (Events excepted) at `at`, sorted by kind, namespace and name. */
  objectsAt(at: number): Promise<SlimObject[]>;
  /** Forgets the cached state (context switch, retention). */
  clear(): void;
}

/** Objects of the watched kinds in their order, by the kind name each object carries. */
const KIND_ORDER = new Map<string, number>(WATCHED_KINDS.map((key, i) => [builtinRef(key).kind, i]));

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

/** Yields to the event loop when the current slice of work has run long enough. */
function slicer(): () => Promise<void> {
  let start = performance.now();
  return async () => {
    if (performance.now() - start < SLICE_MS) return;
    await yieldToLoop();
    start = performance.now();
  };
}

async function parseAll(texts: Iterable<string>): Promise<SlimObject[]> {
  const out: SlimObject[] = [];
  const pause = slicer();
  for (const text of texts) {
    out.push(JSON.parse(text) as SlimObject);
    await pause();
  }
  return out;
}

/**
 * A time before anything of the cluster was recorded: a context's state log starts with the
 * keyframe taken once its first lists are in (Recorder.startStateLog). `first` is that
 * keyframe's time, null while it is not written yet.
 */
export class BeforeStateLogError extends Error {
  readonly first: number | null;

  constructor(first: number | null) {
    super(first === null ? 'no state of this cluster is recorded yet' : `the first recorded state of this cluster is from ${new Date(first).toISOString()}`);
    this.first = first;
  }
}

export function createStateReader(db: DatabaseSync, options: { idleMs?: number } = {}): StateReader {
  const keyframeAt = db.prepare('SELECT id, after_batch FROM keyframes WHERE complete = 1 AND at <= ? ORDER BY at DESC, id DESC LIMIT 1');
  const firstKeyframe = db.prepare('SELECT min(at) AS at FROM keyframes WHERE complete = 1');
  const changeBefore = db.prepare('SELECT 1 AS found FROM delta_batches WHERE first_at <= ? LIMIT 1');
  // Lists first, then each row: no statement stays open across an await, while flushes and
  // retention write to the same connection.
  const chunkList = db.prepare('SELECT chunk FROM keyframe_chunks WHERE keyframe_id = ? ORDER BY chunk');
  const chunkData = db.prepare('SELECT data FROM keyframe_chunks WHERE keyframe_id = ? AND chunk = ?');
  const batchList = db.prepare('SELECT id FROM delta_batches WHERE id >= ? AND first_at <= ? ORDER BY id');
  const batchHeaders = db.prepare('SELECT headers FROM delta_batches WHERE id = ?');
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

  function headersOf(id: number): DeltaHeader[] {
    const row = batchHeaders.get(id) as { headers: Uint8Array | null } | undefined;
    if (!row) return [];
    if (row.headers) return decodeHeaders(row.headers);
    // A batch from before schema v2 keeps its headers only inside its text.
    const data = batchData.get(id) as { data: Uint8Array } | undefined;
    return data ? decodeDeltas(data.data).headers : [];
  }

  /** Pass 1: the newest change of each object from `from` up to `at` (null: deleted), and where to go on. */
  async function newestChanges(from: Position, at: number): Promise<{ newest: Map<string, { batch: number; index: number } | null>; next: Position }> {
    const newest = new Map<string, { batch: number; index: number } | null>();
    const pause = slicer();
    let next = from;
    for (const { id } of batchList.all(from.batch, at) as Array<{ id: number }>) {
      const headers = headersOf(id);
      for (let index = id === from.batch ? from.index : 0; index < headers.length; index += 1) {
        const [changedAt, op, , uid] = headers[index] as DeltaHeader;
        if (changedAt > at) return { newest, next: { batch: id, index } };
        newest.set(uid, op === 'u' ? { batch: id, index } : null);
      }
      // Batches are in time order: the next one not read (it starts after `at`) follows this.
      next = { batch: id + 1, index: 0 };
      await pause();
    }
    return { newest, next };
  }

  /** Pass 2: the texts of the newest changes, one batch at a time. */
  async function readChanges(newest: Map<string, { batch: number; index: number } | null>, texts: Map<string, string>): Promise<void> {
    const byBatch = new Map<number, Array<[string, number]>>();
    for (const [uid, change] of newest) {
      if (!change) {
        texts.delete(uid);
        continue;
      }
      const list = byBatch.get(change.batch);
      if (list) list.push([uid, change.index]);
      else byBatch.set(change.batch, [[uid, change.index]]);
    }
    const pause = slicer();
    for (const [batch, wanted] of byBatch) {
      const row = batchData.get(batch) as { data: Uint8Array } | undefined;
      if (!row) continue;
      const { lines } = decodeDeltas(row.data);
      for (const [uid, index] of wanted) texts.set(uid, lineText(lines, index));
      await pause();
    }
  }

  /** The keyframe's objects, except those a newer change replaces. */
  async function readKeyframe(id: number, newest: Map<string, unknown>, texts: Map<string, string>): Promise<void> {
    for (const { chunk } of chunkList.all(id) as Array<{ chunk: number }>) {
      const row = chunkData.get(id, chunk) as { data: Uint8Array } | undefined;
      if (!row) continue;
      const { uids, lines } = decodeChunk(row.data);
      uids.forEach((uid, index) => newest.has(uid) || texts.set(uid, lineText(lines, index)));
      await yieldToLoop();
    }
  }

  async function rebuild(at: number): Promise<Rebuilt> {
    if (cached && cached.at === at) return cached;
    const keyframe = keyframeAt.get(at) as { id: number; after_batch: number } | undefined;
    if (!keyframe && !changeBefore.get(at)) throw new BeforeStateLogError((firstKeyframe.get() as { at: number | null }).at);
    const keyframeId = keyframe?.id ?? 0;
    // Scrubbing forward within one keyframe's span continues from the cached state.
    const base = cached && cached.at < at && cached.keyframe === keyframeId ? cached : undefined;
    cached = undefined;
    const from = base ? base.next : { batch: (keyframe?.after_batch ?? 0) + 1, index: 0 };
    const { newest, next } = await newestChanges(from, at);
    const texts = base ? base.texts : new Map<string, string>();
    if (!base && keyframe) await readKeyframe(keyframe.id, newest, texts);
    await readChanges(newest, texts);
    const state: Rebuilt = { at, keyframe: keyframeId, texts, next, sorted: undefined };
    cached = state;
    return state;
  }

  return {
    objectsAt(at) {
      const result = running.then(async () => {
        const state = await rebuild(at);
        touch();
        state.sorted ??= (await parseAll(state.texts.values())).sort(compareObjects);
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
