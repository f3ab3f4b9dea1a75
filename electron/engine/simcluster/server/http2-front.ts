/**
 * The simulated API server's HTTP/2 front, as kube-apiserver serves it: TLS with ALPN offering
 * `h2` and `http/1.1` (a client that cannot speak h2 still gets HTTP/1.1 on the same port), a
 * per-connection limit on concurrent streams, and the same request handler for both through
 * node's compatibility API. Two HTTP/1.1 habits of the handlers are translated here so they keep
 * one code path: connection headers (Transfer-Encoding) do not exist in HTTP/2, and "destroy the
 * response" must cut that one stream (RST_STREAM), not the whole connection.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { constants, createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';

/**
 * Streams one HTTP/2 connection may carry at once. kube-apiserver sets
 * `--http2-max-streams-per-connection` to 1000 unless told otherwise (golang's own default is 250).
 */
export const DEFAULT_HTTP2_MAX_STREAMS = 1000;

/**
 * Memory (MB) a connection's HTTP/2 session may hold before node refuses its new streams with
 * RST_STREAM ENHANCE_YOUR_CALM. Node counts data queued to be sent, so at its default (10 MB) one
 * watch more than 10 MB behind made every other request on the connection fail - a re-watch, a
 * list, a probe - before the slow-watch bound (16 MB, watch-stream.ts) closed that watch. Go's
 * HTTP/2 server, kube-apiserver's, has no such refusal: a slow stream is bounded by flow control
 * and by the cacher closing the watch. What a watch queues stays bounded here by its own bound.
 */
export const HTTP2_SESSION_MEMORY_MB = 1024;

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2); node throws on them. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** PEM material of the serving certificate. */
export interface ServingTls {
  keyPem: string;
  certPem: string;
  caPem: string;
}

function withoutConnectionHeaders(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CONNECTION_HEADERS.has(name.toLowerCase())));
}

/**
 * Makes an HTTP/2 compatibility response behave as the handlers expect of an HTTP/1.1 one:
 * connection headers are dropped, and `destroy()` resets the stream with INTERNAL_ERROR - what
 * Go's HTTP/2 server sends when a handler aborts (kube-apiserver cutting one watch). A plain
 * compat `destroy()` would end the stream cleanly, which a client cannot tell from a normal end.
 */
export function adaptHttp2Response(res: Http2ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (code: number, headers?: OutgoingHttpHeaders) => Http2ServerResponse;
  res.writeHead = ((code: number, headers?: OutgoingHttpHeaders) => writeHead(code, headers ? withoutConnectionHeaders(headers) : headers)) as typeof res.writeHead;
  res.destroy = ((): Http2ServerResponse => {
    if (!res.stream.closed && !res.stream.destroyed) res.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    return res;
  }) as typeof res.destroy;
}

/**
 * An HTTPS server speaking HTTP/2 and HTTP/1.1 (ALPN), asking for client certificates as the
 * HTTP/1.1 server does. `handler` sees HTTP/2 requests through the compatibility API.
 */
export function createHttp2Server(tls: ServingTls, maxStreams: number, handler: (req: IncomingMessage, res: ServerResponse) => void): Http2SecureServer {
  const server = createSecureServer(
    { key: tls.keyPem, cert: tls.certPem, ca: tls.caPem, requestCert: true, rejectUnauthorized: false, allowHTTP1: true, maxSessionMemory: HTTP2_SESSION_MEMORY_MB, settings: { maxConcurrentStreams: maxStreams } },
    (req: Http2ServerRequest, res: Http2ServerResponse) => {
      if (req.httpVersionMajor === 2) adaptHttp2Response(res);
      // The handlers read only what both APIs share (method, url, headers, socket, write/end/close).
      handler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    },
  );
  // A client that breaks its session must not take the server down; its streams close with it.
  server.on('sessionError', () => undefined);
  return server;
}
