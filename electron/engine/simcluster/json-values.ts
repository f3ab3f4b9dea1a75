/**
 * Copying and comparing the plain JSON values the store keeps. Every write copies what the caller
 * handed over and compares the new version with the stored one; with `structuredClone` and two
 * `JSON.stringify` calls those were most of a write's cost. These give the same results for JSON
 * data, copy only what changed, and stop comparing at the first difference or shared subtree.
 *
 * Anything that is not plain JSON data (a Date, a Map, a class instance) falls back to the
 * structured clone or to comparing serialisations, so the results stay those of the originals.
 */

type Json = unknown;
type JsonObject = Record<string, Json>;

function isPlainObject(value: object): value is JsonObject {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function isPlainArray(value: object): value is Json[] {
  return Object.getPrototypeOf(value) === Array.prototype;
}

function isObject(value: Json): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * A deep copy of JSON data; what `structuredClone` returns for it. Spread and `map` copy each
 * level with its source's shape, so the copy is as compact as the original.
 */
export function copyJson<T>(value: T): T {
  if (!isObject(value)) {
    // structuredClone refuses functions and symbols; keep refusing them the same way.
    return typeof value === 'function' || typeof value === 'symbol' ? structuredClone(value) : value;
  }
  if (isPlainArray(value)) return value.map(copyJson) as T;
  if (!isPlainObject(value)) return structuredClone(value);
  // Spread defines `__proto__` as an own key, as JSON.parse does, and later writes keep it own.
  const out: JsonObject = { ...value };
  for (const key of Object.keys(out)) {
    const item = out[key];
    if (isObject(item) || typeof item === 'function' || typeof item === 'symbol') out[key] = copyJson(item);
  }
  return out as T;
}

/**
 * A copy of `incoming` that shares structure with `base`, an immutable stored object: wherever
 * `incoming` holds `base`'s own subtree at the same path (a caller that spread a stored object),
 * or a subtree equal to it (same keys in the same order, same values), the result holds `base`'s
 * subtree; everything else is a fresh copy. The result never shares anything with `incoming`
 * that `base` did not already hold, so a caller may keep mutating what it passed in.
 */
export function copyOnto<T>(incoming: T, base: unknown): T {
  if (incoming === base) return incoming;
  if (!isObject(incoming) || !isObject(base)) return copyJson(incoming);
  if (isPlainArray(incoming)) {
    if (!isPlainArray(base)) return copyJson(incoming);
    let same = incoming.length === base.length;
    const out = incoming.map((item, i) => {
      const baseItem = i < base.length ? base[i] : undefined;
      const copy = copyOnto(item, baseItem);
      if (copy !== baseItem) same = false;
      return copy;
    });
    return (same ? base : out) as T;
  }
  if (!isPlainObject(incoming) || !isPlainObject(base)) return copyJson(incoming);
  const out: JsonObject = { ...incoming };
  const keys = Object.keys(out);
  const baseKeys = Object.keys(base);
  let same = keys.length === baseKeys.length;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    const baseValue = Object.hasOwn(base, key) ? base[key] : undefined;
    const value = copyOnto(out[key], baseValue);
    out[key] = value;
    if (same && (baseKeys[i] !== key || value !== baseValue)) same = false;
  }
  return (same ? base : out) as T;
}

/** Values JSON.stringify leaves out of objects (and writes as null in arrays). */
function omitted(value: Json): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** What JSON.stringify makes of a non-object, as a comparable value. */
function scalar(value: Json): Json {
  if (omitted(value)) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  // JSON.stringify throws on a BigInt; so does this.
  if (typeof value === 'bigint') return JSON.stringify(value);
  return value;
}

function serialises(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function' || (!Array.isArray(value) && !isPlainObject(value));
}

function objectsEqual(a: JsonObject, b: JsonObject, skip: ReadonlySet<string> | undefined): boolean {
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < aKeys.length && (omitted(a[aKeys[i] as string]) || skip?.has(aKeys[i] as string))) i += 1;
    while (j < bKeys.length && (omitted(b[bKeys[j] as string]) || skip?.has(bKeys[j] as string))) j += 1;
    if (i === aKeys.length || j === bKeys.length) return i === aKeys.length && j === bKeys.length;
    const key = aKeys[i] as string;
    if (key !== bKeys[j] || !valuesEqual(a[key], b[key])) return false;
    i += 1;
    j += 1;
  }
}

function valuesEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  // A Date (or anything with toJSON) may serialise like a string: compare what JSON.stringify writes.
  if ((isObject(a) && serialises(a)) || (isObject(b) && serialises(b))) return JSON.stringify(a) === JSON.stringify(b);
  if (!isObject(a) || !isObject(b)) return !isObject(a) && !isObject(b) && scalar(a) === scalar(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!valuesEqual(a[i] as Json, b[i] as Json)) return false;
    return true;
  }
  return objectsEqual(a as JsonObject, b as JsonObject, undefined);
}

/**
 * Whether two objects serialise to the same JSON (`JSON.stringify(a) === JSON.stringify(b)`,
 * key order included), optionally ignoring some top-level keys. Stops at the first difference
 * and skips subtrees the two share.
 */
export function sameJson(a: object, b: object, options: { ignoreKeys?: ReadonlySet<string> } = {}): boolean {
  if (!options.ignoreKeys) return valuesEqual(a, b);
  if (serialises(a) || serialises(b) || Array.isArray(a) || Array.isArray(b)) throw new TypeError('ignoreKeys needs two plain objects');
  return objectsEqual(a as JsonObject, b as JsonObject, options.ignoreKeys);
}
