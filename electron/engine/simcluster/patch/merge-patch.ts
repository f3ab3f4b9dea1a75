/** JSON merge patch (RFC 7386, `Content-Type: application/merge-patch+json`). */
import { clone, isObject, type JsonObject } from './json.ts';

/**
 * Applies `patch` to `target` per RFC 7386: objects merge member by member, `null` deletes a
 * member, anything else (arrays included) replaces. Returns a new value; inputs are not mutated.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  return mergeInto(clone(target), patch);
}

/** Merges into `target`, which is a private copy and may be reused. */
function mergeInto(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return clone(patch);
  const result: JsonObject = isObject(target) ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergeInto(result[key], value);
  }
  return result;
}
