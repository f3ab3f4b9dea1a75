/**
 * A wall clock for AGE columns. Ages are formatted per visible cell at render time from this
 * one ref, so a tick re-renders the few dozen rows on screen, never re-derives the table.
 */
import { onScopeDispose, ref, type Ref } from 'vue';

/** kubectl ages show seconds for the first two minutes, so a second is the coarsest tick that reads right. */
export const AGE_TICK_MS = 1_000;

/** Date.now(), refreshed every `intervalMs` while the calling component lives. */
export function useNow(intervalMs: number = AGE_TICK_MS): Ref<number> {
  const now = ref(Date.now());
  const timer = setInterval(() => {
    now.value = Date.now();
  }, intervalMs);
  onScopeDispose(() => clearInterval(timer));
  return now;
}
