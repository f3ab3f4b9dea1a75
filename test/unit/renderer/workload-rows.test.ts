import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../shared/cluster.ts';
import { workloadRow, type WorkloadRow } from '../../../renderer/stores/rows/workloads.ts';
import { filterWorkloads } from '../../../renderer/views/overview/workload-filter.ts';
import { deployment, job, replicaSet } from './cluster-fixtures.ts';

const STALLED = [
  { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.', lastTransitionTime: '2025-05-01T10:00:00Z' },
  { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-7c9d" has timed out progressing.', lastTransitionTime: '2025-05-01T10:10:00Z' },
];

function statefulSet(status: Record<string, unknown>, generation = 3): SlimObject {
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'data', uid: 'sts-1', resourceVersion: '9', generation }, spec: { replicas: 3 }, status };
}

describe('workload rows: drift', () => {
  it('shows no drift when desired, ready and the observed generation agree', () => {
    const row = workloadRow(deployment('web'));
    expect(row.drift).toBeNull();
    expect(row).toMatchObject({ desired: 3, ready: 3, available: 3, upToDate: 3, status: 'Ready', tone: 'ok' });
  });

  it('drifts (warning) when fewer replicas are ready than desired', () => {
    const row = workloadRow(deployment('web', { replicas: 3, ready: 1 }));
    expect(row.drift).toEqual({ severity: 'warning', reasons: ['1 of 3 desired replicas ready'], summary: '2 not ready' });
    expect(row.status).toBe('Not ready');
  });

  it('drifts when the controller has not observed the latest spec generation', () => {
    const row = workloadRow(deployment('web', { generation: 5, observedGeneration: 4 }));
    expect(row.drift).toEqual({ severity: 'warning', reasons: ['Spec generation 5 not yet observed (controller at 4)'], summary: 'spec unobserved' });
    expect(row.status).toBe('Rolling out');
  });

  it('drifts when a generation was never observed at all', () => {
    const row = workloadRow(statefulSet({ replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3 }));
    expect(row.drift?.reasons).toEqual(['Spec generation 3 not yet seen by its controller']);
  });

  it('drifts as danger, stalled, when Progressing is False, with the condition’s reason and message first', () => {
    const row = workloadRow(deployment('web', { ready: 1, conditions: STALLED }));
    expect(row.drift?.severity).toBe('danger');
    expect(row.drift?.reasons[0]).toBe('Progressing=False: ProgressDeadlineExceeded — ReplicaSet "web-7c9d" has timed out progressing.');
    expect(row.drift?.reasons).toContain('1 of 3 desired replicas ready');
    // The table cell: the condition's reason, and that there is more (the row shows the counts).
    expect(row.drift?.summary).toBe('ProgressDeadlineExceeded +1');
    expect(row).toMatchObject({ status: 'Stalled', tone: 'danger' });
    expect(row.conditions.map((condition) => `${condition.type}=${condition.status}`)).toEqual(['Available=False', 'Progressing=False']);
  });

  it('says in a few words how many replicas are missing or extra', () => {
    expect(workloadRow(deployment('web', { replicas: 3, ready: 4 })).drift).toEqual({ severity: 'warning', reasons: ['4 of 3 desired replicas ready'], summary: '1 extra ready' });
    expect(workloadRow(deployment('web', { replicas: 5, ready: 0, generation: 2, observedGeneration: 1 })).drift?.summary).toBe('5 not ready +1');
  });

  it('does not drift when scaled to zero', () => {
    const row = workloadRow(deployment('web', { replicas: 0, ready: 0 }));
    expect(row.drift).toBeNull();
    expect(row.status).toBe('Scaled to 0');
  });

  it('reports a rollout while new replicas are not yet up to date', () => {
    const row = workloadRow(deployment('web', { updated: 1 }));
    expect(row.status).toBe('Rolling out');
    expect(row.drift).toBeNull();
  });

  it('reads a DaemonSet’s scheduled and ready numbers', () => {
    const daemonSet: SlimObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'node-exporter', namespace: 'monitoring', uid: 'ds-1', resourceVersion: '5', generation: 1 },
      status: { desiredNumberScheduled: 5, currentNumberScheduled: 5, numberReady: 4, numberAvailable: 4, updatedNumberScheduled: 5, observedGeneration: 1 },
    };
    const row = workloadRow(daemonSet);
    expect(row).toMatchObject({ desired: 5, ready: 4, available: 4, upToDate: 5 });
    expect(row.drift?.reasons).toEqual(['4 of 5 desired replicas ready']);
  });

  it('does not call a running Job drifting, but a failed one is', () => {
    const running = workloadRow(job('backup', { completions: 3, succeeded: 1 }));
    expect(running).toMatchObject({ desired: 3, ready: 1, status: 'Running', drift: null });
    const failed = workloadRow(job('backup', { failed: true }));
    expect(failed.status).toBe('Failed');
    expect(failed.drift).toEqual({ severity: 'danger', reasons: ['Failed=True: BackoffLimitExceeded — Job has reached the specified backoff limit'], summary: 'BackoffLimitExceeded' });
    expect(workloadRow(job('report', { complete: true, succeeded: 1 })).status).toBe('Complete');
  });

  it('shows a suspended CronJob without drift', () => {
    const cronJob: SlimObject = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly', namespace: 'ops', uid: 'cj-1', resourceVersion: '3' },
      spec: { schedule: '0 2 * * *', suspend: true },
      status: {},
    };
    expect(workloadRow(cronJob)).toMatchObject({ status: 'Suspended', drift: null, desired: null, ready: null });
  });

  it('marks ReplicaSets run by a Deployment as managed', () => {
    const web = deployment('web');
    expect(workloadRow(replicaSet('web-5d8f7c9b6', { owner: web })).managed).toBe(true);
    const bare = workloadRow(replicaSet('legacy'));
    expect(bare.managed).toBe(false);
    expect(bare.upToDate).toBeNull();
  });
});

describe('workload filter', () => {
  const web = deployment('web', { namespace: 'shop' });
  const rows: WorkloadRow[] = [
    web,
    replicaSet('web-5d8f7c9b6', { namespace: 'shop', owner: web }),
    replicaSet('legacy', { namespace: 'shop', ready: 1 }),
    deployment('api', { namespace: 'shop', ready: 2 }),
    deployment('grafana', { namespace: 'monitoring' }),
    job('backup', { namespace: 'ops', failed: true }),
  ].map(workloadRow);
  const all = { kind: 'all' as const, namespace: '', search: '', driftOnly: false };

  it('leaves Deployment-run ReplicaSets out of "All" and shows them under ReplicaSets', () => {
    const everything = filterWorkloads(rows, all);
    expect(everything.rows.map((row) => row.name)).toEqual(['web', 'legacy', 'api', 'grafana', 'backup']);
    expect(everything.counts).toMatchObject({ all: 5, 'deployments.apps': 3, 'replicasets.apps': 2, 'jobs.batch': 1, 'statefulsets.apps': 0 });
    expect(filterWorkloads(rows, { ...all, kind: 'replicasets.apps' }).rows.map((row) => row.name)).toEqual(['web-5d8f7c9b6', 'legacy']);
  });

  it('filters by namespace and by every word of the search', () => {
    expect(filterWorkloads(rows, { ...all, namespace: 'shop' }).rows.map((row) => row.name)).toEqual(['web', 'legacy', 'api']);
    expect(filterWorkloads(rows, { ...all, search: 'deployment SHOP' }).rows.map((row) => row.name)).toEqual(['web', 'api']);
    expect(filterWorkloads(rows, { ...all, search: 'nothing-like-this' }).rows).toEqual([]);
  });

  it('keeps only drifting rows when asked, and counts drifting rows either way', () => {
    const drifting = filterWorkloads(rows, { ...all, driftOnly: true });
    expect(drifting.rows.map((row) => row.name)).toEqual(['legacy', 'api', 'backup']);
    expect(drifting.drifting).toBe(3);
    expect(filterWorkloads(rows, all).drifting).toBe(3);
    expect(drifting.counts).toMatchObject({ all: 3, 'deployments.apps': 1, 'replicasets.apps': 1, 'jobs.batch': 1 });
  });
});
