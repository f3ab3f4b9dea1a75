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
import { loadClientConfig, withoutCredentials } from '../client-config.ts';
import { createDirectSender, tlsOf, type DirectSenderOptions } from './direct.ts';
import { LineSplitter } from './lines.ts';
import { ReaderUnavailable, type LineStream, type WatchReader } from './watch-reader.ts';

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
  /**
   * Opens a watch read off the engine's thread (watch-reader.ts); undefined when this transport
   * cannot (no reader, a proxy, the reader's worker gone): `get` and `readLines` then.
   */
  watchLines?(path: string, options: { signal: AbortSignal; accept?: string }): Promise<LineStream | undefined>;
  /** Forgets cached credentials (an exec plugin's token) so the next request fetches fresh ones. */
  renewCredentials(): void;
  /** Closes every socket of every agent this transport created. */
  close(): void;
}

const USER_AGENT = 'kubedrift';

/** Whether client-node gave a plain agent (a direct connection), not a proxy agent. */
function isDirect(agent: unknown): boolean {
  return agent instanceof HttpAgent && (agent.constructor === HttpsAgent || agent.constructor === HttpAgent);
}

/** Options of `createTransport`. */
export interface TransportOptions extends DirectSenderOptions {
  /**
   * Reads watches in a worker thread (watch-reader.ts): `watchLines` then serves direct
   * connections. Without it, or through a proxy, watches are read on this thread.
   */
  reader?: WatchReader;
}

/** The credentials and TLS material of one request, as client-node resolves them from the kubeconfig. */
interface Resolved {
  url: URL;
  headers: OutgoingHttpHeaders;
  options: RequestOptions;
  /** Basic auth to send, if any (none to a plain-HTTP cluster the kubeconfig did not mark insecure). */
  auth: string | undefined;
}

/** A transport for a single-context kubeconfig object; throws when the kubeconfig is unusable. */
export function createTransport(config: object, transportOptions: TransportOptions = {}): Transport {
  let kc = loadClientConfig(config);
  const server = (kc.getCurrentCluster()?.server ?? '').replace(/\/+$/, '');
  const given = new Set<HttpAgent>();
  const direct = createDirectSender(server, transportOptions);
  const reader = transportOptions.reader;

  const resolve = async (path: string, signal: AbortSignal, accept: string | undefined): Promise<Resolved> => {
    const options: RequestOptions = {};
    await kc.applyToHTTPSOptions(options);
    signal.throwIfAborted();
    if (options.agent instanceof HttpAgent) given.add(options.agent);
    // Concatenated, not resolved: a server URL may carry a path prefix (Rancher, proxies).
    const url = new URL(`${server}${path}`);
    const headers: OutgoingHttpHeaders = { ...((options.headers as OutgoingHttpHeaders | undefined) ?? {}), Accept: accept ?? 'application/json', 'User-Agent': USER_AGENT };
    // A plain-HTTP cluster the kubeconfig did not mark insecure: no credentials, as kubectl (client-config.ts).
    const insecure = withoutCredentials(kc);
    if (insecure) delete headers['Authorization'];
    return { url, headers, options, auth: options.auth && !insecure ? options.auth : undefined };
  };

  return {
    server,
    async get(path, { signal, accept }) {
      const { url, headers, options, auth } = await resolve(path, signal, accept);
      if (isDirect(options.agent)) return direct.get({ url, headers, tls: tlsOf(options), signal, ...(auth ? { auth } : {}) });
      // A proxy agent (or none): client-node's own, as it made it.
      const request = url.protocol === 'http:' ? httpRequest : httpsRequest;
      return new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(url, { method: 'GET', headers, signal, ...(options.agent !== undefined ? { agent: options.agent } : {}), ...(auth ? { auth } : {}) }, resolve);
        req.on('error', reject);
        req.end();
      });
    },
    ...(reader
      ? {
          async watchLines(path: string, { signal, accept }: { signal: AbortSignal; accept?: string }): Promise<LineStream | undefined> {
            if (!reader.available()) return undefined;
            const { url, headers, options, auth } = await resolve(path, signal, accept);
            if (!isDirect(options.agent)) return undefined;
            try {
              return await reader.open({ url: url.href, headers, tls: tlsOf(options), ...(auth ? { auth } : {}), http2: transportOptions.http2 !== false }, signal);
            } catch (error) {
              if (error instanceof ReaderUnavailable) return undefined;
              throw error;
            }
          },
        }
      : {}),
    renewCredentials() {
      kc = loadClientConfig(config);
    },
    close() {
      direct.close();
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
 * Streams newline-delimited JSON (lines.ts): calls `onLine` per non-blank line (bare "\n" lines
 * are keep-alives) and `onData` per chunk. Resolves when the server ends the stream, rejects when
 * the connection breaks or `onLine` throws (the response is then destroyed).
 */
export function readLines(response: IncomingMessage, onLine: (line: string) => void, onData: () => void = () => undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = new LineSplitter();
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      response.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    response.on('data', (chunk: Buffer | string) => {
      onData();
      lines.push(chunk, (line) => {
        if (settled) return false;
        try {
          onLine(line);
          return true;
        } catch (error) {
          fail(error);
          return false;
        }
      });
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

function retryAfterOf(retryAfterHeader: unknown, status: unknown): number | undefined {
  const header = Number.parseInt(String(retryAfterHeader ?? ''), 10);
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

/** The non-2xx answer whose body is `text`, as an ApiStatusError carrying the server's message. */
export function failureFromText(answer: { statusCode: number; statusMessage?: string; retryAfter?: unknown }, text: string): ApiStatusError {
  const code = answer.statusCode;
  let status: unknown;
  try {
    status = JSON.parse(text);
  } catch {
    status = { message: text.trim().slice(0, 500) || `HTTP ${code} ${answer.statusMessage ?? ''}`.trim() };
  }
  const error = statusError({ ...(status as object), code }, code);
  const retryAfterMs = retryAfterOf(answer.retryAfter, status);
  return retryAfterMs === undefined ? error : new ApiStatusError(error.status, error.reason, error.message, retryAfterMs);
}

/** Reads a non-2xx response into an ApiStatusError carrying the server's message. */
export async function failureOf(response: IncomingMessage, onData?: () => void): Promise<ApiStatusError> {
  const text = await readBody(response, onData).catch(() => '');
  return failureFromText({ statusCode: response.statusCode ?? 0, statusMessage: response.statusMessage ?? '', retryAfter: response.headers['retry-after'] }, text);
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
