// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { RecentSurprises, Surprise } from '../../../shared/contracts/surprises.ts';
import { ok } from '../../../shared/result.ts';
import WorkloadSurprises from '../../../renderer/views/workload/WorkloadSurprises.vue';
import SurpriseList from '../../../renderer/components/surprises/SurpriseList.vue';
import DiffObjectPanel from '../../../renderer/components/diff/DiffObjectPanel.vue';
import type { ObjectDiff } from '../../../shared/contracts/diff.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest();

const web = { kind: 'deployments.apps', objectKind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-web' };
const FIGHT: Surprise = {
  id: 'fight:d-web:spec.replicas:1',
  type: 'fight',
  at: Date.UTC(2026, 10, 27, 10, 0, 3),
  object: web,
  workload: web,
  field: 'spec.replicas',
  writes: [
    { manager: 'kube-controller-manager', subresource: 'scale', value: '3', at: Date.UTC(2026, 10, 27, 10, 0, 0) },
    { manager: 'kubectl', subresource: 'scale', value: '1', at: Date.UTC(2026, 10, 27, 10, 0, 1) },
  ],
  message: 'spec.replicas of Deployment shop/web is fought over: kube-controller-manager (through /scale) sets it to 3, kubectl (through /scale) sets it back to 1 (2 reversals in 3.0 s).',
};
const STALLED: Surprise = { id: 'stalled:d-api:1', type: 'stalled', at: Date.now(), since: Date.now() - 125_000, object: { ...web, uid: 'd-api', name: 'api' }, workload: { ...web, uid: 'd-api', name: 'api' }, message: 'The rollout of Deployment shop/api stalled (ProgressDeadlineExceeded).' };

describe('reconcile surprises in the renderer', () => {
  it('lists a fight with each write and a stall with how long it has lasted', async () => {
    const view = test.mount(SurpriseList, { props: { surprises: [FIGHT, STALLED], showWorkload: true } });
    const items = view.findAll('[data-testid="surprise"]');
    expect(items.map((item) => item.attributes('data-type'))).toEqual(['fight', 'stalled']);
    expect(items[0]?.text()).toContain('Two controllers fight');
    expect(items[0]?.text()).toContain('Deployment shop/web');
    expect(items[0]?.findAll('.writes li').map((li) => li.find('.manager').text())).toEqual(['kube-controller-manager (/scale)', 'kubectl (/scale)']);
    expect(items[1]?.get('[data-testid="stalled-for"]').text()).toMatch(/^stalled for 2 ?m/);
  });

  it("writes its times on the app's 24-hour clock, with the day when it is not today", () => {
    const today = new Date().setHours(14, 24, 42, 0);
    const earlier = { ...FIGHT, at: new Date(2025, 4, 3, 9, 5, 7).getTime(), writes: [{ manager: 'kubectl', subresource: 'scale', value: '1', at: new Date(2025, 4, 3, 9, 5, 6).getTime() }] };
    const view = test.mount(SurpriseList, { props: { surprises: [{ ...STALLED, at: today }, earlier] } });
    const items = view.findAll('[data-testid="surprise"]');
    expect(items[0]?.get('.head time').text()).toBe('14:24:42');
    expect(items[1]?.get('.head time').text()).toBe('May 3, 09:05:07');
    expect(items[1]?.get('.writes time').text()).toBe('May 3, 09:05:06');
  });

  it('shows a workload only its own surprises, and follows the pushes', async () => {
    const recent: RecentSurprises = { context: 'kind-dev', surprises: [STALLED] };
    const api = installApi({ 'surprises:recent': () => ok(recent) });
    const view = test.mount(WorkloadSurprises, { props: { uid: 'd-web' } });
    await flushPromises();
    expect(view.find('[data-testid="workload-surprises"]').exists()).toBe(false);
    api.emit('surprises:changed', { context: 'kind-dev', surprises: [FIGHT, STALLED] });
    await flushPromises();
    expect(view.findAll('[data-testid="surprise"]').map((item) => item.attributes('data-type'))).toEqual(['fight']);
  });
});

describe('a fight in Diff', () => {
  it('warns on the diffed object that two managers fight over one of its fields in the cluster', async () => {
    installApi({ 'surprises:recent': () => ok({ context: 'kind-dev', surprises: [FIGHT, STALLED] }) });
    const diff: ObjectDiff = {
      row: { id: 'apps/Deployment/shop/web', status: 'OutOfSync', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', source: { file: 'shop/web.yaml', line: 1 }, changed: 1, ignored: 0, approximate: false, fields: ['spec.replicas'] },
      live: 'spec:\n  replicas: 3\n',
      predicted: 'spec:\n  replicas: 1\n',
      edits: [],
      unified: '',
      fields: [],
      truncated: false,
    };
    const view = test.mount(DiffObjectPanel, { props: { object: diff, loading: false, error: null, ignoring: null } });
    await flushPromises();
    const notes = view.findAll('[data-testid="diff-object-fight"]');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.text()).toBe(`Fought over in the cluster: ${FIGHT.message}`);
    await view.setProps({ object: { ...diff, row: { ...diff.row, name: 'other', id: 'apps/Deployment/shop/other' } } });
    expect(view.find('[data-testid="diff-object-fight"]').exists()).toBe(false);
  });
});
