/**
 * Schema-aware walks over objects, after structured-merge-diff (the library behind
 * kube-apiserver's server-side apply): the field set an object sets, the comparison of two
 * versions of an object, and the identity of list items.
 */
import { FieldSet, fieldToken, keyToken, pathToString, valueToken, type FieldPath } from './fieldpath.ts';
import { deepEqual, isObject } from './json.ts';
import { listSemantics, type ListSemantics, type PatchMeta } from './patch-meta.ts';

/** How a walk treats a position: descend into a map or list, or compare it as one value. */
export type Shape = 'map' | 'list' | 'leaf';

/**
 * Atomic maps and lists, scalars and mismatched types are leaves; so is a position where every
 * side is absent or empty (structured-merge-diff's "empty promotes to leaf", which keeps the
 * distinction between `{}` and absent).
 */
export function shapeOf(meta: PatchMeta, ...values: unknown[]): Shape {
  const present = values.filter((value) => value !== undefined && value !== null);
  if (present.length === 0) return 'leaf';
  if (present.every(isObject)) {
    const { kind, mapType } = meta.info;
    if (mapType === 'atomic' || kind === 'list' || kind === 'scalar') return 'leaf';
    return present.every((value) => Object.keys(value).length === 0) ? 'leaf' : 'map';
  }
  if (present.every(Array.isArray)) {
    if (listSemantics(meta.info).type === 'atomic') return 'leaf';
    return present.every((value) => value.length === 0) ? 'leaf' : 'list';
  }
  return 'leaf';
}

/** The token naming a list item (`k:{"name":"c"}` or `v:"x"`), or why it has none. */
export function itemToken(item: unknown, semantics: ListSemantics, elements: PatchMeta): { token: string } | { error: string } {
  if (semantics.type === 'map') {
    if (!isObject(item)) return { error: 'associative list with keys has an element that is not a map' };
    const fields: Array<[string, unknown]> = [];
    for (const key of semantics.keys) {
      const value = key in item ? item[key] : elements.field(key).info.default;
      if (value === undefined) return { error: `associative list with keys has an element that omits key field "${key}" (and doesn't have default value)` };
      fields.push([key, value]);
    }
    return { token: keyToken(fields) };
  }
  if (isObject(item)) return { error: "associative list without keys has an element that's a map type" };
  if (Array.isArray(item)) return { error: 'not supported: associative list with lists as elements' };
  return { token: valueToken(item) };
}

/** A list's items by token, in list order; the first of duplicate items wins. */
export function indexItems(list: readonly unknown[], meta: PatchMeta): Map<string, unknown> {
  const semantics = listSemantics(meta.info);
  const elements = meta.elements();
  const index = new Map<string, unknown>();
  for (const item of list) {
    const named = itemToken(item, semantics, elements);
    if ('token' in named && !index.has(named.token)) index.set(named.token, item);
  }
  return index;
}

/** The meta of the position a token leads to. */
export function metaForToken(meta: PatchMeta, token: string): PatchMeta {
  return token.startsWith('f:') ? meta.field(token.slice(2)) : meta.elements();
}

/**
 * The fields `value` sets, as structured-merge-diff's ToFieldSet computes an applier's set:
 * scalars, atomic maps and lists, every list item (which also gets `.`), and the entries of
 * free-form maps. Struct-typed maps are owned only through their fields. Items that cannot be
 * named are reported in `errors` (`.spec.containers: element 0: ...`).
 */
export function toFieldSet(value: unknown, meta: PatchMeta, errors: string[] = []): FieldSet {
  const set = new FieldSet();
  collect(value, meta, [], set, errors);
  return set;
}

function collect(value: unknown, meta: PatchMeta, path: FieldPath, set: FieldSet, errors: string[]): void {
  if (isObject(value)) {
    if (meta.info.mapType === 'atomic' || meta.info.kind === 'list' || meta.info.kind === 'scalar') {
      set.insert(path);
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) continue;
      const childPath = [...path, fieldToken(key)];
      collect(child, meta.field(key), childPath, set, errors);
      if (!meta.declares(key)) set.insert(childPath);
    }
    return;
  }
  if (Array.isArray(value)) {
    const semantics = listSemantics(meta.info);
    if (semantics.type === 'atomic') {
      set.insert(path);
      return;
    }
    const elements = meta.elements();
    value.forEach((item, index) => {
      const named = itemToken(item, semantics, elements);
      if ('error' in named) {
        errors.push(`${pathToString(path)}: element ${index}: ${named.error}`);
        return;
      }
      const itemPath = [...path, named.token];
      collect(item, elements, itemPath, set, errors);
      set.insert(itemPath);
    });
    return;
  }
  set.insert(path);
}

/** What changed between two versions of an object, as structured-merge-diff's Compare reports it. */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

export interface CompareOptions {
  /**
   * `lhs` is absent because the object is being created. kube-apiserver then compares with the
   * Go zero value of the type, in which structs reached through struct fields and required
   * fields already exist; they are therefore not recorded as added maps (no `.` for
   * `f:spec`, `f:template`, `f:containers`), while optional maps and lists are.
   */
  readonly fromZero?: boolean;
}

/** Compares `lhs` (before) with `rhs` (after); `undefined` means absent. */
export function compareObjects(lhs: unknown, rhs: unknown, meta: PatchMeta, options: CompareOptions = {}): Comparison {
  const comparison: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, meta, [], comparison, options.fromZero ?? false);
  return comparison;
}

function walk(lhsIn: unknown, rhs: unknown, meta: PatchMeta, path: FieldPath, out: Comparison, inZero: boolean): void {
  let lhs = lhsIn;
  if (lhs === undefined && inZero) {
    if (rhs === undefined) return;
    // Only containers the walk descends into need their zero value; leaves are simply added.
    const zero = meta.info.kind === 'struct' ? {} : null;
    if (shapeOf(meta, zero, rhs) !== 'leaf') lhs = zero;
  }
  if (lhs === undefined && rhs === undefined) return;
  const shape = shapeOf(meta, lhs, rhs);
  if (shape === 'leaf') {
    if (lhs === undefined) out.added.insert(path);
    else if (rhs === undefined) out.removed.insert(path);
    else if (!deepEqual(lhs, rhs)) out.modified.insert(path);
    return;
  }
  if (shape === 'map') {
    const [left, right] = [isObject(lhs) ? lhs : {}, isObject(rhs) ? rhs : {}];
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
      const child = meta.field(key);
      const childInZero = inZero && meta.declares(key) && (child.info.kind === 'struct' || meta.requires(key));
      walk(left[key], right[key], child, [...path, fieldToken(key)], out, childInZero);
    }
  } else {
    const left = indexItems(Array.isArray(lhs) ? lhs : [], meta);
    const right = indexItems(Array.isArray(rhs) ? rhs : [], meta);
    const elements = meta.elements();
    for (const [token, item] of right) walk(left.get(token), item, elements, [...path, token], out, false);
    for (const [token, item] of left) if (!right.has(token)) walk(item, undefined, elements, [...path, token], out, false);
  }
  if (lhs === undefined) out.added.insert(path);
  else if (rhs === undefined) out.removed.insert(path);
}

/**
 * Adds to a set the struct fields it only holds through children (`.spec.strategy` for
 * `.spec.strategy.type`), as structured-merge-diff does before pruning, so that a struct whose
 * fields nobody owns any more disappears with them. Free-form map keys are left alone.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, meta: PatchMeta): FieldSet {
  const out = new FieldSet();
  for (const token of set.members) out.members.add(token);
  for (const [token, child] of set.children) {
    if (token.startsWith('f:') && meta.declares(token.slice(2))) out.members.add(token);
    out.children.set(token, ensureNamedFieldsAreMembers(child, metaForToken(meta, token)));
  }
  return out;
}
