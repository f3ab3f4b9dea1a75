/**
 * Backfill against an aged simulated cluster (simcluster/scenarios/aging.ts): the objects a
 * cluster that ran for three days holds, slimmed as the informers slim them, yield exactly the
 * rollouts (ReplicaSets' and ControllerRevisions'), visible terminations and Job runs the
 * seeding says are still there, and the runs
 * the kubelet no longer shows are counted as restarts of unknown time, never given one.
 */
import { describe, expect, it } from 'vitest';
import { controllerUids, inferFacts, topController, type InferredRow } from '../../../../electron/engine/history/backfill.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { seedHistory } from '../../../../electron/engine/simcluster/scenarios/aging.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';

const NOW = Date.UTC(2026, 10, 28, 0, 0, 0);
const KINDS = [
  { kind: 'deployments.apps', objectKind: 'Deployment', apiVersion: 'apps/v1' },
  { kind: 'replicasets.apps', objectKind: 'ReplicaSet', apiVersion: 'apps/v1' },
  { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' },
  { kind: 'jobs.batch', objectKind: 'Job', apiVersion: 'batch/v1' },
  { kind: 'statefulsets.apps', objectKind: 'StatefulSet', apiVersion: 'apps/v1' },
  { kind: 'daemonsets.apps', objectKind: 'DaemonSet', apiVersion: 'apps/v1' },
  { kind: 'controllerrevisions.apps', objectKind: 'ControllerRevision', apiVersion: 'apps/v1' },
];

function agedCluster() {
  const store = new ObjectStore({ now: () => NOW });
  const seeded = seedHistory(store, { ageMs: 72 * 3_600_000, now: NOW, namespace: 'aged', revisions: 3 });
  const objects: SlimObject[] = [];
  const kinds: string[] = [];
  for (const source of KINDS) {
    const type = typeById(source.kind);
    if (!type) throw new Error(`no ${source.kind}`);
    for (const raw of store.all(type, 'aged')) {
      objects.push(slimObject(raw, source));
      kinds.push(source.kind);
    }
  }
  return { seeded, objects, kinds };
}

function backfill(objects: SlimObject[], kinds: string[]): InferredRow[] {
  const owners = controllerUids(objects);
  return objects.flatMap((object, i) => inferFacts(object, kinds[i] as string, topController(object.metadata.uid, owners)));
}

describe('backfill of an aged simulated cluster', () => {
  it('finds every revision the cluster keeps, at its ReplicaSet’s creation, under its Deployment', () => {
    const { seeded, objects, kinds } = agedCluster();
    const rows = backfill(objects, kinds);
    const rollouts = rows.filter((row) => row.fact === 'rollout' && row.kind === 'ReplicaSet');
    expect(rollouts.map((row) => [row.name, row.at]).sort()).toEqual(seeded.rollouts.map((r) => [r.replicaSet, Date.parse(r.at)]).sort());
    const deploymentUid = new Map(objects.filter((o) => o.kind === 'Deployment').map((o) => [o.metadata.name, o.metadata.uid]));
    for (const r of seeded.rollouts) expect(rollouts.find((row) => row.name === r.replicaSet)?.workloadUid).toBe(deploymentUid.get(r.deployment));
  });

  it('finds every StatefulSet and DaemonSet revision at its ControllerRevision’s creation, numbered, under its owner', () => {
    const { seeded, objects, kinds } = agedCluster();
    const rollouts = backfill(objects, kinds).filter((row) => row.fact === 'rollout' && row.kind === 'ControllerRevision');
    expect(seeded.controllerRevisions.map((r) => r.revision)).toEqual([1, 2, 3, 1, 2, 3]);
    expect(rollouts.map((row) => [row.name, row.at, row.detail]).sort()).toEqual(seeded.controllerRevisions.map((r) => [r.name, Date.parse(r.at), `revision ${r.revision} (ControllerRevision ${r.name})`]).sort());
    const ownerUid = new Map(objects.filter((o) => o.kind === 'StatefulSet' || o.kind === 'DaemonSet').map((o) => [o.metadata.name, o.metadata.uid]));
    for (const r of seeded.controllerRevisions) expect(rollouts.find((row) => row.name === r.name)?.workloadUid).toBe(ownerUid.get(r.owner));
    // Spread over the cluster's age, all in the past.
    const times = rollouts.map((row) => row.at ?? 0);
    expect(Math.min(...times)).toBeLessThan(NOW - 48 * 3_600_000);
    expect(Math.max(...times)).toBeLessThan(NOW);
  });

  it('finds the visible terminations and finished containers at their finish, and only those', () => {
    const { seeded, objects, kinds } = agedCluster();
    const terminated = backfill(objects, kinds).filter((row) => row.fact === 'terminated' && row.at !== null);
    const visible = seeded.terminations.filter((t) => t.visible);
    expect(visible.length).toBeGreaterThan(0);
    // A finished Job's pod is terminated now (state.terminated): that is a termination too.
    const current = objects.flatMap((o) => ((o as { status?: { containerStatuses?: Array<{ state?: { terminated?: { finishedAt: string } } }> } }).status?.containerStatuses ?? []).flatMap((c) => (c.state?.terminated ? [[o.metadata.name, Date.parse(c.state.terminated.finishedAt)]] : [])));
    expect(current.length).toBeGreaterThan(0);
    expect(terminated.map((row) => [row.name, row.at]).sort()).toEqual([...visible.map((t) => [t.pod, Date.parse(t.finishedAt)]), ...current].sort());
    for (const t of visible) expect(terminated.find((row) => row.name === t.pod)?.detail).toContain(`exited ${t.exitCode} (${t.reason})`);
    // The older runs show only in restartCount: no row claims to know when they ended.
    const hidden = seeded.terminations.filter((t) => !t.visible);
    if (hidden.length > 0) expect(terminated.every((row) => !hidden.some((t) => Date.parse(t.finishedAt) === row.at && t.pod === row.name))).toBe(true);
  });

  it('finds each Job run from its startTime to its completionTime', () => {
    const { seeded, objects, kinds } = agedCluster();
    const runs = backfill(objects, kinds).filter((row) => row.fact === 'job-run');
    expect(runs.map((row) => [row.name, row.at, row.end]).sort()).toEqual(seeded.jobRuns.map((j) => [j.job, Date.parse(j.startTime), Date.parse(j.completionTime)]).sort());
  });

  it('gives the same ids on a second connect', () => {
    const first = agedCluster();
    const ids = backfill(first.objects, first.kinds).map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(backfill(first.objects.map((o) => structuredClone(o)), first.kinds).map((row) => row.id)).toEqual(ids);
  });
});
