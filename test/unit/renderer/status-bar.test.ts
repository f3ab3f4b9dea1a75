// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WATCHED_KINDS, type ClusterHealth } from '../../../shared/cluster.ts';
import type { ConnectionStatus } from '../../../shared/model.ts';
import { ok } from '../../../shared/result.ts';
import { link, setApi } from '../../../renderer/api/index.ts';
import TheStatusBar from '../../../renderer/components/shell/TheStatusBar.vue';
import { clusterHealth, kindHealth } from './cluster-fixtures.ts';
import { CONNECTED, createFakeApi, type FakeApi } from './fake-api.ts';

const REFUSED: ConnectionStatus = {
  context: 'kind-dev',
  state: 'error',
  server: 'https://127.0.0.1:1',
  message: 'Cannot reach https://127.0.0.1:1 (connect ECONNREFUSED 127.0.0.1:1)',
  since: 1_700_000_000_000,
};

let pinia: Pinia;
let wrapper: VueWrapper | undefined;

async function mountBar(status: ConnectionStatus, health?: ClusterHealth): Promise<{ api: FakeApi; bar: VueWrapper }> {
  const api = createFakeApi({ 'connection:status': () => ok(status), ...(health ? { 'cluster:health': () => ok(health) } : {}) });
  setApi(api);
  wrapper = mount(TheStatusBar, { global: { plugins: [pinia] } });
  await flushPromises();
  return { api, bar: wrapper };
}

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});

afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  disposePinia(pinia);
});

describe('TheStatusBar', () => {
  it('shows the connection error message in the error state', async () => {
    const { bar } = await mountBar(REFUSED);
    const state = bar.get('[data-testid="connection-state"]');
    expect(state.text()).toBe(REFUSED.message);
    expect(state.attributes('data-state')).toBe('error');
  });

  it('shows state, server version and server when connected', async () => {
    const { bar } = await mountBar(CONNECTED);
    expect(bar.get('[data-testid="connection-state"]').text()).toBe('Connected · v1.32.0 · https://127.0.0.1:6443');
  });

  it('follows connection:changed without asking again', async () => {
    const { api, bar } = await mountBar(CONNECTED);
    api.emit('connection:changed', { context: 'staging-eu', state: 'connecting', server: 'https://staging.example.com', since: 2 });
    await flushPromises();
    expect(bar.get('[data-testid="connection-state"]').text()).toBe('Connecting… · https://staging.example.com');
    api.emit('connection:changed', REFUSED);
    await flushPromises();
    expect(bar.get('[data-testid="connection-state"]').text()).toBe(REFUSED.message);
    expect(api.calls.filter((call) => call.channel === 'connection:status')).toHaveLength(1);
  });

  it('says the engine is disconnected while the link is down, and stops saying it once back', async () => {
    const { bar } = await mountBar(CONNECTED);
    expect(bar.find('[data-testid="engine-link"]').exists()).toBe(false);
    link.value = { state: 'closed', detail: 'The engine is not answering' };
    await flushPromises();
    expect(bar.get('[data-testid="engine-link"]').text()).toBe('Engine disconnected — reconnecting…');
    expect(bar.get('[data-testid="status-bar"]').attributes('data-link-down')).toBe('true');
    link.value = { state: 'open' };
    await flushPromises();
    expect(bar.find('[data-testid="engine-link"]').exists()).toBe(false);
    expect(bar.get('[data-testid="status-bar"]').attributes('data-link-down')).toBeUndefined();
  });

  it('keeps saying disconnected while the transport retries, instead of flickering', async () => {
    const { bar } = await mountBar(CONNECTED);
    link.value = { state: 'closed' };
    await flushPromises();
    link.value = { state: 'connecting' };
    await flushPromises();
    expect(bar.get('[data-testid="engine-link"]').text()).toBe('Engine disconnected — reconnecting…');
    expect(bar.get('[data-testid="status-bar"]').attributes('data-link-down')).toBe('true');
  });

  it('shows the app version and the shell it runs in', async () => {
    const { bar } = await mountBar(CONNECTED);
    expect(bar.get('[data-testid="app-version"]').text()).toBe('Kubedrift 0.1.0');
    expect(bar.get('[data-testid="app-shell"]').text()).toBe('Browser');
  });
});

describe('TheStatusBar: cluster stream health', () => {
  const ALL_LIVE = clusterHealth('epoch-1', [
    kindHealth('pods', 'live', 50_000),
    kindHealth('deployments.apps', 'live', 300),
    kindHealth('nodes', 'live', 12),
  ]);

  it('says which kind is still syncing and how many objects it has listed', async () => {
    const { bar } = await mountBar(
      CONNECTED,
      clusterHealth('epoch-1', [kindHealth('pods', 'syncing', 12_000), kindHealth('events', 'syncing', 310), kindHealth('nodes', 'live', 12)]),
    );
    const health = bar.get('[data-testid="cluster-health"]');
    expect(health.text()).toBe('Syncing pods 12,000… +1 more');
    expect(health.attributes('data-tone')).toBe('syncing');
  });

  it('says live with the number of kinds and objects once everything is listed', async () => {
    const { bar } = await mountBar(CONNECTED, ALL_LIVE);
    expect(bar.get('[data-testid="cluster-health"]').text()).toBe('Live · 3 kinds · 50,312 objects');
    expect(bar.find('[data-testid="cluster-blocked"]').exists()).toBe(false);
  });

  it('shows a reconnecting kind in the warning tone, with since when and the last error', async () => {
    const { api, bar } = await mountBar(CONNECTED, ALL_LIVE);
    api.emit('cluster:health', clusterHealth('epoch-1', [kindHealth('pods', 'reconnecting', 50_000, { message: 'watch closed: connection reset by peer' }), kindHealth('nodes', 'live', 12)]));
    await flushPromises();
    const health = bar.get('[data-testid="cluster-health"]');
    expect(health.text()).toBe('Reconnecting pods since 12:01 — watch closed: connection reset by peer');
    expect(health.attributes('data-tone')).toBe('reconnecting');
  });

  it('keeps the reconnect line short with every kind down, the reason apart so it is cut first, all of it in the tooltip', async () => {
    const { api, bar } = await mountBar(CONNECTED, ALL_LIVE);
    const refused = 'Cannot reach https://api.prod-eu-west-1.example.com:6443 (ECONNREFUSED).';
    const since = new Date().setHours(14, 3, 0, 0);
    api.emit('cluster:health', clusterHealth('epoch-1', WATCHED_KINDS.map((kind) => kindHealth(kind, 'reconnecting', 10, { since, message: refused }))));
    await flushPromises();
    const health = bar.get('[data-testid="cluster-health"]');
    expect(health.get('.headline').text()).toBe('Reconnecting all 12 kinds since 14:03');
    expect(health.get('.reason').text()).toBe(`— ${refused}`);
    // `.text` holds the whole line: what the e2e status recorder reads.
    expect(health.get('.text').text()).toBe(`Reconnecting all 12 kinds since 14:03 — ${refused}`);
    const title = health.attributes('title') ?? '';
    expect(title.split('\n')).toHaveLength(2);
    for (const kind of ['pods', 'events', 'horizontalpodautoscalers']) expect(title).toContain(kind);
    expect(title).toContain(refused);
  });

  it('names the kinds the user may not list, with the reason in the tooltip', async () => {
    const { bar } = await mountBar(
      CONNECTED,
      clusterHealth('epoch-1', [kindHealth('pods', 'live', 3), kindHealth('events', 'forbidden', 0, { message: 'events is forbidden: User "alice" cannot list resource "events"' })]),
    );
    const blocked = bar.get('[data-testid="cluster-blocked"]');
    expect(blocked.text()).toBe('Forbidden: events');
    expect(blocked.attributes('title')).toBe('events: events is forbidden: User "alice" cannot list resource "events"');
    expect(bar.get('[data-testid="cluster-health"]').text()).toBe('Live · 1 kind · 3 objects');
  });

  it('says nothing about the stream while the context is not connected', async () => {
    const { bar } = await mountBar(REFUSED, ALL_LIVE);
    expect(bar.find('[data-testid="cluster-health"]').exists()).toBe(false);
  });
});
