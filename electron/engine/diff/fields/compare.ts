/**
 * Field-level differences between two normalised objects. Maps compare key by key. Where a
 * custom resource's schema says what a list is (see list-schema.ts), that decides: a list map
 * compares item by item under its keys and a set as a set, both ignoring order; an atomic list is
 * one value. Elsewhere lists of objects that carry a merge key (containers by `name`, ports by
 * `containerPort`, ...) compare element by element under that key, as server-side apply merges
 * them; lists of scalars are atomic (one difference for the whole list), as `args` and `command` are.
 */
import { isObject } from '../load/types.ts';
import { fieldSchema, type ListRule, type ListSchema } from './list-schema.ts';
import type { ElementMatch, Segment } from './paths.ts';
import { jsonEqual } from '../../../../shared/json-equal.ts';

export interface FieldDifference {
  segments: Segment[];
  op: 'changed' | 'added' | 'removed';
  live?: unknown;
  predicted?: unknown;
}

/** Merge keys of the built-in list types, most common first. */
const MERGE_KEYS = ['name', 'containerPort', 'mountPath', 'devicePath', 'port', 'ip', 'topologyKey', 'type', 'key'] as const;

type Scalar = string | number | boolean;
const isScalar = (value: unknown): value is Scalar => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** Structural JSON equality (shared/json-equal.ts). */
export const deepEqual = jsonEqual;

/** The merge key every element of both lists has, with unique scalar values; undefined when none fits. */
export function mergeKeyOf(a: readonly unknown[], b: readonly unknown[]): string | undefined {
  const all = [...a, ...b];
  if (all.length === 0 || !all.every(isObject)) return undefined;
  return MERGE_KEYS.find((key) => {
    for (const list of [a, b]) {
      const seen = new Set<Scalar>();
      for (const item of list) {
        const value = (item as Record<string, unknown>)[key];
        if (!isScalar(value) || seen.has(value)) return false;
        seen.add(value);
      }
    }
    return true;
  });
}

/** An item's key values in a list map (absent keys take the schema default), or undefined when one is not a scalar. */
function keyValues(item: unknown, rule: Extract<ListRule, { type: 'map' }>): Scalar[] | undefined {
  if (!isObject(item)) return undefined;
  const values = rule.keys.map((key, i) => item[key] ?? rule.defaults[i]);
  return values.every(isScalar) ? values : undefined;
}

/** Each item of a list map by its keys; undefined when an item has no scalar keys or two share them. */
export function indexByKeys(list: readonly unknown[], rule: Extract<ListRule, { type: 'map' }>): Map<string, { item: unknown; i: number; values: Scalar[] }> | undefined {
  const index = new Map<string, { item: unknown; i: number; values: Scalar[] }>();
  for (const [i, item] of list.entries()) {
    const values = keyValues(item, rule);
    const id = values && JSON.stringify(values);
    if (!values || id === undefined || index.has(id)) return undefined;
    index.set(id, { item, i, values });
  }
  return index;
}

/**
 * How the items of two versions of a list are matched, for merging and pruning: a key function
 * (the schema's list map keys, else the built-in merge key), or undefined when the list is one
 * value (a set or atomic list in the schema, or no merge key fits).
 */
export function itemIdentity(schema: ListSchema | undefined, a: readonly unknown[], b: readonly unknown[]): ((item: unknown) => string) | undefined {
  const rule = schema?.list;
  if (rule?.type === 'map') {
    if (!indexByKeys(a, rule) || !indexByKeys(b, rule)) return undefined;
    return (item) => JSON.stringify(keyValues(item, rule));
  }
  if (rule) return undefined;
  const key = mergeKeyOf(a, b);
  return key === undefined ? undefined : (item) => JSON.stringify(isObject(item) ? item[key] : null);
}

/** A multiset of JSON values, as counts by their JSON text. */
function counts(list: readonly unknown[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of list) {
    const text = JSON.stringify(item) ?? 'null';
    out.set(text, (out.get(text) ?? 0) + 1);
  }
  return out;
}

function sameSet(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  const left = counts(a);
  const right = counts(b);
  return [...left].every(([text, count]) => right.get(text) === count);
}

function compareListMap(live: unknown[], predicted: unknown[], schema: ListSchema, rule: Extract<ListRule, { type: 'map' }>, at: Segment[], out: FieldDifference[]): void {
  const liveIndex = indexByKeys(live, rule);
  const predictedIndex = indexByKeys(predicted, rule);
  if (!liveIndex || !predictedIndex) {
    // Items without their keys cannot be matched: the server would refuse them; compare whole.
    out.push({ segments: at, op: 'changed', live, predicted });
    return;
  }
  const matchOf = (values: Scalar[]): ElementMatch => {
    const [first, ...rest] = rule.keys.map((key, i) => ({ key, value: values[i] as Scalar })) as [ElementMatch, ...ElementMatch[]];
    return rest.length ? { ...first, also: rest } : first;
  };
  for (const [id, { item, i, values }] of liveIndex) {
    const segment: Segment = { index: i, match: matchOf(values) };
    const other = predictedIndex.get(id);
    if (other) compareValues(item, other.item, [...at, segment], out, schema.items);
    else out.push({ segments: [...at, segment], op: 'removed', live: item });
  }
  for (const [id, { item, i, values }] of predictedIndex) {
    if (!liveIndex.has(id)) out.push({ segments: [...at, { index: i, match: matchOf(values) }], op: 'added', predicted: item });
  }
}

/** A list whose schema says what it is: a list map, a set (order ignored) or an atomic value. */
function compareTypedList(live: unknown[], predicted: unknown[], schema: ListSchema, rule: ListRule, at: Segment[], out: FieldDifference[]): void {
  if (rule.type === 'map') compareListMap(live, predicted, schema, rule, at, out);
  else if (rule.type === 'set' ? !sameSet(live, predicted) : !deepEqual(live, predicted)) out.push({ segments: at, op: 'changed', live, predicted });
}

function compareLists(live: unknown[], predicted: unknown[], at: Segment[], out: FieldDifference[]): void {
  const key = mergeKeyOf(live, predicted);
  if (!key) {
    if (live.every(isScalar) && predicted.every(isScalar)) {
      out.push({ segments: at, op: 'changed', live, predicted });
      return;
    }
    const common = Math.min(live.length, predicted.length);
    for (let i = 0; i < common; i++) compareValues(live[i], predicted[i], [...at, { index: i }], out, undefined);
    for (let i = common; i < live.length; i++) out.push({ segments: [...at, { index: i }], op: 'removed', live: live[i] });
    for (let i = common; i < predicted.length; i++) out.push({ segments: [...at, { index: i }], op: 'added', predicted: predicted[i] });
    return;
  }
  const valueOf = (item: unknown) => (item as Record<string, Scalar>)[key] as Scalar;
  const predictedByKey = new Map(predicted.map((item, i) => [valueOf(item), { item, i }]));
  const liveKeys = new Set<Scalar>();
  live.forEach((item, i) => {
    const value = valueOf(item);
    liveKeys.add(value);
    const segment: Segment = { index: i, match: { key, value } };
    const other = predictedByKey.get(value);
    if (other) compareValues(item, other.item, [...at, segment], out, undefined);
    else out.push({ segments: [...at, segment], op: 'removed', live: item });
  });
  predicted.forEach((item, i) => {
    const value = valueOf(item);
    if (!liveKeys.has(value)) out.push({ segments: [...at, { index: i, match: { key, value } }], op: 'added', predicted: item });
  });
}

function compareValues(live: unknown, predicted: unknown, at: Segment[], out: FieldDifference[], schema: ListSchema | undefined): void {
  if (deepEqual(live, predicted)) return;
  if (isObject(live) && isObject(predicted)) {
    const keys = [...new Set([...Object.keys(live), ...Object.keys(predicted)])].sort();
    for (const key of keys) {
      const segments = [...at, { key }];
      if (!Object.hasOwn(predicted, key)) out.push({ segments, op: 'removed', live: live[key] });
      else if (!Object.hasOwn(live, key)) out.push({ segments, op: 'added', predicted: predicted[key] });
      else compareValues(live[key], predicted[key], segments, out, fieldSchema(schema, key));
    }
    return;
  }
  if (Array.isArray(live) && Array.isArray(predicted)) {
    if (schema?.list) compareTypedList(live, predicted, schema, schema.list, at, out);
    else compareLists(live, predicted, at, out);
    return;
  }
  out.push({ segments: at, op: 'changed', live, predicted });
}

/** Every differing field between the normalised live and predicted objects, under the kind's list schema if known. */
export function compareObjects(live: unknown, predicted: unknown, schema?: ListSchema): FieldDifference[] {
  const out: FieldDifference[] = [];
  compareValues(live, predicted, [], out, schema);
  return out;
}

/** A value as one short line for the field list (full values are in the YAML views). */
export function shortValue(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
