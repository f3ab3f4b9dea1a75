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

/**
 * Stored text: a JSON header line, then one line per entry with that entry's object as JSON
 * (empty for a deletion). JSON never holds a raw newline, so the lines split cleanly, and a
 * reader can keep the newest text per object and parse only those it returns: replaying twenty
 * thousand changes of ten thousand objects parses ten thousand objects, not thirty thousand.
 */
function linesText(header: unknown, objects: ReadonlyArray<SlimObject | null>): string {
  const lines = [JSON.stringify(header)];
  for (const object of objects) lines.push(object ? JSON.stringify(object) : '');
  return lines.join('\n');
}

/**
 * The inflated text of a batch or chunk, its header parsed and the byte ranges of its lines:
 * a line becomes a string only when someone asks for it (most changes are superseded by a later
 * one of the same object before the moment being rebuilt).
 */
export interface Lines {
  buffer: Buffer;
  /** Byte range of entry i's line is [starts[i], ends[i]); empty for a deletion. */
  starts: number[];
  ends: number[];
}

function splitLines(data: Uint8Array): { header: unknown; lines: Lines } {
  // Output chunks sized to the expected text (JSON compresses ~5-10x): a few large chunks
  // instead of thousands of 16 KB ones to allocate and concatenate.
  const buffer = inflateRawSync(data, { chunkSize: Math.min(4 << 20, Math.max(64 << 10, data.length * 8)) });
  const starts: number[] = [];
  const ends: number[] = [];
  let newline = buffer.indexOf(10);
  const header = JSON.parse(buffer.toString('utf8', 0, newline < 0 ? buffer.length : newline)) as unknown;
  while (newline >= 0) {
    const start = newline + 1;
    newline = buffer.indexOf(10, start);
    starts.push(start);
    ends.push(newline < 0 ? buffer.length : newline);
  }
  return { header, lines: { buffer, starts, ends } };
}

/** Entry i's JSON text, or '' for a deletion. */
export function lineText(lines: Lines, i: number): string {
  return lines.buffer.toString('utf8', lines.starts[i] ?? 0, lines.ends[i] ?? 0);
}

/** A change as stored: [at, op, kind, uid]; its object's JSON is the line of the same index. */
export type DeltaHeader = [number, 'u' | 'd', Kind, string];

const deltasText = (deltas: readonly DeltaRecord[]): string =>
  linesText(
    deltas.map((d): DeltaHeader => [d.at, d.op, d.kind, d.uid]),
    deltas.map((d) => d.object),
  );

export async function encodeDeltas(deltas: readonly DeltaRecord[]): Promise<Uint8Array> {
  return new Uint8Array(await deflate(deltasText(deltas), COMPRESSION));
}

/** The same, on the calling thread (closing a session cannot wait for the thread pool). */
export function encodeDeltasSync(deltas: readonly DeltaRecord[]): Uint8Array {
  return new Uint8Array(deflateRawSync(deltasText(deltas), COMPRESSION));
}

/** A batch's changes, and the lines holding their objects' JSON (not decoded). */
export function decodeDeltas(data: Uint8Array): { headers: DeltaHeader[]; lines: Lines } {
  const { header, lines } = splitLines(data);
  return { headers: header as DeltaHeader[], lines };
}

/** A keyframe chunk's uids, and the lines holding their objects' JSON (not decoded). */
export function decodeChunk(data: Uint8Array): { uids: string[]; lines: Lines } {
  const { header, lines } = splitLines(data);
  return { uids: header as string[], lines };
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
      const data = new Uint8Array(await deflate(linesText(slice.map((o) => o.metadata.uid), slice), COMPRESSION));
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
