/** What an update may not change (ValidateXUpdate): immutable selectors, Job templates, Pod specs. */
import { semanticEqual, type FieldErrors } from './field-errors.ts';
import { goLabelSelector } from './go-format.ts';
import type { ContainerShape, PodSpecShape, TolerationShape, WorkloadSpecShape } from './shapes.ts';

/** apps/v1 selectors never change: a new selector would orphan the old pods. */
export function validateSelectorUnchanged(spec: WorkloadSpecShape, old: WorkloadSpecShape, errors: FieldErrors): void {
  if (!semanticEqual(spec.selector, old.selector)) errors.invalid('spec.selector', goLabelSelector(spec.selector), 'field is immutable');
}

/** The StatefulSet spec fields an update may touch; a change anywhere else is refused as a whole. */
const STATEFULSET_MUTABLE = new Set(['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds']);

export function validateStatefulSetUpdate(spec: Record<string, unknown>, old: Record<string, unknown>, errors: FieldErrors): void {
  const frozen = (s: Record<string, unknown>) => Object.fromEntries(Object.entries(s).filter(([key]) => !STATEFULSET_MUTABLE.has(key)));
  if (!semanticEqual(frozen(spec), frozen(old))) {
    errors.forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
  }
}

interface JobSpecShape extends WorkloadSpecShape {
  completions?: number;
  completionMode?: string;
}

export function validateJobUpdate(spec: JobSpecShape, old: JobSpecShape, errors: FieldErrors): void {
  if (!semanticEqual(spec.selector, old.selector)) errors.invalid('spec.selector', goLabelSelector(spec.selector), 'field is immutable');
  errors.immutable('spec.template', spec.template, old.template);
  errors.immutable('spec.completionMode', spec.completionMode, old.completionMode);
  // Indexed Jobs may scale completions together with parallelism; NonIndexed ones may not.
  if (spec.completionMode !== 'Indexed') errors.immutable('spec.completions', spec.completions, old.completions);
}

const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function withoutImages(containers: ContainerShape[] | undefined): ContainerShape[] | undefined {
  return containers?.map(({ image: _image, ...rest }) => rest);
}

/** Whether every old toleration is still there (additions are allowed, removals not). */
function onlyAddsTolerations(next: TolerationShape[] | undefined, old: TolerationShape[] | undefined): boolean {
  return (old ?? []).every((t) => (next ?? []).some((n) => semanticEqual(n, t)));
}

/**
 * ValidatePodUpdate: a running pod's spec is fixed but for images, activeDeadlineSeconds, added
 * tolerations and terminationGracePeriodSeconds. Upstream appends a diff of the two specs to the
 * message; that diff is not reproduced.
 */
export function validatePodUpdate(spec: PodSpecShape, old: PodSpecShape, errors: FieldErrors): void {
  const comparable = (s: PodSpecShape): PodSpecShape => ({
    ...s,
    containers: withoutImages(s.containers),
    initContainers: withoutImages(s.initContainers),
    activeDeadlineSeconds: undefined,
    terminationGracePeriodSeconds: undefined,
    tolerations: undefined,
  });
  if (!onlyAddsTolerations(spec.tolerations, old.tolerations) || !semanticEqual(comparable(spec), comparable(old))) errors.forbidden('spec', POD_UPDATE_FORBIDDEN);
  const deadline = spec.activeDeadlineSeconds;
  if (deadline === undefined) {
    if (old.activeDeadlineSeconds !== undefined) errors.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value');
  } else if (old.activeDeadlineSeconds !== undefined && deadline > old.activeDeadlineSeconds) {
    errors.invalid('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value');
  }
}
