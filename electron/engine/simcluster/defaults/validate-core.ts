/** core/v1 validation besides pod specs: Service, ConfigMap and Secret. */
import { at, semanticEqual, type FieldErrors } from './field-errors.ts';
import { goIntOrString, GoLiteral, goQuote } from './go-format.ts';
import type { IntOrString } from './shapes.ts';
import { dns1123LabelErrors, validateConfigKeys, validateLabels } from './validate-meta.ts';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PORT_RANGE = 'must be between 1 and 65535, inclusive';

interface ServicePort {
  name?: string;
  port?: number;
  targetPort?: IntOrString;
  nodePort?: number;
  protocol?: string;
}

export interface ServiceSpecShape {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  externalName?: string;
  selector?: Record<string, string>;
  sessionAffinity?: string;
  ports?: ServicePort[];
}

/** IsValidPortName: an IANA service name. */
function portNameErrors(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 15) errors.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errors.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errors.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errors.push('must not begin or end with a hyphen');
  return errors;
}

function validatePortNumOrName(value: IntOrString | undefined, field: string, errors: FieldErrors): void {
  if (typeof value === 'string') {
    for (const msg of portNameErrors(value)) errors.invalid(field, value, msg);
  } else if (value !== undefined && (value < 1 || value > 65535)) {
    errors.invalid(field, value, PORT_RANGE);
  }
}

/** The key upstream uses to find duplicate ports, printed as Go prints a ServicePort. */
function goPortKey(port: ServicePort): GoLiteral {
  return new GoLiteral(
    `core.ServicePort{Name:"", Protocol:${goQuote(port.protocol ?? '')}, AppProtocol:(*string)(nil), Port:${port.port ?? 0}, TargetPort:${goIntOrString(0).text}, NodePort:0}`,
  );
}

function validateServicePorts(spec: ServiceSpecShape, errors: FieldErrors): void {
  const ports = spec.ports ?? [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const path = at.index('spec.ports', i);
    const namePath = at.child(path, 'name');
    if (ports.length > 1 && !port.name) errors.required(namePath);
    else if (port.name) {
      for (const msg of dns1123LabelErrors(port.name)) errors.invalid(namePath, port.name, msg);
      if (names.has(port.name)) errors.duplicate(namePath, port.name);
      names.add(port.name);
    }
    const number = port.port ?? 0;
    if (number < 1 || number > 65535) errors.invalid(at.child(path, 'port'), number, PORT_RANGE);
    if (!port.protocol) errors.required(at.child(path, 'protocol'));
    else if (!PROTOCOLS.includes(port.protocol)) errors.notSupported(at.child(path, 'protocol'), port.protocol, PROTOCOLS);
    validatePortNumOrName(port.targetPort, at.child(path, 'targetPort'), errors);
  });
  if (spec.type === 'ClusterIP') {
    ports.forEach((port, i) => {
      if (port.nodePort) errors.forbidden(at.child(at.index('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'");
    });
  }
  const seen = new Set<string>();
  ports.forEach((port, i) => {
    const key = `${port.protocol ?? ''}/${port.port ?? 0}`;
    if (seen.has(key)) errors.duplicate(at.index('spec.ports', i), goPortKey(port));
    seen.add(key);
  });
}

export function validateService(spec: ServiceSpecShape, old: ServiceSpecShape | undefined, errors: FieldErrors): void {
  const headless = spec.clusterIP === 'None';
  if ((spec.ports ?? []).length === 0 && !headless && spec.type !== 'ExternalName') errors.required('spec.ports');
  if (spec.type === 'ExternalName') {
    if ((spec.clusterIPs ?? []).length > 0) errors.forbidden('spec.clusterIPs', 'may not be set for ExternalName services');
    if (!(spec.externalName ?? '').replace(/\.$/, '')) errors.required('spec.externalName');
  }
  validateServicePorts(spec, errors);
  if (spec.selector) validateLabels(spec.selector, 'spec.selector', errors);
  const affinity = spec.sessionAffinity ?? '';
  if (!affinity) errors.required('spec.sessionAffinity');
  else if (!SESSION_AFFINITIES.includes(affinity)) errors.notSupported('spec.sessionAffinity', affinity, SESSION_AFFINITIES);
  const type = spec.type ?? '';
  if (!type) errors.required('spec.type');
  else if (!SERVICE_TYPES.includes(type)) errors.notSupported('spec.type', type, SERVICE_TYPES);
  // The allocated cluster IP stays unless the Service turns into, or out of, ExternalName.
  const oldIP = old?.clusterIPs?.[0] ?? old?.clusterIP;
  const newIP = spec.clusterIPs?.[0] ?? spec.clusterIP;
  if (old && oldIP && newIP && oldIP !== newIP && old.type !== 'ExternalName' && spec.type !== 'ExternalName') {
    errors.invalid('spec.clusterIPs[0]', new GoLiteral(`[]string{${(spec.clusterIPs ?? [newIP]).map(goQuote).join(', ')}}`), 'may not change once set');
  }
}

interface ConfigShape {
  immutable?: boolean;
  type?: string;
  data?: Record<string, unknown>;
  binaryData?: Record<string, unknown>;
}

/** ConfigMap and Secret: valid keys; nothing changes once `immutable` is set; a Secret's type stays. */
export function validateConfig(kind: 'ConfigMap' | 'Secret', object: ConfigShape, old: ConfigShape | undefined, errors: FieldErrors): void {
  validateConfigKeys(object.data, 'data', errors);
  if (kind === 'ConfigMap') validateConfigKeys(object.binaryData, 'binaryData', errors);
  if (!old) return;
  if (kind === 'Secret' && (old.type ?? '') !== (object.type ?? '')) errors.invalid('type', object.type ?? '', 'field is immutable');
  if (old.immutable) {
    if (!object.immutable) errors.forbidden('immutable', 'field is immutable when `immutable` is set');
    if (!semanticEqual(old.data, object.data)) errors.forbidden('data', 'field is immutable when `immutable` is set');
    if (kind === 'ConfigMap' && !semanticEqual(old.binaryData, object.binaryData)) {
      errors.forbidden('binaryData', 'field is immutable when `immutable` is set');
    }
  }
}
