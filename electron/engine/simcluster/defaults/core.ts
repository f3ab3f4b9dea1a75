/**
 * core/v1 defaulting besides Pods: Service (without allocating IPs or node ports: the server's
 * allocator does that), Namespace, Secret, Endpoints and Node. Mutates applyDefaults' copy.
 */
import type { IntOrString } from './shapes.ts';

/** ClientIP affinity's default timeout: three hours. */
const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

interface ServiceShape {
  spec?: {
    type?: string;
    clusterIP?: string;
    clusterIPs?: string[];
    externalIPs?: string[];
    selector?: Record<string, string>;
    sessionAffinity?: string;
    sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } } | null;
    ports?: Array<{ port?: number; targetPort?: IntOrString; protocol?: string }>;
    externalTrafficPolicy?: string;
    internalTrafficPolicy?: string;
    allocateLoadBalancerNodePorts?: boolean;
    ipFamilyPolicy?: string;
    ipFamilies?: string[];
  };
}

/**
 * SetDefaults_Service, plus the single-stack IPv4 family fields the service REST storage sets
 * for every Service but ExternalName (RequireDualStack for a headless one without selector).
 */
export function defaultService(service: ServiceShape): void {
  const spec = (service.spec ??= {});
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
  }
  spec.type ||= 'ClusterIP';
  for (const port of spec.ports ?? []) {
    port.protocol ||= 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port ?? 0;
  }
  const externallyAccessible = spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && (spec.externalIPs ?? []).length > 0);
  if (externallyAccessible) spec.externalTrafficPolicy ||= 'Cluster';
  if (spec.type !== 'ExternalName') spec.internalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
  if (spec.type !== 'ExternalName') {
    const headlessWithoutSelector = spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0;
    spec.ipFamilyPolicy ||= headlessWithoutSelector ? 'RequireDualStack' : 'SingleStack';
    if (!spec.ipFamilies?.length) spec.ipFamilies = ['IPv4'];
  }
}

/** SetDefaults_Namespace: the name label; the finalizer and Active phase the registry adds. */
export function defaultNamespace(namespace: { metadata: { name: string; labels?: Record<string, string> }; spec?: { finalizers?: string[] }; status?: { phase?: string } }): void {
  namespace.metadata.labels = { ...namespace.metadata.labels, 'kubernetes.io/metadata.name': namespace.metadata.name };
  const spec = (namespace.spec ??= {});
  spec.finalizers ??= ['kubernetes'];
  (namespace.status ??= {}).phase ||= 'Active';
}

export function defaultSecret(secret: { type?: string }): void {
  secret.type ||= 'Opaque';
}

export function defaultEndpoints(endpoints: { subsets?: Array<{ ports?: Array<{ protocol?: string }> }> }): void {
  for (const subset of endpoints.subsets ?? []) for (const port of subset.ports ?? []) port.protocol ||= 'TCP';
}

/** SetDefaults_NodeStatus: allocatable defaults to capacity. */
export function defaultNode(node: { status?: { capacity?: Record<string, string>; allocatable?: Record<string, string> } }): void {
  const status = node.status;
  if (status?.capacity && !status.allocatable) status.allocatable = { ...status.capacity };
}
