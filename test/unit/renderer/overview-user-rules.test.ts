// @vitest-environment happy-dom
/**
 * The Overview reads custom resources with the user's status rules (Settings → Status rules)
 * before the built-in ones: a kind no built-in rule knows says nothing until the user's rule
 * names what its condition means, and a rule saved while the screen is open applies at once.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { ClusterFrame, SlimObject } from '../../../shared/cluster.ts';
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { ClusterDiscovery } from '../../../shared/discovery.ts';
import type { Settings } from '../../../shared/model.ts';
import { ok } from '../../../shared/result.ts';
import OverviewView from '../../../renderer/views/overview/OverviewView.vue';
import { clusterHealth, kindHealth, uid } from './cluster-fixtures.ts';
import { SETTINGS, type FakeApi } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const WIDGETS = 'widgets.example.com';
const ref = { group: 'example.com', version: 'v1alpha1', kind: 'Widget', plural: 'widgets', namespaced: true };
const DISCOVERY: ClusterDiscovery = {
  context: 'kind-dev',
  epoch: 'e1',
  state: {
    kinds: [{ key: WIDGETS, ref, versions: ['v1alpha1'], verbs: ['list', 'watch'], listable: true, watchable: true, subresources: { status: true, scale: false }, shortNames: [], categories: [], custom: true, mode: 'full', count: null }],
    unavailable: [],
    progress: null,
    refreshedAt: Date.UTC(2025, 4, 1, 12, 0, 0),
  },
};

/** A Crossplane-style managed resource: only a Synced condition, which no built-in rule reads for this kind. */
const widget = {
  apiVersion: 'example.com/v1alpha1',
  kind: 'Widget',
  metadata: { name: 'blue', namespace: 'shop', uid: uid(), resourceVersion: '4001', generation: 3, creationTimestamp: '2025-05-01T09:00:00Z' },
  spec: { colour: 'blue' },
  status: { observedGeneration: 3, conditions: [{ type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'cannot update widget: 409 conflict', lastTransitionTime: '2025-05-01T09:05:00Z' }] },
} as SlimObject;

const RULE: UserStatusRule = { group: 'example.com', kind: 'Widget', conditionType: 'Synced', conditionStatus: 'False', reason: 'ReconcileError', state: 'failed' };

const frames: ClusterFrame[] = [
  { type: 'snapshot-begin', epoch: 'e1', context: 'kind-dev', seq: 1, total: 1 },
  { type: 'snapshot-chunk', epoch: 'e1', seq: 1, objects: [widget], kinds: [WIDGETS], sent: 1, total: 1 },
  { type: 'snapshot-end', epoch: 'e1', seq: 1 },
];

const test = useRendererTest({ frames: true });

async function mountOverview(settings: Settings): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({
    'settings:get': () => ok(settings),
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(clusterHealth('e1', [kindHealth(WIDGETS, 'live', 1)])),
    'cluster:discovery': () => ok(DISCOVERY),
  });
  const view = test.mount(OverviewView, { attachTo: document.body });
  await flushPromises();
  for (const frame of frames) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
  return { api, view };
}

const stateOf = (view: VueWrapper): string | undefined => view.findAll('[data-testid="custom-row"] [role="cell"]')[0]?.text();

describe('OverviewView with the user\'s status rules', () => {
  it('reads a custom resource by the user\'s rule for its kind', async () => {
    const { view } = await mountOverview({ ...SETTINGS, statusRules: [RULE] });
    await vi.waitFor(() => expect(stateOf(view)).toBe('Failed'));
    expect(view.get('[data-testid="custom-why"]').text()).toBe('ReconcileError: cannot update widget: 409 conflict');
  });

  it('applies a rule saved while the screen is open', async () => {
    const { api, view } = await mountOverview(SETTINGS);
    await vi.waitFor(() => expect(view.findAll('[data-testid="custom-row"]')).toHaveLength(1));
    const before = stateOf(view);
    expect(before).not.toBe('Failed');
    api.emit('settings:changed', { ...SETTINGS, statusRules: [RULE] });
    await flushPromises();
    await vi.waitFor(() => expect(stateOf(view)).toBe('Failed'));
  });
});
