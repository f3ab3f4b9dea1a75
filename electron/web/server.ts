/**
 * The browser shell: serves the built renderer and carries the IPC contract over a WebSocket.
 * Loopback only; the page and the socket both need the per-run token, the socket also a
 * loopback Origin on our port, so other sites and other users' processes get nothing.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClusterFrame } from '../../shared/cluster.ts';
import type { StreamChannel } from '../../shared/contract.ts';
import { WS_PATH, type ServerMessage } from '../../shared/wire.ts';
import type { Engine } from '../engine/engine.ts';
import { frameText } from '../engine/stream/frames.ts';
import { resolveStatic, sendFile } from './static.ts';
import { allowedHostHeader, allowedOrigin, createToken, isLoopbackHost, tokenMatches } from './token.ts';
import { refusalPage } from './refusal.ts';
import { FramesFlow } from './frames-flow.ts';
import { sendMessage, serveContractSocket } from './contract-socket.ts';

/** Largest client message accepted; contract requests are small. */
export const MAX_CLIENT_MESSAGE_BYTES = 1024 * 1024;

export interface WebServerOptions {
  engine: Pick<Engine, 'dispatch' | 'hub'>;
  staticDir: string;
  host?: string;
  port?: number;
  token?: string;
}

export interface WebServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /**
   * Unsent bytes of the slowest client still getting `cluster:frames`: the frame stream's
   * `backlog` probe, so it paces itself to what the pages can take (see frames-flow.ts).
   */
  framesBacklog(): number;
  close(): Promise<void>;
}

function contentSecurityPolicy(hostHeader: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ws://${hostHeader}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function refuse(res: ServerResponse, status: number, title: string, body: string): void {
  const html = refusalPage(title, body);
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    'Cache-Control': 'no-store',
  });
  res.end(html);
}

/**
 * `JSON.stringify({ t: 'evt', stream, payload })`. A frame's text was made when the frame stream
 * measured it (see frameText), so the bulk of the traffic is not serialised a second time here.
 */
export function eventText(stream: StreamChannel, payload: unknown): string {
  if (stream !== 'cluster:frames') return JSON.stringify({ t: 'evt', stream, payload } satisfies ServerMessage);
  return `{"t":"evt","stream":${JSON.stringify(stream)},"payload":${frameText(payload as ClusterFrame)}}`;
}

function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`refusing to listen on ${host}: the browser shell serves loopback addresses only`);
  const token = options.token ?? createToken();
  const staticDir = path.resolve(options.staticDir);
  const { engine } = options;
  let port = 0;

  const server = http.createServer((req, res) => {
    void handleHttp(req, res);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  const subscriptions = new Map<WebSocket, Set<StreamChannel>>();
  const framesFlow = new FramesFlow<WebSocket>({
    requestSnapshot: (reason) => void engine.dispatch('cluster:resync', { reason }),
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHostHeader(req.headers.host, port)) {
      refuse(res, 403, 'Host not allowed', 'Kubedrift answers only on its loopback address.');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (!tokenMatches(token, url.searchParams.get('token'))) {
        refuse(
          res,
          403,
          'This link is not valid',
          'Kubedrift needs the exact link it printed when it started (the one ending in <code>?token=…</code>). ' +
            'The token changes on every start; copy the link from the terminal again.',
        );
        return;
      }
      const sent = await sendFile(res, path.join(staticDir, 'index.html'), {
        'Content-Security-Policy': contentSecurityPolicy(req.headers.host ?? ''),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'X-Frame-Options': 'DENY',
      });
      if (!sent) refuse(res, 500, 'The app is not built', `No renderer build in ${staticDir}. Run <code>npm run build</code>.`);
      return;
    }
    const file = resolveStatic(staticDir, url.pathname);
    if (!file || !(await sendFile(res, file, { 'Cache-Control': 'no-cache' }))) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    }
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    if (url.pathname !== WS_PATH) return rejectUpgrade(socket, 404, 'Not Found');
    if (!allowedHostHeader(req.headers.host, port)) return rejectUpgrade(socket, 403, 'Forbidden');
    if (!allowedOrigin(req.headers.origin, port)) return rejectUpgrade(socket, 403, 'Forbidden');
    if (!tokenMatches(token, url.searchParams.get('token'))) return rejectUpgrade(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    const subscribed = new Set<StreamChannel>();
    subscriptions.set(ws, subscribed);
    ws.on('close', () => {
      subscriptions.delete(ws);
      framesFlow.remove(ws);
    });
    serveContractSocket(ws, {
      dispatch: (channel, payload) => engine.dispatch(channel, payload),
      subscribe(stream) {
        subscribed.add(stream);
        if (stream === 'cluster:frames') framesFlow.add(ws);
        const last = engine.hub.last(stream);
        if (last !== undefined) sendMessage(ws, { t: 'evt', stream, payload: last });
      },
      unsubscribe(stream) {
        subscribed.delete(stream);
        if (stream === 'cluster:frames') framesFlow.remove(ws);
      },
    });
  });

  const stopListening = engine.hub.listen((stream, payload) => {
    // Serialised once however many pages listen: frames are the bulk of the traffic.
    let text: string | undefined;
    for (const [ws, streams] of subscriptions) {
      if (!streams.has(stream) || ws.readyState !== ws.OPEN) continue;
      if (stream === 'cluster:frames' && !framesFlow.admit(ws, payload as ClusterFrame)) continue;
      text ??= eventText(stream, payload);
      ws.send(text);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    port,
    token,
    framesBacklog: () => framesFlow.backlog(),
    async close() {
      stopListening();
      framesFlow.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
