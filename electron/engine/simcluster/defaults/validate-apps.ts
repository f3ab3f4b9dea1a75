/** apps/v1 validation (pkg/apis/apps/validation): Deployment, ReplicaSet, StatefulSet, DaemonSet. */
import { fromLabelSelectorObject, matchesLabels } from '../selectors.ts';
import { at, type FieldErrors } from './field-errors.ts';
import { goIntOrString, goLabelSelector, goStringMap, GoLiteral, goQuote } from './go-format.ts';
import type { IntOrString, LabelSelectorShape, PodTemplateShape, WorkloadSpecShape } from './shapes.ts';
import { intOrPercentValue, validateLabels, validateNotMoreThan100Percent, validatePositiveIntOrPercent } from './validate-meta.ts';
import { validatePodTemplate } from './validate-podspec.ts';

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** ValidateLabelSelector: matchLabels as labels, each expression's operator and values. */
export function validateLabelSelector(selector: LabelSelectorShape, field: string, errors: FieldErrors): void {
  validateLabels(selector.matchLabels, at.child(field, 'matchLabels'), errors);
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    const path = at.index(at.child(field, 'matchExpressions'), i);
    const values = expr.values ?? [];
    if (expr.operator === 'In' || expr.operator === 'NotIn') {
      if (values.length === 0) errors.required(at.child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'");
    } else if (expr.operator === 'Exists' || expr.operator === 'DoesNotExist') {
      if (values.length > 0) errors.forbidden(at.child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    } else {
      errors.invalid(at.child(path, 'operator'), expr.operator, 'not a valid selector operator');
    }
  });
}

const selectsNothingOrEverything = (selector: LabelSelectorShape) => Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;

/** The template labels must be selected; a nil selector selects nothing, an empty one everything. */
function validateTemplateMatchesSelector(selector: LabelSelectorShape | undefined, template: PodTemplateShape | undefined, field: string, errors: FieldErrors): void {
  if (selector && selectsNothingOrEverything(selector)) return;
  const labels = template?.metadata?.labels;
  const valid = (selector?.matchExpressions ?? []).every((e) => OPERATORS.includes(e.operator));
  if (valid && (!selector || !matchesLabels(fromLabelSelectorObject(selector), labels))) {
    errors.invalid(at.child(field, 'metadata', 'labels'), goStringMap(labels), '`selector` does not match template `labels`');
  }
}

/** Selector present and non-empty, as Deployments, ReplicaSets and StatefulSets require. */
function validateRequiredSelector(selector: LabelSelectorShape | undefined, kindWord: string, errors: FieldErrors): void {
  if (!selector) {
    errors.required('spec.selector');
    return;
  }
  validateLabelSelector(selector, 'spec.selector', errors);
  if (selectsNothingOrEverything(selector)) errors.invalid('spec.selector', goLabelSelector(selector), `empty selector is invalid for ${kindWord}`);
}

/** ValidatePodTemplateSpecForReplicaSet: labels selected, a valid pod, restartPolicy Always. */
function validateReplicatedTemplate(spec: WorkloadSpecShape, kind: string, errors: FieldErrors): void {
  validateTemplateMatchesSelector(spec.selector, spec.template, 'spec.template', errors);
  validatePodTemplate(spec.template, 'spec.template', errors);
  validateAlwaysRestarts(spec.template, kind, errors);
}

function validateAlwaysRestarts(template: PodTemplateShape | undefined, kind: string, errors: FieldErrors): void {
  const restartPolicy = template?.spec?.restartPolicy;
  if (restartPolicy !== 'Always') errors.notSupported('spec.template.spec.restartPolicy', restartPolicy ?? '', ['Always']);
  const deadline = template?.spec?.activeDeadlineSeconds;
  if (deadline !== undefined) errors.invalid('spec.template.spec.activeDeadlineSeconds', deadline, `activeDeadlineSeconds in ${kind} is not Supported`);
}

interface RollingUpdate {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
  partition?: number;
}

function validateRollingUpdate(rolling: RollingUpdate, field: string, errors: FieldErrors): void {
  const maxUnavailable = at.child(field, 'maxUnavailable');
  validatePositiveIntOrPercent(rolling.maxUnavailable, maxUnavailable, errors);
  validatePositiveIntOrPercent(rolling.maxSurge, at.child(field, 'maxSurge'), errors);
  if (intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0) {
    errors.invalid(maxUnavailable, goIntOrString(rolling.maxUnavailable), 'may not be 0 when `maxSurge` is 0');
  }
  validateNotMoreThan100Percent(rolling.maxUnavailable, maxUnavailable, errors);
}

/** How Go prints a strategy struct whose rollingUpdate pointer is nil (a set pointer prints an address: JSON then). */
function goStrategy(goType: string, rollingType: string, strategy: { type?: string; rollingUpdate?: unknown }): unknown {
  if (strategy.rollingUpdate !== undefined) return strategy;
  return new GoLiteral(`apps.${goType}{Type:${goQuote(strategy.type ?? '')}, RollingUpdate:(*apps.${rollingType})(nil)}`);
}

export function validateDeployment(spec: WorkloadSpecShape & { strategy?: { type?: string; rollingUpdate?: RollingUpdate } }, errors: FieldErrors): void {
  errors.nonNegative('spec.replicas', spec.replicas);
  validateRequiredSelector(spec.selector, 'deployment', errors);
  validateReplicatedTemplate(spec, 'ReplicaSet', errors);
  const strategy = spec.strategy ?? {};
  if (strategy.type === 'Recreate') {
    if (strategy.rollingUpdate) errors.forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'");
  } else if (strategy.type === 'RollingUpdate') {
    if (!strategy.rollingUpdate) errors.required('spec.strategy.rollingUpdate', 'this should be defaulted and never be nil');
    else validateRollingUpdate(strategy.rollingUpdate, 'spec.strategy.rollingUpdate', errors);
  } else {
    errors.notSupported('spec.strategy', goStrategy('DeploymentStrategy', 'RollingUpdateDeployment', strategy), ['Recreate', 'RollingUpdate']);
  }
  errors.nonNegative('spec.minReadySeconds', spec.minReadySeconds);
  errors.nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit);
  if (spec.progressDeadlineSeconds !== undefined) {
    errors.nonNegative('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds);
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) errors.invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds');
  }
}

export function validateReplicaSet(spec: WorkloadSpecShape, errors: FieldErrors): void {
  errors.nonNegative('spec.replicas', spec.replicas);
  errors.nonNegative('spec.minReadySeconds', spec.minReadySeconds);
  // Upstream's ReplicaSet message says "deployment" too.
  validateRequiredSelector(spec.selector, 'deployment', errors);
  validateReplicatedTemplate(spec, 'ReplicaSet', errors);
}

interface StatefulSetSpec extends WorkloadSpecShape {
  podManagementPolicy?: string;
  updateStrategy?: { type?: string; rollingUpdate?: RollingUpdate };
  volumeClaimTemplates?: Array<{ metadata?: { name?: string } }>;
}

export function validateStatefulSet(spec: StatefulSetSpec, errors: FieldErrors): void {
  const policy = spec.podManagementPolicy;
  if (!policy) errors.required('spec.podManagementPolicy');
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errors.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'");
  const strategy = spec.updateStrategy ?? {};
  if (!strategy.type) errors.required('spec.updateStrategy');
  else if (strategy.type === 'OnDelete') {
    if (strategy.rollingUpdate) errors.invalid('spec.updateStrategy.rollingUpdate', strategy.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'");
  } else if (strategy.type === 'RollingUpdate') {
    errors.nonNegative('spec.updateStrategy.rollingUpdate.partition', strategy.rollingUpdate?.partition);
  } else {
    errors.invalid('spec.updateStrategy', strategy, "must be 'RollingUpdate' or 'OnDelete'");
  }
  errors.nonNegative('spec.replicas', spec.replicas);
  errors.nonNegative('spec.minReadySeconds', spec.minReadySeconds);
  validateRequiredSelector(spec.selector, 'statefulset', errors);
  validateTemplateMatchesSelector(spec.selector, spec.template, 'spec.template', errors);
  // Claim templates become volumes of each pod: mounts may name them.
  const claimVolumes = (spec.volumeClaimTemplates ?? []).map((c) => ({ name: c.metadata?.name ?? '', persistentVolumeClaim: { claimName: c.metadata?.name ?? '' } }));
  const template: PodTemplateShape = { ...spec.template, spec: { ...spec.template?.spec, volumes: [...(spec.template?.spec?.volumes ?? []), ...claimVolumes] } };
  validatePodTemplate(template, 'spec.template', errors);
  validateAlwaysRestarts(spec.template, 'StatefulSet', errors);
}

export function validateDaemonSet(spec: WorkloadSpecShape & { updateStrategy?: { type?: string; rollingUpdate?: RollingUpdate } }, errors: FieldErrors): void {
  if (spec.selector) validateLabelSelector(spec.selector, 'spec.selector', errors);
  validateTemplateMatchesSelector(spec.selector, spec.template, 'spec.template', errors);
  if (spec.selector && selectsNothingOrEverything(spec.selector)) errors.invalid('spec.selector', goLabelSelector(spec.selector), 'empty selector is invalid for daemonset');
  validatePodTemplate(spec.template, 'spec.template', errors);
  validateAlwaysRestarts(spec.template, 'DaemonSet', errors);
  errors.nonNegative('spec.minReadySeconds', spec.minReadySeconds);
  const strategy = spec.updateStrategy ?? {};
  if (strategy.type === 'RollingUpdate') {
    if (!strategy.rollingUpdate) errors.required('spec.updateStrategy.rollingUpdate');
    else validateRollingUpdate(strategy.rollingUpdate, 'spec.updateStrategy.rollingUpdate', errors);
  } else if (strategy.type !== 'OnDelete') {
    errors.notSupported('spec.updateStrategy', goStrategy('DaemonSetUpdateStrategy', 'RollingUpdateDaemonSet', strategy), ['RollingUpdate', 'OnDelete']);
  }
  errors.nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit);
}
