import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../../../electron/engine/snapshot/compare.ts';
import { describeSnapshot, workloadRows } from '../../../../electron/engine/snapshot/summary.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { SnapshotFile } from '../../../../shared/contracts/snapshot.ts';
import { sampleFile } from './sample-file.ts';

/** A batch Job and a custom resource of kind `Job` in another group, same namespace and name. */
function jobs(customPhase: string): SlimObject[] {
  const meta = (uid: string) => ({ uid, name: 'nightly', namespace: 'shop', resourceVersion: '3' });
  return [
    { apiVersion: 'batch/v1', kind: 'Job', metadata: meta('uid-batch'), spec: { completions: 1, parallelism: 1 }, status: { active: 1 } } as SlimObject,
    { apiVersion: 'example.com/v1', kind: 'Job', metadata: meta('uid-custom'), spec: { schedule: 'daily' }, status: { phase: customPhase } } as SlimObject,
  ];
}

const entry = (file: SnapshotFile, id: string) => describeSnapshot(file, { id, contextName: id, fileName: `${id}.kubedrift.json.gz`, openedAt: 0, bytes: 1 });

describe('snapshot summary and comparison', () => {
  it('counts only batch Jobs as workloads, never a custom kind named Job', () => {
    const rows = workloadRows(jobs('Running'));
    expect(rows.map((row) => row.uid)).toEqual(['uid-batch']);
  });

  it('matches objects by group and kind: a custom Job and a batch Job of one name are two objects', () => {
    const a = sampleFile({ objects: jobs('Running') });
    const b = sampleFile({ objects: jobs('Failed') });
    const comparison = compareSnapshots({ entry: entry(a, 'a'), file: a }, { entry: entry(b, 'b'), file: b });
    expect(comparison.totals).toEqual({ added: 0, removed: 0, changed: 1, unchanged: 1 });
    expect(comparison.changes).toEqual([{ change: 'changed', kind: 'Job', namespace: 'shop', name: 'nightly', fields: ['status.phase'] }]);
  });
});
