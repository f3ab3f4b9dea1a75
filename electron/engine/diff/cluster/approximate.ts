/**
 * The client-side prediction used when the server refuses the dry run (403: no patch or create
 * permission): the manifest laid over the live object, maps merged key by key and lists of
 * objects merged by their merge key, other lists replaced, as a strategic merge would. Without
 * the server there are no defaults and no admission, so the result is labelled approximate.
 */
import { mergeKeyOf } from '../fields/compare.ts';
import { isObject, type JsonObject } from '../load/types.ts';
import { isSecret } from '../normalise.ts';

function mergeLists(live: unknown[], manifest: unknown[]): unknown[] {
  const key = mergeKeyOf(live, manifest);
  if (!key) return structuredClone(manifest);
  const liveByKey = new Map(live.map((item) => [(item as JsonObject)[key], item]));
  return manifest.map((item) => {
    const match = liveByKey.get((item as JsonObject)[key]);
    return match === undefined ? structuredClone(item) : mergeValues(match, item);
  });
}

function mergeValues(live: unknown, manifest: unknown): unknown {
  if (isObject(live) && isObject(manifest)) {
    const out: JsonObject = structuredClone(live);
    for (const [key, value] of Object.entries(manifest)) {
      if (value === null) delete out[key];
      else out[key] = Object.hasOwn(live, key) ? mergeValues(live[key], value) : structuredClone(value);
    }
    return out;
  }
  if (Array.isArray(live) && Array.isArray(manifest)) return mergeLists(live, manifest);
  return structuredClone(manifest);
}

/** A Secret's `stringData` as the API server stores it: base64 in `data`. */
export function foldStringData(object: JsonObject): JsonObject {
  if (!isSecret(object) || !isObject(object['stringData'])) return object;
  const data: JsonObject = isObject(object['data']) ? { ...object['data'] } : {};
  for (const [key, value] of Object.entries(object['stringData'])) data[key] = Buffer.from(String(value), 'utf8').toString('base64');
  const { stringData: _dropped, ...rest } = object;
  return { ...rest, data };
}

/** What applying `manifest` onto `live` would give, computed here instead of by the server. */
export function predictClientSide(live: JsonObject | undefined, manifest: JsonObject): JsonObject {
  const folded = foldStringData(manifest);
  return live ? (mergeValues(live, folded) as JsonObject) : structuredClone(folded);
}
