/** batch/v1 and autoscaling/v2 validation: Job, CronJob and HorizontalPodAutoscaler specs. */
import { fromLabelSelectorObject, matchesLabels } from '../selectors.ts';
import { cronScheduleError, isTimeZone } from './cron.ts';
import { at, type FieldErrors } from './field-errors.ts';
import { goLabelSelector, goStringMap } from './go-format.ts';
import type { LabelSelectorShape, PodTemplateShape } from './shapes.ts';
import { validateLabelSelector } from './validate-apps.ts';
import { validatePodTemplate } from './validate-podspec.ts';

export interface JobSpecShape {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  ttlSecondsAfterFinished?: number;
  completionMode?: string;
  manualSelector?: boolean;
  selector?: LabelSelectorShape;
  template?: PodTemplateShape;
}

/** validateJobSpec: counts, completion mode, and a pod template that does not restart Always. */
function validateJobSpecCommon(spec: JobSpecShape, field: string, errors: FieldErrors): void {
  errors.nonNegative(at.child(field, 'parallelism'), spec.parallelism);
  errors.nonNegative(at.child(field, 'completions'), spec.completions);
  errors.nonNegative(at.child(field, 'activeDeadlineSeconds'), spec.activeDeadlineSeconds);
  errors.nonNegative(at.child(field, 'backoffLimit'), spec.backoffLimit);
  errors.nonNegative(at.child(field, 'ttlSecondsAfterFinished'), spec.ttlSecondsAfterFinished);
  const mode = spec.completionMode;
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') errors.notSupported(at.child(field, 'completionMode'), mode, ['NonIndexed', 'Indexed']);
  if (mode === 'Indexed' && spec.completions === undefined) errors.required(at.child(field, 'completions'), 'when completion mode is Indexed');
  const templatePath = at.child(field, 'template');
  validatePodTemplate(spec.template, templatePath, errors);
  const restartPolicy = spec.template?.spec?.restartPolicy ?? '';
  const restartPath = at.child(templatePath, 'spec', 'restartPolicy');
  // Defaulting turns an unset restartPolicy into Always, so both read as "not chosen".
  if (restartPolicy === 'Always' || restartPolicy === '') errors.required(restartPath, 'valid values: "OnFailure", "Never"');
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errors.notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']);
}

/** ValidateJobSpec: the common checks, a selector, and template labels it selects. */
export function validateJob(spec: JobSpecShape, errors: FieldErrors): void {
  validateJobSpecCommon(spec, 'spec', errors);
  if (!spec.selector) errors.required('spec.selector');
  else validateLabelSelector(spec.selector, 'spec.selector', errors);
  const labels = spec.template?.metadata?.labels;
  if (!spec.selector || !matchesLabels(fromLabelSelectorObject(spec.selector), labels)) {
    errors.invalid('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`');
  }
}

interface CronJobSpecShape {
  schedule?: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: string;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  jobTemplate?: { spec?: JobSpecShape };
}

export function validateCronJob(spec: CronJobSpecShape, old: CronJobSpecShape | undefined, errors: FieldErrors): void {
  const schedule = spec.schedule ?? '';
  if (!schedule) errors.required('spec.schedule');
  else {
    const parseError = cronScheduleError(schedule);
    if (parseError) errors.invalid('spec.schedule', schedule, parseError);
    // A schedule that already carried TZ before this update stays accepted, as upstream.
    if (schedule.includes('TZ') && !(old?.schedule ?? '').includes('TZ')) {
      errors.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
    }
  }
  errors.nonNegative('spec.startingDeadlineSeconds', spec.startingDeadlineSeconds);
  if (spec.timeZone !== undefined && spec.timeZone !== old?.timeZone) {
    if (spec.timeZone.toLowerCase() === 'local') errors.invalid('spec.timeZone', spec.timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones');
    else if (!isTimeZone(spec.timeZone)) errors.invalid('spec.timeZone', spec.timeZone, `unknown time zone ${spec.timeZone}`);
  }
  const policy = spec.concurrencyPolicy ?? '';
  if (!policy) errors.required('spec.concurrencyPolicy');
  else if (!['Allow', 'Forbid', 'Replace'].includes(policy)) errors.notSupported('spec.concurrencyPolicy', policy, ['Allow', 'Forbid', 'Replace']);
  const jobSpec = spec.jobTemplate?.spec ?? {};
  validateJobSpecCommon(jobSpec, 'spec.jobTemplate.spec', errors);
  if (jobSpec.selector) errors.invalid('spec.jobTemplate.spec.selector', goLabelSelector(jobSpec.selector), '`selector` will be auto-generated');
  if (jobSpec.manualSelector) errors.notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']);
  errors.nonNegative('spec.successfulJobsHistoryLimit', spec.successfulJobsHistoryLimit);
  errors.nonNegative('spec.failedJobsHistoryLimit', spec.failedJobsHistoryLimit);
}

interface MetricTarget {
  type?: string;
  averageUtilization?: number;
}

interface HpaSpecShape {
  minReplicas?: number;
  maxReplicas?: number;
  scaleTargetRef?: { kind?: string; name?: string };
  metrics?: Array<{ type?: string; resource?: { name?: string; target?: MetricTarget } }>;
}

export function validateHpa(spec: HpaSpecShape, errors: FieldErrors): void {
  if (spec.minReplicas !== undefined && spec.minReplicas < 1) errors.invalid('spec.minReplicas', spec.minReplicas, 'must be greater than or equal to 1');
  const max = spec.maxReplicas ?? 0;
  if (max < 1) errors.invalid('spec.maxReplicas', max, 'must be greater than 0');
  if (spec.minReplicas !== undefined && max < spec.minReplicas) errors.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`');
  if (!spec.scaleTargetRef?.kind) errors.required('spec.scaleTargetRef.kind');
  if (!spec.scaleTargetRef?.name) errors.required('spec.scaleTargetRef.name');
  (spec.metrics ?? []).forEach((metric, i) => {
    const path = at.index('spec.metrics', i);
    if (!metric.type) errors.required(at.child(path, 'type'), 'must specify a metric source type');
    const utilization = metric.resource?.target?.averageUtilization;
    if (utilization !== undefined && utilization <= 0) errors.invalid(at.child(path, 'resource', 'target', 'averageUtilization'), utilization, 'must be greater than 0');
  });
}
