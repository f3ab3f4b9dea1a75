/**
 * Field validation of PATCH requests, after kube-apiserver's patchers. Non-apply patches are
 * checked on their result (so a typo anywhere in the merged object counts) plus, for merge and
 * strategic merge patches, the patch body's own repeated keys; failures are the patcher's 422
 * `patch: Invalid value: "<patch>": strict decoding error: ...`, where the value is the
 * patched JSON (merge and JSON patch) or the patch as Go prints a map (strategic merge).
 *
 * Server-side apply is different: its typed conversion rejects unknown fields in every mode
 * (a 500 without a reason, `failed to create typed patch object (...): .spec.foo: field not
 * declared in schema`), and `fieldValidation` only governs repeated keys, reported the way the
 * YAML decoder does (`line 1: key "replicas" already set in map`).
 */
import { ApiError, badRequest, invalid } from '../errors.ts';
import { goFormat } from '../patch/json.ts';
import type { KubeObject } from '../types.ts';
import { applyPathOf, type ListSemanticsAt } from './apply-paths.ts';
import { scanJsonKeys } from './duplicates.ts';
import { strictDecodingError, strictErrorTexts, type FieldValidation, type Validated } from './field-validation.ts';
import { modelFor } from './models.ts';
import { converterTypeErrorMessage, decodeTyped, jsonTypeErrorMessage, type TypedDecode } from './strict.ts';

/** The non-apply patch media types, by what kube-apiserver's patcher does with them. */
export type PatchFlavor = 'json' | 'merge' | 'strategic';

const FLAVORS: Readonly<Record<string, PatchFlavor>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};

/** The flavor of a non-apply patch media type, or undefined (apply, unknown types). */
export function patchFlavorOf(mediaType: string): PatchFlavor | undefined {
  return FLAVORS[mediaType];
}

/** One non-apply PATCH, after the patch was applied. */
export interface PatchValidationArgs {
  flavor: PatchFlavor;
  /** The request body. */
  body: string;
  /** The object before the patch (its own findings are not the request's fault). */
  live: KubeObject;
  patched: KubeObject;
  directive: FieldValidation;
}

/** Findings of `patched` that `live` does not already have: only what the patch brought in counts. */
function newFindings(model: string, live: KubeObject, patched: KubeObject): TypedDecode {
  const decoded = decodeTyped(model, patched);
  if (decoded.unknownFields.length === 0 && !decoded.typeError) return decoded;
  const before = decodeTyped(model, live);
  const known = new Set(before.unknownFields);
  const unknownFields = decoded.unknownFields.filter((path) => !known.has(path));
  const typeError = decoded.typeError && decoded.typeError.path !== before.typeError?.path ? decoded.typeError : undefined;
  const pruned = unknownFields.length === decoded.unknownFields.length ? decoded.pruned : decodeKeeping(model, patched, known);
  return { unknownFields, opaquePaths: decoded.opaquePaths, ...(typeError ? { typeError } : {}), pruned };
}

/** `patched` without its unknown fields, except those the live object already had. */
function decodeKeeping(model: string, patched: KubeObject, keep: ReadonlySet<string>): unknown {
  let result: unknown = patched;
  for (const path of decodeTyped(model, patched).unknownFields) {
    if (!keep.has(path)) result = withoutPath(result, path);
  }
  return result;
}

const PATH_TOKEN = /\.?([^.[\]]+)|\[(\d+)\]/g;

function withoutPath(value: unknown, path: string): unknown {
  const tokens = [...path.matchAll(PATH_TOKEN)].map((m) => (m[2] !== undefined ? Number(m[2]) : (m[1] ?? '')));
  const remove = (node: unknown, depth: number): unknown => {
    const token = tokens[depth];
    if (token === undefined || node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return typeof token === 'number' ? node.map((item, i) => (i === token ? remove(item, depth + 1) : item)) : node;
    const record = node as Record<string, unknown>;
    if (typeof token !== 'string' || !(token in record)) return node;
    if (depth === tokens.length - 1) {
      const { [token]: _dropped, ...rest } = record;
      return rest;
    }
    return { ...record, [token]: remove(record[token], depth + 1) };
  };
  return remove(value, 0);
}

function patchInvalid(value: string, detail: string): ApiError {
  return invalid('', '', '', [{ field: 'patch', message: `Invalid value: ${JSON.stringify(value)}: ${detail}` }]);
}

/**
 * Checks a non-apply patch's result: a type error is the patcher's 422 in every mode; unknown
 * fields (and repeated keys of a merge or strategic merge patch body) are a 422 under Strict
 * and warnings under Warn. The result comes back without the unknown fields.
 */
export function validatePatchResult(args: PatchValidationArgs): Validated {
  const { patched } = args;
  const model = modelFor(args.live.apiVersion, args.live.kind);
  if (!model) return { object: patched, warnings: [] };
  const decoded = newFindings(model, args.live, patched);
  const strategic = args.flavor === 'strategic';
  // The strategic patcher shows the patch as Go prints a map; the others the patched JSON.
  const shown = () => (strategic ? goFormat(JSON.parse(args.body) as unknown) : JSON.stringify(patched));
  if (decoded.typeError) {
    throw patchInvalid(shown(), strategic ? converterTypeErrorMessage(decoded.typeError) : jsonTypeErrorMessage(decoded.typeError));
  }
  const object = decoded.pruned as KubeObject;
  if (args.directive === 'Ignore') return { object, warnings: [] };
  // The patch body's own repeats are found before the result is decoded, so they come first.
  const bodyRepeats = args.flavor === 'json' ? [] : scanJsonKeys(args.body).duplicates.map((d) => `duplicate field ${JSON.stringify(d.path)}`);
  const errors = strictErrorTexts(decoded, undefined, bodyRepeats);
  if (errors.length > 0 && args.directive === 'Strict') throw patchInvalid(shown(), strictDecodingError(errors));
  return { object, warnings: errors };
}

/** One server-side apply request, before the apply. */
export interface ApplyValidationArgs {
  body: string;
  /** The group/version and kind of the endpoint. */
  apiVersion: string;
  kind: string;
  directive: FieldValidation;
  /** List semantics of the kind, for naming list items in paths (`[name="c"]`). */
  lists: ListSemanticsAt;
}

/** What the apply may go on with: the body to apply (repeated keys resolved) and a check to run once the apply succeeded. */
export interface ApplyValidation {
  body: string;
  /** Throws the strict 400 for repeated keys, or returns their warnings; call after the apply itself succeeded, as the apiserver checks them last. */
  afterApply(): string[];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The typed-conversion error structured-merge-diff gives for unknown fields of an applied
 * configuration: one per object (the first unknown key stops the walk of its object).
 */
function typedPatchError(applied: Record<string, unknown>, decoded: TypedDecode, args: ApplyValidationArgs): ApiError {
  const seenParents = new Set<string>();
  const messages: string[] = [];
  for (const path of decoded.unknownFields) {
    const parent = path.replace(/(?:\.[^.[\]]+|\[\d+\])$/, '');
    if (seenParents.has(parent)) continue;
    seenParents.add(parent);
    messages.push(`${applyPathOf(applied, path, args.lists)}: field not declared in schema`);
  }
  const metadata = (applied['metadata'] ?? {}) as { name?: unknown; namespace?: unknown };
  const gvk = `${args.apiVersion.includes('/') ? args.apiVersion : `/${args.apiVersion}`}, Kind=${args.kind}`;
  const detail = messages.length === 1 ? (messages[0] ?? '') : ['errors:', ...messages.map((m) => `  ${m}`)].join('\n');
  const nn = `${typeof metadata.namespace === 'string' ? metadata.namespace : ''}/${typeof metadata.name === 'string' ? metadata.name : ''}`;
  // Not a Status error upstream: the apiserver answers 500 with no reason.
  return new ApiError(500, '', `failed to create typed patch object (${nn}; ${gvk}): ${detail}`);
}

/**
 * Checks a server-side apply body (JSON, as kubectl sends it; other YAML is left to the apply):
 * unknown fields fail in every mode; repeated keys are resolved (the last wins) so the apply
 * can go on, and reported by `afterApply` according to the field validation.
 */
export function validateApplyBody(args: ApplyValidationArgs): ApplyValidation {
  const parsed = parseJson(args.body);
  const model = modelFor(args.apiVersion, args.kind);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { body: args.body, afterApply: () => [] };
  const applied = parsed as Record<string, unknown>;
  // A body for another kind, or one carrying managedFields, is refused by the apply itself first.
  const managedFields = (applied['metadata'] as { managedFields?: unknown } | undefined)?.managedFields;
  const ownKind = applied['apiVersion'] === args.apiVersion && applied['kind'] === args.kind && (managedFields === undefined || managedFields === null);
  if (model && ownKind) {
    const decoded = decodeTyped(model, applied);
    if (decoded.unknownFields.length > 0) throw typedPatchError(applied, decoded, args);
  }
  const repeats = scanJsonKeys(args.body).duplicates;
  if (repeats.length === 0) return { body: args.body, afterApply: () => [] };
  const lines = repeats.map((d) => `line ${d.line}: key ${JSON.stringify(d.key)} already set in map`);
  return {
    body: JSON.stringify(applied),
    afterApply: () => {
      if (args.directive === 'Ignore') return [];
      if (args.directive === 'Strict') throw badRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${lines.join('\n  ')}`);
      return lines;
    },
  };
}
