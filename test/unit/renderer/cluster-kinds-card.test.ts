// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ClusterHealth } from '../../../shared/cluster.ts';
import { ok } from '../../../shared/result.ts';
import ClusterKindsCard from '../../../renderer/views/cluster/ClusterKindsCard.vue';
import { useClusterStore } from '../../../renderer/stores/cluster.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest();

const HEALTH: ClusterHealth = {
  context: 'kind-dev',
  epoch: 'e1',
  kinds: [
    { kind: 'deployments.apps', state: 'live', count: 12, since: 0 },
    { kind: 'certificates.cert-manager.io', state: 'unavailable', count: 0, since: 0, message: 'conversion webhook for cert-manager.io/v1, Kind=Certificate failed' },
    { kind: 'configmaps', state: 'live', count: 4, since: 0 },
  ],
};

describe('the Cluster screen’s watched kinds', () => {
  it('names built-in kinds by their label and any other kind by its plural with its API group beside it', async () => {
    installApi({ 'cluster:health': () => ok(HEALTH) });
    useClusterStore();
    const view = test.mount(ClusterKindsCard);
    await flushPromises();
    const rows = view.findAll('[data-testid="cluster-kind"]');
    expect(rows.map((row) => [row.get('.title').text(), row.find('.group').exists() ? row.get('.group').text() : ''])).toEqual([
      ['Deployments', ''],
      ['certificates', 'cert-manager.io'],
      ['configmaps', ''],
    ]);
    expect(rows[1]?.attributes('data-state')).toBe('unavailable');
    expect(rows[1]?.text()).toContain('conversion webhook for cert-manager.io/v1, Kind=Certificate failed');
  });
});
