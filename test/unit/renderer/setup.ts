/**
 * Per-test set-up the renderer view and store tests share: a fresh Pinia (disposed after the
 * test), the engine link open, optionally a starting hash and the fake animation frames the
 * cluster store batches on, and mounting with that Pinia so every mounted component is
 * unmounted after its test. `installApi` puts a fake engine (fake-api.ts) behind `api()`.
 */
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach } from 'vitest';
import type { Component } from 'vue';
import { link, setApi } from '../../../renderer/api/index.ts';
import { installFakeFrames, type FakeFrames } from './cluster-fixtures.ts';
import { createFakeApi, type FakeApi, type Handlers } from './fake-api.ts';

/** Options of `useRendererTest`. */
export interface RendererTestOptions {
  /** The location hash set before each test (the navigation store reads it). */
  hash?: string;
  /** Whether each test starts with the engine link open (default true; false leaves it as it is). */
  openLink?: boolean;
  /** Install fake animation frames for each test (read them through `frames`). */
  frames?: boolean;
}

/** Options of `RendererTest.mount`. */
export interface MountOptions {
  props?: Record<string, unknown>;
  attachTo?: HTMLElement;
}

/** What the current test runs with; read inside tests and hooks. */
export interface RendererTest {
  readonly pinia: Pinia;
  /** The fake animation frames (only with `frames: true`). */
  readonly frames: FakeFrames;
  /** Mounts `component` with this test's Pinia; it is unmounted after the test. */
  mount(component: Component, options?: MountOptions): VueWrapper;
}

/** Registers the per-test `beforeEach`/`afterEach`; call it at the top of a test file. */
export function useRendererTest(options: RendererTestOptions = {}): RendererTest {
  let pinia: Pinia | undefined;
  let frames: FakeFrames | undefined;
  let mounted: VueWrapper[] = [];

  beforeEach(() => {
    if (options.hash !== undefined) window.history.replaceState(null, '', options.hash);
    if (options.openLink ?? true) link.value = { state: 'open' };
    pinia = createPinia();
    setActivePinia(pinia);
    if (options.frames) frames = installFakeFrames();
  });

  afterEach(() => {
    // A test may unmount one itself (to mount it again); unmounting twice only warns, so skip those.
    for (const wrapper of mounted) if (!wrapper.vm.$.isUnmounted) wrapper.unmount();
    mounted = [];
    if (pinia) disposePinia(pinia);
    frames?.restore();
    frames = undefined;
  });

  return {
    get pinia() {
      if (!pinia) throw new Error('no Pinia outside a test');
      return pinia;
    },
    get frames() {
      if (!frames) throw new Error('fake frames are installed only with useRendererTest({ frames: true }), inside a test');
      return frames;
    },
    mount(component, mountOptions = {}) {
      const wrapper = mount(component, { ...mountOptions, global: { plugins: [this.pinia] } }) as VueWrapper;
      mounted.push(wrapper);
      return wrapper;
    },
  };
}

/** Installs a fake engine answering `handlers` (and the defaults of fake-api.ts). */
export function installApi(handlers: Handlers = {}): FakeApi {
  const api = createFakeApi(handlers);
  setApi(api);
  return api;
}
