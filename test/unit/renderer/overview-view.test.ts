// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { ClusterFrame, ClusterHealth, SlimObject } from '../../../shared/cluster.ts';
import { ok } from '../../../shared/result.ts';
import OverviewView from '../../../renderer/views/overview/OverviewView.vue';
import { clusterHealth, deltaFrame, deployment, job, kindHealth, nextVersion, replicaSet, snapshotFrames } from './cluster-fixtures.ts';
import { CONTEXT_LIST, type FakeApi, type Handlers } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const STALLED = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "checkout-7c9d" has timed out progressing.', lastTransitionTime: '2025-05-01T10:10:00Z' }];
const LIVE: ClusterHealth = clusterHealth('e1', [kindHealth('deployments.apps', 'live', 3), kindHealth('replicasets.apps', 'live', 1), kindHealth('jobs.batch', 'live', 1)]);

const test = useRendererTest({ frames: true });

async function mountOverview(handlers: Handlers = {}): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({ 'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }), 'cluster:health': () => ok(LIVE), ...handlers });
  const view = test.mount(OverviewView, { attachTo: document.body });
  await flushPromises();
  return { api, view };
}

async function deliver(api: FakeApi, list: ClusterFrame[]): Promise<void> {
  for (const frame of list) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
}

const names = (view: VueWrapper): string[] => view.findAll('.body [role="row"]').map((row) => row.findAll('[role="cell"]')[3]?.text() ?? '');

const web = deployment('web', { namespace: 'shop' });
const api1 = deployment('api', { namespace: 'shop', ready: 1 });
const checkout = deployment('checkout', { namespace: 'shop', ready: 2, conditions: STALLED });
const grafana = deployment('grafana', { namespace: 'monitoring' });
const objects: SlimObject[] = [web, api1, checkout, grafana, replicaSet('web-5d8f7c9b6', { namespace: 'shop', owner: web }), job('backup', { namespace: 'ops', completions: 1, succeeded: 0 })];

describe('OverviewView', () => {
  it('lists workloads live, drifting first, with a drift badge and the count of drifting rows', async () => {
    const { api, view } = await mountOverview();
    await deliver(api, snapshotFrames('e1', 1, objects));
    await vi.waitFor(() => expect(names(view)).toEqual(['checkout', 'api', 'grafana', 'web', 'backup']));
    expect(view.findAll('[data-testid="drift-badge"]').map((badge) => badge.attributes('data-severity'))).toEqual(['danger', 'warning']);
    expect(view.get('[data-testid="overview-summary"]').text()).toBe('5 shown · 2 drifting');
    expect(view.get('[data-testid="kind-filter"] option[data-kind="replicasets.apps"]').text()).toBe('ReplicaSets (1)');

    await deliver(api, [deltaFrame('e1', 2, [nextVersion(api1, '2000', (copy) => Object.assign(copy['status'] as object, { readyReplicas: 3, availableReplicas: 3 }))])]);
    await vi.waitFor(() => expect(view.get('[data-testid="overview-summary"]').text()).toBe('5 shown · 1 drifting'));
  });

  it('filters by drifting only, namespace, search and kind, and sorts by a header click', async () => {
    const { api, view } = await mountOverview();
    await deliver(api, snapshotFrames('e1', 1, objects));
    await vi.waitFor(() => expect(names(view)).toHaveLength(5));

    await view.get('[data-testid="drift-only"]').trigger('click');
    await vi.waitFor(() => expect(names(view)).toEqual(['checkout', 'api']));
    await view.get('[data-testid="drift-only"]').trigger('click');

    await view.get('[data-testid="namespace-filter"]').setValue('monitoring');
    await vi.waitFor(() => expect(names(view)).toEqual(['grafana']));
    await view.get('[data-testid="namespace-filter"]').setValue('');

    await view.get('[data-testid="table-search"]').setValue('job back');
    await vi.waitFor(() => expect(names(view)).toEqual(['backup']));
    await view.get('[data-testid="table-search"]').setValue('');

    await view.get('[data-testid="kind-filter"]').setValue('replicasets.apps');
    await vi.waitFor(() => expect(names(view)).toEqual(['web-5d8f7c9b6']));
    await view.get('[data-testid="kind-filter"]').setValue('all');

    await view.get('button[data-column="name"]').trigger('click');
    await vi.waitFor(() => expect(names(view)).toEqual(['api', 'backup', 'checkout', 'grafana', 'web']));
    await view.get('button[data-column="name"]').trigger('click');
    await vi.waitFor(() => expect(names(view)).toEqual(['web', 'grafana', 'checkout', 'backup', 'api']));
  });

  it('counts ages from the moment an opened snapshot was taken, not from now', async () => {
    const takenAt = Date.parse('2025-05-01T10:05:00Z');
    const snapshotContext = { name: 'snapshot: kind-dev @ 10:05', cluster: 'kind-dev', user: '', source: 'snap.kubedrift.json.gz', demo: false, snapshot: { file: 'snap.kubedrift.json.gz', takenAt, readOnly: true } };
    const { api, view } = await mountOverview({ 'contexts:list': () => ok({ ...CONTEXT_LIST, contexts: [...CONTEXT_LIST.contexts, snapshotContext], selected: snapshotContext.name }) });
    await deliver(api, snapshotFrames('e1', 1, [web]));
    await vi.waitFor(() => expect(names(view)).toEqual(['web']));
    // Created at 10:00, the snapshot taken at 10:05.
    const cells = view.findAll('.body [role="row"]')[0]?.findAll('[role="cell"]').map((cell) => cell.text());
    expect(cells).toContain('5m');
    expect(cells?.join(' ')).not.toMatch(/\d+[yd]\b/);
  });

  it('shows why a workload drifts and its conditions on hover', async () => {
    const { api, view } = await mountOverview();
    await deliver(api, snapshotFrames('e1', 1, objects));
    await vi.waitFor(() => expect(view.findAll('[data-testid="drift-badge"]')).toHaveLength(2));
    await view.get('[data-testid="drift-badge"]').trigger('mouseenter');
    const popover = view.get('[data-testid="conditions-popover"]');
    expect(popover.text()).toContain('shop/checkout');
    expect(popover.text()).toContain('Progressing=False: ProgressDeadlineExceeded');
    expect(popover.text()).toContain('ReplicaSet "checkout-7c9d" has timed out progressing.');
    await view.get('[data-testid="drift-badge"]').trigger('mouseleave');
    expect(view.find('[data-testid="conditions-popover"]').exists()).toBe(false);
  });

  it('shows the connection error, not an empty table, when the context cannot be reached', async () => {
    const message = 'Cannot reach https://127.0.0.1:1 (connect ECONNREFUSED 127.0.0.1:1)';
    const { view } = await mountOverview({
      'connection:status': () => ok({ context: 'kind-dev', state: 'error', server: 'https://127.0.0.1:1', message, since: 1 }),
    });
    expect(view.get('[data-testid="cluster-state"]').attributes('data-state')).toBe('connection-error');
    expect(view.get('[data-testid="cluster-state-error"]').text()).toBe(message);
    expect(view.find('[data-testid="virtual-table"]').exists()).toBe(false);
  });

  it('shows per-kind progress during the initial sync', async () => {
    const { api, view } = await mountOverview({
      'cluster:health': () => ok(clusterHealth('e1', [kindHealth('deployments.apps', 'live', 120), kindHealth('replicasets.apps', 'syncing', 4_000), kindHealth('pods', 'syncing', 9_000)])),
    });
    const [begin, chunk] = snapshotFrames('e1', 1, objects, { chunkSize: 2 });
    await deliver(api, [begin as ClusterFrame, chunk as ClusterFrame]);
    const panel = view.get('[data-testid="cluster-state"]');
    expect(panel.attributes('data-state')).toBe('syncing');
    expect(view.findAll('[data-testid="sync-kind"]').map((row) => `${row.attributes('data-kind')}:${row.attributes('data-state')}`)).toEqual(['deployments.apps:live', 'replicasets.apps:syncing']);
    expect(view.get('[data-testid="sync-progress"]').text()).toBe('2 / 6 objects received');
  });

  it('names a forbidden kind above the table, with the reason', async () => {
    const { api, view } = await mountOverview({
      'cluster:health': () => ok(clusterHealth('e1', [kindHealth('deployments.apps', 'live', 3), kindHealth('cronjobs.batch', 'forbidden', 0, { message: 'cronjobs.batch is forbidden: User "alice" cannot list resource "cronjobs"' })])),
    });
    await deliver(api, snapshotFrames('e1', 1, objects));
    const notice = view.get('[data-testid="kind-notice"]');
    expect(notice.attributes('data-kind')).toBe('cronjobs.batch');
    expect(notice.text()).toBe('CronJobs cannot be listed (forbidden) — cronjobs.batch is forbidden: User "alice" cannot list resource "cronjobs"');
  });

  it('says the permissions hide the workloads, not that the cluster runs none, when every workload kind is forbidden', async () => {
    const workloadKinds = ['deployments.apps', 'statefulsets.apps', 'daemonsets.apps', 'replicasets.apps', 'jobs.batch', 'cronjobs.batch'];
    const forbidden = (kinds: string[]) => clusterHealth('e1', kinds.map((kind) => kindHealth(kind, 'forbidden', 0, { message: `${kind} is forbidden` })));
    const { api, view } = await mountOverview({ 'cluster:health': () => ok(forbidden(workloadKinds)) });
    await deliver(api, snapshotFrames('e1', 1, []));
    await vi.waitFor(() => expect(view.text()).toContain('Your permissions hide every workload kind (see above), so there is nothing to list'));
    expect(view.text()).not.toContain('This cluster runs no workloads yet.');
  });

  it('still calls a cluster empty when only some workload kinds are forbidden', async () => {
    const { api, view } = await mountOverview({ 'cluster:health': () => ok(clusterHealth('e1', [kindHealth('cronjobs.batch', 'forbidden', 0), kindHealth('deployments.apps', 'live', 0)])) });
    await deliver(api, snapshotFrames('e1', 1, []));
    await vi.waitFor(() => expect(view.text()).toContain('This cluster runs no workloads yet.'));
  });

  it('gathers kinds that are reconnecting into one notice', async () => {
    const { api, view } = await mountOverview({
      'cluster:health': () =>
        ok(
          clusterHealth('e1', [
            kindHealth('deployments.apps', 'reconnecting', 3, { message: 'https://127.0.0.1:6443 dropped the Deployment connection (ECONNRESET).' }),
            kindHealth('statefulsets.apps', 'reconnecting', 0),
            kindHealth('daemonsets.apps', 'reconnecting', 0),
            kindHealth('replicasets.apps', 'reconnecting', 0),
            kindHealth('cronjobs.batch', 'live', 0),
          ]),
        ),
    });
    await deliver(api, snapshotFrames('e1', 1, objects));
    const notices = view.findAll('[data-testid="kind-notice"]');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.attributes('data-state')).toBe('reconnecting');
    expect(notices[0]!.text()).toMatch(/^Deployments, StatefulSets, DaemonSets and 1 more: reconnecting since \S+; showing the last known state — https:\/\/127\.0\.0\.1:6443 dropped the Deployment connection \(ECONNRESET\)\.$/);
  });
});
