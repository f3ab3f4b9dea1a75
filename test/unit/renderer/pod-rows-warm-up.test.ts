// @vitest-environment happy-dom
/**
 * The shell's warm-up of the Pods rows (pod-rows.ts `usePodRowsWarmUp`), against the real
 * cluster store fed frames and health as the engine sends them: nothing while the pods are still
 * listing; once they are listed and held, the rows and every column's order are prepared in idle
 * time, so the screen's first sort by any column sorts nothing.
 */
import { flushPromises } from '@vue/test-utils';
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope } from 'vue';
import { ok } from '../../../shared/result.ts';
import { link, setApi } from '../../../renderer/api/index.ts';
import { ColumnOrder } from '../../../renderer/components/table/column-order.ts';
import { useClusterStore } from '../../../renderer/stores/cluster.ts';
import { podRows, usePodRowsWarmUp } from '../../../renderer/views/pods/pod-rows.ts';
import { clusterHealth, installFakeFrames, kindHealth, pod, snapshotFrames, type FakeFrames } from './cluster-fixtures.ts';
import { createFakeApi } from './fake-api.ts';

let pinia: Pinia;
let frames: FakeFrames;

beforeEach(() => {
  // Idle tasks on timers (no Prioritized Task Scheduling or requestIdleCallback here), run at will.
  vi.stubGlobal('scheduler', undefined);
  vi.stubGlobal('requestIdleCallback', undefined);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  link.value = { state: 'open' };
  pinia = createPinia();
  setActivePinia(pinia);
  frames = installFakeFrames();
});

afterEach(() => {
  disposePinia(pinia);
  frames.restore();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the Pods rows warm-up', () => {
  it('waits for the pods to be listed, then prepares every column’s order', async () => {
    const api = createFakeApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(clusterHealth('e1', [kindHealth('pods', 'syncing', 0)])) });
    setApi(api);
    const store = useClusterStore();
    const scope = effectScope();
    scope.run(() => usePodRowsWarmUp());
    await flushPromises();
    const pods = Array.from({ length: 40 }, (_, i) => pod(`web-${String(39 - i).padStart(2, '0')}`, { node: `node-${i % 3}` }));
    for (const frame of snapshotFrames('e1', 1, pods)) api.emit('cluster:frames', frame);
    frames.runFrame();
    await vi.runAllTimersAsync();
    expect(store.objects('pods').size).toBe(40);

    api.emit('cluster:health', clusterHealth('e1', [kindHealth('pods', 'live', 40)]));
    await flushPromises();
    await vi.runAllTimersAsync();
    const build = vi.spyOn(ColumnOrder, 'build');
    const byName = podRows(store).rows({ column: 'name', direction: 'asc' });
    expect(byName.map((row) => row.name).slice(0, 2)).toEqual(['web-00', 'web-01']);
    podRows(store).rows({ column: 'node', direction: 'desc' });
    expect(build).not.toHaveBeenCalled();
    scope.stop();
  });

  it('prepares nothing while the pods are still listing, even with as many held as listed so far', async () => {
    const api = createFakeApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(clusterHealth('e1', [kindHealth('pods', 'syncing', 2)])) });
    setApi(api);
    const store = useClusterStore();
    const scope = effectScope();
    scope.run(() => usePodRowsWarmUp());
    await flushPromises();
    for (const frame of snapshotFrames('e1', 1, [pod('a'), pod('b')])) api.emit('cluster:frames', frame);
    frames.runFrame();
    await vi.runAllTimersAsync();
    const build = vi.spyOn(ColumnOrder, 'build');
    podRows(store).rows({ column: 'name', direction: 'asc' });
    expect(build).toHaveBeenCalled();
    scope.stop();
  });
});
