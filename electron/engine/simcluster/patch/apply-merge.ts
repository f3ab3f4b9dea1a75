/**
 * The two value operations of server-side apply, after structured-merge-diff: merging an
 * applied configuration into the live object, and removing a set of fields from an object.
 */
import { fieldToken, type FieldSet } from './fieldpath.ts';
import { isObject, type JsonObject } from './json.ts';
import { listSemantics, type PatchMeta } from './patch-meta.ts';
import { itemToken, metaForToken, shapeOf } from './typed-walk.ts';

/**
 * Merges `config` into `live`: maps field by field, associative lists item by item (by key or
 * value), everything else (scalars, atomic maps and lists) taken from `config`. Nothing is
 * deleted here; pruning fields an applier dropped is {@link removeItems}'s job.
 */
export function mergeApplied(live: unknown, config: unknown, meta: PatchMeta): unknown {
  if (config === undefined) return live;
  if (live === undefined) return config;
  const shape = shapeOf(meta, live, config);
  if (shape === 'map' && isObject(live) && isObject(config)) {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(live)) {
      out[key] = key in config ? mergeApplied(value, config[key], meta.field(key)) : value;
    }
    for (const [key, value] of Object.entries(config)) if (!(key in live)) out[key] = value;
    return out;
  }
  if (shape === 'list' && Array.isArray(live) && Array.isArray(config)) return mergeLists(live, config, meta);
  return config;
}

interface IndexedList {
  readonly order: string[];
  readonly items: Map<string, unknown>;
}

/** Items by token; items without a usable token keep a private one so that nothing is lost. */
function indexForMerge(list: readonly unknown[], meta: PatchMeta, side: string): IndexedList {
  const semantics = listSemantics(meta.info);
  const elements = meta.elements();
  const order: string[] = [];
  const items = new Map<string, unknown>();
  list.forEach((item, index) => {
    const named = itemToken(item, semantics, elements);
    const token = 'token' in named && !items.has(named.token) ? named.token : `${side}#${index}`;
    order.push(token);
    items.set(token, item);
  });
  return { order, items };
}

/**
 * structured-merge-diff's list merge order: items present on both sides follow the applied
 * order, live-only items keep their place, applied-only items land where the configuration
 * puts them.
 */
function mergeLists(live: readonly unknown[], config: readonly unknown[], meta: PatchMeta): unknown[] {
  const lhs = indexForMerge(live, meta, 'live');
  const rhs = indexForMerge(config, meta, 'applied');
  const elements = meta.elements();
  const shared = rhs.order.filter((token) => lhs.items.has(token));
  let sharedIndex = 0;
  const out: unknown[] = [];
  const emit = (token: string) => out.push(mergeApplied(lhs.items.get(token), rhs.items.get(token), elements));
  let [l, r] = [0, 0];
  while (l < lhs.order.length || r < rhs.order.length) {
    const left = lhs.order[l];
    const right = rhs.order[r];
    if (left !== undefined && right !== undefined) {
      if (left === right) {
        emit(left);
        [l, r, sharedIndex] = [l + 1, r + 1, sharedIndex + 1];
        continue;
      }
      if (rhs.items.has(left) && shared[sharedIndex] !== undefined && shared[sharedIndex] !== left) {
        l += 1;
        continue;
      }
    }
    if (left !== undefined && !rhs.items.has(left)) {
      out.push(lhs.items.get(left));
      l += 1;
      continue;
    }
    if (right !== undefined) {
      emit(right);
      r += 1;
      if (shared[sharedIndex] === right) sharedIndex += 1;
    }
  }
  return out;
}

/**
 * `value` without the members of `set` (each removed with everything below it); children of
 * the set lead the way to deeper members. Map keys are matched by `f:` tokens, list items by
 * their key or value tokens.
 */
export function removeItems(value: unknown, set: FieldSet, meta: PatchMeta): unknown {
  if (set.isEmpty()) return value;
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      const token = fieldToken(key);
      if (set.members.has(token)) continue;
      const below = set.children.get(token);
      out[key] = below ? removeItems(child, below, metaForToken(meta, token)) : child;
    }
    return out;
  }
  if (Array.isArray(value)) {
    const semantics = listSemantics(meta.info);
    const elements = meta.elements();
    const out: unknown[] = [];
    for (const item of value) {
      const named = itemToken(item, semantics, elements);
      if (!('token' in named)) {
        out.push(item);
        continue;
      }
      if (set.members.has(named.token)) continue;
      const below = set.children.get(named.token);
      out.push(below ? removeItems(item, below, elements) : item);
    }
    return out;
  }
  return value;
}
