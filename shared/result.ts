/**
 * The `Result` shape every request across the IPC contract answers with. The engine never
 * throws across the boundary: failures travel as `{ ok: false, error }`. Kept free of zod so the
 * renderer's transports do not pull a schema library into the bundle; the runtime schemas live in
 * `result-schema.ts`.
 */

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

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface KdError {
  code: ErrorCode;
  message: string;
  detail?: string;
}

export type Ok<T> = { ok: true; value: T };
export type Err = { ok: false; error: KdError };
export type Result<T> = Ok<T> | Err;

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function err(code: ErrorCode, message: string, detail?: string): Err {
  return detail === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, detail } };
}
