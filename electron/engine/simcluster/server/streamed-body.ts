/**
 * Large list bodies written as they are serialised (chunked transfer, as kube-apiserver sends
 * any body past a few kilobytes), instead of one string and one buffer of the whole list: a
 * 50,000-pod list is ~200 MB of JSON, and the client reads the first items while the server
 * serialises the rest.
 */
import type { ServerResponse } from 'node:http';

/** Items serialised per chunk: ~1 MB of pods. */
export const ITEMS_PER_CHUNK = 250;

/** A response body produced piece by piece; the pieces concatenated are the whole body. */
export class StreamedBody {
  readonly chunks: Iterable<string | Buffer>;

  constructor(chunks: Iterable<string | Buffer>) {
    this.chunks = chunks;
  }
}

function* listChunks(head: string, items: readonly unknown[], stringify: (item: unknown) => string | undefined, tail: string): Generator<string> {
  yield head;
  for (let from = 0; from < items.length; from += ITEMS_PER_CHUNK) {
    const text = items.slice(from, from + ITEMS_PER_CHUNK).map((item) => stringify(item) ?? 'null').join(',');
    yield from === 0 ? text : `,${text}`;
  }
  yield tail;
}

/**
 * `JSON.stringify(list)`, streamed when `list[key]` (the list's last member: `items`, or a
 * Table's `rows`) is long; each element goes through `stringify` (the store's serialisation),
 * short lists too.
 */
export function jsonListBody(list: Record<string, unknown>, key: string, stringify: (item: unknown) => string | undefined = JSON.stringify): string | StreamedBody {
  const items = list[key];
  const keys = Object.keys(list);
  if (!Array.isArray(items) || keys[keys.length - 1] !== key) return JSON.stringify(list);
  // The list with an empty array ends in `[]}`: the items go between the brackets.
  const empty = JSON.stringify({ ...list, [key]: [] });
  const head = empty.slice(0, -2);
  if (items.length <= ITEMS_PER_CHUNK) return [...listChunks(head, items, stringify, ']}')].join('');
  return new StreamedBody({ [Symbol.iterator]: () => listChunks(head, items, stringify, ']}') });
}

const COMMA = Buffer.from(',');

/** The items' bytes from `from`, comma-separated (a leading comma unless first), as one buffer. */
function itemBytes(items: readonly unknown[], from: number, bytes: (item: unknown) => Buffer): Buffer {
  const parts: Buffer[] = [];
  const end = Math.min(items.length, from + ITEMS_PER_CHUNK);
  for (let i = from; i < end; i += 1) {
    if (i > 0) parts.push(COMMA);
    parts.push(bytes(items[i]));
  }
  return Buffer.concat(parts);
}

function* listByteChunks(head: Buffer, items: readonly unknown[], bytes: (item: unknown) => Buffer, tail: Buffer): Generator<Buffer> {
  yield head;
  for (let from = 0; from < items.length; from += ITEMS_PER_CHUNK) yield itemBytes(items, from, bytes);
  yield tail;
}

/**
 * `jsonListBody` for JSON lists whose items' UTF-8 bytes the store keeps (json-texts.ts): each
 * item's bytes are copied once into the body, never joined as text and encoded again. One
 * buffer for a short list, else streamed a chunk of ITEMS_PER_CHUNK items at a time.
 */
export function jsonListBytes(list: Record<string, unknown>, key: string, bytes: (item: unknown) => Buffer): Buffer | StreamedBody {
  const items = list[key];
  const keys = Object.keys(list);
  if (!Array.isArray(items) || keys[keys.length - 1] !== key) return Buffer.from(JSON.stringify(list), 'utf8');
  const empty = JSON.stringify({ ...list, [key]: [] });
  const head = Buffer.from(empty.slice(0, -2), 'utf8');
  const tail = Buffer.from(']}');
  if (items.length <= ITEMS_PER_CHUNK) return Buffer.concat([head, itemBytes(items, 0, bytes), tail]);
  return new StreamedBody({ [Symbol.iterator]: () => listByteChunks(head, items, bytes, tail) });
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes `body` after headers without a Content-Length (so Node frames it chunked), waiting for
 * the socket to drain between chunks; stops early if the client goes away.
 */
export async function writeStreamed(res: ServerResponse, code: number, headers: Record<string, string>, body: StreamedBody): Promise<void> {
  res.writeHead(code, headers);
  for (const chunk of body.chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drained(res);
  }
  if (!res.destroyed) res.end();
}
