/**
 * The simulated API server's HTTP(S) front: per-run TLS, optional bearer tokens, fault
 * injection, and Kubernetes `Status` bodies for every failure (a bad request never takes the
 * server down). HTTP/1.1 by default; with `http2` also HTTP/2 over ALPN as kube-apiserver
 * serves it (http2-front.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { attachCrdController } from '../crd/controller.ts';
import { ApiError, internalError } from '../errors.ts';
import { AccessControl } from '../rbac/access-control.ts';
import { issueClientCertificate, type ClientCertificate } from '../rbac/client-certificates.ts';
import type { LegacyTokens } from '../rbac/identity.ts';
import { seedAccessPolicy } from '../rbac/seed.ts';
import type { ObjectStore } from '../store.ts';
import { warningHeaderValue } from '../validation/field-validation.ts';
import type { ApiRequest, Reply, ServerContext } from './context.ts';
import { DEFAULT_KUBERNETES_MINOR } from './discovery.ts';
import { dispatch } from './dispatch.ts';
import type { ApiExtensions } from './extensions.ts';
import { Faults } from './faults.ts';
import { createHttp2Server, DEFAULT_HTTP2_MAX_STREAMS } from './http2-front.ts';
import { kubeconfigFor } from './kubeconfig.ts';
import { notFoundPath, parseRoute } from './router.ts';
import { StreamedBody, writeStreamed } from './streamed-body.ts';
import { createCertificates } from './tls.ts';
import { DEFAULT_BOOKMARK_INTERVAL_MS, DEFAULT_WATCH_BUFFER_LIMIT_BYTES } from './watch-stream.ts';

/** kube-apiserver's request body limit. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Written into kubeconfigs of servers without tokens: kubectl prompts for a username over HTTPS
 * when the kubeconfig user has no credentials at all, and such a server accepts any token.
 */
export const OPEN_ACCESS_TOKEN = 'kubedrift-simcluster';

/** Options of `startApiServer`. */
export interface ApiServerOptions {
  store: ObjectStore;
  extensions: ApiExtensions;
  /** 0 or unset: any free port. */
  port?: number;
  host?: '127.0.0.1';
  /** HTTPS with a per-run CA (default); false serves plain HTTP. */
  tls?: boolean;
  /** Require a token: the read-write one is the cluster admin, the read-only one may only read. */
  tokens?: LegacyTokens;
  /**
   * Write the default RBAC policy (cluster-admin, admin, edit, view, discovery...) into the store
   * at start, as kube-apiserver's bootstrap does. startSimCluster always does; a bare server does
   * only when it requires tokens (its anonymous /version needs system:public-info-viewer).
   */
  seedAccessPolicy?: boolean;
  /** The minor version `/version` reports (the gcloud kubectl dispatcher picks its build by it). */
  kubernetesMinor?: number;
  now?: () => number;
  bookmarkIntervalMs?: number;
  /** The WatchList feature gate (watches with sendInitialEvents); on by default. */
  watchList?: boolean;
  /** Bytes a watch may fall behind before the server closes it. */
  watchBufferLimitBytes?: number;
  /** Also serve HTTP/2 (ALPN h2 + http/1.1, as kube-apiserver); TLS only. Default off. */
  http2?: boolean;
  /** SETTINGS_MAX_CONCURRENT_STREAMS per HTTP/2 connection (default 1000, kube-apiserver's). */
  http2MaxStreams?: number;
}

/** A running simulated API server. */
export interface ApiServer {
  /** `https://127.0.0.1:PORT` (or http://). */
  readonly url: string;
  readonly port: number;
  /** The CA that signed the serving certificate (TLS only). */
  readonly caPem?: string;
  /** A kubeconfig for this server with the read-write token, if any. */
  kubeconfig(contextName?: string): string;
  readonly faults: Faults;
  /** Authentication and authorization: add token users, issue ServiceAccount tokens. */
  readonly access: AccessControl;
  /** A client certificate signed by the server's CA (CN = user, O = groups); TLS servers only. */
  clientCertificate(user: string, groups: readonly string[]): Promise<ClientCertificate>;
  close(): Promise<void>;
  /** Cuts every connection and listens again on the same port with the same store. */
  restart(): Promise<void>;
  /** TCP connections open now and accepted since the start (an HTTP/2 connection carries many requests). */
  connections(): { open: number; accepted: number };
  /** The HTTP/2 sessions open now; to test a client's recovery, `goaway()` or `destroy()` them. */
  http2Sessions(): Array<{ goaway(code?: number): void; destroy(): void }>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${MAX_BODY_BYTES}`, {}));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function send(res: ServerResponse, reply: Reply): Promise<void> {
  const headers = { 'Content-Type': reply.contentType ?? 'application/json', 'Cache-Control': 'no-cache, private', 'Audit-Id': randomUUID(), ...reply.headers };
  if (reply.warnings?.length) res.setHeader('Warning', [...new Set(reply.warnings)].map(warningHeaderValue));
  if (reply.body instanceof StreamedBody) return writeStreamed(res, reply.code, headers, reply.body);
  const body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
  res.writeHead(reply.code, { ...headers, 'Content-Length': String(body.length) });
  res.end(body);
}

function sendError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const apiError = error instanceof ApiError ? error : internalError(error instanceof Error ? error.message : String(error));
  const retryAfter = apiError.details?.retryAfterSeconds;
  const headers: Record<string, string> = retryAfter && (apiError.code === 429 || apiError.code >= 500) ? { 'Retry-After': String(retryAfter) } : {};
  void send(res, { code: apiError.code, body: apiError.toStatus(), headers });
}

async function handleRequest(ctx: ServerContext, access: AccessControl, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const delayMs = ctx.faults.delayFor(method, url.pathname);
    if (delayMs > 0) await sleep(delayMs);
    const failure = ctx.faults.takeFailure(method, url.pathname);
    if (failure) throw failure;
    const route = parseRoute(url.pathname, ctx.store.types);
    // Authentication and authorization come first, for paths that do not exist too (rbac/).
    const identity = access.identify(req, route?.kind === 'version' || route?.kind === 'health');
    const attributes = access.authorize(identity, method, url);
    const rawBody = BODY_METHODS.has(method) ? await readBody(req) : Buffer.alloc(0);
    const served = access.serve(identity, attributes, rawBody);
    if (served) return await send(res, served);
    if (!route) throw notFoundPath();
    const apiRequest: ApiRequest = { method, path: url.pathname, query: url.searchParams, headers: req.headers, body: rawBody.toString('utf8'), rawBody, user: identity.name };
    const reply = dispatch(ctx, apiRequest, route, res);
    if (reply) await send(res, reply);
  } catch (error) {
    try {
      sendError(res, error);
    } catch {
      res.destroy();
    }
  }
}

/** Starts the server on 127.0.0.1 (a free port unless `port` is given) and resolves once it listens. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const host = options.host ?? '127.0.0.1';
  const certificates = options.tls === false ? undefined : await createCertificates();
  const faults = new Faults(options.store);
  // The apiextensions controllers serve what the store's CRDs define (idempotent per store).
  attachCrdController(options.store, options.now ? { now: options.now } : {});
  let port = options.port ?? 0;
  const ctx: ServerContext = {
    store: options.store,
    extensions: options.extensions,
    now: options.now ?? Date.now,
    faults,
    kubernetesMinor: options.kubernetesMinor ?? DEFAULT_KUBERNETES_MINOR,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS,
    watchList: options.watchList ?? true,
    watchBufferLimitBytes: options.watchBufferLimitBytes ?? DEFAULT_WATCH_BUFFER_LIMIT_BYTES,
    serverAddress: () => `${host}:${port}`,
  };
  const access = new AccessControl({ store: options.store, now: ctx.now, ...(options.tokens ? { legacy: options.tokens } : {}) });
  if (options.seedAccessPolicy ?? Boolean(options.tokens?.readWrite || options.tokens?.readOnly)) seedAccessPolicy(options.store);
  const handler = (req: IncomingMessage, res: ServerResponse): void => void handleRequest(ctx, access, req, res);

  if (options.http2 && !certificates) throw new Error('HTTP/2 needs a TLS server (kube-apiserver offers h2 only through ALPN)');
  const sockets = new Set<Socket>();
  let accepted = 0;
  const sessions = new Set<{ goaway(code?: number): void; destroy(): void; once(event: 'close', listener: () => void): unknown }>();
  const create = (): Server | Http2SecureServer => {
    let server: Server | Http2SecureServer;
    if (certificates && options.http2) {
      const h2 = createHttp2Server(certificates, options.http2MaxStreams ?? DEFAULT_HTTP2_MAX_STREAMS, handler);
      h2.on('session', (session) => {
        sessions.add(session);
        session.once('close', () => sessions.delete(session));
      });
      server = h2;
    } else if (certificates) {
      // Client certificates are asked for, not required; the CA's signature makes one an identity.
      server = createHttpsServer({ key: certificates.keyPem, cert: certificates.certPem, ca: certificates.caPem, requestCert: true, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, handler);
    } else {
      server = createHttpServer(handler);
    }
    server.on('connection', (socket: Socket) => {
      accepted += 1;
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    server.on('clientError', (_error: Error, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
    return server;
  };
  const listen = (server: Server | Http2SecureServer): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  const shutdown = (server: Server | Http2SecureServer): Promise<void> =>
    new Promise((resolve) => {
      faults.cutWatches();
      server.close(() => resolve());
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
    });

  let server = create();
  await listen(server);
  port = (server.address() as AddressInfo).port;
  const url = `${certificates ? 'https' : 'http'}://${host}:${port}`;
  let closed = false;

  return {
    url,
    port,
    ...(certificates ? { caPem: certificates.caPem } : {}),
    faults,
    access,
    clientCertificate(user, groups) {
      if (!certificates) return Promise.reject(new Error('client certificates need a TLS server'));
      // TLS checks validity against the real clock, not the simulated one.
      return issueClientCertificate({ caPem: certificates.caPem, caKeyPem: certificates.caKeyPem, user, groups });
    },
    kubeconfig: (contextName?: string) =>
      kubeconfigFor({ server: url, ...(certificates ? { caPem: certificates.caPem } : {}), token: options.tokens?.readWrite ?? OPEN_ACCESS_TOKEN, ...(contextName ? { contextName } : {}) }),
    connections: () => ({ open: sockets.size, accepted }),
    http2Sessions: () => [...sessions],
    async close() {
      if (closed) return;
      closed = true;
      await shutdown(server);
    },
    async restart() {
      if (closed) throw new Error('the API server is closed');
      await shutdown(server);
      server = create();
      await listen(server);
    },
  };
}
