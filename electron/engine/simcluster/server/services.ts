/**
 * What the Service REST storage allocates: a cluster IP from 10.96.0.0/12 (kept across updates)
 * and node ports from 30000-32767 for NodePort and LoadBalancer Services, with the apiserver's
 * errors for addresses outside the range or already taken.
 */
import { invalid, type StatusCause } from '../errors.ts';
import { typeById } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';

/** The service cluster IP range (kubeadm and kind default). */
export const SERVICE_CIDR = '10.96.0.0/12';
/** The node port range, inclusive. */
export const NODE_PORT_MIN = 30000;
export const NODE_PORT_MAX = 32767;

const SERVICES = typeById('services');
const CIDR_BASE = (10 << 24) + (96 << 16);
const CIDR_SIZE = 1 << 20;

interface ServicePort {
  port?: number;
  protocol?: string;
  nodePort?: number;
  [key: string]: unknown;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: ServicePort[];
  [key: string]: unknown;
}

function ipToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function numberToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function others(store: ObjectStore, self: KubeObject): ServiceSpec[] {
  if (!SERVICES) return [];
  return store
    .all(SERVICES)
    .filter((s) => !(s.metadata.name === self.metadata.name && s.metadata.namespace === self.metadata.namespace))
    .map((s) => (s['spec'] ?? {}) as ServiceSpec);
}

function allocateIp(used: Set<string>, random: () => number): string {
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const ip = numberToIp(CIDR_BASE + 1 + Math.floor(random() * (CIDR_SIZE - 2)));
    if (!used.has(ip)) return ip;
  }
  for (let n = CIDR_BASE + 1; n < CIDR_BASE + CIDR_SIZE - 1; n += 1) if (!used.has(numberToIp(n))) return numberToIp(n);
  throw new Error('service IP range exhausted');
}

function clusterIpCauses(ip: string, used: Set<string>): StatusCause[] {
  const n = ipToNumber(ip);
  const value = `Invalid value: ${JSON.stringify([ip])}: failed to allocate IP ${ip}: `;
  if (n === undefined || n <= CIDR_BASE || n >= CIDR_BASE + CIDR_SIZE - 1) {
    return [{ field: 'spec.clusterIPs', message: `${value}the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${SERVICE_CIDR}` }];
  }
  return used.has(ip) ? [{ field: 'spec.clusterIPs', message: `${value}provided IP is already allocated` }] : [];
}

/**
 * Fills the allocated fields of a Service being created (`old` undefined) or updated; throws 422
 * Invalid for unusable or changed addresses. Returns a new object.
 */
export function allocateServiceFields(store: ObjectStore, service: KubeObject, old: KubeObject | undefined, random: () => number = Math.random): KubeObject {
  const spec: ServiceSpec = { ...((service['spec'] ?? {}) as ServiceSpec) };
  const oldSpec = (old?.['spec'] ?? {}) as ServiceSpec;
  const type = spec.type ?? 'ClusterIP';
  const existing = others(store, service);
  const causes: StatusCause[] = [];
  if (type !== 'ExternalName') {
    if (!spec.clusterIP && oldSpec.clusterIP) {
      spec.clusterIP = oldSpec.clusterIP;
      spec.clusterIPs = oldSpec.clusterIPs ?? [oldSpec.clusterIP];
    } else if (old && oldSpec.clusterIP && spec.clusterIP !== oldSpec.clusterIP) {
      causes.push({ field: 'spec.clusterIPs[0]', message: `Invalid value: ${JSON.stringify([spec.clusterIP])}: may not change once set` });
    } else if (!old || !oldSpec.clusterIP) {
      const used = new Set(existing.map((s) => s.clusterIP ?? '').filter((ip) => ip && ip !== 'None'));
      if (!spec.clusterIP) spec.clusterIP = allocateIp(used, random);
      else if (spec.clusterIP !== 'None') causes.push(...clusterIpCauses(spec.clusterIP, used));
    }
    spec.clusterIPs = spec.clusterIPs ?? [spec.clusterIP as string];
    spec.ipFamilies = spec.ipFamilies ?? ['IPv4'];
    spec.ipFamilyPolicy = spec.ipFamilyPolicy ?? 'SingleStack';
  }
  if (type === 'NodePort' || type === 'LoadBalancer') {
    const taken = new Set(existing.flatMap((s) => (s.ports ?? []).map((p) => p.nodePort)).filter((p): p is number => typeof p === 'number'));
    const ports = (spec.ports ?? []).map((p) => ({ ...p }));
    ports.forEach((port, i) => {
      if (port.nodePort === undefined) {
        const previous = (oldSpec.ports ?? []).find((p) => p.port === port.port && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP'));
        if (previous?.nodePort !== undefined) port.nodePort = previous.nodePort;
      }
      if (port.nodePort === undefined) {
        let candidate = NODE_PORT_MIN + Math.floor(random() * (NODE_PORT_MAX - NODE_PORT_MIN + 1));
        while (taken.has(candidate)) candidate = candidate >= NODE_PORT_MAX ? NODE_PORT_MIN : candidate + 1;
        port.nodePort = candidate;
      } else if (port.nodePort < NODE_PORT_MIN || port.nodePort > NODE_PORT_MAX) {
        causes.push({ field: `spec.ports[${i}].nodePort`, message: `Invalid value: ${port.nodePort}: provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}` });
      } else if (taken.has(port.nodePort)) {
        causes.push({ field: `spec.ports[${i}].nodePort`, message: `Invalid value: ${port.nodePort}: provided port is already allocated` });
      }
      taken.add(port.nodePort);
    });
    spec.ports = ports;
  }
  if (causes.length > 0) throw invalid('Service', '', service.metadata.name, causes);
  return { ...service, spec };
}
