// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { ClusterHealth } from '../../../shared/cluster.ts';
import type { CauseInfo, DriftingCauses } from '../../../shared/contracts/causes.ts';
import { err, ok } from '../../../shared/result.ts';
import { useCausesStore } from '../../../renderer/stores/causes.ts';
import { useNavigationStore } from '../../../renderer/stores/navigation.ts';
import OverviewView from '../../../renderer/views/overview/OverviewView.vue';
import WorkloadCausePanel from '../../../renderer/views/workload/WorkloadCausePanel.vue';
import { clusterHealth, deployment, kindHealth, snapshotFrames } from './cluster-fixtures.ts';
import type { FakeApi, Handlers } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const IMAGE = 'registry.example.com/shop/checkout:broken';
const KUBELET = `Failed to pull image "${IMAGE}": rpc error: code = NotFound desc = failed to pull and unpack image "${IMAGE}": ${IMAGE}: not found`;
const STALLED = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "checkout-7c9d" has timed out progressing.', lastTransitionTime: '2025-05-01T10:10:00Z' }];
const LIVE: ClusterHealth = clusterHealth('e1', [kindHealth('deployments.apps', 'live', 2)]);

const checkout = deployment('checkout', { namespace: 'shop', ready: 2, conditions: STALLED });
const web = deployment('web', { namespace: 'shop' });
const link = (kind: string, name: string, uid: string) => ({ apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', kind, namespace: 'shop', name, uid });
const deploymentLink = link('Deployment', 'checkout', checkout.metadata.uid);
const rsLink = link('ReplicaSet', 'checkout-7c9d', 'rs-checkout');
const pods = ['a1', 'a2', 'a3', 'a4', 'a5'].map((suffix) => link('Pod', `checkout-7c9d-${suffix}`, `pod-${suffix}`));

/** The engine's answer for checkout: the controller's verdict heading the kubelet's pull failure. */
const CHECKOUT_CAUSE: CauseInfo = {
  code: 'progress-deadline',
  sentence: 'Deployment checkout exceeded its progress deadline: ReplicaSet "checkout-7c9d" has timed out progressing.',
  evidence: [{ ...deploymentLink, detail: 'Progressing=False: ProgressDeadlineExceeded' }],
  chain: [deploymentLink],
  underneath: [
    {
      code: 'image-pull',
      sentence: `5 new pods can't pull ${IMAGE}: not found`,
      evidence: pods.map((pod) => ({ ...pod, detail: `container checkout: ${KUBELET}` })),
      chain: [deploymentLink, rsLink],
      since: Date.parse('2025-05-01T10:01:00Z'),
    },
  ],
};
const drifting = (revision: number, causes: CauseInfo[], context = 'kind-dev'): DriftingCauses => ({ context, revision, at: 1, reports: causes.length > 0 ? [{ target: deploymentLink, causes }] : [] });

const test = useRendererTest({ frames: true });

describe('causes store', () => {
  it('loads the drifting workloads, follows pushes, and ignores a push older than what it has', async () => {
    const api = installApi({ 'causes:drifting': () => ok(drifting(3, [CHECKOUT_CAUSE])) });
    const store = useCausesStore();
    await flushPromises();
    expect(store.headline(checkout.metadata.uid)?.code).toBe('progress-deadline');
    api.emit('causes:changed', drifting(2, []));
    expect(store.headline(checkout.metadata.uid)?.code).toBe('progress-deadline');
    api.emit('causes:changed', drifting(4, []));
    expect(store.headline(checkout.metadata.uid)).toBeUndefined();
    // Another context starts its revisions over: taken as it comes.
    api.emit('causes:changed', drifting(1, [CHECKOUT_CAUSE], 'prod'));
    expect(store.drifting?.context).toBe('prod');
    expect(store.headline(checkout.metadata.uid)?.sentence).toContain('exceeded its progress deadline');
  });

  it('keeps the error when the engine cannot answer', async () => {
    installApi({ 'causes:drifting': () => err('unavailable', 'engine busy') });
    const store = useCausesStore();
    await flushPromises();
    expect(store.error?.message).toBe('engine busy');
    expect(store.loaded).toBe(false);
  });
});

async function mountOverview(handlers: Handlers): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(LIVE), ...handlers });
  const view = test.mount(OverviewView, { attachTo: document.body });
  await flushPromises();
  for (const frame of snapshotFrames('e1', 1, [checkout, web])) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
  return { api, view };
}

describe('Overview Why column', () => {
  it('says why a drifting workload drifts, the whole sentence in its tooltip, and nothing for one in sync', async () => {
    const { view } = await mountOverview({ 'causes:drifting': () => ok(drifting(1, [CHECKOUT_CAUSE])) });
    await vi.waitFor(() => expect(view.findAll('[data-testid="why-cell"]')).toHaveLength(1));
    const cell = view.get('[data-testid="why-cell"]');
    const whole = `${CHECKOUT_CAUSE.sentence} — 5 new pods can't pull ${IMAGE}: not found`;
    expect(cell.text()).toBe(whole);
    expect(cell.attributes('title')).toBe(whole);
    expect(view.findAll('[role="columnheader"]').map((header) => header.text())).toContain('Why');
  });

  it('puts the cause in the hover card, and follows the engine when the cause is gone', async () => {
    const { api, view } = await mountOverview({ 'causes:drifting': () => ok(drifting(1, [CHECKOUT_CAUSE])) });
    await vi.waitFor(() => expect(view.find('[data-testid="why-cell"]').exists()).toBe(true));
    await view.get('[data-testid="drift-badge"]').trigger('mouseenter');
    const card = view.get('[data-testid="popover-cause"]');
    expect(card.text()).toContain(CHECKOUT_CAUSE.sentence);
    expect(card.text()).toContain(`5 new pods can't pull ${IMAGE}: not found`);
    await view.get('[data-testid="drift-badge"]').trigger('mouseleave');
    api.emit('causes:changed', drifting(2, []));
    await flushPromises();
    expect(view.find('[data-testid="why-cell"]').exists()).toBe(false);
  });
});

describe('WorkloadCausePanel', () => {
  it('shows the sentence, the chain and the evidence, each object a link to the Graph', async () => {
    const api = installApi({ 'causes:drifting': () => ok(drifting(1, [CHECKOUT_CAUSE])), 'causes:for': ({ uid }) => ok({ target: deploymentLink, causes: uid === checkout.metadata.uid ? [CHECKOUT_CAUSE] : [] }) });
    const view = test.mount(WorkloadCausePanel, { props: { uid: checkout.metadata.uid } });
    await flushPromises();
    expect(view.get('h2').text()).toBe('Why it drifts');
    expect(view.findAll('.sentence').map((p) => p.text())).toEqual([CHECKOUT_CAUSE.sentence, `5 new pods can't pull ${IMAGE}: not found`]);
    const chains = view.findAll('.chain').map((chain) => chain.findAll('a').map((a) => a.text()));
    // The verdict's chain is the workload on screen alone: left out; the pods' chain is shown.
    expect(chains).toEqual([['Deployment checkout', 'ReplicaSet checkout-7c9d']]);
    const evidence = view.findAll('.under .evidence li');
    expect(evidence).toHaveLength(5);
    expect(evidence[0]?.text()).toContain(KUBELET);
    expect(evidence[4]?.text()).toBe('and 1 more');
    const podLink = evidence[0]!.get('a');
    expect(podLink.attributes('href')).toBe('#/graph?namespace=shop&focus=pod-a1');
    await podLink.trigger('click');
    expect(useNavigationStore().params).toEqual({ namespace: 'shop', focus: 'pod-a1' });
    const asked = api.calls.filter((call) => call.channel === 'causes:for').length;
    // The drifting causes changed: the panel asks again.
    api.emit('causes:changed', drifting(2, []));
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'causes:for')).toHaveLength(asked + 1);
  });

  it('shows nothing for an object the engine does not have', async () => {
    installApi({ 'causes:drifting': () => ok(drifting(1, [])), 'causes:for': () => err('not-found', 'No object with uid gone') });
    const view = test.mount(WorkloadCausePanel, { props: { uid: 'gone' } });
    await flushPromises();
    expect(view.find('[data-testid="why-panel"]').exists()).toBe(false);
  });
});
