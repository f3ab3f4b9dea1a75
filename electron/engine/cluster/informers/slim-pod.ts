/**
 * Slimming of pod specs (in Pods and in workload templates) and pod statuses: what the views
 * show (images, requests and limits, ports, placement, readiness, restarts) stays; env, volumes,
 * commands, security contexts, tolerations and runtime ids go.
 */

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Copies the listed fields that are present (none from a value that is not an object). */
export function pick(source: unknown, fields: readonly string[]): Json {
  const out: Json = {};
  if (!isObject(source)) return out;
  for (const field of fields) if (source[field] !== undefined) out[field] = source[field];
  return out;
}

function slimPort(port: unknown): Json {
  return isObject(port) ? pick(port, ['name', 'containerPort', 'protocol', 'hostPort']) : {};
}

function slimContainer(container: unknown): Json {
  if (!isObject(container)) return {};
  const out = pick(container, ['name', 'image', 'resources']);
  const ports = asArray(container['ports']);
  if (ports.length > 0) out['ports'] = ports.map(slimPort);
  // Whether a readiness gate exists explains "Running but not Ready"; its details are not shown.
  if (container['readinessProbe'] !== undefined) out['readinessProbe'] = {};
  return out;
}

const POD_SPEC_FIELDS = ['nodeName', 'nodeSelector', 'priority', 'priorityClassName', 'restartPolicy', 'serviceAccountName'];

/** A pod spec reduced to what the views use; affinity is kept as presence only. */
export function slimPodSpec(spec: unknown): Json {
  if (!isObject(spec)) return {};
  const out = pick(spec, POD_SPEC_FIELDS);
  out['containers'] = asArray(spec['containers']).map(slimContainer);
  const init = asArray(spec['initContainers']);
  if (init.length > 0) out['initContainers'] = init.map((c) => (isObject(c) ? pick(c, ['name', 'image', 'restartPolicy']) : {}));
  if (spec['affinity'] !== undefined) out['affinity'] = {};
  return out;
}

/** A pod template (workloads): labels and annotations of its metadata and the slim spec. */
export function slimPodTemplate(template: unknown): Json {
  if (!isObject(template)) return {};
  const metadata = isObject(template['metadata']) ? pick(template['metadata'], ['labels', 'annotations']) : {};
  return { metadata, spec: slimPodSpec(template['spec']) };
}

/** Container runtime ids are long, unique and never shown. */
function slimContainerState(state: unknown): unknown {
  if (!isObject(state)) return state;
  const terminated = state['terminated'];
  if (!isObject(terminated)) return state;
  const { containerID: _id, ...rest } = terminated;
  return { ...state, terminated: rest };
}

function slimContainerStatus(status: unknown): Json {
  if (!isObject(status)) return {};
  const out = pick(status, ['name', 'ready', 'started', 'restartCount', 'image']);
  if (status['state'] !== undefined) out['state'] = slimContainerState(status['state']);
  if (isObject(status['lastState']) && Object.keys(status['lastState']).length > 0) out['lastState'] = slimContainerState(status['lastState']);
  return out;
}

function slimCondition(condition: unknown): Json {
  return isObject(condition) ? pick(condition, ['type', 'status', 'reason', 'message', 'lastTransitionTime']) : {};
}

const POD_STATUS_FIELDS = ['phase', 'reason', 'message', 'hostIP', 'podIP', 'startTime', 'nominatedNodeName', 'qosClass'];

/** A pod status: phase, conditions and container statuses without runtime ids. */
export function slimPodStatus(status: unknown): Json {
  if (!isObject(status)) return {};
  const out = pick(status, POD_STATUS_FIELDS);
  if (status['conditions'] !== undefined) out['conditions'] = asArray(status['conditions']).map(slimCondition);
  if (status['containerStatuses'] !== undefined) out['containerStatuses'] = asArray(status['containerStatuses']).map(slimContainerStatus);
  if (status['initContainerStatuses'] !== undefined) out['initContainerStatuses'] = asArray(status['initContainerStatuses']).map(slimContainerStatus);
  return out;
}
