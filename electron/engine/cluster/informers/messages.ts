/**
 * Failure messages for the status bar: what happened, named so a user can act on it (which
 * server, which status, the server's own words).
 */
import type { KindKey } from '../../../../shared/cluster.ts';
import { codeOf } from './error-code.ts';
import { ApiStatusError } from './http.ts';


/** One sentence (or two) for a failed list or watch of `kind` on `server`. */
export function describeFailure(error: unknown, server: string, kind: KindKey): string {
  if (error instanceof ApiStatusError) {
    switch (error.status) {
      case 401:
        return `${server} rejected the credentials (401 Unauthorized): ${error.message}. Log in again or check the kubeconfig user.`;
      case 429:
        return `${server} is throttling requests (429 Too Many Requests); retrying${error.retryAfterMs !== undefined ? ` in ${Math.ceil(error.retryAfterMs / 1000)} s` : ''}.`;
      default:
        return `${server} answered ${error.status}${error.reason ? ` ${error.reason}` : ''} for ${kind}: ${error.message}`;
    }
  }
  const code = codeOf(error);
  const text = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || code === 'EAI_AGAIN') return `Cannot reach ${server} (${code}).`;
  if (code === 'ECONNRESET') return `${server} dropped the ${kind} connection (ECONNRESET).`;
  if (code?.startsWith('ERR_TLS') || /certificate|self[- ]signed|SSL/i.test(text)) return `TLS with ${server} failed: ${text}`;
  return `Lost the ${kind} connection to ${server}: ${text}`;
}
