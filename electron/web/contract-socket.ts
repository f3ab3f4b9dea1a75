/**
 * The contract over one WebSocket (framing: shared/wire.ts): parses each client message, hands
 * requests to `dispatch` (which validates the payload against the contract) and sends back their
 * Results by id. Stream subscriptions go to the caller's `subscribe` / `unsubscribe`; a server
 * without streams (a recorder's history) leaves them out and the client is told so. Shared by the
 * browser shell (server.ts) and the recorder's history server (history-server.ts).
 */
import type { WebSocket } from 'ws';
import type { StreamChannel } from '../../shared/contract.ts';
import { isStreamChannel } from '../../shared/contract.ts';
import type { Result } from '../../shared/result.ts';
import type { ServerMessage } from '../../shared/wire.ts';
import { ClientMessageSchema } from '../../shared/wire-schema.ts';

export interface ContractSocketOptions {
  dispatch(channel: string, payload: unknown): Promise<Result<unknown>>;
  /** A valid stream subscription; absent: this server pushes no streams. */
  subscribe?(stream: StreamChannel): void;
  unsubscribe?(stream: StreamChannel): void;
}

/** Sends one message when the socket is still open (a closed one drops it). */
export function sendMessage(ws: WebSocket, message: ServerMessage): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

/** Answers the contract's requests on `ws` until it closes. */
export function serveContractSocket(ws: WebSocket, options: ContractSocketOptions): void {
  ws.on('message', (data, isBinary) => {
    if (isBinary) return sendMessage(ws, { t: 'error', message: 'binary frames are not part of the protocol' });
    let raw: unknown;
    try {
      raw = JSON.parse(data.toString());
    } catch {
      return sendMessage(ws, { t: 'error', message: 'message is not JSON' });
    }
    const parsed = ClientMessageSchema.safeParse(raw);
    if (!parsed.success) return sendMessage(ws, { t: 'error', message: 'message does not follow the protocol' });
    const message = parsed.data;
    if (message.t === 'req') {
      void options.dispatch(message.channel, message.payload).then((result) => sendMessage(ws, { t: 'res', id: message.id, result }));
      return;
    }
    if (!isStreamChannel(message.stream)) return sendMessage(ws, { t: 'error', message: `unknown stream ${message.stream.slice(0, 80)}` });
    if (!options.subscribe || !options.unsubscribe) return sendMessage(ws, { t: 'error', message: 'this server answers requests only; it pushes no streams' });
    if (message.t === 'sub') options.subscribe(message.stream);
    else options.unsubscribe(message.stream);
  });
}
