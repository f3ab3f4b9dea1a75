/** Rows of the workload kinds (apps, batch, autoscaling), cell for cell as upstream prints them. */
import { humanDuration, parseTimestamp, since } from './duration.ts';
import { formatLabelSelector, formatLabels, layoutContainerCells, printBoolPtr, selectorString, type ContainerView, type LabelSelectorView } from './format.ts';
import type { TableCell } from './types.ts';

interface Meta {
  name: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
}

interface PodTemplateView {
  spec?: { containers?: ContainerView[]; nodeSelector?: Record<string, string> };
}

interface WorkloadView {
  metadata: Meta;
  spec?: { replicas?: number; selector?: LabelSelectorView; template?: PodTemplateView };
  status?: Record<string, unknown>;
}

function count(status: Record<string, unknown> | undefined, field: string): number {
  const value = status?.[field];
  return typeof value === 'number' ? value : 0;
}

/** Replicas as the server holds them: defaulting has set 1 when the client sent none. */
function desired(spec: WorkloadView['spec']): number {
  return spec?.replicas ?? 1;
}

export function deploymentRow(d: WorkloadView, now: number): TableCell[] {
  const [names, images] = layoutContainerCells(d.spec?.template?.spec?.containers);
  return [
    d.metadata.name,
    `${count(d.status, 'readyReplicas')}/${desired(d.spec)}`,
    count(d.status, 'updatedReplicas'),
    count(d.status, 'availableReplicas'),
    since(d.metadata.creationTimestamp, now),
    names,
    images,
    // Deployments print the raw selector string (empty, not "<none>", when it selects nothing).
    selectorString(d.spec?.selector),
  ];
}

export function replicaSetRow(rs: WorkloadView, now: number): TableCell[] {
  const [names, images] = layoutContainerCells(rs.spec?.template?.spec?.containers);
  return [
    rs.metadata.name,
    desired(rs.spec),
    count(rs.status, 'replicas'),
    count(rs.status, 'readyReplicas'),
    since(rs.metadata.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(rs.spec?.selector),
  ];
}

export function statefulSetRow(sts: WorkloadView, now: number): TableCell[] {
  const [names, images] = layoutContainerCells(sts.spec?.template?.spec?.containers);
  return [sts.metadata.name, `${count(sts.status, 'readyReplicas')}/${desired(sts.spec)}`, since(sts.metadata.creationTimestamp, now), names, images];
}

export function daemonSetRow(ds: WorkloadView, now: number): TableCell[] {
  const [names, images] = layoutContainerCells(ds.spec?.template?.spec?.containers);
  return [
    ds.metadata.name,
    count(ds.status, 'desiredNumberScheduled'),
    count(ds.status, 'currentNumberScheduled'),
    count(ds.status, 'numberReady'),
    count(ds.status, 'updatedNumberScheduled'),
    count(ds.status, 'numberAvailable'),
    formatLabels(ds.spec?.template?.spec?.nodeSelector),
    since(ds.metadata.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(ds.spec?.selector),
  ];
}

interface JobView {
  metadata: Meta;
  spec?: { completions?: number; parallelism?: number; selector?: LabelSelectorView; template?: PodTemplateView };
  status?: { succeeded?: number; startTime?: string; completionTime?: string; conditions?: Array<{ type?: string; status?: string }> };
}

/** hasJobCondition: the first condition of the type decides. */
function jobCondition(job: JobView, type: string): boolean {
  return (job.status?.conditions ?? []).find((c) => c.type === type)?.status === 'True';
}

function jobStatus(job: JobView): string {
  if (jobCondition(job, 'Complete')) return 'Complete';
  if (jobCondition(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (jobCondition(job, 'Suspended')) return 'Suspended';
  if (jobCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function jobCompletions(job: JobView): string {
  const succeeded = job.status?.succeeded ?? 0;
  if (job.spec?.completions !== undefined) return `${succeeded}/${job.spec.completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: JobView, now: number): string {
  const start = parseTimestamp(job.status?.startTime);
  if (Number.isNaN(start)) return '';
  const end = parseTimestamp(job.status?.completionTime);
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

export function jobRow(job: JobView, now: number): TableCell[] {
  const [names, images] = layoutContainerCells(job.spec?.template?.spec?.containers);
  return [
    job.metadata.name,
    jobStatus(job),
    jobCompletions(job),
    jobDuration(job, now),
    since(job.metadata.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(job.spec?.selector),
  ];
}

interface CronJobView {
  metadata: Meta;
  spec?: {
    schedule?: string;
    timeZone?: string;
    suspend?: boolean;
    jobTemplate?: { spec?: { selector?: LabelSelectorView; template?: PodTemplateView } };
  };
  status?: { active?: unknown[]; lastScheduleTime?: string };
}

export function cronJobRow(cj: CronJobView, now: number): TableCell[] {
  const jobSpec = cj.spec?.jobTemplate?.spec;
  const [names, images] = layoutContainerCells(jobSpec?.template?.spec?.containers);
  return [
    cj.metadata.name,
    cj.spec?.schedule ?? '',
    cj.spec?.timeZone ?? '<none>',
    printBoolPtr(cj.spec?.suspend),
    cj.status?.active?.length ?? 0,
    cj.status?.lastScheduleTime ? since(cj.status.lastScheduleTime, now) : '<none>',
    since(cj.metadata.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(jobSpec?.selector),
  ];
}

type Quantity = string | number;

interface MetricTarget {
  type?: string;
  value?: Quantity;
  averageValue?: Quantity;
  averageUtilization?: number;
}

interface MetricValue {
  value?: Quantity;
  averageValue?: Quantity;
  averageUtilization?: number;
}

interface MetricSpec {
  type?: string;
  resource?: { name?: string; target?: MetricTarget };
  containerResource?: { name?: string; target?: MetricTarget };
  pods?: { target?: MetricTarget };
  object?: { target?: MetricTarget };
  external?: { target?: MetricTarget };
}

interface MetricStatus {
  resource?: { current?: MetricValue };
  containerResource?: { current?: MetricValue };
  pods?: { current?: MetricValue };
  object?: { current?: MetricValue };
  external?: { current?: MetricValue };
}

interface HpaView {
  metadata: Meta;
  spec?: { scaleTargetRef?: { kind?: string; name?: string }; minReplicas?: number; maxReplicas?: number; metrics?: MetricSpec[] };
  status?: { currentReplicas?: number; currentMetrics?: MetricStatus[] };
}

const UNKNOWN = '<unknown>';
const quantity = (q: Quantity | undefined): string => (q === undefined ? '0' : String(q));

/** One metric as formatHPAMetrics prints it ("cpu: 45%/80%", "<unknown>/500m (avg)"). */
function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const source = spec.type === 'External' ? 'external' : 'object';
      const target = spec[source]?.target;
      const current = status?.[source]?.current;
      if (target?.averageValue !== undefined) {
        return `${current?.averageValue !== undefined ? quantity(current.averageValue) : UNKNOWN}/${quantity(target.averageValue)} (avg)`;
      }
      return `${current ? quantity(current.value) : UNKNOWN}/${quantity(target?.value)}`;
    }
    case 'Pods':
      return `${status?.pods ? quantity(status.pods.current?.averageValue) : UNKNOWN}/${quantity(spec.pods?.target?.averageValue)}`;
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const name = spec[source]?.name ?? '';
      const target = spec[source]?.target;
      const reported = status?.[source];
      if (target?.averageValue !== undefined) {
        return `${name}: ${reported ? quantity(reported.current?.averageValue) : UNKNOWN}/${quantity(target.averageValue)}`;
      }
      const utilization = reported?.current?.averageUtilization;
      const current = utilization !== undefined ? `${utilization}%` : UNKNOWN;
      const wanted = target?.averageUtilization !== undefined ? `${target.averageUtilization}%` : '<auto>';
      return `${name}: ${current}/${wanted}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: at most two metrics, then "+ N more...". */
function formatMetrics(specs: MetricSpec[] | undefined, statuses: MetricStatus[] | undefined): string {
  if (!specs || specs.length === 0) return '<none>';
  const MAX = 2;
  const list = specs.map((spec, i) => formatMetric(spec, statuses?.[i]));
  if (list.length <= MAX) return list.join(', ');
  return `${list.slice(0, MAX).join(', ')} + ${list.length - MAX} more...`;
}

export function hpaRow(hpa: HpaView, now: number): TableCell[] {
  const ref = hpa.spec?.scaleTargetRef;
  return [
    hpa.metadata.name,
    `${ref?.kind ?? ''}/${ref?.name ?? ''}`,
    formatMetrics(hpa.spec?.metrics, hpa.status?.currentMetrics),
    hpa.spec?.minReplicas !== undefined ? String(hpa.spec.minReplicas) : '<unset>',
    hpa.spec?.maxReplicas ?? 0,
    hpa.status?.currentReplicas ?? 0,
    since(hpa.metadata.creationTimestamp, now),
  ];
}
