/**
 * One normal form for the live object and the predicted one, so that an object applied from the
 * very file being diffed shows no difference: the server's bookkeeping (managedFields,
 * resourceVersion, generation, uid, creationTimestamp, selfLink), status and the client-side
 * apply annotation are dropped from both. Secret values are then masked as kubectl masks them,
 * before anything is compared, kept or shown: no Secret value survives this module.
 */
import { isObject, type JsonObject } from './load/types.ts';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const SERVER_METADATA = ['managedFields', 'resourceVersion', 'generation', 'uid', 'creationTimestamp', 'selfLink'] as const;

export const SECRET_MASK = '***';
export const SECRET_MASK_BEFORE = '*** (before)';
export const SECRET_MASK_AFTER = '*** (after)';

/** A copy of `object` in the diff's normal form. */
export function normalise(object: JsonObject): JsonObject {
  const copy = structuredClone(object);
  delete copy['status'];
  const metadata = copy['metadata'];
  if (isObject(metadata)) {
    for (const field of SERVER_METADATA) delete metadata[field];
    const annotations = metadata['annotations'];
    if (isObject(annotations)) {
      delete annotations[LAST_APPLIED];
      if (Object.keys(annotations).length === 0) delete metadata['annotations'];
    }
  }
  return copy;
}

export function isSecret(object: JsonObject | undefined): boolean {
  return object?.['kind'] === 'Secret' && object['apiVersion'] === 'v1';
}

/**
 * kubectl diff's masker: a key on both sides shows `***` when the values are equal and
 * `*** (before)` / `*** (after)` when they differ; a key on one side only shows `***`.
 * Masks `data` and `stringData` in place on copies the caller owns.
 */
export function maskSecrets(live: JsonObject | undefined, predicted: JsonObject | undefined): void {
  if (!isSecret(live) && !isSecret(predicted)) return;
  for (const field of ['data', 'stringData']) {
    const from = live && isObject(live[field]) ? (live[field] as JsonObject) : undefined;
    const to = predicted && isObject(predicted[field]) ? (predicted[field] as JsonObject) : undefined;
    for (const key of Object.keys(from ?? {})) {
      if (!from) break;
      if (to && Object.hasOwn(to, key)) {
        if (from[key] !== to[key]) {
          from[key] = SECRET_MASK_BEFORE;
          to[key] = SECRET_MASK_AFTER;
          continue;
        }
        to[key] = SECRET_MASK;
      }
      from[key] = SECRET_MASK;
    }
    for (const key of Object.keys(to ?? {})) {
      if (to && !(from && Object.hasOwn(from, key))) to[key] = SECRET_MASK;
    }
  }
}

/** The managedFields of a live object (kept for field owners after normalising drops them). */
export function managedFieldsOf(object: JsonObject | undefined): ManagedFieldsEntry[] {
  const metadata = object && isObject(object['metadata']) ? object['metadata'] : undefined;
  const entries = metadata?.['managedFields'];
  return Array.isArray(entries) ? entries.filter(isObject).map((entry) => entry as unknown as ManagedFieldsEntry) : [];
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  subresource?: string;
  fieldsV1?: JsonObject;
}
