/**
 * Strategic merge patch (`Content-Type: application/strategic-merge-patch+json`), as
 * kube-apiserver applies what `kubectl apply`, `kubectl diff` and `kubectl patch` send: maps
 * merge recursively and `null` deletes; lists whose field has the `merge` strategy merge by
 * merge key (maps) or as sets (scalars); other lists are replaced. Directives: `$patch`
 * (`replace`, `delete`, `merge`) on maps and list items, `$retainKeys`,
 * `$setElementOrder/<field>` and `$deleteFromPrimitiveList/<field>`. No directive survives into
 * the result.
 */
import { badRequest } from '../errors.ts';
import { clone, goFormat, goJsonType, isObject, omit, type JsonObject } from './json.ts';
import { hasStrategy, type PatchMeta } from './patch-meta.ts';
import {
  applyElementOrder,
  deleteFromList,
  DIRECTIVE,
  mergeList,
  serverError,
  validateElementOrder,
  type StrategicContext,
} from './strategic-list.ts';

const RETAIN_KEYS = '$retainKeys';
const ELEMENT_ORDER = '$setElementOrder/';
const DELETE_FROM = '$deleteFromPrimitiveList/';

function isDirectiveKey(key: string): boolean {
  return key === DIRECTIVE || key === RETAIN_KEYS || key.startsWith(ELEMENT_ORDER) || key.startsWith(DELETE_FROM);
}

/** A patch value with no live counterpart: merged into nothing, so its directives are resolved too. */
function fresh(value: unknown, meta: PatchMeta): unknown {
  if (isObject(value)) return mergeMap({}, value, meta);
  if (!Array.isArray(value)) return value;
  if (hasStrategy(meta.info, 'merge')) return mergeList([], value, meta, context);
  return value.flatMap((item) => (isObject(item) ? (fresh(item, meta.elements()) ?? []) : [clone(item)]));
}

function mergeValue(original: unknown, patch: unknown, meta: PatchMeta): unknown {
  if (isObject(original) && isObject(patch)) {
    return hasStrategy(meta.info, 'replace') ? fresh(patch, meta) : mergeMap(original, patch, meta);
  }
  if (Array.isArray(original) && Array.isArray(patch) && hasStrategy(meta.info, 'merge')) {
    return mergeList(original, patch, meta, context);
  }
  return fresh(patch, meta);
}

/** `$retainKeys`: live keys not listed are cleared; the patch may only set listed keys. */
function retainKeys(result: JsonObject, patch: JsonObject): void {
  if (!(RETAIN_KEYS in patch)) return;
  const keep = patch[RETAIN_KEYS];
  if (!Array.isArray(keep)) throw badRequest('invalid patch format of retainKeys');
  for (const [key, value] of Object.entries(patch)) {
    if (value !== null && !isDirectiveKey(key) && !keep.includes(key)) throw badRequest('invalid patch format of retainKeys');
  }
  for (const key of Object.keys(result)) if (!keep.includes(key)) delete result[key];
}

/**
 * `$setElementOrder/<field>`: merges the field's patch list (if any) and orders the result as
 * listed, keeping live items the list does not name. Returns the fields it handled.
 */
function applyElementOrders(result: JsonObject, patch: JsonObject, meta: PatchMeta): Set<string> {
  const handled = new Set<string>();
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(ELEMENT_ORDER)) continue;
    if (!Array.isArray(order)) throw badRequest('invalid patch type of setElementOrder list');
    const field = key.slice(ELEMENT_ORDER.length);
    const fieldMeta = meta.field(field);
    const [original, patchList] = [result[field], patch[field]];
    // Only merge lists are ordered; anything else (no list on either side, a null deleting the
    // list, a non-list value) is left to the ordinary merge below.
    const listOrAbsent = (value: unknown) => value === undefined || Array.isArray(value);
    if (!hasStrategy(fieldMeta.info, 'merge') || !listOrAbsent(original) || !listOrAbsent(patchList) || (original === undefined && patchList === undefined)) {
      continue;
    }
    const mergeKey = fieldMeta.info.mergeKey;
    const live = Array.isArray(original) ? original : [];
    const patchItems = Array.isArray(patchList) ? patchList : undefined;
    validateElementOrder(patchItems ?? [], order, mergeKey);
    const merged = patchItems ? mergeList(live, patchItems, fieldMeta, context) : live;
    result[field] = applyElementOrder(merged, order, live, mergeKey);
    handled.add(field);
  }
  return handled;
}

/** Merges `patch` into `original` (a private copy that may be reused); `undefined` when `$patch: delete` removes it. */
function mergeMap(original: JsonObject, patchIn: JsonObject, meta: PatchMeta): JsonObject | undefined {
  let patch = patchIn;
  if (DIRECTIVE in patch) {
    const directive = patch[DIRECTIVE];
    if (directive === 'delete') return undefined;
    if (directive === 'replace') return mergeMap({}, omit(patch, DIRECTIVE), meta);
    if (directive !== 'merge') throw serverError(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(patch)}`);
    patch = omit(patch, DIRECTIVE);
  }
  const result: JsonObject = { ...original };
  retainKeys(result, patch);
  const ordered = applyElementOrders(result, patch, meta);
  for (const [key, value] of Object.entries(patch)) {
    if (isDirectiveKey(key) || ordered.has(key)) continue;
    if (value === null) {
      delete result[key];
      continue;
    }
    const merged = result[key] === undefined ? fresh(value, meta.field(key)) : mergeValue(result[key], value, meta.field(key));
    if (merged === undefined) delete result[key];
    else result[key] = merged;
  }
  for (const [key, toDelete] of Object.entries(patch)) {
    if (!key.startsWith(DELETE_FROM)) continue;
    const field = key.slice(DELETE_FROM.length);
    const current = result[field];
    if (Array.isArray(current)) result[field] = deleteFromList(current, toDelete);
    else if (!Array.isArray(toDelete)) throw badRequest('invalid patch format of primitive list');
  }
  return result;
}

const context: StrategicContext = { mergeMap, fresh };

/**
 * Applies a decoded strategic merge patch to `target` using the kind's patch metadata and
 * returns a new object (inputs are not mutated). A patch that is not a JSON object and
 * malformed directives are 400 BadRequest; list items without their merge key and unknown
 * `$patch` values are kube-apiserver's bare 500.
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown, meta: PatchMeta): JsonObject {
  if (!isObject(patch)) throw badRequest(`json: cannot unmarshal ${goJsonType(patch)} into Go value of type map[string]interface {}`);
  return mergeMap(isObject(target) ? clone(target) : {}, patch, meta) ?? {};
}
