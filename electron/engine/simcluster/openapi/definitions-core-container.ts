/**
 * core/v1 container definitions: Container and EphemeralContainer with their ports, env,
 * mounts, resources, probes and lifecycle hooks.
 */
import {
  ATOMIC,
  ATOMIC_MAP,
  CORE,
  INT_OR_STRING,
  QUANTITY,
  arr,
  bool,
  int,
  int64,
  map,
  mergeBy,
  obj,
  ref,
  str,
  strs,
  type Schema,
} from './schema.ts';

function containerFields(): Record<string, Schema> {
  return {
    args: strs(
      "Arguments to the entrypoint. The container image's CMD is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. Cannot be updated. More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell",
      ATOMIC,
    ),
    command: strs(
      "Entrypoint array. Not executed within a shell. The container image's ENTRYPOINT is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. Cannot be updated. More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell",
      ATOMIC,
    ),
    env: arr(ref(`${CORE}EnvVar`), 'List of environment variables to set in the container. Cannot be updated.', mergeBy('name')),
    envFrom: arr(
      ref(`${CORE}EnvFromSource`),
      'List of sources to populate environment variables in the container. The keys defined within a source must be a C_IDENTIFIER. All invalid keys will be reported as an event when the container is starting. When a key exists in multiple sources, the value associated with the last source will take precedence. Values defined by an Env with a duplicate key will take precedence. Cannot be updated.',
      ATOMIC,
    ),
    image: str(
      'Container image name. More info: https://kubernetes.io/docs/concepts/containers/images This field is optional to allow higher level config management to default or override container images in workload controllers like Deployments and StatefulSets.',
    ),
    imagePullPolicy: str(
      'Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise. Cannot be updated. More info: https://kubernetes.io/docs/concepts/containers/images#updating-images',
      { enum: ['Always', 'IfNotPresent', 'Never'] },
    ),
    lifecycle: ref(`${CORE}Lifecycle`, 'Actions that the management system should take in response to container lifecycle events. Cannot be updated.'),
    livenessProbe: ref(
      `${CORE}Probe`,
      'Periodic probe of container liveness. Container will be restarted if the probe fails. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes',
    ),
    name: str('Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). Cannot be updated.'),
    ports: arr(
      ref(`${CORE}ContainerPort`),
      'List of ports to expose from the container. Not specifying a port here DOES NOT prevent that port from being exposed. Any port which is listening on the default "0.0.0.0" address inside a container will be accessible from the network. Modifying this array with strategic merge patch may corrupt the data. For more information See https://github.com/kubernetes/kubernetes/issues/108255. Cannot be updated.',
      mergeBy('containerPort', { mapKeys: ['containerPort', 'protocol'] }),
    ),
    readinessProbe: ref(
      `${CORE}Probe`,
      'Periodic probe of container service readiness. Container will be removed from service endpoints if the probe fails. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes',
    ),
    resources: ref(
      `${CORE}ResourceRequirements`,
      'Compute Resources required by this container. Cannot be updated. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
    ),
    restartPolicy: str(
      'RestartPolicy defines the restart behavior of individual containers in a pod. This field may only be set for init containers, and the only allowed value is "Always". Setting it to "Always" makes the init container a sidecar that keeps running for the whole life of the Pod.',
    ),
    securityContext: ref(
      `${CORE}SecurityContext`,
      'SecurityContext defines the security options the container should be run with. If set, the fields of SecurityContext override the equivalent fields of PodSecurityContext. More info: https://kubernetes.io/docs/tasks/configure-pod-container/security-context/',
    ),
    startupProbe: ref(
      `${CORE}Probe`,
      "StartupProbe indicates that the Pod has successfully initialized. If specified, no other probes are executed until this completes successfully. If this probe fails, the Pod will be restarted, just as if the livenessProbe failed. This cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes",
    ),
    stdin: bool('Whether this container should allocate a buffer for stdin in the container runtime. If this is not set, reads from stdin in the container will always result in EOF. Default is false.'),
    stdinOnce: bool(
      'Whether the container runtime should close the stdin channel after it has been opened by a single attach. When stdin is true the stdin stream will remain open across multiple attach sessions. Default is false',
    ),
    terminationMessagePath: str(
      "Optional: Path at which the file to which the container's termination message will be written is mounted into the container's filesystem. Message written is intended to be brief final status, such as an assertion failure message. Will be truncated by the node if greater than 4096 bytes. Defaults to /dev/termination-log. Cannot be updated.",
    ),
    terminationMessagePolicy: str(
      'Indicate how the termination message should be populated. File will use the contents of terminationMessagePath to populate the container status message on both success and failure. FallbackToLogsOnError will use the last chunk of container log output if the termination message file is empty and the container exited with an error. Defaults to File. Cannot be updated.',
      { enum: ['FallbackToLogsOnError', 'File'] },
    ),
    tty: bool("Whether this container should allocate a TTY for itself, also requires 'stdin' to be true. Default is false."),
    volumeMounts: arr(
      ref(`${CORE}VolumeMount`),
      "Pod volumes to mount into the container's filesystem. Cannot be updated.",
      mergeBy('mountPath'),
    ),
    workingDir: str("Container's working directory. If not specified, the container runtime's default will be used, which might be configured in the container image. Cannot be updated."),
  };
}

function containerTypes(): Record<string, Schema> {
  return {
    [`${CORE}Container`]: obj('A single application container that you want to run within a pod.', containerFields(), { required: ['name'] }),
    [`${CORE}EphemeralContainer`]: obj(
      'An EphemeralContainer is a temporary container that you may add to an existing Pod for user-initiated activities such as debugging. Ephemeral containers have no resource or scheduling guarantees, and they will not be restarted when they exit or when a Pod is removed or restarted.',
      {
        ...containerFields(),
        targetContainerName: str(
          'If set, the name of the container from PodSpec that this ephemeral container targets. The ephemeral container will be run in the namespaces (IPC, PID, etc) of this container.',
        ),
      },
      { required: ['name'] },
    ),
    [`${CORE}ContainerPort`]: obj(
      'ContainerPort represents a network port in a single container.',
      {
        containerPort: int("Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536."),
        hostIP: str('What host IP to bind the external port to.'),
        hostPort: int('Number of port to expose on the host. If specified, this must be a valid port number, 0 < x < 65536. Most containers do not need this.'),
        name: str('If specified, this must be an IANA_SVC_NAME and unique within the pod. Each named port in a pod must have a unique name. Name for the port that can be referred to by services.'),
        protocol: str('Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".', { enum: ['SCTP', 'TCP', 'UDP'], default: 'TCP' }),
      },
      { required: ['containerPort'] },
    ),
    [`${CORE}VolumeMount`]: obj(
      'VolumeMount describes a mounting of a Volume within a container.',
      {
        mountPath: str("Path within the container at which the volume should be mounted.  Must not contain ':'."),
        mountPropagation: str('mountPropagation determines how mounts are propagated from the host to container and the other way around. When not set, MountPropagationNone is used.'),
        name: str('This must match the Name of a Volume.'),
        readOnly: bool('Mounted read-only if true, read-write otherwise (false or unspecified). Defaults to false.'),
        subPath: str('Path within the volume from which the container\'s volume should be mounted. Defaults to "" (volume\'s root).'),
        subPathExpr: str(
          "Expanded path within the volume from which the container's volume should be mounted. Behaves similarly to SubPath but environment variable references $(VAR_NAME) are expanded using the container's environment.",
        ),
      },
      { required: ['name', 'mountPath'] },
    ),
    [`${CORE}ResourceRequirements`]: obj('ResourceRequirements describes the compute resource requirements.', {
      limits: map('Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/', ref(QUANTITY)),
      requests: map(
        'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
        ref(QUANTITY),
      ),
    }),
    [`${CORE}SecurityContext`]: obj(
      'SecurityContext holds security configuration that will be applied to a container. Some fields are present in both SecurityContext and PodSecurityContext.  When both are set, the values in SecurityContext take precedence.',
      {
        allowPrivilegeEscalation: bool('AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process.'),
        capabilities: ref(`${CORE}Capabilities`, 'The capabilities to add/drop when running containers. Defaults to the default set of capabilities granted by the container runtime.'),
        privileged: bool('Run container in privileged mode. Processes in privileged containers are essentially equivalent to root on the host. Defaults to false.'),
        readOnlyRootFilesystem: bool('Whether this container has a read-only root filesystem. Default is false.'),
        runAsGroup: int64('The GID to run the entrypoint of the container process. Uses runtime default if unset.'),
        runAsNonRoot: bool('Indicates that the container must run as a non-root user. If true, the Kubelet will validate the image at runtime to ensure that it does not run as UID 0 (root) and fail to start the container if it does.'),
        runAsUser: int64('The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified.'),
      },
    ),
    [`${CORE}Capabilities`]: obj('Adds and removes POSIX capabilities from running containers.', {
      add: strs('Added capabilities', ATOMIC),
      drop: strs('Removed capabilities', ATOMIC),
    }),
  };
}

function envDefinitions(): Record<string, Schema> {
  const keySelector = (what: string): Schema =>
    obj(
      `Selects a key from a ${what}.`,
      {
        key: str(`The key of the ${what} to select from. Must be a valid key.`),
        name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names'),
        optional: bool(`Specify whether the ${what} or its key must be defined`),
      },
      { required: ['key'], extra: ATOMIC_MAP },
    );
  return {
    [`${CORE}EnvVar`]: obj(
      'EnvVar represents an environment variable present in a Container.',
      {
        name: str('Name of the environment variable. Must be a C_IDENTIFIER.'),
        value: str(
          'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. If a variable cannot be resolved, the reference in the input string will be unchanged. Defaults to "".',
        ),
        valueFrom: ref(`${CORE}EnvVarSource`, "Source for the environment variable's value. Cannot be used if value is not empty."),
      },
      { required: ['name'] },
    ),
    [`${CORE}EnvVarSource`]: obj('EnvVarSource represents a source for the value of an EnvVar.', {
      configMapKeyRef: ref(`${CORE}ConfigMapKeySelector`, 'Selects a key of a ConfigMap.'),
      fieldRef: ref(
        `${CORE}ObjectFieldSelector`,
        "Selects a field of the pod: supports metadata.name, metadata.namespace, `metadata.labels['<KEY>']`, `metadata.annotations['<KEY>']`, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.",
      ),
      resourceFieldRef: ref(
        `${CORE}ResourceFieldSelector`,
        'Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.',
      ),
      secretKeyRef: ref(`${CORE}SecretKeySelector`, "Selects a key of a secret in the pod's namespace"),
    }),
    [`${CORE}ConfigMapKeySelector`]: keySelector('ConfigMap'),
    [`${CORE}SecretKeySelector`]: keySelector('Secret'),
    [`${CORE}ObjectFieldSelector`]: obj(
      'ObjectFieldSelector selects an APIVersioned field of an object.',
      {
        apiVersion: str('Version of the schema the FieldPath is written in terms of, defaults to "v1".'),
        fieldPath: str('Path of the field to select in the specified API version.'),
      },
      { required: ['fieldPath'], extra: ATOMIC_MAP },
    ),
    [`${CORE}ResourceFieldSelector`]: obj(
      'ResourceFieldSelector represents container resources (cpu, memory) and their output format',
      {
        containerName: str('Container name: required for volumes, optional for env vars'),
        divisor: ref(QUANTITY, 'Specifies the output format of the exposed resources, defaults to "1"'),
        resource: str('Required: resource to select'),
      },
      { required: ['resource'], extra: ATOMIC_MAP },
    ),
    [`${CORE}EnvFromSource`]: obj('EnvFromSource represents the source of a set of ConfigMaps or Secrets', {
      configMapRef: ref(`${CORE}ConfigMapEnvSource`, 'The ConfigMap to select from'),
      prefix: str('Optional text to prepend to the name of each environment variable. Must be a C_IDENTIFIER.'),
      secretRef: ref(`${CORE}SecretEnvSource`, 'The Secret to select from'),
    }),
    [`${CORE}ConfigMapEnvSource`]: obj("ConfigMapEnvSource selects a ConfigMap to populate the environment variables with. The contents of the target ConfigMap's Data field will represent the key-value pairs as environment variables.", {
      name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names'),
      optional: bool('Specify whether the ConfigMap must be defined'),
    }),
    [`${CORE}SecretEnvSource`]: obj("SecretEnvSource selects a Secret to populate the environment variables with. The contents of the target Secret's Data field will represent the key-value pairs as environment variables.", {
      name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names'),
      optional: bool('Specify whether the Secret must be defined'),
    }),
  };
}

function probeDefinitions(): Record<string, Schema> {
  const handlerFields = (): Record<string, Schema> => ({
    exec: ref(`${CORE}ExecAction`, 'Exec specifies a command to execute in the container.'),
    httpGet: ref(`${CORE}HTTPGetAction`, 'HTTPGet specifies an HTTP GET request to perform.'),
    tcpSocket: ref(`${CORE}TCPSocketAction`, 'TCPSocket specifies a connection to a TCP port.'),
  });
  return {
    [`${CORE}Probe`]: obj(
      'Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.',
      {
        ...handlerFields(),
        failureThreshold: int('Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3. Minimum value is 1.'),
        initialDelaySeconds: int('Number of seconds after the container has started before liveness probes are initiated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes'),
        periodSeconds: int('How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1.'),
        successThreshold: int('Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.'),
        terminationGracePeriodSeconds: int64('Optional duration in seconds the pod needs to terminate gracefully upon probe failure.'),
        timeoutSeconds: int('Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes'),
      },
    ),
    [`${CORE}ExecAction`]: obj('ExecAction describes a "run in container" action.', {
      command: strs(
        "Command is the command line to execute inside the container, the working directory for the command  is root ('/') in the container's filesystem. The command is simply exec'd, it is not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use a shell, you need to explicitly call out to that shell. Exit status of 0 is treated as live/healthy and non-zero is unhealthy.",
        ATOMIC,
      ),
    }),
    [`${CORE}HTTPGetAction`]: obj(
      'HTTPGetAction describes an action based on HTTP Get requests.',
      {
        host: str('Host name to connect to, defaults to the pod IP. You probably want to set "Host" in httpHeaders instead.'),
        httpHeaders: arr(ref(`${CORE}HTTPHeader`), 'Custom headers to set in the request. HTTP allows repeated headers.', ATOMIC),
        path: str('Path to access on the HTTP server.'),
        port: ref(INT_OR_STRING, 'Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.'),
        scheme: str('Scheme to use for connecting to the host. Defaults to HTTP.', { enum: ['HTTP', 'HTTPS'] }),
      },
      { required: ['port'] },
    ),
    [`${CORE}HTTPHeader`]: obj(
      'HTTPHeader describes a custom header to be used in HTTP probes',
      {
        name: str('The header field name. This will be canonicalized upon output, so case-variant names will be understood as the same header.'),
        value: str('The header field value'),
      },
      { required: ['name', 'value'] },
    ),
    [`${CORE}TCPSocketAction`]: obj(
      'TCPSocketAction describes an action based on opening a socket',
      {
        host: str('Optional: Host name to connect to, defaults to the pod IP.'),
        port: ref(INT_OR_STRING, 'Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.'),
      },
      { required: ['port'] },
    ),
    [`${CORE}Lifecycle`]: obj(
      'Lifecycle describes actions that the management system should take in response to container lifecycle events. For the PostStart and PreStop lifecycle handlers, management of the container blocks until the action is complete.',
      {
        postStart: ref(`${CORE}LifecycleHandler`, 'PostStart is called immediately after a container is created. If the handler fails, the container is terminated and restarted according to its restart policy.'),
        preStop: ref(
          `${CORE}LifecycleHandler`,
          "PreStop is called immediately before a container is terminated due to an API request or management event such as liveness/startup probe failure, preemption, resource contention, etc. The Pod's termination grace period countdown begins before the PreStop hook is executed.",
        ),
      },
    ),
    [`${CORE}LifecycleHandler`]: obj('LifecycleHandler defines a specific action that should be taken in a lifecycle hook. One and only one of the fields, except TCPSocket must be specified.', handlerFields()),
  };
}

/** Container, EphemeralContainer and everything they reference. */
export function containerDefinitions(): Record<string, Schema> {
  return { ...containerTypes(), ...envDefinitions(), ...probeDefinitions() };
}
