import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { detailChangeKey, graphChangeKey, graphNamespaces } from '../../../renderer/components/graph/changes.ts';
import { clampViewport, fitViewport, KEEP_VISIBLE, READABLE_SCALE, reveal, zoomAt } from '../../../renderer/components/graph/pan-zoom.ts';
import { fitText, kindLabel, middleEllipsis, phaseSegments, statusLine } from '../../../renderer/components/graph/present.ts';
import { toYaml } from '../../../renderer/components/graph/yaml-text.ts';
import { defaultNamespace, paramsOf, scopeFromParams } from '../../../renderer/views/graph/graph-scope.ts';
import { GRAPH, changed } from './graph-fixtures.ts';

describe('graph scope from the location', () => {
  it('prefers the context’s namespace when it has workloads, else the busiest, ties by name', () => {
    const counts = new Map([['shop', 7], ['payments', 7], ['kube-system', 2]]);
    expect(defaultNamespace(counts, 'kube-system')).toBe('kube-system');
    expect(defaultNamespace(counts, 'empty')).toBe('payments');
    expect(defaultNamespace(new Map(), 'dev')).toBe('dev');
    expect(defaultNamespace(new Map(), undefined)).toBeNull();
  });

  it('reads ?namespace= as all namespaces, a missing one as the fallback, and round-trips', () => {
    expect(scopeFromParams({}, 'shop')).toEqual({ namespace: 'shop', focus: null });
    expect(scopeFromParams({ namespace: '' }, 'shop')).toEqual({ namespace: null, focus: null });
    expect(scopeFromParams({ namespace: 'ops', focus: 'uid-1' }, 'shop')).toEqual({ namespace: 'ops', focus: 'uid-1' });
    expect(scopeFromParams(paramsOf({ namespace: null, focus: 'x' }), 'shop')).toEqual({ namespace: null, focus: 'x' });
  });
});

describe('graph change keys', () => {
  it('watches a namespace and the cluster-scoped nodes, all namespaces as a sum, a focus by the namespaces it shows', () => {
    expect(graphNamespaces({ namespace: 'shop', focus: null }, null)).toEqual(['shop', '']);
    expect(graphNamespaces({ namespace: null, focus: null }, null)).toBeNull();
    expect(graphNamespaces({ namespace: null, focus: 'dep-web' }, GRAPH)).toEqual(['', 'shop']);
    const a = graphChangeKey(changed({ shop: 1, '': 2, ops: 3 }, 1), ['shop', '']);
    expect(graphChangeKey(changed({ shop: 1, '': 2, ops: 9 }, 2), ['shop', ''])).toBe(a);
    expect(graphChangeKey(changed({ shop: 1, '': 3, ops: 3 }, 3), ['shop', ''])).not.toBe(a);
    expect(graphChangeKey(changed({ shop: 1, ops: 3 }, 1), null)).not.toBe(graphChangeKey(changed({ shop: 1, ops: 4 }, 1), null));
    expect(detailChangeKey({ ...changed({ shop: 1 }, 1), events: { shop: 2 } }, 'shop')).toBe('kind-dev|1|2');
  });
});

describe('graph viewport', () => {
  it('fits a small graph whole and centred, never enlarged', () => {
    expect(fitViewport({ width: 400, height: 200 }, { width: 1000, height: 800 }, false)).toEqual({ x: 300, y: 300, k: 1 });
  });

  it('opens a tall graph at a readable scale from the top, and fits it whole on request', () => {
    const first = fitViewport({ width: 1000, height: 6000 }, { width: 1100, height: 800 }, false);
    expect(first.k).toBe(READABLE_SCALE);
    expect(first.y).toBe(28);
    expect(fitViewport({ width: 1000, height: 4000 }, { width: 1100, height: 800 }, true).k).toBeCloseTo((800 - 56) / 4000);
  });

  it('zooms around the cursor: the graph point under it stays put', () => {
    const before = { x: 40, y: 60, k: 1 };
    const after = zoomAt(before, 2, { x: 240, y: 160 });
    expect(after.k).toBe(2);
    expect((240 - after.x) / after.k).toBe((240 - before.x) / before.k);
    expect((160 - after.y) / after.k).toBe((160 - before.y) / before.k);
  });

  it('never pans the graph out of sight', () => {
    const content = { width: 1000, height: 3000 };
    const view = { width: 800, height: 600 };
    expect(clampViewport({ x: 0, y: -10_000, k: 1 }, content, view)).toEqual({ x: 0, y: KEEP_VISIBLE - 3000, k: 1 });
    expect(clampViewport({ x: 5_000, y: 0, k: 0.5 }, content, view)).toEqual({ x: 800 - KEEP_VISIBLE, y: 0, k: 0.5 });
    const inside = { x: -100, y: -200, k: 1 };
    expect(clampViewport(inside, content, view)).toBe(inside);
  });

  it('brings a card into view with the least movement, and leaves a visible one alone', () => {
    const viewport = { x: 0, y: 0, k: 1 };
    expect(reveal(viewport, { x: 100, y: 100, width: 50, height: 20 }, { width: 800, height: 600 })).toBe(viewport);
    expect(reveal(viewport, { x: 900, y: 100, width: 50, height: 20 }, { width: 800, height: 600 })).toEqual({ x: -178, y: 0, k: 1 });
  });
});

describe('graph presentation', () => {
  it('shortens names in the middle, keeping the pod’s suffix, and fits text to a width', () => {
    expect(middleEllipsis('recommendations-7c9d8b6f5-x2k9p', 20)).toHaveLength(20);
    expect(middleEllipsis('recommendations-7c9d8b6f5-x2k9p', 20).endsWith('-x2k9p')).toBe(true);
    expect(middleEllipsis('web', 20)).toBe('web');
    const fitted = fitText('recommendations-7c9d8b6f5-x2k9p', 100, '12px sans-serif', 'middle');
    expect(fitted.length).toBeLessThan(31);
    expect(fitted).toContain('…');
    expect(fitText('web', 100, '12px sans-serif', 'end')).toBe('web');
  });

  it('labels kinds as kubectl does and leaves a plain Ready out of the status line', () => {
    expect(kindLabel({ kind: 'Deployment' })).toBe('deploy');
    expect(kindLabel({ kind: 'Rollout' })).toBe('rollout');
    expect(kindLabel({ kind: 'Pod' })).toBe('');
    expect(kindLabel({ kind: 'Group', group: { of: 'Pod', count: 3, byPhase: {}, byHealth: {}, nodes: 1, expandable: true } })).toBe('pods ×');
    expect(statusLine({ kind: 'Deployment', status: 'Ready', detail: '2/2 ready · web:v1' })).toBe('2/2 ready · web:v1');
    expect(statusLine({ kind: 'Node', status: 'Ready', detail: 'control-plane' })).toBe('Ready · control-plane');
    expect(statusLine({ kind: 'Pod', status: 'Running', detail: '1/1 · worker-1' })).toBe('Running · 1/1 · worker-1');
  });

  it('orders a group’s phases Running, Pending, Succeeded, Failed with their shares', () => {
    expect(phaseSegments({ Failed: 1, Running: 2, Pending: 1 }).map((s) => [s.phase, s.share])).toEqual([['Running', 0.5], ['Pending', 0.25], ['Failed', 0.25]]);
  });
});

describe('graph YAML', () => {
  it('prints spec and status as YAML that reads back as the same object', () => {
    const value = {
      replicas: 3,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'web' } },
      template: { spec: { containers: [{ name: 'web', image: 'ghcr.io/acme/web:v1', ports: [{ containerPort: 8080 }] }], volumes: [], affinity: {} } },
      tricky: ['true', '1.20', 'a: b', '', ' lead', 'trail ', '#x', '- y', 'null', null, false, 0],
      nested: [[1, 2], []],
    };
    expect(parse(toYaml(value))).toEqual(value);
    expect(toYaml({ replicas: 2 })).toBe('replicas: 2');
    expect(toYaml(null)).toBe('');
  });
});
