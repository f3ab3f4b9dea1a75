// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../../shared/result.ts';
import { link } from '../../../renderer/api/index.ts';
import App from '../../../renderer/App.vue';
import { CONTEXT_LIST } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/overview', openLink: false });

async function settle(): Promise<void> {
  await flushPromises();
  await vi.dynamicImportSettled();
  await flushPromises();
}

function mountApp(): VueWrapper {
  return test.mount(App);
}

describe('App frame', () => {
  it('shows a full-pane message instead of empty data when the engine cannot be reached at start', async () => {
    installApi();
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
    installApi();
    const app = mountApp();
    await settle();
    link.value = { state: 'closed' };
    await settle();
    expect(app.find('[data-testid="engine-offline"]').exists()).toBe(false);
    expect(app.find('[data-testid="engine-lost-banner"]').exists()).toBe(true);
    expect(app.get('[data-testid="overview-context"]').text()).toBe('kind-dev');
  });

  it('asks the engine again once the link is back', async () => {
    const api = installApi();
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
    installApi({
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
    const api = installApi();
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
    installApi();
    const app = mountApp();
    await settle();
    await app.get('[data-testid="nav-settings"]').trigger('click');
    await settle();
    expect(app.get('[data-testid="data-dir"]').text()).toBe('/tmp/kubedrift-data');
    expect(window.location.hash).toBe('#/settings');
  });
});
