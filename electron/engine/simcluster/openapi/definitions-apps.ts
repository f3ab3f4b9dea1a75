/** apps/v1: Deployment, ReplicaSet, StatefulSet and DaemonSet with their spec/status types, and ControllerRevision. */
import {
  APPS,
  ATOMIC,
  CORE,
  INT_OR_STRING,
  LABEL_SELECTOR,
  TIME,
  arr,
  condition,
  int,
  int64,
  kind,
  mergeBy,
  obj,
  ref,
  str,
  type Schema,
} from './schema.ts';

const SPEC_AND_STATUS = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status';

function workload(kindName: string, description: string): Schema {
  return kind({ group: 'apps', kind: kindName, version: 'v1' }, description, {
    spec: ref(`${APPS}${kindName}Spec`, `Specification of the desired behavior of the ${kindName}. More info: ${SPEC_AND_STATUS}`),
    status: ref(`${APPS}${kindName}Status`, `Most recently observed status of the ${kindName}. Populated by the system. Read-only. More info: ${SPEC_AND_STATUS}`),
  });
}

const MIN_READY = 'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)';
const REVISION_HISTORY = 'The number of old history to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.';

function conditions(owner: string): Schema {
  return arr(ref(`${APPS}${owner}Condition`), `Represents the latest available observations of a ${owner.toLowerCase()}'s current state.`, mergeBy('type'));
}

function deploymentDefinitions(): Record<string, Schema> {
  return {
    [`${APPS}Deployment`]: workload('Deployment', 'Deployment enables declarative updates for Pods and ReplicaSets.'),
    [`${APPS}DeploymentSpec`]: obj(
      'DeploymentSpec is the specification of the desired behavior of the Deployment.',
      {
        minReadySeconds: int(MIN_READY),
        paused: { type: 'boolean', description: 'Indicates that the deployment is paused.' },
        progressDeadlineSeconds: int(
          'The maximum time in seconds for a deployment to make progress before it is considered to be failed. The deployment controller will continue to process failed deployments and a condition with a ProgressDeadlineExceeded reason will be surfaced in the deployment status. Note that progress will not be estimated during the time a deployment is paused. Defaults to 600s.',
        ),
        replicas: int('Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.'),
        revisionHistoryLimit: int(REVISION_HISTORY),
        selector: ref(
          LABEL_SELECTOR,
          "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
        ),
        strategy: { ...ref(`${APPS}DeploymentStrategy`, 'The deployment strategy to use to replace existing pods with new ones.'), 'x-kubernetes-patch-strategy': 'retainKeys' },
        template: ref(`${CORE}PodTemplateSpec`, 'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".'),
      },
      { required: ['selector', 'template'] },
    ),
    [`${APPS}DeploymentStrategy`]: obj('DeploymentStrategy describes how to replace existing pods with new ones.', {
      rollingUpdate: ref(`${APPS}RollingUpdateDeployment`, 'Rolling update config params. Present only if DeploymentStrategyType = RollingUpdate.'),
      type: str('Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.', { enum: ['Recreate', 'RollingUpdate'] }),
    }),
    [`${APPS}RollingUpdateDeployment`]: obj('Spec to control the desired behavior of rolling update.', {
      maxSurge: ref(
        INT_OR_STRING,
        'The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up. Defaults to 25%.',
      ),
      maxUnavailable: ref(
        INT_OR_STRING,
        'The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding down. This can not be 0 if MaxSurge is 0. Defaults to 25%.',
      ),
    }),
    [`${APPS}DeploymentStatus`]: obj('DeploymentStatus is the most recently observed status of the Deployment.', {
      availableReplicas: int('Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.'),
      collisionCount: int('Count of hash collisions for the Deployment. The Deployment controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ReplicaSet.'),
      conditions: conditions('Deployment'),
      observedGeneration: int64('The generation observed by the deployment controller.'),
      readyReplicas: int('Total number of non-terminating pods targeted by this Deployment with a Ready Condition.'),
      replicas: int('Total number of non-terminating pods targeted by this deployment (their labels match the selector).'),
      unavailableReplicas: int('Total number of unavailable pods targeted by this deployment. This is the total number of pods that are still required for the deployment to have 100% available capacity.'),
      updatedReplicas: int('Total number of non-terminating pods targeted by this deployment that have the desired template spec.'),
    }),
    [`${APPS}DeploymentCondition`]: condition('Deployment', { lastUpdateTime: ref(TIME, 'The last time this condition was updated.') }),
  };
}

function replicaSetDefinitions(): Record<string, Schema> {
  return {
    [`${APPS}ReplicaSet`]: workload('ReplicaSet', 'ReplicaSet ensures that a specified number of pod replicas are running at any given time.'),
    [`${APPS}ReplicaSetSpec`]: obj(
      'ReplicaSetSpec is the specification of a ReplicaSet.',
      {
        minReadySeconds: int(MIN_READY),
        replicas: int('Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#how-a-replicaset-works'),
        selector: ref(LABEL_SELECTOR, "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels."),
        template: ref(
          `${CORE}PodTemplateSpec`,
          'Template is the object that describes the pod that will be created if insufficient replicas are detected. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#pod-template',
        ),
      },
      { required: ['selector'] },
    ),
    [`${APPS}ReplicaSetStatus`]: obj(
      'ReplicaSetStatus represents the current status of a ReplicaSet.',
      {
        availableReplicas: int('The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.'),
        conditions: conditions('ReplicaSet'),
        fullyLabeledReplicas: int('The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.'),
        observedGeneration: int64('ObservedGeneration reflects the generation of the most recently observed ReplicaSet.'),
        readyReplicas: int('The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.'),
        replicas: int('Replicas is the most recently observed number of non-terminating pods.'),
      },
      { required: ['replicas'] },
    ),
    [`${APPS}ReplicaSetCondition`]: condition('ReplicaSet'),
  };
}

function statefulSetDefinitions(): Record<string, Schema> {
  return {
    [`${APPS}StatefulSet`]: workload(
      'StatefulSet',
      'StatefulSet represents a set of pods with consistent identities. Identities are defined as:\n  - Network: A single stable DNS and hostname.\n  - Storage: As many VolumeClaims as requested.\n\nThe StatefulSet guarantees that a given network identity will always map to the same storage identity.',
    ),
    [`${APPS}StatefulSetSpec`]: obj(
      'A StatefulSetSpec is the specification of a StatefulSet.',
      {
        minReadySeconds: int(MIN_READY),
        podManagementPolicy: str(
          'podManagementPolicy controls how pods are created during initial scale up, when replacing pods on nodes, or when scaling down. The default policy is `OrderedReady`, where pods are created in increasing order (pod-0, then pod-1, etc) and the controller will wait until each pod is ready before continuing. When scaling down, the pods are removed in the opposite order. The alternative policy is `Parallel` which will create pods in parallel to match the desired scale without waiting, and on scale down will delete all pods at once.',
          { enum: ['OrderedReady', 'Parallel'] },
        ),
        replicas: int('replicas is the desired number of replicas of the given Template. These are replicas in the sense that they are instantiations of the same Template, but individual replicas also have a consistent identity. If unspecified, defaults to 1.'),
        revisionHistoryLimit: int(
          "revisionHistoryLimit is the maximum number of revisions that will be maintained in the StatefulSet's revision history. The revision history consists of all revisions not represented by a currently applied StatefulSetSpec version. The default value is 10.",
        ),
        selector: ref(LABEL_SELECTOR, "selector is a label query over pods that should match the replica count. It must match the pod template's labels."),
        serviceName: str(
          'serviceName is the name of the service that governs this StatefulSet. This service must exist before the StatefulSet, and is responsible for the network identity of the set. Pods get DNS/hostnames that follow the pattern: pod-specific-string.serviceName.default.svc.cluster.local where "pod-specific-string" is managed by the StatefulSet controller.',
        ),
        template: ref(
          `${CORE}PodTemplateSpec`,
          'template is the object that describes the pod that will be created if insufficient replicas are detected. Each pod stamped out by the StatefulSet will fulfill this Template, but have a unique identity from the rest of the StatefulSet.',
        ),
        updateStrategy: ref(`${APPS}StatefulSetUpdateStrategy`, 'updateStrategy indicates the StatefulSetUpdateStrategy that will be employed to update Pods in the StatefulSet when a revision is made to Template.'),
        volumeClaimTemplates: arr(
          ref(`${CORE}PersistentVolumeClaim`),
          'volumeClaimTemplates is a list of claims that pods are allowed to reference. The StatefulSet controller is responsible for mapping network identities to claims in a way that maintains the identity of a pod. Every claim in this list must have at least one matching (by name) volumeMount in one container in the template.',
          ATOMIC,
        ),
      },
      { required: ['selector', 'template'] },
    ),
    [`${APPS}StatefulSetUpdateStrategy`]: obj(
      'StatefulSetUpdateStrategy indicates the strategy that the StatefulSet controller will use to perform updates. It includes any additional parameters necessary to perform the update for the indicated strategy.',
      {
        rollingUpdate: ref(`${APPS}RollingUpdateStatefulSetStrategy`, 'RollingUpdate is used to communicate parameters when Type is RollingUpdateStatefulSetStrategyType.'),
        type: str('Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate.', { enum: ['OnDelete', 'RollingUpdate'] }),
      },
    ),
    [`${APPS}RollingUpdateStatefulSetStrategy`]: obj('RollingUpdateStatefulSetStrategy is used to communicate parameter for RollingUpdateStatefulSetStrategyType.', {
      maxUnavailable: ref(INT_OR_STRING, 'The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Defaults to 1.'),
      partition: int('Partition indicates the ordinal at which the StatefulSet should be partitioned for updates. During a rolling update, all pods from ordinal Replicas-1 to Partition are updated. All pods from ordinal Partition-1 to 0 remain untouched. The default value is 0.'),
    }),
    [`${APPS}StatefulSetStatus`]: obj(
      'StatefulSetStatus represents the current state of a StatefulSet.',
      {
        availableReplicas: int('Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset.'),
        collisionCount: int('collisionCount is the count of hash collisions for the StatefulSet.'),
        conditions: conditions('StatefulSet'),
        currentReplicas: int('currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by currentRevision.'),
        currentRevision: str('currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [0,currentReplicas).'),
        observedGeneration: int64("observedGeneration is the most recent generation observed for this StatefulSet. It corresponds to the StatefulSet's generation, which is updated on mutation by the API Server."),
        readyReplicas: int('readyReplicas is the number of pods created for this StatefulSet with a Ready Condition.'),
        replicas: int('replicas is the number of Pods created by the StatefulSet controller.'),
        updateRevision: str('updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [replicas-updatedReplicas,replicas)'),
        updatedReplicas: int('updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by updateRevision.'),
      },
      { required: ['replicas'] },
    ),
    [`${APPS}StatefulSetCondition`]: condition('StatefulSet'),
  };
}

function daemonSetDefinitions(): Record<string, Schema> {
  return {
    [`${APPS}DaemonSet`]: workload('DaemonSet', 'DaemonSet represents the configuration of a daemon set.'),
    [`${APPS}DaemonSetSpec`]: obj(
      'DaemonSetSpec is the specification of a daemon set.',
      {
        minReadySeconds: int('The minimum number of seconds for which a newly created DaemonSet pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0.'),
        revisionHistoryLimit: int(REVISION_HISTORY),
        selector: ref(LABEL_SELECTOR, "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels."),
        template: ref(
          `${CORE}PodTemplateSpec`,
          "An object that describes the pod that will be created. The DaemonSet will create exactly one copy of this pod on every node that matches the template's node selector (or on every node if no node selector is specified). The only allowed template.spec.restartPolicy value is \"Always\".",
        ),
        updateStrategy: ref(`${APPS}DaemonSetUpdateStrategy`, 'An update strategy to replace existing DaemonSet pods with new pods.'),
      },
      { required: ['selector', 'template'] },
    ),
    [`${APPS}DaemonSetUpdateStrategy`]: obj('DaemonSetUpdateStrategy is a struct used to control the update strategy for a DaemonSet.', {
      rollingUpdate: ref(`${APPS}RollingUpdateDaemonSet`, 'Rolling update config params. Present only if type = "RollingUpdate".'),
      type: str('Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate.', { enum: ['OnDelete', 'RollingUpdate'] }),
    }),
    [`${APPS}RollingUpdateDaemonSet`]: obj('Spec to control the desired behavior of daemon set rolling update.', {
      maxSurge: ref(INT_OR_STRING, 'The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update. Defaults to 0.'),
      maxUnavailable: ref(INT_OR_STRING, 'The maximum number of DaemonSet pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of total number of DaemonSet pods at the start of the update (ex: 10%). Default value is 1.'),
    }),
    [`${APPS}DaemonSetStatus`]: obj(
      'DaemonSetStatus represents the current status of a daemon set.',
      {
        collisionCount: int('Count of hash collisions for the DaemonSet.'),
        conditions: conditions('DaemonSet'),
        currentNumberScheduled: int('The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
        desiredNumberScheduled: int('The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).'),
        numberAvailable: int('The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
        numberMisscheduled: int('The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod.'),
        numberReady: int('numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.'),
        numberUnavailable: int('The number of nodes that should be running the daemon pod and have none of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
        observedGeneration: int64('The most recent generation observed by the daemon set controller.'),
        updatedNumberScheduled: int('The total number of nodes that are running updated daemon pod'),
      },
      { required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'] },
    ),
    [`${APPS}DaemonSetCondition`]: condition('DaemonSet'),
  };
}

/** ControllerRevision: an immutable snapshot of a StatefulSet's or DaemonSet's template (upstream's text). */
function controllerRevisionDefinitions(): Record<string, Schema> {
  return {
    [`${APPS}ControllerRevision`]: kind(
      { group: 'apps', kind: 'ControllerRevision', version: 'v1' },
      'ControllerRevision implements an immutable snapshot of state data. Clients are responsible for serializing and deserializing the objects that contain their internal state. Once a ControllerRevision has been successfully created, it can not be updated. The API Server will fail validation of all requests that attempt to mutate the Data field. ControllerRevisions may, however, be deleted. Note that, due to its use by both the DaemonSet and StatefulSet controllers for update and rollback, this object is beta. However, it may be subject to name and representation changes in future releases, and clients should not depend on its stability. It is primarily for internal use by controllers.',
      {
        data: ref('io.k8s.apimachinery.pkg.runtime.RawExtension', 'Data is the serialized representation of the state.'),
        revision: int64('Revision indicates the revision of the state represented by Data.'),
      },
      ['revision'],
    ),
  };
}

/** Every apps/v1 definition. */
export function appsDefinitions(): Record<string, Schema> {
  return { ...deploymentDefinitions(), ...replicaSetDefinitions(), ...statefulSetDefinitions(), ...daemonSetDefinitions(), ...controllerRevisionDefinitions() };
}
