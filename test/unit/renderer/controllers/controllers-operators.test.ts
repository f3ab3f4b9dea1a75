// @vitest-environment happy-dom
/**
 * Operators on the Controllers screen: the database operator reports Events and reconciles a
 * custom resource (a Database), so its card shows its reconcile lag as a built-in controller's
 * does, and its reconciles name the Database, which opens in the graph (no workload screen
 * shows a custom resource).
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../../../shared/result.ts';
import { useNavigationStore } from '../../../../renderer/stores/navigation.ts';
import ControllersView from '../../../../renderer/views/controllers/ControllersView.vue';
import { clusterHealth, kindHealth, snapshotFrames } from '../cluster-fixtures.ts';
import { installApi, useRendererTest } from '../setup.ts';
import { controllers, eventRow, listOf, NOW, reconcile, reconcileList, summary } from './fixtures.ts';

const test = useRendererTest({ frames: true });

const DATABASE = { kind: 'Database', namespace: 'shop', name: 'orders-db', uid: 'db-orders' };
const EVENTS = [
  eventRow('1', { controller: 'database-operator', reason: 'Updated', message: 'Updated StatefulSet orders-db: 3 replicas of postgres:16.4', object: DATABASE }),
  eventRow('2', { controller: 'database-operator', type: 'Warning', reason: 'ReconcileFailed', message: 'postgres 17.0 is not supported', object: DATABASE }),
  eventRow('3', { controller: 'cert-manager-certificates-issuing', reason: 'Issuing', message: 'The certificate has been successfully issued', object: { kind: 'Certificate', namespace: 'shop', name: 'storefront-tls', uid: 'c-1' } }),
];

async function mountView(): Promise<VueWrapper> {
  const api = installApi({
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(clusterHealth('e1', [kindHealth('events', 'live', 3)])),
    'events:controllers': () =>
      ok(
        controllers([
          summary('database-operator', { events: 2, occurrences: 2, warnings: 1, warningRatio: 0.5, reasons: [{ reason: 'ReconcileFailed', type: 'Warning', count: 1 }, { reason: 'Updated', type: 'Normal', count: 1 }], lag: { samples: 3, p50: 1_000, p95: 2_400, max: 2_400 } }),
          summary('cert-manager-certificates-issuing', { events: 1, occurrences: 1, reasons: [{ reason: 'Issuing', type: 'Normal', count: 1 }] }),
        ]),
      ),
    'events:list': (query) => ok(listOf(EVENTS, query)),
    'events:reconciles': ({ controller }) =>
      ok(reconcileList(controller === 'database-operator' ? [reconcile('orders-db', { workload: DATABASE, controller: 'database-operator', generation: 3, start: NOW - 30_000, end: NOW - 27_600, lagMs: 2_400 })] : [])),
    'events:actions': ({ uid, from, to }) => ok({ workload: DATABASE, from, to, truncated: false, reconciles: [], actions: [{ at: from + 1_000, id: `a-${uid}`, controller: 'database-operator', type: 'Normal', reason: 'Updated', message: 'Updated StatefulSet orders-db', object: DATABASE, depth: 0, count: 1 }] }),
  });
  const view = test.mount(ControllersView, { attachTo: document.body });
  await flushPromises();
  for (const frame of snapshotFrames('e1', 1, [])) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
  return view;
}

const cards = (view: VueWrapper) => view.findAll('[data-testid="controller-card"]');
const rows = (view: VueWrapper) => view.findAll('[data-testid="controller-detail"] .body [role="row"]');

describe('ControllersView with operators', () => {
  it('shows an operator\'s card with its Events and reconcile lag, and the certificate controller under its own name', async () => {
    const view = await mountView();
    await vi.waitFor(() => expect(cards(view)).toHaveLength(2));
    const [database, certificates] = cards(view);
    expect(database?.text()).toContain('database-operator');
    expect(database?.find('[data-testid="controller-lag"]').text()).toMatch(/p50 1\.0 s.*p95 2\.4 s.*max 2\.4 s/);
    expect(certificates?.text()).toContain('cert-manager-certificates-issuing');
    expect(certificates?.find('[data-testid="controller-lag"]').exists()).toBe(false);
    await vi.waitFor(() => expect(rows(view).map((r) => r.text())).toEqual([expect.stringContaining('Updated'), expect.stringContaining('ReconcileFailed')]));
  });

  it('lists the operator\'s reconcile of its Database with the lag, and opens the Database in the graph', async () => {
    const view = await mountView();
    await vi.waitFor(() => expect(cards(view)).toHaveLength(2));
    await view.find('[data-testid="controller-detail"] [data-testid="segment"][data-option="reconciles"]').trigger('click');
    await vi.waitFor(() => expect(rows(view)).toHaveLength(1));
    expect(rows(view)[0]?.text()).toMatch(/caught up.*Database\/orders-db.*3.*2\.4 s/);
    expect(view.find('[data-testid="reconcile-summary"]').text()).toContain('p95 2.4 s');
    await view.find('[data-testid="reconcile-workload"]').trigger('click');
    expect(useNavigationStore().current).toBe('graph');
    expect(useNavigationStore().params).toEqual({ focus: 'db-orders' });
  });
});
