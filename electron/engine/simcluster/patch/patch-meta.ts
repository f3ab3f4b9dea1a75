/**
 * Schema-driven patch metadata: which lists merge by which key, which maps are atomic, which
 * fields a struct declares. Strategic merge patch reads the `x-kubernetes-patch-*` extensions
 * (kube-apiserver takes them from the Go struct tags, which the OpenAPI document mirrors);
 * server-side apply reads `x-kubernetes-list-type` / `x-kubernetes-map-type` the way
 * structured-merge-diff's schema conversion does.
 */

/** The swagger-2.0 schema keywords the patch engines read (structurally compatible with the OpenAPI module's `Schema`). */
export interface PatchSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  default?: unknown;
  required?: string[];
  items?: PatchSchema;
  properties?: Record<string, PatchSchema>;
  additionalProperties?: PatchSchema | boolean;
  allOf?: PatchSchema[];
  [extension: `x-${string}`]: unknown;
}

export type PatchDefinitions = Readonly<Record<string, PatchSchema>>;

/** What a position in the object is: a struct with declared fields, a free-form map, a list, a scalar, or not described. */
export type PatchMetaKind = 'struct' | 'map' | 'list' | 'scalar' | 'unknown';

/** The patch-relevant facts of one field. */
export interface FieldPatchMeta {
  readonly kind: PatchMetaKind;
  /** `x-kubernetes-patch-merge-key`. */
  readonly mergeKey?: string;
  /** `x-kubernetes-patch-strategy`, split on commas: `['merge', 'retainKeys']`. */
  readonly strategy?: readonly string[];
  /** `x-kubernetes-list-type`. */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** `x-kubernetes-list-map-keys`. */
  readonly listMapKeys?: readonly string[];
  /** `x-kubernetes-map-type` (on the field or on the definition it references). */
  readonly mapType?: 'atomic' | 'granular';
  /** The schema `default`; server-side apply uses it for absent list-map key fields (`protocol: TCP`). */
  readonly default?: unknown;
}

/**
 * A position in a kind's schema. Navigation is total: asking for something the schema does not
 * describe yields an `unknown` position, which the engines treat like kube-apiserver treats
 * untyped data (maps merge, lists are replaced whole).
 */
export interface PatchMeta {
  readonly info: FieldPatchMeta;
  /** A struct's field, a map's value, or (on a list) the field of its elements. */
  field(name: string): PatchMeta;
  /** A list's element, or a map's value. */
  elements(): PatchMeta;
  /** Whether this struct declares `name` as a field (free-form map keys are not declared). */
  declares(name: string): boolean;
  /** Whether this struct lists `name` as required (such fields are never omitted by the Go types). */
  requires(name: string): boolean;
  /** The metadata of the field at `path` (field names; list elements are stepped through). */
  at(path: readonly string[]): FieldPatchMeta;
}

/** How server-side apply treats a list. */
export interface ListSemantics {
  readonly type: 'atomic' | 'set' | 'map';
  readonly keys: readonly string[];
}

const DEFINITION_PREFIX = '#/definitions/';
const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);

class UntypedMeta implements PatchMeta {
  readonly info: FieldPatchMeta = { kind: 'unknown' };
  field(): PatchMeta {
    return this;
  }
  elements(): PatchMeta {
    return this;
  }
  declares(): boolean {
    return false;
  }
  requires(): boolean {
    return false;
  }
  at(): FieldPatchMeta {
    return this.info;
  }
}

/** Metadata for data without a schema: every position is `unknown`. */
export const untypedPatchMeta: PatchMeta = new UntypedMeta();

class SchemaMeta implements PatchMeta {
  readonly info: FieldPatchMeta;
  private readonly definitions: PatchDefinitions;
  private readonly resolved: PatchSchema;
  private readonly children = new Map<string, PatchMeta>();
  private element: PatchMeta | undefined;

  constructor(definitions: PatchDefinitions, schema: PatchSchema) {
    this.definitions = definitions;
    this.resolved = resolve(definitions, schema);
    this.info = describe(schema, this.resolved);
  }

  field(name: string): PatchMeta {
    if (this.info.kind === 'list' || this.info.kind === 'map') {
      return this.info.kind === 'list' ? this.elements().field(name) : this.elements();
    }
    let child = this.children.get(name);
    if (!child) {
      const schema = this.resolved.properties?.[name];
      child = schema ? new SchemaMeta(this.definitions, schema) : untypedPatchMeta;
      this.children.set(name, child);
    }
    return child;
  }

  elements(): PatchMeta {
    if (!this.element) {
      const { items, additionalProperties } = this.resolved;
      const schema = this.info.kind === 'list' ? items : typeof additionalProperties === 'object' ? additionalProperties : undefined;
      this.element = schema ? new SchemaMeta(this.definitions, schema) : untypedPatchMeta;
    }
    return this.element;
  }

  declares(name: string): boolean {
    return this.info.kind === 'struct' && this.resolved.properties?.[name] !== undefined;
  }

  requires(name: string): boolean {
    return this.info.kind === 'struct' && (this.resolved.required?.includes(name) ?? false);
  }

  at(path: readonly string[]): FieldPatchMeta {
    return path.reduce<PatchMeta>((meta, name) => meta.field(name), this).info;
  }
}

/** Follows `$ref` (also the `allOf: [{$ref}]` form) until a schema with content is reached. */
function resolve(definitions: PatchDefinitions, schema: PatchSchema): PatchSchema {
  let current = schema;
  for (let hops = 0; hops < 32; hops += 1) {
    const reference = current.$ref ?? (current.allOf?.length === 1 ? current.allOf[0]?.$ref : undefined);
    if (reference === undefined) return current;
    const name = reference.startsWith(DEFINITION_PREFIX) ? reference.slice(DEFINITION_PREFIX.length) : reference;
    const target = definitions[name];
    if (!target) return {};
    current = target;
  }
  return current;
}

function kindOf(schema: PatchSchema): PatchMetaKind {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (schema['x-kubernetes-int-or-string'] === true) return 'scalar';
  if (schema['x-kubernetes-preserve-unknown-fields'] === true && !schema.properties) return 'unknown';
  if (schema.properties) return 'struct';
  if (type === 'array' || schema.items) return 'list';
  if (typeof schema.additionalProperties === 'object') return 'map';
  if (type !== undefined && SCALAR_TYPES.has(type)) return 'scalar';
  return 'unknown';
}

/** Extensions may sit on the field (next to its `$ref`) or on the referenced definition; the field wins. */
function extension(field: PatchSchema, resolved: PatchSchema, name: `x-${string}`): unknown {
  return field[name] ?? resolved[name];
}

function describe(field: PatchSchema, resolved: PatchSchema): FieldPatchMeta {
  const mergeKey = extension(field, resolved, 'x-kubernetes-patch-merge-key');
  const strategy = extension(field, resolved, 'x-kubernetes-patch-strategy');
  const listType = extension(field, resolved, 'x-kubernetes-list-type');
  const listMapKeys = extension(field, resolved, 'x-kubernetes-list-map-keys');
  const mapType = extension(field, resolved, 'x-kubernetes-map-type');
  const fallback = field.default ?? resolved.default;
  return {
    kind: kindOf(resolved),
    ...(typeof mergeKey === 'string' ? { mergeKey } : {}),
    ...(typeof strategy === 'string' ? { strategy: strategy.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
    ...(listType === 'atomic' || listType === 'set' || listType === 'map' ? { listType } : {}),
    ...(Array.isArray(listMapKeys) ? { listMapKeys: listMapKeys.filter((k): k is string => typeof k === 'string') } : {}),
    ...(mapType === 'atomic' || mapType === 'granular' ? { mapType } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

/**
 * Patch metadata for the definition `rootName` (e.g. `io.k8s.api.apps.v1.Deployment`). `$ref`s
 * are resolved lazily, on first navigation, so recursive schemas cost nothing up front. An
 * unknown root yields {@link untypedPatchMeta}.
 */
export function patchMetaFromDefinitions(definitions: PatchDefinitions, rootName: string): PatchMeta {
  const root = definitions[rootName];
  return root ? new SchemaMeta(definitions, root) : untypedPatchMeta;
}

/** Whether the field's patch strategy includes `strategy` (`merge`, `replace`, `retainKeys`). */
export function hasStrategy(info: FieldPatchMeta, strategy: string): boolean {
  return info.strategy?.includes(strategy) ?? false;
}

/**
 * The list semantics server-side apply uses: `x-kubernetes-list-type` when present, otherwise
 * (as structured-merge-diff converts the built-in types) a `merge` patch strategy makes a list
 * associative, keyed by the merge key, or a set when it has none; anything else is atomic.
 */
export function listSemantics(info: FieldPatchMeta): ListSemantics {
  const mergeKeys = info.mergeKey === undefined ? [] : [info.mergeKey];
  if (info.listType === 'map') {
    const keys = info.listMapKeys ?? mergeKeys;
    return keys.length > 0 ? { type: 'map', keys } : { type: 'set', keys: [] };
  }
  if (info.listType) return { type: info.listType, keys: [] };
  if (hasStrategy(info, 'merge')) return mergeKeys.length > 0 ? { type: 'map', keys: mergeKeys } : { type: 'set', keys: [] };
  return { type: 'atomic', keys: [] };
}
