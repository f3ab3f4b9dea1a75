/**
 * Runs an async function over items with at most `limit` in flight, in order of the items. The
 * first rejection (or an abort) stops starting new work and rejects once the running ones settle,
 * so no request outlives the discovery that started it.
 */
export async function mapBounded<T>(items: readonly T[], limit: number, signal: AbortSignal, fn: (item: T) => Promise<void>): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be a positive integer, got ${limit}`);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && failure === undefined) {
      if (signal.aborted) {
        failure = { error: signal.reason };
        return;
      }
      const item = items[next] as T;
      next += 1;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
}
