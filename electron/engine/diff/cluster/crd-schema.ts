/**
 * The list schema of a custom kind, for comparing its objects as server-side apply merges them.
 * Read from the kind's CustomResourceDefinition (the version's `openAPIV3Schema`) and kept per
 * context, CRD and resourceVersion, so a run only asks for the CRD and recompiles nothing unless
 * the CRD changed. A user who may not read CRDs gets the same schema from the OpenAPI v3 document
 * of the group version (kept per its `?hash=`, which changes with the document). Built-in groups
 * are not asked about: their lists are the built-in merge-key guess's. Any failure here only
 * means the guess is used; it never fails a row.
 */
import { BUILT_IN_GROUPS } from '../../cluster/discovery/modes.ts';
import { compileListSchema, refsOf, type ListSchema } from '../fields/list-schema.ts';
import { isObject, type JsonObject } from '../load/types.ts';
import type { ApiClient } from './client.ts';
import { splitApiVersion, type ResourceInfo } from './discovery.ts';

/** Compiled schemas by context and CRD resourceVersion (or OpenAPI document hash); `null` = none. */
export interface SchemaCache {
  get(key: string): ListSchema | null | undefined;
  set(key: string, schema: ListSchema | null): void;
}

/** Enough for every custom kind a set of manifests uses on a few contexts. */
export const SCHEMA_CACHE_ENTRIES = 512;

/** A cache that forgets the least recently used entry beyond `maxEntries`. */
export function createSchemaCache(maxEntries = SCHEMA_CACHE_ENTRIES): SchemaCache {
  const entries = new Map<string, ListSchema | null>();
  return {
    get(key) {
      const found = entries.get(key);
      if (found !== undefined) {
        entries.delete(key);
        entries.set(key, found);
      }
      return found;
    },
    set(key, schema) {
      entries.delete(key);
      entries.set(key, schema);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}

export interface SchemaSource {
  /** The list schema of a served kind; undefined for built-in kinds and when none can be read. */
  schemaFor(resource: ResourceInfo): Promise<ListSchema | undefined>;
}

export interface SchemaSourceOptions {
  /** The kubeconfig context the client talks to (part of every cache key). */
  context: string;
  cache: SchemaCache;
}

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crdVersionSchema(crd: JsonObject, version: string): unknown {
  const spec = isObject(crd['spec']) ? crd['spec'] : {};
  const versions = Array.isArray(spec['versions']) ? spec['versions'] : [];
  const entry = versions.find((v) => isObject(v) && v['name'] === version);
  return isObject(entry) && isObject(entry['schema']) ? entry['schema']['openAPIV3Schema'] : undefined;
}

function isKindDefinition(definition: unknown, group: string, version: string, kind: string): boolean {
  const gvks = isObject(definition) ? definition['x-kubernetes-group-version-kind'] : undefined;
  return Array.isArray(gvks) && gvks.some((g) => isObject(g) && (g['group'] ?? '') === group && g['version'] === version && g['kind'] === kind);
}

export function createSchemaSource(client: ApiClient, options: SchemaSourceOptions): SchemaSource {
  const { cache, context } = options;
  const pending = new Map<string, Promise<ListSchema | undefined>>();
  let index: Promise<JsonObject | undefined> | undefined;

  const cached = (key: string, compile: () => ListSchema | undefined): ListSchema | undefined => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const schema = compile();
    cache.set(key, schema ?? null);
    return schema;
  };

  async function fromOpenApi(resource: ResourceInfo): Promise<ListSchema | undefined> {
    const { group, version } = splitApiVersion(resource.apiVersion);
    index ??= client.request('GET', '/openapi/v3').then((r) => (r.status === 200 && isObject(r.body) ? r.body : undefined));
    const paths = (await index)?.['paths'];
    const entry = isObject(paths) ? paths[`apis/${group}/${version}`] : undefined;
    const url = isObject(entry) && typeof entry['serverRelativeURL'] === 'string' ? entry['serverRelativeURL'] : undefined;
    if (!url) return undefined;
    const key = `${context}\0openapi\0${url}\0${resource.kind}`;
    if (cache.get(key) !== undefined) return cache.get(key) ?? undefined;
    const document = await client.request('GET', url);
    if (document.status !== 200 || !isObject(document.body)) return undefined;
    const components = isObject(document.body['components']) ? document.body['components'] : {};
    const schemas = isObject(components['schemas']) ? components['schemas'] : {};
    return cached(key, () => {
      const definition = Object.values(schemas).find((d) => isKindDefinition(d, group, version, resource.kind));
      return definition === undefined ? undefined : compileListSchema(definition, refsOf(schemas));
    });
  }

  async function read(resource: ResourceInfo): Promise<ListSchema | undefined> {
    const name = `${resource.plural}.${resource.group}`;
    const got = await client.request('GET', `${CRDS}/${encodeURIComponent(name)}`);
    if (got.status !== 200 || !isObject(got.body)) return fromOpenApi(resource);
    const crd = got.body;
    const metadata = isObject(crd['metadata']) ? crd['metadata'] : {};
    const version = splitApiVersion(resource.apiVersion).version;
    return cached(`${context}\0crd\0${name}\0${String(metadata['resourceVersion'])}\0${version}`, () => compileListSchema(crdVersionSchema(crd, version)));
  }

  return {
    schemaFor(resource) {
      if (BUILT_IN_GROUPS.has(resource.group)) return Promise.resolve(undefined);
      const key = `${resource.plural}.${resource.group}/${resource.apiVersion}`;
      let found = pending.get(key);
      if (!found) {
        found = read(resource).catch(() => undefined);
        pending.set(key, found);
      }
      return found;
    },
  };
}
