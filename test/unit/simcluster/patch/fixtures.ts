/**
 * Swagger-2.0 definitions modelled on the real Kubernetes OpenAPI document (v1.30's
 * /openapi/v2), trimmed to the fields the patch tests touch but keeping their patch extensions
 * exactly: merge keys, strategies, list types and map types. Also a fallback reference for the
 * OpenAPI module.
 */
import type { PatchDefinitions, PatchSchema } from '../../../../electron/engine/simcluster/patch/patch-meta.ts';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const CORE = 'io.k8s.api.core.v1.';
const APPS = 'io.k8s.api.apps.v1.';

const ref = (name: string, extra: PatchSchema = {}): PatchSchema => ({ $ref: `#/definitions/${name}`, ...extra });
const str: PatchSchema = { type: 'string' };
const int: PatchSchema = { type: 'integer', format: 'int32' };
const bool: PatchSchema = { type: 'boolean' };
const stringMap: PatchSchema = { type: 'object', additionalProperties: { type: 'string' } };
const atomicList = (items: PatchSchema): PatchSchema => ({ type: 'array', items, 'x-kubernetes-list-type': 'atomic' });
/** A list kube-apiserver merges by `key`, as `patchStrategy:"merge" patchMergeKey:"key"` plus `+listType=map`. */
const mergeList = (items: PatchSchema, key: string, options: { mapKeys?: string[]; strategy?: string } = {}): PatchSchema => ({
  type: 'array',
  items,
  'x-kubernetes-list-map-keys': options.mapKeys ?? [key],
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-patch-merge-key': key,
  'x-kubernetes-patch-strategy': options.strategy ?? 'merge',
});
const object = (properties: Record<string, PatchSchema>, required?: string[]): PatchSchema => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});

export const definitions: PatchDefinitions = {
  [`${META}Time`]: { type: 'string', format: 'date-time' },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
  [`${META}FieldsV1`]: { type: 'object' },
  [`${META}ManagedFieldsEntry`]: object({
    apiVersion: str,
    fieldsType: str,
    fieldsV1: ref(`${META}FieldsV1`),
    manager: str,
    operation: str,
    subresource: str,
    time: ref(`${META}Time`),
  }),
  [`${META}OwnerReference`]: {
    ...object({ apiVersion: str, blockOwnerDeletion: bool, controller: bool, kind: str, name: str, uid: str }, ['apiVersion', 'kind', 'name', 'uid']),
    'x-kubernetes-map-type': 'atomic',
  },
  [`${META}ObjectMeta`]: object({
    annotations: stringMap,
    creationTimestamp: ref(`${META}Time`),
    finalizers: { type: 'array', items: str, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
    generateName: str,
    generation: { type: 'integer', format: 'int64' },
    labels: stringMap,
    managedFields: { type: 'array', items: ref(`${META}ManagedFieldsEntry`) },
    name: str,
    namespace: str,
    ownerReferences: mergeList(ref(`${META}OwnerReference`), 'uid'),
    resourceVersion: str,
    uid: str,
  }),
  [`${META}LabelSelectorRequirement`]: object({ key: str, operator: str, values: atomicList(str) }, ['key', 'operator']),
  [`${META}LabelSelector`]: {
    ...object({ matchExpressions: atomicList(ref(`${META}LabelSelectorRequirement`)), matchLabels: stringMap }),
    'x-kubernetes-map-type': 'atomic',
  },
  [`${CORE}ContainerPort`]: object(
    { containerPort: int, hostIP: str, hostPort: int, name: str, protocol: { type: 'string', default: 'TCP' } },
    ['containerPort'],
  ),
  [`${CORE}EnvVar`]: object({ name: str, value: str }, ['name']),
  [`${CORE}VolumeMount`]: object({ mountPath: str, name: str, readOnly: bool, subPath: str }, ['name', 'mountPath']),
  [`${CORE}ResourceRequirements`]: object({
    limits: { type: 'object', additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity') },
    requests: { type: 'object', additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity') },
  }),
  [`${CORE}Container`]: object(
    {
      args: atomicList(str),
      command: atomicList(str),
      env: mergeList(ref(`${CORE}EnvVar`), 'name'),
      image: str,
      imagePullPolicy: str,
      name: str,
      ports: mergeList(ref(`${CORE}ContainerPort`), 'containerPort', { mapKeys: ['containerPort', 'protocol'] }),
      resources: ref(`${CORE}ResourceRequirements`),
      terminationMessagePath: str,
      volumeMounts: mergeList(ref(`${CORE}VolumeMount`), 'mountPath'),
    },
    ['name'],
  ),
  [`${CORE}ConfigMapVolumeSource`]: object({ defaultMode: int, name: str, optional: bool }),
  [`${CORE}EmptyDirVolumeSource`]: object({ medium: str, sizeLimit: ref('io.k8s.apimachinery.pkg.api.resource.Quantity') }),
  [`${CORE}HostPathVolumeSource`]: object({ path: str, type: str }, ['path']),
  [`${CORE}Volume`]: object(
    { configMap: ref(`${CORE}ConfigMapVolumeSource`), emptyDir: ref(`${CORE}EmptyDirVolumeSource`), hostPath: ref(`${CORE}HostPathVolumeSource`), name: str },
    ['name'],
  ),
  [`${CORE}Toleration`]: object({ effect: str, key: str, operator: str, tolerationSeconds: { type: 'integer' }, value: str }),
  [`${CORE}PodSecurityContext`]: object({ runAsNonRoot: bool, runAsUser: { type: 'integer' } }),
  [`${CORE}PodSpec`]: object(
    {
      containers: mergeList(ref(`${CORE}Container`), 'name'),
      dnsPolicy: str,
      initContainers: mergeList(ref(`${CORE}Container`), 'name'),
      nodeSelector: { ...stringMap, 'x-kubernetes-map-type': 'atomic' },
      restartPolicy: str,
      securityContext: ref(`${CORE}PodSecurityContext`),
      serviceAccountName: str,
      terminationGracePeriodSeconds: { type: 'integer' },
      tolerations: atomicList(ref(`${CORE}Toleration`)),
      volumes: mergeList(ref(`${CORE}Volume`), 'name', { strategy: 'merge,retainKeys' }),
    },
    ['containers'],
  ),
  [`${CORE}PodTemplateSpec`]: object({ metadata: ref(`${META}ObjectMeta`), spec: ref(`${CORE}PodSpec`) }),
  [`${CORE}ServicePort`]: object(
    {
      name: str,
      nodePort: int,
      port: int,
      protocol: { type: 'string', default: 'TCP' },
      targetPort: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'),
    },
    ['port'],
  ),
  [`${CORE}ServiceSpec`]: object({
    clusterIP: str,
    ports: mergeList(ref(`${CORE}ServicePort`), 'port', { mapKeys: ['port', 'protocol'] }),
    selector: { ...stringMap, 'x-kubernetes-map-type': 'atomic' },
    type: str,
  }),
  [`${CORE}Service`]: object({ apiVersion: str, kind: str, metadata: ref(`${META}ObjectMeta`), spec: ref(`${CORE}ServiceSpec`) }),
  [`${CORE}ConfigMap`]: object({ apiVersion: str, data: stringMap, kind: str, metadata: ref(`${META}ObjectMeta`) }),
  [`${APPS}RollingUpdateDeployment`]: object({
    maxSurge: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'),
    maxUnavailable: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'),
  }),
  [`${APPS}DeploymentStrategy`]: object({ rollingUpdate: ref(`${APPS}RollingUpdateDeployment`), type: str }),
  [`${APPS}DeploymentCondition`]: object(
    { lastTransitionTime: ref(`${META}Time`), lastUpdateTime: ref(`${META}Time`), message: str, reason: str, status: str, type: str },
    ['type', 'status'],
  ),
  [`${APPS}DeploymentSpec`]: object(
    {
      minReadySeconds: int,
      paused: bool,
      progressDeadlineSeconds: int,
      replicas: int,
      revisionHistoryLimit: int,
      selector: ref(`${META}LabelSelector`),
      strategy: ref(`${APPS}DeploymentStrategy`, { 'x-kubernetes-patch-strategy': 'retainKeys' }),
      template: ref(`${CORE}PodTemplateSpec`),
    },
    ['selector', 'template'],
  ),
  [`${APPS}DeploymentStatus`]: object({
    availableReplicas: int,
    conditions: mergeList(ref(`${APPS}DeploymentCondition`), 'type'),
    observedGeneration: { type: 'integer' },
    readyReplicas: int,
    replicas: int,
    updatedReplicas: int,
  }),
  [`${APPS}Deployment`]: object({
    apiVersion: str,
    kind: str,
    metadata: ref(`${META}ObjectMeta`),
    spec: ref(`${APPS}DeploymentSpec`),
    status: ref(`${APPS}DeploymentStatus`),
  }),
};

export const DEPLOYMENT = `${APPS}Deployment`;
export const SERVICE = `${CORE}Service`;
export const CONFIG_MAP = `${CORE}ConfigMap`;
