/**
 * A test-only decoder for gnostic's openapi.v2.Document protobuf, written from
 * github.com/google/gnostic-models openapiv2/OpenAPIv2.proto independently of the encoder.
 * It rejects any field number the proto does not define for a message, so an encoder using a
 * wrong number fails loudly, and converts the result back to swagger JSON for comparison.
 */
import { parse as parseYaml } from 'yaml';

type Kind = 'string' | 'bool' | 'varint' | string;
type FieldSpec = [name: string, kind: Kind, repeated?: 'repeated'];
type MessageSpec = Record<number, FieldSpec>;

const R = 'repeated' as const;

/** The messages the Kubernetes document uses, with every field OpenAPIv2.proto gives them. */
const MESSAGES: Record<string, MessageSpec> = {
  Document: { 1: ['swagger', 'string'], 2: ['info', 'Info'], 3: ['host', 'string'], 4: ['base_path', 'string'], 5: ['schemes', 'string', R], 6: ['consumes', 'string', R], 7: ['produces', 'string', R], 8: ['paths', 'Paths'], 9: ['definitions', 'Definitions'], 16: ['vendor_extension', 'NamedAny', R] },
  Info: { 1: ['title', 'string'], 2: ['version', 'string'], 3: ['description', 'string'], 7: ['vendor_extension', 'NamedAny', R] },
  Paths: { 1: ['vendor_extension', 'NamedAny', R], 2: ['path', 'NamedPathItem', R] },
  NamedPathItem: { 1: ['name', 'string'], 2: ['value', 'PathItem'] },
  PathItem: { 1: ['_ref', 'string'], 2: ['get', 'Operation'], 3: ['put', 'Operation'], 4: ['post', 'Operation'], 5: ['delete', 'Operation'], 6: ['options', 'Operation'], 7: ['head', 'Operation'], 8: ['patch', 'Operation'], 9: ['parameters', 'ParametersItem', R], 10: ['vendor_extension', 'NamedAny', R] },
  Operation: { 1: ['tags', 'string', R], 2: ['summary', 'string'], 3: ['description', 'string'], 5: ['operation_id', 'string'], 6: ['produces', 'string', R], 7: ['consumes', 'string', R], 8: ['parameters', 'ParametersItem', R], 9: ['responses', 'Responses'], 10: ['schemes', 'string', R], 11: ['deprecated', 'bool'], 13: ['vendor_extension', 'NamedAny', R] },
  ParametersItem: { 1: ['parameter', 'Parameter'], 2: ['json_reference', 'JsonReference'] },
  JsonReference: { 1: ['_ref', 'string'], 2: ['description', 'string'] },
  Parameter: { 1: ['body_parameter', 'BodyParameter'], 2: ['non_body_parameter', 'NonBodyParameter'] },
  BodyParameter: { 1: ['description', 'string'], 2: ['name', 'string'], 3: ['in', 'string'], 4: ['required', 'bool'], 5: ['schema', 'Schema'], 6: ['vendor_extension', 'NamedAny', R] },
  NonBodyParameter: { 1: ['header_parameter_sub_schema', 'Unused'], 2: ['form_data_parameter_sub_schema', 'Unused'], 3: ['query_parameter_sub_schema', 'QueryParameterSubSchema'], 4: ['path_parameter_sub_schema', 'PathParameterSubSchema'] },
  QueryParameterSubSchema: { 1: ['required', 'bool'], 2: ['in', 'string'], 3: ['description', 'string'], 4: ['name', 'string'], 5: ['allow_empty_value', 'bool'], 6: ['type', 'string'], 7: ['format', 'string'], 20: ['unique_items', 'bool'], 23: ['vendor_extension', 'NamedAny', R] },
  PathParameterSubSchema: { 1: ['required', 'bool'], 2: ['in', 'string'], 3: ['description', 'string'], 4: ['name', 'string'], 5: ['type', 'string'], 6: ['format', 'string'], 19: ['unique_items', 'bool'], 22: ['vendor_extension', 'NamedAny', R] },
  Responses: { 1: ['response_code', 'NamedResponseValue', R], 2: ['vendor_extension', 'NamedAny', R] },
  NamedResponseValue: { 1: ['name', 'string'], 2: ['value', 'ResponseValue'] },
  ResponseValue: { 1: ['response', 'Response'], 2: ['json_reference', 'JsonReference'] },
  Response: { 1: ['description', 'string'], 2: ['schema', 'SchemaItem'], 5: ['vendor_extension', 'NamedAny', R] },
  SchemaItem: { 1: ['schema', 'Schema'], 2: ['file_schema', 'Unused'] },
  Definitions: { 1: ['additional_properties', 'NamedSchema', R] },
  NamedSchema: { 1: ['name', 'string'], 2: ['value', 'Schema'] },
  Schema: {
    1: ['_ref', 'string'], 2: ['format', 'string'], 3: ['title', 'string'], 4: ['description', 'string'], 5: ['default', 'Any'],
    6: ['multiple_of', 'double'], 7: ['maximum', 'double'], 8: ['exclusive_maximum', 'bool'], 9: ['minimum', 'double'], 10: ['exclusive_minimum', 'bool'],
    11: ['max_length', 'varint'], 12: ['min_length', 'varint'], 13: ['pattern', 'string'], 14: ['max_items', 'varint'], 15: ['min_items', 'varint'],
    16: ['unique_items', 'bool'], 19: ['required', 'string', R], 20: ['enum', 'Any', R], 21: ['additional_properties', 'AdditionalPropertiesItem'],
    22: ['type', 'TypeItem'], 23: ['items', 'ItemsItem'], 24: ['all_of', 'Schema', R], 25: ['properties', 'Properties'], 27: ['read_only', 'bool'], 31: ['vendor_extension', 'NamedAny', R],
  },
  AdditionalPropertiesItem: { 1: ['schema', 'Schema'], 2: ['boolean', 'bool'] },
  TypeItem: { 1: ['value', 'string', R] },
  ItemsItem: { 1: ['schema', 'Schema', R] },
  Properties: { 1: ['additional_properties', 'NamedSchema', R] },
  NamedAny: { 1: ['name', 'string'], 2: ['value', 'Any'] },
  Any: { 1: ['value', 'Unused'], 2: ['yaml', 'string'] },
  Unused: {},
};

export type Decoded = Record<string, unknown>;

function readVarint(bytes: Uint8Array, start: number): [number, number] {
  let value = 0;
  let scale = 1;
  let offset = start;
  for (;;) {
    const byte = bytes[offset++];
    if (byte === undefined) throw new Error('truncated varint');
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, offset];
    scale *= 0x80;
  }
}

/** Decodes `bytes` as message `type`, throwing on any field number or wire type it does not define. */
export function decodeMessage(bytes: Uint8Array, type: string): Decoded {
  const spec = MESSAGES[type];
  if (!spec) throw new Error(`unknown message ${type}`);
  const out: Decoded = {};
  let offset = 0;
  while (offset < bytes.length) {
    const [key, afterKey] = readVarint(bytes, offset);
    const field = Math.floor(key / 8);
    const wire = key % 8;
    const fieldSpec = spec[field];
    if (!fieldSpec) throw new Error(`${type} has no field ${field}`);
    const [name, kind, repeated] = fieldSpec;
    let value: unknown;
    if (wire === 0) {
      if (kind !== 'bool' && kind !== 'varint') throw new Error(`${type}.${name} is not a varint field`);
      const [n, next] = readVarint(bytes, afterKey);
      value = kind === 'bool' ? n !== 0 : n;
      offset = next;
    } else if (wire === 1) {
      if (kind !== 'double') throw new Error(`${type}.${name} is not a double field`);
      value = new DataView(bytes.buffer, bytes.byteOffset + afterKey, 8).getFloat64(0, true);
      offset = afterKey + 8;
    } else if (wire === 2) {
      const [length, start] = readVarint(bytes, afterKey);
      const body = bytes.subarray(start, start + length);
      if (body.length !== length) throw new Error('truncated field');
      value = kind === 'string' ? new TextDecoder('utf-8', { fatal: true }).decode(body) : decodeMessage(body, kind);
      offset = start + length;
    } else {
      throw new Error(`unexpected wire type ${wire} for ${type}.${name}`);
    }
    if (repeated) ((out[name] ??= []) as unknown[]).push(value);
    else if (name in out) throw new Error(`${type}.${name} written twice`);
    else out[name] = value;
  }
  return out;
}

function extensions(target: Record<string, unknown>, decoded: Decoded): void {
  for (const entry of (decoded.vendor_extension as Decoded[] | undefined) ?? []) {
    target[entry.name as string] = parseYaml((entry.value as Decoded).yaml as string);
  }
}

function anyValue(decoded: Decoded): unknown {
  return parseYaml(decoded.yaml as string);
}

/** A decoded Schema back in swagger JSON form. */
export function schemaJson(s: Decoded): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s._ref) out.$ref = s._ref;
  if (s.format) out.format = s.format;
  if (s.description) out.description = s.description;
  if (s.default) out.default = anyValue(s.default as Decoded);
  if (s.unique_items) out.uniqueItems = true;
  const bounds: Array<[string, string]> = [['maximum', 'maximum'], ['exclusive_maximum', 'exclusiveMaximum'], ['minimum', 'minimum'], ['exclusive_minimum', 'exclusiveMinimum'], ['max_length', 'maxLength'], ['min_length', 'minLength'], ['pattern', 'pattern'], ['max_items', 'maxItems'], ['min_items', 'minItems']];
  for (const [from, to] of bounds) if (s[from] !== undefined) out[to] = s[from];
  if (s.required) out.required = s.required;
  if (s.enum) out.enum = (s.enum as Decoded[]).map(anyValue);
  if (s.additional_properties) out.additionalProperties = schemaJson((s.additional_properties as Decoded).schema as Decoded);
  if (s.type) out.type = ((s.type as Decoded).value as string[])[0];
  if (s.items) out.items = schemaJson(((s.items as Decoded).schema as Decoded[])[0] as Decoded);
  if (s.all_of) out.allOf = (s.all_of as Decoded[]).map(schemaJson);
  if (s.properties) {
    out.properties = Object.fromEntries(((s.properties as Decoded).additional_properties as Decoded[] | undefined ?? []).map((p) => [p.name, schemaJson(p.value as Decoded)]));
  }
  extensions(out, s);
  return out;
}

function parameterJson(item: Decoded): Record<string, unknown> {
  const parameter = item.parameter as Decoded;
  if (parameter.body_parameter) {
    const b = parameter.body_parameter as Decoded;
    return { name: b.name, in: b.in, required: b.required, schema: schemaJson(b.schema as Decoded) };
  }
  const nonBody = parameter.non_body_parameter as Decoded;
  const sub = (nonBody.query_parameter_sub_schema ?? nonBody.path_parameter_sub_schema) as Decoded;
  const out: Record<string, unknown> = { uniqueItems: sub.unique_items, type: sub.type, description: sub.description, name: sub.name, in: sub.in };
  if (sub.required) out.required = true;
  return out;
}

function operationJson(op: Decoded): Record<string, unknown> {
  const out: Record<string, unknown> = {
    description: op.description,
    consumes: op.consumes,
    produces: op.produces,
    schemes: op.schemes,
    tags: op.tags,
    operationId: op.operation_id,
    responses: Object.fromEntries(
      ((op.responses as Decoded).response_code as Decoded[]).map((r) => {
        const response = (r.value as Decoded).response as Decoded;
        const schema = response.schema ? { schema: schemaJson((response.schema as Decoded).schema as Decoded) } : {};
        return [r.name, { description: response.description, ...schema }];
      }),
    ),
  };
  if (op.parameters) out.parameters = (op.parameters as Decoded[]).map(parameterJson);
  extensions(out, op);
  return out;
}

/** The whole decoded Document back in swagger JSON form. */
export function documentJson(bytes: Uint8Array): Record<string, unknown> {
  const doc = decodeMessage(bytes, 'Document');
  const info = doc.info as Decoded;
  const paths: Record<string, unknown> = {};
  for (const named of ((doc.paths as Decoded).path as Decoded[] | undefined) ?? []) {
    const item = named.value as Decoded;
    const json: Record<string, unknown> = {};
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) if (item[method]) json[method] = operationJson(item[method] as Decoded);
    if (item.parameters) json.parameters = (item.parameters as Decoded[]).map(parameterJson);
    paths[named.name as string] = json;
  }
  const definitions = Object.fromEntries((((doc.definitions as Decoded).additional_properties as Decoded[] | undefined) ?? []).map((d) => [d.name, schemaJson(d.value as Decoded)]));
  return { swagger: doc.swagger, info: { title: info.title, version: info.version }, paths, definitions };
}
