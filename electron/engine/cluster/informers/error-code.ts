/**
 * Node's error code of a failure, or of the failure it wraps (a socket's ECONNRESET under a
 * request's own error). Loads nothing: the watch reader's worker uses it too.
 */
export function codeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
