/**
 * What discovery cannot say about a custom resource: whether its CRD's schema has a `status`.
 * Discovery shows the status subresource, but a CRD may declare status in its schema without
 * the subresource (status then changes with the main resource). The CRD watch feeds this index;
 * the mode rule reads it.
 */
import { kindKey, type KindRef } from '../../../../shared/kinds.ts';

/** A watch event of the CRD informer, as the registry is told of it. */
export interface CrdEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: unknown;
}

/** The fields of one `spec.versions[]` entry of a CRD the status facts read; the rest may be anything. */
export interface CrdVersionShape {
  name?: unknown;
  subresources?: { status?: unknown } | null;
  schema?: { openAPIV3Schema?: { properties?: Record<string, unknown>; 'x-kubernetes-preserve-unknown-fields'?: unknown; [field: string]: unknown } | null } | null;
}

interface CrdShape {
  metadata?: { name?: unknown };
  spec?: { group?: unknown; names?: { plural?: unknown; kind?: unknown }; scope?: unknown; versions?: unknown };
  status?: { conditions?: unknown };
}

interface ConditionShape {
  type?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
}

/**
 * A CRD the API server does not serve (yet): not Established, with why, in the server's words.
 * Discovery never lists such a kind, so without this a broken CRD would simply be missing.
 */
export interface UnservedCrd {
  key: string;
  ref: KindRef;
  message: string;
}

/** Why a CRD is not served, from its conditions; undefined when it is Established (or says nothing yet). */
export function notEstablished(object: unknown): UnservedCrd | undefined {
  const crd = object as CrdShape | null;
  const spec = crd?.spec;
  const conditions = Array.isArray(crd?.status?.conditions) ? (crd.status.conditions as ConditionShape[]) : [];
  const established = conditions.find((c) => c?.type === 'Established');
  if (!established || established.status === 'True') return undefined;
  const group = spec?.group;
  const plural = spec?.names?.plural;
  const kind = spec?.names?.kind;
  const versions = Array.isArray(spec?.versions) ? (spec.versions as CrdVersionShape[]) : [];
  const version = versions.find((v) => (v as { storage?: unknown }).storage === true)?.name ?? versions[0]?.name;
  if (typeof group !== 'string' || typeof plural !== 'string' || typeof kind !== 'string' || typeof version !== 'string') return undefined;
  // The condition that says why (NamesAccepted False: a name already in use), else Established's own.
  const cause = conditions.find((c) => c?.status === 'False' && c.type !== 'Established') ?? established;
  const words = [cause.type, cause.reason].filter((w) => typeof w === 'string').join(' ');
  const name = typeof crd?.metadata?.name === 'string' ? crd.metadata.name : `${plural}.${group}`;
  const message = `The API server does not serve it: CustomResourceDefinition ${name} is not established (${words}${typeof cause.message === 'string' ? `: ${cause.message}` : ''}).`;
  return { key: kindKey({ group, plural }), ref: { group, version, kind, plural, namespaced: spec?.scope !== 'Cluster' }, message };
}

/**
 * Whether one CRD version's resources carry status: true with a status subresource or a
 * `status` property; false when the schema lists its properties without one; undefined when
 * there is no schema or the root preserves unknown fields (anything may be there).
 */
export function versionHasStatus(version: CrdVersionShape): boolean | undefined {
  if (version.subresources?.status !== undefined && version.subresources.status !== null) return true;
  const schema = version.schema?.openAPIV3Schema;
  if (!schema) return undefined;
  if (schema.properties && 'status' in schema.properties) return true;
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return undefined;
  return schema.properties ? false : undefined;
}

/** The kind key and per-version status facts of a CRD object, or undefined when it is not one. */
export function crdFacts(object: unknown): { key: string; versions: Map<string, boolean | undefined> } | undefined {
  const spec = (object as CrdShape | null)?.spec;
  const group = spec?.group;
  const plural = spec?.names?.plural;
  if (typeof group !== 'string' || typeof plural !== 'string' || !Array.isArray(spec?.versions)) return undefined;
  const versions = new Map<string, boolean | undefined>();
  for (const v of spec.versions as CrdVersionShape[]) if (typeof v?.name === 'string') versions.set(v.name, versionHasStatus(v));
  return { key: kindKey({ group, plural }), versions };
}

/** Status facts of every CRD the watch has reported. */
export class CrdIndex {
  private readonly byKey = new Map<string, Map<string, boolean | undefined>>();
  private readonly unservedByKey = new Map<string, UnservedCrd>();

  /** Records one CRD watch event; false when the object is not a CRD. */
  apply(event: CrdEvent): boolean {
    const facts = crdFacts(event.object);
    if (!facts) return false;
    const unserved = event.type === 'DELETED' ? undefined : notEstablished(event.object);
    if (unserved) this.unservedByKey.set(facts.key, unserved);
    else this.unservedByKey.delete(facts.key);
    if (event.type === 'DELETED') this.byKey.delete(facts.key);
    else this.byKey.set(facts.key, facts.versions);
    return true;
  }

  /** Forgets every CRD (the CRD watch relisted from scratch). */
  clear(): void {
    this.byKey.clear();
    this.unservedByKey.clear();
  }

  /** CRDs known but not established, by kind key. */
  unserved(): readonly UnservedCrd[] {
    return [...this.unservedByKey.values()];
  }

  /** Whether `key`'s CRD has status at `version`; undefined when unknown (see versionHasStatus). */
  hasStatus(key: string, version: string): boolean | undefined {
    return this.byKey.get(key)?.get(version);
  }

  /** Whether a CRD for `key` is known. */
  has(key: string): boolean {
    return this.byKey.has(key);
  }
}
