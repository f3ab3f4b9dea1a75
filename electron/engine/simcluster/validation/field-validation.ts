/**
 * Server-side field validation for create and update bodies, after kube-apiserver's handlers:
 * the `fieldValidation` query parameter (`Strict`, `Warn` — the default — or `Ignore`) decides
 * whether unknown and duplicate fields fail the request (400 BadRequest, `Deployment in version
 * "v1" cannot be handled as a Deployment: strict decoding error: unknown field
 * "spec.replicass"`), come back as `Warning` headers, or are dropped silently. Unknown fields
 * are never stored, whatever the mode, and a value of the wrong type fails in every mode.
 */
import { ApiError, badRequest } from '../errors.ts';
import type { KubeObject } from '../types.ts';
import { scanJsonKeys, type KeyScan } from './duplicates.ts';
import { modelFor } from './models.ts';
import { decodeTyped, jsonTypeErrorMessage, type TypedDecode } from './strict.ts';

/** The values of the `fieldValidation` query parameter. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** The options kinds whose `fieldValidation` a request sets. */
export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

const SUPPORTED = ['', 'Ignore', 'Strict', 'Warn'];
/** sigs.k8s.io/json stops collecting strict errors after this many. */
const MAX_STRICT_ERRORS = 100;

/**
 * The request's field validation: unset or empty means Warn, as in kube-apiserver; any other
 * value is the options validation's 422.
 */
export function fieldValidationOf(query: URLSearchParams, optionsKind: WriteOptionsKind): FieldValidation {
  const value = query.get('fieldValidation') ?? '';
  if (value === '') return 'Warn';
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  const message = `Unsupported value: ${JSON.stringify(value)}: supported values: ${SUPPORTED.map((v) => JSON.stringify(v)).join(', ')}`;
  throw new ApiError(422, 'Invalid', `${optionsKind}.meta.k8s.io "" is invalid: fieldValidation: ${message}`, {
    group: 'meta.k8s.io',
    kind: optionsKind,
    causes: [{ reason: 'FieldValueNotSupported', message, field: 'fieldValidation' }],
  });
}

/** An object that passed field validation, and the warnings to send with the response. */
export interface Validated<T = KubeObject> {
  object: T;
  warnings: string[];
}

function under(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => path.startsWith(p) && (path.length === p.length || path[p.length] === '.' || path[p.length] === '['));
}

/**
 * The strict decoder's error texts in document order: `unknown field "spec.foo"`,
 * `duplicate field "spec.replicas"`. `leading` errors (a patch body's duplicates) come first,
 * as the apiserver collects them before decoding the result.
 */
export function strictErrorTexts(decoded: Pick<TypedDecode, 'unknownFields' | 'opaquePaths'>, scan: KeyScan | undefined, leading: readonly string[] = []): string[] {
  const findings: Array<{ order: number; text: string }> = decoded.unknownFields.map((path, index) => ({
    order: scan?.firstSeen.get(path) ?? Number.MAX_SAFE_INTEGER - decoded.unknownFields.length + index,
    text: `unknown field ${JSON.stringify(path)}`,
  }));
  for (const duplicate of scan?.duplicates ?? []) {
    // The decoder never looks inside what it skips, so repeats there go unseen.
    if (!under(duplicate.path, decoded.opaquePaths)) findings.push({ order: duplicate.order, text: `duplicate field ${JSON.stringify(duplicate.path)}` });
  }
  findings.sort((a, b) => a.order - b.order);
  return [...new Set([...leading, ...findings.map((f) => f.text)])].slice(0, MAX_STRICT_ERRORS);
}

/** `strict decoding error: unknown field "a", unknown field "b"`. */
export function strictDecodingError(errors: readonly string[]): string {
  return `strict decoding error: ${errors.join(', ')}`;
}

function versionOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
}

/** How a create or update body was sent: its JSON text lets repeated keys be found. */
export interface BodyValidationArgs {
  /** The decoded body, apiVersion and kind already filled in. */
  object: KubeObject;
  /** The kind the endpoint serves (the `as a <Kind>` of the message). */
  endpointKind: string;
  directive: FieldValidation;
  /** The raw body when it was JSON; YAML and protobuf bodies are checked without it. */
  jsonText?: string;
}

/**
 * Decodes a create or update body strictly: throws kube-apiserver's 400 for a type error (in
 * every mode) and for unknown or duplicate fields under Strict; under Warn returns them as
 * warnings. The object comes back without unknown fields.
 */
export function validateBody(args: BodyValidationArgs): Validated {
  const { object } = args;
  const model = modelFor(object.apiVersion, object.kind);
  if (!model) return { object, warnings: [] };
  const decoded = decodeTyped(model, object);
  const fail = (detail: string) => badRequest(`${object.kind} in version ${JSON.stringify(versionOf(object.apiVersion))} cannot be handled as a ${args.endpointKind}: ${detail}`);
  if (decoded.typeError) throw fail(jsonTypeErrorMessage(decoded.typeError));
  const pruned = decoded.pruned as KubeObject;
  if (args.directive === 'Ignore') return { object: pruned, warnings: [] };
  const scan = args.jsonText !== undefined ? scanJsonKeys(args.jsonText) : undefined;
  const errors = strictErrorTexts(decoded, scan);
  if (errors.length > 0 && args.directive === 'Strict') throw fail(strictDecodingError(errors));
  return { object: pruned, warnings: errors };
}

/** A warning text as an RFC 7234 `Warning` header value: code 299, agent `-`, quoted text. */
export function warningHeaderValue(text: string): string {
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
