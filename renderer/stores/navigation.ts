/**
 * Which screen is showing. The location hash (`#/settings`) is the source of truth, so reload,
 * back/forward and deep links work without a router.
 */
import { defineStore } from 'pinia';
import { computed, onScopeDispose, ref } from 'vue';
import { DEFAULT_VIEW, VIEWS, type ViewId } from '../views/index.ts';

/** The screen a hash names, or null when it names none. Accepts `#/id` and `#id`. */
export function viewFromHash(hash: string): ViewId | null {
  const id = hash.replace(/^#\/?/, '');
  return VIEWS.find((view) => view.id === id)?.id ?? null;
}

function hashOf(id: ViewId): string {
  return `#/${id}`;
}

/** The current screen, kept in step with `location.hash`. */
export const useNavigationStore = defineStore('navigation', () => {
  const current = ref<ViewId>(viewFromHash(window.location.hash) ?? DEFAULT_VIEW);
  // An unknown or empty hash is rewritten in place (no history entry), so Back does not
  // land on a page that only bounces forward again.
  if (window.location.hash !== hashOf(current.value)) {
    window.history.replaceState(window.history.state, '', hashOf(current.value));
  }

  const entry = computed(() => VIEWS.find((view) => view.id === current.value) ?? VIEWS[0]);

  function onHashChange(): void {
    const id = viewFromHash(window.location.hash);
    if (id) current.value = id;
    else window.history.replaceState(window.history.state, '', hashOf(current.value));
  }
  window.addEventListener('hashchange', onHashChange);
  onScopeDispose(() => window.removeEventListener('hashchange', onHashChange));

  /** Shows screen `id`, adding a history entry so Back returns to the previous screen. */
  function go(id: ViewId): void {
    if (id === current.value) return;
    current.value = id;
    window.location.hash = hashOf(id);
  }

  return { current, entry, go };
});
