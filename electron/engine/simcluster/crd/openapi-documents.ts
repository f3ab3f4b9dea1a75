/**
 * The OpenAPI documents of a cluster whose CRDs add kinds: the built-in documents (built once per
 * Kubernetes version, see openapi/index.ts) joined with each custom kind's paths and definitions.
 * Rebuilt only when the registry changes; a cluster without CRDs serves the built-in ones as is.
 */
import { definitions, openapiV2Document, openapiV2Json, openapiV2Protobuf, openapiV3DocumentJson, openapiV3Index, type V3Index } from '../openapi/index.ts';
import { groupVersionPrefix, resourcePaths } from '../openapi/paths.ts';
import { encodeOpenApiV2 } from '../openapi/protobuf.ts';
import { buildOpenapiV3Index, buildV3Document } from '../openapi/v3.ts';
import type { ResourceRegistry } from '../registry.ts';
import type { ResourceType } from '../resources.ts';
import { customDefinitions } from './openapi.ts';

/** What /openapi/v2 and /openapi/v3 serve. */
export interface OpenApiDocuments {
  v2Json(): string;
  v2Protobuf(): Buffer;
  v3Index(): V3Index;
  v3Document(path: string): string | undefined;
}

function sortedEntries<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function customOf(registry: ResourceRegistry): ResourceType[] {
  return registry.all().filter((t) => t.custom !== undefined);
}

function build(custom: ResourceType[], version: string): OpenApiDocuments {
  let v2Json: string | undefined;
  let v2Protobuf: Buffer | undefined;
  const v2 = () => {
    const document = openapiV2Document({ version });
    for (const type of custom) {
      Object.assign(document.paths, resourcePaths(type));
      Object.assign(document.definitions, customDefinitions(type, { v3: false }));
    }
    return { ...document, paths: sortedEntries(document.paths), definitions: sortedEntries(document.definitions) };
  };
  const byPath = new Map<string, ResourceType[]>();
  for (const type of custom) {
    const path = groupVersionPrefix(type.group, type.version).slice(1);
    byPath.set(path, [...(byPath.get(path) ?? []), type]);
  }
  const v3Json = new Map<string, string>();
  const v3Document = (path: string): string | undefined => {
    const types = byPath.get(path);
    if (!types) return openapiV3DocumentJson(path, { version });
    let json = v3Json.get(path);
    if (json === undefined) {
      const all = { ...definitions(), ...Object.assign({}, ...types.map((t) => customDefinitions(t, { v3: true }))) };
      json = JSON.stringify(buildV3Document(types, all, { version }));
      v3Json.set(path, json);
    }
    return json;
  };
  let index: V3Index | undefined;
  return {
    v2Json: () => (v2Json ??= JSON.stringify(v2())),
    v2Protobuf: () => (v2Protobuf ??= Buffer.from(encodeOpenApiV2(v2()))),
    v3Document,
    v3Index: () => {
      if (!index) {
        const customIndex = buildOpenapiV3Index(new Map([...byPath.keys()].map((path) => [path, v3Document(path) ?? ''])));
        index = { paths: sortedEntries({ ...openapiV3Index({ version }).paths, ...customIndex.paths }) };
      }
      return index;
    },
  };
}

const BUILT_IN = (version: string): OpenApiDocuments => ({
  v2Json: () => openapiV2Json({ version }),
  v2Protobuf: () => openapiV2Protobuf({ version }),
  v3Index: () => openapiV3Index({ version }),
  v3Document: (path) => openapiV3DocumentJson(path, { version }),
});

const cache = new WeakMap<ResourceRegistry, { revision: number; version: string; documents: OpenApiDocuments }>();

/** The documents for what `registry` serves now, reporting `version` as the Kubernetes version. */
export function openApiDocumentsFor(registry: ResourceRegistry, version: string): OpenApiDocuments {
  const cached = cache.get(registry);
  if (cached && cached.revision === registry.revision && cached.version === version) return cached.documents;
  const custom = customOf(registry);
  const documents = custom.length === 0 ? BUILT_IN(version) : build(custom, version);
  cache.set(registry, { revision: registry.revision, version, documents });
  return documents;
}
