/**
 * Decodes Kubernetes protobuf request bodies (`application/vnd.kubernetes.protobuf`): the
 * `k8s\0` envelope around a runtime.Unknown, then the object's message by the field numbers in
 * protobuf-schema.ts, into the JSON form clients would have sent. kubectl 1.32+ sends its typed
 * creates (`kubectl create configmap|deployment|...`) this way.
 *
 * Upstream's generated marshallers write every non-pointer field, zero or not; JSON's omitempty
 * drops those zeros, so they are dropped here too (pointer fields, marked `keep`, are written
 * only when set and kept as they are). A field the schema does not know is ignored when it holds
 * a zero value and refused otherwise, rather than silently losing data.
 */
import { ApiError } from '../errors.ts';
import type { KubeObject } from '../types.ts';
import { MESSAGES, ROOT_MESSAGES, type FieldDef, type FieldType } from './protobuf-schema.ts';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function unsupported(message: string): ApiError {
  return new ApiError(415, 'UnsupportedMediaType', `the body of the request could not be decoded as application/vnd.kubernetes.protobuf: ${message}; send application/json instead`, {});
}

interface RawField {
  number: number;
  wireType: number;
  varint?: bigint;
  bytes?: Buffer;
}

function readFields(buffer: Buffer): RawField[] {
  const fields: RawField[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= buffer.length) throw unsupported('truncated varint');
      const byte = buffer[pos++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (pos < buffer.length) {
    const key = Number(varint());
    const field: RawField = { number: key >>> 3, wireType: key & 7 };
    if (field.wireType === 0) field.varint = varint();
    else if (field.wireType === 2) {
      const length = Number(varint());
      if (pos + length > buffer.length) throw unsupported('truncated field');
      field.bytes = buffer.subarray(pos, pos + length);
      pos += length;
    } else if (field.wireType === 1 || field.wireType === 5) {
      const size = field.wireType === 1 ? 8 : 4;
      field.bytes = buffer.subarray(pos, pos + size);
      pos += size;
    } else {
      throw unsupported(`wire type ${field.wireType}`);
    }
    fields.push(field);
  }
  return fields;
}

function isZero(field: RawField): boolean {
  if (field.varint !== undefined) return field.varint === 0n;
  const bytes = field.bytes ?? Buffer.alloc(0);
  return field.wireType === 2 ? bytes.length === 0 : bytes.every((byte) => byte === 0);
}

function rfc3339(fields: RawField[], micro: boolean): string | null {
  const seconds = fields.find((f) => f.number === 1)?.varint ?? 0n;
  const nanos = Number(fields.find((f) => f.number === 2)?.varint ?? 0n);
  if (seconds === 0n && nanos === 0) return null;
  const iso = new Date(Number(BigInt.asIntN(64, seconds)) * 1000).toISOString();
  return micro ? iso.replace(/\.\d{3}Z$/, `.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`) : iso.replace(/\.\d{3}Z$/, 'Z');
}

function scalar(type: FieldType, field: RawField): unknown {
  switch (type) {
    case 'string':
      return (field.bytes ?? Buffer.alloc(0)).toString('utf8');
    case 'bytes':
      return (field.bytes ?? Buffer.alloc(0)).toString('base64');
    case 'bool':
      return field.varint !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, field.varint ?? 0n));
    case 'int64':
      return Number(BigInt.asIntN(64, field.varint ?? 0n));
    default:
      return special(type, field.bytes ?? Buffer.alloc(0));
  }
}

function special(type: FieldType, bytes: Buffer): unknown {
  const fields = readFields(bytes);
  if (type === 'Time' || type === 'MicroTime') return rfc3339(fields, type === 'MicroTime');
  if (type === 'Quantity') return fields.find((f) => f.number === 1)?.bytes?.toString('utf8') ?? '0';
  if (type === 'IntOrString') {
    const isString = (fields.find((f) => f.number === 1)?.varint ?? 0n) === 1n;
    if (isString) return fields.find((f) => f.number === 3)?.bytes?.toString('utf8') ?? '';
    return Number(BigInt.asIntN(32, fields.find((f) => f.number === 2)?.varint ?? 0n));
  }
  return decodeMessage((type as { message: string }).message, bytes);
}

function isEmptyValue(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

function mapEntry(def: FieldDef, bytes: Buffer): [string, unknown] {
  const fields = readFields(bytes);
  const key = fields.find((f) => f.number === 1)?.bytes?.toString('utf8') ?? '';
  const value = fields.find((f) => f.number === 2);
  const emptyValue: RawField = def.type === 'string' || def.type === 'bytes' || typeof def.type === 'object' ? { number: 2, wireType: 2, bytes: Buffer.alloc(0) } : { number: 2, wireType: 0, varint: 0n };
  return [key, scalar(def.type, value ?? emptyValue)];
}

function decodeMessage(name: string, bytes: Buffer): Record<string, unknown> {
  const schema = MESSAGES[name];
  if (!schema) throw unsupported(`no schema for ${name}`);
  const out: Record<string, unknown> = {};
  for (const field of readFields(bytes)) {
    const def = schema[field.number];
    if (!def) {
      if (isZero(field)) continue;
      throw unsupported(`field ${field.number} of ${name} is not supported`);
    }
    if (def.map) {
      const [key, value] = mapEntry(def, field.bytes ?? Buffer.alloc(0));
      out[def.name] = { ...((out[def.name] as Record<string, unknown> | undefined) ?? {}), [key]: value };
    } else if (def.repeated) {
      out[def.name] = [...((out[def.name] as unknown[] | undefined) ?? []), scalar(def.type, field)];
    } else if (def.inline) {
      Object.assign(out, scalar(def.type, field) as Record<string, unknown>);
    } else {
      const value = scalar(def.type, field);
      if (def.keep || !isEmptyValue(value)) out[def.name] = value;
    }
  }
  return out;
}

/** Whether a body starts with the Kubernetes protobuf envelope. */
export function isKubernetesProtobuf(body: Buffer): boolean {
  return body.subarray(0, 4).equals(MAGIC);
}

/** The object a Kubernetes protobuf body carries; 415 for kinds or fields it cannot decode. */
export function decodeKubernetesProtobuf(body: Buffer): KubeObject {
  if (!isKubernetesProtobuf(body)) throw unsupported('missing the k8s protobuf envelope');
  const unknown = readFields(body.subarray(4));
  const typeMeta = readFields(unknown.find((f) => f.number === 1)?.bytes ?? Buffer.alloc(0));
  const apiVersion = typeMeta.find((f) => f.number === 1)?.bytes?.toString('utf8') ?? '';
  const kind = typeMeta.find((f) => f.number === 2)?.bytes?.toString('utf8') ?? '';
  const encoding = unknown.find((f) => f.number === 3)?.bytes?.toString('utf8') ?? '';
  if (encoding) throw unsupported(`content encoding ${encoding}`);
  const root = ROOT_MESSAGES[`${apiVersion}/${kind}`];
  if (!root) throw unsupported(`${kind} in version "${apiVersion}" is not supported`);
  const object = decodeMessage(root, unknown.find((f) => f.number === 2)?.bytes ?? Buffer.alloc(0));
  return { apiVersion, kind, ...object } as KubeObject;
}
