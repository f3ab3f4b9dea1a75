/**
 * Typed views of the loose stored JSON that defaulting and validation read and write. Every
 * field is optional (clients may send anything); unknown fields pass through untouched.
 */

export type IntOrString = number | string;

export interface LabelSelectorShape {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

export interface ProbeShape {
  httpGet?: HttpGetShape;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  [key: string]: unknown;
}

export interface HttpGetShape {
  path?: string;
  scheme?: string;
  port?: IntOrString;
  [key: string]: unknown;
}

export interface ContainerShape {
  name?: string;
  image?: string;
  imagePullPolicy?: string;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  restartPolicy?: string;
  resources?: { limits?: Record<string, string | number>; requests?: Record<string, string | number>; [key: string]: unknown };
  ports?: Array<{ containerPort?: number; hostPort?: number; protocol?: string; name?: string; [key: string]: unknown }>;
  env?: Array<{ name?: string; valueFrom?: { fieldRef?: { apiVersion?: string; fieldPath?: string } } & Record<string, unknown> }>;
  volumeMounts?: Array<{ name?: string; mountPath?: string; [key: string]: unknown }>;
  livenessProbe?: ProbeShape;
  readinessProbe?: ProbeShape;
  startupProbe?: ProbeShape;
  lifecycle?: { postStart?: { httpGet?: HttpGetShape }; preStop?: { httpGet?: HttpGetShape } };
  [key: string]: unknown;
}

export interface VolumeShape {
  name?: string;
  configMap?: { defaultMode?: number; [key: string]: unknown };
  secret?: { defaultMode?: number; [key: string]: unknown };
  downwardAPI?: { defaultMode?: number; [key: string]: unknown };
  projected?: { defaultMode?: number; [key: string]: unknown };
  hostPath?: { path?: string; type?: string };
  [key: string]: unknown;
}

export interface TolerationShape {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface PodSpecShape {
  containers?: ContainerShape[];
  initContainers?: ContainerShape[];
  volumes?: VolumeShape[];
  restartPolicy?: string;
  dnsPolicy?: string;
  hostNetwork?: boolean;
  securityContext?: Record<string, unknown>;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  schedulerName?: string;
  serviceAccountName?: string;
  serviceAccount?: string;
  enableServiceLinks?: boolean;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: string;
  tolerations?: TolerationShape[];
  nodeName?: string;
  [key: string]: unknown;
}

export interface PodTemplateShape {
  metadata?: { labels?: Record<string, string>; creationTimestamp?: string | null; [key: string]: unknown };
  spec?: PodSpecShape;
}

/** The `spec` of the workload kinds, loosely: each kind reads the fields it has. */
export interface WorkloadSpecShape {
  replicas?: number;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  progressDeadlineSeconds?: number;
  selector?: LabelSelectorShape;
  template?: PodTemplateShape;
  [key: string]: unknown;
}
