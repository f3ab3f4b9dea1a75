/**
 * The engine's side of a history source: a WebSocket client of a recorder (`kubedrift record
 * --listen`) speaking the contract's framing (shared/wire.ts). It sends the token in the
 * Authorization header and the history subprotocol, turns every way of failing into one
 * `SourceFailure` with a code and a sentence (never with the token in it), and checks each answer
 * against the contract's response schema before anyone uses it.
 */
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { requests, type RequestChannel, type ResponseOf } from '../../../../shared/contract.ts';
import {
  HISTORY_SOURCE_CONTEXT_PARAM,
  HISTORY_SOURCE_PROTOCOL,
  HISTORY_SOURCE_PROTOCOL_HEADER,
  type HistorySourceErrorCode,
} from '../../../../shared/contracts/history-sources.ts';
import { resultSchema } from '../../../../shared/result-schema.ts';
import type { Result } from '../../../../shared/result.ts';
import { WS_PATH, type ClientMessage } from '../../../../shared/wire.ts';
import { describeIssues } from '../../dispatcher.ts';

/** How long connecting, and each request, may take. */
export const SOURCE_TIMEOUT_MS = 5_000;
/** Largest answer accepted from a recorder (a page of state-at is the biggest). */
const MAX_ANSWER_BYTES = 64 * 1024 ** 2;
const MAX_REFUSAL_CHARS = 300;

/** A source failed: why, in the user's terms. */
export class SourceFailure extends Error {
  readonly code: HistorySourceErrorCode;
  constructor(code: HistorySourceErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The recorder's WebSocket address for a source URL (`http://h:p` → `ws://h:p/ws?context=…`). */
export function socketUrl(url: string, context: string | null): string {
  const parsed = new URL(url);
  parsed.protocol = parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? 'wss:' : 'ws:';
  if (parsed.pathname === '' || parsed.pathname === '/') parsed.pathname = WS_PATH;
  parsed.hash = '';
  if (context !== null) parsed.searchParams.set(HISTORY_SOURCE_CONTEXT_PARAM, context);
  return parsed.toString();
}

/** A refused upgrade, as the user should read it. */
function refusal(status: number, isRecorder: boolean, body: string, where: string): SourceFailure {
  const said = body.trim().slice(0, MAX_REFUSAL_CHARS);
  if (!isRecorder) return new SourceFailure('not-a-recorder', `${where} answered HTTP ${status}, not as a Kubedrift recorder: check the URL (the recorder's --listen address).`);
  if (status === 401) return new SourceFailure('unauthorized', said || 'The recorder refused the token (wrong or expired).');
  if (status === 400) return new SourceFailure('protocol', said || `The recorder does not speak ${HISTORY_SOURCE_PROTOCOL}.`);
  return new SourceFailure('invalid-answer', said || `The recorder refused the connection (HTTP ${status}).`);
}

function unreachable(error: Error & { code?: string }, where: string): SourceFailure {
  const reason = error.code === 'ECONNREFUSED' ? 'nothing listens there' : error.code === 'ENOTFOUND' ? 'the host name is unknown' : error.message;
  return new SourceFailure('unreachable', `${where} cannot be reached: ${reason}.`);
}

export interface SourceSocket {
  request<C extends RequestChannel>(channel: C, payload: unknown): Promise<Result<ResponseOf<C>>>;
  readonly closed: boolean;
  close(): void;
}

export interface ConnectOptions {
  url: string;
  token: string;
  /** The context the connection reads; null: only `history:recorded`. */
  context: string | null;
  timeoutMs?: number;
}

/** Connects to a recorder; rejects with a SourceFailure. */
export function connectSource(options: ConnectOptions): Promise<SourceSocket> {
  const timeoutMs = options.timeoutMs ?? SOURCE_TIMEOUT_MS;
  const where = new URL(options.url).host;
  const ws = new WebSocket(socketUrl(options.url, options.context), [HISTORY_SOURCE_PROTOCOL], {
    headers: { Authorization: `Bearer ${options.token}` },
    handshakeTimeout: timeoutMs,
    maxPayload: MAX_ANSWER_BYTES,
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: SourceFailure): void; timer: NodeJS.Timeout }>();
  let nextId = 1;
  let closed = false;

  function failAll(error: SourceFailure): void {
    closed = true;
    for (const entry of pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(error);
    }
    pending.clear();
  }

  ws.on('message', (data) => {
    let message: { t?: string; id?: number; result?: unknown; message?: string };
    try {
      message = JSON.parse(data.toString()) as typeof message;
    } catch {
      return;
    }
    if (message.t !== 'res' || typeof message.id !== 'number') return;
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    clearTimeout(entry.timer);
    entry.resolve(message.result);
  });
  ws.on('close', () => failAll(new SourceFailure('unreachable', `The connection to ${where} closed.`)));

  const socket: SourceSocket = {
    get closed() {
      return closed;
    },
    request(channel, payload) {
      if (closed || ws.readyState !== ws.OPEN) return Promise.reject(new SourceFailure('unreachable', `The connection to ${where} closed.`));
      const id = nextId++;
      const raw = new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new SourceFailure('unreachable', `${where} did not answer ${channel} within ${timeoutMs / 1000} s.`));
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer });
      });
      ws.send(JSON.stringify({ t: 'req', id, channel, payload } satisfies ClientMessage));
      return raw.then((value) => {
        const result = resultSchema(requests[channel].response).safeParse(value);
        if (!result.success) throw new SourceFailure('invalid-answer', `${where} answered ${channel} with something the contract does not allow (${describeIssues(result.error)}).`);
        return result.data as Result<ResponseOf<typeof channel>>;
      });
    },
    close() {
      closed = true;
      ws.close();
    },
  };

  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      if (ws.protocol !== HISTORY_SOURCE_PROTOCOL) {
        ws.terminate();
        reject(new SourceFailure('protocol', `${where} did not agree to ${HISTORY_SOURCE_PROTOCOL}.`));
        return;
      }
      resolve(socket);
    });
    ws.once('unexpected-response', (request, response: IncomingMessage) => {
      const isRecorder = response.headers[HISTORY_SOURCE_PROTOCOL_HEADER] !== undefined;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (body.length < MAX_REFUSAL_CHARS) body += chunk;
      });
      const settle = (): void => {
        reject(refusal(response.statusCode ?? 0, isRecorder, body, where));
        request.destroy();
      };
      response.on('end', settle);
      response.on('error', settle);
    });
    ws.once('error', (error: Error & { code?: string }) => {
      closed = true;
      if (/Opening handshake has timed out/.test(error.message)) reject(new SourceFailure('unreachable', `${where} did not answer within ${timeoutMs / 1000} s.`));
      else if (/Server sent (no|an invalid) subprotocol/.test(error.message)) reject(new SourceFailure('protocol', `${where} did not agree to ${HISTORY_SOURCE_PROTOCOL}: not a recorder of this version.`));
      else reject(unreachable(error, where));
    });
  });
}
