/**
 * endpoint-controller: an Endpoints object per Service with a selector, listing the selected
 * pods' IPs as ready `addresses` or `notReadyAddresses` against the Service's resolved target
 * ports, repacked into subsets of pods sharing a port set (upstream's RepackSubsets). Emits no
 * events.
 */
import type { Change } from '../changelog.ts';
import { objectKey } from '../store.ts';
import { matchesLabels, type LabelSelector } from '../selectors.ts';
import type { KubeObject } from '../types.ts';
import { timestamp } from './conditions.ts';
import { ENDPOINTS, PODS, SERVICES } from './kinds.ts';
import { isPodReady, isPodTerminal, podNodeName } from './pods.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';

export const ENDPOINT_CONTROLLER = 'endpoint-controller';
const TRIGGER_ANNOTATION = 'endpoints.kubernetes.io/last-change-trigger-time';

interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
}

interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
}

function serviceSelector(svc: KubeObject): LabelSelector | undefined {
  const selector = (svc['spec'] as { selector?: Record<string, string> } | undefined)?.selector;
  if (!selector || Object.keys(selector).length === 0) return undefined;
  return Object.entries(selector).map(([key, value]) => ({ op: '=' as const, key, value }));
}

/** podutil.FindPort: a number as is, a name looked up among the pod's container ports. */
function resolvePort(pod: KubeObject, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  const containers = ((pod['spec'] as { containers?: Array<{ ports?: Array<{ name?: string; containerPort: number; protocol?: string }> }> }).containers) ?? [];
  for (const c of containers) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP')) return p.containerPort;
  }
  return undefined;
}

export class EndpointsController implements Controller {
  readonly name = ENDPOINT_CONTROLLER;
  /** `namespace/name` -> selector of Services that have one. */
  private readonly selectors = new Map<string, { namespace: string; name: string; selector: LabelSelector }>();

  keysFor(change: Change): ReconcileKey[] {
    const { object, old } = change;
    const namespace = object.metadata.namespace;
    if (change.resource === 'services') {
      const selector = change.type === 'DELETED' ? undefined : serviceSelector(object);
      if (selector) this.selectors.set(change.key, { namespace: namespace ?? '', name: object.metadata.name, selector });
      else this.selectors.delete(change.key);
      return [{ resource: 'services', namespace, name: object.metadata.name }];
    }
    if (change.resource === 'endpoints') return [{ resource: 'services', namespace, name: object.metadata.name }];
    if (change.resource !== 'pods') return [];
    const keys: ReconcileKey[] = [];
    for (const svc of this.selectors.values()) {
      if (svc.namespace !== namespace) continue;
      if (matchesLabels(svc.selector, object.metadata.labels) || (old && matchesLabels(svc.selector, old.metadata.labels))) {
        keys.push({ resource: 'services', namespace, name: svc.name });
      }
    }
    return keys;
  }

  initialKeys(ctx: ControllerContext): ReconcileKey[] {
    const keys: ReconcileKey[] = [];
    for (const svc of ctx.store.all(SERVICES)) {
      const selector = serviceSelector(svc);
      const ns = svc.metadata.namespace ?? '';
      if (selector) this.selectors.set(objectKey(ns, svc.metadata.name), { namespace: ns, name: svc.metadata.name, selector });
      keys.push({ resource: 'services', namespace: ns, name: svc.metadata.name });
    }
    return keys;
  }

  reconcile(key: ReconcileKey, ctx: ControllerContext): void {
    const svc = ctx.store.find(SERVICES, key.namespace, key.name);
    const existing = ctx.store.find(ENDPOINTS, key.namespace, key.name);
    if (!svc) {
      // Endpoints of a deleted Service go with it (only those this controller maintains).
      if (existing?.metadata.annotations?.[TRIGGER_ANNOTATION] !== undefined) ctx.store.delete(ENDPOINTS, key.namespace, key.name);
      return;
    }
    const selector = serviceSelector(svc);
    if (!selector) return;
    const subsets = this.subsets(ctx, svc, selector);
    const labels = svc.metadata.labels;
    if (existing && JSON.stringify(existing['subsets'] ?? []) === JSON.stringify(subsets) && JSON.stringify(existing.metadata.labels) === JSON.stringify(labels)) return;
    const metadata: Record<string, unknown> = { name: svc.metadata.name, namespace: svc.metadata.namespace };
    if (labels) metadata['labels'] = labels;
    metadata['annotations'] = { ...(existing?.metadata.annotations ?? {}), [TRIGGER_ANNOTATION]: timestamp(ctx.clock.now()) };
    const body = { apiVersion: 'v1', kind: 'Endpoints', metadata, ...(subsets.length > 0 ? { subsets } : {}) };
    if (existing) ctx.store.update(ENDPOINTS, { ...body, metadata: { ...existing.metadata, ...metadata } });
    else ctx.store.create(ENDPOINTS, body);
  }

  private subsets(ctx: ControllerContext, svc: KubeObject, selector: LabelSelector): Array<Record<string, unknown>> {
    const ports = ((svc['spec'] as { ports?: ServicePort[] }).ports) ?? [];
    const publishNotReady = (svc['spec'] as { publishNotReadyAddresses?: boolean }).publishNotReadyAddresses === true;
    const groups = new Map<string, { ports: EndpointPort[]; ready: unknown[]; notReady: unknown[] }>();
    for (const pod of ctx.store.all(PODS, svc.metadata.namespace)) {
      if (!matchesLabels(selector, pod.metadata.labels) || isPodTerminal(pod)) continue;
      if (pod.metadata.deletionTimestamp && !publishNotReady) continue;
      const ip = (pod['status'] as { podIP?: string } | undefined)?.podIP;
      if (!ip) continue;
      const podPorts: EndpointPort[] = [];
      for (const port of ports) {
        const resolved = resolvePort(pod, port);
        if (resolved === undefined) continue;
        podPorts.push({ ...(port.name ? { name: port.name } : {}), port: resolved, protocol: port.protocol ?? 'TCP' });
      }
      if (ports.length > 0 && podPorts.length === 0) continue;
      podPorts.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.port - b.port);
      const groupKey = JSON.stringify(podPorts);
      let group = groups.get(groupKey);
      if (!group) groups.set(groupKey, (group = { ports: podPorts, ready: [], notReady: [] }));
      const node = podNodeName(pod);
      const address = { ip, ...(node ? { nodeName: node } : {}), targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid } };
      if (isPodReady(pod) || publishNotReady) group.ready.push(address);
      else group.notReady.push(address);
    }
    const byIp = (a: unknown, b: unknown): number => ipOrder((a as { ip: string }).ip) - ipOrder((b as { ip: string }).ip);
    return [...groups.values()].map((g) => {
      const subset: Record<string, unknown> = {};
      if (g.ready.length > 0) subset['addresses'] = g.ready.sort(byIp);
      if (g.notReady.length > 0) subset['notReadyAddresses'] = g.notReady.sort(byIp);
      if (g.ports.length > 0) subset['ports'] = g.ports;
      return subset;
    });
  }
}

function ipOrder(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + (Number(part) || 0), 0);
}
