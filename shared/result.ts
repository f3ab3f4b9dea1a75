/**
 * The `Result` shape every request across the IPC contract answers with. The engine never
 * throws across the boundary: failures travel as `{ ok: false, error }`.
 */
import { z } from 'zod';

/** Machine-readable failure kinds; the UI picks wording and remedies by these. */
export const ERROR_CODES = [
  'invalid-request',
  'unknown-channel',
  'not-found',
  'kubeconfig',
  'unreachable',
  'tls',
  'unauthorized',
  'forbidden',
  'unavailable',
  'transport',
  'internal',
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const KdErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  detail: z.string().optional(),
});
export type KdError = z.infer<typeof KdErrorSchema>;

export type Ok<T> = { ok: true; value: T };
export type Err = { ok: false; error: KdError };
export type Result<T> = Ok<T> | Err;

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function err(code: ErrorCode, message: string, detail?: string): Err {
  return detail === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, detail } };
}

/** Schema of a Result carrying `value`, for checking answers that arrive over a wire. */
export function resultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: KdErrorSchema }),
  ]);
}
