/**
 * Field numbers (from upstream's generated.proto) of the messages kubectl's typed clients send
 * as protobuf: the objects `kubectl create configmap|secret|namespace|quota|deployment|job|cronjob|
 * service` build, and the access APIs' reviews and TokenRequest (rbac/protobuf-messages.ts).
 * Only these are decoded; see protobuf.ts for the rules.
 */
import { ACCESS_MESSAGES, ACCESS_ROOT_MESSAGES } from '../rbac/protobuf-messages.ts';

/** Scalars, special messages with their own JSON forms, or a message by name. */
export type FieldType = 'string' | 'int32' | 'int64' | 'bool' | 'bytes' | 'Time' | 'MicroTime' | 'IntOrString' | 'Quantity' | { message: string };

export interface FieldDef {
  name: string;
  type: FieldType;
  repeated?: true;
  /** map<string, type> */
  map?: true;
  /** A pointer field: written only when set, so a zero value is meaningful and kept. */
  keep?: true;
  /** An embedded struct whose fields JSON flattens into the parent. */
  inline?: true;
}

export type MessageDef = Readonly<Record<number, FieldDef>>;

const s = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'string', ...extra });
const i32 = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'int32', ...extra });
const i64 = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'int64', ...extra });
const b = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'bool', ...extra });
const m = (name: string, message: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: { message }, ...extra });
const KEEP = { keep: true } as const;
const REP = { repeated: true } as const;
const MAP = { map: true } as const;

export const MESSAGES: Readonly<Record<string, MessageDef>> = {
  ObjectMeta: {
    1: s('name'),
    2: s('generateName'),
    3: s('namespace'),
    4: s('selfLink'),
    5: s('uid'),
    6: s('resourceVersion'),
    7: i64('generation'),
    8: { name: 'creationTimestamp', type: 'Time' },
    9: { name: 'deletionTimestamp', type: 'Time', keep: true },
    10: i64('deletionGracePeriodSeconds', KEEP),
    11: s('labels', MAP),
    12: s('annotations', MAP),
    13: m('ownerReferences', 'OwnerReference', REP),
    14: s('finalizers', REP),
  },
  OwnerReference: { 1: s('kind'), 3: s('name'), 4: s('uid'), 5: s('apiVersion'), 6: b('controller', KEEP), 7: b('blockOwnerDeletion', KEEP) },
  LabelSelector: { 1: s('matchLabels', MAP), 2: m('matchExpressions', 'LabelSelectorRequirement', REP) },
  LabelSelectorRequirement: { 1: s('key'), 2: s('operator'), 3: s('values', REP) },

  ConfigMap: { 1: m('metadata', 'ObjectMeta'), 2: s('data', MAP), 3: { name: 'binaryData', type: 'bytes', map: true }, 4: b('immutable', KEEP) },
  Secret: { 1: m('metadata', 'ObjectMeta'), 2: { name: 'data', type: 'bytes', map: true }, 3: s('type'), 4: s('stringData', MAP), 5: b('immutable', KEEP) },
  Namespace: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'NamespaceSpec'), 3: m('status', 'NamespaceStatus') },
  NamespaceSpec: { 1: s('finalizers', REP) },
  NamespaceStatus: { 1: s('phase') },
  Service: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'ServiceSpec'), 3: m('status', 'ServiceStatus') },
  ServiceSpec: {
    1: m('ports', 'ServicePort', REP),
    2: s('selector', MAP),
    3: s('clusterIP'),
    4: s('type'),
    5: s('externalIPs', REP),
    7: s('sessionAffinity'),
    8: s('loadBalancerIP'),
    9: s('loadBalancerSourceRanges', REP),
    10: s('externalName'),
    11: s('externalTrafficPolicy'),
    12: i32('healthCheckNodePort'),
    13: b('publishNotReadyAddresses'),
    17: s('ipFamilyPolicy', KEEP),
    18: s('clusterIPs', REP),
    19: s('ipFamilies', REP),
    20: b('allocateLoadBalancerNodePorts', KEEP),
    21: s('loadBalancerClass', KEEP),
    22: s('internalTrafficPolicy', KEEP),
    23: s('trafficDistribution', KEEP),
  },
  ServicePort: { 1: s('name'), 2: s('protocol'), 3: i32('port'), 4: { name: 'targetPort', type: 'IntOrString' }, 5: i32('nodePort'), 6: s('appProtocol', KEEP) },
  ServiceStatus: { 1: m('loadBalancer', 'LoadBalancerStatus') },
  LoadBalancerStatus: {},

  Pod: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'PodSpec'), 3: m('status', 'PodStatus') },
  PodStatus: { 1: s('phase'), 9: s('qosClass') },
  PodTemplateSpec: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'PodSpec') },
  PodSpec: {
    1: m('volumes', 'Volume', REP),
    2: m('containers', 'Container', REP),
    3: s('restartPolicy'),
    4: i64('terminationGracePeriodSeconds', KEEP),
    5: i64('activeDeadlineSeconds', KEEP),
    6: s('dnsPolicy'),
    7: s('nodeSelector', MAP),
    8: s('serviceAccountName'),
    9: s('serviceAccount'),
    10: s('nodeName'),
    11: b('hostNetwork'),
    12: b('hostPID'),
    13: b('hostIPC'),
    14: m('securityContext', 'PodSecurityContext'),
    15: m('imagePullSecrets', 'LocalObjectReference', REP),
    16: s('hostname'),
    17: s('subdomain'),
    19: s('schedulerName'),
    20: m('initContainers', 'Container', REP),
    21: b('automountServiceAccountToken', KEEP),
    22: m('tolerations', 'Toleration', REP),
    24: s('priorityClassName'),
    25: i32('priority', KEEP),
    27: b('shareProcessNamespace', KEEP),
    29: s('runtimeClassName', KEEP),
    30: b('enableServiceLinks', KEEP),
    31: s('preemptionPolicy', KEEP),
    35: b('setHostnameAsFQDN', KEEP),
    37: b('hostUsers', KEEP),
  },
  PodSecurityContext: { 2: i64('runAsUser', KEEP), 3: b('runAsNonRoot', KEEP), 4: i64('supplementalGroups', REP), 5: i64('fsGroup', KEEP), 6: i64('runAsGroup', KEEP) },
  LocalObjectReference: { 1: s('name') },
  Toleration: { 1: s('key'), 2: s('operator'), 3: s('value'), 4: s('effect'), 5: i64('tolerationSeconds', KEEP) },
  Container: {
    1: s('name'),
    2: s('image'),
    3: s('command', REP),
    4: s('args', REP),
    5: s('workingDir'),
    6: m('ports', 'ContainerPort', REP),
    7: m('env', 'EnvVar', REP),
    8: m('resources', 'ResourceRequirements'),
    9: m('volumeMounts', 'VolumeMount', REP),
    10: m('livenessProbe', 'Probe'),
    11: m('readinessProbe', 'Probe'),
    13: s('terminationMessagePath'),
    14: s('imagePullPolicy'),
    16: b('stdin'),
    17: b('stdinOnce'),
    18: b('tty'),
    19: m('envFrom', 'EnvFromSource', REP),
    20: s('terminationMessagePolicy'),
    22: m('startupProbe', 'Probe'),
    24: s('restartPolicy', KEEP),
  },
  ContainerPort: { 1: s('name'), 2: i32('hostPort'), 3: i32('containerPort'), 4: s('protocol'), 5: s('hostIP') },
  EnvVar: { 1: s('name'), 2: s('value'), 3: m('valueFrom', 'EnvVarSource') },
  EnvVarSource: { 1: m('fieldRef', 'ObjectFieldSelector'), 2: m('resourceFieldRef', 'ResourceFieldSelector'), 3: m('configMapKeyRef', 'KeySelector'), 4: m('secretKeyRef', 'KeySelector') },
  ObjectFieldSelector: { 1: s('apiVersion'), 2: s('fieldPath') },
  ResourceFieldSelector: { 1: s('containerName'), 2: s('resource'), 3: { name: 'divisor', type: 'Quantity' } },
  KeySelector: { 1: m('localObjectReference', 'LocalObjectReference', { inline: true }), 2: s('key'), 3: b('optional', KEEP) },
  EnvFromSource: { 1: s('prefix'), 2: m('configMapRef', 'EnvSource'), 3: m('secretRef', 'EnvSource') },
  EnvSource: { 1: m('localObjectReference', 'LocalObjectReference', { inline: true }), 2: b('optional', KEEP) },
  ResourceRequirements: { 1: { name: 'limits', type: 'Quantity', map: true }, 2: { name: 'requests', type: 'Quantity', map: true } },
  // kubectl create quota.
  ResourceQuota: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'ResourceQuotaSpec'), 3: m('status', 'ResourceQuotaStatus') },
  ResourceQuotaSpec: { 1: { name: 'hard', type: 'Quantity', map: true }, 2: s('scopes', REP), 3: m('scopeSelector', 'ScopeSelector', KEEP) },
  ResourceQuotaStatus: { 1: { name: 'hard', type: 'Quantity', map: true }, 2: { name: 'used', type: 'Quantity', map: true } },
  ScopeSelector: { 1: m('matchExpressions', 'ScopedResourceSelectorRequirement', REP) },
  ScopedResourceSelectorRequirement: { 1: s('scopeName'), 2: s('operator'), 3: s('values', REP) },
  VolumeMount: { 1: s('name'), 2: b('readOnly'), 3: s('mountPath'), 4: s('subPath'), 5: s('mountPropagation', KEEP), 6: s('subPathExpr'), 7: s('recursiveReadOnly', KEEP) },
  Probe: { 1: m('handler', 'ProbeHandler', { inline: true }), 2: i32('initialDelaySeconds'), 3: i32('timeoutSeconds'), 4: i32('periodSeconds'), 5: i32('successThreshold'), 6: i32('failureThreshold'), 7: i64('terminationGracePeriodSeconds', KEEP) },
  ProbeHandler: { 1: m('exec', 'ExecAction'), 2: m('httpGet', 'HTTPGetAction'), 3: m('tcpSocket', 'TCPSocketAction') },
  ExecAction: { 1: s('command', REP) },
  HTTPGetAction: { 1: s('path'), 2: { name: 'port', type: 'IntOrString' }, 3: s('host'), 4: s('scheme') },
  TCPSocketAction: { 1: { name: 'port', type: 'IntOrString' }, 2: s('host') },
  Volume: { 1: s('name'), 2: m('volumeSource', 'VolumeSource', { inline: true }) },
  VolumeSource: {
    1: m('hostPath', 'HostPathVolumeSource'),
    2: m('emptyDir', 'EmptyDirVolumeSource'),
    6: m('secret', 'SecretVolumeSource'),
    10: m('persistentVolumeClaim', 'PersistentVolumeClaimVolumeSource'),
    19: m('configMap', 'ConfigMapVolumeSource'),
  },
  HostPathVolumeSource: { 1: s('path'), 2: s('type', KEEP) },
  EmptyDirVolumeSource: { 1: s('medium'), 2: { name: 'sizeLimit', type: 'Quantity', keep: true } },
  SecretVolumeSource: { 1: s('secretName'), 2: m('items', 'KeyToPath', REP), 3: i32('defaultMode', KEEP), 4: b('optional', KEEP) },
  PersistentVolumeClaimVolumeSource: { 1: s('claimName'), 2: b('readOnly') },
  ConfigMapVolumeSource: { 1: m('localObjectReference', 'LocalObjectReference', { inline: true }), 2: m('items', 'KeyToPath', REP), 3: i32('defaultMode', KEEP), 4: b('optional', KEEP) },
  KeyToPath: { 1: s('key'), 2: s('path'), 3: i32('mode', KEEP) },

  Deployment: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'DeploymentSpec'), 3: m('status', 'WorkloadStatus') },
  DeploymentSpec: {
    1: i32('replicas', KEEP),
    2: m('selector', 'LabelSelector'),
    3: m('template', 'PodTemplateSpec'),
    4: m('strategy', 'DeploymentStrategy'),
    5: i32('minReadySeconds'),
    6: i32('revisionHistoryLimit', KEEP),
    7: b('paused'),
    9: i32('progressDeadlineSeconds', KEEP),
  },
  DeploymentStrategy: { 1: s('type'), 2: m('rollingUpdate', 'RollingUpdateDeployment') },
  RollingUpdateDeployment: { 1: { name: 'maxUnavailable', type: 'IntOrString' }, 2: { name: 'maxSurge', type: 'IntOrString' } },
  /** New objects carry an all-zero status; its fields are skipped as zero values. */
  WorkloadStatus: {},

  Job: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'JobSpec'), 3: m('status', 'WorkloadStatus') },
  JobSpec: {
    1: i32('parallelism', KEEP),
    2: i32('completions', KEEP),
    3: i64('activeDeadlineSeconds', KEEP),
    4: m('selector', 'LabelSelector'),
    5: b('manualSelector', KEEP),
    6: m('template', 'PodTemplateSpec'),
    7: i32('backoffLimit', KEEP),
    8: i32('ttlSecondsAfterFinished', KEEP),
    9: s('completionMode', KEEP),
    10: b('suspend', KEEP),
    12: i32('backoffLimitPerIndex', KEEP),
    13: i32('maxFailedIndexes', KEEP),
    14: s('podReplacementPolicy', KEEP),
    15: s('managedBy', KEEP),
  },
  CronJob: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'CronJobSpec'), 3: m('status', 'WorkloadStatus') },
  CronJobSpec: {
    1: s('schedule'),
    2: i64('startingDeadlineSeconds', KEEP),
    3: s('concurrencyPolicy'),
    4: b('suspend', KEEP),
    5: m('jobTemplate', 'JobTemplateSpec'),
    6: i32('successfulJobsHistoryLimit', KEEP),
    7: i32('failedJobsHistoryLimit', KEEP),
    8: s('timeZone', KEEP),
  },
  JobTemplateSpec: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'JobSpec') },
  ...ACCESS_MESSAGES,
};

/** The root message of each kind accepted as protobuf, by `apiVersion/kind`. */
export const ROOT_MESSAGES: Readonly<Record<string, string>> = {
  'v1/ConfigMap': 'ConfigMap',
  'v1/Secret': 'Secret',
  'v1/ResourceQuota': 'ResourceQuota',
  'v1/Namespace': 'Namespace',
  'v1/Service': 'Service',
  'v1/Pod': 'Pod',
  'apps/v1/Deployment': 'Deployment',
  'batch/v1/Job': 'Job',
  'batch/v1/CronJob': 'CronJob',
  ...ACCESS_ROOT_MESSAGES,
};
