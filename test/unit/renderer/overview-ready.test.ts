// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../../shared/result.ts';
import { parseReadyProbe, READY_PROBE_SCRIPT } from '../../../shared/smoke.ts';
import OverviewView from '../../../renderer/views/overview/OverviewView.vue';
import { clusterHealth, deployment, kindHealth, snapshotFrames } from './cluster-fixtures.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ frames: true });
const LIVE = clusterHealth('e1', [kindHealth('deployments.apps', 'live', 2)]);

/** What a smoke test's probe reads from this document. */
function probe() {
  // The same script the shells send to the page.
  return parseReadyProbe(new Function(`return ${READY_PROBE_SCRIPT}`)());
}

beforeEach(() => {
  for (const key of ['kubedriftReady', 'kubedriftContext', 'kubedriftWorkloads']) delete document.documentElement.dataset[key];
});

describe('Overview ready signal', () => {
  it('reports the Overview live, with its context and workload count, once the first snapshot is on screen', async () => {
    const api = installApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(LIVE) });
    test.mount(OverviewView, { attachTo: document.body });
    await flushPromises();
    expect(probe()).toBeNull();

    for (const frame of snapshotFrames('e1', 1, [deployment('web', { namespace: 'shop' }), deployment('api', { namespace: 'shop' })], { context: 'kubedrift-demo' })) {
      api.emit('cluster:frames', frame);
    }
    test.frames.runFrame();
    await flushPromises();
    await vi.waitFor(() => expect(probe()).toEqual({ context: 'kubedrift-demo', workloads: 2 }));
  });

  it('does not report live while the snapshot is still arriving', async () => {
    const api = installApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(LIVE) });
    test.mount(OverviewView, { attachTo: document.body });
    await flushPromises();
    const frames = snapshotFrames('e1', 1, [deployment('web', { namespace: 'shop' }), deployment('api', { namespace: 'shop' }), deployment('db', { namespace: 'shop' })]);
    for (const frame of frames.slice(0, -1)) api.emit('cluster:frames', frame);
    test.frames.runFrame();
    await flushPromises();
    expect(probe()).toBeNull();
  });
});

describe('ready probe answers', () => {
  it.each([null, undefined, 'overview-live', { context: 'x' }, { context: 'x', workloads: Number.NaN }])('treats %j as not live', (value) => {
    expect(parseReadyProbe(value)).toBeNull();
  });
});
