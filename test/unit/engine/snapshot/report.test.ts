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

  it('lists custom resources with their state, worst first; never metadata-only or built-in kinds', () => {
    const cert = (name: string, conditions: unknown[]): SlimObject =>
      ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { uid: `uid-${name}`, name, namespace: 'shop', resourceVersion: '4', generation: 1 }, spec: { secretName: `${name}-tls` }, status: { conditions } }) as SlimObject;
    const ready = cert('web-tls', [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date and has not expired' }]);
    const failing = cert('api-tls', [{ type: 'Ready', status: 'False', reason: 'Failed', message: 'issuer letsencrypt is not ready' }]);
    const database = { apiVersion: 'db.kubedrift.dev/v1', kind: 'Database', metadata: { uid: 'uid-db', name: 'orders-db', namespace: 'shop', resourceVersion: '6' }, spec: { engine: 'postgres' } } as SlimObject;
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { uid: 'uid-cm', name: 'settings', namespace: 'shop', resourceVersion: '2' } } as SlimObject;
    const metadataCustom = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { uid: 'uid-w', name: 'w', namespace: 'shop', resourceVersion: '2' } } as SlimObject;
    const base = sampleFile();
    const entry = (apiVersion: string, kind: string, plural: string, custom: boolean, metadataOnly: boolean) => {
      const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
      return { apiVersion, kind, key: group ? `${plural}.${group}` : plural, plural, namespaced: true, custom, metadataOnly };
    };
    const html = renderReport({
      ...base,
      objects: [...base.objects, ready, failing, database, configMap, metadataCustom],
      kinds: [
        ...base.kinds,
        entry('cert-manager.io/v1', 'Certificate', 'certificates', true, false),
        entry('db.kubedrift.dev/v1', 'Database', 'databases', true, false),
        entry('v1', 'ConfigMap', 'configmaps', false, true),
        entry('example.com/v1', 'Widget', 'widgets', true, true),
      ],
    });
    expect(html).toContain('Custom resources (3)');
    const rows = [...html.matchAll(/data-custom-resource="([^"]+)" data-state="([^"]+)"/g)].map((match) => `${match[1]} ${match[2]}`);
    expect(rows).toEqual(['Certificate.cert-manager.io/shop/api-tls failed', 'Database.db.kubedrift.dev/shop/orders-db none', 'Certificate.cert-manager.io/shop/web-tls current']);
    expect(html).toContain('issuer letsencrypt is not ready');
    // No status signal is neutral, never green.
    expect(html).toMatch(/<span class="pill neutral">No status signal<\/span>/);
    expect(html).not.toContain('settings');
    expect(renderReport(base)).not.toContain('id="custom-resources"');
    // The user's rules (Settings) decide before the generic ones, as in the app.
    const degraded = { ...database, status: { conditions: [{ type: 'Degraded', status: 'True', reason: 'ReplicaLost', message: 'one replica is gone' }] } } as SlimObject;
    const ruled = renderReport(
      { ...base, objects: [degraded], kinds: [entry('db.kubedrift.dev/v1', 'Database', 'databases', true, false)] },
      { userRules: [{ group: 'db.kubedrift.dev', kind: 'Database', conditionType: 'Degraded', conditionStatus: 'True', state: 'failed' }] },
    );
    expect(ruled).toContain('data-custom-resource="Database.db.kubedrift.dev/shop/orders-db" data-state="failed"');
  });

  it('says what is missing instead of drawing empty charts', () => {
    const html = renderReport(sampleFile());
    expect(html).toContain('No history was recorded for this context, so there is no timeline.');
    expect(html).not.toContain('<svg');
  });
});
