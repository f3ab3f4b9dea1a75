/**
 * Framing of the contract over the browser shell's WebSocket. The socket carries requests with
 * ids, their Results, and stream subscriptions; payloads inside are checked by the contract.
 */
import { z } from 'zod';

/** Path of the WebSocket endpoint; the page passes its token as `?token=`. */
export const WS_PATH = '/ws';

export const ClientMessageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('req'), id: z.number().int().nonnegative(), channel: z.string(), payload: z.unknown() }),
  z.object({ t: z.literal('sub'), stream: z.string() }),
  z.object({ t: z.literal('unsub'), stream: z.string() }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export type ServerMessage =
  | { t: 'res'; id: number; result: unknown }
  | { t: 'evt'; stream: string; payload: unknown }
  | { t: 'error'; message: string };
