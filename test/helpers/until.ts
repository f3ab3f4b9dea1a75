/** Waiting in tests for something another process or timer does. */

export interface UntilOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Ask again this often (default 50 ms). */
  pollMs?: number;
}

/** Asks `check` until it gives a value (not undefined), and returns it; throws naming `what` after the timeout. */
export async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, options: UntilOptions = {}): Promise<T> {
  const end = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 50));
  }
}
