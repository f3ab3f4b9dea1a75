// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { LIGHT_CHART_THEME } from '../../../../renderer/components/charts/chart-theme.ts';
import { buildActionTimeline, offsetText } from '../../../../renderer/components/events/action-steps.ts';
import { formatCount, formatLag, formatPercent, objectTarget } from '../../../../renderer/components/events/event-format.ts';
import { LAG_FLOOR_MS, lagPoints } from '../../../../renderer/views/controllers/lag-option.ts';
import { actedWindow } from '../../../../renderer/views/controllers/reconcile-columns.ts';
import { bucketPoints, buildSparklineOption } from '../../../../renderer/views/controllers/sparkline-option.ts';
import { controllers, NOW, reconcile, summary } from './fixtures.ts';

describe('formatting', () => {
  it('writes lags precisely when short and in minutes when long', () => {
    expect([formatLag(0), formatLag(180), formatLag(1_250), formatLag(12_000), formatLag(425_000), formatLag(null)]).toEqual(['0 ms', '180 ms', '1.2 s', '12 s', '7m 05s', '—']);
  });

  it('writes counts and ratios compactly', () => {
    expect([formatCount(3), formatCount(5.5), formatCount(1_234), formatCount(56_000)]).toEqual(['3', '5.5', '1.2k', '56k']);
    expect([formatPercent(0), formatPercent(0.004), formatPercent(0.876)]).toEqual(['0%', '<1%', '88%']);
  });

  it('sends a workload to its own screen and other objects to the graph, or nowhere while it does not exist', () => {
    expect(objectTarget({ kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-1' })).toEqual({ view: 'workload', params: { uid: 'd-1' } });
    const pod = objectTarget({ kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'p-1' });
    // The graph screen comes from another change: until it is registered, other objects lead nowhere.
    expect(pod === null || ((pod.view as string) === 'graph' && pod.params['focus'] === 'p-1')).toBe(true);
  });
});

describe('chart options', () => {
  it('puts each sparkline bucket at its middle, Warnings as their own series when there are any', () => {
    const result = controllers([]);
    expect(bucketPoints([1, 2], result)[1]).toEqual([result.from + 1.5 * result.bucketMs, 2]);
    const rate = new Array<number>(30).fill(0);
    rate[3] = 4;
    const option = buildSparklineOption(summary('kubelet', { rate, warningRate: rate }), result, LIGHT_CHART_THEME) as { series: Array<{ id: string; data: Array<[number, number]> }> };
    expect(option.series.map((s) => s.id)).toEqual(['all', 'warnings']);
    expect(option.series[0]?.data[3]?.[1]).toBe(4);
    const calm = buildSparklineOption(summary('kubelet', { rate }), result, LIGHT_CHART_THEME) as { series: Array<{ id: string }> };
    expect(calm.series.map((s) => s.id)).toEqual(['all']);
  });

  it('draws caught-up reconciles where they caught up, ongoing ones at now, lags of 0 at the axis floor', () => {
    const points = lagPoints([reconcile('web'), reconcile('api', { end: null, lagMs: 400_000, stuck: true }), reconcile('db', { end: NOW - 10, lagMs: 0 })], NOW);
    expect(points.done.map((p) => p.value)).toEqual([
      [NOW - 58_800, 1_200],
      [NOW - 10, LAG_FLOOR_MS],
    ]);
    expect(points.stuck.map((p) => p.value)).toEqual([[NOW, 400_000]]);
    expect(points.ongoing).toEqual([]);
  });
});

describe('who acted, as steps', () => {
  it('looks at a reconcile from a second before the spec change to three minutes after it caught up, never past now', () => {
    const done = reconcile('web', { start: NOW - 600_000, end: NOW - 599_000 });
    expect(actedWindow(done, NOW)).toEqual({ from: NOW - 601_000, to: NOW - 599_000 + 180_000 });
    expect(actedWindow(reconcile('web', { start: NOW - 60_000, end: NOW - 59_000 }), NOW)).toEqual({ from: NOW - 61_000, to: NOW });
  });

  it('orders the spec change, the actions it caused and its observation, one lane per controller', () => {
    const model = buildActionTimeline({
      workload: { kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-web' },
      from: NOW - 60_000,
      to: NOW,
      truncated: false,
      reconciles: [reconcile('web', { start: NOW - 30_400, end: NOW - 29_000, lagMs: 1_400, workload: { kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-web' } })],
      actions: [
        // Its timestamp is truncated to the second: it seems to come before the change it answers.
        { at: NOW - 31_000, id: 'a1', controller: 'deployment-controller', type: 'Normal', reason: 'ScalingReplicaSet', message: 'Scaled up', object: { kind: 'Deployment', name: 'web', uid: 'd-web' }, depth: 0, count: 1 },
        { at: NOW - 28_000, id: 'a2', controller: 'replicaset-controller', type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod', object: { kind: 'ReplicaSet', name: 'web-1', uid: 'rs' }, depth: 1, count: 1 },
        { at: NOW - 20_000, id: 'a3', controller: 'kubelet', type: 'Warning', reason: 'BackOff', message: 'Back-off', object: { kind: 'Pod', name: 'web-1-x', uid: 'p' }, depth: 2, count: 4 },
      ],
    });
    expect(model.steps.map((s) => [s.step, s.reason, s.lane])).toEqual([
      ['spec', 'Spec changed: generation 2', -1],
      ['action', 'ScalingReplicaSet', 0],
      ['observed', 'Observed generation 2', 0],
      ['action', 'SuccessfulCreate', 1],
      ['action', 'BackOff', 2],
    ]);
    expect(model.lanes).toEqual(['deployment-controller', 'replicaset-controller', 'kubelet']);
    expect(model.positions[0]).toBeCloseTo(29_600 / 60_000, 6);
    expect(model.steps[1]?.at).toBe(NOW - 30_400);
    expect(model.steps[4]?.warning).toBe(true);
    expect([offsetText(400), offsetText(12_300), offsetText(125_000)]).toEqual(['+0.4 s', '+12 s', '+2m 05s']);
  });
});
