/**
 * Column definitions as kube-apiserver's printers declare them (pkg/printers/internalversion),
 * in order. The server always prints wide rows; kubectl hides priority-1 columns without `-o wide`.
 */
import { ACCESS_COLUMNS } from './access.ts';
import { HISTORY_COLUMNS } from './history.ts';
import { QUOTA_COLUMNS } from './quota.ts';
import type { TableColumnDefinition } from './types.ts';

export const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
export const AGE_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
const CONTAINERS_DOC = 'Names of each container in the template.';
const IMAGES_DOC = 'Images referenced by each container in the template.';
const READY_PODS_DOC = 'Number of the pod with ready state';

function column(name: string, type: TableColumnDefinition['type'], description: string, priority = 0, format = ''): TableColumnDefinition {
  return { name, type, format, description, priority };
}

const nameColumn = (priority = 0) => column('Name', 'string', NAME_DOC, priority, 'name');
const ageColumn = () => column('Age', 'string', AGE_DOC);
const containersColumns = () => [column('Containers', 'string', CONTAINERS_DOC, 1), column('Images', 'string', IMAGES_DOC, 1)];
const selectorColumn = (description: string) => column('Selector', 'string', description, 1);

const POD_COLUMNS = [
  nameColumn(),
  column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
  column('Status', 'string', 'The aggregate status of the containers in this pod.'),
  column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
  ageColumn(),
  column('IP', 'string', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
  column('Node', 'string', 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename', 1),
  column('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.', 1),
  column('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates', 1),
];

const DEPLOYMENT_COLUMNS = [
  nameColumn(),
  column('Ready', 'string', READY_PODS_DOC),
  column('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
  column('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
  ageColumn(),
  ...containersColumns(),
  selectorColumn("Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels."),
];

const REPLICASET_COLUMNS = [
  nameColumn(),
  column('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
  column('Current', 'integer', 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
  column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
  ageColumn(),
  ...containersColumns(),
  selectorColumn("Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors"),
];

const STATEFULSET_COLUMNS = [nameColumn(), column('Ready', 'string', READY_PODS_DOC), ageColumn(), ...containersColumns()];

const DAEMONSET_COLUMNS = [
  nameColumn(),
  column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
  column('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
  column('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.'),
  column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
  column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
  column('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
  ageColumn(),
  ...containersColumns(),
  selectorColumn("A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors"),
];

const JOB_SELECTOR_DOC =
  'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';

const JOB_COLUMNS = [
  nameColumn(),
  column('Status', 'string', 'Status of the job.'),
  column('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
  column('Duration', 'string', 'Time required to complete the job.'),
  ageColumn(),
  ...containersColumns(),
  selectorColumn(JOB_SELECTOR_DOC),
];

const CRONJOB_COLUMNS = [
  nameColumn(),
  column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
  column('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process.'),
  column('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
  column('Active', 'integer', 'A list of pointers to currently running jobs.'),
  column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
  ageColumn(),
  ...containersColumns(),
  selectorColumn(JOB_SELECTOR_DOC),
];

const HPA_COLUMNS = [
  nameColumn(),
  column('Reference', 'string', 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.'),
  column('Targets', 'string', 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).'),
  column('MinPods', 'string', 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.'),
  column('MaxPods', 'string', 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.'),
  column('Replicas', 'string', 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.'),
  ageColumn(),
];

const SERVICE_COLUMNS = [
  nameColumn(),
  column('Type', 'string', 'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.'),
  column('Cluster-IP', 'string', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
  column('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.'),
  column('Port(s)', 'string', 'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies'),
  ageColumn(),
  selectorColumn('Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/'),
];

const ENDPOINTS_COLUMNS = [
  nameColumn(),
  column('Endpoints', 'string', 'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share.'),
  ageColumn(),
];

const NODE_INFO = 'reported by the node.';
const NODE_COLUMNS = [
  nameColumn(),
  column('Status', 'string', 'The status of the node'),
  column('Roles', 'string', 'The roles of the node'),
  ageColumn(),
  column('Version', 'string', `Kubelet Version ${NODE_INFO}`),
  column('Internal-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses', 1),
  column('External-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses', 1),
  column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
  column('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
  column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
];

const EVENT_COLUMNS = [
  column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
  column('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
  column('Object', 'string', 'The object that this event is about.'),
  column('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].', 1),
  column('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
  column('Message', 'string', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
  column('Count', 'string', 'The number of times this event has occurred.', 1),
  nameColumn(1),
];

const NAMESPACE_COLUMNS = [nameColumn(), column('Status', 'string', 'The status of the namespace'), ageColumn()];

const CONFIGMAP_COLUMNS = [
  nameColumn(),
  column('Data', 'string', "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field."),
  ageColumn(),
];

const SECRET_COLUMNS = [
  nameColumn(),
  column('Type', 'string', 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types'),
  column('Data', 'string', "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4"),
  ageColumn(),
];

/** Kinds without a dedicated printer get upstream's default Name + Age table. */
const DEFAULT_COLUMNS = [nameColumn(), ageColumn()];

const BY_KIND: Record<string, TableColumnDefinition[]> = {
  Pod: POD_COLUMNS,
  Deployment: DEPLOYMENT_COLUMNS,
  ReplicaSet: REPLICASET_COLUMNS,
  StatefulSet: STATEFULSET_COLUMNS,
  DaemonSet: DAEMONSET_COLUMNS,
  Job: JOB_COLUMNS,
  CronJob: CRONJOB_COLUMNS,
  HorizontalPodAutoscaler: HPA_COLUMNS,
  Service: SERVICE_COLUMNS,
  Endpoints: ENDPOINTS_COLUMNS,
  Node: NODE_COLUMNS,
  Event: EVENT_COLUMNS,
  Namespace: NAMESPACE_COLUMNS,
  ConfigMap: CONFIGMAP_COLUMNS,
  Secret: SECRET_COLUMNS,
  ...ACCESS_COLUMNS,
  ...QUOTA_COLUMNS,
  ...HISTORY_COLUMNS,
};

/** The column definitions for a kind (fresh copies: callers may serialise or mutate them). */
export function columnsFor(kind: string): TableColumnDefinition[] {
  return (BY_KIND[kind] ?? DEFAULT_COLUMNS).map((c) => ({ ...c }));
}
