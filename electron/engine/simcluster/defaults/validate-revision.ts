/**
 * apps/v1 ControllerRevision validation as kube-apiserver 1.31+ runs it (pkg/apis/apps/validation
 * ValidateControllerRevisionCreate / ValidateControllerRevisionUpdate; the name's DNS-subdomain
 * rule is the store's, store.ts):
 * - `revision` is non-negative;
 * - on create, `data` is required ("data is mandatory": absent and JSON `null` are the same, an
 *   empty RawExtension) and must be a JSON object (it is decoded into a map);
 * - on update, `data` is immutable (`revision` is not: the controllers renumber an old revision
 *   when its template comes back).
 * Before 1.31 `data` was a runtime.Object: the immutable error printed a runtime.Unknown and a
 * non-object `data` was accepted; the simulated server speaks as 1.31+.
 */
import type { FieldErrors } from './field-errors.ts';
import { GoLiteral } from './go-format.ts';
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
  const bytes = [...Buffer.from(goJson(data), 'utf8')].map((byte) => `0x${byte.toString(16)}`);
  return new GoLiteral(`runtime.RawExtension{Raw:[]uint8{${bytes.join(', ')}}, Object:runtime.Object(nil)}`);
}

/** What json.Unmarshal into a map says of a JSON value that is not an object (null excepted). */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  return 'bool';
}

/** ValidateControllerRevisionCreate, or ValidateControllerRevisionUpdate when `old` is given. */
export function validateControllerRevision(revision: ControllerRevisionShape, old: ControllerRevisionShape | undefined, errors: FieldErrors): void {
  errors.nonNegative('revision', revision.revision);
  if (old) {
    // Semantic.DeepEqual of the raw bytes upstream; the stored value stands for them here.
    if (!jsonEqual(revision.data ?? null, old.data ?? null)) errors.invalid('data', goRawExtension(revision.data), 'field is immutable');
    return;
  }
  const data = revision.data;
  if (data === undefined || data === null) errors.required('data', 'data is mandatory');
  else if (typeof data !== 'object' || Array.isArray(data)) {
    errors.invalid('data', '<value omitted>', `error parsing data: json: cannot unmarshal ${jsonKind(data)} into Go value of type map[string]interface {}`);
  }
}
