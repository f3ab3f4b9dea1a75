// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../../shared/result.ts';
import { link, setApi } from '../../../renderer/api/index.ts';
import App from '../../../renderer/App.vue';
import { CONTEXT_LIST, createFakeApi, type FakeApi, type Handlers } from './fake-api.ts';

let pinia: Pinia;
let wrapper: VueWrapper | undefined;

async function settle(): Promise<void> {
  await flushPromises();
  await vi.dynamicImportSettled();
  await flushPromises();
}

function mountApp(): VueWrapper {
  wrapper = mount(App, { global: { plugins: [pinia] } });
  return wrapper;
}

function useFakeApi(handlers: Handlers = {}): FakeApi {
  const api = createFakeApi(handlers);
  setApi(api);
  return api;
}

beforeEach(() => {
  window.history.replaceState(null, '', '#/overview');
  pinia = createPinia();
  setActivePinia(pinia);
});

afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  disposePinia(pinia);
});

describe('App frame', () => {
  it('shows a full-pane message instead of empty data when the engine cannot be reached at start', async () => {
    useFakeApi();
    link.value = { state: 'closed', detail: 'The engine is not answering' };
    const app = mountApp();
    await settle();
    expect(app.get('[data-testid="engine-offline"]').text()).toContain('The engine is not answering');
    expect(app.find('[data-testid="overview"]').exists()).toBe(false);
    expect(app.get('[data-testid="engine-link"]').text()).toBe('Engine disconnected — reconnecting…');
    // The transport retrying must not swap the message for empty views and back.
    link.value = { state: 'connecting' };
    await settle();
    expect(app.find('[data-testid="engine-offline"]').exists()).toBe(true);
  });

  it('keeps the last data on screen with a notice when the engine link drops later', async () => {
    useFakeApi();
    const app = mountApp();
    await settle();
    link.value = { state: 'closed' };
    await settle();
    expect(app.find('[data-testid="engine-offline"]').exists()).toBe(false);
    expect(app.find('[data-testid="engine-lost-banner"]').exists()).toBe(true);
    expect(app.get('[data-testid="overview-context"]').text()).toBe('kind-dev');
  });

  it('asks the engine again once the link is back', async () => {
    const api = useFakeApi();
    mountApp();
    await settle();
    const lists = () => api.calls.filter((call) => call.channel === 'contexts:list').length;
    expect(lists()).toBe(1);
    link.value = { state: 'closed' };
    await settle();
    link.value = { state: 'connecting' };
    await settle();
    link.value = { state: 'open' };
    await settle();
    expect(lists()).toBe(2);
  });

  it('shows every kubeconfig file with its state and the line of a parse error on the Cluster screen', async () => {
    window.history.replaceState(null, '', '#/cluster');
    useFakeApi({
      'contexts:list': () =>
        ok({
          ...CONTEXT_LIST,
          sources: [
            { path: '/home/me/.kube/config', state: 'loaded' },
            { path: '/home/me/.kube/broken.yaml', state: 'error', message: 'invalid YAML: unexpected end of flow map', line: 6 },
            { path: '/home/me/.kube/gone.yaml', state: 'missing' },
          ],
        }),
    });
    const app = mountApp();
    await settle();
    const sources = app.findAll('[data-testid="kubeconfig-source"]');
    expect(sources.map((source) => source.attributes('data-state'))).toEqual(['loaded', 'error', 'missing']);
    expect(sources[1]?.text()).toContain('line 6');
    expect(sources[1]?.text()).toContain('invalid YAML: unexpected end of flow map');
  });

  it('switches context when a row of the contexts table is clicked, on the Cluster screen', async () => {
    const api = useFakeApi();
    const app = mountApp();
    await settle();
    await app.get('[data-testid="nav-cluster"]').trigger('click');
    await settle();
    await app.get('[data-testid="context-row"][data-context="staging-eu"]').trigger('click');
    await settle();
    expect(api.calls).toContainEqual({ channel: 'contexts:select', payload: { name: 'staging-eu' } });
    expect(app.get('[data-testid="cluster-context"]').text()).toBe('staging-eu');
    await app.get('[data-testid="nav-overview"]').trigger('click');
    await settle();
    expect(app.get('[data-testid="overview-context"]').text()).toBe('staging-eu');
  });

  it('opens Settings from the sidebar and shows the data directory', async () => {
    useFakeApi();
    const app = mountApp();
    await settle();
    await app.get('[data-testid="nav-settings"]').trigger('click');
    await settle();
    expect(app.get('[data-testid="data-dir"]').text()).toBe('/tmp/kubedrift-data');
    expect(window.location.hash).toBe('#/settings');
  });
});
