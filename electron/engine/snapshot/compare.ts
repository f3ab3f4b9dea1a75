/**
 * What changed between two snapshots: objects added, removed and changed (with the field paths
 * that differ), and each workload's desired/actual numbers before and after. Objects match by
 * group, kind, namespace and name rather than uid, so two snapshots of different clusters (staging vs
 * production) compare too; a recreated object shows up as changed, with `metadata.uid` listed.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { groupKindOf } from '../../../shared/kinds.ts';
import { MAX_COMPARE_CHANGES, type ObjectChange, type OpenedSnapshot, type SnapshotComparison, type SnapshotFile } from '../../../shared/contracts/snapshot.ts';
import { workloadRows, workloadState } from './summary.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fields that change on every write and say nothing about what changed. */
const IGNORED_PATHS: ReadonlySet<string> = new Set(['metadata.resourceVersion', 'metadata.managedFields']);
/** How deep field paths go before a whole subtree is reported as one path. */
const MAX_DEPTH = 4;

/** Kind by group and kind, never kind alone (a custom `Job` is no batch Job); any version of a group matches. */
const keyOf = (object: SlimObject) => `${groupKindOf(object)?.group ?? object.apiVersion}\u0000${object.kind}\u0000${object.metadata.namespace ?? ''}\u0000${object.metadata.name}`;

/** Dotted paths at which `a` and `b` differ (arrays compare as a whole). */
export function changedPaths(a: unknown, b: unknown, prefix = '', depth = 0, out: string[] = []): string[] {
  if (IGNORED_PATHS.has(prefix)) return out;
  if (isObject(a) && isObject(b) && depth < MAX_DEPTH) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) changedPaths(a[key], b[key], prefix ? `${prefix}.${key}` : key, depth + 1, out);
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(prefix);
  return out;
}

const WORKLOAD_FIRST: Readonly<Record<string, number>> = { Deployment: 0, StatefulSet: 1, DaemonSet: 2, Job: 3, CronJob: 4, ReplicaSet: 5, HorizontalPodAutoscaler: 6, Service: 7, Pod: 8 };
const rank = (change: ObjectChange) => WORKLOAD_FIRST[change.kind] ?? 9;

export function compareSnapshots(a: { entry: OpenedSnapshot; file: SnapshotFile }, b: { entry: OpenedSnapshot; file: SnapshotFile }): SnapshotComparison {
  const before = new Map(a.file.objects.map((object) => [keyOf(object), object]));
  const after = new Map(b.file.objects.map((object) => [keyOf(object), object]));
  const changes: ObjectChange[] = [];
  const totals = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  const describe = (object: SlimObject, change: ObjectChange['change'], fields: string[]): ObjectChange => ({
    change,
    kind: object.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name,
    fields,
  });
  for (const [key, old] of before) {
    const next = after.get(key);
    if (!next) {
      totals.removed += 1;
      changes.push(describe(old, 'removed', []));
      continue;
    }
    const fields = changedPaths(old, next);
    if (fields.length === 0) totals.unchanged += 1;
    else {
      totals.changed += 1;
      changes.push(describe(next, 'changed', fields));
    }
  }
  for (const [key, object] of after) {
    if (before.has(key)) continue;
    totals.added += 1;
    changes.push(describe(object, 'added', []));
  }
  changes.sort((x, y) => rank(x) - rank(y) || x.kind.localeCompare(y.kind) || x.namespace.localeCompare(y.namespace) || x.name.localeCompare(y.name));

  const rowsBefore = new Map(workloadRows(a.file.objects).map((row) => [`${row.kind}/${row.namespace}/${row.name}`, row]));
  const rowsAfter = new Map(workloadRows(b.file.objects).map((row) => [`${row.kind}/${row.namespace}/${row.name}`, row]));
  const workloads: SnapshotComparison['workloads'] = [];
  for (const key of new Set([...rowsBefore.keys(), ...rowsAfter.keys()])) {
    const old = rowsBefore.get(key);
    const next = rowsAfter.get(key);
    const oldState = old ? workloadState(old) : null;
    const nextState = next ? workloadState(next) : null;
    const changed = !oldState ? ['created'] : !nextState ? ['deleted'] : (Object.keys(oldState) as Array<keyof typeof oldState>).filter((field) => oldState[field] !== nextState[field]);
    if (changed.length === 0) continue;
    const row = (next ?? old) as NonNullable<typeof old>;
    workloads.push({ kind: row.kind, namespace: row.namespace, name: row.name, before: oldState, after: nextState, changed });
  }
  workloads.sort((x, y) => x.namespace.localeCompare(y.namespace) || x.name.localeCompare(y.name));
  return { a: a.entry, b: b.entry, totals, changes: changes.slice(0, MAX_COMPARE_CHANGES), truncated: changes.length > MAX_COMPARE_CHANGES, workloads };
}
