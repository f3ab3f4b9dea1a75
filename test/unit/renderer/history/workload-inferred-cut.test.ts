// @vitest-environment happy-dom
/**
 * A workload's inferred rows come at most 1,000 to an answer: when the engine says the range
 * holds more (`inferredTotal`), the workload screen says it shows only the newest of them and how
 * many there are, as the Timeline does, instead of passing the cut off as everything; when
 * nothing was cut it says nothing.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { InferredFact, SeriesResult } from '../../../../shared/contracts/history.ts';
import { ok } from '../../../../shared/result.ts';
import WorkloadView from '../../../../renderer/views/workload/WorkloadView.vue';
import { installApi, useRendererTest } from '../setup.ts';
import { MINUTE, STATUS, stuckRollout, T0 } from './fixtures.ts';

const FROM = T0;
const TO = T0 + 60 * MINUTE;
const test = useRendererTest({ hash: `#/workload?uid=uid-payments-api&from=${FROM}&to=${TO}` });

/** `count` terminations of the workload's crash-looping container, one a second from minute 10 on. */
function terminations(count: number): InferredFact[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `terminated-${i}`,
    fact: 'terminated' as const,
    at: T0 + 10 * MINUTE + i * 1_000,
    end: null,
    object: { kind: 'Pod', namespace: 'payments', name: `payments-api-7d9f8-${i}`, uid: `pod-${i}` },
    workloadUid: 'uid-payments-api',
    detail: 'container api terminated: Error (exit code 1)',
  }));
}

async function mountWith(change: Partial<SeriesResult>): Promise<VueWrapper> {
  installApi({ 'history:status': () => ok(STATUS), 'history:series': () => ok({ ...stuckRollout(), gaps: [], ...change }) });
  const view = test.mount(WorkloadView, { attachTo: document.body });
  await flushPromises();
  return view;
}

describe("the workload chart's inferred rows", () => {
  it('says it shows only the newest 1,000 of them, and how many the range holds', async () => {
    const view = await mountWith({ inferred: terminations(1_000), inferredTotal: 2_345 });
    expect(view.get('[data-testid="workload-inferred-cut"]').text()).toBe('Showing the newest 1,000 inferred rows of 2,345 (rollouts first) — narrow the range to see the others.');
  });

  it('says nothing when the answer holds all of them', async () => {
    const view = await mountWith({ inferred: terminations(12) });
    expect(view.find('[data-testid="workload-inferred-cut"]').exists()).toBe(false);
  });
});
