/**
 * HTTP/2 for the informers, as client-go does it: every list and watch to one API server shares
 * one TLS connection (a second one once the server's SETTINGS_MAX_CONCURRENT_STREAMS is
 * reached), instead of a TLS handshake per watch. The protocol is chosen by ALPN on the first
 * connection; a server that picks `http/1.1` is remembered and served by the HTTP/1.1 agent.
 * Responses are the HTTP/2 streams themselves, dressed with the fields the callers read from an
 * IncomingMessage (statusCode, statusMessage, headers), so the stream readers stay as they are.
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { connect as connectHttp2, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { isIP } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';

/** An idle session is pinged this often, so a dead connection is noticed (client-go: ReadIdleTimeout 30 s). */
export const HTTP2_PING_INTERVAL_MS = 30_000;
/** A ping unanswered this long ends the session (client-go: PingTimeout 15 s). */
export const HTTP2_PING_TIMEOUT_MS = 15_000;
/** Streams opened on a session before its server's SETTINGS arrive; RFC 9113 asks servers to allow at least 100. */
const ASSUMED_MAX_STREAMS = 100;
/**
 * Flow-control windows, golang.org/x/net/http2's Transport defaults (client-go's): with HTTP/2's
 * 64 KiB default a 100 MB list would stall on a WINDOW_UPDATE every 64 KiB.
 */
const STREAM_WINDOW_BYTES = 4 << 20;
const CONNECTION_WINDOW_BYTES = 1 << 30;
/** Headers HTTP/2 forbids (RFC 9113 §8.2.2) and ones it carries as pseudo-headers. */
const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'te']);

/** The protocol ALPN settled on for one server and TLS material. */
export type NegotiatedProtocol = 'h2' | 'http/1.1';

/** Timing of an Http2Sessions pool. */
export interface Http2SessionsOptions {
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  now?: () => number;
}

interface Slot {
  session: ClientHttp2Session;
  streams: number;
  /** The server's SETTINGS have arrived: their stream limit applies. */
  settled: boolean;
  /** GOAWAY, error or close: takes no new streams. */
  retired: boolean;
  lastActivityAt: number;
  pinger: NodeJS.Timeout;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** Rejects as soon as `signal` aborts, without waiting for `promise`. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Request headers as HTTP/2 wants them: lower-case, without connection headers. */
function http2Headers(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value !== undefined && !DROPPED_HEADERS.has(lower) && !lower.startsWith(':')) out[lower] = value;
  }
  return out;
}

/**
 * The HTTP/2 sessions to one API server with one set of TLS material (CA, client certificate).
 * `protocol()` tells whether the server speaks h2; `get()` then sends a request on a session
 * with room for another stream.
 */
export class Http2Sessions {
  private readonly origin: URL;
  private readonly tls: ConnectionOptions;
  private readonly pingIntervalMs: number;
  private readonly pingTimeoutMs: number;
  private readonly now: () => number;
  private readonly slots: Slot[] = [];
  private negotiated: Promise<NegotiatedProtocol> | undefined;
  private connecting: Promise<Slot | 'http/1.1'> | undefined;
  private closed = false;
  /** Sessions opened so far (for tests and measurements). */
  opened = 0;

  constructor(origin: string, tls: ConnectionOptions, options: Http2SessionsOptions = {}) {
    this.origin = new URL(origin);
    this.tls = tls;
    this.pingIntervalMs = options.pingIntervalMs ?? HTTP2_PING_INTERVAL_MS;
    this.pingTimeoutMs = options.pingTimeoutMs ?? HTTP2_PING_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  /** What ALPN chose, settled by the first connection (a failed attempt is tried again next time). */
  protocol(signal: AbortSignal): Promise<NegotiatedProtocol> {
    this.negotiated ??= this.connect().then(
      (slot) => (slot === 'http/1.1' ? 'http/1.1' : 'h2'),
      (error: unknown) => {
        this.negotiated = undefined;
        throw error;
      },
    );
    return abortable(this.negotiated, signal);
  }

  /** Sessions that take new streams now. */
  get sessions(): number {
    return this.slots.filter((slot) => !slot.retired).length;
  }

  /** GETs `path` (with query) on a session with room; resolves once the response headers arrive. */
  async get(path: string, headers: OutgoingHttpHeaders, signal: AbortSignal): Promise<IncomingMessage> {
    const slot = await this.slot(signal);
    if (signal.aborted || slot.retired) {
      slot.streams -= 1;
      throw signal.aborted ? abortError(signal) : new Error(`the HTTP/2 session to ${this.origin.host} closed`);
    }
    const stream = slot.session.request({ ...http2Headers(headers), ':method': 'GET', ':path': path }, { endStream: true, signal });
    // A stream error nobody listens to yet (the caller attaches its readers later) must not crash the engine.
    stream.on('error', () => undefined);
    // Arrivals count as signs of life without a 'data' listener, which would start the flow
    // before the caller reads (node's http2 hands every DATA frame's bytes to push).
    const push = stream.push.bind(stream);
    stream.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
      slot.lastActivityAt = this.now();
      return push(chunk, encoding);
    };
    stream.once('close', () => {
      slot.streams -= 1;
      slot.lastActivityAt = this.now();
    });
    return new Promise<IncomingMessage>((resolve, reject) => {
      const early = (error?: Error): void => reject(signal.aborted ? abortError(signal) : (error ?? new Error(`the HTTP/2 stream to ${this.origin.host} closed before the response`)));
      stream.once('error', early);
      stream.once('close', () => early());
      stream.once('response', (received) => {
        stream.off('error', early);
        resolve(asResponse(stream, received));
      });
    });
  }

  /** Ends every session; `graceful` lets open streams finish (new TLS material replaces these). */
  close(graceful = false): void {
    this.closed = true;
    for (const slot of this.slots.splice(0)) this.retire(slot, graceful ? 'close' : 'destroy');
  }

  /**
   * A session with room for one more stream, connecting one when every session is full. The
   * stream is counted at once: callers that ask together must not all see the same free room.
   */
  private async slot(signal: AbortSignal): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new Error('the transport is closed');
      const open = this.slots.find((s) => !s.retired && s.streams < (s.settled ? s.session.remoteSettings.maxConcurrentStreams ?? ASSUMED_MAX_STREAMS : ASSUMED_MAX_STREAMS));
      if (open) {
        open.streams += 1;
        return open;
      }
      const connected = await abortable(this.connect(), signal);
      if (connected === 'http/1.1') {
        // Later requests take the HTTP/1.1 path; this one fails like a dropped connection and is retried.
        this.negotiated = Promise.resolve('http/1.1');
        throw new Error(`${this.origin.host} no longer offers HTTP/2`);
      }
    }
  }

  /** One connection attempt at a time; concurrent callers share it. */
  private connect(): Promise<Slot | 'http/1.1'> {
    this.connecting ??= this.openSession().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private openSession(): Promise<Slot | 'http/1.1'> {
    const host = this.origin.hostname.replace(/^\[|\]$/g, '');
    const port = Number(this.origin.port || 443);
    // SNI carries host names only; kubeconfig's tls-server-name arrives as tls.servername.
    const servername = this.tls.servername ?? (isIP(host) ? undefined : host);
    return new Promise((settle, fail) => {
      const socket = connectTls({ ...this.tls, host, port, ...(servername ? { servername } : {}), ALPNProtocols: ['h2', 'http/1.1'] });
      // Every request waits on this one attempt: a handshake that stalls (a half-open network
      // after sleep) must end it, or nothing reaches the cluster again.
      const timer = setTimeout(() => {
        socket.destroy();
        fail(new Error(`the connection to ${this.origin.host} gave no TLS and HTTP/2 handshake within ${Math.round(this.pingTimeoutMs / 1000)} s`));
      }, this.pingTimeoutMs);
      timer.unref();
      const resolve = (value: Slot | 'http/1.1'): void => {
        clearTimeout(timer);
        settle(value);
      };
      const reject = (error: Error): void => {
        clearTimeout(timer);
        fail(error);
      };
      socket.once('error', reject);
      socket.once('secureConnect', () => {
        socket.off('error', reject);
        if (socket.alpnProtocol !== 'h2' || this.closed) {
          socket.destroy();
          if (this.closed) reject(new Error('the transport is closed'));
          else resolve('http/1.1');
          return;
        }
        const session = connectHttp2(this.origin, { createConnection: () => socket, settings: { initialWindowSize: STREAM_WINDOW_BYTES } });
        session.setLocalWindowSize(CONNECTION_WINDOW_BYTES);
        this.opened += 1;
        const slot = this.adopt(session);
        // The server's SETTINGS (its stream limit) are its first frame: waiting for them keeps
        // callers that arrive together from opening sessions they do not need.
        const failed = (): void => reject(new Error(`the HTTP/2 connection to ${this.origin.host} closed before its settings arrived`));
        session.once('close', failed);
        session.once('remoteSettings', () => {
          session.off('close', failed);
          resolve(slot);
        });
      });
    });
  }

  private adopt(session: ClientHttp2Session): Slot {
    const slot: Slot = { session, streams: 0, settled: false, retired: false, lastActivityAt: this.now(), pinger: setInterval(() => this.keepAlive(slot), this.pingIntervalMs) };
    slot.pinger.unref();
    this.slots.push(slot);
    session.on('remoteSettings', () => (slot.settled = true));
    // In-flight streams fail with the session, as with a dropped connection; reflectors retry.
    session.on('error', () => this.retire(slot, 'destroy'));
    // After GOAWAY the server finishes the streams it has; new requests go to a new session.
    session.on('goaway', () => this.retire(slot, 'close'));
    session.once('close', () => this.retire(slot, 'destroy'));
    return slot;
  }

  /** Pings a session idle for a whole interval; no answer in time ends it. */
  private keepAlive(slot: Slot): void {
    if (slot.retired || this.now() - slot.lastActivityAt < this.pingIntervalMs) return;
    let answered = false;
    const dead = (): void => {
      if (!answered) slot.session.destroy(new Error(`${this.origin.host} did not answer an HTTP/2 ping in ${this.pingTimeoutMs} ms`));
    };
    // After a blocked event loop timers run before pending reads: the answer gets one I/O turn first.
    const timeout = setTimeout(() => setImmediate(dead), this.pingTimeoutMs);
    timeout.unref();
    const sent = slot.session.ping((error) => {
      answered = true;
      clearTimeout(timeout);
      if (error) slot.session.destroy(error);
      else slot.lastActivityAt = this.now();
    });
    if (!sent) clearTimeout(timeout);
  }

  private retire(slot: Slot, how: 'close' | 'destroy'): void {
    slot.retired = true;
    clearInterval(slot.pinger);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    if (how === 'destroy') {
      if (!slot.session.destroyed) slot.session.destroy();
    } else if (!slot.session.closed) slot.session.close();
  }
}

/** The stream, read by callers as they read an HTTP/1.1 IncomingMessage. */
function asResponse(stream: ClientHttp2Stream, received: Record<string, string | string[] | number | undefined>): IncomingMessage {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(received)) {
    if (!name.startsWith(':') && value !== undefined) headers[name] = typeof value === 'number' ? String(value) : value;
  }
  const statusCode = Number(received[':status'] ?? 0);
  // node ends a stream's body when its session goes down too; a reset code tells that from the server's end.
  stream.prependListener('end', () => {
    if (stream.rstCode !== undefined && stream.rstCode !== constants.NGHTTP2_NO_ERROR) stream.emit('error', new Error(`the HTTP/2 stream was reset (code ${stream.rstCode}) before the response ended`));
  });
  return Object.assign(stream, { statusCode, statusMessage: '', headers, httpVersion: '2.0' }) as unknown as IncomingMessage;
}
