// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ClusterDiscovery, KindEntry } from '../../../shared/discovery.ts';
import { ok } from '../../../shared/result.ts';
import ClusterDiscoveryCard from '../../../renderer/views/cluster/ClusterDiscoveryCard.vue';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest();

function entry(key: string, ref: KindEntry['ref'], mode: KindEntry['mode'], extra: Partial<KindEntry> = {}): KindEntry {
  return { key, ref, versions: [ref.version], verbs: ['list', 'watch'], listable: true, watchable: true, subresources: { status: true, scale: false }, shortNames: [], categories: [], custom: false, mode, count: null, ...extra };
}

const DISCOVERY: ClusterDiscovery = {
  context: 'kind-dev',
  epoch: 'e1',
  state: {
    kinds: [
      entry('deployments.apps', { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true }, 'full', { count: 12 }),
      entry('secrets', { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }, 'metadata', { message: 'graph node only: watched as metadata' }),
      entry('leases.coordination.k8s.io', { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true }, 'excluded', { message: 'excluded by default (high churn)' }),
      entry('nodemetrics.metrics.k8s.io', { group: 'metrics.k8s.io', version: 'v1beta1', kind: 'NodeMetrics', plural: 'nodes', namespaced: false }, 'unavailable', { custom: true, message: 'the server is currently unable to handle the request' }),
    ],
    unavailable: [{ group: 'metrics.k8s.io', version: 'v1beta1', message: 'the server is currently unable to handle the request' }],
    progress: null,
    refreshedAt: Date.UTC(2025, 4, 3, 12, 0, 0),
  },
};

describe('the Cluster screen’s discovered kinds', () => {
  it('lists every discovered kind by API group with how it is watched, its count and the server’s message', async () => {
    installApi({ 'cluster:discovery': () => ok(DISCOVERY) });
    const view = test.mount(ClusterDiscoveryCard);
    await flushPromises();
    const rows = view.findAll('[data-testid="discovered-kind"]');
    expect(rows.map((row) => [row.attributes('data-key'), row.attributes('data-mode')])).toEqual([
      ['secrets', 'metadata'],
      ['deployments.apps', 'full'],
      ['leases.coordination.k8s.io', 'excluded'],
      ['nodemetrics.metrics.k8s.io', 'unavailable'],
    ]);
    expect(rows[1]?.text()).toContain('Deployment');
    expect(rows[1]?.text()).toContain('apps/v1');
    expect(rows[1]?.text()).toContain('12');
    expect(rows[3]?.text()).toContain('the server is currently unable to handle the request');
    expect(view.get('[data-testid="discovery-summary"]').text()).toBe('4 kinds: 1 watched in full · 1 metadata · 1 excluded · 1 unavailable');
    expect(view.get('[data-testid="discovery-unavailable"]').text()).toContain('metrics.k8s.io/v1beta1 unavailable');
  });

  it('follows the stream, and says when there is nothing to show', async () => {
    const api = installApi({ 'cluster:discovery': () => ok({ context: null, epoch: 'e0', state: null }) });
    const view = test.mount(ClusterDiscoveryCard);
    await flushPromises();
    expect(view.text()).toContain('Discovery runs once a context connects');
    api.emit('cluster:discovery', { ...DISCOVERY, state: { ...DISCOVERY.state!, kinds: DISCOVERY.state!.kinds.slice(0, 1), unavailable: [], progress: { done: 3, total: 9 } } });
    await flushPromises();
    expect(view.findAll('[data-testid="discovered-kind"]')).toHaveLength(1);
    expect(view.get('[data-testid="discovery-progress"]').text()).toBe('Reading discovery: 3 of 9 group versions…');
  });
});
