/**
 * A collected heap between scenarios. The event loop turns first: a server the scenario before
 * closed keeps its listening handle, and through the handle's owner everything its handlers
 * reach, until the loop's close phase has run. A stopped 50,000-pod simulator (~330 MB) stayed
 * through the next scenario when that one never yielded (a graph build: 521 MB of heap where 97
 * were its own, and builds ~1.6x slower).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Turns the event loop once, then collects (with `--expose-gc`; otherwise only the turn). */
export async function collectBetweenScenarios(): Promise<void> {
  await sleep(0);
  (globalThis as { gc?: () => void }).gc?.();
}
