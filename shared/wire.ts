/**
 * Framing of the contract over the browser shell's WebSocket. The socket carries requests with
 * ids, their Results, and stream subscriptions; payloads inside are checked by the contract.
 * Schema-free so the renderer bundle stays small; the server checks frames with `wire-schema.ts`.
 */

/** Path of the WebSocket endpoint; the page passes its token as `?token=`. */
export const WS_PATH = '/ws';

export type ClientMessage =
  | { t: 'req'; id: number; channel: string; payload: unknown }
  | { t: 'sub'; stream: string }
  | { t: 'unsub'; stream: string };

export type ServerMessage =
  | { t: 'res'; id: number; result: unknown }
  | { t: 'evt'; stream: string; payload: unknown }
  | { t: 'error'; message: string };
