/** batch/v1: Job and CronJob with their spec/status types. */
import { ATOMIC, BATCH, CORE, LABEL_SELECTOR, TIME, arr, bool, condition, int, int64, kind, obj, objectMeta, ref, str, type Schema } from './schema.ts';

const SPEC_AND_STATUS = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status';

function jobSpec(): Schema {
  return obj(
    'JobSpec describes how the job execution will look like.',
    {
      activeDeadlineSeconds: int64(
        'Specifies the duration in seconds relative to the startTime that the job may be continuously active before the system tries to terminate it; value must be positive integer. If a Job is suspended (at creation or through an update), this timer will effectively be stopped and reset when the Job is resumed again.',
      ),
      backoffLimit: int('Specifies the number of retries before marking this job failed. Defaults to 6'),
      completionMode: str(
        'completionMode specifies how Pod completions are tracked. It can be `NonIndexed` (default) or `Indexed`. `NonIndexed` means that the Job is considered complete when there have been .spec.completions successfully completed Pods. `Indexed` means that the Pods of a Job get an associated completion index from 0 to (.spec.completions - 1), available in the annotation batch.kubernetes.io/job-completion-index.',
        { enum: ['Indexed', 'NonIndexed'] },
      ),
      completions: int(
        'Specifies the desired number of successfully finished pods the job should be run with.  Setting to null means that the success of any pod signals the success of all pods, and allows parallelism to have any positive value.  Setting to 1 means that parallelism is limited to 1 and the success of that pod signals the success of the job. More info: https://kubernetes.io/docs/concepts/workloads/controllers/jobs-run-to-completion/',
      ),
      manualSelector: bool(
        'manualSelector controls generation of pod labels and pod selectors. Leave `manualSelector` unset unless you are certain what you are doing. When false or unset, the system pick labels unique to this job and appends those labels to the pod template.',
      ),
      parallelism: int(
        'Specifies the maximum desired number of pods the job should run at any given time. The actual number of pods running in steady state will be less than this number when ((.spec.completions - .status.successful) < .spec.parallelism), i.e. when the work left to do is less than max parallelism. More info: https://kubernetes.io/docs/concepts/workloads/controllers/jobs-run-to-completion/',
      ),
      podReplacementPolicy: str('podReplacementPolicy specifies when to create replacement Pods. Possible values are TerminatingOrFailed and Failed.', { enum: ['Failed', 'TerminatingOrFailed'] }),
      selector: ref(LABEL_SELECTOR, 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
      suspend: bool(
        'suspend specifies whether the Job controller should create Pods or not. If a Job is created with suspend set to true, no Pods are created by the Job controller. If a Job is suspended after creation (i.e. the flag goes from false to true), the Job controller will delete all active Pods associated with this Job. Defaults to false.',
      ),
      template: ref(
        `${CORE}PodTemplateSpec`,
        'Describes the pod that will be created when executing a job. The only allowed template.spec.restartPolicy values are "Never" or "OnFailure". More info: https://kubernetes.io/docs/concepts/workloads/controllers/jobs-run-to-completion/',
      ),
      ttlSecondsAfterFinished: int(
        "ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution (either Complete or Failed). If this field is set, ttlSecondsAfterFinished after the Job finishes, it is eligible to be automatically deleted. If this field is unset, the Job won't be automatically deleted. If this field is set to zero, the Job becomes eligible to be deleted immediately after it finishes.",
      ),
    },
    { required: ['template'] },
  );
}

function jobStatus(): Schema {
  return obj('JobStatus represents the current state of a Job.', {
    active: int('The number of pending and running pods which are not terminating (without a deletionTimestamp).'),
    completedIndexes: str('completedIndexes holds the completed indexes when .spec.completionMode = "Indexed" in a text format. The indexes are represented as decimal integers separated by commas.'),
    completionTime: ref(TIME, 'Represents time when the job was completed. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC. The completion time is set when the job finishes successfully, and only then.'),
    conditions: arr(
      ref(`${BATCH}JobCondition`),
      'The latest available observations of an object\'s current state. When a Job fails, one of the conditions will have type "Failed" and status true. When a Job is suspended, one of the conditions will have type "Suspended" and status true; when the Job is resumed, the status of this condition will become false. When a Job is completed, one of the conditions will have type "Complete" and status true. More info: https://kubernetes.io/docs/concepts/workloads/controllers/jobs-run-to-completion/',
      { ...ATOMIC, 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' },
    ),
    failed: int('The number of pods which reached phase Failed. The value increases monotonically.'),
    ready: int('The number of active pods which have a Ready condition and are not terminating (without a deletionTimestamp).'),
    startTime: ref(TIME, 'Represents time when the job controller started processing a job. When a Job is created in the suspended state, this field is not set until the first time it is resumed. It is represented in RFC3339 form and is in UTC.'),
    succeeded: int('The number of pods which reached phase Succeeded. The value increases monotonically for a given spec.'),
    terminating: int('The number of pods which are terminating (in phase Pending or Running and have a deletionTimestamp).'),
  });
}

function cronJobDefinitions(): Record<string, Schema> {
  return {
    [`${BATCH}CronJob`]: kind({ group: 'batch', kind: 'CronJob', version: 'v1' }, 'CronJob represents the configuration of a single cron job.', {
      spec: ref(`${BATCH}CronJobSpec`, `Specification of the desired behavior of a cron job, including the schedule. More info: ${SPEC_AND_STATUS}`),
      status: ref(`${BATCH}CronJobStatus`, `Current status of a cron job. More info: ${SPEC_AND_STATUS}`),
    }),
    [`${BATCH}CronJobSpec`]: obj(
      'CronJobSpec describes how the job execution will look like and when it will actually run.',
      {
        concurrencyPolicy: str(
          'Specifies how to treat concurrent executions of a Job. Valid values are:\n\n- "Allow" (default): allows CronJobs to run concurrently; - "Forbid": forbids concurrent runs, skipping next run if previous run hasn\'t finished yet; - "Replace": cancels currently running job and replaces it with a new one',
          { enum: ['Allow', 'Forbid', 'Replace'] },
        ),
        failedJobsHistoryLimit: int('The number of failed finished jobs to retain. Value must be non-negative integer. Defaults to 1.'),
        jobTemplate: ref(`${BATCH}JobTemplateSpec`, 'Specifies the job that will be created when executing a CronJob.'),
        schedule: str('The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
        startingDeadlineSeconds: int64('Optional deadline in seconds for starting the job if it misses scheduled time for any reason.  Missed jobs executions will be counted as failed ones.'),
        successfulJobsHistoryLimit: int('The number of successful finished jobs to retain. Value must be non-negative integer. Defaults to 3.'),
        suspend: bool('This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
        timeZone: str('The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process.'),
      },
      { required: ['schedule', 'jobTemplate'] },
    ),
    [`${BATCH}JobTemplateSpec`]: obj('JobTemplateSpec describes the data a Job should have when created from a template', {
      metadata: objectMeta(),
      spec: ref(`${BATCH}JobSpec`, `Specification of the desired behavior of the job. More info: ${SPEC_AND_STATUS}`),
    }),
    [`${BATCH}CronJobStatus`]: obj('CronJobStatus represents the current state of a cron job.', {
      active: arr(ref(`${CORE}ObjectReference`), 'A list of pointers to currently running jobs.', ATOMIC),
      lastScheduleTime: ref(TIME, 'Information when was the last time the job was successfully scheduled.'),
      lastSuccessfulTime: ref(TIME, 'Information when was the last time the job successfully completed.'),
    }),
  };
}

/** Every batch/v1 definition. */
export function batchDefinitions(): Record<string, Schema> {
  return {
    [`${BATCH}Job`]: kind({ group: 'batch', kind: 'Job', version: 'v1' }, 'Job represents the configuration of a single job.', {
      spec: ref(`${BATCH}JobSpec`, `Specification of the desired behavior of a job. More info: ${SPEC_AND_STATUS}`),
      status: ref(`${BATCH}JobStatus`, `Current status of a job. More info: ${SPEC_AND_STATUS}`),
    }),
    [`${BATCH}JobSpec`]: jobSpec(),
    [`${BATCH}JobStatus`]: jobStatus(),
    [`${BATCH}JobCondition`]: condition('Job', { lastProbeTime: ref(TIME, 'Last time the condition was checked.') }),
    ...cronJobDefinitions(),
  };
}
