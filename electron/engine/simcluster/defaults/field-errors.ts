/**
 * apimachinery's field.ErrorList, producing errors.ts StatusCauses with upstream's reasons and
 * message bodies ("Required value", "Invalid value: -1: must be ...", "Unsupported value: ...").
 */
import type { StatusCause } from '../errors.ts';
import { goValue } from './go-format.ts';

/** field.Path rendering: `spec.template.spec.containers[0].image`, `resources.requests[cpu]`. */
export const at = {
  child: (path: string, ...names: string[]): string => [path, ...names].filter((p) => p !== '').join('.'),
  index: (path: string, index: number): string => `${path}[${index}]`,
  key: (path: string, key: string): string => `${path}[${key}]`,
};

export class FieldErrors {
  readonly causes: StatusCause[] = [];

  /** field.Required: "Required value", with an optional detail. */
  required(field: string, detail = ''): void {
    this.push('FieldValueRequired', field, detail ? `Required value: ${detail}` : 'Required value');
  }

  /** field.Invalid: the bad value as Go prints it, then why. */
  invalid(field: string, value: unknown, detail: string): void {
    this.push('FieldValueInvalid', field, `Invalid value: ${goValue(value)}: ${detail}`);
  }

  /** field.NotSupported: the value and the quoted supported values, in upstream's order. */
  notSupported(field: string, value: unknown, supported: readonly string[]): void {
    const list = supported.map((s) => JSON.stringify(s)).join(', ');
    this.push('FieldValueNotSupported', field, `Unsupported value: ${goValue(value)}: supported values: ${list}`);
  }

  duplicate(field: string, value: unknown): void {
    this.push('FieldValueDuplicate', field, `Duplicate value: ${goValue(value)}`);
  }

  notFound(field: string, value: unknown): void {
    this.push('FieldValueNotFound', field, `Not found: ${goValue(value)}`);
  }

  forbidden(field: string, detail: string): void {
    this.push('FieldValueForbidden', field, `Forbidden: ${detail}`);
  }

  /** ValidateNonnegativeField. */
  nonNegative(field: string, value: number | undefined): void {
    if (value !== undefined && value < 0) this.invalid(field, value, 'must be greater than or equal to 0');
  }

  /** ValidateImmutableField: Semantic.DeepEqual, where nil and empty lists and maps are equal. */
  immutable(field: string, next: unknown, old: unknown): void {
    if (!semanticEqual(next, old)) this.invalid(field, next, 'field is immutable');
  }

  private push(reason: string, field: string, message: string): void {
    this.causes.push({ reason, message, field });
  }
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** apimachinery's equality.Semantic.DeepEqual on JSON: nil equals empty for lists and maps. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => semanticEqual(item, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    return [...keys].every((key) => semanticEqual(ra[key], rb[key]));
  }
  return a === b;
}
