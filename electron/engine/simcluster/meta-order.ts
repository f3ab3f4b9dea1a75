/**
 * kube-apiserver writes an object's metadata in the field order of Go's ObjectMeta struct
 * (k8s.io/apimachinery/pkg/apis/meta/v1/types.go): name, generateName, namespace, selfLink, uid,
 * resourceVersion, generation, creationTimestamp, deletion*, labels, annotations,
 * ownerReferences, finalizers, managedFields. Clients may lean on that: a watch line's uid and
 * resourceVersion come within its first few hundred bytes, before the labels and the (large)
 * managedFields. The simulator builds metadata by spreading what a client sent, so without this
 * its order followed the client's and the uid could come after 1.4 KB of managedFields.
 */
import type { KubeObject } from './types.ts';

type Meta = KubeObject['metadata'];

/** ObjectMeta's JSON field names in the struct's order. */
const OBJECT_META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;

/** `meta` itself when already in order, else a copy with ObjectMeta's order (unknown fields last, as sent). */
export function inObjectMetaOrder(meta: Meta): Meta {
  const keys = Object.keys(meta);
  let at = 0;
  let ordered = true;
  for (const field of OBJECT_META_FIELDS) {
    if (!(field in meta)) continue;
    if (keys[at] !== field) {
      ordered = false;
      break;
    }
    at += 1;
  }
  if (ordered) return meta;
  const copy: Record<string, unknown> = {};
  const source = meta as Record<string, unknown>;
  for (const field of OBJECT_META_FIELDS) if (field in source) copy[field] = source[field];
  for (const key of keys) if (!(key in copy)) copy[key] = source[key];
  return copy as Meta;
}
