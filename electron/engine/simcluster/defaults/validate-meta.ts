/** apimachinery's name, label and percent validators, with their exact messages. */
import { at, type FieldErrors } from './field-errors.ts';
import { goIntOrString } from './go-format.ts';
import type { IntOrString } from './shapes.ts';

/** validation.RegexError: the message, examples and the regex upstream quotes. */
function regexError(message: string, regex: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${regex}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${regex}')`;
}

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';
const PERCENT = '[0-9]+%';
const CONFIG_KEY = '[-._a-zA-Z0-9]+';
const full = (regex: string) => new RegExp(`^${regex}$`);

/** IsDNS1123Label: container, port and volume names. */
export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!full(DNS1123_LABEL).test(value)) {
    errors.push(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", DNS1123_LABEL, 'my-name', '123-abc'));
  }
  return errors;
}

function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push('must be no more than 253 characters');
  if (!full(DNS1123_SUBDOMAIN).test(value)) {
    errors.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN, 'example.com'));
  }
  return errors;
}

/** IsQualifiedName: label and annotation keys, `[prefix/]name`. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const errors: string[] = [];
  if (parts.length === 2) {
    const [prefix = '', rest = ''] = parts;
    name = rest;
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((msg) => `prefix part ${msg}`));
  } else if (parts.length > 2) {
    return [regexError("a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QUALIFIED_NAME, 'MyName', 'my.name', '123-abc') + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push('name part must be no more than 63 characters');
  if (!full(QUALIFIED_NAME).test(name)) {
    errors.push(`name part ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QUALIFIED_NAME, 'MyName', 'my.name', '123-abc')}`);
  }
  return errors;
}

function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!full(LABEL_VALUE).test(value)) {
    errors.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE, 'MyValue', 'my_value', '12345'));
  }
  return errors;
}

/** ValidateLabels: every key a qualified name, every value a label value; errors on the map's path. */
export function validateLabels(labels: Record<string, string> | undefined, field: string, errors: FieldErrors): void {
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const msg of qualifiedNameErrors(key)) errors.invalid(field, key, msg);
    for (const msg of labelValueErrors(String(value))) errors.invalid(field, value, msg);
  }
}

/** ValidateAnnotations' key check (values are free-form). */
export function validateAnnotationKeys(annotations: Record<string, string> | undefined, field: string, errors: FieldErrors): void {
  for (const key of Object.keys(annotations ?? {})) {
    for (const msg of qualifiedNameErrors(key.toLowerCase())) errors.invalid(field, key, msg);
  }
}

/** ConfigMap and Secret data keys. */
export function validateConfigKeys(data: object | undefined, field: string, errors: FieldErrors): void {
  for (const key of Object.keys(data ?? {})) {
    const path = at.key(field, key);
    if (key.length > 253) errors.invalid(path, key, 'must be no more than 253 characters');
    if (!full(CONFIG_KEY).test(key)) {
      errors.invalid(path, key, regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY, 'key.name', 'KEY_NAME', 'key-name'));
    }
  }
}

/** The number an int-or-percent stands for, percent or not (getIntOrPercentValue). */
export function intOrPercentValue(value: IntOrString | undefined): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && full(PERCENT).test(value)) return Number(value.slice(0, -1));
  return 0;
}

/** ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(value: IntOrString | undefined, field: string, errors: FieldErrors): void {
  if (typeof value === 'string') {
    if (!full(PERCENT).test(value)) errors.invalid(field, goIntOrString(value), regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT, '1%', '93%'));
  } else if (typeof value === 'number' && value < 0) {
    errors.invalid(field, value, 'must be greater than or equal to 0');
  }
}

/** IsNotMoreThan100Percent. */
export function validateNotMoreThan100Percent(value: IntOrString | undefined, field: string, errors: FieldErrors): void {
  if (typeof value === 'string' && full(PERCENT).test(value) && intOrPercentValue(value) > 100) {
    errors.invalid(field, goIntOrString(value), 'must not be greater than 100%');
  }
}
