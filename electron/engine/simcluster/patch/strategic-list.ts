/**
 * List merging for strategic merge patch, after k8s.io/apimachinery's strategicpatch: lists of
 * maps merge by their merge key (with `$patch: delete|replace` items), lists of scalars merge as
 * sets, and the result is ordered the way kube-apiserver orders it (patch order for patched
 * items, live order for the rest, interleaved by the live order).
 */
import { ApiError, badRequest } from '../errors.ts';
import { goFormat, isObject, omit, type JsonObject } from './json.ts';
import type { PatchMeta } from './patch-meta.ts';

/** The map-level operations list merging recurses into (kept in strategic-merge.ts). */
export interface StrategicContext {
  /** Merges a patch map into an original map; `undefined` when the patch deletes it. */
  mergeMap(original: JsonObject, patch: JsonObject, meta: PatchMeta): JsonObject | undefined;
  /** A patch value with nothing to merge into, directives resolved; `undefined` when it deletes itself. */
  fresh(value: unknown, meta: PatchMeta): unknown;
}

export const DIRECTIVE = '$patch';

/** kube-apiserver answers errors of the strategic merge code that it does not classify with a bare 500. */
export function serverError(message: string): ApiError {
  return new ApiError(500, '', message);
}

export function noMergeKey(item: unknown, mergeKey: string): ApiError {
  return serverError(`map: ${goFormat(item)} does not contain declared merge key: ${mergeKey}`);
}

/** An item's identity for ordering: its merge key value, or the scalar itself. */
function identity(item: unknown, mergeKey: string | undefined): unknown {
  if (mergeKey === undefined) return item;
  return isObject(item) ? item[mergeKey] : undefined;
}

function indexIn(list: readonly unknown[], item: unknown, mergeKey: string | undefined): number {
  const wanted = identity(item, mergeKey);
  return list.findIndex((candidate) => identity(candidate, mergeKey) === wanted);
}

type ElementKind = 'map' | 'string' | 'number' | 'boolean' | 'null';

/** The one element kind of the given lists (all must agree; lists of lists are refused). */
function elementKind(...lists: ReadonlyArray<readonly unknown[]>): ElementKind | undefined {
  let kind: ElementKind | undefined;
  for (const item of lists.flat()) {
    if (Array.isArray(item)) {
      throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', { causes: [{ message: 'lists of lists are not supported' }] });
    }
    const current: ElementKind = item === null ? 'null' : isObject(item) ? 'map' : (typeof item as ElementKind);
    if (kind !== undefined && kind !== current) throw serverError(`list element types are not identical: ${goFormat(lists)}`);
    kind = current;
  }
  return kind;
}

/** Splits `merged` into the items present in `by` (by identity) and the others, keeping order. */
function partition(merged: readonly unknown[], by: readonly unknown[], mergeKey: string | undefined): [unknown[], unknown[]] {
  const present: unknown[] = [];
  const absent: unknown[] = [];
  for (const item of merged) {
    if (mergeKey !== undefined && !(isObject(item) && mergeKey in item)) throw noMergeKey(item, mergeKey);
    (indexIn(by, item, mergeKey) >= 0 ? present : absent).push(item);
  }
  return [present, absent];
}

function sortByOrder(items: readonly unknown[], order: readonly unknown[], mergeKey: string | undefined): unknown[] {
  const ranked = items.map((item, position) => ({ item, position, rank: indexIn(order, item, mergeKey) }));
  ranked.sort((a, b) => (a.rank >= 0 && b.rank >= 0 ? a.rank - b.rank : a.position - b.position));
  return ranked.map(({ item }) => item);
}

/**
 * apimachinery's normalizeElementOrder: patch items sorted by the patch (or `$setElementOrder`)
 * order, server-only items by the live order, then interleaved: a server-only item goes first
 * only when both items are live ones and it came first there, so new items precede the
 * server-only items that follow them.
 */
function normalizeOrder(patchItems: unknown[], serverOnly: unknown[], patchOrder: readonly unknown[], serverOrder: readonly unknown[], mergeKey: string | undefined): unknown[] {
  const right = sortByOrder(patchItems, patchOrder, mergeKey);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey);
  const out: unknown[] = [];
  let [i, j] = [0, 0];
  while (i < left.length || j < right.length) {
    if (j >= right.length || (i < left.length && isBefore(left[i], right[j], serverOrder, mergeKey))) out.push(left[i++]);
    else out.push(right[j++]);
  }
  return out;
}

function isBefore(left: unknown, right: unknown, serverOrder: readonly unknown[], mergeKey: string | undefined): boolean {
  const [l, r] = [indexIn(serverOrder, left, mergeKey), indexIn(serverOrder, right, mergeKey)];
  return l >= 0 && r >= 0 && l < r;
}

/** Reorders a merged list by a `$setElementOrder` list; items it does not name keep their live places. */
export function applyElementOrder(merged: readonly unknown[], order: readonly unknown[], original: readonly unknown[], mergeKey: string | undefined): unknown[] {
  const [named, serverOnly] = partition(merged, order, mergeKey);
  return normalizeOrder(named, serverOnly, order, original, mergeKey);
}

/** The patch list must name its items in the same relative order as `$setElementOrder` does. */
export function validateElementOrder(patchList: readonly unknown[], order: readonly unknown[], mergeKey: string | undefined): void {
  const candidates = mergeKey === undefined ? patchList : patchList.filter((item) => !(isObject(item) && item[DIRECTIVE] === 'delete'));
  let [p, o] = [0, 0];
  while (p < candidates.length && o < order.length) {
    const item = candidates[p];
    if (isObject(item) && DIRECTIVE in item) {
      p += 1;
      continue;
    }
    if (mergeKey !== undefined) {
      for (const named of [item, order[o]]) if (!isObject(named) || !(mergeKey in named)) throw noMergeKey(named, mergeKey);
    }
    if (identity(item, mergeKey) === identity(order[o], mergeKey)) p += 1;
    o += 1;
  }
  if (p < candidates.length) {
    throw serverError(`The order in patch list:\n${goFormat(patchList)}\n doesn't match $setElementOrder list:\n${goFormat(order)}\n`);
  }
}

/** Scalars merge as a set: the live items, then the patch's new ones. */
function mergeScalars(original: readonly unknown[], patch: readonly unknown[]): unknown[] {
  const merged: unknown[] = [];
  for (const item of [...original, ...patch]) if (!merged.includes(item)) merged.push(item);
  const [patchItems, serverOnly] = partition(merged, patch, undefined);
  return normalizeOrder(patchItems, serverOnly, patch, original, undefined);
}

/**
 * Merges a patch list into a live list whose field has the `merge` strategy. Maps are matched
 * by the field's merge key; `$patch: delete` items delete their match, a `$patch: replace` item
 * makes the rest of the patch list the whole list, and `$patch: merge` (which kube-apiserver
 * refuses in lists) is read as the default. New items are appended to the live list before
 * ordering.
 */
export function mergeList(original: readonly unknown[], patch: readonly unknown[], meta: PatchMeta, context: StrategicContext): unknown[] {
  const kind = elementKind(original, patch);
  if (kind === undefined) return [];
  if (kind !== 'map') return mergeScalars(original, patch);
  const mergeKey = meta.info.mergeKey;
  if (mergeKey === undefined) throw serverError('cannot merge lists without merge key for type struct');
  const elements = meta.elements();
  let current = [...original];
  const plain: JsonObject[] = [];
  let replace = false;
  for (const item of patch as JsonObject[]) {
    const directive = item[DIRECTIVE];
    if (directive === undefined) plain.push(item);
    else if (directive === 'delete') {
      if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
      current = current.filter((candidate) => !(isObject(candidate) && candidate[mergeKey] === item[mergeKey]));
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') {
      if (mergeKey in item) plain.push(omit(item, DIRECTIVE));
    } else throw serverError(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(item)}`);
  }
  if (replace) return plain.flatMap((item) => context.fresh(item, elements) ?? []);
  const merged: unknown[] = [...current];
  for (const item of plain) {
    if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
    const index = merged.findIndex((candidate) => isObject(candidate) && candidate[mergeKey] === item[mergeKey]);
    const target = merged[index];
    const next = isObject(target) ? context.mergeMap(target, item, elements) : context.fresh(item, elements);
    if (index >= 0) merged.splice(index, 1, ...(next === undefined ? [] : [next]));
    else if (next !== undefined) merged.push(next);
  }
  const [patchItems, serverOnly] = partition(merged, plain, mergeKey);
  return normalizeOrder(patchItems, serverOnly, plain, current, mergeKey);
}

/** `$deleteFromPrimitiveList/<field>`: drops the listed scalars from the live list. */
export function deleteFromList(current: readonly unknown[], toDelete: unknown): unknown[] {
  if (!Array.isArray(toDelete)) throw badRequest('invalid patch format of primitive list');
  return current.filter((item) => !toDelete.includes(item));
}
