// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../../shared/result.ts';
import { useNavigationStore } from '../../../../renderer/stores/navigation.ts';
import { useTimeTravelStore } from '../../../../renderer/stores/time-travel.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import type { FakeApi, Handlers } from '../fake-api.ts';
import { episode, episodeList, MINUTE, STATUS, T0, workloadRef } from './fixtures.ts';
import { installApi, useRendererTest } from '../setup.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });

const RANGE = { from: T0, to: T0 + 60 * MINUTE };
const api = workloadRef('payments-api');
const web = workloadRef('web', { namespace: 'shop' });
const EPISODES = [episode(1, web, T0 + 5 * MINUTE, T0 + 9 * MINUTE), episode(2, api, T0 + 20 * MINUTE, T0 + 30 * MINUTE, { reasons: ['stalled'] }), episode(3, api, T0 + 50 * MINUTE, null)];

async function mountTimeline(handlers: Handlers = {}): Promise<{ api: FakeApi; view: VueWrapper }> {
  const fake = installApi({
    'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
    'history:episodes': (query) => ok(episodeList(EPISODES, { from: query.from, to: query.to }, [[T0, 0], [T0 + 5 * MINUTE, 1], [T0 + 9 * MINUTE, 0]])),
    ...handlers,
  });
  const view = test.mount(TimelineView, { attachTo: document.body });
  await flushPromises();
  return { api: fake, view };
}

const laneNames = (view: VueWrapper): string[] => view.findAll('[data-testid="lane"]').map((lane) => lane.attributes('data-workload') ?? '');
const episodeCalls = (fake: FakeApi) => fake.calls.filter((call) => call.channel === 'history:episodes').map((call) => call.payload as Record<string, unknown>);

describe('TimelineView', () => {
  it('shows a lane per drifting workload, the ongoing one first, each episode a bar placed by time', async () => {
    const { view } = await mountTimeline();
    expect(laneNames(view)).toEqual(['payments-api', 'web']);
    expect(view.get('[data-testid="timeline-summary"]').text()).toMatch(/^2 workloads drifted · 1 ongoing · 3 episodes/);
    const bars = view.findAll('[data-testid="lane-episode"]');
    expect(bars.map((bar) => bar.attributes('data-episode'))).toEqual(['2', '3', '1']);
    // Episode 2 runs from minute 20 to 30 of the hour on view.
    const style = bars[0]!.attributes('style') ?? '';
    expect(Number(/left: ([\d.]+)%/.exec(style)?.[1])).toBeCloseTo(100 / 3, 5);
    expect(Number(/width: ([\d.]+)%/.exec(style)?.[1])).toBeCloseTo(100 / 6, 5);
    expect(bars[0]!.attributes('data-severity')).toBe('danger');
    expect(bars[1]!.attributes('data-ongoing')).toBeDefined();
    expect(bars[0]!.attributes('title')).toContain('payments/payments-api');
    // No moment picked yet: no cursor line across the lanes.
    expect(view.findAll('.lane .mark')).toHaveLength(0);
  });

  it('says one episode, not "1 episodes"', async () => {
    const { view } = await mountTimeline({ 'history:episodes': (query) => ok(episodeList(EPISODES.slice(0, 1), { from: query.from, to: query.to }, [[T0, 0]])) });
    expect(view.get('[data-testid="timeline-summary"]').text()).toMatch(/^1 workload drifted · 0 ongoing · 1 episode\b(?!s)/);
  });

  it('counts workloads the same way in the header, the big number and the lanes: a ReplicaSet of a Deployment is not one', async () => {
    const rs = workloadRef('payments-api-7d9f8', { kind: 'replicasets.apps' });
    const withReplicaSets = [...EPISODES, episode(4, rs, T0 + 50 * MINUTE, null, { controller: api }), episode(5, rs, T0 + 20 * MINUTE, T0 + 30 * MINUTE, { controller: api })];
    // The engine's count leaves the ReplicaSet out: 1 workload (payments-api) drifts at the end.
    const { view } = await mountTimeline({ 'history:episodes': (query) => ok(episodeList(withReplicaSets, { from: query.from, to: query.to }, [[T0, 0], [T0 + 50 * MINUTE, 1]])) });
    expect(laneNames(view)).toEqual(['payments-api', 'web']);
    expect(view.get('[data-testid="timeline-summary"]').text()).toMatch(/^2 workloads drifted · 1 ongoing · 3 episodes/);
    expect(view.get('[data-testid="timeline-hidden-replicasets"]').text()).toBe('(not counted: 1 ReplicaSet of Deployments)');
    expect(view.get('[data-testid="drift-now"]').text()).toBe('1');
    expect(view.get('[data-testid="drift-summary"]').text()).toContain('workload drifting at');
    // Asked for ReplicaSets, they are the lanes.
    await view.get('[data-option="replicasets.apps"]').trigger('click');
    await flushPromises();
    expect(laneNames(view)).toContain('payments-api-7d9f8');
    expect(view.find('[data-testid="timeline-hidden-replicasets"]').exists()).toBe(false);
  });

  it('opens the workload at the episode when its bar is clicked', async () => {
    const { view } = await mountTimeline();
    await view.get('[data-testid="lane-episode"][data-episode="2"]').trigger('click');
    const navigation = useNavigationStore();
    expect(navigation.current).toBe('workload');
    expect(navigation.params['uid']).toBe('uid-payments-api');
    expect(Number(navigation.params['at'])).toBe(T0 + 20 * MINUTE);
    expect(Number(navigation.params['from'])).toBeLessThan(T0 + 20 * MINUTE);
    expect(Number(navigation.params['to'])).toBeGreaterThan(T0 + 30 * MINUTE);
  });

  it('asks the engine again with each filter, and filters lanes by name locally', async () => {
    const { api: fake, view } = await mountTimeline();
    expect(episodeCalls(fake)[0]).toEqual({ ...RANGE, limit: 20_000 });
    await view.get('[data-option="statefulsets.apps"]').trigger('click');
    await view.get('[data-testid="ongoing-only"]').trigger('click');
    await view.get('[data-testid="min-duration"] [data-option="300000"]').trigger('click');
    await flushPromises();
    expect(episodeCalls(fake).at(-1)).toEqual({ ...RANGE, limit: 20_000, kind: 'statefulsets.apps', ongoingOnly: true, minDurationMs: 300_000 });
    await view.get('input[type="search"], .base-search-field input').setValue('web');
    await flushPromises();
    expect(laneNames(view)).toEqual(['web']);
  });

  it('says when history is not available, and why the episodes are missing', async () => {
    const { view } = await mountTimeline({
      'history:status': () => err('unavailable', 'History is not recorded yet'),
      'history:episodes': () => err('unavailable', 'History is not recorded yet'),
    });
    expect(view.get('[data-testid="history-notice"]').text()).toContain('History unavailable.');
    expect(view.get('[data-testid="timeline-error"]').text()).toBe('Drift episodes could not be loaded: History is not recorded yet');
  });

  it('says the engine cut the list short', async () => {
    const { view } = await mountTimeline({ 'history:episodes': (query) => ok({ ...episodeList(EPISODES, { from: query.from, to: query.to }), truncated: true }) });
    expect(view.text()).toContain('Showing the first 3 episodes only');
  });

  it('time-travels to the moment picked on the scrubber, then opens the Overview', async () => {
    const { api: fake, view } = await mountTimeline({ 'history:state-at': ({ at }) => ok({ at, total: 0, objects: [], nextOffset: null }) });
    await view.get('[data-testid="scrubber-track"]').trigger('keydown', { key: 'End' });
    expect(view.find('[data-testid="scrubber-time"]').exists()).toBe(true);
    expect(view.findAll('.lane .mark.cursor').map((mark) => mark.attributes('style'))).toEqual(['left: 100%;', 'left: 100%;']);
    await view.get('[data-testid="travel"]').trigger('click');
    await flushPromises();
    expect(useTimeTravelStore().at).toBe(RANGE.to);
    expect(fake.calls.some((call) => call.channel === 'history:state-at')).toBe(true);
    expect(useNavigationStore().current).toBe('overview');
  });

  it('compares a pinned moment with another and lists what changed', async () => {
    const { api: fake, view } = await mountTimeline({
      'history:compare': ({ t1, t2 }) => ok({ t1, t2, changes: [{ workload: api, before: null, after: null, changed: ['deleted'] }] }),
    });
    const track = view.get('[data-testid="scrubber-track"]');
    await track.trigger('keydown', { key: 'Home' });
    await view.get('[data-testid="pin"]').trigger('click');
    await track.trigger('keydown', { key: 'End' });
    await view.get('[data-testid="compare"]').trigger('click');
    await flushPromises();
    expect(fake.calls.find((call) => call.channel === 'history:compare')?.payload).toEqual({ t1: RANGE.from, t2: RANGE.to });
    expect(view.get('[data-testid="compare-summary"]').text()).toBe('1 workload changed');
    expect(view.get('[data-testid="compare-panel"]').text()).toContain('payments/payments-api');
  });

  it("names the history source that observed a compared moment the app did not", async () => {
    const { view } = await mountTimeline({
      'history:compare': ({ t1, t2 }) => ok({ t1, t2, changes: [{ workload: api, before: null, after: null, changed: ['deleted'] }], recordedBy: { t1: 'rack recorder' }, sources: [{ name: 'rack recorder', state: 'merged' as const }] }),
    });
    const track = view.get('[data-testid="scrubber-track"]');
    await track.trigger('keydown', { key: 'Home' });
    await view.get('[data-testid="pin"]').trigger('click');
    await track.trigger('keydown', { key: 'End' });
    await view.get('[data-testid="compare"]').trigger('click');
    await flushPromises();
    expect(view.get('[data-testid="compare-recorded-by-t1"]').text()).toBe('recorded by rack recorder');
    // The second moment is the app's own.
    expect(view.find('[data-testid="compare-recorded-by-t2"]').exists()).toBe(false);
  });

  it('shows the range and filters it was left with when the user comes back', async () => {
    const { api: fake, view } = await mountTimeline();
    await view.get('[data-option="6h"]').trigger('click');
    await view.get('[data-option="jobs.batch"]').trigger('click');
    await flushPromises();
    view.unmount();
    useNavigationStore().go('timeline');
    test.mount(TimelineView, { attachTo: document.body });
    await flushPromises();
    const last = episodeCalls(fake).at(-1) as { from: number; to: number; kind?: string };
    expect(last.to - last.from).toBe(6 * 60 * MINUTE);
    expect(last.kind).toBe('jobs.batch');
  });
});
