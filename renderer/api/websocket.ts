/**
 * The contract over the browser shell's WebSocket. Requests wait for their Result by id; stream
 * subscriptions survive reconnects (re-sent on open); a lost socket turns pending requests into
 * `transport` errors and reconnects with capped backoff.
 */
import type { KubedriftApi, RequestChannel, StreamChannel } from '../../shared/contract.ts';
import { err, type Result } from '../../shared/result.ts';
import { WS_PATH, type ClientMessage, type ServerMessage } from '../../shared/wire.ts';

export type LinkState = 'connecting' | 'open' | 'closed';

export interface WebSocketApiOptions {
  url: string;
  onState?: (state: LinkState, detail?: string) => void;
  createSocket?: (url: string) => WebSocket;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

/** Builds the socket URL from the page's own address and token. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host' | 'search'>): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WS_PATH}?token=${encodeURIComponent(token)}`;
}

export function createWebSocketApi(options: WebSocketApiOptions): KubedriftApi {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let socket: WebSocket | null = null;
  let nextId = 1;
  let backoff = RECONNECT_MIN_MS;
  const queue: ClientMessage[] = [];

  function post(message: ClientMessage): void {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    // Subscriptions are re-sent from `listeners` on open; only requests wait in the queue.
    else if (message.t === 'req') queue.push(message);
  }

  function connect(): void {
    options.onState?.('connecting');
    const ws = createSocket(options.url);
    socket = ws;
    ws.addEventListener('open', () => {
      backoff = RECONNECT_MIN_MS;
      options.onState?.('open');
      for (const stream of listeners.keys()) ws.send(JSON.stringify({ t: 'sub', stream } satisfies ClientMessage));
      for (const message of queue.splice(0)) ws.send(JSON.stringify(message));
    });
    ws.addEventListener('message', (event) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data)) as ServerMessage;
      } catch {
        return;
      }
      if (message.t === 'res') {
        pending.get(message.id)?.(message.result as Result<unknown>);
        pending.delete(message.id);
      } else if (message.t === 'evt') {
        for (const listener of listeners.get(message.stream) ?? []) listener(message.payload);
      } else {
        console.warn(`[kubedrift] engine: ${message.message}`);
      }
    });
    ws.addEventListener('close', (event) => {
      if (socket !== ws) return;
      socket = null;
      for (const resolve of pending.values()) resolve(err('transport', 'The connection to the Kubedrift engine was lost'));
      pending.clear();
      const refused = event.code === 1006 && !event.wasClean;
      options.onState?.('closed', refused ? 'The engine is not answering' : `Connection closed (${event.code})`);
      setTimer(connect, backoff);
      backoff = Math.min(backoff * 2, RECONNECT_MAX_MS);
    });
  }

  connect();

  return {
    request(channel: RequestChannel, payload: unknown) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: Result<unknown>) => void);
        post({ t: 'req', id, channel, payload });
      });
    },
    subscribe(stream: StreamChannel, listener: (payload: never) => void) {
      let set = listeners.get(stream);
      if (!set) {
        set = new Set();
        listeners.set(stream, set);
        post({ t: 'sub', stream });
      }
      const entry = listener as (payload: unknown) => void;
      set.add(entry);
      return () => {
        const current = listeners.get(stream);
        if (!current) return;
        current.delete(entry);
        if (current.size === 0) {
          listeners.delete(stream);
          post({ t: 'unsub', stream });
        }
      };
    },
  } as KubedriftApi;
}
