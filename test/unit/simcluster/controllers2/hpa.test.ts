import { describe, expect, it } from 'vitest';
import { createHpaController, type HpaController } from '../../../../electron/engine/simcluster/controllers/hpa.ts';
import { harness, T, template, type Harness } from './harness.ts';

const DEPLOYMENTS = T('deployments.apps');
const HPAS = T('horizontalpodautoscalers.autoscaling');
const MINUTE = 60_000;

function setup(options: { replicas?: number; min?: number; max?: number; target?: number; speed?: number; annotations?: Record<string, string>; behavior?: unknown } = {}): { h: Harness; hpa: HpaController } {
  const hpa = createHpaController(options.speed ? { speed: options.speed } : {});
  const h = harness([hpa]);
  h.create('deployments.apps', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'frontend', namespace: 'default', ...(options.annotations ? { annotations: options.annotations } : {}) },
    spec: { replicas: options.replicas ?? 2, selector: { matchLabels: { app: 'frontend' } }, template: { ...template({ app: 'frontend' }), spec: { containers: [{ name: 'web', image: 'nginx:1.27.2', resources: { requests: { cpu: '200m' } } }] } } },
  });
  h.create('horizontalpodautoscalers.autoscaling', {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'frontend', namespace: 'default' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'frontend' },
      minReplicas: options.min ?? 2,
      maxReplicas: options.max ?? 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: options.target ?? 50 } } }],
      ...(options.behavior ? { behavior: options.behavior } : {}),
    },
  });
  return { h, hpa };
}

const replicas = (h: Harness) => (h.store.get(DEPLOYMENTS, 'default', 'frontend')['spec'] as { replicas: number }).replicas;
const status = (h: Harness) => h.store.get(HPAS, 'default', 'frontend')['status'] as Record<string, unknown>;
const condition = (h: Harness, type: string) => (status(h)['conditions'] as Array<{ type: string; status: string; reason: string; message: string }>).find((c) => c.type === type);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('horizontal-pod-autoscaler', () => {
  it('scales the target up by ceil(current * utilization / target) and says why', () => {
    const { h, hpa } = setup();
    hpa.setLoad('default', 'Deployment', 'frontend', 90);
    h.advance(15_000);
    expect(replicas(h)).toBe(4);
    const at = iso(h.clock.now());
    expect(status(h)).toEqual({
      lastScaleTime: at,
      currentReplicas: 2,
      desiredReplicas: 4,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 90, averageValue: '180m' } } }],
      conditions: [
        { type: 'AbleToScale', status: 'True', lastTransitionTime: expect.any(String), reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 4' },
        { type: 'ScalingActive', status: 'True', lastTransitionTime: expect.any(String), reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)' },
        { type: 'ScalingLimited', status: 'False', lastTransitionTime: expect.any(String), reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' },
      ],
    });
    expect(h.events({ reason: 'SuccessfulRescale' })).toEqual(['SuccessfulRescale: New size: 4; reason: cpu resource utilization (percentage of request) above target']);
    const event = h.store.all(T('events')).find((e) => e['reason'] === 'SuccessfulRescale');
    expect(event?.['source']).toEqual({ component: 'horizontal-pod-autoscaler' });
  });

  it('keeps scaling every sync period until maxReplicas', () => {
    const { h, hpa } = setup();
    hpa.setLoad('default', 'Deployment', 'frontend', 90);
    h.advance(45_000);
    expect(replicas(h)).toBe(10);
    expect(condition(h, 'ScalingLimited')).toMatchObject({ status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
    expect(h.events({ reason: 'SuccessfulRescale' }).map((e) => e.split(';')[0])).toEqual(['SuccessfulRescale: New size: 4', 'SuccessfulRescale: New size: 8', 'SuccessfulRescale: New size: 10']);
  });

  it('holds a scale-down for the five-minute stabilization window', () => {
    const { h, hpa } = setup({ replicas: 10 });
    hpa.setLoad('default', 'Deployment', 'frontend', 50);
    h.advance(60_000);
    hpa.setLoad('default', 'Deployment', 'frontend', 10);
    h.advance(60_000);
    expect(replicas(h)).toBe(10);
    expect(condition(h, 'AbleToScale')).toMatchObject({ reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' });
    h.advance(4 * MINUTE);
    expect(replicas(h)).toBe(2);
    expect(h.events({ reason: 'SuccessfulRescale' })).toEqual(['SuccessfulRescale: New size: 2; reason: All metrics below target']);
  });

  it('shortens the windows and sync period by the simulation speed', () => {
    const { h, hpa } = setup({ replicas: 10, speed: 10 });
    hpa.setLoad('default', 'Deployment', 'frontend', 50);
    h.advance(1_500, 500);
    hpa.setLoad('default', 'Deployment', 'frontend', 10);
    // A 1.5 s sync period and a 30 s window: the recommendation of 10 made at 1.5 s holds until 31.5 s.
    h.advance(28_500, 500);
    expect(replicas(h)).toBe(10);
    h.advance(1_500, 500);
    expect(replicas(h)).toBe(2);
  });

  it('does nothing within the 10% tolerance', () => {
    const { h, hpa } = setup();
    hpa.setLoad('default', 'Deployment', 'frontend', 54);
    h.advance(60_000);
    expect(replicas(h)).toBe(2);
    expect(condition(h, 'AbleToScale')).toMatchObject({ reason: 'ReadyForNewScale', message: 'recommended size matches current size' });
  });

  it('reads the load from the target annotation', () => {
    const { h } = setup({ annotations: { 'simcluster.kubedrift.dev/cpu-utilization': '75' } });
    h.settle();
    expect(replicas(h)).toBe(3);
  });

  it('limits a scale-up to max(2x, +4) per sync', () => {
    const { h, hpa } = setup({ replicas: 2, max: 100 });
    hpa.setLoad('default', 'Deployment', 'frontend', 1000);
    h.advance(15_000);
    expect(replicas(h)).toBe(6);
    expect(condition(h, 'ScalingLimited')).toMatchObject({ status: 'True', reason: 'ScaleUpLimit' });
  });

  it('reports missing metrics when no load is known', () => {
    const { h } = setup();
    expect(condition(h, 'ScalingActive')).toMatchObject({
      status: 'False',
      reason: 'FailedGetResourceMetric',
      message: 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
    });
    expect(replicas(h)).toBe(2);
  });

  it('reports a missing scale target', () => {
    const { h } = setup();
    h.store.delete(DEPLOYMENTS, 'default', 'frontend');
    h.advance(15_000);
    expect(condition(h, 'AbleToScale')).toMatchObject({ status: 'False', reason: 'FailedGetScale', message: 'the HPA controller was unable to get the target\'s current scale: deployments.apps "frontend" not found' });
  });
});
