/**
 * A snapshot taken by a user whose permissions restrict the view says so: the file's context
 * carries the access checks' line (from `cluster:access`, as the status bar says it), the HTML
 * report's header shows it, and an unrestricted context's file has none.
 */
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../../electron/engine/snapshot/html/report.ts';
import { viewOf, type EngineRequest } from '../../../../electron/engine/snapshot/sources.ts';
import type { AccessSummary } from '../../../../shared/access.ts';
import { SnapshotFileSchema } from '../../../../shared/contracts/snapshot.ts';
import { ok } from '../../../../shared/result.ts';
import { sampleFile } from './sample-file.ts';

const RESTRICTED: AccessSummary = {
  restricted: true,
  namespaces: ['payments', 'shop'],
  hiddenKinds: [{ key: 'nodes', kind: 'Node', message: 'Nodes are hidden by your permissions: you may not list and watch nodes at the cluster scope' }],
  checked: [],
  reviews: [],
  reviewsOmitted: 0,
  noAccess: false,
  checkedAt: 1,
};

const answering = (summary: AccessSummary | null): EngineRequest => (async (channel: string) => {
  expect(channel).toBe('cluster:access');
  return ok({ context: 'kubedrift-demo-dev', epoch: 'e1', summary });
}) as EngineRequest;

describe('a snapshot of a restricted view', () => {
  it('takes the restricted view from cluster:access, and none for a user who sees everything or was not checked', async () => {
    expect(await viewOf(answering(RESTRICTED))).toEqual({ namespaces: ['payments', 'shop'], hiddenKinds: ['Nodes'], text: 'Namespaces payments, shop · Nodes hidden by your permissions' });
    expect(await viewOf(answering({ ...RESTRICTED, restricted: false, namespaces: [], hiddenKinds: [] }))).toBeNull();
    expect(await viewOf(answering(null))).toBeNull();
  });

  it("says in the file's context and the HTML report's header that the view was restricted, and to which namespaces", () => {
    const base = sampleFile();
    const file = SnapshotFileSchema.parse({ ...base, context: { ...base.context, view: { namespaces: ['payments', 'shop'], hiddenKinds: ['Nodes'], text: 'Namespaces payments, shop · Nodes hidden by your permissions' } } });
    expect(file.context.view?.namespaces).toEqual(['payments', 'shop']);
    expect(renderReport(file)).toContain("<dt>Restricted view</dt><dd>Namespaces payments, shop · Nodes hidden by your permissions (what the context&#39;s user may read)</dd>");
    expect(renderReport(base)).not.toContain('Restricted view');
  });
});
