/** The browser shell's per-run secret: random, compared in constant time. */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export function createToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for the loopback names and the whole 127.0.0.0/8 range. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * A request's Host header must name a loopback address on our port (blocks DNS rebinding);
 * an Origin, when sent, must be that same loopback origin.
 */
export function allowedHostHeader(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader);
  if (!match) return false;
  return isLoopbackHost(match[1] ?? '') && Number(match[2] ?? 80) === port;
}

export function allowedOrigin(origin: string | undefined, port: number): boolean {
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && isLoopbackHost(url.hostname) && Number(url.port || 80) === port;
  } catch {
    return false;
  }
}
