/**
 * Puts the predicted object's order-free lists (list maps and sets, per the kind's schema) in the
 * live object's order: items on both sides where live has them, new items after, in the file's
 * order. Server-side apply orders shared items as the applied file does, so a file that lists a
 * list map's items in another order would otherwise show moved lines in the texts while the
 * field comparison (rightly) finds no difference.
 */
import { isObject, type JsonObject } from '../load/types.ts';
import { indexByKeys } from './compare.ts';
import { fieldSchema, type ListSchema } from './list-schema.ts';

function alignList(live: unknown[], predicted: unknown[], schema: ListSchema): unknown[] {
  const rule = schema.list;
  if (rule?.type === 'map') {
    const liveIndex = indexByKeys(live, rule);
    const predictedIndex = indexByKeys(predicted, rule);
    if (!liveIndex || !predictedIndex) return predicted;
    const shared = [...liveIndex].flatMap(([id, { item }]) => {
      const other = predictedIndex.get(id);
      return other ? [alignValue(item, other.item, schema.items)] : [];
    });
    return [...shared, ...[...predictedIndex].filter(([id]) => !liveIndex.has(id)).map(([, { item }]) => item)];
  }
  if (rule?.type === 'set') {
    const texts = predicted.map((item) => JSON.stringify(item));
    const used = new Set<number>();
    const ordered: unknown[] = [];
    for (const item of live) {
      const text = JSON.stringify(item);
      const at = texts.findIndex((candidate, i) => candidate === text && !used.has(i));
      if (at < 0) continue;
      used.add(at);
      ordered.push(predicted[at]);
    }
    return [...ordered, ...predicted.filter((_, i) => !used.has(i))];
  }
  return predicted;
}

function alignValue(live: unknown, predicted: unknown, schema: ListSchema | undefined): unknown {
  if (!schema) return predicted;
  if (isObject(live) && isObject(predicted)) {
    let out: JsonObject | undefined;
    for (const [key, value] of Object.entries(predicted)) {
      if (!Object.hasOwn(live, key)) continue;
      const aligned = alignValue(live[key], value, fieldSchema(schema, key));
      if (aligned !== value) (out ??= { ...predicted })[key] = aligned;
    }
    return out ?? predicted;
  }
  if (Array.isArray(live) && Array.isArray(predicted) && schema.list) return alignList(live, predicted, schema);
  return predicted;
}

/** `predicted` with its list maps and sets in `live`'s order (a copy where anything moved; never modified in place). */
export function alignOrder(live: JsonObject, predicted: JsonObject, schema: ListSchema | undefined): JsonObject {
  return alignValue(live, predicted, schema) as JsonObject;
}
