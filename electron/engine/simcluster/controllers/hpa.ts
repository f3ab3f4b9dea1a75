/**
 * horizontal-pod-autoscaler (autoscaling/v2, Resource cpu Utilization) against a simulated
 * metric: each scale target's average CPU utilization comes from `setLoad()` or the target's
 * `simcluster.kubedrift.dev/cpu-utilization` annotation. Every sync period it computes
 * `ceil(current * utilization / target)` (10% tolerance), applies the stabilization windows and
 * scale-up rate limit, clamps to min/max, and writes the target's `spec.replicas` as `/scale` would.
 */
import { recordControllerWrite } from '../api-extensions.ts';
import type { Change } from '../changelog.ts';
import { typeByApiVersionKind, type ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { setCondition, timestamp } from './conditions.ts';
import { cpuMillis } from './quantity.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';
import { HPAS } from './kinds.ts';

const COMPONENT = 'horizontal-pod-autoscaler';
/** Scale-target annotation: its pods' simulated average CPU utilization, in percent. */
export const LOAD_ANNOTATION = 'simcluster.kubedrift.dev/cpu-utilization';
const METRIC_NAME = 'cpu resource utilization (percentage of request)';
const TOLERANCE = 0.1;

/** Options of `createHpaController`. */
export interface HpaControllerOptions {
  /** --horizontal-pod-autoscaler-sync-period (15 s upstream). */
  syncPeriodMs?: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization (5 min upstream) when the HPA sets none. */
  downscaleStabilizationMs?: number;
  /** Simulation speed: divides the sync period and every window. */
  speed?: number;
}

/** The HPA controller plus the simulated metrics API it reads. */
export interface HpaController extends Controller {
  /** Sets (or with `undefined` clears) the simulated CPU utilization, in percent, of a scale target. */
  setLoad(namespace: string, kind: string, name: string, percent: number | undefined): void;
}

interface Rules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: Array<{ type: string; value: number; periodSeconds: number }>;
}

interface HpaSpec {
  scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
  minReplicas?: number;
  maxReplicas?: number;
  metrics?: Array<{ type?: string; resource?: { name?: string; target?: { type?: string; averageUtilization?: number } } }>;
  behavior?: { scaleUp?: Rules; scaleDown?: Rules };
}

function targetUtilization(spec: HpaSpec): number {
  const cpu = (spec.metrics ?? []).find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
  return cpu?.resource?.target?.averageUtilization ?? 80;
}

/** Per-pod CPU request of the target's template, in millicores (0 when unset). */
function requestMillis(target: KubeObject): number {
  const containers = ((target['spec'] as { template?: { spec?: { containers?: Array<{ resources?: { requests?: Record<string, unknown> } }> } } } | undefined)?.template?.spec?.containers) ?? [];
  return containers.reduce((sum, c) => sum + cpuMillis(c.resources?.requests?.['cpu']), 0);
}

/** The scale-up ceiling of one sync: the behavior's policies, or upstream's max(2x, +4). */
function scaleUpLimit(current: number, rules: Rules | undefined): number {
  const policies = rules?.policies ?? [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }];
  const limits = policies.map((p) => (p.type === 'Pods' ? current + p.value : Math.ceil(current * (1 + p.value / 100))));
  if (rules?.selectPolicy === 'Disabled') return current;
  return rules?.selectPolicy === 'Min' ? Math.min(...limits) : Math.max(...limits);
}

/** The horizontal-pod-autoscaler; syncs every HPA each sync period. */
export function createHpaController(options: HpaControllerOptions = {}): HpaController {
  const speed = options.speed ?? 1;
  const syncPeriodMs = (options.syncPeriodMs ?? 15_000) / speed;
  const defaultDownWindowMs = (options.downscaleStabilizationMs ?? 300_000) / speed;
  const loads = new Map<string, number>();
  /** Per HPA uid: recent unclamped recommendations, for the stabilization windows. */
  const recommendations = new Map<string, Array<{ at: number; replicas: number }>>();

  function loadOf(target: KubeObject): number | undefined {
    const set = loads.get(`${target.metadata.namespace}/${target.kind}/${target.metadata.name}`);
    if (set !== undefined) return set;
    const annotated = Number.parseFloat(target.metadata.annotations?.[LOAD_ANNOTATION] ?? '');
    return Number.isFinite(annotated) ? annotated : undefined;
  }

  function stabilize(uid: string, proposal: number, current: number, spec: HpaSpec, now: number): number {
    const upWindow = ((spec.behavior?.scaleUp?.stabilizationWindowSeconds ?? 0) * 1000) / speed;
    const downSeconds = spec.behavior?.scaleDown?.stabilizationWindowSeconds;
    const downWindow = downSeconds === undefined ? defaultDownWindowMs : (downSeconds * 1000) / speed;
    const history = (recommendations.get(uid) ?? []).filter((r) => now - r.at < Math.max(upWindow, downWindow));
    let up = proposal;
    let down = proposal;
    for (const r of history) {
      if (now - r.at < upWindow) up = Math.min(up, r.replicas);
      if (now - r.at < downWindow) down = Math.max(down, r.replicas);
    }
    recommendations.set(uid, [...history, { at: now, replicas: proposal }]);
    if (up > current) return up;
    if (down < current) return down;
    return current;
  }

  function reconcileHpa(hpa: KubeObject, ctx: ControllerContext): void {
    const now = ctx.clock.now();
    const spec = (hpa['spec'] as HpaSpec | undefined) ?? {};
    const previous = (hpa['status'] as Record<string, unknown> | undefined) ?? {};
    const status: Record<string, unknown> = { conditions: previous['conditions'] ?? [] };
    const ref = spec.scaleTargetRef ?? {};
    const type: ResourceType | undefined = typeByApiVersionKind(ref.apiVersion ?? '', ref.kind ?? '');
    const target = type?.subresources.includes('scale') ? ctx.store.find(type, hpa.metadata.namespace, ref.name ?? '') : undefined;
    const write = (fields: Record<string, unknown>) => {
      const next: Record<string, unknown> = {};
      const lastScaleTime = fields['lastScaleTime'] ?? previous['lastScaleTime'];
      if (lastScaleTime) next['lastScaleTime'] = lastScaleTime;
      if (fields['currentReplicas']) next['currentReplicas'] = fields['currentReplicas'];
      next['desiredReplicas'] = fields['desiredReplicas'] ?? 0;
      if (fields['currentMetrics']) next['currentMetrics'] = fields['currentMetrics'];
      next['conditions'] = status['conditions'];
      ctx.store.mutate(HPAS, hpa.metadata.namespace, hpa.metadata.name, (copy) => {
        copy['status'] = next;
      }, { subresource: 'status' });
    };
    if (!type || !target) {
      const resource = type ? `${type.plural}.${type.group}` : `${(ref.kind ?? '').toLowerCase()}s`;
      const message = `the HPA controller was unable to get the target's current scale: ${resource} "${ref.name ?? ''}" not found`;
      setCondition(status, 'AbleToScale', 'False', 'FailedGetScale', message, now);
      ctx.events.record({ regarding: hpa, type: 'Warning', reason: 'FailedGetScale', message: `${resource} "${ref.name ?? ''}" not found`, component: COMPONENT });
      write({ currentReplicas: previous['currentReplicas'], desiredReplicas: previous['desiredReplicas'] });
      return;
    }
    const current = Number((target['spec'] as { replicas?: number } | undefined)?.replicas ?? 1);
    const min = spec.minReplicas ?? 1;
    const max = spec.maxReplicas ?? min;
    setCondition(status, 'AbleToScale', 'True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale', now);
    if (current === 0 && min !== 0) {
      setCondition(status, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', now);
      write({ currentReplicas: 0, desiredReplicas: 0 });
      return;
    }
    let desired = current;
    let reason: string;
    let metrics: unknown[] | undefined;
    const utilization = loadOf(target);
    if (current > max || current < min) {
      desired = current > max ? max : min;
      reason = current > max ? 'Current number of replicas above Spec.MaxReplicas' : 'Current number of replicas below Spec.MinReplicas';
      setCondition(status, 'ScalingLimited', 'True', current > max ? 'TooManyReplicas' : 'TooFewReplicas', current > max ? 'the desired replica count is more than the maximum replica count' : 'the desired replica count is less than the minimum replica count', now);
    } else if (utilization === undefined) {
      const why = 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
      setCondition(status, 'ScalingActive', 'False', 'FailedGetResourceMetric', `the HPA was unable to compute the replica count: ${why}`, now);
      ctx.events.record({ regarding: hpa, type: 'Warning', reason: 'FailedGetResourceMetric', message: why, component: COMPONENT });
      write({ currentReplicas: current, desiredReplicas: previous['desiredReplicas'] ?? current });
      return;
    } else {
      const percent = Math.round(utilization);
      const request = requestMillis(target);
      metrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: percent, ...(request > 0 ? { averageValue: `${Math.round((request * percent) / 100)}m` } : {}) } } }];
      setCondition(status, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${METRIC_NAME}`, now);
      const ratio = utilization / targetUtilization(spec);
      const proposal = Math.abs(ratio - 1) <= TOLERANCE ? current : Math.ceil(ratio * current);
      const stabilized = stabilize(hpa.metadata.uid, proposal, current, spec, now);
      if (stabilized !== proposal) {
        const down = stabilized > proposal;
        setCondition(status, 'AbleToScale', 'True', down ? 'ScaleDownStabilized' : 'ScaleUpStabilized', down ? 'recent recommendations were higher than current one, applying the highest recent recommendation' : 'recent recommendations were lower than current one, applying the lowest recent recommendation', now);
      } else {
        setCondition(status, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size', now);
      }
      const limit = scaleUpLimit(current, spec.behavior?.scaleUp);
      desired = Math.min(Math.max(stabilized, min), max, Math.max(limit, current));
      if (desired === stabilized) setCondition(status, 'ScalingLimited', 'False', 'DesiredWithinRange', 'the desired count is within the acceptable range', now);
      else if (desired === max && stabilized > max) setCondition(status, 'ScalingLimited', 'True', 'TooManyReplicas', 'the desired replica count is more than the maximum replica count', now);
      else if (desired === min && stabilized < min) setCondition(status, 'ScalingLimited', 'True', 'TooFewReplicas', 'the desired replica count is less than the minimum replica count', now);
      else setCondition(status, 'ScalingLimited', 'True', 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate', now);
      reason = desired > current ? `${METRIC_NAME} above target` : 'All metrics below target';
    }
    if (desired === current) {
      write({ currentReplicas: current, desiredReplicas: desired, currentMetrics: metrics });
      return;
    }
    ctx.store.mutate(type, target.metadata.namespace, target.metadata.name, (copy) => {
      (copy['spec'] as { replicas?: number }).replicas = desired;
      // Through /scale, as kube-controller-manager: it becomes spec.replicas' manager (kubectl scale loses it).
      return recordControllerWrite({ type, before: target, after: copy, manager: 'kube-controller-manager', now, subresource: 'scale' });
    });
    setCondition(status, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`, now);
    ctx.events.record({ regarding: hpa, type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${desired}; reason: ${reason}`, component: COMPONENT });
    write({ currentReplicas: current, desiredReplicas: desired, currentMetrics: metrics, lastScaleTime: timestamp(now) });
  }

  return {
    name: COMPONENT,
    setLoad(namespace, kind, name, percent) {
      const key = `${namespace}/${kind}/${name}`;
      if (percent === undefined) loads.delete(key);
      else loads.set(key, percent);
    },
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource !== 'horizontalpodautoscalers.autoscaling') return [];
      if (change.type === 'DELETED') {
        recommendations.delete(change.object.metadata.uid);
        return [];
      }
      // Status writes are this controller's own; only spec changes need a sync before the period.
      if (change.old && change.old.metadata.generation === change.object.metadata.generation) return [];
      return [{ resource: change.resource, namespace: change.object.metadata.namespace, name: change.object.metadata.name }];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      return ctx.store.all(HPAS).map((h) => ({ resource: 'horizontalpodautoscalers.autoscaling', namespace: h.metadata.namespace, name: h.metadata.name }));
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
      const hpa = ctx.store.find(HPAS, key.namespace, key.name);
      if (!hpa || hpa.metadata.deletionTimestamp) return;
      reconcileHpa(hpa, ctx);
      return syncPeriodMs;
    },
  };
}
