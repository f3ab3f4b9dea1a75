/**
 * The client-side prediction used when the server refuses the dry run (403: no patch or create
 * permission): the manifest laid over the live object, maps merged key by key and lists of
 * objects merged by their merge key (a custom resource's list maps by their schema keys), other
 * lists replaced, as a strategic merge would. Without the server there are no defaults and no
 * admission, so the result is labelled approximate.
 */
import { itemIdentity } from '../fields/compare.ts';
import { fieldSchema, type ListSchema } from '../fields/list-schema.ts';
import { isObject, type JsonObject } from '../load/types.ts';
import { isSecret } from '../normalise.ts';

function mergeLists(live: unknown[], manifest: unknown[], schema: ListSchema | undefined): unknown[] {
  const identity = itemIdentity(schema, live, manifest);
  if (!identity) return structuredClone(manifest);
  const liveByKey = new Map(live.map((item) => [identity(item), item]));
  return manifest.map((item) => {
    const match = liveByKey.get(identity(item));
    return match === undefined ? structuredClone(item) : mergeValues(match, item, schema?.items);
  });
}

function mergeValues(live: unknown, manifest: unknown, schema: ListSchema | undefined): unknown {
  if (isObject(live) && isObject(manifest)) {
    const out: JsonObject = structuredClone(live);
    for (const [key, value] of Object.entries(manifest)) {
      if (value === null) delete out[key];
      else out[key] = Object.hasOwn(live, key) ? mergeValues(live[key], value, fieldSchema(schema, key)) : structuredClone(value);
    }
    return out;
  }
  if (Array.isArray(live) && Array.isArray(manifest)) return mergeLists(live, manifest, schema);
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

/** What applying `manifest` onto `live` would give, computed here instead of by the server (`lists`: a custom kind's list schema). */
export function predictClientSide(live: JsonObject | undefined, manifest: JsonObject, lists?: ListSchema): JsonObject {
  const folded = foldStringData(manifest);
  return live ? (mergeValues(live, folded, lists) as JsonObject) : structuredClone(folded);
}
