/**
 * What a client-side `kubectl apply` removes: fields the last applied configuration
 * (`kubectl.kubernetes.io/last-applied-configuration`) had and the manifest no longer has.
 * Server-side apply does not know that annotation, so for objects kubectl applied client-side
 * the prediction drops those fields too — otherwise a field deleted from a file would show no
 * difference where `kubectl diff` shows one.
 */
import { mergeKeyOf } from '../fields/compare.ts';
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

function pruneList(target: unknown[], last: unknown[], manifest: unknown[]): void {
  const key = mergeKeyOf(last, manifest);
  if (!key) return;
  const keyOf = (item: unknown) => (item as JsonObject)[key];
  const wanted = new Map(manifest.map((item) => [keyOf(item), item]));
  for (const previous of last) {
    const index = target.findIndex((item) => isObject(item) && item[key] === keyOf(previous));
    if (index < 0) continue;
    const now = wanted.get(keyOf(previous));
    if (now === undefined) target.splice(index, 1);
    else pruneValue(target[index], previous, now);
  }
}

function pruneValue(target: unknown, last: unknown, manifest: unknown): void {
  if (isObject(target) && isObject(last) && isObject(manifest)) {
    for (const [key, previous] of Object.entries(last)) {
      if (!Object.hasOwn(manifest, key)) delete target[key];
      else pruneValue(target[key], previous, manifest[key]);
    }
  } else if (Array.isArray(target) && Array.isArray(last) && Array.isArray(manifest)) pruneList(target, last, manifest);
}

/** `predicted` without what the last client-side apply set and the manifest dropped (in place). */
export function pruneLastApplied(predicted: JsonObject, lastApplied: JsonObject, manifest: JsonObject): JsonObject {
  const { metadata: lastMetadata, ...lastRest } = lastApplied;
  const { metadata: manifestMetadata, ...manifestRest } = manifest;
  pruneValue(predicted, lastRest, manifestRest);
  // Of metadata, only labels and annotations are the user's to drop.
  for (const field of ['labels', 'annotations']) {
    const target = isObject(predicted['metadata']) ? predicted['metadata'][field] : undefined;
    const last = isObject(lastMetadata) ? lastMetadata[field] : undefined;
    const now = isObject(manifestMetadata) && isObject(manifestMetadata[field]) ? manifestMetadata[field] : {};
    pruneValue(target, last, now);
  }
  return predicted;
}
