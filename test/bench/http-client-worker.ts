/**
 * The benchmark's API client, run in a worker thread so that reading, decrypting and parsing
 * responses happens on another core than the server, as it would in kubectl or an informer.
 * It speaks plain node:http(s) to the server over loopback: GETs timed to their last byte, lists
 * paged with `continue`, and watches whose complete, parsed event lines it counts into shared
 * memory the server side reads without a message round trip.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { parentPort } from 'node:worker_threads';
import type { ClientReply, ClientRequest, ClientTarget } from './http-client.ts';

/** Index in the watch counter: complete event lines parsed. */
const EVENTS = 0;
/** Index in the watch counter: lines that were ERROR events or not JSON. */
const BAD_LINES = 1;

const watches = new Map<number, () => void>();

function open(target: ClientTarget, path: string, accept: string): Promise<IncomingMessage> {
  const url = new URL(path, target.url);
  const headers = { Accept: accept, ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}) };
  return new Promise((resolve, reject) => {
    const options = { method: 'GET', headers, ...(target.caPem ? { ca: target.caPem } : {}) };
    const req = url.protocol === 'https:' ? httpsRequest(url, options, resolve) : httpRequest(url, options, resolve);
    req.on('error', reject);
    req.end();
  });
}

function readAll(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

async function get(target: ClientTarget, path: string, accept: string, parse: boolean): Promise<ClientReply> {
  const start = performance.now();
  const res = await open(target, path, accept);
  const body = await readAll(res);
  const ms = performance.now() - start;
  if (res.statusCode !== 200) throw new Error(`GET ${path}: HTTP ${res.statusCode}: ${body.toString('utf8', 0, 300)}`);
  const items = parse ? itemCount(JSON.parse(body.toString('utf8'))) : undefined;
  return { ms, bytes: body.length, ...(items !== undefined ? { items } : {}) };
}

function itemCount(list: { items?: unknown[]; rows?: unknown[] }): number {
  return (list.items ?? list.rows ?? []).length;
}

/** A paginated list as client-go's pager does it: `limit`, then `continue` until none is left. */
async function listPages(target: ClientTarget, path: string, accept: string, limit: number): Promise<ClientReply> {
  const start = performance.now();
  let items = 0;
  let pages = 0;
  let bytes = 0;
  let token = '';
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await open(target, `${path}${separator}limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, accept);
    const body = await readAll(res);
    if (res.statusCode !== 200) throw new Error(`GET ${path} page ${pages + 1}: HTTP ${res.statusCode}: ${body.toString('utf8', 0, 300)}`);
    const list = JSON.parse(body.toString('utf8')) as { items?: unknown[]; rows?: unknown[]; metadata?: { continue?: string } };
    items += itemCount(list);
    bytes += body.length;
    pages += 1;
    token = list.metadata?.continue ?? '';
  } while (token);
  return { ms: performance.now() - start, bytes, items, pages };
}

async function watch(id: number, target: ClientTarget, path: string, accept: string, counter: SharedArrayBuffer): Promise<ClientReply> {
  const counts = new Int32Array(counter);
  const res = await open(target, path, accept);
  if (res.statusCode !== 200) throw new Error(`watch ${path}: HTTP ${res.statusCode}: ${(await readAll(res)).toString('utf8', 0, 300)}`);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  res.on('data', (chunk: Buffer) => {
    const text = rest + decoder.write(chunk);
    let from = 0;
    let events = 0;
    let bad = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', from)) {
      const line = text.slice(from, end);
      from = end + 1;
      // A bare newline is the server's keep-alive, not an event.
      if (line.length === 0) continue;
      try {
        const event = JSON.parse(line) as { type?: string };
        if (event.type === 'ERROR') bad += 1;
        else events += 1;
      } catch {
        bad += 1;
      }
    }
    rest = text.slice(from);
    if (events > 0) Atomics.add(counts, EVENTS, events);
    if (bad > 0) Atomics.add(counts, BAD_LINES, bad);
    Atomics.notify(counts, EVENTS);
  });
  watches.set(id, () => res.destroy());
  return { ms: 0, bytes: 0 };
}

async function handle(request: ClientRequest): Promise<ClientReply> {
  switch (request.op) {
    case 'get':
      return get(request.target, request.path, request.accept, request.parse ?? false);
    case 'pages':
      return listPages(request.target, request.path, request.accept, request.limit);
    case 'watch':
      return watch(request.id, request.target, request.path, request.accept, request.counter);
    case 'unwatch':
      watches.get(request.watchId)?.();
      watches.delete(request.watchId);
      return { ms: 0, bytes: 0 };
  }
}

parentPort?.on('message', (request: ClientRequest) => {
  handle(request).then(
    (reply) => parentPort?.postMessage({ id: request.id, reply }),
    (error: unknown) => parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
