/** Rows of the core/v1 kinds besides Pod, and of both Event APIs, as upstream prints them. */
import { nodeRoles } from '../../../../shared/kube-status.ts';
import { since } from './duration.ts';
import { firstNonEmpty, formatLabels, joinHostPort } from './format.ts';
import type { TableCell } from './types.ts';

interface Meta {
  name: string;
  creationTimestamp?: string;
  labels?: Record<string, string>;
}

interface ServiceView {
  metadata: Meta;
  spec?: {
    type?: string;
    clusterIP?: string;
    clusterIPs?: string[];
    externalIPs?: string[];
    externalName?: string;
    selector?: Record<string, string>;
    ports?: Array<{ port?: number; nodePort?: number; protocol?: string }>;
  };
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } };
}

function loadBalancerAddresses(svc: ServiceView): string {
  const addresses = new Set<string>();
  for (const ingress of svc.status?.loadBalancer?.ingress ?? []) {
    if (ingress.ip) addresses.add(ingress.ip);
    else if (ingress.hostname) addresses.add(ingress.hostname);
  }
  // Upstream clips to 16 characters only for non-wide output; the server always prints wide.
  return [...addresses].sort().join(',');
}

function externalIP(svc: ServiceView): string {
  const external = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(svc);
      if (external.length > 0) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec?.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** makePortString: `port/PROTO`, `port:nodePort/PROTO` when a node port is allocated. */
function portString(svc: ServiceView): string {
  const pieces = (svc.spec?.ports ?? []).map((p) => {
    const protocol = p.protocol ?? 'TCP';
    return p.nodePort && p.nodePort > 0 ? `${p.port ?? 0}:${p.nodePort}/${protocol}` : `${p.port ?? 0}/${protocol}`;
  });
  return pieces.join(',') || '<none>';
}

export function serviceRow(svc: ServiceView, now: number): TableCell[] {
  const clusterIP = svc.spec?.clusterIPs?.[0] ?? svc.spec?.clusterIP;
  return [
    svc.metadata.name,
    svc.spec?.type ?? '',
    clusterIP || '<none>',
    externalIP(svc),
    portString(svc),
    since(svc.metadata.creationTimestamp, now),
    formatLabels(svc.spec?.selector),
  ];
}

interface EndpointsView {
  metadata: Meta;
  subsets?: Array<{ addresses?: Array<{ ip?: string }>; ports?: Array<{ port?: number }> }>;
}

/** formatEndpoints: the first three `ip:port` pairs, then "+ N more...". */
function formatEndpoints(ep: EndpointsView): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const MAX = 3;
  const list: string[] = [];
  let count = 0;
  for (const subset of subsets) {
    const addresses = subset.addresses ?? [];
    const ports = subset.ports ?? [];
    // Headless services without ports list bare addresses.
    const pairs = ports.length === 0 ? addresses.map((a) => a.ip ?? '') : ports.flatMap((p) => addresses.map((a) => joinHostPort(a.ip ?? '', p.port ?? 0)));
    count += pairs.length;
    for (const pair of pairs) if (list.length < MAX) list.push(pair);
  }
  const joined = list.join(',');
  return count > MAX ? `${joined} + ${count - MAX} more...` : joined;
}

export function endpointsRow(ep: EndpointsView, now: number): TableCell[] {
  return [ep.metadata.name, formatEndpoints(ep), since(ep.metadata.creationTimestamp, now)];
}

export function namespaceRow(ns: { metadata: Meta; status?: { phase?: string } }, now: number): TableCell[] {
  return [ns.metadata.name, ns.status?.phase ?? '', since(ns.metadata.creationTimestamp, now)];
}

interface NodeView {
  metadata: Meta;
  spec?: { unschedulable?: boolean };
  status?: {
    conditions?: Array<{ type?: string; status?: string }>;
    addresses?: Array<{ type?: string; address?: string }>;
    nodeInfo?: { kubeletVersion?: string; osImage?: string; kernelVersion?: string; containerRuntimeVersion?: string };
  };
}

function nodeStatus(node: NodeView): string {
  const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').at(-1);
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeAddress(node: NodeView, type: string): string {
  return node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
}

export function nodeRow(node: NodeView, now: number): TableCell[] {
  const info = node.status?.nodeInfo;
  return [
    node.metadata.name,
    nodeStatus(node),
    nodeRoles(node.metadata.labels),
    since(node.metadata.creationTimestamp, now),
    info?.kubeletVersion ?? '',
    nodeAddress(node, 'InternalIP'),
    nodeAddress(node, 'ExternalIP'),
    info?.osImage || '<unknown>',
    info?.kernelVersion || '<unknown>',
    info?.containerRuntimeVersion || '<unknown>',
  ];
}

export function configMapRow(cm: { metadata: Meta; data?: object; binaryData?: object }, now: number): TableCell[] {
  return [cm.metadata.name, Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length, since(cm.metadata.creationTimestamp, now)];
}

export function secretRow(secret: { metadata: Meta; type?: string; data?: object }, now: number): TableCell[] {
  return [secret.metadata.name, secret.type ?? '', Object.keys(secret.data ?? {}).length, since(secret.metadata.creationTimestamp, now)];
}

/** A core/v1 Event; events.k8s.io/v1 Events are mapped onto it first, as the server stores both alike. */
export interface CoreEventView {
  metadata: Meta;
  involvedObject?: { kind?: string; name?: string; fieldPath?: string };
  reason?: string;
  message?: string;
  type?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  count?: number;
  series?: { count?: number; lastObservedTime?: string };
  reportingComponent?: string;
  reportingInstance?: string;
}

/** events.k8s.io/v1 field names onto core/v1's (regarding -> involvedObject, note -> message, ...). */
export function fromEventsV1(event: Record<string, unknown> & { metadata: Meta }): CoreEventView {
  const e = event as Record<string, unknown>;
  return {
    metadata: event.metadata,
    involvedObject: e['regarding'] as CoreEventView['involvedObject'],
    reason: e['reason'] as string | undefined,
    message: e['note'] as string | undefined,
    type: e['type'] as string | undefined,
    source: e['deprecatedSource'] as CoreEventView['source'],
    firstTimestamp: e['deprecatedFirstTimestamp'] as string | undefined,
    lastTimestamp: e['deprecatedLastTimestamp'] as string | undefined,
    eventTime: e['eventTime'] as string | undefined,
    count: e['deprecatedCount'] as number | undefined,
    series: e['series'] as CoreEventView['series'],
    reportingComponent: e['reportingController'] as string | undefined,
    reportingInstance: e['reportingInstance'] as string | undefined,
  };
}

export function eventRow(event: CoreEventView, now: number): TableCell[] {
  const firstSeen = event.firstTimestamp ? since(event.firstTimestamp, now) : since(event.eventTime, now);
  let lastSeen = event.lastTimestamp ? since(event.lastTimestamp, now) : firstSeen;
  let count = event.count ?? 0;
  if (event.series) {
    lastSeen = since(event.series.lastObservedTime, now);
    count = event.series.count ?? 0;
  } else if (count === 0) {
    // Singleton events of the new API carry no count.
    count = 1;
  }
  const kind = (event.involvedObject?.kind ?? '').toLowerCase();
  const target = event.involvedObject?.name ? `${kind}/${event.involvedObject.name}` : kind;
  const component = firstNonEmpty(event.source?.component, event.reportingComponent);
  const instance = firstNonEmpty(event.source?.host, event.reportingInstance);
  return [
    lastSeen,
    event.type ?? '',
    event.reason ?? '',
    target,
    event.involvedObject?.fieldPath ?? '',
    instance ? `${component}, ${instance}` : component,
    (event.message ?? '').trim(),
    firstSeen,
    count,
    event.metadata.name,
  ];
}
