/** core/v1 Service, Endpoints, ConfigMap, Secret and Event. */
import {
  ATOMIC,
  ATOMIC_MAP,
  CORE,
  INT_OR_STRING,
  META,
  MICRO_TIME,
  TIME,
  arr,
  bool,
  int,
  int64,
  kind,
  map,
  mergeBy,
  obj,
  ref,
  str,
  strs,
  type Schema,
} from './schema.ts';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const META_CONDITION = `${META}Condition`;

function serviceDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}Service`]: kind(
      { group: '', kind: 'Service', version: 'v1' },
      'Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.',
      {
        spec: ref(`${CORE}ServiceSpec`, 'Spec defines the behavior of a service. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
        status: ref(`${CORE}ServiceStatus`, 'Most recently observed status of the service. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
      },
    ),
    [`${CORE}ServiceSpec`]: obj('ServiceSpec describes the attributes that a user creates on a service.', {
      clusterIP: str(
        'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. "None" makes a headless service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
      ),
      clusterIPs: strs('ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly. The first entry must match the clusterIP field.', ATOMIC),
      externalName: str('externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record). Requires `type` to be "ExternalName".'),
      externalTrafficPolicy: str('externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service\'s "externally-facing" addresses (NodePorts, ExternalIPs, and LoadBalancer IPs).', {
        enum: ['Cluster', 'Local'],
      }),
      internalTrafficPolicy: str('InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP.', { enum: ['Cluster', 'Local'] }),
      ipFamilies: strs('IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service.', ATOMIC),
      ipFamilyPolicy: str('IPFamilyPolicy represents the dual-stack-ness requested or required by this Service. Valid values are "SingleStack", "PreferDualStack" and "RequireDualStack".'),
      ports: arr(
        ref(`${CORE}ServicePort`),
        'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
        mergeBy('port', { mapKeys: ['port', 'protocol'] }),
      ),
      selector: map(
        'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. More info: https://kubernetes.io/docs/concepts/services-networking/service/',
      ),
      sessionAffinity: str('Supports "ClientIP" and "None". Used to maintain session affinity. Must be ClientIP or None. Defaults to None.', { enum: ['ClientIP', 'None'] }),
      type: str(
        'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
        { enum: SERVICE_TYPES },
      ),
    }),
    [`${CORE}ServicePort`]: obj(
      "ServicePort contains information on service's port.",
      {
        appProtocol: str('The application protocol for this port. This is used as a hint for implementations to offer richer behavior for protocols that they understand.'),
        name: str("The name of this port within the service. This must be a DNS_LABEL. All ports within a ServiceSpec must have unique names. Optional if only one ServicePort is defined on this service."),
        nodePort: int('The port on each node on which this service is exposed when type is NodePort or LoadBalancer. Usually assigned by the system. More info: https://kubernetes.io/docs/concepts/services-networking/service/#type-nodeport'),
        port: int('The port that will be exposed by this service.'),
        protocol: str('The IP protocol for this port. Supports "TCP", "UDP", and "SCTP". Default is TCP.', { enum: ['SCTP', 'TCP', 'UDP'], default: 'TCP' }),
        targetPort: ref(
          INT_OR_STRING,
          "Number or name of the port to access on the pods targeted by the service. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME. If this is a string, it will be looked up as a named port in the target Pod's container ports. If this is not specified, the value of the 'port' field is used (an identity map). More info: https://kubernetes.io/docs/concepts/services-networking/service/#defining-a-service",
        ),
      },
      { required: ['port'] },
    ),
    [`${CORE}ServiceStatus`]: obj('ServiceStatus represents the current status of a service.', {
      conditions: arr(ref(META_CONDITION), 'Current service state', mergeBy('type')),
      loadBalancer: ref(`${CORE}LoadBalancerStatus`, 'LoadBalancer contains the current status of the load-balancer, if one is present.'),
    }),
    [`${CORE}LoadBalancerStatus`]: obj('LoadBalancerStatus represents the status of a load-balancer.', {
      ingress: arr(ref(`${CORE}LoadBalancerIngress`), 'Ingress is a list containing ingress points for the load-balancer.', ATOMIC),
    }),
    [`${CORE}LoadBalancerIngress`]: obj('LoadBalancerIngress represents the status of a load-balancer ingress point.', {
      hostname: str('Hostname is set for load-balancer ingress points that are DNS based (typically AWS load-balancers)'),
      ip: str('IP is set for load-balancer ingress points that are IP based (typically GCE or OpenStack load-balancers)'),
    }),
  };
}

function endpointsDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}Endpoints`]: kind(
      { group: '', kind: 'Endpoints', version: 'v1' },
      'Endpoints is a collection of endpoints that implement the actual service.',
      {
        subsets: arr(
          ref(`${CORE}EndpointSubset`),
          'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports.',
          ATOMIC,
        ),
      },
    ),
    [`${CORE}EndpointSubset`]: obj('EndpointSubset is a group of addresses with a common set of ports. The expanded set of endpoints is the Cartesian product of Addresses x Ports.', {
      addresses: arr(ref(`${CORE}EndpointAddress`), 'IP addresses which offer the related ports that are marked as ready. These endpoints should be considered safe for load balancers and clients to utilize.', ATOMIC),
      notReadyAddresses: arr(
        ref(`${CORE}EndpointAddress`),
        'IP addresses which offer the related ports but are not currently marked as ready because they have not yet finished starting, have recently failed a readiness check, or have recently failed a liveness check.',
        ATOMIC,
      ),
      ports: arr(ref(`${CORE}EndpointPort`), 'Port numbers available on the related IP addresses.', ATOMIC),
    }),
    [`${CORE}EndpointAddress`]: obj(
      'EndpointAddress is a tuple that describes single IP address.',
      {
        hostname: str('The Hostname of this endpoint'),
        ip: str('The IP of this endpoint.'),
        nodeName: str('Optional: Node hosting this endpoint. This can be used to determine endpoints local to a node.'),
        targetRef: ref(`${CORE}ObjectReference`, 'Reference to object providing the endpoint.'),
      },
      { required: ['ip'], extra: ATOMIC_MAP },
    ),
    [`${CORE}EndpointPort`]: obj(
      'EndpointPort is a tuple that describes a single port.',
      {
        appProtocol: str('The application protocol for this port.'),
        name: str("The name of this port.  This must match the 'name' field in the corresponding ServicePort. Optional only if one port is defined."),
        port: int('The port number of the endpoint.'),
        protocol: str('The IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP.', { enum: ['SCTP', 'TCP', 'UDP'] }),
      },
      { required: ['port'], extra: ATOMIC_MAP },
    ),
    [META_CONDITION]: obj(
      'Condition contains details for one aspect of the current state of this API Resource.',
      {
        lastTransitionTime: ref(TIME, 'lastTransitionTime is the last time the condition transitioned from one status to another.'),
        message: str('message is a human readable message indicating details about the transition. This may be an empty string.'),
        observedGeneration: int64('observedGeneration represents the .metadata.generation that the condition was set based upon.'),
        reason: str("reason contains a programmatic identifier indicating the reason for the condition's last transition."),
        status: str('status of the condition, one of True, False, Unknown.'),
        type: str('type of condition in CamelCase or in foo.example.com/CamelCase.'),
      },
      { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'] },
    ),
  };
}

function configDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}ConfigMap`]: kind({ group: '', kind: 'ConfigMap', version: 'v1' }, 'ConfigMap holds configuration data for pods to consume.', {
      binaryData: map("BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range.", {
        type: 'string',
        format: 'byte',
      }),
      data: map("Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field."),
      immutable: bool('Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.'),
    }),
    [`${CORE}Secret`]: kind(
      { group: '', kind: 'Secret', version: 'v1' },
      'Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.',
      {
        data: map(
          "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
          { type: 'string', format: 'byte' },
        ),
        immutable: bool('Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.'),
        stringData: map('stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values. The stringData field is never output when reading from the API.'),
        type: str('Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types'),
      },
    ),
  };
}

function eventDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}Event`]: kind(
      { group: '', kind: 'Event', version: 'v1' },
      'Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.',
      {
        action: str('What action was taken/failed regarding to the Regarding object.'),
        count: int('The number of times this event has occurred.'),
        eventTime: ref(MICRO_TIME, 'Time when this Event was first observed.'),
        firstTimestamp: ref(TIME, 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)'),
        involvedObject: ref(`${CORE}ObjectReference`, 'The object that this event is about.'),
        lastTimestamp: ref(TIME, 'The time at which the most recent occurrence of this event was recorded.'),
        message: str('A human-readable description of the status of this operation.'),
        reason: str("This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
        related: ref(`${CORE}ObjectReference`, 'Optional secondary object for more complex actions.'),
        reportingComponent: str('Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.'),
        reportingInstance: str('ID of the controller instance, e.g. `kubelet-xyzf`.'),
        series: ref(`${CORE}EventSeries`, 'Data about the Event series this event represents or nil if it\'s a singleton Event.'),
        source: ref(`${CORE}EventSource`, 'The component reporting this event. Should be a short machine understandable string.'),
        type: str('Type of this event (Normal, Warning), new types could be added in the future'),
      },
      ['metadata', 'involvedObject'],
    ),
    [`${CORE}ObjectReference`]: obj(
      'ObjectReference contains enough information to let you inspect or modify the referred object.',
      {
        apiVersion: str('API version of the referent.'),
        fieldPath: str(
          'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].',
        ),
        kind: str('Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'),
        name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names'),
        namespace: str('Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/'),
        resourceVersion: str('Specific resourceVersion to which this reference is made, if any. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency'),
        uid: str('UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids'),
      },
      { extra: ATOMIC_MAP },
    ),
    [`${CORE}EventSource`]: obj('EventSource contains information for an event.', {
      component: str('Component from which the event is generated.'),
      host: str('Node name on which the event is generated.'),
    }),
    [`${CORE}EventSeries`]: obj('EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.', {
      count: int('Number of occurrences in this series up to the last heartbeat time'),
      lastObservedTime: ref(MICRO_TIME, 'Time of the last occurrence observed'),
    }),
  };
}

/** Service, Endpoints, ConfigMap, Secret and core Event with their own types. */
export function coreObjectDefinitions(): Record<string, Schema> {
  return { ...serviceDefinitions(), ...endpointsDefinitions(), ...configDefinitions(), ...eventDefinitions() };
}
