// @vitest-environment happy-dom
/**
 * What a restricted user's windows say: the status bar and the banner carry the access checks'
 * line ("Namespaces payments, shop · Nodes hidden by your permissions") without listing a hidden
 * kind as forbidden too; "Check again" asks the engine; the Nodes screen says Nodes are hidden
 * instead of an empty table claiming the cluster has none.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { AccessSummary } from '../../../shared/access.ts';
import type { ClusterHealth } from '../../../shared/cluster.ts';
import type { ClusterAccess } from '../../../shared/contracts/access.ts';
import { ok } from '../../../shared/result.ts';
import TheAccessBanner from '../../../renderer/components/shell/TheAccessBanner.vue';
import TheStatusBar from '../../../renderer/components/shell/TheStatusBar.vue';
import NodesView from '../../../renderer/views/nodes/NodesView.vue';
import { clusterHealth, kindHealth } from './cluster-fixtures.ts';
import { type FakeApi, type Handlers } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const NODES_HIDDEN = 'Nodes are hidden by your permissions: you may not list and watch nodes at the cluster scope';

const SUMMARY: AccessSummary = {
  restricted: true,
  namespaces: ['payments', 'shop'],
  hiddenKinds: [{ key: 'nodes', kind: 'Node', message: NODES_HIDDEN }],
  checked: [],
  reviews: [],
  reviewsOmitted: 0,
  noAccess: false,
  checkedAt: 1_700_000_000_000,
};
const ACCESS: ClusterAccess = { context: 'kind-dev', epoch: 'e1', summary: SUMMARY };
const HEALTH: ClusterHealth = clusterHealth('e1', [
  kindHealth('pods', 'live', 4, { message: 'Namespaces payments, shop' }),
  kindHealth('nodes', 'forbidden', 0, { message: NODES_HIDDEN }),
  kindHealth('events', 'forbidden', 0, { message: 'events is forbidden: User "dev" cannot list resource "events" in API group "" at the cluster scope' }),
]);

const test = useRendererTest({ frames: true });

async function mountWith(component: Parameters<typeof test.mount>[0], handlers: Handlers = {}): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(HEALTH), 'cluster:access': () => ok(ACCESS), ...handlers });
  const view = test.mount(component, { attachTo: document.body });
  await flushPromises();
  return { api, view };
}

describe('a restricted user’s view', () => {
  it('says in the status bar what the permissions let it see, and lists only the other forbidden kinds as forbidden', async () => {
    const { view } = await mountWith(TheStatusBar);
    expect(view.get('[data-testid="cluster-access"]').text()).toBe('Namespaces payments, shop · Nodes hidden by your permissions');
    expect(view.get('[data-testid="cluster-blocked"]').text()).toBe('Forbidden: events');
  });

  it('says nothing about access for a user who sees the whole cluster', async () => {
    const whole: ClusterAccess = { ...ACCESS, summary: { ...SUMMARY, restricted: false, namespaces: [], hiddenKinds: [] } };
    const { view } = await mountWith(TheStatusBar, { 'cluster:access': () => ok(whole) });
    expect(view.find('[data-testid="cluster-access"]').exists()).toBe(false);
  });

  it('shows the banner and checks again on request, showing the new answer', async () => {
    const granted: ClusterAccess = { ...ACCESS, summary: { ...SUMMARY, namespaces: ['payments', 'platform', 'shop'] } };
    const { api, view } = await mountWith(TheAccessBanner, { 'cluster:access-recheck': () => ok(granted) });
    expect(view.get('[data-testid="access-text"]').text()).toBe('Namespaces payments, shop · Nodes hidden by your permissions');
    await view.get('[data-testid="access-recheck"]').trigger('click');
    await flushPromises();
    expect(api.calls.filter((c) => c.channel === 'cluster:access-recheck')).toHaveLength(1);
    expect(view.get('[data-testid="access-text"]').text()).toBe('Namespaces payments, platform, shop · Nodes hidden by your permissions');
  });

  it('tells a user with no access what to do', async () => {
    const none: ClusterAccess = { ...ACCESS, summary: { ...SUMMARY, namespaces: [], noAccess: true, howToFix: 'Ask your cluster administrator for a RoleBinding' } };
    const { view } = await mountWith(TheAccessBanner, { 'cluster:access': () => ok(none) });
    expect(view.get('[data-testid="access-banner"]').text()).toContain('No access beyond the self-reviews — Ask your cluster administrator for a RoleBinding');
  });

  it('says on the Nodes screen that Nodes are hidden, instead of a cluster without nodes', async () => {
    const { api, view } = await mountWith(NodesView);
    api.emit('cluster:frames', { type: 'snapshot-begin', epoch: 'e1', context: 'kind-dev', seq: 1, total: 0 });
    api.emit('cluster:frames', { type: 'snapshot-end', epoch: 'e1', seq: 1 });
    test.frames.runFrame();
    await flushPromises();
    const notice = view.get('[data-testid="kind-notice"][data-kind="nodes"]');
    expect(notice.attributes('data-state')).toBe('hidden');
    expect(notice.text()).toBe('Nodes are hidden by your permissions — you may not list and watch nodes at the cluster scope');
    await vi.waitFor(() => expect(view.text()).toContain('Nodes are hidden by your permissions.'));
    expect(view.text()).not.toContain('This cluster reports no nodes.');
  });
});
