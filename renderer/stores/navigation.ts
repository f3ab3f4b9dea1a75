/**
 * Which screen is showing. The location hash (`#/settings`) is the source of truth, so reload,
 * back/forward and deep links work without a router.
 */
import { defineStore } from 'pinia';
import { computed, onScopeDispose, ref } from 'vue';
import { DEFAULT_VIEW, VIEWS, type ViewId } from '../views/index.ts';

/** Parameters of a screen (which workload, which time), kept in the hash's query: `#/id?k=v`. */
export type ViewParams = Readonly<Record<string, string>>;

/** The screen a hash names, or null when it names none. Accepts `#/id`, `#id` and `#/id?k=v`. */
export function viewFromHash(hash: string): ViewId | null {
  const id = hash.replace(/^#\/?/, '').split('?')[0];
  return VIEWS.find((view) => view.id === id)?.id ?? null;
}

/** The parameters in a hash's query part (empty when there is none). */
export function paramsFromHash(hash: string): ViewParams {
  const query = hash.split('?')[1];
  return query ? Object.fromEntries(new URLSearchParams(query)) : {};
}

function hashOf(id: ViewId, params: ViewParams = {}): string {
  const query = new URLSearchParams(params).toString();
  return query ? `#/${id}?${query}` : `#/${id}`;
}

/** The current screen, kept in step with `location.hash`. */
export const useNavigationStore = defineStore('navigation', () => {
  const initial = viewFromHash(window.location.hash);
  const current = ref<ViewId>(initial ?? DEFAULT_VIEW);
  const params = ref<ViewParams>(initial ? paramsFromHash(window.location.hash) : {});
  // An unknown or empty hash is rewritten in place (no history entry), so Back does not
  // land on a page that only bounces forward again.
  if (window.location.hash !== hashOf(current.value, params.value)) {
    window.history.replaceState(window.history.state, '', hashOf(current.value, params.value));
  }

  const entry = computed(() => VIEWS.find((view) => view.id === current.value) ?? VIEWS[0]);

  function onHashChange(): void {
    const id = viewFromHash(window.location.hash);
    if (id) {
      current.value = id;
      params.value = paramsFromHash(window.location.hash);
    } else window.history.replaceState(window.history.state, '', hashOf(current.value, params.value));
  }
  window.addEventListener('hashchange', onHashChange);
  onScopeDispose(() => window.removeEventListener('hashchange', onHashChange));

  /**
   * Shows screen `id` with `params` (e.g. which workload), adding a history entry so Back
   * returns to the previous screen.
   */
  function go(id: ViewId, next: ViewParams = {}): void {
    const hash = hashOf(id, next);
    if (hash === hashOf(current.value, params.value)) return;
    current.value = id;
    params.value = { ...next };
    window.location.hash = hash;
  }

  return { current, params, entry, go };
});
