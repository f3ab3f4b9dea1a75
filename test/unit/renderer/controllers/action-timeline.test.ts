// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActionsResult } from '../../../../shared/contracts/events.ts';
import { err, ok } from '../../../../shared/result.ts';
import ActionTimeline from '../../../../renderer/components/events/ActionTimeline.vue';
import type { FakeApi, Handlers } from '../fake-api.ts';
import { installApi, useRendererTest } from '../setup.ts';
import { NOW, reconcile } from './fixtures.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});
// After the timers' hooks, so its own clean-up (unmounting) runs while the timers are still fake.
const test = useRendererTest();

const WEB = { kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-web' };
const ROLLOUT: ActionsResult = {
  workload: WEB,
  from: NOW - 120_000,
  to: NOW,
  truncated: false,
  reconciles: [reconcile('web', { workload: WEB, start: NOW - 60_000, end: NOW - 59_000, lagMs: 1_000 })],
  actions: [
    { at: NOW - 59_000, id: 'a1', controller: 'deployment-controller', type: 'Normal', reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-2 from 0 to 1', object: WEB, depth: 0, count: 1 },
    { at: NOW - 58_900, id: 'a2', controller: 'replicaset-controller', type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: web-2-abc', object: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-2', uid: 'rs-2' }, depth: 1, count: 1 },
    { at: NOW - 58_800, id: 'a3', controller: 'default-scheduler', type: 'Normal', reason: 'Scheduled', message: 'Successfully assigned shop/web-2-abc to worker-1', object: { kind: 'Pod', namespace: 'shop', name: 'web-2-abc', uid: 'p-1' }, depth: 2, count: 1 },
    { at: NOW - 50_000, id: 'a4', controller: 'kubelet', type: 'Warning', reason: 'BackOff', message: 'Back-off pulling image', object: { kind: 'Pod', namespace: 'shop', name: 'web-2-abc', uid: 'p-1' }, depth: 2, count: 3 },
  ],
};

async function mountTimeline(handlers: Handlers, props = { uid: 'd-web', from: NOW - 120_000, to: NOW }): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi(handlers);
  const view = test.mount(ActionTimeline, { props });
  await flushPromises();
  return { api, view };
}

describe('ActionTimeline', () => {
  it('shows who acted, in causal order, with one lane per controller', async () => {
    const { api, view } = await mountTimeline({ 'events:actions': () => ok(ROLLOUT) });
    expect(api.calls.find((c) => c.channel === 'events:actions')?.payload).toEqual({ uid: 'd-web', from: NOW - 120_000, to: NOW, limit: 400 });
    const part = (step: ReturnType<VueWrapper['find']>, selector: string) => (step.find(selector).exists() ? step.find(selector).text() : null);
    const steps = view.findAll('[data-testid="action-step"]').map((step) => ['.offset', '.who', '.reason', '.object', '.count', '.message'].map((selector) => part(step, selector)).filter((text) => text).join(' '));
    expect(steps).toEqual([
      expect.stringMatching(/^\+0\.0 s you \/ a client Spec changed: generation 2/),
      expect.stringMatching(/^\+1\.0 s deployment-controller ScalingReplicaSet Deployment\/web/),
      expect.stringMatching(/^\+1\.0 s deployment-controller Observed generation 2 .*caught up after 1\.0 s/),
      expect.stringMatching(/^\+1\.1 s replicaset-controller SuccessfulCreate ReplicaSet\/web-2/),
      expect.stringMatching(/^\+1\.2 s default-scheduler Scheduled Pod\/web-2-abc/),
      expect.stringMatching(/^\+10 s kubelet BackOff Pod\/web-2-abc ×3/),
    ]);
    expect(view.findAll('.lane-name').map((lane) => lane.text())).toEqual(['deployment-controller', 'replicaset-controller', 'default-scheduler', 'kubelet']);
    expect(view.findAll('.dot[data-warning]')).toHaveLength(1);
    expect(view.find('.head .meta').text()).toMatch(/^4 actions by 4 controllers/);
  });

  it('asks again for a new window, and when Events arrive while the window reaches now', async () => {
    const { api, view } = await mountTimeline({ 'events:actions': () => ok(ROLLOUT) });
    await view.setProps({ uid: 'd-web', from: NOW - 300_000, to: NOW });
    await flushPromises();
    expect(api.calls.filter((c) => c.channel === 'events:actions')).toHaveLength(2);
    api.emit('events:changed', { revision: 5, context: 'kind-dev' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(api.calls.filter((c) => c.channel === 'events:actions')).toHaveLength(3);
  });

  it('says why it shows nothing', async () => {
    const empty = await mountTimeline({ 'events:actions': () => ok({ ...ROLLOUT, actions: [], reconciles: [] }) });
    expect(empty.view.text()).toContain('No controller acted on this workload or what it owns in this window.');
    empty.view.unmount();
    const missing = await mountTimeline({ 'events:actions': () => err('not-found', 'No workload with uid gone has been seen in this context.') });
    expect(missing.view.find('[data-testid="action-timeline-error"]').text()).toBe('Who acted could not be loaded: No workload with uid gone has been seen in this context.');
  });
});
