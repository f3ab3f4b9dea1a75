/** Per-test Pinia and fake engine for the history view tests. */
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach } from 'vitest';
import { link, setApi } from '../../../../renderer/api/index.ts';
import { createFakeApi, type FakeApi, type Handlers } from '../fake-api.ts';

export interface TestPinia {
  readonly pinia: Pinia;
}

/** A fresh Pinia per test (disposed after it), an open engine link, and the hash at `hash`. */
export function usePiniaPerTest(hash = '#/overview'): TestPinia {
  const holder = { pinia: undefined as unknown as Pinia };
  beforeEach(() => {
    window.history.replaceState(null, '', hash);
    link.value = { state: 'open' };
    holder.pinia = createPinia();
    setActivePinia(holder.pinia);
  });
  afterEach(() => disposePinia(holder.pinia));
  return holder;
}

/** Installs a fake engine answering `handlers` (and the defaults of fake-api.ts). */
export function installApi(handlers: Handlers = {}): FakeApi {
  const api = createFakeApi(handlers);
  setApi(api);
  return api;
}
