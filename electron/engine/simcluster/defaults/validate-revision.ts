/**
 * apps/v1 ControllerRevision validation as kube-apiserver runs it (pkg/apis/apps/validation
 * ValidateControllerRevision[Create] / ValidateControllerRevisionUpdate; the name's DNS-subdomain
 * rule is the store's, store.ts):
 * - `revision` is non-negative;
 * - on create, `data` is required ("data is mandatory": absent and JSON `null` are the same);
 *   since 1.31 it must also be a JSON object (it is decoded into a map);
 * - on update, `data` is immutable (`revision` is not: the controllers renumber an old revision
 *   when its template comes back). The refused value is printed as Go's `%#v` of the internal
 *   field: a runtime.RawExtension since 1.31, a runtime.Unknown (the RawExtension converted to a
 *   runtime.Object) before.
 */
import type { FieldErrors } from './field-errors.ts';
import { GoLiteral, goQuote } from './go-format.ts';
import { jsonEqual } from '../../../../shared/json-equal.ts';

/** The fields of a ControllerRevision this validation reads. */
export interface ControllerRevisionShape {
  data?: unknown;
  revision?: number;
}

/** encoding/json's escaping (HTML-safe, with U+2028/U+2029), as the bytes a Go client sent look. */
function goJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * How field.Invalid prints a RawExtension: Go's `%#v` of the struct (its String() has a pointer
 * receiver, so the value does not use it), the raw JSON as hex bytes.
 */
export function goRawExtension(data: unknown): GoLiteral {
  if (data === undefined || data === null) return new GoLiteral('runtime.RawExtension{Raw:[]uint8(nil), Object:runtime.Object(nil)}');
  return new GoLiteral(`runtime.RawExtension{Raw:${goBytes(goJson(data))}, Object:runtime.Object(nil)}`);
}

/** Bytes as Go's `%#v` prints a []byte field: `[]uint8{0x7b, 0x7d}`. */
function goBytes(json: string): string {
  return `[]uint8{${[...Buffer.from(json, 'utf8')].map((byte) => `0x${byte.toString(16)}`).join(', ')}}`;
}

/**
 * How field.Invalid printed `data` before 1.31: the *runtime.Unknown the RawExtension became,
 * dereferenced and printed with `%#v`; no data at all was a nil runtime.Object, printed "null".
 */
export function goUnknown(data: unknown): GoLiteral | string {
  if (data === undefined || data === null) return 'null';
  return new GoLiteral(`runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:${goQuote('')}, Kind:${goQuote('')}}, Raw:${goBytes(goJson(data))}, ContentEncoding:${goQuote('')}, ContentType:${goQuote('application/json')}}`);
}

/** What json.Unmarshal into a map says of a JSON value that is not an object (null excepted). */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  return 'bool';
}

/** The Kubernetes minor the data checks and texts follow (the server's `/version`). */
export interface RevisionValidationOptions {
  minor: number;
}

/** ValidateControllerRevision[Create], or ValidateControllerRevisionUpdate when `old` is given. */
export function validateControllerRevision(revision: ControllerRevisionShape, old: ControllerRevisionShape | undefined, errors: FieldErrors, options: RevisionValidationOptions): void {
  const rawExtension = options.minor >= 31;
  errors.nonNegative('revision', revision.revision);
  if (old) {
    // Semantic.DeepEqual of the raw bytes upstream; the stored value stands for them here.
    if (!jsonEqual(revision.data ?? null, old.data ?? null)) errors.invalid('data', rawExtension ? goRawExtension(revision.data) : goUnknown(revision.data), 'field is immutable');
    return;
  }
  const data = revision.data;
  if (data === undefined || data === null) errors.required('data', 'data is mandatory');
  else if (rawExtension && (typeof data !== 'object' || Array.isArray(data))) {
    errors.invalid('data', '<value omitted>', `error parsing data: json: cannot unmarshal ${jsonKind(data)} into Go value of type map[string]interface {}`);
  }
}
