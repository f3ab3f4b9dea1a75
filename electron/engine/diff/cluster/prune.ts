/**
 * What a client-side `kubectl apply` removes: fields the last applied configuration
 * (`kubectl.kubernetes.io/last-applied-configuration`) had and the manifest no longer has.
 * Server-side apply does not know that annotation, so for objects kubectl applied client-side
 * the prediction drops those fields too — otherwise a field deleted from a file would show no
 * difference where `kubectl diff` shows one.
 */
import { itemIdentity } from '../fields/compare.ts';
import { fieldSchema, type ListSchema } from '../fields/list-schema.ts';
import { isObject, type JsonObject } from '../load/types.ts';
import { LAST_APPLIED } from '../normalise.ts';

/** The last applied configuration of a live object, or undefined. */
export function lastAppliedOf(live: JsonObject): JsonObject | undefined {
  const annotations = isObject(live['metadata']) && isObject(live['metadata']['annotations']) ? live['metadata']['annotations'] : undefined;
  const text = annotations?.[LAST_APPLIED];
  if (typeof text !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function pruneList(target: unknown[], last: unknown[], manifest: unknown[], schema: ListSchema | undefined): void {
  const identity = itemIdentity(schema, last, manifest);
  if (!identity) return;
  const wanted = new Map(manifest.map((item) => [identity(item), item]));
  for (const previous of last) {
    const id = identity(previous);
    const index = target.findIndex((item) => isObject(item) && identity(item) === id);
    if (index < 0) continue;
    const now = wanted.get(id);
    if (now === undefined) target.splice(index, 1);
    else pruneValue(target[index], previous, now, schema?.items);
  }
}

function pruneValue(target: unknown, last: unknown, manifest: unknown, schema: ListSchema | undefined): void {
  if (isObject(target) && isObject(last) && isObject(manifest)) {
    for (const [key, previous] of Object.entries(last)) {
      if (!Object.hasOwn(manifest, key)) delete target[key];
      else pruneValue(target[key], previous, manifest[key], fieldSchema(schema, key));
    }
  } else if (Array.isArray(target) && Array.isArray(last) && Array.isArray(manifest)) pruneList(target, last, manifest, schema);
}

/** `predicted` without what the last client-side apply set and the manifest dropped (in place; `lists`: a custom kind's list schema). */
export function pruneLastApplied(predicted: JsonObject, lastApplied: JsonObject, manifest: JsonObject, lists?: ListSchema): JsonObject {
  const { metadata: lastMetadata, ...lastRest } = lastApplied;
  const { metadata: manifestMetadata, ...manifestRest } = manifest;
  pruneValue(predicted, lastRest, manifestRest, lists);
  // Of metadata, only labels and annotations are the user's to drop.
  for (const field of ['labels', 'annotations']) {
    const target = isObject(predicted['metadata']) ? predicted['metadata'][field] : undefined;
    const last = isObject(lastMetadata) ? lastMetadata[field] : undefined;
    const now = isObject(manifestMetadata) && isObject(manifestMetadata[field]) ? manifestMetadata[field] : {};
    pruneValue(target, last, now, undefined);
  }
  return predicted;
}
