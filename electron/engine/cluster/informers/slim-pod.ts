/**
 * Slimming of pod specs (in Pods and in workload templates) and pod statuses: what the views
 * show (images, requests and limits, ports, placement, readiness, restarts) stays; commands,
 * security contexts, tolerations and runtime ids go. Of env, envFrom, volumes and
 * imagePullSecrets only the names of the ConfigMaps, Secrets and claims they reference stay (the
 * graph's "uses" edges), never a value, key, path or mount.
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

/** `{ [field]: { [nameField]: name } }` when `source[field][nameField]` is a name, else undefined. */
function nameRef(source: unknown, field: string, nameField = 'name'): Json | undefined {
  const ref = isObject(source) ? source[field] : undefined;
  const name = isObject(ref) ? ref[nameField] : undefined;
  return typeof name === 'string' && name !== '' ? { [field]: { [nameField]: name } } : undefined;
}

const present = (value: Json | undefined): value is Json => value !== undefined;

/**
 * The ConfigMaps and Secrets a container's env and envFrom name, in their own shapes but names
 * only (no variable name, key or prefix: a Secret's key names can say too much).
 */
function slimContainerRefs(container: Json, out: Json): void {
  const envFrom = asArray(container['envFrom']).map((source) => nameRef(source, 'configMapRef') ?? nameRef(source, 'secretRef')).filter(present);
  if (envFrom.length > 0) out['envFrom'] = envFrom;
  const env = asArray(container['env'])
    .map((variable) => (isObject(variable) ? (nameRef(variable['valueFrom'], 'configMapKeyRef') ?? nameRef(variable['valueFrom'], 'secretKeyRef')) : undefined))
    .filter(present)
    .map((valueFrom) => ({ valueFrom }));
  if (env.length > 0) out['env'] = env;
}

/**
 * The token volume the ServiceAccount admission plugin adds to every pod (`kube-api-access-*`:
 * a token, kube-root-ca.crt and the namespace): no one wrote it, and keeping it would cost every
 * pod of a large cluster its bytes and draw an edge from every pod to one ConfigMap.
 */
export const INJECTED_TOKEN_VOLUME = /^kube-api-access-[a-z0-9]+$/;

/** A volume that references a ConfigMap, Secret or claim, names only; undefined for any other. */
function slimVolume(volume: unknown): Json | undefined {
  if (!isObject(volume) || (typeof volume['name'] === 'string' && INJECTED_TOKEN_VOLUME.test(volume['name']))) return undefined;
  const ref = nameRef(volume, 'configMap') ?? nameRef(volume, 'secret', 'secretName') ?? nameRef(volume, 'persistentVolumeClaim', 'claimName');
  if (ref) return { name: volume['name'], ...ref };
  const projected = volume['projected'];
  const sources = isObject(projected) ? asArray(projected['sources']).map((source) => nameRef(source, 'configMap') ?? nameRef(source, 'secret')).filter(present) : [];
  return sources.length > 0 ? { name: volume['name'], projected: { sources } } : undefined;
}

function slimContainer(container: unknown): Json {
  if (!isObject(container)) return {};
  const out = pick(container, ['name', 'image', 'resources']);
  const ports = asArray(container['ports']);
  if (ports.length > 0) out['ports'] = ports.map(slimPort);
  slimContainerRefs(container, out);
  // Whether a readiness gate exists explains "Running but not Ready"; its details are not shown.
  if (container['readinessProbe'] !== undefined) out['readinessProbe'] = {};
  return out;
}

const POD_SPEC_FIELDS = ['nodeName', 'nodeSelector', 'priority', 'priorityClassName', 'restartPolicy', 'serviceAccountName'];

/** A pod spec reduced to what the views use; affinity is kept as presence only, references by name. */
export function slimPodSpec(spec: unknown): Json {
  if (!isObject(spec)) return {};
  const out = pick(spec, POD_SPEC_FIELDS);
  out['containers'] = asArray(spec['containers']).map(slimContainer);
  const init = asArray(spec['initContainers']);
  if (init.length > 0) {
    out['initContainers'] = init.map((c) => {
      if (!isObject(c)) return {};
      const slim = pick(c, ['name', 'image', 'restartPolicy']);
      slimContainerRefs(c, slim);
      return slim;
    });
  }
  if (spec['affinity'] !== undefined) out['affinity'] = {};
  const volumes = asArray(spec['volumes']).map(slimVolume).filter(present);
  if (volumes.length > 0) out['volumes'] = volumes;
  const pullSecrets = asArray(spec['imagePullSecrets']).map((ref) => (isObject(ref) && typeof ref['name'] === 'string' ? { name: ref['name'] } : undefined)).filter(present);
  if (pullSecrets.length > 0) out['imagePullSecrets'] = pullSecrets;
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
