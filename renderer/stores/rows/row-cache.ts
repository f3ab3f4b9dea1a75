/**
 * Rows keyed by the object they came from. The engine sends a new object for every new
 * resourceVersion, so an object that did not change keeps its row: re-sorting 50,000 pods by
 * another column re-keys them but derives none of them again.
 */
import type { SlimObject } from '../../../shared/cluster.ts';

/** `derive` behind a cache that forgets collected objects. */
export function cachedRow<Row>(derive: (object: SlimObject) => Row): (object: SlimObject) => Row {
  const cache = new WeakMap<SlimObject, Row>();
  return (object) => {
    let row = cache.get(object);
    if (row === undefined) {
      row = derive(object);
      cache.set(object, row);
    }
    return row;
  };
}
