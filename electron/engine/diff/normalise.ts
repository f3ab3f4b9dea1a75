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

/**
 * A copy of `object` in the diff's normal form. Only what changes is copied (the top level,
 * metadata, annotations, a Secret's data maps): the rest is shared with the input, which is never
 * modified afterwards, so a 500-object run does not deep-copy every spec.
 */
export function normalise(object: JsonObject): JsonObject {
  const { status: _status, ...copy } = object;
  const metadata = copy['metadata'];
  if (isObject(metadata)) {
    const next: JsonObject = { ...metadata };
    for (const field of SERVER_METADATA) delete next[field];
    const annotations = next['annotations'];
    if (isObject(annotations) && Object.hasOwn(annotations, LAST_APPLIED)) {
      const { [LAST_APPLIED]: _applied, ...rest } = annotations;
      if (Object.keys(rest).length === 0) delete next['annotations'];
      else next['annotations'] = rest;
    } else if (isObject(annotations) && Object.keys(annotations).length === 0) delete next['annotations'];
    copy['metadata'] = next;
  }
  // maskSecrets rewrites these maps in place, so they must be the copy's own.
  for (const field of ['data', 'stringData']) if (isSecret(copy) && isObject(copy[field])) copy[field] = { ...(copy[field] as JsonObject) };
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
