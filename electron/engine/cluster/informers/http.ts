/**
 * The informers' HTTP: client-node's KubeConfig supplies the TLS agent and the auth headers
 * (so exec credential plugins, tokens, client certificates and CA data behave as they do for
 * kubectl); the requests and the streaming are ours, so every one can be aborted, timed and
 * classified. Over TLS the transport speaks HTTP/2 when the server picks it by ALPN, as client-go
 * does: one connection carries every list and watch (http2-sessions.ts); HTTP/1.1 with a
 * keep-alive agent otherwise (plain HTTP, proxies, servers without h2).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import { loadClientConfig, withoutCredentials } from '../client-config.ts';
import { Http2Sessions, type Http2SessionsOptions } from './http2-sessions.ts';

/** A failed API request: the HTTP status and the server's `Status` message. */
export class ApiStatusError extends Error {
  readonly status: number;
  readonly reason: string;
  /** From the Retry-After header or the Status details. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, reason: string, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'ApiStatusError';
    this.status = status;
    this.reason = reason;
    this.retryAfterMs = retryAfterMs;
  }
}

/** What the informers need from a connection to one API server. */
export interface Transport {
  /** The server URL from the kubeconfig, for messages. */
  readonly server: string;
  /** GETs a path (with query); resolves with the response once its headers arrive. */
  get(path: string, options: { signal: AbortSignal; accept?: string }): Promise<IncomingMessage>;
  /** Forgets cached credentials (an exec plugin's token) so the next request fetches fresh ones. */
  renewCredentials(): void;
  /** Closes every socket of every agent this transport created. */
  close(): void;
}

const USER_AGENT = 'kubedrift';
/** A keep-alive line; fails at the first character of a JSON line, so it costs nothing per event. */
const BLANK = /^\s*$/;
const NEWLINE = 0x0a;

/** The TLS material client-node puts on request options (cluster CA, client certificates). */
const TLS_FIELDS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'servername', 'rejectUnauthorized'] as const;

function tlsMaterialKey(options: RequestOptions): string {
  return TLS_FIELDS.map((field) => {
    const value: unknown = options[field];
    return Buffer.isBuffer(value) ? value.toString('base64') : String(value);
  }).join('|');
}

/** Whether client-node gave a plain agent (a direct connection), not a proxy agent. */
function isDirect(agent: unknown): boolean {
  return agent instanceof HttpAgent && (agent.constructor === HttpsAgent || agent.constructor === HttpAgent);
}

function tlsOf(options: RequestOptions): ConnectionOptions {
  return Object.fromEntries(TLS_FIELDS.filter((f) => options[f] !== undefined).map((f) => [f, options[f]])) as ConnectionOptions;
}

/** The HTTP/2 sessions for the current TLS material; material that changes (a rotated client certificate) gets new ones. */
function http2Pools(server: string, options: Http2SessionsOptions): { sessionsFor(options: RequestOptions): Http2Sessions; close(): void } {
  let current: { key: string; sessions: Http2Sessions } | undefined;
  return {
    sessionsFor(request) {
      const key = tlsMaterialKey(request);
      if (current?.key !== key) {
        // Streams open on the old material finish; new requests use the new one.
        current?.sessions.close(true);
        current = { key, sessions: new Http2Sessions(new URL(server).origin, tlsOf(request), options) };
      }
      return current.sessions;
    },
    close() {
      current?.sessions.close();
      current = undefined;
    },
  };
}

/**
 * client-node's agents do not keep connections alive, so each list page would pay a new TLS
 * handshake. For direct connections (proxy agents are left alone) the transport uses its own
 * keep-alive agent with the same TLS material, made anew when that material changes (an exec
 * plugin may rotate the client certificate).
 */
function keepAliveAgents(): { agentFor(options: RequestOptions): HttpAgent | undefined; destroy(): void } {
  const made = new Set<HttpAgent>();
  let current: { key: string; agent: HttpAgent } | undefined;
  return {
    agentFor(options) {
      const given = options.agent;
      if (!(given instanceof HttpAgent)) return undefined;
      if (!isDirect(given)) return given;
      const key = `${given.constructor === HttpsAgent ? 'https' : 'http'}|${tlsMaterialKey(options)}`;
      if (current?.key !== key) {
        const tls = tlsOf(options);
        const agent = given.constructor === HttpsAgent ? new HttpsAgent({ ...tls, keepAlive: true }) : new HttpAgent({ keepAlive: true });
        made.add(agent);
        current = { key, agent };
      }
      return current.agent;
    },
    destroy() {
      for (const agent of made) agent.destroy();
      made.clear();
      current = undefined;
    },
  };
}

/** Options of `createTransport`. */
export interface TransportOptions {
  /** Offer HTTP/2 by ALPN on TLS connections (default true); false: HTTP/1.1 only, a connection per open watch. */
  http2?: boolean;
  /** The HTTP/2 sessions' keep-alive pings. */
  http2Sessions?: Http2SessionsOptions;
}

/** A transport for a single-context kubeconfig object; throws when the kubeconfig is unusable. */
export function createTransport(config: object, transportOptions: TransportOptions = {}): Transport {
  let kc = loadClientConfig(config);
  const server = (kc.getCurrentCluster()?.server ?? '').replace(/\/+$/, '');
  const given = new Set<HttpAgent>();
  const pool = keepAliveAgents();
  const h2 = server.startsWith('https:') && transportOptions.http2 !== false ? http2Pools(server, transportOptions.http2Sessions ?? {}) : undefined;
  return {
    server,
    async get(path, { signal, accept }) {
      const options: RequestOptions = {};
      await kc.applyToHTTPSOptions(options);
      signal.throwIfAborted();
      if (options.agent instanceof HttpAgent) given.add(options.agent);
      const agent = pool.agentFor(options);
      // Concatenated, not resolved: a server URL may carry a path prefix (Rancher, proxies).
      const url = new URL(`${server}${path}`);
      const headers: OutgoingHttpHeaders = { ...((options.headers as OutgoingHttpHeaders | undefined) ?? {}), Accept: accept ?? 'application/json', 'User-Agent': USER_AGENT };
      // A plain-HTTP cluster the kubeconfig did not mark insecure: no credentials, as kubectl (client-config.ts).
      const insecure = withoutCredentials(kc);
      if (insecure) delete headers['Authorization'];
      if (h2 && url.protocol === 'https:' && isDirect(options.agent)) {
        const sessions = h2.sessionsFor(options);
        if ((await sessions.protocol(signal)) === 'h2') {
          if (options.auth) headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
          return sessions.get(`${url.pathname}${url.search}`, headers, signal);
        }
      }
      const request = url.protocol === 'http:' ? httpRequest : httpsRequest;
      return new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(url, { method: 'GET', headers, signal, ...(agent !== undefined ? { agent } : {}), ...(options.auth && !insecure ? { auth: options.auth } : {}) }, resolve);
        req.on('error', reject);
        req.end();
      });
    },
    renewCredentials() {
      kc = loadClientConfig(config);
    },
    close() {
      h2?.close();
      pool.destroy();
      for (const agent of given) agent.destroy();
      given.clear();
    },
  };
}

/**
 * Reads a whole body. `onData` sees every chunk (the watchdog's sign of life). Rejects when the
 * connection closes before the end.
 */
function readBodyBytes(response: IncomingMessage, onData: (chunk: Buffer) => void = () => undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      onData(chunk);
    });
    response.on('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks));
    });
    response.on('error', reject);
    response.on('close', () => {
      if (!ended) reject(new Error('the connection closed before the response ended'));
    });
  });
}

async function readBody(response: IncomingMessage, onData?: (chunk: Buffer) => void): Promise<string> {
  return (await readBodyBytes(response, onData)).toString('utf8');
}

/**
 * Streams newline-delimited JSON: calls `onLine` per non-blank line (bare "\n" lines are
 * keep-alives) and `onData` per chunk. Resolves when the server ends the stream, rejects when
 * the connection breaks or `onLine` throws (the response is then destroyed).
 *
 * Each line is decoded from the bytes on its own, so it is a string of its own: a slice of a
 * decoded chunk would keep the whole chunk alive for as long as the line waits to be applied
 * (watch-intake.ts keeps lines, one per object, while the cache catches up).
 */
export function readLines(response: IncomingMessage, onLine: (line: string) => void, onData: () => void = () => undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    /** The start of a line whose newline has not arrived yet, in arrival order. */
    let partial: Buffer[] = [];
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      response.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    response.on('data', (chunk: Buffer | string) => {
      onData();
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      let start = 0;
      let newline = bytes.indexOf(NEWLINE);
      while (newline >= 0 && !settled) {
        let line: string;
        if (partial.length > 0) {
          partial.push(bytes.subarray(start, newline));
          line = Buffer.concat(partial).toString('utf8');
          partial = [];
        } else {
          line = bytes.toString('utf8', start, newline);
        }
        start = newline + 1;
        if (!BLANK.test(line)) {
          try {
            onLine(line);
          } catch (error) {
            fail(error);
            return;
          }
        }
        newline = bytes.indexOf(NEWLINE, start);
      }
      // Copied: the rest of a large chunk need not stay alive for a line's first bytes.
      if (start < bytes.length) partial.push(Buffer.from(bytes.subarray(start)));
    });
    response.on('end', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    response.on('error', fail);
    response.on('close', () => fail(new Error('the watch connection was closed')));
  });
}

function retryAfterOf(response: IncomingMessage, status: unknown): number | undefined {
  const header = Number.parseInt(String(response.headers['retry-after'] ?? ''), 10);
  if (Number.isFinite(header) && header >= 0) return header * 1000;
  const details = (status as { details?: { retryAfterSeconds?: unknown } } | undefined)?.details;
  return typeof details?.retryAfterSeconds === 'number' ? details.retryAfterSeconds * 1000 : undefined;
}

/** An ApiStatusError from an in-stream `ERROR` event's Status object. */
export function statusError(status: unknown, fallbackCode = 500): ApiStatusError {
  const s = (status ?? {}) as { code?: unknown; reason?: unknown; message?: unknown; details?: { retryAfterSeconds?: unknown } };
  const code = typeof s.code === 'number' ? s.code : fallbackCode;
  const retry = typeof s.details?.retryAfterSeconds === 'number' ? s.details.retryAfterSeconds * 1000 : undefined;
  return new ApiStatusError(code, typeof s.reason === 'string' ? s.reason : '', typeof s.message === 'string' && s.message ? s.message : `HTTP ${code}`, retry);
}

/** Reads a non-2xx response into an ApiStatusError carrying the server's message. */
export async function failureOf(response: IncomingMessage, onData?: () => void): Promise<ApiStatusError> {
  const code = response.statusCode ?? 0;
  const text = await readBody(response, onData).catch(() => '');
  let status: unknown;
  try {
    status = JSON.parse(text);
  } catch {
    status = { message: text.trim().slice(0, 500) || `HTTP ${code} ${response.statusMessage ?? ''}`.trim() };
  }
  const error = statusError({ ...(status as object), code }, code);
  const retryAfterMs = retryAfterOf(response, status);
  return retryAfterMs === undefined ? error : new ApiStatusError(error.status, error.reason, error.message, retryAfterMs);
}

/** GETs a JSON document; non-2xx answers reject with ApiStatusError. */
export async function getJson(transport: Transport, path: string, options: { signal: AbortSignal; accept?: string; onData?: () => void }): Promise<unknown> {
  const response = await transport.get(path, options);
  const code = response.statusCode ?? 0;
  if (code < 200 || code > 299) throw await failureOf(response, options.onData);
  return JSON.parse(await readBody(response, options.onData));
}

/** A list's `metadata`: where a paged list goes on, and the version it is a snapshot of. */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
}

const ITEMS_KEY = Buffer.from('"items":');
/** Past this many bytes without the items key, the head is not looked for any longer. */
const HEAD_SCAN_BYTES = 64 * 1024;

/** The metadata of a list from the bytes before its items, or undefined when they do not parse. */
function parseHead(prefix: string): ListMeta | undefined {
  try {
    const metadata = (JSON.parse(`${prefix}"items":[]}`) as { metadata?: unknown }).metadata;
    return typeof metadata === 'object' && metadata !== null ? (metadata as ListMeta) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * GETs a list's body (decoded elsewhere, see list-decoder.ts), and calls `onHead` once with the
 * list's metadata as soon as the bytes before `"items":` have arrived: kube-apiserver (and the
 * simulator) write a List's kind, apiVersion and metadata before its items, so a paged list's
 * continue token is known while the items are still on their way. `onHead` gets undefined when
 * the head could not be read early (a failed request, another field order); it always runs
 * before the promise settles. Non-2xx answers reject with ApiStatusError.
 */
export async function getListBody(
  transport: Transport,
  path: string,
  options: { signal: AbortSignal; accept?: string; onData?: () => void; onHead: (metadata: ListMeta | undefined) => void },
): Promise<Buffer> {
  let headDone = false;
  const head = (metadata: ListMeta | undefined): void => {
    if (headDone) return;
    headDone = true;
    options.onHead(metadata);
  };
  try {
    const response = await transport.get(path, options);
    const code = response.statusCode ?? 0;
    if (code < 200 || code > 299) throw await failureOf(response, options.onData);
    let scanned: Buffer = Buffer.alloc(0);
    return await readBodyBytes(response, (chunk) => {
      options.onData?.();
      if (headDone) return;
      scanned = scanned.length === 0 ? chunk : Buffer.concat([scanned, chunk]);
      const at = scanned.indexOf(ITEMS_KEY);
      if (at >= 0) head(parseHead(scanned.toString('utf8', 0, at)));
      else if (scanned.length > HEAD_SCAN_BYTES) head(undefined);
    });
  } finally {
    head(undefined);
  }
}
