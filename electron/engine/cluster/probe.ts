/**
 * Asks an API server for `/version` through the informers' own transport (informers/http.ts:
 * client-node's KubeConfig supplies the TLS material and the auth headers, so exec plugins,
 * tokens and client certificates behave exactly as they will for the informers) and names the
 * failure precisely. Not through client-node's generated client: its fetch (undici) refuses the
 * ports browsers block ("bad port": 6000, 10080, …), where an API server kubectl reaches
 * was then "unreachable" here, and it wraps every failure in a "fetch failed" that said nothing.
 */
import type { KdError } from '../../../shared/result.ts';
import { createTransport, getJson, type Transport } from './informers/http.ts';

export const PROBE_TIMEOUT_MS = 10_000;

export interface ProbeSuccess {
  ok: true;
  server: string;
  version: string;
}
export interface ProbeFailure {
  ok: false;
  server: string;
  error: KdError;
}

function statusOf(error: unknown): number | undefined {
  const candidate = error as { code?: unknown; statusCode?: unknown; status?: unknown };
  if (typeof candidate.code === 'number') return candidate.code;
  if (typeof candidate.statusCode === 'number') return candidate.statusCode;
  if (typeof candidate.status === 'number') return candidate.status;
  return undefined;
}

/** Messages that only say a cause follows (undici's; node's AggregateError has none): left out when one does. */
const WRAPPERS = new Set(['fetch failed', '']);

/**
 * An error and its causes in words, for the detail a user reads: "connect ECONNREFUSED
 * 127.0.0.1:6443", not "fetch failed | connect ECONNREFUSED 127.0.0.1:6443 | ECONNREFUSED".
 * Each error in the chain adds its message unless it only wraps the next one or an earlier part
 * says it already, with its code in parentheses where the message does not name it (or the code
 * alone, where it has no message of its own).
 */
export function chainText(error: unknown): string {
  const parts: string[] = [];
  const said = (text: string): boolean => parts.some((part) => part.includes(text));
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown; errors?: unknown };
    // An AggregateError (a host with several addresses, each refused) has its causes in `errors`.
    const next: unknown = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
    const message = typeof e.message === 'string' ? e.message.trim() : '';
    const code = typeof e.code === 'string' ? e.code : '';
    if (!(next && WRAPPERS.has(message))) {
      if (message && !said(message)) parts.push(code && !message.includes(code) ? `${message} (${code})` : message);
      else if (!message && code && !said(code)) parts.push(code);
    }
    current = next;
  }
  return parts.join(': ');
}

/** The exec credential plugin client-node failed to start, if that is what went wrong. */
function failedSpawn(error: unknown): { command: string; code: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const e = current as { syscall?: unknown; path?: unknown; code?: unknown; cause?: unknown };
    if (typeof e.syscall === 'string' && e.syscall.startsWith('spawn') && typeof e.code === 'string') {
      const command = typeof e.path === 'string' ? e.path : e.syscall.replace(/^spawn\s*/, '');
      return { command, code: e.code };
    }
    current = e.cause;
  }
  return undefined;
}

/** Maps a client error to the contract's error codes with a message a user can act on. */
export function classifyProbeError(error: unknown, server: string): KdError {
  const status = statusOf(error);
  const text = chainText(error);
  const spawnFailure = failedSpawn(error);
  if (spawnFailure?.code === 'ENOENT') {
    return {
      code: 'kubeconfig',
      message: `The credential plugin "${spawnFailure.command}" (the exec command of this context's user) was not found on PATH; install it or add its folder to your login shell's PATH (Diagnostics shows the PATH in use)`,
      detail: text,
    };
  }
  if (spawnFailure) {
    const why = spawnFailure.code === 'EACCES' ? 'is not executable' : `could not be started (${spawnFailure.code})`;
    return { code: 'kubeconfig', message: `The credential plugin "${spawnFailure.command}" ${why}`, detail: text };
  }
  if (status === 401) return { code: 'unauthorized', message: `${server} rejected the credentials (401 Unauthorized)`, detail: text };
  if (status === 403) return { code: 'forbidden', message: `${server} refused access (403 Forbidden)`, detail: text };
  if (/CERT|certificate|self[- ]signed|SSL|TLS|UNABLE_TO_VERIFY|ERR_TLS/i.test(text)) {
    return { code: 'tls', message: `TLS handshake with ${server} failed`, detail: text };
  }
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN|timed out|socket/i.test(text)) {
    return { code: 'unreachable', message: `Cannot reach ${server}`, detail: text };
  }
  if (status !== undefined) return { code: 'unavailable', message: `${server} answered HTTP ${status}`, detail: text };
  return { code: 'unreachable', message: `Cannot talk to ${server}`, detail: text };
}

export async function probeServer(config: object, options: { timeoutMs?: number } = {}): Promise<ProbeSuccess | ProbeFailure> {
  let transport: Transport;
  try {
    transport = createTransport(config);
  } catch (error) {
    return { ok: false, server: 'the API server', error: { code: 'kubeconfig', message: `The kubeconfig for this context is unusable: ${(error as Error).message}` } };
  }
  const server = transport.server || 'the API server';
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const notAnApiServer = (detail?: string): ProbeFailure => ({ ok: false, server, error: { code: 'unavailable', message: `${server} answered /version without a Kubernetes version; is it an API server?`, ...(detail ? { detail } : {}) } });
  try {
    const info = (await getJson(transport, '/version', { signal: controller.signal })) as { gitVersion?: unknown } | null;
    if (typeof info?.gitVersion !== 'string') return notAnApiServer();
    return { ok: true, server, version: info.gitVersion };
  } catch (error) {
    // A 2xx that is not JSON: a web page where the server URL points (a dashboard, a login page).
    if (error instanceof SyntaxError) return notAnApiServer(error.message);
    // Aborted by the timer: the reason is the timeout, whatever the request made of the abort.
    return { ok: false, server, error: classifyProbeError(controller.signal.aborted ? controller.signal.reason : error, server) };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
