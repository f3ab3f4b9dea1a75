/**
 * The simulated API server's OpenAPI documents, built once per reported Kubernetes version and
 * served as-is: /openapi/v2 (JSON or gnostic protobuf) and /openapi/v3 (index + one document
 * per group version).
 */
import { encodeOpenApiV2 } from './protobuf.ts';
import { openapiV2Document, type OpenApiOptions } from './v2.ts';
import { buildOpenapiV3Document, buildOpenapiV3Index, documentHash, groupVersionPaths, type V3Document, type V3Index } from './v3.ts';
import { SIM_KUBERNETES_VERSION } from './version.ts';

export { definitionNameFor, definitions, type GroupVersionKind, type Schema } from './definitions.ts';
export { openapiV2Document, type OpenApiOptions, type SwaggerDocument } from './v2.ts';
export type { V3Document, V3Index } from './v3.ts';
export { SIM_KUBERNETES_VERSION } from './version.ts';

interface Built {
  v2Json?: string;
  v2Protobuf?: Buffer;
  v3Documents?: Map<string, { document: V3Document; json: string }>;
  v3Index?: V3Index;
}

const built = new Map<string, Built>();

function cache(options: OpenApiOptions): Built {
  const version = options.version ?? SIM_KUBERNETES_VERSION;
  let entry = built.get(version);
  if (!entry) {
    entry = {};
    built.set(version, entry);
  }
  return entry;
}

/** The swagger 2.0 document as JSON text (what /openapi/v2 answers for `Accept: application/json`). */
export function openapiV2Json(options: OpenApiOptions = {}): string {
  const entry = cache(options);
  entry.v2Json ??= JSON.stringify(openapiV2Document(options));
  return entry.v2Json;
}

/**
 * The swagger 2.0 document as gnostic's `openapi.v2.Document` protobuf, for `Accept:
 * application/com.github.proto-openapi.spec.v2@v1.0+protobuf`. Serve it with
 * `Content-Type: application/octet-stream`: kubectl fails to parse the Accept string echoed back.
 */
export function openapiV2Protobuf(options: OpenApiOptions = {}): Buffer {
  const entry = cache(options);
  entry.v2Protobuf ??= Buffer.from(encodeOpenApiV2(openapiV2Document(options)));
  return entry.v2Protobuf;
}

/** The v2 document's ETag, quoted, as kube-apiserver sends it (upper-case SHA-512 of the JSON). */
export function openapiEtag(options: OpenApiOptions = {}): string {
  return `"${documentHash(openapiV2Json(options))}"`;
}

function v3Documents(options: OpenApiOptions): Map<string, { document: V3Document; json: string }> {
  const entry = cache(options);
  if (!entry.v3Documents) {
    entry.v3Documents = new Map();
    for (const path of groupVersionPaths()) {
      const document = buildOpenapiV3Document(path, options);
      if (document) entry.v3Documents.set(path, { document, json: JSON.stringify(document) });
    }
  }
  return entry.v3Documents;
}

/**
 * GET /openapi/v3: `{ paths: { 'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=...' } } }`
 * with one entry per served group version; the hash is that of `openapiV3DocumentJson(path)`.
 */
export function openapiV3Index(options: OpenApiOptions = {}): V3Index {
  const entry = cache(options);
  entry.v3Index ??= buildOpenapiV3Index(new Map([...v3Documents(options)].map(([path, doc]) => [path, doc.json])));
  return entry.v3Index;
}

/** GET /openapi/v3/<path> for `api/v1`, `apis/apps/v1`...; undefined for any other path. */
export function openapiV3Document(path: string, options: OpenApiOptions = {}): V3Document | undefined {
  return v3Documents(options).get(path)?.document;
}

/** The exact JSON text the index's hash was computed over; serve these bytes for the path. */
export function openapiV3DocumentJson(path: string, options: OpenApiOptions = {}): string | undefined {
  return v3Documents(options).get(path)?.json;
}
