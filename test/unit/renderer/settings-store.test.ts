// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import type { Settings } from '../../../shared/model.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { setApi } from '../../../renderer/api/index.ts';
import { useSettingsStore } from '../../../renderer/stores/settings.ts';
import { createFakeApi, type FakeApi, type Handlers } from './fake-api.ts';

/** A prefers-color-scheme query the test can flip, as the OS would. */
function fakeColorScheme(dark: boolean): { flip(next: boolean): void } {
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const query = {
    matches: dark,
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
  };
  vi.spyOn(window, 'matchMedia').mockReturnValue(query as unknown as MediaQueryList);
  return {
    flip(next) {
      query.matches = next;
      for (const listener of listeners) listener({ matches: next } as MediaQueryListEvent);
    },
  };
}

function settings(theme: Settings['theme']): Settings {
  return { theme, lastContext: null };
}

let pinia: Pinia;

async function startStore(handlers: Handlers): Promise<{ api: FakeApi; store: ReturnType<typeof useSettingsStore> }> {
  const api = createFakeApi(handlers);
  setApi(api);
  const store = useSettingsStore();
  await flushPromises();
  return { api, store };
}

function appliedTheme(): { theme: string | undefined; colorScheme: string } {
  const root = document.documentElement;
  return { theme: root.dataset['theme'], colorScheme: root.style.colorScheme };
}

beforeEach(() => {
  window.localStorage.clear();
  delete document.documentElement.dataset['theme'];
  pinia = createPinia();
  setActivePinia(pinia);
});

afterEach(() => {
  disposePinia(pinia);
  vi.restoreAllMocks();
});

describe('settings store', () => {
  it('applies the saved theme as data-theme and color-scheme on <html>', async () => {
    fakeColorScheme(false);
    await startStore({ 'settings:get': () => ok(settings('dark')) });
    expect(appliedTheme()).toEqual({ theme: 'dark', colorScheme: 'dark' });
  });

  it('follows the operating system while the theme is "system"', async () => {
    const os = fakeColorScheme(true);
    const { store } = await startStore({ 'settings:get': () => ok(settings('system')) });
    expect(appliedTheme().theme).toBe('dark');
    os.flip(false);
    await flushPromises();
    expect(appliedTheme().theme).toBe('light');
    expect(store.resolvedTheme).toBe('light');
  });

  it('ignores the operating system once a fixed theme is chosen', async () => {
    const os = fakeColorScheme(false);
    await startStore({ 'settings:get': () => ok(settings('light')) });
    os.flip(true);
    await flushPromises();
    expect(appliedTheme().theme).toBe('light');
  });

  it('applies a new choice before the engine confirms it, and saves it through settings:update', async () => {
    fakeColorScheme(false);
    let confirm: (value: Result<Settings>) => void = () => {};
    const { api, store } = await startStore({
      'settings:get': () => ok(settings('system')),
      'settings:update': () => new Promise((resolve) => (confirm = resolve)),
    });
    const saving = store.setTheme('dark');
    await nextTick();
    expect(appliedTheme().theme).toBe('dark');
    expect(api.calls).toContainEqual({ channel: 'settings:update', payload: { theme: 'dark' } });
    confirm(ok(settings('dark')));
    await saving;
    expect(store.theme).toBe('dark');
    expect(store.saveError).toBeNull();
  });

  it('switches when settings:changed arrives from the engine', async () => {
    fakeColorScheme(false);
    const { api } = await startStore({ 'settings:get': () => ok(settings('light')) });
    api.emit('settings:changed', settings('dark'));
    await flushPromises();
    expect(appliedTheme().theme).toBe('dark');
  });

  it('restores the previous theme and keeps the reason when the engine refuses to save', async () => {
    fakeColorScheme(false);
    const { store } = await startStore({
      'settings:get': () => ok(settings('light')),
      'settings:update': () => err('internal', 'EACCES: permission denied, open settings.json'),
    });
    await store.setTheme('dark');
    expect(appliedTheme().theme).toBe('light');
    expect(store.saveError?.message).toBe('EACCES: permission denied, open settings.json');
  });

  it('starts from the last theme seen, before the engine answers', async () => {
    fakeColorScheme(false);
    window.localStorage.setItem('kubedrift.theme', 'dark');
    setApi(createFakeApi({ 'settings:get': () => new Promise(() => {}) }));
    useSettingsStore();
    await flushPromises();
    expect(appliedTheme().theme).toBe('dark');
  });
});
