/**
 * core/v1 defaulting of PodSpec and everything inside it (containers, probes, volumes), which
 * applies wherever a pod template appears: Pods, Deployments, Jobs, CronJobs' job templates...
 * Functions here mutate the private copy applyDefaults made.
 */
import type { ContainerShape, HttpGetShape, PodSpecShape, PodTemplateShape, ProbeShape, VolumeShape } from './shapes.ts';

/** 0644, the mode upstream gives files of configMap, secret, downwardAPI and projected volumes. */
const DEFAULT_FILE_MODE = 0o644;
const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;

/** Docker reference grammar, enough to find the tag the kubelet would pull. */
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::\d+)?$/;
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;

/**
 * The tag parsers.ParseImageName finds: "latest" when the image names neither tag nor digest,
 * "" for a digest-only or unparseable reference.
 */
function imageTag(image: string): string {
  const [name = '', digest] = image.split('@');
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  const hasTag = colon > slash;
  const repository = hasTag ? name.slice(0, colon) : name;
  const tag = hasTag ? name.slice(colon + 1) : '';
  const parts = repository.split('/');
  const first = parts[0] ?? '';
  // A first component with a dot, a port or "localhost" is a registry, not part of the path.
  const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (hasDomain && !DOMAIN.test(first)) return '';
  if (!(hasDomain ? parts.slice(1) : parts).every((p) => PATH_COMPONENT.test(p))) return '';
  if (hasTag && !TAG.test(tag)) return '';
  if (tag) return tag;
  return digest === undefined ? 'latest' : '';
}

function defaultHttpGet(action: HttpGetShape | undefined): void {
  if (!action) return;
  action.path ||= '/';
  action.scheme ||= 'HTTP';
}

function defaultProbe(probe: ProbeShape | undefined): void {
  if (!probe) return;
  probe.timeoutSeconds ||= 1;
  probe.periodSeconds ||= 10;
  probe.successThreshold ||= 1;
  probe.failureThreshold ||= 3;
  defaultHttpGet(probe.httpGet);
}

/** SetDefaults_Container and the defaulters of the structs a container holds. */
export function defaultContainer(container: ContainerShape): void {
  if (!container.imagePullPolicy) container.imagePullPolicy = imageTag(container.image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  container.terminationMessagePath ||= '/dev/termination-log';
  container.terminationMessagePolicy ||= 'File';
  // ResourceRequirements is a struct, not a pointer: the server always prints `resources: {}`.
  container.resources ??= {};
  for (const port of container.ports ?? []) port.protocol ||= 'TCP';
  for (const env of container.env ?? []) {
    const fieldRef = env.valueFrom?.fieldRef;
    if (fieldRef) fieldRef.apiVersion ||= 'v1';
  }
  defaultProbe(container.livenessProbe);
  defaultProbe(container.readinessProbe);
  defaultProbe(container.startupProbe);
  defaultHttpGet(container.lifecycle?.postStart?.httpGet);
  defaultHttpGet(container.lifecycle?.preStop?.httpGet);
}

const VOLUME_SOURCES = ['hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image'];

function defaultVolume(volume: VolumeShape): void {
  // SetDefaults_Volume: a volume naming no source is an emptyDir.
  if (!VOLUME_SOURCES.some((source) => volume[source] !== undefined)) volume['emptyDir'] = {};
  for (const source of [volume.configMap, volume.secret, volume.downwardAPI, volume.projected]) {
    if (source && source.defaultMode === undefined) source.defaultMode = DEFAULT_FILE_MODE;
  }
  if (volume.hostPath && volume.hostPath.type === undefined) volume.hostPath.type = '';
}

/** Host-network pods expose container ports on the host: hostPort defaults to containerPort. */
function defaultHostNetworkPorts(containers: ContainerShape[] | undefined): void {
  for (const container of containers ?? []) {
    for (const port of container.ports ?? []) {
      if (!port.hostPort && port.containerPort) port.hostPort = port.containerPort;
    }
  }
}

/** SetDefaults_PodSpec plus the defaults of its containers and volumes. */
export function defaultPodSpec(spec: PodSpecShape): void {
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.restartPolicy ||= 'Always';
  if (spec.hostNetwork) {
    defaultHostNetworkPorts(spec.containers);
    defaultHostNetworkPorts(spec.initContainers);
  }
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  spec.schedulerName ||= 'default-scheduler';
  for (const container of spec.initContainers ?? []) defaultContainer(container);
  for (const container of spec.containers ?? []) defaultContainer(container);
  for (const volume of spec.volumes ?? []) defaultVolume(volume);
}

/**
 * A PodTemplateSpec as the server returns it: the spec defaulted, and `creationTimestamp: null`
 * in its metadata, since Go serialises the zero ObjectMeta time as null.
 */
export function defaultPodTemplate(template: PodTemplateShape | undefined): PodTemplateShape {
  const out: PodTemplateShape = template ?? {};
  out.metadata ??= {};
  if (out.metadata.creationTimestamp === undefined) out.metadata.creationTimestamp = null;
  out.spec ??= {};
  defaultPodSpec(out.spec);
  return out;
}
