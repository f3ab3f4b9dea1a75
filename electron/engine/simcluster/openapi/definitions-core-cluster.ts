/** core/v1 cluster-scoped kinds: Namespace and Node with their spec and status types. */
import { ATOMIC, CORE, QUANTITY, TIME, arr, bool, condition, int, int64, kind, map, mergeBy, obj, ref, str, strs, type Schema } from './schema.ts';

function namespaceDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}Namespace`]: kind({ group: '', kind: 'Namespace', version: 'v1' }, 'Namespace provides a scope for Names. Use of multiple namespaces is optional.', {
      spec: ref(`${CORE}NamespaceSpec`, 'Spec defines the behavior of the Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
      status: ref(`${CORE}NamespaceStatus`, 'Status describes the current status of a Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
    }),
    [`${CORE}NamespaceSpec`]: obj('NamespaceSpec describes the attributes on a Namespace.', {
      finalizers: strs(
        'Finalizers is an opaque list of values that must be empty to permanently remove object from storage. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/',
        ATOMIC,
      ),
    }),
    [`${CORE}NamespaceStatus`]: obj('NamespaceStatus is information about the current status of a Namespace.', {
      conditions: arr(ref(`${CORE}NamespaceCondition`), "Represents the latest available observations of a namespace's current state.", mergeBy('type')),
      phase: str('Phase is the current lifecycle phase of the namespace. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/', { enum: ['Active', 'Terminating'] }),
    }),
    [`${CORE}NamespaceCondition`]: condition('Namespace'),
  };
}

function nodeStatus(): Schema {
  return obj('NodeStatus is information about the current status of a node.', {
    addresses: arr(
      ref(`${CORE}NodeAddress`),
      'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses',
      mergeBy('type'),
    ),
    allocatable: map('Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.', ref(QUANTITY)),
    capacity: map('Capacity represents the total resources of a node. More info: https://kubernetes.io/docs/reference/node/node-status/#capacity', ref(QUANTITY)),
    conditions: arr(
      ref(`${CORE}NodeCondition`),
      'Conditions is an array of current observed node conditions. More info: https://kubernetes.io/docs/reference/node/node-status/#condition',
      mergeBy('type'),
    ),
    daemonEndpoints: ref(`${CORE}NodeDaemonEndpoints`, 'Endpoints of daemons running on the Node.'),
    images: arr(ref(`${CORE}ContainerImage`), 'List of container images on this node', ATOMIC),
    nodeInfo: ref(`${CORE}NodeSystemInfo`, 'Set of ids/uuids to uniquely identify the node. More info: https://kubernetes.io/docs/reference/node/node-status/#info'),
    phase: str('NodePhase is the recently observed lifecycle phase of the node. The field is never populated, and now is deprecated.'),
  });
}

function nodeDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}Node`]: kind(
      { group: '', kind: 'Node', version: 'v1' },
      'Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).',
      {
        spec: ref(`${CORE}NodeSpec`, 'Spec defines the behavior of a node. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
        status: ref(`${CORE}NodeStatus`, 'Most recently observed status of the node. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
      },
    ),
    [`${CORE}NodeSpec`]: obj('NodeSpec describes the attributes that a node is created with.', {
      podCIDR: str('PodCIDR represents the pod IP range assigned to the node.'),
      podCIDRs: strs('podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node.', {
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      }),
      providerID: str('ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>'),
      taints: arr(ref(`${CORE}Taint`), "If specified, the node's taints.", ATOMIC),
      unschedulable: bool('Unschedulable controls node schedulability of new pods. By default, node is schedulable. More info: https://kubernetes.io/docs/concepts/nodes/node/#manual-node-administration'),
    }),
    [`${CORE}Taint`]: obj(
      'The node this Taint is attached to has the "effect" on any pod that does not tolerate the Taint.',
      {
        effect: str('Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute.', {
          enum: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
        }),
        key: str('Required. The taint key to be applied to a node.'),
        timeAdded: ref(TIME, 'TimeAdded represents the time at which the taint was added.'),
        value: str('The taint value corresponding to the taint key.'),
      },
      { required: ['key', 'effect'] },
    ),
    [`${CORE}NodeStatus`]: nodeStatus(),
    [`${CORE}NodeCondition`]: condition('Node', { lastHeartbeatTime: ref(TIME, 'Last time we got an update on a given condition.') }),
    [`${CORE}NodeAddress`]: obj(
      "NodeAddress contains information for the node's address.",
      { address: str('The node address.'), type: str('Node address type, one of Hostname, ExternalIP or InternalIP.') },
      { required: ['type', 'address'] },
    ),
    [`${CORE}NodeDaemonEndpoints`]: obj('NodeDaemonEndpoints lists ports opened by daemons running on the Node.', {
      kubeletEndpoint: ref(`${CORE}DaemonEndpoint`, 'Endpoint on which Kubelet is listening.'),
    }),
    [`${CORE}DaemonEndpoint`]: obj('DaemonEndpoint contains information about a single Daemon endpoint.', { Port: int('Port number of the given endpoint.') }, { required: ['Port'] }),
    [`${CORE}ContainerImage`]: obj('Describe a container image', {
      names: strs('Names by which this image is known. e.g. ["kubernetes.example/hyperkube:v1.0.7", "cloud-vendor.registry.example/cloud-vendor/hyperkube:v1.0.7"]', ATOMIC),
      sizeBytes: int64('The size of the image in bytes.'),
    }),
    [`${CORE}NodeSystemInfo`]: obj(
      'NodeSystemInfo is a set of ids/uuids to uniquely identify the node.',
      {
        architecture: str('The Architecture reported by the node'),
        bootID: str('Boot ID reported by the node.'),
        containerRuntimeVersion: str('ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).'),
        kernelVersion: str("Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."),
        kubeProxyVersion: str('Deprecated: KubeProxy Version reported by the node.'),
        kubeletVersion: str('Kubelet Version reported by the node.'),
        machineID: str('MachineID reported by the node. For unique machine identification in the cluster this field is preferred.'),
        operatingSystem: str('The Operating System reported by the node'),
        osImage: str('OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).'),
        systemUUID: str('SystemUUID reported by the node. For unique machine identification MachineID is preferred.'),
      },
      {
        required: ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture'],
      },
    ),
  };
}

/** Namespace and Node with everything they reference that no other core kind does. */
export function clusterDefinitions(): Record<string, Schema> {
  return { ...namespaceDefinitions(), ...nodeDefinitions() };
}
