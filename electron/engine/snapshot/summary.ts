/**
 * What a snapshot holds, in numbers a person checks first: objects by kind, workloads and which
 * of them drift, episodes and samples. The Overview's own row logic decides drift (desired vs
 * ready, unobserved generations, stalled rollouts), so `snapshot inspect`, the HTML report and
 * the Overview of the opened snapshot never disagree about which workloads drift.
 */
import { BUILTIN_KEYS, BUILTIN_RESOLVER, isBuiltinObject } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { refersToKind } from '../../../shared/kinds.ts';
import type { OpenedSnapshot, SnapshotFile, WorkloadState } from '../../../shared/contracts/snapshot.ts';
import { workloadState as stateOf, type WorkloadCounts, type WorkloadState as FullState } from '../../../shared/workload-status.ts';

/** The kinds the Overview lists as workloads, by kind key: a custom `Job` is no batch Job. */
const WORKLOAD_KINDS: ReadonlySet<string> = new Set([BUILTIN_KEYS.Deployment, BUILTIN_KEYS.StatefulSet, BUILTIN_KEYS.DaemonSet, BUILTIN_KEYS.ReplicaSet, BUILTIN_KEYS.Job, BUILTIN_KEYS.CronJob]);
const DEPLOYMENT = { group: 'apps', kind: 'Deployment' };

/** One workload as the Overview shows it: identity, numbers, state and drift. */
export type WorkloadRow = { uid: string; kind: SlimObject['kind']; namespace: string; name: string } & Omit<WorkloadCounts, 'current'> & Pick<FullState, 'status' | 'drift'>;

export function isWorkload(object: SlimObject): boolean {
  return WORKLOAD_KINDS.has(BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind) ?? '');
}

/** A ReplicaSet run by a Deployment: its drift is the Deployment's, so it is not listed on its own. */
function isManaged(object: SlimObject): boolean {
  return isBuiltinObject(object, BUILTIN_KEYS.ReplicaSet) && (object.metadata.ownerReferences ?? []).some((owner) => refersToKind(owner, DEPLOYMENT) && owner.controller !== false);
}

export function workloadRow(object: SlimObject): WorkloadRow {
  const state = stateOf(object);
  const { desired, ready, available, upToDate } = state.counts;
  return { uid: object.metadata.uid, kind: object.kind, namespace: object.metadata.namespace ?? '', name: object.metadata.name, desired, ready, available, upToDate, status: state.status, drift: state.drift };
}

/** The Overview rows of a snapshot's workloads (Deployment-managed ReplicaSets left out, as there). */
export function workloadRows(objects: readonly SlimObject[]): WorkloadRow[] {
  return objects.filter((object) => isWorkload(object) && !isManaged(object)).map(workloadRow);
}

/** The drifting ones, worst first, then by namespace and name. */
export function driftingRows(rows: readonly WorkloadRow[]): WorkloadRow[] {
  const rank = (row: WorkloadRow) => (row.drift?.severity === 'danger' ? 0 : 1);
  return rows
    .filter((row) => row.drift !== null)
    .sort((a, b) => rank(a) - rank(b) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

export function workloadState(row: WorkloadRow): WorkloadState {
  return { desired: row.desired, ready: row.ready, available: row.available, upToDate: row.upToDate, status: row.status, drifting: row.drift !== null };
}

/** Objects per kind, Events included, kinds sorted by name. */
export function countByKind(file: Pick<SnapshotFile, 'objects' | 'events'>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const object of [...file.objects, ...file.events]) counts[object.kind] = (counts[object.kind] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** The list entry of an opened snapshot. */
export function describeSnapshot(file: SnapshotFile, extra: { id: string; contextName: string; fileName: string; openedAt: number; bytes: number }): OpenedSnapshot {
  const rows = workloadRows(file.objects);
  return {
    ...extra,
    takenAt: file.takenAt,
    createdAt: file.createdAt,
    live: file.live,
    source: file.context,
    scope: file.scope,
    kubedriftVersion: file.generator.version,
    counts: {
      objects: file.objects.length,
      events: file.events.length,
      workloads: rows.length,
      drifting: rows.filter((row) => row.drift !== null).length,
      episodes: file.history?.episodes.length ?? 0,
      samples: file.history?.workloads.reduce((sum, entry) => sum + entry.rawSamples, 0) ?? 0,
    },
    byKind: countByKind(file),
    window: file.history?.window ?? null,
  };
}
