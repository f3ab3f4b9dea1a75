/**
 * `history:compare`: which workloads' desired or actual state differs between two moments, and
 * in which fields. A workload with no sample by a moment (not created yet) or deleted by then
 * counts as absent: absent -> present is `created`, present -> absent is `deleted`.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Sample, WorkloadChange } from '../../../shared/contracts/history.ts';
import { refOf, type RefRow } from './episode-rows.ts';
import { EMPTY_VALUES, type SampleValues } from './sample-codec.ts';
import { createSampleReader } from './sample-read.ts';

/** Every recorded field, with a custom resource's state (absent from a built-in kind's samples). */
const FIELDS = [...Object.keys(EMPTY_VALUES), 'state'] as Array<keyof SampleValues>;

/** The fields in which two samples differ (`created` / `deleted` when one is absent). */
export function changedFields(before: Sample | null, after: Sample | null): string[] {
  if (!before && !after) return [];
  if (!before) return ['created'];
  if (!after) return ['deleted'];
  return FIELDS.filter((field) => (before[field] ?? null) !== (after[field] ?? null));
}

export function createCompareQuery(db: DatabaseSync) {
  const workloads = db.prepare('SELECT id, uid, kind, namespace, name, kind_name FROM workloads WHERE first_at <= :until AND (:namespace IS NULL OR namespace = :namespace) ORDER BY namespace, kind, name');
  const samples = createSampleReader(db);
  return function compare(t1: number, t2: number, namespace?: string): WorkloadChange[] {
    const changes: WorkloadChange[] = [];
    const rows = workloads.all({ until: Math.max(t1, t2), namespace: namespace ?? null }) as Array<RefRow & { id: number }>;
    for (const row of rows) {
      const before = samples.at(row.id, t1);
      const after = samples.at(row.id, t2);
      const changed = changedFields(before, after);
      if (changed.length === 0) continue;
      changes.push({ workload: refOf(row), before, after, changed });
    }
    return changes;
  };
}
