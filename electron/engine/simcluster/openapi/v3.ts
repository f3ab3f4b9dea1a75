/**
 * OpenAPI v3: the /openapi/v3 index and one OpenAPI 3.0 document per served group version, as
 * kube-apiserver publishes them and as `kubectl explain` (1.27+) and its field-validation check
 * read them. Each document is derived from the v2 paths and definitions of its group version.
 */
import { createHash } from 'node:crypto';
import { groupVersions, type ResourceType } from '../resources.ts';
import { definitions } from './definitions.ts';
import type { Parameter } from './parameters.ts';
import { groupVersionPrefix, resourcePaths, type Method, type Operation, type PathItem } from './paths.ts';
import { INT_OR_STRING, QUANTITY, refTarget, type Schema } from './schema.ts';
import { SIM_KUBERNETES_VERSION } from './version.ts';

const SCHEMAS_PREFIX = '#/components/schemas/';
const METHODS: readonly Method[] = ['get', 'put', 'post', 'delete', 'patch'];

export interface V3Document {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
}

export interface V3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

/**
 * A v2 schema in v3 form: references point into components, and a reference with sibling
 * keywords (a field's description) becomes `allOf: [{$ref}]` as kube-apiserver writes it.
 */
export function toV3Schema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema) as Array<[keyof Schema & string, unknown]>) {
    if (key === 'items' || key === 'additionalProperties') out[key] = toV3Schema(value as Schema);
    else if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, s]) => [name, toV3Schema(s)]));
    else if (key === 'allOf' || key === 'oneOf') out[key] = (value as Schema[]).map(toV3Schema);
    else if (key !== '$ref') (out as Record<string, unknown>)[key] = value;
  }
  if (schema.$ref === undefined) return out;
  const reference = { $ref: SCHEMAS_PREFIX + refTarget(schema.$ref) };
  return Object.keys(out).length === 0 ? reference : { allOf: [reference], ...out };
}

/** v3 spells the scalar unions with oneOf where v2 only had a type and a format. */
function toV3Definition(name: string, schema: Schema): Schema {
  if (name === INT_OR_STRING) return { description: schema.description, format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] };
  if (name === QUANTITY) return { description: schema.description, oneOf: [{ type: 'string' }, { type: 'number' }] };
  return toV3Schema(schema);
}

function toV3Parameter(parameter: Parameter): Record<string, unknown> {
  const out: Record<string, unknown> = { name: parameter.name, in: parameter.in };
  if (parameter.description) out.description = parameter.description;
  if (parameter.required) out.required = true;
  out.schema = { type: parameter.type, uniqueItems: parameter.uniqueItems };
  return out;
}

function toV3Operation(op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = { tags: op.tags, description: op.description, operationId: op.operationId };
  const bodyParameter = op.parameters?.find((p) => p.in === 'body');
  const others = (op.parameters ?? []).filter((p) => p.in !== 'body');
  if (others.length > 0) out.parameters = others.map(toV3Parameter);
  if (bodyParameter?.schema) {
    const schema = toV3Schema(bodyParameter.schema);
    out.requestBody = { content: Object.fromEntries(op.consumes.map((type) => [type, { schema }])), required: true };
  }
  out.responses = Object.fromEntries(
    Object.entries(op.responses).map(([code, response]) => {
      if (!response.schema) return [code, { description: response.description }];
      const schema = toV3Schema(response.schema);
      return [code, { description: response.description, content: Object.fromEntries(op.produces.map((type) => [type, { schema }])) }];
    }),
  );
  out['x-kubernetes-action'] = op['x-kubernetes-action'];
  out['x-kubernetes-group-version-kind'] = op['x-kubernetes-group-version-kind'];
  return out;
}

function toV3PathItem(item: PathItem): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const method of METHODS) {
    const op = item[method];
    if (op) out[method] = toV3Operation(op);
  }
  if (item.parameters) out.parameters = item.parameters.map(toV3Parameter);
  return out;
}

/** Adds the definition name of every `$ref` inside `value` to `into`. */
function collectRefs(value: unknown, into: string[]): void {
  if (Array.isArray(value)) {
    for (const inner of value) collectRefs(inner, into);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') into.push(refTarget(inner));
      else collectRefs(inner, into);
    }
  }
}

/** Names of every definition reachable from `value` through `$ref`s, transitively. */
function reachable(value: unknown, all: Record<string, Schema>): Set<string> {
  const seen = new Set<string>();
  const pending: string[] = [];
  collectRefs(value, pending);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name) || !all[name]) continue;
    seen.add(name);
    collectRefs(all[name], pending);
  }
  return seen;
}

/** `api/v1`, `apis/apps/v1`...: the index keys, one per served group version. */
export function groupVersionPaths(): string[] {
  return groupVersions().map((gv) => groupVersionPrefix(gv.group, gv.version).slice(1));
}

/** The OpenAPI 3.0 document of one group version (`api/v1`, `apis/apps/v1`), or undefined. */
export function buildOpenapiV3Document(path: string, options: { version?: string } = {}): V3Document | undefined {
  const gv = groupVersions().find((entry) => groupVersionPrefix(entry.group, entry.version).slice(1) === path);
  if (!gv) return undefined;
  return buildV3Document(gv.types, definitions(), options);
}

/**
 * The OpenAPI 3.0 document serving `types` (one group version's kinds), with every definition
 * their paths reach in `all` (the built-in definitions, plus a CRD's own for custom kinds).
 */
export function buildV3Document(types: readonly ResourceType[], all: Record<string, Schema>, options: { version?: string } = {}): V3Document {
  const v2Paths: Record<string, PathItem> = {};
  for (const type of types) Object.assign(v2Paths, resourcePaths(type));
  const sortedPaths = Object.entries(v2Paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const names = [...reachable(sortedPaths, all)].sort();
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: options.version ?? SIM_KUBERNETES_VERSION },
    paths: Object.fromEntries(sortedPaths.map(([p, item]) => [p, toV3PathItem(item)])),
    components: { schemas: Object.fromEntries(names.map((name) => [name, toV3Definition(name, all[name] as Schema)])) },
  };
}

/** kube-apiserver's cache-busting hash: SHA-512 of the served bytes, upper-case hex. */
export function documentHash(json: string): string {
  return createHash('sha512').update(json).digest('hex').toUpperCase();
}

/** The /openapi/v3 index for documents whose serialized JSON is given by path. */
export function buildOpenapiV3Index(serialized: ReadonlyMap<string, string>): V3Index {
  const paths: V3Index['paths'] = {};
  for (const [path, json] of serialized) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${documentHash(json)}` };
  return { paths };
}
