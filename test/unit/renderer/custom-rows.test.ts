/**
 * Overview rows of custom resources and the kind filter grouped by API group: the state comes
 * from the shared status rule in the cluster's words, rows are derived once per object version
 * (10,000 custom resources with one changing cost one derivation), and the filter groups
 * built-in kinds before each custom group.
 */
import { describe, expect, it } from 'vitest';
import { KindResolver } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { KindEntry } from '../../../shared/discovery.ts';
import { createKindRows } from '../../../renderer/components/cluster/kind-rows.ts';
import { customRow, isCustomRow, overviewRowBuilder, verdictText, type OverviewRow } from '../../../renderer/stores/rows/custom.ts';
import { cachedRow } from '../../../renderer/stores/rows/row-cache.ts';
import { ALL_KINDS, groupFilter, groupKinds, loadKindFilter, overviewKinds, saveKindFilter } from '../../../renderer/views/overview/kind-filter.ts';
import { WORKLOAD_COLUMNS } from '../../../renderer/views/overview/workload-columns.ts';
import { filterWorkloads } from '../../../renderer/views/overview/workload-filter.ts';
import { deployment, nextVersion, replicaSet, uid } from './cluster-fixtures.ts';

const CERTS = 'certificates.cert-manager.io';
const DATABASES = 'databases.db.kubedrift.dev';

/** A cert-manager Certificate as `kubectl get -o json` shows it (managedFields left out). */
function certificate(name: string, conditions: object[] = [], extra: { generation?: number; observedGeneration?: number; namespace?: string } = {}): SlimObject {
  return {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name, namespace: extra.namespace ?? 'shop', uid: uid(), resourceVersion: '2001', generation: extra.generation ?? 1, creationTimestamp: '2025-05-01T10:00:00Z' },
    spec: { secretName: `${name}-tls`, dnsNames: [`${name}.shop.example.com`], issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' } },
    status: { conditions, ...(extra.observedGeneration !== undefined ? { observedGeneration: extra.observedGeneration } : {}) },
  } as SlimObject;
}

/** The demo's database operator's custom resource. */
function database(name: string, conditions: object[], generation = 2, observedGeneration = 2): SlimObject {
  return {
    apiVersion: 'db.kubedrift.dev/v1',
    kind: 'Database',
    metadata: { name, namespace: 'payments', uid: uid(), resourceVersion: '3001', generation, creationTimestamp: '2025-05-01T09:00:00Z' },
    spec: { engine: 'postgres', replicas: 3, storage: '10Gi' },
    status: { observedGeneration, conditions },
  } as SlimObject;
}

const READY = { type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date and has not expired', lastTransitionTime: '2025-05-01T10:01:00Z' };
const ISSUER_FAILED = { type: 'Ready', status: 'False', reason: 'Failed', message: 'The certificate request has failed to complete and will be retried: issuer letsencrypt is not ready', lastTransitionTime: '2025-05-01T10:02:00Z' };
const STALLED = { type: 'Stalled', status: 'True', reason: 'VolumeProvisioningFailed', message: 'StatefulSet orders-db has 0/3 ready replicas: PersistentVolumeClaim data-orders-db-0 is Pending', lastTransitionTime: '2025-05-01T10:05:00Z' };

function entry(key: string, ref: KindEntry['ref'], mode: KindEntry['mode'], custom: boolean): KindEntry {
  return { key, ref, versions: [ref.version], verbs: ['list', 'watch'], listable: true, watchable: true, subresources: { status: true, scale: false }, shortNames: [], categories: [], custom, mode, count: null };
}

const DISCOVERED: KindEntry[] = [
  entry('deployments.apps', { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true }, 'full', false),
  entry('secrets', { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }, 'metadata', false),
  entry(DATABASES, { group: 'db.kubedrift.dev', version: 'v1', kind: 'Database', plural: 'databases', namespaced: true }, 'full', true),
  entry('issuers.cert-manager.io', { group: 'cert-manager.io', version: 'v1', kind: 'Issuer', plural: 'issuers', namespaced: true }, 'full', true),
  entry(CERTS, { group: 'cert-manager.io', version: 'v1', kind: 'Certificate', plural: 'certificates', namespaced: true }, 'full', true),
  entry('widgets.example.com', { group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true }, 'excluded', true),
  entry('nodes.metrics.k8s.io', { group: 'metrics.k8s.io', version: 'v1beta1', kind: 'NodeMetrics', plural: 'nodes', namespaced: false }, 'unavailable', true),
];

function resolver(): KindResolver {
  const kinds = new KindResolver([]);
  for (const discovered of DISCOVERED) kinds.add(discovered.key, discovered.ref);
  return kinds;
}

describe('custom resource rows', () => {
  it("take their state from the kind's status rule, in the cluster's words", () => {
    const row = customRow(certificate('shop-tls', [READY]), CERTS);
    expect(row).toMatchObject({ kind: CERTS, kindName: 'Certificate', group: 'cert-manager.io', namespace: 'shop', name: 'shop-tls', status: 'Current', tone: 'ok', state: 'current', drift: null });
    expect(verdictText(row)).toBe('Ready: Certificate is up to date and has not expired');
    expect(row.created).toBe(Date.parse('2025-05-01T10:00:00Z'));
    expect([row.desired, row.ready, row.available, row.upToDate]).toEqual([null, null, null, null]);
  });

  it('drift as danger when failed, with the whole message kept for the hover', () => {
    const row = customRow(certificate('api-tls', [ISSUER_FAILED]), CERTS);
    expect(row).toMatchObject({ status: 'Failed', tone: 'danger', reason: 'Failed' });
    expect(row.drift).toEqual({ severity: 'danger', summary: 'Failed', reasons: [`Failed: ${ISSUER_FAILED.message}`] });
    const stalled = customRow(database('orders-db', [STALLED, { type: 'Ready', status: 'False', reason: 'NotReady' }]), DATABASES);
    expect(stalled).toMatchObject({ status: 'Failed', reason: 'VolumeProvisioningFailed', message: STALLED.message });
    expect(stalled.conditions.map((condition) => condition.type)).toEqual(['Stalled', 'Ready']);
  });

  it('drift as a warning while the controller has not seen the latest spec', () => {
    const row = customRow(database('orders-db', [{ type: 'Ready', status: 'True', reason: 'Available' }], 3, 2), DATABASES);
    expect(row).toMatchObject({ status: 'Unobserved', tone: 'pending', reason: 'LatestGenerationNotObserved', message: 'Spec generation 3 not yet observed (controller at 2)' });
    expect(row.drift?.severity).toBe('warning');
  });

  it('say "No status", neutral and in sync, when the object gives no signal', () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default', uid: uid(), resourceVersion: '1', creationTimestamp: '2025-05-01T10:00:00Z' }, spec: { size: 3 } } as SlimObject;
    const row = customRow(widget, 'widgets.example.com');
    expect(row).toMatchObject({ status: 'No status', tone: 'neutral', state: 'none', drift: null, reason: 'NoStatusSignal' });
    expect(row.search).toContain('widget widgets.example.com default/w no status');
  });

  it('are built for custom kinds only: built-in workloads keep their rows, a custom Job is not a batch Job', () => {
    const build = overviewRowBuilder(resolver());
    const web = build(deployment('web', { namespace: 'shop' }));
    expect(isCustomRow(web)).toBe(false);
    expect(web.kind).toBe('deployments.apps');
    const cert = build(certificate('shop-tls', [READY]));
    expect(isCustomRow(cert) && cert.kind).toBe(CERTS);
    const job = { apiVersion: 'ci.example.com/v1', kind: 'Job', metadata: { name: 'nightly', namespace: 'ci', uid: uid(), resourceVersion: '1', creationTimestamp: '2025-05-01T10:00:00Z' } } as SlimObject;
    expect(build(job)).toMatchObject({ kind: 'Job.ci.example.com', kindName: 'Job', state: 'none' });
  });

  it('are derived again only for the objects that changed: one update among 10,000 costs one derivation', () => {
    const objects = new Map<string, SlimObject>();
    for (let i = 0; i < 10_000; i += 1) {
      const object = certificate(`cert-${String(i).padStart(5, '0')}`, [i % 10 === 0 ? ISSUER_FAILED : READY]);
      objects.set(object.metadata.uid, object);
    }
    let revision = 1;
    let changed = new Set<string>();
    const store = {
      objects: (kind: string) => (kind === CERTS ? objects : new Map<string, SlimObject>()),
      revision: (kind: string) => (kind === CERTS ? revision : 0),
      changedSince: (kind: string) => (kind === CERTS ? changed : new Set<string>()),
    };
    let derived = 0;
    const build = overviewRowBuilder(resolver());
    const rowsOf = createKindRows(store, ['deployments.apps', CERTS], {
      derive: cachedRow((object) => {
        derived += 1;
        return build(object);
      }),
      columns: WORKLOAD_COLUMNS,
      tieKey: (row: OverviewRow) => row.search,
    });
    const sort = { column: 'drift', direction: 'asc' } as const;
    expect(rowsOf(sort)).toHaveLength(10_000);
    expect(derived).toBe(10_000);
    expect(rowsOf(sort)[0]?.drift?.severity).toBe('danger');

    const [first] = objects.values();
    const fixed = nextVersion(first as SlimObject, '9000', (copy) => Object.assign(copy, { status: { conditions: [READY] } }));
    objects.set(fixed.metadata.uid, fixed);
    changed = new Set([fixed.metadata.uid]);
    revision += 1;
    const rows = rowsOf(sort);
    expect(derived).toBe(10_001);
    expect(rows.filter((row) => row.drift).length).toBe(999);
    // Sorting by another column re-keys the rows but derives none of them again.
    rowsOf({ column: 'name', direction: 'asc' });
    expect(derived).toBe(10_001);
  });
});

describe('the kind filter', () => {
  const rows: OverviewRow[] = (() => {
    const build = overviewRowBuilder(resolver());
    const web = deployment('web', { namespace: 'shop' });
    return [
      web,
      replicaSet('web-5d8f7c9b6', { namespace: 'shop', owner: web }),
      certificate('shop-tls', [READY]),
      certificate('api-tls', [ISSUER_FAILED], { namespace: 'payments' }),
      database('orders-db', [STALLED]),
    ].map(build);
  })();
  const all = { kind: ALL_KINDS, namespace: '', search: '', driftOnly: false };
  const names = (filter: Partial<typeof all>) => filterWorkloads(rows, { ...all, ...filter }).rows.map((row) => row.name);

  it('lists workloads and custom resources together, and one API group or one kind alone', () => {
    expect(names({})).toEqual(['web', 'shop-tls', 'api-tls', 'orders-db']);
    expect(names({ kind: groupFilter('cert-manager.io') })).toEqual(['shop-tls', 'api-tls']);
    expect(names({ kind: CERTS })).toEqual(['shop-tls', 'api-tls']);
    expect(names({ kind: groupFilter('apps') })).toEqual(['web']);
    expect(names({ kind: CERTS, driftOnly: true })).toEqual(['api-tls']);
    expect(names({ kind: CERTS, search: 'failed' })).toEqual(['api-tls']);
    expect(filterWorkloads(rows, { ...all, kind: CERTS }).drifting).toBe(1);
  });

  it('groups built-in groups first, then each custom group with its kinds, with counts', () => {
    const kinds = overviewKinds(DISCOVERED);
    // Custom kinds watched in full only: an excluded or unavailable one has no objects to list.
    expect(kinds.filter((kind) => !kind.builtin).map((kind) => kind.key)).toEqual([DATABASES, 'issuers.cert-manager.io', CERTS]);
    const { counts } = filterWorkloads(rows, all);
    const groups = groupKinds(kinds, counts);
    expect(groups.map((group) => [group.label, group.id, group.count, group.kinds.map((kind) => `${kind.label} ${kind.count}`)])).toEqual([
      ['apps', 'group:apps', 1, ['Deployments 1', 'StatefulSets 0', 'DaemonSets 0', 'ReplicaSets 1']],
      ['batch', 'group:batch', 0, ['Jobs 0', 'CronJobs 0']],
      ['cert-manager.io', 'group:cert-manager.io', 2, ['Certificate 2', 'Issuer 0']],
      ['db.kubedrift.dev', 'group:db.kubedrift.dev', 1, ['Database 1']],
    ]);
    expect(counts[ALL_KINDS]).toBe(4);
  });

  it('is remembered per context, and "all" is not stored', () => {
    const stored = new Map<string, string>();
    const storage = { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => void stored.set(key, value), removeItem: (key: string) => void stored.delete(key) };
    saveKindFilter('kind-dev', CERTS, storage);
    saveKindFilter('kind-prod', groupFilter('apps'), storage);
    expect([loadKindFilter('kind-dev', storage), loadKindFilter('kind-prod', storage), loadKindFilter('other', storage), loadKindFilter(null, storage)]).toEqual([CERTS, 'group:apps', 'all', 'all']);
    saveKindFilter('kind-dev', ALL_KINDS, storage);
    expect(stored.has('kubedrift.overview.kind:kind-dev')).toBe(false);
    const broken = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('QuotaExceededError'); }, removeItem: () => undefined };
    expect(loadKindFilter('kind-dev', broken)).toBe('all');
    expect(() => saveKindFilter('kind-dev', CERTS, broken)).not.toThrow();
  });
});
