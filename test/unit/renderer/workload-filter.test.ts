import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../shared/cluster.ts';
import { customRow, type OverviewRow } from '../../../renderer/stores/rows/custom.ts';
import { workloadRow } from '../../../renderer/stores/rows/workloads.ts';
import { ALL_KINDS, filterGroup, groupFilter, groupOfKey, type KindFilter } from '../../../renderer/views/overview/kind-filter.ts';
import { filterWorkloads, searchWords, type WorkloadFilter } from '../../../renderer/views/overview/workload-filter.ts';
import { WORKLOAD_KINDS } from '../../../renderer/stores/rows/workloads.ts';
import { deployment, replicaSet } from './cluster-fixtures.ts';

const CERTS = 'certificates.cert-manager.io';

/** The filter as it was written first (a group id built and an object key bumped per row): the reference. */
function reference(sorted: readonly OverviewRow[], filter: WorkloadFilter) {
  const words = searchWords(filter.search);
  const counts: Record<KindFilter, number> = Object.fromEntries([[ALL_KINDS, 0], ...WORKLOAD_KINDS.map((kind) => [kind, 0])]);
  const onlyGroup = filterGroup(filter.kind);
  const rows: OverviewRow[] = [];
  let drifting = 0;
  for (const row of sorted) {
    if (filter.namespace && row.namespace !== filter.namespace) continue;
    if (words.length > 0 && !words.every((word) => row.search.includes(word))) continue;
    const group = groupOfKey(row.kind);
    const inKind = filter.kind === ALL_KINDS || onlyGroup !== undefined ? !row.managed && (onlyGroup === undefined || group === onlyGroup) : row.kind === filter.kind;
    if (inKind && row.drift) drifting += 1;
    if (filter.driftOnly && !row.drift) continue;
    counts[row.kind] = (counts[row.kind] ?? 0) + 1;
    if (!row.managed) {
      counts[ALL_KINDS] = (counts[ALL_KINDS] ?? 0) + 1;
      const id = groupFilter(group);
      counts[id] = (counts[id] ?? 0) + 1;
    }
    if (inKind) rows.push(row);
  }
  return { rows, counts, drifting };
}

function certificate(name: string, namespace: string, ready: boolean): SlimObject {
  return {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name, namespace, uid: `cert-${namespace}-${name}`, resourceVersion: '7', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { secretName: `${name}-tls` },
    status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', reason: ready ? 'Ready' : 'Failed', message: ready ? 'Certificate is up to date' : 'issuer refused' }] },
  };
}

/** Deployments (some short of ready), the ReplicaSets they run, and Certificates, over three namespaces. */
function mixedRows(): OverviewRow[] {
  const rows: OverviewRow[] = [];
  for (const namespace of ['shop', 'data', 'edge']) {
    for (let i = 0; i < 12; i += 1) {
      const name = `svc-${String(i).padStart(3, '0')}`;
      const owner = deployment(name, { namespace, uid: `${namespace}-${name}`, ...(i % 4 === 0 ? { replicas: 3, ready: 1 } : {}) });
      rows.push(workloadRow(owner));
      rows.push(workloadRow(replicaSet(`${name}-5d8f`, { namespace, uid: `${namespace}-${name}-rs`, owner })));
      if (i % 3 === 0) rows.push(customRow(certificate(`${name}-tls`, namespace, i % 2 === 0), CERTS));
    }
  }
  return rows;
}

describe('filterWorkloads', () => {
  const rows = mixedRows();
  const kinds = [ALL_KINDS, groupFilter('apps'), groupFilter('cert-manager.io'), groupFilter('batch'), 'deployments.apps', 'replicasets.apps', CERTS];
  const filters: WorkloadFilter[] = kinds.flatMap((kind) =>
    ['', 'data'].flatMap((namespace) => ['', 'svc-003', 'shop tls', 'nothing'].flatMap((search) => [false, true].map((driftOnly) => ({ kind, namespace, search, driftOnly })))),
  );

  it('gives the same rows, in the same order, with the same counts and drifting as the reference pass', () => {
    expect(rows.some((row) => row.managed)).toBe(true);
    expect(rows.some((row) => row.drift)).toBe(true);
    for (const filter of filters) {
      const got = filterWorkloads(rows, filter);
      const want = reference(rows, filter);
      expect(got.rows, JSON.stringify(filter)).toEqual(want.rows);
      expect(got.counts, JSON.stringify(filter)).toEqual(want.counts);
      expect(got.drifting, JSON.stringify(filter)).toBe(want.drifting);
    }
  });

  it('counts each kind under the other filters, leaving Deployment-run ReplicaSets out of "all" and the groups', () => {
    const { counts } = filterWorkloads(rows, { kind: ALL_KINDS, namespace: 'data', search: '', driftOnly: false });
    expect(counts).toEqual({
      [ALL_KINDS]: 16,
      'deployments.apps': 12,
      'statefulsets.apps': 0,
      'daemonsets.apps': 0,
      'replicasets.apps': 12,
      'jobs.batch': 0,
      'cronjobs.batch': 0,
      [CERTS]: 4,
      [groupFilter('apps')]: 12,
      [groupFilter('cert-manager.io')]: 4,
    });
  });
});
