/** Runtime schema of the browser shell's client frames (see wire.ts). */
import { z } from 'zod';
import type { ClientMessage } from './wire.ts';

export const ClientMessageSchema: z.ZodType<ClientMessage> = z.discriminatedUnion('t', [
  z.object({ t: z.literal('req'), id: z.number().int().nonnegative(), channel: z.string(), payload: z.unknown() }),
  z.object({ t: z.literal('sub'), stream: z.string() }),
  z.object({ t: z.literal('unsub'), stream: z.string() }),
]);
