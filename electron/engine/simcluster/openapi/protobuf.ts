/**
 * Encodes the swagger 2.0 document as gnostic's `openapi.v2.Document` protobuf
 * (github.com/google/gnostic-models, openapiv2/OpenAPIv2.proto): what kubectl 1.27-1.33 ask
 * for at GET /openapi/v2 with `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`.
 *
 * Field numbers below are OpenAPIv2.proto's. Values gnostic keeps as `Any` (vendor extensions,
 * default, enum) go in `Any.yaml` as JSON text, which is valid YAML: kubectl unmarshals
 * extensions from that string and never looks at `Any.value`.
 */
import type { Parameter } from './parameters.ts';
import type { Method, Operation, PathItem, Response } from './paths.ts';
import { ProtoWriter } from './protobuf-wire.ts';
import type { Schema } from './schema.ts';
import type { SwaggerDocument } from './v2.ts';

/** `Any { yaml = 2 }`. */
function any(value: unknown): ProtoWriter {
  return new ProtoWriter().string(2, JSON.stringify(value));
}

/** `repeated NamedAny vendor_extension`: `NamedAny { name = 1; Any value = 2 }`. */
function vendorExtensions(writer: ProtoWriter, field: number, source: object): void {
  for (const [name, value] of Object.entries(source)) {
    if (!name.startsWith('x-') || value === undefined) continue;
    writer.message(field, new ProtoWriter().string(1, name).message(2, any(value)));
  }
}

/** `Schema` (fields 1-31). */
export function encodeSchema(schema: Schema): ProtoWriter {
  const w = new ProtoWriter();
  w.string(1, schema.$ref);
  w.string(2, schema.format);
  w.string(4, schema.description);
  if (schema.default !== undefined) w.message(5, any(schema.default));
  // Value bounds (custom resources' schemas carry them).
  w.double(7, schema.maximum).bool(8, schema.exclusiveMaximum).double(9, schema.minimum).bool(10, schema.exclusiveMinimum);
  w.int64(11, schema.maxLength).int64(12, schema.minLength).string(13, schema.pattern).int64(14, schema.maxItems).int64(15, schema.minItems);
  w.bool(16, schema.uniqueItems);
  w.strings(19, schema.required);
  for (const value of schema.enum ?? []) w.message(20, any(value));
  // AdditionalPropertiesItem { Schema schema = 1 }
  if (schema.additionalProperties) w.message(21, new ProtoWriter().message(1, encodeSchema(schema.additionalProperties)));
  if (schema.type) w.message(22, new ProtoWriter().strings(1, [schema.type]));
  if (schema.items) w.message(23, new ProtoWriter().message(1, encodeSchema(schema.items)));
  for (const member of schema.allOf ?? []) w.message(24, encodeSchema(member));
  if (schema.properties) {
    const properties = new ProtoWriter();
    for (const [name, property] of Object.entries(schema.properties)) {
      properties.message(1, new ProtoWriter().string(1, name).message(2, encodeSchema(property)));
    }
    w.message(25, properties);
  }
  vendorExtensions(w, 31, schema);
  return w;
}

/** `ParametersItem { Parameter parameter = 1 }` for a body, query or path parameter. */
function encodeParameter(parameter: Parameter): ProtoWriter {
  const p = new ProtoWriter();
  if (parameter.in === 'body') {
    // BodyParameter { description = 1; name = 2; in = 3; required = 4; schema = 5 }
    const bodyParameter = new ProtoWriter().string(1, parameter.description).string(2, parameter.name).string(3, parameter.in).bool(4, parameter.required);
    if (parameter.schema) bodyParameter.message(5, encodeSchema(parameter.schema));
    p.message(1, bodyParameter);
  } else if (parameter.in === 'query') {
    // QueryParameterSubSchema { required = 1; in = 2; description = 3; name = 4; type = 6; unique_items = 20 }
    const sub = new ProtoWriter().bool(1, parameter.required).string(2, parameter.in).string(3, parameter.description).string(4, parameter.name);
    sub.string(6, parameter.type).bool(20, parameter.uniqueItems);
    p.message(2, new ProtoWriter().message(3, sub));
  } else {
    // PathParameterSubSchema { required = 1; in = 2; description = 3; name = 4; type = 5; unique_items = 19 }
    const sub = new ProtoWriter().bool(1, parameter.required).string(2, parameter.in).string(3, parameter.description).string(4, parameter.name);
    sub.string(5, parameter.type).bool(19, parameter.uniqueItems);
    p.message(2, new ProtoWriter().message(4, sub));
  }
  return new ProtoWriter().message(1, p);
}

/** `Responses { repeated NamedResponseValue response_code = 1 }`. */
function encodeResponses(responses: Record<string, Response>): ProtoWriter {
  const w = new ProtoWriter();
  for (const [code, response] of Object.entries(responses)) {
    // Response { description = 1; SchemaItem schema = 2 { Schema schema = 1 } }
    const r = new ProtoWriter().string(1, response.description);
    if (response.schema) r.message(2, new ProtoWriter().message(1, encodeSchema(response.schema)));
    // ResponseValue { Response response = 1 }
    w.message(1, new ProtoWriter().string(1, code).message(2, new ProtoWriter().message(1, r)));
  }
  return w;
}

/** `Operation` (fields 1-13). */
function encodeOperation(op: Operation): ProtoWriter {
  const w = new ProtoWriter();
  w.strings(1, op.tags).string(3, op.description).string(5, op.operationId).strings(6, op.produces).strings(7, op.consumes);
  for (const parameter of op.parameters ?? []) w.message(8, encodeParameter(parameter));
  w.message(9, encodeResponses(op.responses)).strings(10, op.schemes);
  vendorExtensions(w, 13, op);
  return w;
}

const METHOD_FIELDS: ReadonlyArray<[Method, number]> = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['patch', 8],
];

/** `PathItem { get = 2; put = 3; post = 4; delete = 5; patch = 8; parameters = 9 }`. */
function encodePathItem(item: PathItem): ProtoWriter {
  const w = new ProtoWriter();
  for (const [method, field] of METHOD_FIELDS) {
    const op = item[method];
    if (op) w.message(field, encodeOperation(op));
  }
  for (const parameter of item.parameters ?? []) w.message(9, encodeParameter(parameter));
  return w;
}

/**
 * `Document { swagger = 1; info = 2; paths = 8; definitions = 9 }` with `Info { title = 1;
 * version = 2 }`, `Paths { repeated NamedPathItem path = 2 }` (field 1 is Paths'
 * vendor_extension) and `Definitions { repeated NamedSchema additional_properties = 1 }`.
 */
export function encodeOpenApiV2(document: SwaggerDocument): Uint8Array {
  const paths = new ProtoWriter();
  for (const [path, item] of Object.entries(document.paths)) {
    paths.message(2, new ProtoWriter().string(1, path).message(2, encodePathItem(item)));
  }
  const definitions = new ProtoWriter();
  for (const [name, schema] of Object.entries(document.definitions)) {
    definitions.message(1, new ProtoWriter().string(1, name).message(2, encodeSchema(schema)));
  }
  return new ProtoWriter()
    .string(1, document.swagger)
    .message(2, new ProtoWriter().string(1, document.info.title).string(2, document.info.version))
    .message(8, paths)
    .message(9, definitions)
    .finish();
}
