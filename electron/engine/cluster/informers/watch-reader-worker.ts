/**
 * The watch reader's worker thread (watch-reader.ts): it opens the watches the engine asks for,
 * over direct connections with the credentials the engine resolved, reads their sockets as fast
 * as they deliver, and hands their lines over in batches, at most MAX_UNACKED at a time per watch.
 * While the engine has not taken them, lines wait in a WatchQueue, coalesced per object while the
 * engine is behind (MAX_UNACKED batches not taken in yet). When a
 * stream ends or fails, everything read is handed over before the end. Loads only the repo's
 * own modules and Node's.
 */
import type { IncomingMessage } from 'node:http';
import { parentPort } from 'node:worker_threads';
import { createDirectSender, type DirectSender } from './direct.ts';
import { codeOf } from './error-code.ts';
import { LineSplitter } from './lines.ts';
import type { ReaderReply, ReaderRequest, WatchOpen } from './watch-reader.ts';
import { WatchQueue } from './watch-queue.ts';

/** Batches handed over and not yet acknowledged, per watch. */
const MAX_UNACKED = 2;
/** Lines a batch takes at most, and about how many characters. */
const BATCH_LINES = 2_000;
const BATCH_CHARS = 8 << 20;
/** A stream with only keep-alives says it is alive this often at most. */
const ALIVE_EVERY_MS = 1_000;
/** A failed answer's body is read up to this size. */
const MAX_FAILURE_BODY = 64 * 1024;

interface Open {
  controller: AbortController;
  queue: WatchQueue;
  unacked: number;
  /** The stream ended (error: how): the rest is handed over, then the end. */
  ended: { error?: { message: string; code?: string } } | undefined;
  aliveAt: number;
  response: IncomingMessage | undefined;
  /** A hand-over is due at the end of this turn of the event loop. */
  scheduled: boolean;
}

const port = parentPort;
const opens = new Map<number, Open>();
const senders = new Map<string, DirectSender>();

function post(reply: ReaderReply): void {
  port?.postMessage(reply);
}

function senderFor(request: WatchOpen): DirectSender {
  const key = `${new URL(request.url).origin}|${request.http2}`;
  let sender = senders.get(key);
  if (!sender) {
    sender = createDirectSender(new URL(request.url).origin, { http2: request.http2 });
    senders.set(key, sender);
  }
  return sender;
}

/** A failure as it crosses to the engine: its message, and its code for the status bar's words (messages.ts). */
function errorOf(error: unknown): { message: string; code?: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = codeOf(error);
  return code ? { message, code } : { message };
}

/** Hands over what waits, within the unacknowledged limit; once ended, everything, then the end. */
function pump(id: number, open: Open): void {
  const { queue } = open;
  const drain = open.ended !== undefined;
  while (queue.size > 0 && (drain || open.unacked < MAX_UNACKED)) {
    const batch = queue.take(BATCH_LINES, BATCH_CHARS);
    open.unacked += 1;
    post({ type: 'lines', id, lines: batch.lines, resumeFrom: batch.resumeFrom, heldMs: batch.oldestReadAt === undefined ? 0 : Math.max(0, performance.now() - batch.oldestReadAt) });
  }
  if (drain) {
    opens.delete(id);
    post({ type: 'end', id, resumeFrom: queue.version, ...(open.ended?.error ? { error: open.ended.error } : {}) });
  }
}

function readFailure(id: number, response: IncomingMessage): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const done = (): void => {
    if (!opens.delete(id)) return;
    post({ type: 'failure', id, statusCode: response.statusCode ?? 0, statusMessage: response.statusMessage ?? '', retryAfter: response.headers['retry-after'], body: Buffer.concat(chunks).toString('utf8') });
  };
  response.on('data', (chunk: Buffer) => {
    if (size < MAX_FAILURE_BODY) chunks.push(chunk);
    size += chunk.length;
  });
  response.on('end', done);
  response.on('error', done);
  response.on('close', done);
}

async function start(request: WatchOpen): Promise<void> {
  const { id } = request;
  const open: Open = { controller: new AbortController(), queue: new WatchQueue(), unacked: 0, ended: undefined, aliveAt: 0, response: undefined, scheduled: false };
  opens.set(id, open);
  let response: IncomingMessage;
  try {
    response = await senderFor(request).get({ url: new URL(request.url), headers: request.headers, tls: request.tls, signal: open.controller.signal, ...(request.auth ? { auth: request.auth } : {}) });
  } catch (error) {
    if (opens.delete(id)) post({ type: 'error', id, error: errorOf(error) });
    return;
  }
  if (opens.get(id) !== open) {
    response.destroy();
    return;
  }
  open.response = response;
  if (response.statusCode !== 200) {
    readFailure(id, response);
    return;
  }
  post({ type: 'head', id, statusCode: 200 });
  const lines = new LineSplitter();
  const end = (error?: unknown): void => {
    if (open.ended || opens.get(id) !== open) return;
    open.ended = error === undefined ? {} : { error: errorOf(error) };
    pump(id, open);
  };
  response.on('data', (chunk: Buffer) => {
    if (open.ended) return;
    const before = open.queue.size;
    // Coalesced only while the engine is behind (its batches unacknowledged): otherwise it sees every state.
    lines.push(chunk, (line) => open.queue.push(line, open.unacked >= MAX_UNACKED));
    const added = open.queue.size > before;
    // Once per turn, after every chunk the socket had: one message for them, not one each.
    if (added && !open.scheduled) {
      open.scheduled = true;
      setImmediate(() => {
        open.scheduled = false;
        if (!open.ended && opens.get(id) === open) pump(id, open);
      });
    }
    const now = performance.now();
    if (!added && now - open.aliveAt >= ALIVE_EVERY_MS) {
      // Only keep-alives, or changes coalesced into waiting ones: the engine's watchdog hears of it.
      open.aliveAt = now;
      post({ type: 'alive', id });
    }
  });
  response.on('end', () => end());
  response.on('error', (error) => end(error));
  response.on('close', () => end(new Error('the watch connection was closed')));
}

port?.on('message', (request: ReaderRequest) => {
  switch (request.type) {
    case 'open':
      void start(request);
      return;
    case 'ack': {
      const open = opens.get(request.id);
      if (!open) return;
      open.unacked = Math.max(0, open.unacked - 1);
      pump(request.id, open);
      return;
    }
    case 'close': {
      const open = opens.get(request.id);
      if (!open) return;
      opens.delete(request.id);
      open.controller.abort();
      open.response?.destroy();
      open.queue.clear();
      return;
    }
    case 'shutdown':
      for (const sender of senders.values()) sender.close();
      senders.clear();
      return;
  }
});
