// @vitest-environment happy-dom
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useNavigationStore, viewFromHash } from '../../../renderer/stores/navigation.ts';

let pinia: Pinia;

function setHash(hash: string): void {
  window.history.replaceState(null, '', hash === '' ? window.location.pathname : hash);
}

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});

afterEach(() => {
  disposePinia(pinia);
  setHash('');
});

describe('navigation store', () => {
  it('reads the screen from the hash, with or without the slash', () => {
    expect(viewFromHash('#/settings')).toBe('settings');
    expect(viewFromHash('#overview')).toBe('overview');
    expect(viewFromHash('#/timeline-of-nothing')).toBeNull();
    expect(viewFromHash('')).toBeNull();
  });

  it('opens the screen a deep link names', () => {
    setHash('#/settings');
    expect(useNavigationStore().current).toBe('settings');
  });

  it('falls back to the overview for an unknown hash and rewrites it', () => {
    setHash('#/nope');
    const navigation = useNavigationStore();
    expect(navigation.current).toBe('overview');
    expect(window.location.hash).toBe('#/overview');
  });

  it('writes the hash when going to a screen', () => {
    const navigation = useNavigationStore();
    navigation.go('settings');
    expect(window.location.hash).toBe('#/settings');
    expect(navigation.entry.label).toBe('Settings');
  });

  it('follows hash changes from Back/Forward', () => {
    const navigation = useNavigationStore();
    setHash('#/settings');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(navigation.current).toBe('settings');
  });
});
