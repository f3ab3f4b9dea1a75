/**
 * Cache writes for tests that hold objects of built-in kinds: the kind key is found from each
 * object's apiVersion and kind, as an informer would know it.
 */
import { builtinKeyOf } from '../../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { ObjectCache } from '../../../../electron/engine/stream/cache.ts';

export function upsertBuiltin(cache: ObjectCache, object: SlimObject, json?: string, viewJson?: string): boolean {
  return cache.upsert(builtinKeyOf(object), object, json, viewJson);
}
