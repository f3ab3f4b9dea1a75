/**
 * Runs work when the page is idle: requestIdleCallback where the browser has it (with a timeout,
 * so a page that is never idle still gets it done), a timer otherwise.
 */
import { onScopeDispose } from 'vue';
import type { IdleScheduler } from './live-rows.ts';

/** Longest a task waits for an idle moment, in ms. */
const IDLE_TIMEOUT_MS = 2_000;

/** Schedules `task` for an idle moment. */
export const whenIdle: IdleScheduler = (task) => {
  const idle = (globalThis as { requestIdleCallback?: (callback: () => void, options: { timeout: number }) => number }).requestIdleCallback;
  if (idle) idle(() => task(), { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(task, 0);
};

/** An idle scheduler for a component: tasks still waiting when it unmounts are dropped. */
export function useIdle(): IdleScheduler {
  let live = true;
  onScopeDispose(() => (live = false));
  return (task) =>
    whenIdle(() => {
      if (live) task();
    });
}
