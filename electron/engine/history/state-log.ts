/**
 * The write side of "the cluster at time T": each flush's object changes become one compressed
 * batch, and every so often a keyframe (all objects at one moment) is written in chunks, so a
 * past state is a keyframe plus at most a keyframe interval of changes.
 *
 * Compression runs on libuv's thread pool (zlib's async API) and a keyframe is written a chunk
 * at a time between flushes: neither blocks the event loop that carries the live stream for
 * longer than one JSON.stringify of a chunk.
 */
import type { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { deflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Kind, SlimObject } from '../../../shared/cluster.ts';
import type { DeltaRecord } from './records.ts';

const deflate = promisify(deflateRaw);
/** Fast compression: object JSON still shrinks 5-10x, at a fraction of level 6's CPU. */
const COMPRESSION = { level: 1 };

/** Objects per keyframe chunk: ~1-2 MB of JSON, one stringify of ~10-20 ms. */
export const KEYFRAME_CHUNK_OBJECTS = 2_000;

/** A change as stored: [at, op, kind, uid, object or null]. */
export type StoredDelta = [number, 'u' | 'd', Kind, string, SlimObject | null];

const deltasJson = (deltas: readonly DeltaRecord[]): string => JSON.stringify(deltas.map((d): StoredDelta => [d.at, d.op, d.kind, d.uid, d.object]));

export async function encodeDeltas(deltas: readonly DeltaRecord[]): Promise<Uint8Array> {
  return new Uint8Array(await deflate(deltasJson(deltas), COMPRESSION));
}

/** The same, on the calling thread (closing a session cannot wait for the thread pool). */
export function encodeDeltasSync(deltas: readonly DeltaRecord[]): Uint8Array {
  return new Uint8Array(deflateRawSync(deltasJson(deltas), COMPRESSION));
}

export function decodeDeltas(data: Uint8Array): StoredDelta[] {
  return JSON.parse(inflateRawSync(data).toString('utf8')) as StoredDelta[];
}

export function decodeChunk(data: Uint8Array): SlimObject[] {
  return JSON.parse(inflateRawSync(data).toString('utf8')) as SlimObject[];
}

export interface KeyframeJob {
  /** Resolves once every chunk is written and the keyframe marked complete; rejects on a write error. */
  done: Promise<void>;
  /** Stops after the chunk in progress (the incomplete keyframe is ignored by readers and pruned). */
  cancel(): void;
}

/** Writes `objects` as the chunks of keyframe `id`, then marks it complete. */
export function writeKeyframe(db: DatabaseSync, id: number, objects: readonly SlimObject[], chunkObjects = KEYFRAME_CHUNK_OBJECTS): KeyframeJob {
  let cancelled = false;
  const insert = db.prepare('INSERT INTO keyframe_chunks (keyframe_id, chunk, data) VALUES (?, ?, ?)');
  const complete = db.prepare('UPDATE keyframes SET complete = 1 WHERE id = ?');
  const done = (async () => {
    for (let chunk = 0; chunk * chunkObjects < objects.length || chunk === 0; chunk += 1) {
      const slice = objects.slice(chunk * chunkObjects, (chunk + 1) * chunkObjects);
      const data = new Uint8Array(await deflate(JSON.stringify(slice), COMPRESSION));
      if (cancelled) return;
      insert.run(id, chunk, data);
    }
    if (!cancelled) complete.run(id);
  })();
  return {
    done,
    cancel: () => {
      cancelled = true;
    },
  };
}

/** Removes keyframes a crash or a full disk left half written. */
export function dropIncompleteKeyframes(db: DatabaseSync): void {
  db.exec('DELETE FROM keyframe_chunks WHERE keyframe_id IN (SELECT id FROM keyframes WHERE complete = 0); DELETE FROM keyframes WHERE complete = 0;');
}
