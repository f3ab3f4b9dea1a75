/**
 * The list schema of a custom kind, for comparing its objects as server-side apply merges them.
 * Read from the kind's CustomResourceDefinition (the version's `openAPIV3Schema`) and kept per
 * context, CRD and resourceVersion, so a run only asks for the CRD and recompiles nothing unless
 * the CRD changed. A user who may not read CRDs gets the same schema from the OpenAPI v3 document
 * of the group version (kept per its `?hash=`, which changes with the document). Built-in groups
 * are not asked about: their lists are the built-in merge-key guess's. A failure here only
 * means the guess is used (and a notice says so); it never fails a row.
 */
import { BUILT_IN_GROUPS } from '../../cluster/discovery/modes.ts';
import { compileListSchema, refsOf, type ListSchema } from '../fields/list-schema.ts';
import { isObject, type JsonObject } from '../load/types.ts';
import { statusMessage, type ApiClient, type ApiResponse } from './client.ts';
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
  /** Why a custom kind's schema could not be read, by `apiVersion/kind` (a sentence for a notice). */
  problems(): ReadonlyMap<string, string>;
}

/** A schema read (undefined: the kind's schema says nothing about lists), or why none could be. */
type Read = { schema: ListSchema | undefined } | { problem: string };

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
  const problems = new Map<string, string>();
  let index: Promise<ApiResponse> | undefined;

  /** A compiled schema from the cache, else compiled now and kept (`null` when there is none). */
  const cached = (key: string, compile: () => ListSchema | undefined): ListSchema | undefined => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const schema = compile();
    cache.set(key, schema ?? null);
    return schema;
  };

  async function fromOpenApi(resource: ResourceInfo): Promise<Read> {
    const { group, version } = splitApiVersion(resource.apiVersion);
    index ??= client.request('GET', '/openapi/v3');
    const listed = await index;
    if (listed.status !== 200 || !isObject(listed.body)) return { problem: `/openapi/v3: ${statusMessage(listed)}` };
    const paths = listed.body['paths'];
    const entry = isObject(paths) ? paths[`apis/${group}/${version}`] : undefined;
    const url = isObject(entry) && typeof entry['serverRelativeURL'] === 'string' ? entry['serverRelativeURL'] : undefined;
    if (!url) return { problem: `/openapi/v3 lists no apis/${group}/${version}` };
    const key = `${context}\0openapi\0${url}\0${resource.kind}`;
    let hit = cache.get(key);
    if (hit === undefined) {
      const document = await client.request('GET', url);
      if (document.status !== 200 || !isObject(document.body)) return { problem: `${url.replace(/\?.*$/, '')}: ${statusMessage(document)}` };
      const components = isObject(document.body['components']) ? document.body['components'] : {};
      const schemas = isObject(components['schemas']) ? components['schemas'] : {};
      const definition = Object.values(schemas).find((d) => isKindDefinition(d, group, version, resource.kind));
      if (definition === undefined) return { problem: `the OpenAPI v3 document of ${group}/${version} defines no ${resource.kind}` };
      hit = cached(key, () => compileListSchema(definition, refsOf(schemas))) ?? null;
    }
    return { schema: hit ?? undefined };
  }

  async function read(resource: ResourceInfo): Promise<Read> {
    const name = `${resource.plural}.${resource.group}`;
    const got = await client.request('GET', `${CRDS}/${encodeURIComponent(name)}`);
    if (got.status !== 200 || !isObject(got.body)) {
      const fallback = await fromOpenApi(resource);
      return 'problem' in fallback ? { problem: `the CRD ${name}: ${statusMessage(got)}; ${fallback.problem}` } : fallback;
    }
    const crd = got.body;
    const metadata = isObject(crd['metadata']) ? crd['metadata'] : {};
    const version = splitApiVersion(resource.apiVersion).version;
    return { schema: cached(`${context}\0crd\0${name}\0${String(metadata['resourceVersion'])}\0${version}`, () => compileListSchema(crdVersionSchema(crd, version))) };
  }

  return {
    schemaFor(resource) {
      if (BUILT_IN_GROUPS.has(resource.group)) return Promise.resolve(undefined);
      const key = `${resource.apiVersion}/${resource.kind}`;
      let found = pending.get(key);
      if (!found) {
        found = read(resource)
          .catch((error: unknown): Read => ({ problem: (error as Error).message }))
          .then((outcome) => {
            if ('schema' in outcome) return outcome.schema;
            problems.set(key, `The list schema of ${resource.kind} (${resource.apiVersion}) could not be read (${outcome.problem}), so its lists are compared by the built-in merge-key guess.`);
            return undefined;
          });
        pending.set(key, found);
      }
      return found;
    },
    problems: () => problems,
  };
}
