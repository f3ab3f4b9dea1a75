/**
 * A snapshot carries the causes its episodes kept in history, and its HTML report says
 * "caused by …" per episode; files written before causes were kept still open.
 */
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot } from '../../../../electron/engine/snapshot/file.ts';
import { renderReport } from '../../../../electron/engine/snapshot/html/report.ts';
import type { Episode } from '../../../../shared/contracts/history.ts';
import type { SnapshotFile } from '../../../../shared/contracts/snapshot.ts';
import { sampleFile, T } from './sample-file.ts';

const MINUTE = 60_000;
const IMAGE = 'registry.example.com/shop/catalog:broken';
const api = { kind: 'deployments.apps' as const, namespace: 'shop', name: 'api', uid: 'uid-api' };
const CAUSES: NonNullable<Episode['causes']> = [
  { at: T - 4 * MINUTE, code: 'image-pull', sentence: `1 pod can't pull ${IMAGE}: not found`, evidence: { kind: 'Pod', name: 'api-7d9f8b6c2d-x1' } },
  { at: T - 2 * MINUTE, code: 'progress-deadline', sentence: 'Deployment api exceeded its progress deadline: ReplicaSet "api-7d9f8b6c2d" has timed out progressing. <b>' },
];

function withEpisode(causes?: Episode['causes']): SnapshotFile {
  const episode: Episode = { id: 7, workload: api, start: T - 5 * MINUTE, end: T - MINUTE, durationMs: 4 * MINUTE, peakGap: 1, reasons: ['ready', 'stalled'], trigger: { generation: 2, image: IMAGE }, ...(causes ? { causes } : {}) };
  return sampleFile({
    history: {
      window: { from: T - 60 * MINUTE, to: T },
      since: T - 10 * MINUTE,
      workloads: [{ workload: api, series: [{ name: 'desired', points: [[T - 10 * MINUTE, 2]] }], rawSamples: 1, rollouts: [], warnings: [] }],
      episodes: [episode],
      driftCount: [[T - 60 * MINUTE, 0], [T - 5 * MINUTE, 1], [T - MINUTE, 0], [T, 0]],
    },
  });
}

describe('snapshots keep the causes of their episodes', () => {
  it('writes and reads back each cause with when it was first seen and its evidence', async () => {
    const opened = await decodeSnapshot(await encodeSnapshot(withEpisode(CAUSES)));
    expect(opened.history?.episodes[0]?.causes).toEqual(CAUSES);
  });

  it('opens a file whose episodes have no causes (written before they were kept)', async () => {
    const opened = await decodeSnapshot(await encodeSnapshot(withEpisode()));
    expect(opened.history?.episodes[0]?.causes).toBeUndefined();
    expect(opened.history?.episodes).toHaveLength(1);
  });

  it('says "caused by …" per episode in the HTML report, then the later causes, escaped', () => {
    const html = renderReport(withEpisode(CAUSES));
    expect(html).toContain(`caused by 1 pod can&#39;t pull ${IMAGE}: not found · then Deployment api exceeded its progress deadline: ReplicaSet &quot;api-7d9f8b6c2d&quot; has timed out progressing. &lt;b&gt;`);
    expect(renderReport(withEpisode())).not.toContain('caused by');
  });
});
