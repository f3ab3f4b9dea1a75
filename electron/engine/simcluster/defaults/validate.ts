/** Entry point of validation: the per-kind checks kube-apiserver runs on create and update. */
import type { StatusCause } from '../errors.ts';
import { isRbacKind, validateRbacObject } from '../rbac/validation.ts';
import { DEFAULT_KUBERNETES_VERSION, minorOf } from '../controllers/version.ts';
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { FieldErrors } from './field-errors.ts';
import type { PodSpecShape, WorkloadSpecShape } from './shapes.ts';
import { validateDaemonSet, validateDeployment, validateReplicaSet, validateStatefulSet } from './validate-apps.ts';
import { validateCronJob, validateHpa, validateJob } from './validate-batch.ts';
import { validateConfig, validateService } from './validate-core.ts';
import { validateAnnotationKeys, validateLabels } from './validate-meta.ts';
import { validatePodSpec } from './validate-podspec.ts';
import { validateControllerRevision, type ControllerRevisionShape } from './validate-revision.ts';
import { validateJobUpdate, validatePodUpdate, validateSelectorUnchanged, validateStatefulSetUpdate } from './validate-update.ts';

type Validator = (spec: Record<string, unknown>, oldSpec: Record<string, unknown> | undefined, errors: FieldErrors) => void;

const BY_KIND: Record<string, Validator> = {
  Pod: (spec, old, errors) => {
    validatePodSpec(spec as PodSpecShape, 'spec', errors);
    if (old) validatePodUpdate(spec as PodSpecShape, old as PodSpecShape, errors);
  },
  Deployment: (spec, old, errors) => {
    validateDeployment(spec, errors);
    if (old) validateSelectorUnchanged(spec, old, errors);
  },
  ReplicaSet: (spec, old, errors) => {
    validateReplicaSet(spec, errors);
    if (old) validateSelectorUnchanged(spec, old, errors);
  },
  StatefulSet: (spec, old, errors) => {
    validateStatefulSet(spec, errors);
    if (old) validateStatefulSetUpdate(spec, old, errors);
  },
  DaemonSet: (spec, old, errors) => {
    validateDaemonSet(spec, errors);
    if (old) validateSelectorUnchanged(spec as WorkloadSpecShape, old as WorkloadSpecShape, errors);
  },
  Job: (spec, old, errors) => {
    validateJob(spec, errors);
    if (old) validateJobUpdate(spec, old, errors);
  },
  CronJob: (spec, old, errors) => validateCronJob(spec, old, errors),
  HorizontalPodAutoscaler: (spec, _old, errors) => validateHpa(spec, errors),
  Service: (spec, old, errors) => validateService(spec, old, errors),
};

/** What validation depends on besides the objects. */
export interface ValidationOptions {
  /** The Kubernetes minor the server reports (texts and checks that changed between releases); the default version's otherwise. */
  minor?: number;
}

const specOf = (object: KubeObject | undefined): Record<string, unknown> | undefined => object?.['spec'] as Record<string, unknown> | undefined;

/**
 * The field errors kube-apiserver would answer 422 Invalid with, as errors.ts StatusCauses
 * (`{reason: 'FieldValueRequired', field: 'spec.template.spec.containers[0].image', message:
 * 'Required value'}`); empty when the object is acceptable. Pass the defaulted object (upstream
 * validates after defaulting) and, for an update, the stored one it replaces.
 */
export function validate(type: ResourceType, object: KubeObject, old?: KubeObject, options: ValidationOptions = {}): StatusCause[] {
  const errors = new FieldErrors();
  validateLabels(object.metadata.labels, 'metadata.labels', errors);
  validateAnnotationKeys(object.metadata.annotations, 'metadata.annotations', errors);
  if (isRbacKind(type)) {
    validateRbacObject(type, object, old, errors);
  } else if (type.kind === 'ConfigMap' || type.kind === 'Secret') {
    validateConfig(type.kind, object as Record<string, unknown>, old as Record<string, unknown> | undefined, errors);
  } else if (type.kind === 'ControllerRevision' && type.group === 'apps') {
    validateControllerRevision(object as ControllerRevisionShape, old as ControllerRevisionShape | undefined, errors, { minor: options.minor ?? minorOf(DEFAULT_KUBERNETES_VERSION) });
  } else {
    BY_KIND[type.kind]?.(specOf(object) ?? {}, old ? (specOf(old) ?? {}) : undefined, errors);
  }
  return errors.causes;
}
