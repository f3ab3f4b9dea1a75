/**
 * The ResourceTypes an established CustomResourceDefinition serves: one per served version, with
 * the names the naming controller accepted, the version's schema, printer columns and
 * subresources.
 */
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import type { CrdNames, CrdSpec, CrdStatus, CrdVersion } from './types.ts';

/** The CRD's spec, typed (validation has checked its shape before it was stored). */
export function crdSpecOf(crd: KubeObject): CrdSpec {
  return crd['spec'] as CrdSpec;
}

/** The CRD's status, typed; empty before the controllers first write it. */
export function crdStatusOf(crd: KubeObject): CrdStatus {
  return (crd['status'] ?? {}) as CrdStatus;
}

/** The version objects are stored at: the one marked `storage`. */
export function storageVersionOf(spec: CrdSpec): string {
  return spec.versions.find((v) => v.storage)?.name ?? spec.versions[0]?.name ?? '';
}

/** The verbs the CRD discovery controller lists, in its order. */
const CUSTOM_RESOURCE_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

function typeFor(spec: CrdSpec, names: CrdNames, version: CrdVersion, crdName: string): ResourceType {
  const subresources: ResourceType['subresources'] = [];
  if (version.subresources?.status) subresources.push('status');
  if (version.subresources?.scale) subresources.push('scale');
  return {
    group: spec.group,
    version: version.name,
    kind: names.kind,
    plural: names.plural,
    singular: names.singular ?? names.kind.toLowerCase(),
    namespaced: spec.scope === 'Namespaced',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    verbs: CUSTOM_RESOURCE_VERBS,
    subresources,
    custom: {
      crdName,
      listKind: names.listKind ?? `${names.kind}List`,
      schema: version.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      printerColumns: version.additionalPrinterColumns ?? [],
      ...(version.subresources?.scale ? { scale: version.subresources.scale } : {}),
      storageVersion: storageVersionOf(spec),
      ...(version.deprecated ? { deprecationWarning: version.deprecationWarning ?? `${spec.group}/${version.name} ${names.kind} is deprecated` } : {}),
    },
  };
}

/**
 * The kinds `crd` serves under `names` (its accepted names), one per served version. A CRD being
 * deleted still serves them (marked terminating: no creates) while its instances are deleted.
 */
export function typesForCrd(crd: KubeObject, names: CrdNames): ResourceType[] {
  const spec = crdSpecOf(crd);
  const terminating = crd.metadata.deletionTimestamp !== undefined;
  return spec.versions.filter((v) => v.served).map((v) => {
    const type = typeFor(spec, names, v, crd.metadata.name);
    return terminating && type.custom ? { ...type, custom: { ...type.custom, terminating: true } } : type;
  });
}
