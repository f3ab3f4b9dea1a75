// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostics } from '../../../shared/diagnostics.ts';
import { err, ok } from '../../../shared/result.ts';
import { link, setApi } from '../../../renderer/api/index.ts';
import DiagnosticsView from '../../../renderer/views/diagnostics/DiagnosticsView.vue';
import { pathEntries } from '../../../renderer/views/diagnostics/use-diagnostics.ts';
import { CONTEXT_LIST, createFakeApi, type FakeApi, type Handlers } from './fake-api.ts';

const DIAGNOSTICS: Diagnostics = {
  path: { value: '/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin', source: 'login-shell', shell: '/bin/zsh' },
  execPlugins: [
    {
      user: 'eks-admin',
      source: '/home/me/.kube/config',
      contexts: ['eks-prod'],
      command: 'aws',
      resolved: null,
      status: 'not-found',
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      args: ['eks', 'get-token', '--cluster-name', 'prod'],
      env: ['AWS_PROFILE'],
    },
    {
      user: 'gke-user',
      source: '/home/me/.kube/config',
      contexts: ['gke-dev', 'gke-prod'],
      command: 'gke-gcloud-auth-plugin',
      resolved: '/opt/homebrew/bin/gke-gcloud-auth-plugin',
      status: 'ok',
      apiVersion: 'client.authentication.k8s.io/v1',
      args: [],
      env: [],
      interactiveMode: 'IfAvailable',
    },
  ],
  kubeconfigSources: [
    { path: '/home/me/.kube/config', state: 'loaded' },
    { path: '/home/me/.kube/broken.yaml', state: 'error', message: 'invalid YAML: Nested mappings are not allowed in compact mappings', line: 12 },
    { path: '/home/me/.kube/gone.yaml', state: 'missing', message: 'not found (skipped)' },
  ],
};

let wrapper: VueWrapper | undefined;

afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
});

async function mountView(handlers: Handlers): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = createFakeApi(handlers);
  setApi(api);
  // Pinia for the access reviews card (the selected context's access store).
  wrapper = mount(DiagnosticsView, { global: { plugins: [createPinia()] } });
  await flushPromises();
  return { api, view: wrapper };
}

function texts(view: VueWrapper, testId: string): string[] {
  return view.findAll(`[data-testid="${testId}"]`).map((node) => node.text());
}

describe('DiagnosticsView', () => {
  it('shows the PATH in use, where it came from and each entry on its own line', async () => {
    const { view } = await mountView({ 'diagnostics:get': () => ok(DIAGNOSTICS) });
    expect(view.find('[data-testid="diagnostics"]').exists()).toBe(true);
    expect(view.get('[data-testid="path-source"]').text()).toBe('from your login shell');
    expect(view.get('[data-testid="path-shell"]').text()).toBe('/bin/zsh');
    expect(texts(view, 'path-entry')).toEqual(['/opt/homebrew/bin', '/usr/local/bin', '/usr/bin', '/bin']);
    expect(view.find('[data-testid="path-error"]').exists()).toBe(false);
  });

  it('says why the login shell PATH is not in use', async () => {
    const path = { value: '/usr/bin:/bin', source: 'inherited' as const, shell: '/bin/zsh', error: '/bin/zsh did not answer within 5000 ms (kept the inherited PATH)' };
    const { view } = await mountView({ 'diagnostics:get': () => ok({ ...DIAGNOSTICS, path }) });
    expect(view.get('[data-testid="path-source"]').attributes('data-tone')).toBe('warning');
    expect(view.get('[data-testid="path-source"]').text()).toBe('inherited from the launcher');
    expect(view.get('[data-testid="path-error"]').text()).toContain('did not answer within 5000 ms');
  });

  it('shows each exec plugin with the binary it runs, and a missing one as a warning', async () => {
    const { view } = await mountView({ 'diagnostics:get': () => ok(DIAGNOSTICS) });
    const plugins = view.findAll('[data-testid="exec-plugin"]');
    expect(plugins.map((plugin) => plugin.attributes('data-status'))).toEqual(['not-found', 'ok']);
    const [aws, gke] = plugins;
    expect(aws?.text()).toContain('eks-admin');
    expect(aws?.text()).toContain('used by eks-prod');
    expect(aws?.get('[data-testid="exec-plugin-command"]').text()).toBe('aws');
    const missing = aws?.get('[data-testid="exec-plugin-resolved"]');
    expect(missing?.text()).toBe('not found on PATH');
    expect(missing?.classes()).toContain('problem');
    expect(aws?.get('[data-testid="exec-plugin-args"]').text()).toBe('eks get-token --cluster-name prod');
    expect(aws?.get('[data-testid="exec-plugin-api-version"]').text()).toBe('client.authentication.k8s.io/v1beta1');
    const found = gke?.get('[data-testid="exec-plugin-resolved"]');
    expect(found?.text()).toBe('/opt/homebrew/bin/gke-gcloud-auth-plugin');
    expect(found?.classes()).not.toContain('problem');
    expect(gke?.find('[data-testid="exec-plugin-args"]').exists()).toBe(false);
  });

  it('lists the kubeconfig files with their state, error line and message', async () => {
    const { view } = await mountView({ 'diagnostics:get': () => ok(DIAGNOSTICS) });
    const sources = view.findAll('[data-testid="diagnostics-source"]');
    expect(sources.map((source) => source.attributes('data-state'))).toEqual(['loaded', 'error', 'missing']);
    expect(sources[1]?.text()).toContain('line 12');
    expect(sources[1]?.text()).toContain('Nested mappings are not allowed');
    expect(sources[2]?.text()).toContain('not found (skipped)');
  });

  it('asks again when the kubeconfig files change, and stops listening when closed', async () => {
    let answer = DIAGNOSTICS;
    const { api, view } = await mountView({ 'diagnostics:get': () => ok(answer) });
    expect(api.listenerCount('contexts:changed')).toBe(1);
    answer = { ...DIAGNOSTICS, execPlugins: [], kubeconfigSources: [{ path: '/home/me/.kube/config', state: 'missing' }] };
    api.emit('contexts:changed', CONTEXT_LIST);
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'diagnostics:get')).toHaveLength(2);
    expect(view.get('[data-testid="diagnostics-exec-plugins"]').text()).toContain('No kubeconfig user gets its credentials from an exec plugin');
    expect(view.findAll('[data-testid="diagnostics-source"]').map((s) => s.attributes('data-state'))).toEqual(['missing']);
    view.unmount();
    wrapper = undefined;
    expect(api.listenerCount('contexts:changed')).toBe(0);
  });

  it('asks again after the engine link comes back', async () => {
    const { api } = await mountView({ 'diagnostics:get': () => ok(DIAGNOSTICS) });
    link.value = { state: 'closed' };
    await flushPromises();
    link.value = { state: 'open' };
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'diagnostics:get')).toHaveLength(2);
  });

  it('shows the failure where the data would be, and recovers on "Check again"', async () => {
    let fail = true;
    const { view } = await mountView({
      'diagnostics:get': () => (fail ? err('internal', 'diagnostics:get failed: boom') : ok(DIAGNOSTICS)),
    });
    expect(view.get('[data-testid="diagnostics-error"]').text()).toBe('Diagnostics could not be loaded: diagnostics:get failed: boom');
    expect(view.find('[data-testid="diagnostics-path"]').exists()).toBe(false);
    fail = false;
    await view.get('[data-testid="diagnostics-refresh"]').trigger('click');
    await flushPromises();
    expect(view.find('[data-testid="diagnostics-error"]').exists()).toBe(false);
    expect(texts(view, 'path-entry')).toHaveLength(4);
  });
});

describe('pathEntries', () => {
  it('splits on the delimiter of the engine platform, dropping empty entries', () => {
    expect(pathEntries('/a::/b:')).toEqual(['/a', '/b']);
    expect(pathEntries('C:\\Windows\\system32;C:\\Program Files\\Amazon\\AWSCLIV2\\')).toEqual(['C:\\Windows\\system32', 'C:\\Program Files\\Amazon\\AWSCLIV2\\']);
  });
});
