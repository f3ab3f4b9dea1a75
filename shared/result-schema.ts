/** Runtime schemas of `Result` values, for checking answers that arrive over a wire. */
import { z } from 'zod';
import { ERROR_CODES } from './result.ts';

export const ErrorCodeSchema = z.enum(ERROR_CODES);

export const KdErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  detail: z.string().optional(),
});

/** Schema of a Result carrying `value`. */
export function resultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: KdErrorSchema })]);
}
