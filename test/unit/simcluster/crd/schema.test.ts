import { describe, expect, it } from 'vitest';
import { defaultObject, pruneObject } from '../../../../electron/engine/simcluster/crd/prune-default.ts';
import { validateAgainstSchema } from '../../../../electron/engine/simcluster/crd/schema-validate.ts';
import { structuralErrors } from '../../../../electron/engine/simcluster/crd/structural.ts';
import type { JSONSchemaProps } from '../../../../electron/engine/simcluster/crd/types.ts';

const ROOT = 'spec.versions[0].schema.openAPIV3Schema';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['engine'],
      properties: {
        engine: { type: 'string', enum: ['postgres', 'mysql'] },
        replicas: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
        storage: { 'x-kubernetes-int-or-string': true },
        settings: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        users: { type: 'array', maxItems: 2, items: { type: 'object', properties: { name: { type: 'string', minLength: 2 }, role: { type: 'string', default: 'reader' } } } },
        note: { type: 'string', nullable: true, maxLength: 8 },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

describe('custom resource schemas', () => {
  it('prune undeclared fields, keep preserved and additionalProperties ones, and report the paths', () => {
    const { object, pruned } = pruneObject(schema, {
      apiVersion: 'db.example.com/v1',
      kind: 'Database',
      metadata: { name: 'orders', labels: { a: 'b' } },
      spec: { engine: 'postgres', extra: 1, settings: { anything: { goes: true } }, labels: { team: 'shop' }, users: [{ name: 'al', age: 3 }] },
      status: { phase: 'Ready' },
    });
    expect(pruned).toEqual(['spec.extra', 'spec.users[0].age', 'status']);
    expect(object).toEqual({
      apiVersion: 'db.example.com/v1',
      kind: 'Database',
      metadata: { name: 'orders', labels: { a: 'b' } },
      spec: { engine: 'postgres', settings: { anything: { goes: true } }, labels: { team: 'shop' }, users: [{ name: 'al' }] },
    });
  });

  it('default absent fields, inside list items too, and leave metadata alone', () => {
    const defaulted = defaultObject(schema, { metadata: { name: 'orders' }, spec: { engine: 'mysql', users: [{ name: 'al' }, { name: 'bo', role: 'admin' }] } });
    expect(defaulted).toEqual({ metadata: { name: 'orders' }, spec: { engine: 'mysql', replicas: 1, users: [{ name: 'al', role: 'reader' }, { name: 'bo', role: 'admin' }] } });
  });

  it('validate types, enums, bounds, lengths, item counts, nullability and int-or-string with the apiserver messages', () => {
    const causes = validateAgainstSchema(schema, {
      apiVersion: 'db.example.com/v1',
      kind: 'Database',
      metadata: { name: 'orders' },
      spec: { engine: 'oracle', replicas: 9, storage: 1.5, users: [{ name: 'a' }, { name: 'bb' }, { name: 'cc' }], note: null, template: { metadata: {} } },
    });
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.engine: Unsupported value: "oracle": supported values: "postgres", "mysql"',
      'spec.replicas: Invalid value: 9: spec.replicas in body should be less than or equal to 5',
      'spec.storage: Invalid value: "number": spec.storage in body must be of type integer,string: "number"',
      'spec.users: Too many: 3: must have at most 2 items',
      'spec.users[0].name: Invalid value: "a": spec.users[0].name in body should be at least 2 chars long',
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
    ]);
    expect(validateAgainstSchema(schema, { spec: { engine: 'mysql', note: 'too long a note' } }).map((c) => c.message)).toEqual(['Too long: may not be longer than 8']);
    expect(validateAgainstSchema(schema, { spec: { engine: null } }).map((c) => `${c.field}: ${c.message}`)).toEqual(['spec.engine: Invalid value: "null": spec.engine in body must be of type string: "null"']);
    expect(validateAgainstSchema(schema, { metadata: { name: 'x' } })).toEqual([]);
  });

  it('accept a structural schema and name every way one is not structural', () => {
    expect(structuralErrors(schema, ROOT)).toEqual([]);
    const errors = structuralErrors(
      {
        type: 'object',
        properties: {
          metadata: { type: 'object', properties: { labels: { type: 'object' } } },
          spec: { properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
          list: { type: 'array' },
          port: { type: 'string', 'x-kubernetes-int-or-string': true },
          keep: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false },
          either: { type: 'object', anyOf: [{ type: 'string' }] },
        },
      },
      ROOT,
    ).map((c) => `${c.field}: ${c.message}`);
    expect(errors).toEqual([
      `${ROOT}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      `${ROOT}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${ROOT}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${ROOT}.properties[list].items: Required value: must be specified`,
      `${ROOT}.properties[port].type: Invalid value: "string": must be empty if x-kubernetes-int-or-string is true`,
      `${ROOT}.properties[keep].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
      `${ROOT}.properties[either].anyOf[0].type: Forbidden: must be empty to be structural`,
    ]);
    expect(structuralErrors({ properties: {} }, ROOT).map((c) => c.message)).toEqual(['Required value: must not be empty at the root']);
    expect(structuralErrors({ type: 'string' }, ROOT).map((c) => c.message)).toEqual(['Unsupported value: "string": supported values: "object"']);
  });
});
