/**
 * Runs work when the page has nothing more urgent: a background-priority task where the browser
 * has the Prioritized Task Scheduling API (Chromium: it runs after input, rendering and normal
 * tasks, and does not wait for a frame's idle period, so a chain of short slices keeps going),
 * requestIdleCallback otherwise (with a timeout, so a page that is never idle still gets it
 * done), a timer where neither exists.
 */
import { onScopeDispose } from 'vue';
import type { IdleScheduler } from './live-rows.ts';

/** Longest a task waits for an idle moment, in ms. */
const IDLE_TIMEOUT_MS = 2_000;

interface BackgroundScheduler {
  postTask(callback: () => void, options: { priority: 'background' }): Promise<unknown>;
}

/** Schedules `task` for an idle moment. */
export const whenIdle: IdleScheduler = (task) => {
  const page = globalThis as { scheduler?: BackgroundScheduler; requestIdleCallback?: (callback: () => void, options: { timeout: number }) => number };
  if (page.scheduler?.postTask) void page.scheduler.postTask(task, { priority: 'background' });
  else if (page.requestIdleCallback) page.requestIdleCallback(() => task(), { timeout: IDLE_TIMEOUT_MS });
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
