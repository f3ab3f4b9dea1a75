/**
 * A recorder's history, served read-only over the browser shell's WebSocket framing
 * (`kubedrift record --listen`). Unlike the browser shell it may listen beyond loopback (a pod),
 * so every connection needs a bearer token in its Authorization header (never in the URL, where
 * proxies log it), checked in constant time against the current token file, and the history
 * subprotocol (shared/contracts/history-sources.ts). A connection names the context it reads
 * with `?context=`; one without reads only the list of recorded contexts. Every refusal says why
 * in its body and carries the protocol header, so the app can tell a recorder from other servers.
 */
import http, { type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { HISTORY_SOURCE_CONTEXT_PARAM, HISTORY_SOURCE_PROTOCOL, HISTORY_SOURCE_PROTOCOL_HEADER } from '../../shared/contracts/history-sources.ts';
import type { Result } from '../../shared/result.ts';
import { WS_PATH } from '../../shared/wire.ts';
import { serveContractSocket } from './contract-socket.ts';
import { MAX_CLIENT_MESSAGE_BYTES } from './server.ts';
import { tokenMatches } from './token.ts';

export interface HistoryServerOptions {
  host: string;
  port: number;
  /** The tokens accepted now (re-read per connection, so a rotated file takes effect at once). */
  tokens(): readonly string[];
  /** The recorded contexts a connection may name. */
  contexts: readonly string[];
  /** Answers one connection's requests: `context` is the one it named, null for none. */
  dispatch(context: string | null, channel: string, payload: unknown): Promise<Result<unknown>>;
}

export interface HistoryServer {
  readonly port: number;
  close(): Promise<void>;
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found' };

/** Ends an upgrade with a plain-text reason the app shows as the source's error. */
function refuse(socket: Duplex, status: number, message: string, extra: Record<string, string> = {}): void {
  const body = `${message}\n`;
  const headers = {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    [HISTORY_SOURCE_PROTOCOL_HEADER]: HISTORY_SOURCE_PROTOCOL,
    Connection: 'close',
    ...extra,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n${head}\r\n\r\n${body}`);
}

/** The bearer token of a request, or null. */
function bearer(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** Compares against every accepted token, without stopping at the first match (constant time per token). */
function accepted(tokens: readonly string[], given: string): boolean {
  let found = false;
  for (const token of tokens) found = tokenMatches(token, given) || found;
  return found;
}

export async function startHistoryServer(options: HistoryServerOptions): Promise<HistoryServer> {
  const recorded = new Set(options.contexts);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_MESSAGE_BYTES,
    handleProtocols: (protocols) => (protocols.has(HISTORY_SOURCE_PROTOCOL) ? HISTORY_SOURCE_PROTOCOL : false),
  });
  const server = http.createServer((req, res) => {
    const body = "This is a Kubedrift recorder's history. Add this address in the app under Settings → History sources, with its token.\n";
    res.writeHead(req.url === '/' ? 200 : 404, { 'Content-Type': 'text/plain; charset=utf-8', [HISTORY_SOURCE_PROTOCOL_HEADER]: HISTORY_SOURCE_PROTOCOL }).end(body);
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://recorder');
    if (url.pathname !== WS_PATH) return refuse(socket, 404, `A Kubedrift recorder serves its history at ${WS_PATH}, not ${url.pathname.slice(0, 80)}.`);
    const token = bearer(req);
    if (token === null) return refuse(socket, 401, 'This recorder needs a token: send it as "Authorization: Bearer <token>".', { 'WWW-Authenticate': 'Bearer' });
    if (!accepted(options.tokens(), token)) {
      return refuse(socket, 401, 'This recorder refused the token: it is wrong, or it was replaced in the recorder\'s token file (expired).', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
    const asked = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((value) => value.trim()).filter(Boolean);
    if (!asked.includes(HISTORY_SOURCE_PROTOCOL)) {
      const theirs = asked.length > 0 ? asked.join(', ').slice(0, 120) : 'none';
      return refuse(socket, 400, `This recorder speaks ${HISTORY_SOURCE_PROTOCOL}; the app asked for ${theirs}. Use an app and a recorder of matching versions.`);
    }
    const context = url.searchParams.get(HISTORY_SOURCE_CONTEXT_PARAM);
    if (context !== null && !recorded.has(context)) {
      return refuse(socket, 404, `This recorder does not record context "${context.slice(0, 253)}"; it records ${[...recorded].join(', ')}.`);
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveContractSocket(ws, { dispatch: (channel, payload) => options.dispatch(context, channel, payload) }));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
