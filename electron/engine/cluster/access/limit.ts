/**
 * A request limit for the access checks: however many namespaces and kinds a check covers, at
 * most `limit` reviews are in flight, so fifty namespaces do not become hundreds of concurrent
 * POSTs (Lens checked only ten namespaces to avoid that; we check all, a few at a time).
 */
import type { AccessApi } from './api.ts';

/** Reviews in flight at most, as Freelens does its rules reviews. */
export const ACCESS_REVIEW_CONCURRENCY = 5;

/** `api` with at most `limit` requests in flight; queued ones start in order, and none after `signal` aborts. */
export function limitApi(api: AccessApi, limit: number, signal: AbortSignal): AccessApi {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be a positive integer, got ${limit}`);
  let running = 0;
  const waiting: Array<() => void> = [];
  // A finished request hands its slot straight to the next waiter, so a request arriving in
  // between cannot take it too.
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    server: api.server,
    async request(method, path, body) {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else running += 1;
      try {
        signal.throwIfAborted();
        return await api.request(method, path, body);
      } finally {
        release();
      }
    },
  };
}
