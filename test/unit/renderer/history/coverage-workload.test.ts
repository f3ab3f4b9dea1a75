// @vitest-environment happy-dom
/**
 * The workload screen over unobserved time: its episode list never says "no drift" for time
 * nobody watched, an empty unobserved window says "not recorded", and facts the cluster told
 * without a time are listed as inferred, not placed on the chart.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { CoverageGap, InferredFact, SeriesResult } from '../../../../shared/contracts/history.ts';
import { ok } from '../../../../shared/result.ts';
import WorkloadView from '../../../../renderer/views/workload/WorkloadView.vue';
import { installApi, useRendererTest } from '../setup.ts';
import { MINUTE, STATUS, stuckRollout, T0 } from './fixtures.ts';

const FROM = T0;
const TO = T0 + 20 * MINUTE;
const test = useRendererTest({ hash: `#/workload?uid=uid-payments-api&from=${FROM}&to=${TO}` });

const restarts: InferredFact = {
  id: 'f1',
  fact: 'terminated',
  at: null,
  end: null,
  object: { kind: 'Pod', namespace: 'payments', name: 'payments-api-7d9f8-abcde', uid: 'p1' },
  workloadUid: 'uid-payments-api',
  detail: 'container sidecar restarted 2 times; when is unknown',
};

async function mountWith(change: Partial<SeriesResult>): Promise<VueWrapper> {
  installApi({ 'history:status': () => ok(STATUS), 'history:series': () => ok({ ...stuckRollout(), episodes: [], ...change }) });
  const view = test.mount(WorkloadView, { attachTo: document.body });
  await flushPromises();
  return view;
}

describe('WorkloadView over unobserved time', () => {
  it('does not call a partly observed window drift-free, and says how much was not recorded', async () => {
    const gap: CoverageGap = { start: T0 + 5 * MINUTE, end: T0 + 15 * MINUTE, reason: 'app-closed' };
    const view = await mountWith({ gaps: [gap] });
    const list = view.get('[data-testid="episode-list"]').text();
    expect(list).toContain('No drift in the recorded part of this window; 10m not recorded (not recording: app closed');
    expect(list).not.toContain('agreed throughout');
  });

  it('says "not recorded" for a window nobody observed', async () => {
    const view = await mountWith({ gaps: [{ start: FROM, end: TO, reason: 'stopped' }], rawSamples: 0, series: [] });
    expect(view.get('[data-testid="episodes-not-recorded"]').text()).toContain('Not recorded in this window: whether it drifted is unknown');
    expect(view.get('[data-testid="workload-empty"]').text()).toContain('Not recorded in this window: 20m not recorded (not recording: the app stopped unexpectedly');
  });

  it('lists facts inferred without a time, and keeps the plain wording when all was observed', async () => {
    const view = await mountWith({ gaps: [], inferred: [restarts] });
    expect(view.get('[data-testid="workload-untimed"]').text()).toBe('Inferred from the cluster, time unknown: container sidecar restarted 2 times; when is unknown');
    expect(view.get('[data-testid="episode-list"]').text()).toContain('No drift in this window: desired and actual agreed throughout.');
  });
});
