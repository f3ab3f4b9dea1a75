/** PodSpec and pod template validation (pkg/apis/core/validation), for the checks kubectl users meet. */
import { at, type FieldErrors } from './field-errors.ts';
import { parseQuantity } from '../controllers/quantity.ts';
import type { ContainerShape, PodSpecShape, PodTemplateShape, VolumeShape } from './shapes.ts';
import { dns1123LabelErrors, validateAnnotationKeys, validateLabels } from './validate-meta.ts';

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function validatePortNumber(value: number | undefined, field: string, errors: FieldErrors, options: { required: boolean }): void {
  if (value === undefined || value === 0) {
    if (options.required) errors.required(field);
    return;
  }
  if (value < 1 || value > 65535) errors.invalid(field, value, 'must be between 1 and 65535, inclusive');
}

function validateVolumes(volumes: VolumeShape[] | undefined, field: string, errors: FieldErrors): Set<string> {
  const names = new Set<string>();
  (volumes ?? []).forEach((volume, i) => {
    const path = at.child(at.index(field, i), 'name');
    if (!volume.name) errors.required(path);
    else {
      for (const msg of dns1123LabelErrors(volume.name)) errors.invalid(path, volume.name, msg);
      if (names.has(volume.name)) errors.duplicate(path, volume.name);
      names.add(volume.name);
    }
  });
  return names;
}

/** requests above limits: `resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1`. */
function validateResources(container: ContainerShape, field: string, errors: FieldErrors): void {
  const limits = container.resources?.limits ?? {};
  for (const [name, request] of Object.entries(container.resources?.requests ?? {})) {
    const limit = limits[name];
    const requested = parseQuantity(request);
    const allowed = parseQuantity(limit);
    if (requested !== undefined && allowed !== undefined && requested > allowed) {
      errors.invalid(at.key(at.child(field, 'requests'), name), String(request), `must be less than or equal to ${name} limit of ${String(limit)}`);
    }
  }
}

function validateContainer(container: ContainerShape, field: string, names: Set<string>, volumes: Set<string>, errors: FieldErrors): void {
  const namePath = at.child(field, 'name');
  if (!container.name) errors.required(namePath);
  else {
    for (const msg of dns1123LabelErrors(container.name)) errors.invalid(namePath, container.name, msg);
    if (names.has(container.name)) errors.duplicate(namePath, container.name);
    names.add(container.name);
  }
  if (!container.image) errors.required(at.child(field, 'image'));
  else if (container.image.trim() !== container.image) errors.invalid(at.child(field, 'image'), container.image, 'must not have leading or trailing whitespace');
  if (!container.imagePullPolicy) errors.required(at.child(field, 'imagePullPolicy'));
  else if (!PULL_POLICIES.includes(container.imagePullPolicy)) errors.notSupported(at.child(field, 'imagePullPolicy'), container.imagePullPolicy, PULL_POLICIES);
  const tmp = container.terminationMessagePolicy;
  if (!tmp) errors.required(at.child(field, 'terminationMessagePolicy'), "must be 'File' or 'FallbackToLogsOnError'");
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) errors.notSupported(at.child(field, 'terminationMessagePolicy'), tmp, TERMINATION_MESSAGE_POLICIES);
  (container.ports ?? []).forEach((port, i) => {
    const path = at.index(at.child(field, 'ports'), i);
    validatePortNumber(port.containerPort, at.child(path, 'containerPort'), errors, { required: true });
    validatePortNumber(port.hostPort, at.child(path, 'hostPort'), errors, { required: false });
    if (!port.protocol) errors.required(at.child(path, 'protocol'));
    else if (!PROTOCOLS.includes(port.protocol)) errors.notSupported(at.child(path, 'protocol'), port.protocol, PROTOCOLS);
  });
  (container.env ?? []).forEach((env, i) => {
    if (!env.name) errors.required(at.child(at.index(at.child(field, 'env'), i), 'name'));
  });
  (container.volumeMounts ?? []).forEach((mount, i) => {
    const path = at.index(at.child(field, 'volumeMounts'), i);
    if (!mount.name) errors.required(at.child(path, 'name'));
    else if (!volumes.has(mount.name)) errors.notFound(at.child(path, 'name'), mount.name);
    if (!mount.mountPath) errors.required(at.child(path, 'mountPath'));
  });
  validateResources(container, at.child(field, 'resources'), errors);
}

/** ValidatePodSpec's checks: volumes, containers, init containers, restart and DNS policy. */
export function validatePodSpec(spec: PodSpecShape | undefined, field: string, errors: FieldErrors): void {
  const volumes = validateVolumes(spec?.volumes, at.child(field, 'volumes'), errors);
  const names = new Set<string>();
  const containers = spec?.containers ?? [];
  if (containers.length === 0) errors.required(at.child(field, 'containers'));
  containers.forEach((c, i) => validateContainer(c, at.index(at.child(field, 'containers'), i), names, volumes, errors));
  (spec?.initContainers ?? []).forEach((c, i) => validateContainer(c, at.index(at.child(field, 'initContainers'), i), names, volumes, errors));
  const restartPolicy = spec?.restartPolicy ?? '';
  if (!restartPolicy) errors.required(at.child(field, 'restartPolicy'));
  else if (!RESTART_POLICIES.includes(restartPolicy)) errors.notSupported(at.child(field, 'restartPolicy'), restartPolicy, RESTART_POLICIES);
  const dnsPolicy = spec?.dnsPolicy ?? '';
  if (!dnsPolicy) errors.required(at.child(field, 'dnsPolicy'));
  else if (!DNS_POLICIES.includes(dnsPolicy)) errors.notSupported(at.child(field, 'dnsPolicy'), dnsPolicy, DNS_POLICIES);
  if (spec?.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds <= 0) {
    errors.invalid(at.child(field, 'activeDeadlineSeconds'), spec.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive');
  }
}

/** ValidatePodTemplateSpec: the template's labels and annotations, then its spec. */
export function validatePodTemplate(template: PodTemplateShape | undefined, field: string, errors: FieldErrors): void {
  const metadata = at.child(field, 'metadata');
  validateLabels(template?.metadata?.labels, at.child(metadata, 'labels'), errors);
  validateAnnotationKeys(template?.metadata?.['annotations'] as Record<string, string> | undefined, at.child(metadata, 'annotations'), errors);
  validatePodSpec(template?.spec, at.child(field, 'spec'), errors);
}
