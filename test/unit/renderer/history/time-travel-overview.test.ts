// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { ClusterHealth, SlimObject } from '../../../../shared/cluster.ts';
import { err, ok } from '../../../../shared/result.ts';
import TimeTravelBanner from '../../../../renderer/components/shell/TimeTravelBanner.vue';
import { useNavigationStore } from '../../../../renderer/stores/navigation.ts';
import { useTimeTravelStore } from '../../../../renderer/stores/time-travel.ts';
import OverviewView from '../../../../renderer/views/overview/OverviewView.vue';
import { clusterHealth, deployment, kindHealth, snapshotFrames } from '../cluster-fixtures.ts';
import type { FakeApi, Handlers } from '../fake-api.ts';
import { installApi, useRendererTest } from '../setup.ts';

const test = useRendererTest({ hash: '#/overview', frames: true });

const AT = new Date(2025, 4, 3, 14, 3, 12).getTime();
const LIVE: ClusterHealth = clusterHealth('e1', [kindHealth('deployments.apps', 'live', 2)]);
const live = [deployment('web', { namespace: 'shop' }), deployment('api', { namespace: 'shop', uid: 'uid-api' })];
/** The same api an hour ago, one replica short; web did not exist yet. */
const past: SlimObject[] = [deployment('api', { namespace: 'shop', uid: 'uid-api', ready: 1 })];

async function mountBoth(handlers: Handlers = {}): Promise<{ api: FakeApi; overview: VueWrapper; banner: VueWrapper }> {
  const api = installApi({
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(LIVE),
    'history:state-at': ({ at }) => ok({ at, total: past.length, objects: past, nextOffset: null }),
    ...handlers,
  });
  const banner = test.mount(TimeTravelBanner);
  const overview = test.mount(OverviewView, { attachTo: document.body });
  await flushPromises();
  for (const frame of snapshotFrames('e1', 1, live)) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
  return { api, overview, banner };
}

const names = (view: VueWrapper): string[] => view.findAll('.body [role="row"]').map((row) => row.findAll('[role="cell"]')[3]?.text() ?? '');

describe('time travel in the Overview', () => {
  it('shows the cluster as it was at T under a banner, then live again', async () => {
    const { overview, banner } = await mountBoth();
    expect(names(overview).sort()).toEqual(['api', 'web']);
    expect(banner.find('[data-testid="time-travel-banner"]').exists()).toBe(false);

    await useTimeTravelStore().load(AT);
    await flushPromises();
    // Waited for, as going back to live below: on a loaded machine (a CI run) the past's rows took another turn.
    await vi.waitFor(() => expect(names(overview)).toEqual(['api']));
    expect(overview.find('[data-testid="drift-badge"]').exists()).toBe(true);
    // In the past there are no causes: the Why column carries the drift rule's own reason.
    expect(overview.get('[data-testid="why-summary"]').text()).toContain('2 not ready');
    expect(overview.get('.table').attributes('data-past')).toBeDefined();
    expect(banner.get('[data-testid="time-travel-banner"]').text()).toContain('Viewing May 3, 14:03:12');
    expect(banner.text()).toContain('1 objects');

    await banner.get('[data-testid="back-to-live"]').trigger('click');
    test.frames.runFrame();
    await flushPromises();
    // Waited for rather than read once: on a loaded machine the re-render may take another turn.
    await vi.waitFor(() => expect(names(overview).sort()).toEqual(['api', 'web']));
    expect(banner.find('[data-testid="time-travel-banner"]').exists()).toBe(false);
  });

  it('names the history source that observed the moment on view, and a source that failed meanwhile', async () => {
    const { banner } = await mountBoth({
      'history:state-at': ({ at }) =>
        ok({ at, total: past.length, objects: past, nextOffset: null, recordedBy: 'rack recorder', sources: [{ name: 'rack recorder', state: 'merged' }, { name: 'old rack', state: 'error', message: '10.0.0.9:7443 cannot be reached: nothing listens there.' }] }),
    });
    await useTimeTravelStore().load(AT);
    await flushPromises();
    expect(banner.get('[data-testid="time-travel-recorded-by"]').text()).toBe('recorded by rack recorder');
    const trouble = banner.get('[data-testid="time-travel-source-errors"]');
    expect(trouble.text()).toBe('history source old rack failed');
    expect(trouble.attributes('title')).toBe('History source old rack could not be read: 10.0.0.9:7443 cannot be reached: nothing listens there.');
    // The app's own history: no source named.
    installApi({ 'history:state-at': ({ at }) => ok({ at, total: past.length, objects: past, nextOffset: null, sources: [] }) });
    await useTimeTravelStore().load(AT - 60_000);
    await flushPromises();
    expect(banner.find('[data-testid="time-travel-recorded-by"]').exists()).toBe(false);
    expect(banner.find('[data-testid="time-travel-source-errors"]').exists()).toBe(false);
    expect(banner.text()).toContain('1 objects');
  });

  it('says the past is loading, and why it failed, with a retry', async () => {
    let fail = true;
    const { overview, banner } = await mountBoth({ 'history:state-at': ({ at }) => (fail ? err('unavailable', 'no keyframe before this time') : ok({ at, total: 1, objects: past, nextOffset: null })) });
    const loading = useTimeTravelStore().load(AT);
    await overview.vm.$nextTick();
    expect(banner.get('[data-testid="time-travel-banner"]').attributes('data-state')).toBe('loading');
    expect(overview.text()).toContain('Loading the cluster as it was then…');
    await loading;
    await flushPromises();
    expect(banner.get('[data-testid="time-travel-banner"]').text()).toContain('no keyframe before this time');
    expect(overview.text()).toContain('The cluster at this time cannot be rebuilt');
    fail = false;
    await banner.get('button').trigger('click');
    await flushPromises();
    await vi.waitFor(() => expect(names(overview)).toEqual(['api']));
  });

  it("opens a workload's history from its name, at the moment on view", async () => {
    const { overview } = await mountBoth();
    await useTimeTravelStore().load(AT);
    await flushPromises();
    await vi.waitFor(() => expect(overview.find('[data-testid="workload-link"]').exists()).toBe(true));
    await overview.get('[data-testid="workload-link"]').trigger('click');
    const navigation = useNavigationStore();
    expect(navigation.current).toBe('workload');
    expect(navigation.params).toEqual({ uid: 'uid-api', at: String(AT) });
  });

  it('on a screen that stays live, says the Overview shows the past', async () => {
    const { banner } = await mountBoth();
    await useTimeTravelStore().load(AT);
    useNavigationStore().go('pods');
    await flushPromises();
    expect(banner.text()).toContain('Overview shows the cluster as of May 3, 14:03:12; this screen is live.');
  });

  it('steps through time from the banner', async () => {
    const { api, banner } = await mountBoth();
    await useTimeTravelStore().load(AT);
    await flushPromises();
    await banner.get('[data-step="-10000"]').trigger('click');
    await flushPromises();
    expect(useTimeTravelStore().at).toBe(AT - 10_000);
    expect(api.calls.filter((call) => call.channel === 'history:state-at').at(-1)?.payload).toEqual({ at: AT - 10_000, offset: 0, limit: 2_000 });
    expect(banner.text()).toContain('Viewing May 3, 14:03:02');
  });
});
