/**
 * CustomResourceDefinition defaulting as apiextensions.k8s.io/v1 does it: the singular name and
 * listKind from the kind, `conversion.strategy: None` (a printer column's priority 0 is omitted, as
 * Go's omitempty drops it). Creation also adds the cleanup finalizer that makes deleting a CRD
 * delete its custom resources first.
 */
import type { KubeObject } from '../types.ts';
import type { CrdSpec } from './types.ts';

/** The finalizer the apiextensions server keeps on every CRD until its instances are gone. */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The defaulted CRD (a copy); shapes it cannot read are left for validation to report. */
export function defaultCrd(object: KubeObject): KubeObject {
  const copy = structuredClone(object);
  const spec = copy['spec'];
  if (!isRecord(spec)) return copy;
  const typed = spec as unknown as CrdSpec;
  if (isRecord(typed.names) && typeof typed.names.kind === 'string' && typed.names.kind !== '') {
    typed.names.singular ??= typed.names.kind.toLowerCase();
    typed.names.listKind ??= `${typed.names.kind}List`;
  }
  if (!isRecord(typed.conversion)) typed.conversion = { strategy: 'None' };
  else typed.conversion.strategy ??= 'None';
  return copy;
}

/**
 * What a CRD is stored with besides its defaults: the cleanup finalizer (unless it is being
 * deleted) and, when it has none yet, the status a new CRD starts with (its storage version
 * recorded as stored).
 */
export function withCrdBookkeeping(object: KubeObject): KubeObject {
  const finalizers = object.metadata.finalizers ?? [];
  const addFinalizer = !object.metadata.deletionTimestamp && !finalizers.includes(CRD_CLEANUP_FINALIZER);
  const spec = object['spec'] as Partial<CrdSpec> | undefined;
  const storage = Array.isArray(spec?.versions) ? spec.versions.find((v) => isRecord(v) && v.storage === true)?.name : undefined;
  return {
    ...object,
    metadata: addFinalizer ? { ...object.metadata, finalizers: [...finalizers, CRD_CLEANUP_FINALIZER] } : object.metadata,
    ...(object['status'] === undefined ? { status: { acceptedNames: { kind: '', plural: '' }, conditions: [], storedVersions: storage ? [storage] : [] } } : {}),
  };
}
