/**
 * What a bare Pod gets on top of PodSpec defaulting: SetDefaults_Pod (requests from limits,
 * enableServiceLinks) and the admission plugins every cluster runs (ServiceAccount, Priority,
 * DefaultTolerationSeconds), plus the Pending status PrepareForCreate starts a pod with.
 */
import { parseQuantity } from '../controllers/quantity.ts';
import { defaultPodSpec } from './podspec.ts';
import type { ContainerShape, PodSpecShape, TolerationShape } from './shapes.ts';

/** The built-in PriorityClasses; other class names are resolved by nobody here and left alone. */
const SYSTEM_PRIORITIES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };
const DEFAULT_TOLERATION_SECONDS = 300;
const TAINTS_TOLERATED_BY_DEFAULT = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];
const QOS_RESOURCES = ['cpu', 'memory'];

/** Limits without requests: requests default to the limits (Pods only, not templates). */
function requestsFromLimits(containers: ContainerShape[] | undefined): void {
  for (const container of containers ?? []) {
    const limits = container.resources?.limits;
    if (!limits || !container.resources) continue;
    const requests = (container.resources.requests ??= {});
    for (const [name, value] of Object.entries(limits)) if (!(name in requests)) requests[name] = value;
  }
}

/** DefaultTolerationSeconds admission: tolerate a NotReady or unreachable node for 5 minutes. */
function defaultTolerations(spec: PodSpecShape): void {
  const tolerations: TolerationShape[] = spec.tolerations ?? [];
  for (const key of TAINTS_TOLERATED_BY_DEFAULT) {
    const tolerated = tolerations.some((t) => (t.key === key || (!t.key && t.operator === 'Exists')) && (!t.effect || t.effect === 'NoExecute'));
    if (!tolerated) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
  }
  spec.tolerations = tolerations;
}

/** qos.GetPodQOS over cpu and memory: BestEffort, Guaranteed or Burstable. */
export function qosClass(spec: PodSpecShape): 'BestEffort' | 'Guaranteed' | 'Burstable' {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    const limitNames = new Set<string>();
    for (const [map, source] of [
      [requests, container.resources?.requests],
      [limits, container.resources?.limits],
    ] as const) {
      for (const name of QOS_RESOURCES) {
        const amount = parseQuantity(source?.[name]);
        if (amount === undefined || amount === 0) continue;
        map.set(name, (map.get(name) ?? 0) + amount);
        if (map === limits) limitNames.add(name);
      }
    }
    if (!QOS_RESOURCES.every((name) => limitNames.has(name))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed && [...requests].every(([name, amount]) => limits.get(name) === amount) && requests.size === limits.size) return 'Guaranteed';
  return 'Burstable';
}

/** A Pod's spec and initial status, defaulted in place. */
export function defaultPod(pod: { spec?: PodSpecShape; status?: Record<string, unknown> }): void {
  const spec = (pod.spec ??= {});
  requestsFromLimits(spec.containers);
  requestsFromLimits(spec.initContainers);
  defaultPodSpec(spec);
  spec.enableServiceLinks ??= true;
  // The ServiceAccount plugin fills the name; serializing v1 mirrors it into the deprecated field.
  spec.serviceAccountName ||= spec.serviceAccount || 'default';
  spec.serviceAccount = spec.serviceAccountName;
  if (spec.priority === undefined) {
    const priority = spec.priorityClassName ? SYSTEM_PRIORITIES[spec.priorityClassName] : 0;
    if (priority !== undefined) spec.priority = priority;
  }
  spec.preemptionPolicy ||= 'PreemptLowerPriority';
  defaultTolerations(spec);
  const status = (pod.status ??= {});
  status['phase'] ??= 'Pending';
  status['qosClass'] ??= qosClass(spec);
}
