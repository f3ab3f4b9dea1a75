/** core/v1 Pod, PodSpec, PodStatus and PodTemplateSpec. */
import {
  ATOMIC,
  ATOMIC_MAP,
  CORE,
  TIME,
  arr,
  bool,
  int,
  int64,
  kind,
  map,
  mergeBy,
  obj,
  objectMeta,
  ref,
  str,
  type Schema,
} from './schema.ts';

function podSpec(): Schema {
  return obj(
    'PodSpec is a description of a pod.',
    {
      activeDeadlineSeconds: int64(
        'Optional duration in seconds the pod may be active on the node relative to StartTime before the system will actively try to mark it failed and kill associated containers. Value must be a positive integer.',
      ),
      affinity: ref(`${CORE}Affinity`, "If specified, the pod's scheduling constraints"),
      automountServiceAccountToken: bool('AutomountServiceAccountToken indicates whether a service account token should be automatically mounted.'),
      containers: arr(
        ref(`${CORE}Container`),
        'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.',
        mergeBy('name'),
      ),
      dnsPolicy: str(
        "Set DNS policy for the pod. Defaults to \"ClusterFirst\". Valid values are 'ClusterFirstWithHostNet', 'ClusterFirst', 'Default' or 'None'. DNS parameters given in DNSConfig will be merged with the policy selected with DNSPolicy.",
        { enum: ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'] },
      ),
      enableServiceLinks: bool("EnableServiceLinks indicates whether information about services should be injected into pod's environment variables, matching the syntax of Docker links. Optional: Defaults to true."),
      ephemeralContainers: arr(
        ref(`${CORE}EphemeralContainer`),
        "List of ephemeral containers run in this pod. Ephemeral containers may be run in an existing pod to perform user-initiated actions such as debugging. This list cannot be specified when creating a pod, and it cannot be modified by updating the pod spec. In order to add an ephemeral container to an existing pod, use the pod's ephemeralcontainers subresource.",
        mergeBy('name'),
      ),
      hostIPC: bool("Use the host's ipc namespace. Optional: Default to false."),
      hostNetwork: bool("Host networking requested for this pod. Use the host's network namespace. Default to false."),
      hostPID: bool("Use the host's pid namespace. Optional: Default to false."),
      hostname: str("Specifies the hostname of the Pod. If not specified, the pod's hostname will be set to a system-defined value."),
      imagePullSecrets: arr(
        ref(`${CORE}LocalObjectReference`),
        'ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec. If specified, these secrets will be passed to individual puller implementations for them to use. More info: https://kubernetes.io/docs/concepts/containers/images#specifying-imagepullsecrets-on-a-pod',
        mergeBy('name'),
      ),
      initContainers: arr(
        ref(`${CORE}Container`),
        'List of initialization containers belonging to the pod. Init containers are executed in order prior to containers being started. If any init container fails, the pod is considered to have failed and is handled according to its restartPolicy. More info: https://kubernetes.io/docs/concepts/workloads/pods/init-containers/',
        mergeBy('name'),
      ),
      nodeName: str(
        'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod.',
      ),
      nodeSelector: map(
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
      ),
      preemptionPolicy: str('PreemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.'),
      priority: int('The priority value. Various system components use this field to find the priority of the pod. The higher the value, the higher the priority.'),
      priorityClassName: str(
        'If specified, indicates the pod\'s priority. "system-node-critical" and "system-cluster-critical" are two special keywords which indicate the highest priorities. Any other name must be defined by creating a PriorityClass object with that name.',
      ),
      restartPolicy: str(
        'Restart policy for all containers within the pod. One of Always, OnFailure, Never. In some contexts, only a subset of those values may be permitted. Default to Always. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy',
        { enum: ['Always', 'Never', 'OnFailure'] },
      ),
      schedulerName: str('If specified, the pod will be dispatched by specified scheduler. If not specified, the pod will be dispatched by default scheduler.'),
      securityContext: ref(`${CORE}PodSecurityContext`, 'SecurityContext holds pod-level security attributes and common container settings. Optional: Defaults to empty.'),
      serviceAccount: str('DeprecatedServiceAccount is a deprecated alias for ServiceAccountName. Deprecated: Use serviceAccountName instead.'),
      serviceAccountName: str('ServiceAccountName is the name of the ServiceAccount to use to run this pod. More info: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/'),
      subdomain: str('If specified, the fully qualified Pod hostname will be "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>". If not specified, the pod will not have a domainname at all.'),
      terminationGracePeriodSeconds: int64(
        'Optional duration in seconds the pod needs to terminate gracefully. May be decreased in delete request. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). Defaults to 30 seconds.',
      ),
      tolerations: arr(ref(`${CORE}Toleration`), "If specified, the pod's tolerations.", ATOMIC),
      topologySpreadConstraints: arr(
        ref(`${CORE}TopologySpreadConstraint`),
        'TopologySpreadConstraints describes how a group of pods ought to spread across topology domains. Scheduler will schedule pods in a way which abides by the constraints. All topologySpreadConstraints are ANDed.',
        mergeBy('topologyKey', { mapKeys: ['topologyKey', 'whenUnsatisfiable'] }),
      ),
      volumes: arr(
        ref(`${CORE}Volume`),
        'List of volumes that can be mounted by containers belonging to the pod. More info: https://kubernetes.io/docs/concepts/storage/volumes',
        mergeBy('name', { strategy: 'merge,retainKeys' }),
      ),
    },
    { required: ['containers'] },
  );
}

function podStatus(): Schema {
  return obj(
    'PodStatus represents information about the status of a pod. Status may trail the actual state of a system, especially if the node that hosts the pod cannot contact the control plane.',
    {
      conditions: arr(
        ref(`${CORE}PodCondition`),
        'Current service state of pod. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions',
        mergeBy('type'),
      ),
      containerStatuses: arr(
        ref(`${CORE}ContainerStatus`),
        'Statuses of containers in this pod. Each container in the pod should have at most one status in this list, and all statuses should be for containers in the pod. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-and-container-status',
        ATOMIC,
      ),
      hostIP: str('hostIP holds the IP address of the host to which the pod is assigned. Empty if the pod has not started yet.'),
      hostIPs: arr(ref(`${CORE}HostIP`), 'hostIPs holds the IP addresses allocated to the host.', mergeBy('ip')),
      initContainerStatuses: arr(
        ref(`${CORE}ContainerStatus`),
        'Statuses of init containers in this pod. The most recent successful non-restartable init container will have ready = true, the most recently started container will have startTime set.',
        ATOMIC,
      ),
      message: str('A human readable message indicating details about why the pod is in this condition.'),
      nominatedNodeName: str('nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.'),
      phase: str(
        "The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle. Pending: the pod has been accepted but one or more container images has not been created. Running: the pod has been bound to a node and all containers have been created; at least one is still running. Succeeded: all containers terminated in success. Failed: all containers terminated and at least one in failure. Unknown: the state of the pod could not be obtained. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-phase",
        { enum: ['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'] },
      ),
      podIP: str('podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.'),
      podIPs: arr(ref(`${CORE}PodIP`), 'podIPs holds the IP addresses allocated to the pod. If this field is specified, the 0th entry must match the podIP field.', mergeBy('ip')),
      qosClass: str('The Quality of Service (QOS) classification assigned to the pod based on resource requirements. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-qos/#quality-of-service-classes', {
        enum: ['BestEffort', 'Burstable', 'Guaranteed'],
      }),
      reason: str("A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'"),
      startTime: ref(TIME, 'RFC 3339 date and time at which the object was acknowledged by the Kubelet. This is before the Kubelet pulled the container image(s) for the pod.'),
    },
  );
}

function containerStatuses(): Record<string, Schema> {
  return {
    [`${CORE}ContainerStatus`]: obj(
      'ContainerStatus contains details for the current status of this container.',
      {
        containerID: str("ContainerID is the ID of the container in the format '<type>://<container_id>'."),
        image: str('Image is the name of container image that the container is running.'),
        imageID: str("ImageID is the image ID of the container's image."),
        lastState: ref(`${CORE}ContainerState`, "LastTerminationState holds the last termination state of the container to help debug container crashes and restarts."),
        name: str('Name is a DNS_LABEL representing the unique name of the container. Each container in a pod must have a unique name across all container types. Cannot be updated.'),
        ready: bool('Ready specifies whether the container is currently passing its readiness check. The value will change as readiness probes keep executing.'),
        restartCount: int('RestartCount holds the number of times the container has been restarted. Kubelet makes an effort to always increment the value, but there are cases when the state may be lost due to node restarts and then the value may be reset to 0.'),
        started: bool('Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe.'),
        state: ref(`${CORE}ContainerState`, 'State holds details about the container\'s current condition.'),
      },
      { required: ['name', 'ready', 'restartCount', 'image', 'imageID'] },
    ),
    [`${CORE}ContainerState`]: obj(
      'ContainerState holds a possible state of container. Only one of its members may be specified. If none of them is specified, the default one is ContainerStateWaiting.',
      {
        running: ref(`${CORE}ContainerStateRunning`, 'Details about a running container'),
        terminated: ref(`${CORE}ContainerStateTerminated`, 'Details about a terminated container'),
        waiting: ref(`${CORE}ContainerStateWaiting`, 'Details about a waiting container'),
      },
    ),
    [`${CORE}ContainerStateRunning`]: obj('ContainerStateRunning is a running state of a container.', {
      startedAt: ref(TIME, 'Time at which the container was last (re-)started'),
    }),
    [`${CORE}ContainerStateWaiting`]: obj('ContainerStateWaiting is a waiting state of a container.', {
      message: str('Message regarding why the container is not yet running.'),
      reason: str('(brief) reason the container is not yet running.'),
    }),
    [`${CORE}ContainerStateTerminated`]: obj(
      'ContainerStateTerminated is a terminated state of a container.',
      {
        containerID: str("Container's ID in the format '<type>://<container_id>'"),
        exitCode: int('Exit status from the last termination of the container'),
        finishedAt: ref(TIME, 'Time at which the container last terminated'),
        message: str('Message regarding the last termination of the container'),
        reason: str('(brief) reason from the last termination of the container'),
        signal: int('Signal from the last termination of the container'),
        startedAt: ref(TIME, 'Time at which previous execution of the container started'),
      },
      { required: ['exitCode'] },
    ),
    [`${CORE}PodIP`]: obj('PodIP represents a single IP address allocated to the pod.', { ip: str('IP is the IP address assigned to the pod') }, { required: ['ip'] }),
    [`${CORE}HostIP`]: obj('HostIP represents a single IP address allocated to the host.', { ip: str('IP is the IP address assigned to the host') }, { required: ['ip'] }),
  };
}

/** Pod and the pod-level types workloads embed. */
export function podDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}Pod`]: kind(
      { group: '', kind: 'Pod', version: 'v1' },
      'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
      {
        spec: ref(`${CORE}PodSpec`, 'Specification of the desired behavior of the pod. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
        status: ref(
          `${CORE}PodStatus`,
          'Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
        ),
      },
    ),
    [`${CORE}PodSpec`]: podSpec(),
    [`${CORE}PodStatus`]: podStatus(),
    [`${CORE}PodCondition`]: obj(
      'PodCondition contains details for the current condition of this pod.',
      {
        lastProbeTime: ref(TIME, 'Last time we probed the condition.'),
        lastTransitionTime: ref(TIME, 'Last time the condition transitioned from one status to another.'),
        message: str('Human-readable message indicating details about last transition.'),
        reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
        status: str('Status is the status of the condition. Can be True, False, Unknown. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions'),
        type: str('Type is the type of the condition. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions'),
      },
      { required: ['type', 'status'] },
    ),
    ...containerStatuses(),
    [`${CORE}PodTemplateSpec`]: obj('PodTemplateSpec describes the data a pod should have when created from a template', {
      metadata: objectMeta(),
      spec: ref(`${CORE}PodSpec`, 'Specification of the desired behavior of the pod. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
    }),
    [`${CORE}PodSecurityContext`]: obj(
      'PodSecurityContext holds pod-level security attributes and common container settings. Some fields are also present in container.securityContext.  Field values of container.securityContext take precedence over field values of PodSecurityContext.',
      {
        fsGroup: int64('A special supplemental group that applies to all containers in a pod. Volumes that support ownership management are owned and writable by this GID.'),
        runAsGroup: int64('The GID to run the entrypoint of the container process. Uses runtime default if unset.'),
        runAsNonRoot: bool('Indicates that the container must run as a non-root user.'),
        runAsUser: int64('The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified.'),
        supplementalGroups: arr({ type: 'integer', format: 'int64' }, 'A list of groups applied to the first process run in each container, in addition to the container\'s primary GID.', ATOMIC),
      },
    ),
    [`${CORE}LocalObjectReference`]: obj(
      'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
      { name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names') },
      { extra: ATOMIC_MAP },
    ),
  };
}
