/**
 * GETs over direct connections to one API server (no proxy): a keep-alive agent for HTTP/1.1 and,
 * over TLS, HTTP/2 when the server picks it by ALPN (http2-sessions.ts), both made anew when the
 * TLS material changes (an exec plugin may rotate the client certificate). The transport
 * (http.ts) sends its direct requests here once client-node has resolved the credentials; the
 * watch reader's worker (watch-reader-worker.ts) sends its watches here from the credentials the
 * transport resolved for it. So this module loads neither client-node nor anything of the
 * engine's: only Node's own modules.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import { Http2Sessions, type Http2SessionsOptions } from './http2-sessions.ts';

/** The TLS material client-node puts on request options (cluster CA, client certificates). */
export const TLS_FIELDS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'servername', 'rejectUnauthorized'] as const;

/** The TLS material of request options, as connection options (values that can cross to a worker). */
export function tlsOf(options: Partial<Record<(typeof TLS_FIELDS)[number], unknown>>): ConnectionOptions {
  return Object.fromEntries(TLS_FIELDS.filter((f) => options[f] !== undefined).map((f) => [f, options[f]])) as ConnectionOptions;
}

function tlsMaterialKey(tls: ConnectionOptions): string {
  return TLS_FIELDS.map((field) => {
    const value: unknown = tls[field];
    return Buffer.isBuffer(value) || value instanceof Uint8Array ? Buffer.from(value).toString('base64') : String(value);
  }).join('|');
}

/** One direct GET: the URL, the headers (credentials included) and the TLS material. */
export interface DirectRequest {
  url: URL;
  headers: OutgoingHttpHeaders;
  tls: ConnectionOptions;
  /** `user:password` of basic auth, when the kubeconfig has one and it may be sent. */
  auth?: string;
  signal: AbortSignal;
}

/** Sends direct GETs; `close` ends every connection it made. */
export interface DirectSender {
  get(request: DirectRequest): Promise<IncomingMessage>;
  close(): void;
}

/** Options of `createDirectSender`. */
export interface DirectSenderOptions {
  /** Offer HTTP/2 by ALPN on TLS connections (default true). */
  http2?: boolean;
  /** The HTTP/2 sessions' keep-alive pings. */
  http2Sessions?: Http2SessionsOptions;
}

/**
 * client-node's agents do not keep connections alive, so each list page would pay a new TLS
 * handshake: the sender uses its own keep-alive agent with the same TLS material.
 */
export function createDirectSender(server: string, options: DirectSenderOptions = {}): DirectSender {
  let agent: { key: string; agent: HttpAgent } | undefined;
  const agents = new Set<HttpAgent>();
  let sessions: { key: string; sessions: Http2Sessions } | undefined;
  const http2 = server.startsWith('https:') && options.http2 !== false;

  const agentFor = (protocol: string, tls: ConnectionOptions): HttpAgent => {
    const key = `${protocol}|${tlsMaterialKey(tls)}`;
    if (agent?.key !== key) {
      const made = protocol === 'https:' ? new HttpsAgent({ ...tls, keepAlive: true }) : new HttpAgent({ keepAlive: true });
      agents.add(made);
      agent = { key, agent: made };
    }
    return agent.agent;
  };

  const sessionsFor = (tls: ConnectionOptions): Http2Sessions => {
    const key = tlsMaterialKey(tls);
    if (sessions?.key !== key) {
      // Streams open on the old material finish; new requests use the new one.
      sessions?.sessions.close(true);
      sessions = { key, sessions: new Http2Sessions(new URL(server).origin, tls, options.http2Sessions ?? {}) };
    }
    return sessions.sessions;
  };

  return {
    async get({ url, headers, tls, auth, signal }) {
      if (http2 && url.protocol === 'https:') {
        const pool = sessionsFor(tls);
        if ((await pool.protocol(signal)) === 'h2') {
          const sent = auth ? { ...headers, Authorization: `Basic ${Buffer.from(auth).toString('base64')}` } : headers;
          return pool.get(`${url.pathname}${url.search}`, sent, signal);
        }
      }
      const request = url.protocol === 'http:' ? httpRequest : httpsRequest;
      const via = agentFor(url.protocol, tls);
      return new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(url, { method: 'GET', headers, signal, agent: via, ...(auth ? { auth } : {}) }, resolve);
        req.on('error', reject);
        req.end();
      });
    },
    close() {
      sessions?.sessions.close();
      sessions = undefined;
      for (const made of agents) made.destroy();
      agents.clear();
      agent = undefined;
    },
  };
}
