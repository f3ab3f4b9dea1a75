/**
 * User settings: the theme, how history is recorded and kept, whether the desktop app checks
 * for updates (with what its last check found, `updates:status`), each context's kind
 * exclusions and the user's status rules. The chosen theme is applied
 * as `data-theme` and `color-scheme` on <html>; "system" follows the OS through
 * prefers-color-scheme, live.
 */
import { defineStore } from 'pinia';
import { computed, onScopeDispose, ref, shallowRef, watchEffect } from 'vue';
import type { UserStatusRule } from '../../shared/contracts/status-rules.ts';
import type { UpdateStatus } from '../../shared/contracts/updates.ts';
import { DEFAULT_KIND_EXCLUSIONS, type KindExclusionList } from '../../shared/kind-exclusions.ts';
import type { Settings, Theme } from '../../shared/model.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { follow } from './live.ts';

export type ResolvedTheme = 'light' | 'dark';

/** The history settings `settings:update` accepts. */
export type HistorySettings = Pick<Settings, 'historyRecording' | 'historyRetentionDays' | 'historyMaxBytes' | 'historyStore' | 'historyTakeoverSeconds'>;

const DARK_QUERY = '(prefers-color-scheme: dark)';
/**
 * The last theme seen, so the first paint of the next start already has it instead of
 * flashing the OS theme until the engine answers. The engine's settings stay the truth.
 */
const THEME_CACHE_KEY = 'kubedrift.theme';
const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

function cachedTheme(): Theme {
  try {
    const value = window.localStorage.getItem(THEME_CACHE_KEY);
    return THEMES.find((theme) => theme === value) ?? 'system';
  } catch {
    return 'system';
  }
}

function cacheTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_CACHE_KEY, theme);
  } catch {
    // Storage can be unavailable (private mode, quota); the cache is only a first-paint nicety.
  }
}

/** Puts a resolved theme on the document, where theme.css picks it up. */
export function applyTheme(theme: ResolvedTheme, root: HTMLElement = document.documentElement): void {
  root.dataset['theme'] = theme;
  root.style.colorScheme = theme;
}

/** Settings from the engine; applies the theme to the document as it changes. */
export const useSettingsStore = defineStore('settings', () => {
  const settings = shallowRef<Settings | null>(null);
  const theme = ref<Theme>(cachedTheme());
  const loadError = shallowRef<KdError | null>(null);
  const saveError = shallowRef<KdError | null>(null);
  /** The desktop app's last update check; stays null in the browser shell, which never checks. */
  const updateStatus = shallowRef<UpdateStatus | null>(null);

  const media = window.matchMedia(DARK_QUERY);
  const systemDark = ref(media.matches);
  const onMediaChange = (event: MediaQueryListEvent): void => {
    systemDark.value = event.matches;
  };
  media.addEventListener('change', onMediaChange);
  onScopeDispose(() => media.removeEventListener('change', onMediaChange));

  const resolvedTheme = computed<ResolvedTheme>(() =>
    theme.value === 'system' ? (systemDark.value ? 'dark' : 'light') : theme.value,
  );

  watchEffect(() => applyTheme(resolvedTheme.value));

  function apply(value: Settings): void {
    settings.value = value;
    theme.value = value.theme;
    cacheTheme(value.theme);
  }

  follow<Settings>({
    load: () => api().request('settings:get', {}),
    subscribe: (listener) => api().subscribe('settings:changed', listener),
    apply,
    setError: (error) => {
      loadError.value = error;
    },
  });

  const stopUpdates = api().subscribe('updates:status', (status) => {
    updateStatus.value = status;
  });
  onScopeDispose(stopUpdates);

  /**
   * Switches the theme at once and saves it. If the engine refuses, the previous theme comes
   * back and `saveError` says why.
   */
  async function setTheme(next: Theme): Promise<void> {
    const previous = theme.value;
    theme.value = next;
    saveError.value = null;
    const result = await api().request('settings:update', { theme: next });
    if (result.ok) {
      apply(result.value);
    } else {
      theme.value = previous;
      saveError.value = result.error;
    }
  }

  /** Saves history settings; resolves to the engine's refusal, or null once saved. */
  async function setHistory(patch: HistorySettings): Promise<KdError | null> {
    const result = await api().request('settings:update', patch);
    if (!result.ok) return result.error;
    apply(result.value);
    return null;
  }

  /** Turns the desktop app's update checks on or off; resolves to the engine's refusal, or null once saved. */
  async function setUpdateChecks(on: boolean): Promise<KdError | null> {
    const result = await api().request('settings:update', { updateChecks: on });
    if (!result.ok) return result.error;
    apply(result.value);
    return null;
  }

  /** A context's kind exclusion rules and whether they are its own or the defaults. */
  function exclusionsOf(context: string): { rules: KindExclusionList; own: boolean } {
    const own = settings.value?.kindExclusions?.[context];
    return own ? { rules: own, own: true } : { rules: DEFAULT_KIND_EXCLUSIONS, own: false };
  }

  /** Saves a context's exclusion rules (null: back to the defaults); resolves to the engine's refusal, or null once saved. */
  async function setKindExclusions(context: string, rules: KindExclusionList | null): Promise<KdError | null> {
    const result = await api().request('settings:update', { kindExclusions: { context, rules } });
    if (!result.ok) return result.error;
    apply(result.value);
    return null;
  }

  /** The namespaces the user added by hand for a context (Cluster screen). */
  function accessibleNamespacesOf(context: string): readonly string[] {
    return settings.value?.accessibleNamespaces?.[context] ?? [];
  }

  /** Saves a context's hand-added namespaces (empty: forget them); resolves to the engine's refusal, or null once saved. */
  async function setAccessibleNamespaces(context: string, namespaces: string[]): Promise<KdError | null> {
    const result = await api().request('settings:update', { accessibleNamespaces: { context, namespaces } });
    if (!result.ok) return result.error;
    apply(result.value);
    return null;
  }

  /** The user's status rules, for every objectStatus call that takes `userRules`. */
  const statusRules = computed<readonly UserStatusRule[]>(() => settings.value?.statusRules ?? []);

  /** Saves the user's status rules; resolves to the engine's refusal, or null once saved. */
  async function setStatusRules(rules: UserStatusRule[]): Promise<KdError | null> {
    const result = await api().request('settings:update', { statusRules: rules });
    if (!result.ok) return result.error;
    apply(result.value);
    return null;
  }

  return { settings, theme, resolvedTheme, loadError, saveError, updateStatus, statusRules, setTheme, setHistory, setUpdateChecks, exclusionsOf, setKindExclusions, accessibleNamespacesOf, setAccessibleNamespaces, setStatusRules };
});
