// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { ClusterFrame } from '../../../../shared/cluster.ts';
import { err, ok } from '../../../../shared/result.ts';
import { useNavigationStore } from '../../../../renderer/stores/navigation.ts';
import ControllersView from '../../../../renderer/views/controllers/ControllersView.vue';
import { clusterHealth, deployment, kindHealth, snapshotFrames } from '../cluster-fixtures.ts';
import type { FakeApi, Handlers } from '../fake-api.ts';
import { installApi, useRendererTest } from '../setup.ts';
import { controllers, eventRow, listOf, reconcile, reconcileList, summary } from './fixtures.ts';

const test = useRendererTest({ frames: true });

const EVENTS = [
  eventRow('1', { reason: 'Pulled' }),
  eventRow('2', { type: 'Warning', reason: 'BackOff', count: 23, message: 'Back-off restarting failed container' }),
  eventRow('3', { controller: 'deployment-controller', reason: 'ScalingReplicaSet', object: { kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-web' } }),
];

async function mountView(handlers: Handlers = {}): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(clusterHealth('e1', [kindHealth('events', 'live', 3), kindHealth('deployments.apps', 'live', 1)])),
    'events:controllers': () =>
      ok(
        controllers([
          summary('kubelet', { occurrences: 24, events: 2, warnings: 23, warningRatio: 0.96, reasons: [{ reason: 'BackOff', type: 'Warning', count: 23 }, { reason: 'Pulled', type: 'Normal', count: 1 }] }),
          summary('deployment-controller', { occurrences: 1, stuck: 1, lag: { samples: 4, p50: 800, p95: 1_200, max: 1_200 } }),
        ]),
      ),
    'events:list': (query) => ok(listOf(EVENTS, query)),
    'events:reconciles': () => ok(reconcileList([reconcile('api', { end: null, stuck: true, lagMs: 400_000 }), reconcile('web')])),
    'events:actions': ({ uid, from, to }) =>
      ok({
        workload: { kind: 'Deployment', namespace: 'shop', name: uid.slice(2), uid },
        from,
        to,
        truncated: false,
        reconciles: [],
        actions: [{ at: from + 1_000, id: `a-${uid}`, controller: 'deployment-controller', type: 'Normal', reason: 'ScalingReplicaSet', message: `Scaled ${uid}`, object: { kind: 'Deployment', name: uid.slice(2), uid }, depth: 0, count: 1 }],
      }),
    ...handlers,
  });
  const view = test.mount(ControllersView, { attachTo: document.body });
  await flushPromises();
  const snapshot: ClusterFrame[] = snapshotFrames('e1', 1, [deployment('web', { namespace: 'shop' })]);
  for (const frame of snapshot) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
  return { api, view };
}

const cards = (view: VueWrapper) => view.findAll('[data-testid="controller-card"]');
const rows = (view: VueWrapper) => view.findAll('[data-testid="controller-detail"] .body [role="row"]');

describe('ControllersView', () => {
  it('shows a card per controller with its counts, Warning share, reasons, lag and stuck reconciles', async () => {
    const { view } = await mountView();
    await vi.waitFor(() => expect(cards(view)).toHaveLength(2));
    const [kubelet, deployments] = cards(view);
    expect(kubelet?.text()).toContain('24 events');
    expect(kubelet?.text()).toContain('96% Warning');
    expect(kubelet?.find('.reason[data-type="Warning"]').text()).toContain('BackOff');
    expect(kubelet?.find('[data-testid="controller-lag"]').exists()).toBe(false);
    expect(deployments?.find('[data-testid="controller-lag"]').text()).toMatch(/p50 800 ms.*p95 1\.2 s.*max 1\.2 s/);
    expect(deployments?.find('[data-testid="stuck-badge"]').text()).toBe('1 stuck');
    expect(view.find('[data-testid="stuck-total"]').text()).toBe('1 stuck reconcile');
    expect(kubelet?.attributes('aria-pressed')).toBe('true');
  });

  it('lists the selected controller\'s Events and filters them by type', async () => {
    const { api, view } = await mountView();
    await vi.waitFor(() => expect(rows(view)).toHaveLength(2));
    expect(rows(view)[1]?.attributes('data-tone')).toBe('danger');
    expect(rows(view)[1]?.text()).toContain('×23');
    await view.find('[data-testid="controller-detail"] [data-testid="segment"][data-option="Warning"]').trigger('click');
    await flushPromises();
    expect(api.calls.filter((c) => c.channel === 'events:list').at(-1)?.payload).toMatchObject({ controller: 'kubelet', type: 'Warning' });
    await vi.waitFor(() => expect(rows(view).map((r) => r.text())).toEqual([expect.stringContaining('BackOff')]));
  });

  it('opens a workload from its Event, and shows the reconciles of a controller, stuck first', async () => {
    const { view } = await mountView();
    await vi.waitFor(() => expect(cards(view)).toHaveLength(2));
    await cards(view)[1]?.trigger('click');
    await vi.waitFor(() => expect(rows(view)).toHaveLength(1));
    await view.find('[data-testid="event-object"]').trigger('click');
    expect(useNavigationStore().current).toBe('workload');
    expect(useNavigationStore().params).toEqual({ uid: 'd-web' });
  });

  it('shows the reconciles tab with stuck ones first, and who acted during the one picked', async () => {
    const { api, view } = await mountView();
    await vi.waitFor(() => expect(cards(view)).toHaveLength(2));
    await cards(view)[1]?.trigger('click');
    await flushPromises();
    await view.find('[data-testid="controller-detail"] [data-testid="segment"][data-option="reconciles"]').trigger('click');
    await vi.waitFor(() => expect(rows(view)).toHaveLength(2));
    expect(rows(view)[0]?.text()).toMatch(/stuck.*Deployment\/api.*6m 40s/);
    expect(rows(view)[0]?.attributes('data-tone')).toBe('danger');
    // The first (stuck) reconcile's actions show at once; picking another shows its own.
    await vi.waitFor(() => expect(view.find('[data-testid="action-step"]').text()).toContain('Scaled d-api'));
    await view.findAll('[data-testid="reconcile-acted"]')[1]?.trigger('click');
    await vi.waitFor(() => expect(view.find('[data-testid="action-step"]').text()).toContain('Scaled d-web'));
    expect(api.calls.filter((c) => c.channel === 'events:actions').at(-1)?.payload).toMatchObject({ uid: 'd-web', from: reconcile('web').start - 1_000 });
  });

  it('says clearly when the engine cannot answer', async () => {
    const { view } = await mountView({ 'events:controllers': () => err('internal', 'events:controllers failed: boom') });
    await vi.waitFor(() => expect(view.find('[data-testid="controllers-error"]').text()).toBe('The controllers could not be loaded: events:controllers failed: boom'));
  });
});
