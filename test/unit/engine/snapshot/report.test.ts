import { describe, expect, it } from 'vitest';
import { chartRange, renderReport } from '../../../../electron/engine/snapshot/html/report.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { SnapshotFile } from '../../../../shared/contracts/snapshot.ts';
import { deployment, sampleFile, T } from './sample-file.ts';

const MINUTE = 60_000;

function withHistory(): SnapshotFile {
  const api = { kind: 'deployments.apps' as const, namespace: 'shop', name: 'api', uid: 'uid-api' };
  return sampleFile({
    history: {
      window: { from: T - 60 * MINUTE, to: T },
      since: T - 10 * MINUTE,
      workloads: [
        {
          workload: api,
          series: [
            { name: 'desired', points: [[T - 10 * MINUTE, 2]] },
            { name: 'ready', points: [[T - 10 * MINUTE, 2], [T - 5 * MINUTE, 1]] },
          ],
          rawSamples: 3,
          rollouts: [],
          warnings: [],
        },
      ],
      episodes: [{ id: 7, workload: api, start: T - 5 * MINUTE, end: null, durationMs: 5 * MINUTE, peakGap: 1, reasons: ['ready', 'progressing'], trigger: { generation: 2, image: 'api:2.0' } }],
      driftCount: [[T - 60 * MINUTE, 0], [T - 5 * MINUTE, 1], [T, 1]],
    },
  });
}

describe('HTML report', () => {
  it('is one page with inline SVG charts and no reference to anything outside it', () => {
    const html = renderReport(withHistory());
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/\s(src|href)\s*=/i);
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<svg /g)?.length).toBe(2);
    expect(html).toContain('Drifting workloads (1)');
    expect(html).toMatch(/<td>generation 2 → api:2.0<\/td>/);
    // The same words as the app: a rollout still going is not "stalled".
    expect(html).toContain('>Rolling out</span>');
    expect(html).not.toMatch(/stalled/i);
    expect(html).toContain('Recording began at 2024-05-01 11:50:00 UTC; the charts start there.');
  });

  it('draws from when recording began, not from the start of a longer window', () => {
    expect(chartRange(withHistory())).toEqual({ from: T - 10 * MINUTE, to: T });
    expect(chartRange(sampleFile())).toEqual({ from: T, to: T });
  });

  it('escapes every name it shows', () => {
    const evil = deployment('<img src=x onerror=alert(1)>', 1, 0) as SlimObject;
    const html = renderReport(sampleFile({ objects: [evil] }));
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('says what is missing instead of drawing empty charts', () => {
    const html = renderReport(sampleFile());
    expect(html).toContain('No history was recorded for this context, so there is no timeline.');
    expect(html).not.toContain('<svg');
  });
});
