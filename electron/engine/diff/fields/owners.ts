/**
 * Who owns a differing field's live value: the field manager whose managedFields set holds the
 * field (FieldsV1: `f:name` for map keys, `k:{"name":"web"}` / `v:value` / `i:0` for list
 * elements, an empty set for a leaf or an atomic value), put in words a user can act on. The HPA
 * is recognised from the cluster's HorizontalPodAutoscalers, since it writes `spec.replicas`
 * through `/scale` as `kube-controller-manager` (and simulated or older controllers may not
 * record ownership at all).
 */
import type { FieldOwner } from '../../../../shared/contracts/diff.ts';
import { isObject, type JsonObject } from '../load/types.ts';
import type { ManagedFieldsEntry } from '../normalise.ts';
import { deepEqual } from './compare.ts';
import type { Segment } from './paths.ts';

/** An HPA that scales an object, for "replicas differs because the HPA owns it". */
export interface HpaTarget {
  name: string;
  minReplicas?: number;
  maxReplicas?: number;
}

/** HPAs by `namespace/Kind/name` of their scale target. */
export type HpaIndex = ReadonlyMap<string, HpaTarget>;

export const hpaKey = (namespace: string | undefined, kind: string, name: string) => `${namespace ?? ''}/${kind}/${name}`;

function childFor(node: JsonObject, segment: Segment, value: unknown): { node: unknown; value: unknown } | undefined {
  if ('key' in segment) {
    const child = node[`f:${segment.key}`];
    return child === undefined ? undefined : { node: child, value: isObject(value) ? value[segment.key] : undefined };
  }
  const element = Array.isArray(value) ? value[segment.index] : undefined;
  for (const [name, child] of Object.entries(node)) {
    if (name.startsWith('k:')) {
      let keys: unknown;
      try {
        keys = JSON.parse(name.slice(2));
      } catch {
        continue;
      }
      if (isObject(keys) && isObject(element) && Object.entries(keys).every(([k, v]) => deepEqual(element[k], v))) return { node: child, value: element };
    } else if (name.startsWith('v:')) {
      try {
        if (deepEqual(JSON.parse(name.slice(2)), element)) return { node: child, value: element };
      } catch {
        continue;
      }
    } else if (name === `i:${segment.index}`) return { node: child, value: element };
  }
  return undefined;
}

/** Whether a FieldsV1 set covers the field at `segments` of `live`. */
export function ownsField(fields: JsonObject | undefined, segments: readonly Segment[], live: unknown): boolean {
  let node: unknown = fields;
  let value = live;
  for (const segment of segments) {
    if (!isObject(node)) return false;
    // An empty set below the root is a leaf: the manager owns the whole (atomic) value.
    if (node !== fields && Object.keys(node).length === 0) return true;
    const next = childFor(node, segment, value);
    if (!next) return false;
    node = next.node;
    value = next.value;
  }
  return isObject(node);
}

/** The managers owning a field, latest write first. */
export function ownersOf(entries: readonly ManagedFieldsEntry[], segments: readonly Segment[], live: unknown): ManagedFieldsEntry[] {
  return entries.filter((entry) => ownsField(entry.fieldsV1, segments, live)).sort((a, b) => (b.time ?? '').localeCompare(a.time ?? ''));
}

const CONTROLLER_MANAGERS = /^(kube-controller-manager|kube-scheduler|kubelet|.*-controller|.*controller-manager|.*-operator)$/;

/** `kubectl-client-side-apply` -> `kubectl apply`, `kubectl-set` -> `kubectl set`, `kubectl` (Apply) -> `kubectl apply --server-side`. */
function kubectlCommand(manager: string, operation: string | undefined): string {
  if (manager === 'kubectl-client-side-apply') return 'kubectl apply';
  if (manager === 'kubectl') return operation === 'Apply' ? 'kubectl apply --server-side' : 'kubectl';
  return `kubectl ${manager.slice('kubectl-'.length)}`;
}

function describeManager(entry: ManagedFieldsEntry): FieldOwner {
  const manager = entry.manager ?? '(unnamed)';
  const how = `${entry.operation ?? 'Update'}${entry.subresource ? ` through /${entry.subresource}` : ''}`;
  if (manager === 'kubedrift') return { kind: 'kubedrift', manager, text: `Kubedrift's field manager set this value (${how}).` };
  if (manager.startsWith('kubectl')) {
    const command = kubectlCommand(manager, entry.operation);
    const byHand = entry.operation !== 'Apply' && manager !== 'kubectl-client-side-apply';
    return { kind: 'kubectl', manager, text: `Last set with ${command} (field manager ${manager}, ${how})${byHand ? ': a change made by hand, not from the files' : ''}.` };
  }
  if (CONTROLLER_MANAGERS.test(manager)) return { kind: 'controller', manager, text: `The controller ${manager} owns this value (${how}); it will set it back if the file's value is applied.` };
  return { kind: 'manager', manager, text: `The field manager "${manager}" owns this value (${how}).` };
}

export interface OwnerInput {
  segments: readonly Segment[];
  op: 'changed' | 'added' | 'removed';
  kind: string;
  namespace: string | undefined;
  name: string;
  live: unknown;
  managedFields: readonly ManagedFieldsEntry[];
  hpas: HpaIndex;
}

const isReplicas = (segments: readonly Segment[]) => segments.length === 2 && 'key' in segments[0]! && segments[0].key === 'spec' && 'key' in segments[1]! && segments[1].key === 'replicas';

/** Who owns the live value of one differing field. */
export function explainOwner(input: OwnerInput): FieldOwner {
  const owners = input.op === 'added' ? [] : ownersOf(input.managedFields, input.segments, input.live);
  const hpa = isReplicas(input.segments) ? input.hpas.get(hpaKey(input.namespace, input.kind, input.name)) : undefined;
  if (hpa) {
    const range = hpa.minReplicas !== undefined || hpa.maxReplicas !== undefined ? ` between ${hpa.minReplicas ?? 1} and ${hpa.maxReplicas ?? '?'} replicas` : '';
    const manager = owners.find((o) => o.subresource === 'scale')?.manager ?? owners[0]?.manager;
    return { kind: 'hpa', ...(manager ? { manager } : {}), text: `The HorizontalPodAutoscaler "${hpa.name}" owns replicas: it scales this ${input.kind}${range}, so the live value follows load, not the file.` };
  }
  if (input.op === 'added') return { kind: 'file', text: 'Not set in the cluster: the file adds this field.' };
  const owner = owners[0];
  if (!owner) return { kind: 'defaulted', text: 'No field manager owns the live value: the API server defaulted it, or something changed it without recording ownership.' };
  const described = describeManager(owner);
  const others = owners.slice(1).map((o) => o.manager).filter((m): m is string => !!m && m !== owner.manager);
  return others.length ? { ...described, text: `${described.text} Also owned by ${[...new Set(others)].join(', ')}.` } : described;
}
