/**
 * apps/v1, batch/v1 and autoscaling/v2 defaulting (SetDefaults_Deployment, _StatefulSet, _Job,
 * ...), and the Job selector kube-apiserver generates from the Job's uid on create.
 * Functions mutate the private copy applyDefaults made.
 */
import { defaultPodTemplate } from './podspec.ts';
import type { IntOrString, LabelSelectorShape, PodTemplateShape, WorkloadSpecShape } from './shapes.ts';

const DEFAULT_REVISION_HISTORY_LIMIT = 10;
const DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;
const DEFAULT_JOB_BACKOFF_LIMIT = 6;
const MAX_INT32 = 2147483647;

interface Workload {
  metadata: { name: string; uid?: string; labels?: Record<string, string> };
  spec?: WorkloadSpecShape;
}

type Spec<T> = WorkloadSpecShape & T;

interface RollingStrategy {
  type?: string;
  rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString; partition?: number };
}

function specOf<T>(object: Workload): Spec<T> {
  return (object.spec ??= {}) as Spec<T>;
}

export function defaultDeployment(object: Workload): void {
  const spec = specOf<{ strategy?: RollingStrategy }>(object);
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = (strategy.rollingUpdate ??= {});
    rolling.maxUnavailable ??= '25%';
    rolling.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= DEFAULT_REVISION_HISTORY_LIMIT;
  spec.progressDeadlineSeconds ??= DEFAULT_PROGRESS_DEADLINE_SECONDS;
  spec.template = defaultPodTemplate(spec.template);
}

export function defaultReplicaSet(object: Workload): void {
  const spec = specOf(object);
  spec.replicas ??= 1;
  spec.template = defaultPodTemplate(spec.template);
}

interface StatefulSetFields {
  podManagementPolicy?: string;
  updateStrategy?: RollingStrategy;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  volumeClaimTemplates?: Array<{ apiVersion?: string; kind?: string; metadata?: Record<string, unknown>; spec?: { volumeMode?: string }; status?: { phase?: string } }>;
}

export function defaultStatefulSet(object: Workload): void {
  const spec = specOf<StatefulSetFields>(object);
  spec.podManagementPolicy ||= 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  // An explicit RollingUpdate type without rollingUpdate stays without it, as upstream.
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) strategy.rollingUpdate.partition ??= 0;
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  retention.whenDeleted ||= 'Retain';
  retention.whenScaled ||= 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= DEFAULT_REVISION_HISTORY_LIMIT;
  spec.template = defaultPodTemplate(spec.template);
  for (const claim of spec.volumeClaimTemplates ?? []) {
    // Each template is a whole PersistentVolumeClaim, defaulted (and serialised) as one.
    claim.apiVersion ??= 'v1';
    claim.kind ??= 'PersistentVolumeClaim';
    claim.metadata ??= {};
    if (claim.metadata['creationTimestamp'] === undefined) claim.metadata['creationTimestamp'] = null;
    (claim.spec ??= {}).volumeMode ||= 'Filesystem';
    (claim.status ??= {}).phase ||= 'Pending';
  }
}

export function defaultDaemonSet(object: Workload): void {
  const spec = specOf<{ updateStrategy?: RollingStrategy }>(object);
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = (strategy.rollingUpdate ??= {});
    rolling.maxUnavailable ??= 1;
    rolling.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= DEFAULT_REVISION_HISTORY_LIMIT;
  spec.template = defaultPodTemplate(spec.template);
}

interface JobSpecFields {
  completions?: number;
  parallelism?: number;
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  completionMode?: string;
  suspend?: boolean;
  manualSelector?: boolean;
  podFailurePolicy?: { rules?: Array<{ onPodConditions?: Array<{ status?: string }> }> };
  podReplacementPolicy?: string;
}

const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'];
const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'];

/** The job strategy's generateSelector: the uid label selects exactly this Job's pods. */
function generateJobSelector(spec: Spec<JobSpecFields>, name: string, uid: string): void {
  const template: PodTemplateShape = (spec.template ??= {});
  const labels = ((template.metadata ??= {}).labels ??= {});
  for (const key of JOB_NAME_LABELS) labels[key] ??= name;
  for (const key of CONTROLLER_UID_LABELS) labels[key] ??= uid;
  const selector: LabelSelectorShape = (spec.selector ??= {});
  (selector.matchLabels ??= {})['batch.kubernetes.io/controller-uid'] ??= uid;
}

/**
 * SetDefaults_Job, then the generated selector once the Job has a uid (i.e. when called from the
 * store's `admit` hook). A Job without labels of its own shows its template's, as upstream's
 * defaulting on read makes them appear.
 */
export function defaultJob(object: Workload): void {
  const spec = specOf<JobSpecFields>(object);
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? MAX_INT32 : DEFAULT_JOB_BACKOFF_LIMIT;
  spec.completionMode ||= 'NonIndexed';
  spec.suspend ??= false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) for (const pattern of rule.onPodConditions ?? []) pattern.status ||= 'True';
  spec.podReplacementPolicy ||= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
  spec.template = defaultPodTemplate(spec.template);
  if (!spec.manualSelector && object.metadata.uid) generateJobSelector(spec, object.metadata.name, object.metadata.uid);
  const templateLabels = spec.template.metadata?.labels;
  if (templateLabels && Object.keys(object.metadata.labels ?? {}).length === 0) object.metadata.labels = { ...templateLabels };
}

interface CronJobSpecFields {
  concurrencyPolicy?: string;
  suspend?: boolean;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  jobTemplate?: { metadata?: Record<string, unknown>; spec?: { template?: PodTemplateShape } };
}

/** SetDefaults_CronJob; the job template gets pod template defaults only, not Job defaults. */
export function defaultCronJob(object: Workload): void {
  const spec = specOf<CronJobSpecFields>(object);
  spec.concurrencyPolicy ||= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jobTemplate = (spec.jobTemplate ??= {});
  jobTemplate.metadata ??= {};
  if (jobTemplate.metadata['creationTimestamp'] === undefined) jobTemplate.metadata['creationTimestamp'] = null;
  const jobSpec = (jobTemplate.spec ??= {});
  jobSpec.template = defaultPodTemplate(jobSpec.template);
}

interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: Array<{ type: string; value: number; periodSeconds: number }>;
}

interface HpaSpecFields {
  minReplicas?: number;
  metrics?: unknown[];
  behavior?: { scaleUp?: ScalingRules; scaleDown?: ScalingRules };
}

/** copyHPAScalingRules over the defaults: fields the client set win. */
function scalingRules(given: ScalingRules | undefined, defaults: ScalingRules): ScalingRules {
  return { ...defaults, ...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => v !== undefined)) };
}

/** SetDefaults_HorizontalPodAutoscaler (autoscaling/v2). */
export function defaultHpa(object: Workload): void {
  const spec = specOf<HpaSpecFields>(object);
  spec.minReplicas ??= 1;
  if (!spec.metrics || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  // Behavior is filled in only when the client gave one; its absence means "the defaults".
  if (spec.behavior) {
    spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    });
    // The scale-down window stays unset: the controller's --horizontal-pod-autoscaler-downscale-stabilization decides.
    spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
  }
}
