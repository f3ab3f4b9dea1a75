/**
 * The moment ages are counted from. Live, that is now (ticking); while the user time-travels,
 * the moment on view; in an opened snapshot, the moment the snapshot was taken — a pod that was
 * 5 minutes old in a snapshot from last week is shown as 5m, not 7d.
 */
import { computed, type ComputedRef } from 'vue';
import { useContextsStore } from '../../stores/contexts.ts';
import { useNow, AGE_TICK_MS } from '../table/clock.ts';

/** `past()` gives the time-travel moment when the screen has one (null while live). */
export function useClusterClock(options: { intervalMs?: number; past?: () => number | null } = {}): ComputedRef<number> {
  const contexts = useContextsStore();
  const clock = useNow(options.intervalMs ?? AGE_TICK_MS);
  return computed(() => options.past?.() ?? contexts.selectedContext?.snapshot?.takenAt ?? clock.value);
}
