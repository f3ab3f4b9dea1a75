// @vitest-environment happy-dom
/**
 * A custom resource opened from the timeline: the workload screen names it by its Kubernetes
 * kind and lists its episodes with the status rule's words and the cluster's reason.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { SeriesName, SeriesResult } from '../../../../shared/contracts/history.ts';
import { ok } from '../../../../shared/result.ts';
import WorkloadView from '../../../../renderer/views/workload/WorkloadView.vue';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, MINUTE, STATUS, T0 } from './fixtures.ts';

const FROM = T0;
const TO = T0 + 20 * MINUTE;
const test = useRendererTest({ hash: `#/workload?uid=uid-orders-db&from=${FROM}&to=${TO}` });

const ordersDb = { kind: 'databases.db.kubedrift.dev', kindName: 'Database', namespace: 'shop', name: 'orders-db', uid: 'uid-orders-db' };
const MESSAGE = 'postgres 17.0 is not supported by this operator (supported: 15.8, 16.4)';

function stalledDatabase(): SeriesResult {
  const at = (minutes: number): number => T0 + minutes * MINUTE;
  const counts: Partial<Record<SeriesName, Array<[number, number]>>> = {
    desired: [[at(0), 2], [at(12), 3]],
    ready: [[at(0), 2], [at(12), 2], [at(16), 3]],
    generation: [[at(0), 1], [at(5), 2], [at(12), 3]],
    observedGeneration: [[at(0), 1], [at(5), 2], [at(12), 3]],
  };
  return {
    workload: ordersDb,
    from: at(0),
    to: at(20),
    series: (['desired', 'current', 'ready', 'available', 'updated', 'unavailable', 'generation', 'observedGeneration'] as SeriesName[]).map((name) => ({ name, points: counts[name] ?? [] })),
    rawSamples: 6,
    rollouts: [{ generation: 2, start: at(5), end: null }],
    warnings: [],
    episodes: [episode(3, ordersDb, at(5), at(16), { peakGap: 1, reasons: ['stalled', 'ready'], trigger: { generation: 2 }, status: { state: 'failed', reason: 'UnsupportedVersion', message: MESSAGE } })],
    since: STATUS.since,
  };
}

describe('a custom resource on the workload screen', () => {
  it('is named by its kind, and its episode says the operator\'s reason', async () => {
    installApi({ 'history:status': () => ok(STATUS), 'history:series': () => ok(stalledDatabase()) });
    const view = test.mount(WorkloadView, { attachTo: document.body });
    await flushPromises();
    expect(view.text()).toContain('Database');
    expect(view.text()).not.toContain('databases.db.kubedrift.dev');
    expect(view.get('[data-testid="workload-name"]').text()).toBe('orders-db');
    expect(view.findAll('[data-testid="episode-reason"]').map((badge) => [badge.text(), badge.attributes('data-tone')])).toEqual([
      ['Failed', 'danger'],
      ['Not ready', 'warning'],
    ]);
    const status = view.get('[data-testid="episode-status"]');
    expect(status.text()).toBe('UnsupportedVersion');
    expect(status.attributes('title')).toBe(MESSAGE);
  });
});
