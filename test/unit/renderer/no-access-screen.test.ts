// @vitest-environment happy-dom
/**
 * A user with no rights beyond the self-reviews, as the app's main pane shows it: the banner
 * says so and how to fix it in the engine's own words (ask for a RoleBinding, or add namespaces
 * under "Accessible namespaces"), and the Overview below says the permissions hide the
 * workloads instead of claiming the cluster runs none. The engine side (that such a user gets
 * noAccess and this howToFix) is tested in test/unit/engine/cluster/access/simcluster.test.ts.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { accessStatusText, type AccessSummary, type HiddenKind } from '../../../shared/access.ts';
import type { ClusterAccess } from '../../../shared/contracts/access.ts';
import { ok } from '../../../shared/result.ts';
import TheAccessBanner from '../../../renderer/components/shell/TheAccessBanner.vue';
import OverviewView from '../../../renderer/views/overview/OverviewView.vue';
import { clusterHealth, kindHealth, snapshotFrames } from './cluster-fixtures.ts';
import { installApi, useRendererTest } from './setup.ts';

/** The kinds the checks hid, with the engine's messages (electron/engine/cluster/access/probe.ts). */
const HIDDEN: HiddenKind[] = [
  ['nodes', 'Node'],
  ['deployments.apps', 'Deployment'],
  ['statefulsets.apps', 'StatefulSet'],
  ['daemonsets.apps', 'DaemonSet'],
  ['replicasets.apps', 'ReplicaSet'],
  ['jobs.batch', 'Job'],
  ['cronjobs.batch', 'CronJob'],
].map(([key, kind]) => ({ key: key as string, kind: kind as string, message: `${kind as string}s are hidden by your permissions: you may not list and watch ${key as string} at the cluster scope${key === 'nodes' ? '' : ' or in shop'}` }));
/** What the engine's summary says for such a user (its howToFix is the engine's HOW_TO_FIX). */
const SUMMARY: AccessSummary = {
  restricted: true,
  namespaces: [],
  hiddenKinds: HIDDEN,
  checked: [{ name: 'shop', sources: ['context'], state: 'none', kinds: [], message: 'You may not list and watch anything Kubedrift shows in "shop" (or it does not exist)' }],
  reviews: [],
  reviewsOmitted: 0,
  noAccess: true,
  howToFix:
    'Ask your cluster administrator for a RoleBinding in the namespaces you work in (for example: kubectl create rolebinding <you>-view --clusterrole=view --user=<you> --namespace=<namespace>), or add the namespaces you may read under "Accessible namespaces" on the Cluster screen.',
  checkedAt: 1_700_000_000_000,
};
const ACCESS: ClusterAccess = { context: 'kind-nobody', epoch: 'e1', summary: SUMMARY };
const HEALTH = clusterHealth(
  'e1',
  HIDDEN.map((k) => kindHealth(k.key, 'forbidden', 0, { message: k.message })),
);

const test = useRendererTest({ frames: true });
const MainPane = defineComponent({ render: () => h('div', [h(TheAccessBanner), h(OverviewView)]) });

describe('a user with no rights beyond the self-reviews', () => {
  it('sees a banner that says so and how to fix it, above an Overview that blames the permissions, not the cluster', async () => {
    const api = installApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(HEALTH), 'cluster:access': () => ok(ACCESS) });
    const view = test.mount(MainPane, { attachTo: document.body });
    await flushPromises();
    for (const frame of snapshotFrames('e1', 1, [])) api.emit('cluster:frames', frame);
    test.frames.runFrame();
    await flushPromises();

    const banner = view.get('[data-testid="access-banner"]');
    expect(banner.attributes('data-no-access')).toBe('true');
    expect(view.get('[data-testid="access-text"]').text()).toBe(accessStatusText(SUMMARY));
    expect(accessStatusText(SUMMARY)).toBe('No access beyond the self-reviews');
    expect(banner.text()).toContain('Ask your cluster administrator for a RoleBinding in the namespaces you work in');
    expect(banner.text()).toContain('kubectl create rolebinding <you>-view --clusterrole=view --user=<you> --namespace=<namespace>');
    expect(banner.text()).toContain('add the namespaces you may read under "Accessible namespaces" on the Cluster screen');
    expect(view.get('[data-testid="access-recheck"]').text()).toBe('Check again');
    await vi.waitFor(() => expect(view.text()).toContain('Your permissions hide every workload kind (see above), so there is nothing to list'));
    expect(view.text()).not.toContain('This cluster runs no workloads yet.');
  });
});
