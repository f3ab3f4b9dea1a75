/**
 * Equality of parsed JSON values: objects by their members in any order, arrays item by item.
 * Used on hot paths (every cached pod's template parts, stream/shared-values.ts), so it walks
 * keys with `for…in` rather than allocating `Object.keys` arrays.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let keys = 0;
  for (const key in a) {
    keys += 1;
    if (!Object.hasOwn(b, key) || !jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  for (const _key in b) keys -= 1;
  return keys === 0;
}
