/**
 * Objects of metadata-only kinds, as they enter the engine. The server answers a metadata-only
 * list or watch with PartialObjectMetadata items (kind and apiVersion of meta.k8s.io); this turns
 * one back into an object of its own kind, and drops at once what metadata may still carry of
 * the object's contents: `kubectl apply` copies the whole manifest, a Secret's values included,
 * into the last-applied annotation, and kube-apiserver keeps annotations in PartialObjectMetadata.
 */
import { apiVersionOf, type KindRef } from '../../../../shared/kinds.ts';
import { LAST_APPLIED_ANNOTATION } from '../informers/slim.ts';

/** A metadata-only kind's object: its own apiVersion and kind, and its metadata, nothing else. */
export interface MetadataObject {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One item of a PartialObjectMetadataList, or the object of a metadata-only watch event, as an
 * object of `ref`'s kind without managedFields or the last-applied annotation. Throws when the
 * server sent anything but PartialObjectMetadata: a whole object (a Secret with its data) must
 * not be taken in through a path that promises metadata only.
 */
export function objectFromPartialMetadata(raw: unknown, ref: Pick<KindRef, 'group' | 'version' | 'kind' | 'plural'>): MetadataObject {
  const kind = isRecord(raw) ? raw['kind'] : undefined;
  // List items may leave kind out (client-go's metadata client accepts that too); anything else named is refused.
  if (!isRecord(raw) || (kind !== undefined && kind !== 'PartialObjectMetadata')) {
    throw new Error(`a metadata-only read of ${ref.plural} answered ${typeof kind === 'string' ? `a ${kind}` : 'something'} instead of PartialObjectMetadata`);
  }
  const metadata = isRecord(raw['metadata']) ? raw['metadata'] : {};
  const { managedFields: _managedFields, annotations, ...rest } = metadata;
  const out: Record<string, unknown> = { ...rest };
  if (isRecord(annotations)) {
    const { [LAST_APPLIED_ANNOTATION]: _lastApplied, ...kept } = annotations;
    if (Object.keys(kept).length > 0) out['annotations'] = kept;
  }
  return { apiVersion: apiVersionOf(ref), kind: ref.kind, metadata: out };
}
