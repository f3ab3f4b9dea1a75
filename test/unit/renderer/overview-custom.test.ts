// @vitest-environment happy-dom
/**
 * The Overview with custom resources: rows beside the workloads with their state, the kind filter
 * grouped by API group (remembered per context), and a kind's printer columns from `cluster:table`,
 * refreshed when its objects change, with the engine's message in their place when the read fails.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClusterFrame, SlimObject } from '../../../shared/cluster.ts';
import type { ClusterTable } from '../../../shared/contracts/tables.ts';
import type { ClusterDiscovery, KindEntry } from '../../../shared/discovery.ts';
import { err, ok } from '../../../shared/result.ts';
import OverviewView from '../../../renderer/views/overview/OverviewView.vue';
import { clusterHealth, deployment, kindHealth, nextVersion, uid } from './cluster-fixtures.ts';
import type { FakeApi, Handlers } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const CERTS = 'certificates.cert-manager.io';
const DATABASES = 'databases.db.kubedrift.dev';

function entry(key: string, ref: KindEntry['ref'], mode: KindEntry['mode'], custom: boolean): KindEntry {
  return { key, ref, versions: [ref.version], verbs: ['list', 'watch'], listable: true, watchable: true, subresources: { status: true, scale: false }, shortNames: [], categories: [], custom, mode, count: null };
}

const DISCOVERY: ClusterDiscovery = {
  context: 'kind-dev',
  epoch: 'e1',
  state: {
    kinds: [
      entry('deployments.apps', { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true }, 'full', false),
      entry('secrets', { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }, 'metadata', false),
      entry(CERTS, { group: 'cert-manager.io', version: 'v1', kind: 'Certificate', plural: 'certificates', namespaced: true }, 'full', true),
      entry(DATABASES, { group: 'db.kubedrift.dev', version: 'v1', kind: 'Database', plural: 'databases', namespaced: true }, 'full', true),
    ],
    unavailable: [],
    progress: null,
    refreshedAt: Date.UTC(2025, 4, 1, 12, 0, 0),
  },
};

const FAILED_MESSAGE = 'The certificate request has failed to complete and will be retried: issuer letsencrypt is not ready';

function certificate(name: string, ready: boolean): SlimObject {
  const condition = ready
    ? { type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date and has not expired', lastTransitionTime: '2025-05-01T10:01:00Z' }
    : { type: 'Ready', status: 'False', reason: 'Failed', message: FAILED_MESSAGE, lastTransitionTime: '2025-05-01T10:02:00Z' };
  return {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name, namespace: 'shop', uid: uid(), resourceVersion: '2001', generation: 1, creationTimestamp: '2025-05-01T10:00:00Z' },
    spec: { secretName: `${name}-tls`, issuerRef: { name: 'letsencrypt' } },
    status: { conditions: [condition] },
  } as SlimObject;
}

const ordersDb = {
  apiVersion: 'db.kubedrift.dev/v1',
  kind: 'Database',
  metadata: { name: 'orders-db', namespace: 'payments', uid: uid(), resourceVersion: '3001', generation: 2, creationTimestamp: '2025-05-01T09:00:00Z' },
  spec: { engine: 'postgres', replicas: 3 },
  status: { observedGeneration: 2, conditions: [{ type: 'Reconciling', status: 'True', reason: 'ScalingUp', message: 'Scaling the StatefulSet orders-db to 3 replicas' }] },
} as SlimObject;

const web = deployment('web', { namespace: 'shop' });
const shopTls = certificate('shop', true);
const apiTls = certificate('api', false);
const KINDS = new Map<SlimObject, string>([
  [web, 'deployments.apps'],
  [shopTls, CERTS],
  [apiTls, CERTS],
  [ordersDb, DATABASES],
]);

function snapshot(objects: SlimObject[]): ClusterFrame[] {
  return [
    { type: 'snapshot-begin', epoch: 'e1', context: 'kind-dev', seq: 1, total: objects.length },
    { type: 'snapshot-chunk', epoch: 'e1', seq: 1, objects, kinds: objects.map((object) => KINDS.get(object) as string), sent: objects.length, total: objects.length },
    { type: 'snapshot-end', epoch: 'e1', seq: 1 },
  ];
}

/** What the engine answers for the Certificate CRD's printer columns (shapes as the server prints them). */
function certificateTable(rows: Array<[SlimObject, string | null]>): ClusterTable {
  return {
    context: 'kind-dev',
    kind: CERTS,
    at: 1,
    truncated: false,
    columns: [
      { name: 'Name', type: 'string', format: 'name', priority: 0, description: 'Name must be unique within a namespace.' },
      { name: 'Ready', type: 'string', format: '', priority: 0, description: '' },
      { name: 'Secret', type: 'string', format: '', priority: 0, description: '' },
      { name: 'Issuer', type: 'string', format: '', priority: 1, description: '' },
      { name: 'Age', type: 'date', format: '', priority: 0, description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' },
    ],
    cells: Object.fromEntries(rows.map(([object, ready]) => [object.metadata.uid, [object.metadata.name, ready, `${object.metadata.name}-tls`, 'letsencrypt', '5m']])),
  };
}

const test = useRendererTest({ frames: true });

beforeEach(() => {
  window.localStorage.clear();
});

async function mountOverview(handlers: Handlers = {}): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(clusterHealth('e1', [kindHealth('deployments.apps', 'live', 1)])),
    'cluster:discovery': () => ok(DISCOVERY),
    ...handlers,
  });
  const view = test.mount(OverviewView, { attachTo: document.body });
  await flushPromises();
  return { api, view };
}

async function deliver(api: FakeApi, frames: ClusterFrame[]): Promise<void> {
  for (const frame of frames) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
}

const customRows = (view: VueWrapper) => view.findAll('[data-testid="custom-row"]');
const cellsOf = (row: { findAll(selector: string): Array<{ text(): string }> }) => row.findAll('[role="cell"]').map((cell) => cell.text());
/** Header labels without the sort arrow. */
const headers = (view: VueWrapper) => view.findAll('[role="columnheader"]').map((header) => header.text().replace(/[▲▼]/g, ''));
const tableCalls = (api: FakeApi) => api.calls.filter((call) => call.channel === 'cluster:table');

describe('OverviewView with custom resources', () => {
  it('lists custom resources that carry status beside the workloads, each with its state and the reason whole in a tooltip', async () => {
    const { api, view } = await mountOverview();
    await deliver(api, snapshot([web, shopTls, apiTls, ordersDb]));
    await vi.waitFor(() => expect(customRows(view)).toHaveLength(3));
    expect(view.get('[data-testid="overview"] h1, [data-testid="overview"] h2').text()).toContain('Workloads and custom resources');
    // Drifting first: the failed Certificate leads; the rest (the Database progressing, the other Certificate current) by kind and name.
    expect(customRows(view).map((row) => row.attributes('data-kind'))).toEqual([CERTS, CERTS, DATABASES]);
    const failed = customRows(view)[0]!;
    expect(cellsOf(failed).slice(0, 4)).toEqual(['Failed', 'Certificate', 'shop', 'api']);
    const why = failed.get('[data-testid="custom-why"]');
    expect(why.attributes('title')).toBe(`Failed: ${FAILED_MESSAGE}`);
    expect(cellsOf(customRows(view)[1]!).slice(0, 4)).toEqual(['Current', 'Certificate', 'shop', 'shop']);
    // A current resource's Why stays empty, as a workload's in sync does.
    expect(customRows(view)[1]!.find('[data-testid="custom-why"]').exists()).toBe(false);
    expect(cellsOf(customRows(view)[2]!).slice(0, 4)).toEqual(['Progressing', 'Database', 'payments', 'orders-db']);
    expect(customRows(view)[2]!.get('[data-testid="custom-why"]').text()).toBe('ScalingUp: Scaling the StatefulSet orders-db to 3 replicas');
    expect(view.get('[data-testid="overview-summary"]').text()).toBe('4 shown · 1 drifting');

    await why.trigger('mouseenter');
    // The reason "Failed" repeats the state, so the card says it once.
    expect(view.get('[data-testid="popover-verdict"]').text()).toBe(`Failed — ${FAILED_MESSAGE}`);
  });

  it('filters by API group and by kind from a select grouped by group, built-in groups first', async () => {
    const { api, view } = await mountOverview();
    await deliver(api, snapshot([web, shopTls, apiTls, ordersDb]));
    await vi.waitFor(() => expect(customRows(view)).toHaveLength(3));
    const select = view.get('[data-testid="kind-filter"]');
    expect(select.findAll('optgroup').map((group) => group.attributes('label'))).toEqual(['apps', 'batch', 'cert-manager.io', 'db.kubedrift.dev']);
    expect(select.findAll('optgroup[label="cert-manager.io"] option').map((option) => option.text())).toEqual(['All of cert-manager.io (2)', 'Certificate (2)']);

    await select.setValue('group:db.kubedrift.dev');
    await vi.waitFor(() => expect(customRows(view).map((row) => row.attributes('data-kind'))).toEqual([DATABASES]));
    // Custom resources alone: no replica count columns.
    expect(headers(view)).not.toContain('Desired');
    await select.setValue('group:apps');
    await vi.waitFor(() => expect(customRows(view)).toHaveLength(0));
    expect(view.findAll('.body [role="row"]')).toHaveLength(1);
  });

  it("shows one kind's priority-0 printer columns, and reads them again when its objects change", async () => {
    let table = certificateTable([
      [shopTls, 'True'],
      [apiTls, 'False'],
    ]);
    const { api, view } = await mountOverview({ 'cluster:table': () => ok(table) });
    await deliver(api, snapshot([web, shopTls, apiTls, ordersDb]));
    await view.get('[data-testid="kind-filter"]').setValue(CERTS);
    await vi.waitFor(() => expect(headers(view)).toEqual(['Status', 'Namespace', 'Name', 'Ready', 'Secret', 'Age', 'Drift', 'Why']));
    expect(tableCalls(api).map((call) => call.payload)).toEqual([{ kind: CERTS }]);
    expect(customRows(view).map((row) => cellsOf(row).slice(2, 5))).toEqual([
      ['api', 'False', 'api-tls'],
      ['shop', 'True', 'shop-tls'],
    ]);
    // The server's Name and Age are the row's own columns; a column without a description says what it is.
    expect(view.findAll('[role="columnheader"]')[3]?.attributes('title')).toBe('Ready (string), as `kubectl get` prints it');

    const fixed = nextVersion(apiTls, '2002', (copy) => Object.assign(copy, { status: (shopTls as unknown as { status: object }).status }));
    table = certificateTable([
      [shopTls, 'True'],
      [fixed, 'True'],
    ]);
    await deliver(api, [{ type: 'delta', epoch: 'e1', seq: 2, upserts: [fixed], kinds: [CERTS], deletes: [] }]);
    await vi.waitFor(() => expect(tableCalls(api)).toHaveLength(2), { timeout: 3_000 });
    await vi.waitFor(() => expect(customRows(view).map((row) => cellsOf(row)[3])).toEqual(['True', 'True']));
  });

  it("says why the printer columns are missing when the read fails, and keeps the kind's rows", async () => {
    const message = 'The printer columns of certificates.cert-manager.io could not be read (403 Forbidden): certificates.cert-manager.io is forbidden: User "dev" cannot list resource "certificates" in API group "cert-manager.io" at the cluster scope';
    const { api, view } = await mountOverview({ 'cluster:table': () => err('forbidden', message) });
    await deliver(api, snapshot([web, shopTls, apiTls, ordersDb]));
    await view.get('[data-testid="kind-filter"]').setValue(CERTS);
    await vi.waitFor(() => expect(view.find('[data-testid="printer-columns-error"]').exists()).toBe(true));
    expect(view.get('[data-testid="printer-columns-error"]').text()).toBe(`Printer columns unavailable: ${message}`);
    expect(customRows(view)).toHaveLength(2);
    expect(headers(view)).toEqual(['Status', 'Namespace', 'Name', 'Age', 'Drift', 'Why']);
  });

  it('names a custom kind the server cannot serve above the table, with its message, and keeps the rest', async () => {
    const message = 'conversion webhook for db.kubedrift.dev/v1, Kind=Database failed: Post "https://databases-conversion.default.svc:443/convert?timeout=30s": service "databases-conversion" not found';
    const health = clusterHealth('e1', [kindHealth('deployments.apps', 'live', 1), kindHealth(CERTS, 'live', 2), kindHealth(DATABASES, 'unavailable', 0, { message })]);
    const { api, view } = await mountOverview({ 'cluster:health': () => ok(health) });
    await deliver(api, snapshot([web, shopTls, apiTls]));
    await vi.waitFor(() => expect(customRows(view)).toHaveLength(2));
    const notice = view.get(`[data-testid="kind-notice"][data-kind="${DATABASES}"]`);
    expect(notice.text()).toContain(message);
  });

  it('remembers the kind filter for the context', async () => {
    const first = await mountOverview({ 'cluster:table': () => ok(certificateTable([])) });
    await deliver(first.api, snapshot([web, shopTls, apiTls, ordersDb]));
    await first.view.get('[data-testid="kind-filter"]').setValue(DATABASES);
    await vi.waitFor(() => expect(customRows(first.view)).toHaveLength(1));
    first.view.unmount();

    const again = test.mount(OverviewView, { attachTo: document.body });
    await flushPromises();
    await deliver(first.api, snapshot([web, shopTls, apiTls, ordersDb]));
    await vi.waitFor(() => expect((again.get('[data-testid="kind-filter"]').element as HTMLSelectElement).value).toBe(DATABASES));
    await vi.waitFor(() => expect(customRows(again).map((row) => row.attributes('data-kind'))).toEqual([DATABASES]));
  });
});
