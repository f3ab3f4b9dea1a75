/**
 * Paths as structured-merge-diff prints them in server-side apply errors:
 * `.spec.template.spec.containers[name="c"].imagee`. List items are named by their keys in
 * associative lists, by value in sets and by index in atomic lists, following the served
 * kinds' list semantics (`x-kubernetes-list-type`, or the patch strategy and merge key).
 */
import { definitionNameFor, definitions } from '../openapi/index.ts';
import { fieldToken, keyToken, pathToString, valueToken } from '../patch/fieldpath.ts';
import { listSemantics, patchMetaFromDefinitions, type PatchMeta } from '../patch/patch-meta.ts';

/** A served kind's schema position, for naming list items. */
export type ListSemanticsAt = PatchMeta;

const METAS = new Map<string, PatchMeta>();

/** The list semantics of a kind (`apps`, `v1`, `Deployment`). */
export function listSemanticsOf(group: string, version: string, kind: string): ListSemanticsAt {
  const key = `${group}/${version}/${kind}`;
  let meta = METAS.get(key);
  if (!meta) {
    meta = patchMetaFromDefinitions(definitions(), definitionNameFor(group, version, kind));
    METAS.set(key, meta);
  }
  return meta;
}

const PATH_TOKEN = /\.?([^.[\]]+)|\[(\d+)\]/g;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The structured-merge-diff form of a strict-decoder path (`spec.containers[0].imagee`) in
 * `object`. Items of a keyed list whose key fields are missing fall back to key defaults
 * (`protocol: TCP`), then to their index.
 */
export function applyPathOf(object: unknown, path: string, lists: ListSemanticsAt): string {
  const tokens: string[] = [];
  let meta = lists;
  let node: unknown = object;
  for (const match of path.matchAll(PATH_TOKEN)) {
    if (match[2] === undefined) {
      const name = match[1] ?? '';
      tokens.push(fieldToken(name));
      meta = meta.field(name);
      node = isRecord(node) ? node[name] : undefined;
      continue;
    }
    const index = Number(match[2]);
    const item: unknown = Array.isArray(node) ? node[index] : undefined;
    const semantics = listSemantics(meta.info);
    const elements = meta.elements();
    if (semantics.type === 'map' && isRecord(item)) {
      const fields = semantics.keys.map((key) => [key, item[key] ?? elements.field(key).info.default] as const);
      tokens.push(fields.every(([, value]) => value !== undefined) ? keyToken(fields) : `i:${index}`);
    } else if (semantics.type === 'set' && !isRecord(item) && !Array.isArray(item)) {
      tokens.push(valueToken(item));
    } else {
      tokens.push(`i:${index}`);
    }
    meta = elements;
    node = item;
  }
  return pathToString(tokens);
}
