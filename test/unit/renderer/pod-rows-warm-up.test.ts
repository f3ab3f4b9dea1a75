// @vitest-environment happy-dom
/**
 * The shell's warm-up of the Pods rows (pod-rows.ts `usePodRowsWarmUp`), against the real
 * cluster store fed frames and health as the engine sends them: nothing while the pods are still
 * listing; once they are listed and held, the rows and every column's order are prepared in idle
 * time, so the screen's first sort by any column sorts nothing.
 */
import { flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope } from 'vue';
import { ok } from '../../../shared/result.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { ColumnOrder } from '../../../renderer/components/table/column-order.ts';
import { useClusterStore } from '../../../renderer/stores/cluster.ts';
import { podRows, usePodRowsWarmUp } from '../../../renderer/views/pods/pod-rows.ts';
import { clusterHealth, kindHealth, pod, snapshotFrames } from './cluster-fixtures.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ frames: true });

beforeEach(() => {
  // Idle tasks on timers (no Prioritized Task Scheduling or requestIdleCallback here), run at will.
  vi.stubGlobal('scheduler', undefined);
  vi.stubGlobal('requestIdleCallback', undefined);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/**
 * The store with the warm-up running, the Pod kind listing (`syncing`, with `listed` so far),
 * and `pods` applied as the engine's snapshot; `stop` ends the warm-up's scope.
 */
async function start(listed: number, pods: SlimObject[]) {
  const api = installApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(clusterHealth('e1', [kindHealth('pods', 'syncing', listed)])) });
  const store = useClusterStore();
  const scope = effectScope();
  scope.run(() => usePodRowsWarmUp());
  await flushPromises();
  for (const frame of snapshotFrames('e1', 1, pods)) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await vi.runAllTimersAsync();
  return { api, store, stop: () => scope.stop() };
}

describe('the Pods rows warm-up', () => {
  it('waits for the pods to be listed, then prepares every column’s order', async () => {
    const pods = Array.from({ length: 40 }, (_, i) => pod(`web-${String(39 - i).padStart(2, '0')}`, { node: `node-${i % 3}` }));
    const { api, store, stop } = await start(0, pods);
    expect(store.objects('pods').size).toBe(40);

    api.emit('cluster:health', clusterHealth('e1', [kindHealth('pods', 'live', 40)]));
    await flushPromises();
    await vi.runAllTimersAsync();
    const build = vi.spyOn(ColumnOrder, 'build');
    const byName = podRows(store).rows({ column: 'name', direction: 'asc' });
    expect(byName.map((row) => row.name).slice(0, 2)).toEqual(['web-00', 'web-01']);
    podRows(store).rows({ column: 'node', direction: 'desc' });
    expect(build).not.toHaveBeenCalled();
    stop();
  });

  it('prepares nothing while the pods are still listing, even with as many held as listed so far', async () => {
    const { store, stop } = await start(2, [pod('a'), pod('b')]);
    const build = vi.spyOn(ColumnOrder, 'build');
    podRows(store).rows({ column: 'name', direction: 'asc' });
    expect(build).toHaveBeenCalled();
    stop();
  });
});
