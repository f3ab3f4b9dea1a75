/**
 * Asks an API server for `/version` through the real client library (so exec plugins, tokens and
 * client certificates behave as they will for informers) and names the failure precisely.
 */
import { KubeConfig, VersionApi } from '@kubernetes/client-node';
import type { KdError } from '../../../shared/result.ts';

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
  const candidate = error as { code?: unknown; statusCode?: unknown };
  if (typeof candidate.code === 'number') return candidate.code;
  if (typeof candidate.statusCode === 'number') return candidate.statusCode;
  return undefined;
}

function chainText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown };
    if (typeof e.message === 'string') parts.push(e.message);
    if (typeof e.code === 'string') parts.push(e.code);
    current = e.cause;
  }
  return parts.join(' | ');
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
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN|timed out|fetch failed|socket/i.test(text)) {
    return { code: 'unreachable', message: `Cannot reach ${server}`, detail: text };
  }
  if (status !== undefined) return { code: 'unavailable', message: `${server} answered HTTP ${status}`, detail: text };
  return { code: 'unreachable', message: `Cannot talk to ${server}`, detail: text };
}

export async function probeServer(config: object, options: { timeoutMs?: number } = {}): Promise<ProbeSuccess | ProbeFailure> {
  const kc = new KubeConfig();
  let server = 'the API server';
  try {
    kc.loadFromString(JSON.stringify(config));
    server = kc.getCurrentCluster()?.server ?? server;
  } catch (error) {
    return { ok: false, server, error: { code: 'kubeconfig', message: `The kubeconfig for this context is unusable: ${(error as Error).message}` } };
  }
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const info = await Promise.race([kc.makeApiClient(VersionApi).getCode(), timeout]);
    return { ok: true, server, version: info.gitVersion };
  } catch (error) {
    return { ok: false, server, error: classifyProbeError(error, server) };
  } finally {
    clearTimeout(timer);
  }
}
