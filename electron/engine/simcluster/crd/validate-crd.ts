/**
 * CustomResourceDefinition validation with apiextensions-apiserver's field errors: the name is
 * `<plural>.<group>`, names are DNS labels, the scope is known, exactly one storage version and
 * at least one served one, every version has a structural schema, printer columns and scale
 * paths are well formed; group and scope are immutable.
 */
import type { StatusCause } from '../errors.ts';
import type { KubeObject } from '../types.ts';
import { isSimpleJsonPath } from './jsonpath.ts';
import { structuralErrors } from './structural.ts';
import type { CrdSpec, CrdVersion } from './types.ts';

const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_MESSAGE = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];

type Out = StatusCause[];

function required(out: Out, field: string): void {
  out.push({ field, message: 'Required value', reason: 'FieldValueRequired' });
}

function invalidValue(out: Out, field: string, value: unknown, why: string): void {
  out.push({ field, message: `Invalid value: ${JSON.stringify(value)}: ${why}` });
}

function label(out: Out, field: string, value: unknown, isRequired: boolean): void {
  if (value === undefined || value === '') {
    if (isRequired) required(out, field);
    return;
  }
  if (typeof value !== 'string' || !DNS1035.test(value)) invalidValue(out, field, value, DNS1035_MESSAGE);
}

/** Go's `%#v` of the versions, shortened to their names: what the storage/served errors print. */
function versionsValue(versions: readonly CrdVersion[]): string {
  if (versions.length === 0) return '[]apiextensions.CustomResourceDefinitionVersion(nil)';
  return `[]apiextensions.CustomResourceDefinitionVersion{${versions.map((v) => `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(v.name)}, Served:${v.served === true}, Storage:${v.storage === true}}`).join(', ')}}`;
}

function validateNames(spec: CrdSpec, out: Out): void {
  const names = spec.names ?? ({} as CrdSpec['names']);
  label(out, 'spec.names.plural', names.plural, true);
  label(out, 'spec.names.singular', names.singular, false);
  (names.shortNames ?? []).forEach((s, i) => label(out, `spec.names.shortNames[${i}]`, s, true));
  if (!names.kind) required(out, 'spec.names.kind');
  else if (!DNS1035.test(names.kind.toLowerCase())) invalidValue(out, 'spec.names.kind', names.kind, DNS1035_MESSAGE.replace('a DNS-1035 label', 'a lowercase DNS-1035 label'));
  if (!names.listKind) required(out, 'spec.names.listKind');
  else if (names.listKind === names.kind) invalidValue(out, 'spec.names.listKind', names.listKind, 'kind and listKind may not be the same');
}

function validateColumns(version: CrdVersion, path: string, out: Out): void {
  (version.additionalPrinterColumns ?? []).forEach((column, i) => {
    const at = `${path}.additionalPrinterColumns[${i}]`;
    if (!column.name) required(out, `${at}.name`);
    if (!column.type) required(out, `${at}.type`);
    else if (!COLUMN_TYPES.includes(column.type)) {
      out.push({ field: `${at}.type`, reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(column.type)}: supported values: ${COLUMN_TYPES.map((t) => JSON.stringify(t)).join(', ')}` });
    }
    if (!column.jsonPath) required(out, `${at}.jsonPath`);
    else if (!isSimpleJsonPath(column.jsonPath)) invalidValue(out, `${at}.jsonPath`, column.jsonPath, 'must be a simple json path starting with .');
  });
}

function validateScale(version: CrdVersion, path: string, out: Out): void {
  const scale = version.subresources?.scale;
  if (!scale) return;
  const at = `${path}.subresources.scale`;
  if (!scale.specReplicasPath) required(out, `${at}.specReplicasPath`);
  else if (!scale.specReplicasPath.startsWith('.spec.')) invalidValue(out, `${at}.specReplicasPath`, scale.specReplicasPath, 'should be a json path under .spec');
  if (!scale.statusReplicasPath) required(out, `${at}.statusReplicasPath`);
  else if (!scale.statusReplicasPath.startsWith('.status.')) invalidValue(out, `${at}.statusReplicasPath`, scale.statusReplicasPath, 'should be a json path under .status');
  if (scale.labelSelectorPath && !/^\.(spec|status)\./.test(scale.labelSelectorPath)) invalidValue(out, `${at}.labelSelectorPath`, scale.labelSelectorPath, 'should be a json path under either .spec or .status');
}

function validateVersions(spec: CrdSpec, out: Out): void {
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const value = versionsValue(versions);
  const versionsError = (why: string) => out.push({ field: 'spec.versions', message: `Invalid value: ${value}: ${why}` });
  if (versions.filter((v) => v.storage).length !== 1) versionsError('must have exactly one version marked as storage version');
  if (versions.length > 0 && !versions.some((v) => v.served)) versionsError('must serve at least one version');
  if (new Set(versions.map((v) => v.name)).size !== versions.length) versionsError('must contain unique version names');
  versions.forEach((version, i) => {
    const path = `spec.versions[${i}]`;
    label(out, `${path}.name`, version.name, true);
    const schema = version.schema?.openAPIV3Schema;
    if (!schema) out.push({ field: `${path}.schema.openAPIV3Schema`, reason: 'FieldValueRequired', message: 'Required value: schemas are required' });
    else out.push(...structuralErrors(schema, `${path}.schema.openAPIV3Schema`));
    validateColumns(version, path, out);
    validateScale(version, path, out);
  });
}

/** Field errors of a CRD (with `old` on updates); empty when it may be stored. */
export function validateCrd(crd: KubeObject, old?: KubeObject): StatusCause[] {
  const out: Out = [];
  const spec = (crd['spec'] ?? {}) as CrdSpec;
  const name = crd.metadata.name ?? '';
  if (spec.names?.plural && spec.group && name !== `${spec.names.plural}.${spec.group}`) {
    invalidValue(out, 'metadata.name', name, 'must be spec.names.plural+"."+spec.group');
  }
  if (!spec.group) required(out, 'spec.group');
  else if (!SUBDOMAIN.test(spec.group)) invalidValue(out, 'spec.group', spec.group, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  else if (!spec.group.includes('.')) invalidValue(out, 'spec.group', spec.group, 'should be a domain with at least one dot');
  validateNames(spec, out);
  if (!spec.scope) required(out, 'spec.scope');
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
    out.push({ field: 'spec.scope', reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(spec.scope)}: supported values: "Cluster", "Namespaced"` });
  }
  validateVersions(spec, out);
  if (old) {
    const before = (old['spec'] ?? {}) as CrdSpec;
    if (before.group !== spec.group) invalidValue(out, 'spec.group', spec.group, 'field is immutable');
    if (before.scope !== spec.scope) invalidValue(out, 'spec.scope', spec.scope, 'field is immutable');
  }
  return out;
}
