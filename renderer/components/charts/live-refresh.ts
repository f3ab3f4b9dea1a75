/**
 * Keeps a history view that ends "now" (a preset range) current without polling: the recorder's
 * status stream says when new samples or episodes were written, and the view re-asks at most
 * once per `minIntervalMs`. Custom ranges are fixed and never refresh by themselves.
 */
import { onScopeDispose, watch } from 'vue';
import { useHistoryStore } from '../../stores/history.ts';
import type { RangeSelection } from './time-range.ts';

export const LIVE_REFRESH_MS = 5_000;

export function useLiveRefresh(selection: () => RangeSelection, reload: () => void, minIntervalMs = LIVE_REFRESH_MS): void {
  const history = useHistoryStore();
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | null = null;

  function fire(): void {
    timer = null;
    last = Date.now();
    reload();
  }

  watch(
    () => [history.status?.samples, history.status?.episodes],
    () => {
      if (selection().choice === 'custom' || timer !== null) return;
      const wait = last + minIntervalMs - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
  );

  onScopeDispose(() => {
    if (timer !== null) clearTimeout(timer);
  });
}
