/** The app itself: what the engine says about it (app:info) and the state of the link to it. */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { AppInfo } from '../../shared/model.ts';
import type { KdError } from '../../shared/result.ts';
import { api, link } from '../api/index.ts';

/** App info from the engine and the health of the link to it (`linkDown`, `engineLost`…). */
export const useAppStore = defineStore('app', () => {
  const info = shallowRef<AppInfo | null>(null);
  const error = shallowRef<KdError | null>(null);
  /** Whether the engine link has ever been open: tells "cannot start" from "lost it". */
  const linkEverOpen = ref(false);
  /**
   * From the first close until the link is open again. The transport cycles closed/connecting
   * while it retries; keying the UI on this instead of the raw state keeps it from flickering.
   */
  const linkDown = ref(false);

  const linkState = computed(() => link.value.state);
  const linkDetail = computed(() => link.value.detail);
  /** The engine was never reached: the views would only show emptiness, so say why instead. */
  const engineUnreachable = computed(() => linkDown.value && !linkEverOpen.value);
  /** The engine was reached before and the link is down now: data on screen may be stale. */
  const engineLost = computed(() => linkDown.value && linkEverOpen.value);

  async function load(): Promise<void> {
    const result = await api().request('app:info', {});
    if (result.ok) {
      info.value = result.value;
      error.value = null;
    } else {
      error.value = result.error;
    }
  }

  watch(
    linkState,
    (state) => {
      if (state === 'closed') linkDown.value = true;
      if (state === 'open') {
        linkEverOpen.value = true;
        linkDown.value = false;
      }
      // app:info has no stream: fetched once, and again if that answer was lost with the link.
      if (state === 'open' && !info.value && error.value) void load();
    },
    { immediate: true },
  );
  void load();

  return { info, error, linkEverOpen, linkDown, linkState, linkDetail, engineUnreachable, engineLost, load };
});
