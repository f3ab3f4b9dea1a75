// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { CauseInfo } from '../../../shared/contracts/causes.ts';
import { err, ok } from '../../../shared/result.ts';
import GraphView from '../../../renderer/views/graph/GraphView.vue';
import { clusterHealth, deployment, kindHealth, snapshotFrames } from './cluster-fixtures.ts';
import type { FakeApi } from './fake-api.ts';
import { GRAPH, OBJECT } from './graph-fixtures.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/graph', frames: true });

const link = (kind: string, name: string, uid: string) => ({ apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', kind, namespace: 'shop', name, uid });
const LAST_STATE = 'container web: CrashLoopBackOff: back-off 2m40s restarting failed container=web pod=web-8c4f-b2_shop(pod-web-2); last exit code 1 (Error); 4 restarts';
/** The engine's answer for web: a crash loop in one of its new ReplicaSet's pods. */
const WEB_CAUSE: CauseInfo = {
  code: 'crash-loop',
  sentence: '1 new pod is crash-looping: container web exited with code 1 (Error), restarted 4 times',
  evidence: [{ ...link('Pod', 'web-8c4f-b2', 'pod-web-2'), detail: LAST_STATE }],
  chain: [link('Deployment', 'web', 'dep-web'), link('ReplicaSet', 'web-8c4f', 'rs-web')],
};

async function mountGraph(): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(clusterHealth('e1', [kindHealth('deployments.apps', 'live', 1)])),
    'graph:get': (request) => ok({ ...GRAPH, namespace: request.namespace ?? null, focus: request.focus ?? null }),
    'graph:object': () => ok(OBJECT),
    'causes:drifting': () => ok({ context: 'kind-dev', revision: 1, at: 1, reports: [{ target: link('Deployment', 'web', 'dep-web'), causes: [WEB_CAUSE] }] }),
    'causes:for': ({ uid }) => (uid === 'dep-web' ? ok({ target: link('Deployment', 'web', 'dep-web'), causes: [WEB_CAUSE] }) : err('not-found', `No object with uid ${uid}`)),
  });
  const view = test.mount(GraphView, { attachTo: document.body });
  await flushPromises();
  for (const frame of snapshotFrames('e1', 1, [deployment('web', { namespace: 'shop' })])) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
  return { api, view };
}

async function click(view: VueWrapper, id: string): Promise<void> {
  const card = view.get(`[data-testid="graph-node"][data-id="${id}"]`);
  await card.trigger('pointerdown', { button: 0, pointerId: 1 });
  await card.trigger('pointerup', { button: 0, pointerId: 1 });
  await flushPromises();
}

const lit = (view: VueWrapper) => view.findAll('[data-testid="graph-node"]:not(.dimmed)').map((card) => card.attributes('data-id'));

describe('Graph side panel causes', () => {
  it('says why the selected workload drifts and lights the chain down to the failing pod', async () => {
    const { view } = await mountGraph();
    await vi.waitFor(() => expect(view.findAll('[data-testid="graph-node"]').length).toBe(GRAPH.nodes.length));
    await click(view, 'dep-web');
    await vi.waitFor(() => expect(view.find('[data-testid="graph-why"]').exists()).toBe(true));
    const why = view.get('[data-testid="graph-why"]');
    expect(why.text()).toContain(WEB_CAUSE.sentence);
    const evidence = why.get('a');
    expect(evidence.text()).toBe('Pod web-8c4f-b2');
    expect(evidence.attributes('title')).toBe(LAST_STATE);
    // The failing leaf and the way to it stay lit; the healthy pod, the Service and the rest fade.
    expect(lit(view).sort()).toEqual(['dep-web', 'pod-web-2', 'rs-web']);
    // Not a search: no match count.
    expect(view.find('[data-testid="graph-matches"]').exists()).toBe(false);
  });

  it('shows no cause for an object the engine finds nothing wrong with, and the usual lineage', async () => {
    const { view } = await mountGraph();
    await vi.waitFor(() => expect(view.findAll('[data-testid="graph-node"]').length).toBe(GRAPH.nodes.length));
    await click(view, 'rs-api');
    await flushPromises();
    expect(view.find('[data-testid="graph-why"]').exists()).toBe(false);
    expect(lit(view)).toContain('group:rs-api:Pod');
  });
});
