/**
 * The write side of "the cluster at time T": each flush's object changes become one compressed
 * batch, and every so often a keyframe (all objects at one moment) is written in chunks, so a
 * past state is a keyframe plus at most a keyframe interval of changes.
 *
 * Compression (compression.ts) runs on libuv's thread pool, large batches are stringified a
 * slice at a time, and a keyframe is written a chunk at a time between flushes: none of it
 * blocks the event loop that carries the live stream for longer than one slice.
 */
import type { DatabaseSync } from 'node:sqlite';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import { compress, compressBytes, compressSync, decompress } from './compression.ts';
import type { DeltaRecord } from './records.ts';

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
  const buffer = decompress(data);
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
export type DeltaHeader = [number, 'u' | 'd', KindKey, string];

/** A change's line: the object's JSON (made once, by the informer, when it could), or ''. */
const deltaLine = (d: DeltaRecord): string => (d.object ? (d.json ?? JSON.stringify(d.object)) : '');

/** Objects stringified between two yields to the event loop (a first sync lists 50,000 at once). */
const STRINGIFY_SLICE = 2_000;

/** A batch as stored: its text (headers line + one line per change) and its headers apart. */
export interface EncodedDeltas {
  data: Uint8Array;
  headers: Uint8Array;
}

const headersOf = (deltas: readonly DeltaRecord[]): string => JSON.stringify(deltas.map((d): DeltaHeader => [d.at, d.op, d.kind, d.uid]));

const NEWLINE = 10;

/**
 * `[first, ...lines].join('\n')` as UTF-8, written straight into one buffer. A flush's lines are
 * megabytes (2,500 pod changes at 5,000/s are ~4 MB): joining them made two strings of that size
 * on the engine's heap and copied them three times before compression saw a byte.
 */
function linesBytes(first: string, lines: readonly string[]): Buffer {
  let length = Buffer.byteLength(first, 'utf8');
  for (const line of lines) length += 1 + Buffer.byteLength(line, 'utf8');
  const out = Buffer.allocUnsafe(length);
  let at = out.write(first, 0, 'utf8');
  for (const line of lines) {
    out[at] = NEWLINE;
    at += 1 + out.write(line, at + 1, 'utf8');
  }
  return out;
}

export async function encodeDeltas(deltas: readonly DeltaRecord[]): Promise<EncodedDeltas> {
  const header = headersOf(deltas);
  const lines: string[] = [];
  for (let i = 0; i < deltas.length; i += 1) {
    if (i > 0 && i % STRINGIFY_SLICE === 0) await yieldToLoop();
    lines.push(deltaLine(deltas[i] as DeltaRecord));
  }
  const [data, headers] = await Promise.all([compressBytes(linesBytes(header, lines)), compress(header)]);
  return { data, headers };
}

/** The same, on the calling thread (closing a session cannot wait for the thread pool). */
export function encodeDeltasSync(deltas: readonly DeltaRecord[]): EncodedDeltas {
  const header = headersOf(deltas);
  return { data: compressSync([header, ...deltas.map(deltaLine)].join('\n')), headers: compressSync(header) };
}

/** A batch's headers alone. */
export function decodeHeaders(headers: Uint8Array): DeltaHeader[] {
  return JSON.parse(decompress(headers).toString('utf8')) as DeltaHeader[];
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
      const data = await compress(linesText(slice.map((o) => o.metadata.uid), slice));
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
