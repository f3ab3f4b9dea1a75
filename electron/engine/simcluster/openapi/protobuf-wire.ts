/**
 * A minimal protocol buffers wire-format writer: varints and length-delimited fields, all the
 * gnostic OpenAPI v2 document needs. Fields at their proto3 default (empty string, false) are
 * left out, as a proto3 encoder does.
 */

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH_DELIMITED = 2;
const encoder = new TextEncoder();

function varintBytes(value: number): number[] {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint out of range: ${value}`);
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return out;
}

/** Collects one message's fields; `finish()` gives its bytes (without a length prefix). */
export class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  private header(field: number, wireType: number, length?: number): void {
    const bytes = varintBytes(field * 8 + wireType);
    if (length !== undefined) bytes.push(...varintBytes(length));
    this.push(Uint8Array.from(bytes));
  }

  /** A `string` field; empty or absent values are not written. */
  string(field: number, value: string | undefined): this {
    if (!value) return this;
    const bytes = encoder.encode(value);
    this.header(field, WIRE_LENGTH_DELIMITED, bytes.length);
    this.push(bytes);
    return this;
  }

  /** A `repeated string` field, one record per element (proto3 never packs strings). */
  strings(field: number, values: readonly string[] | undefined): this {
    for (const value of values ?? []) {
      const bytes = encoder.encode(value);
      this.header(field, WIRE_LENGTH_DELIMITED, bytes.length);
      this.push(bytes);
    }
    return this;
  }

  /** A `bool` field; false is the default and is not written. */
  bool(field: number, value: boolean | undefined): this {
    if (value) {
      this.header(field, WIRE_VARINT);
      this.push(Uint8Array.of(1));
    }
    return this;
  }

  /** An `int64` field holding a count or length (never negative); 0 and absent are not written. */
  int64(field: number, value: number | undefined): this {
    if (!value) return this;
    this.header(field, WIRE_VARINT);
    this.push(Uint8Array.from(varintBytes(value)));
    return this;
  }

  /** A `double` field (little-endian fixed64); 0 and absent are not written, as proto3 does. */
  double(field: number, value: number | undefined): this {
    if (!value) return this;
    this.header(field, WIRE_FIXED64);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    this.push(bytes);
    return this;
  }

  /** An embedded message, written even when empty so that its presence is kept. */
  message(field: number, body: ProtoWriter | Uint8Array): this {
    const bytes = body instanceof ProtoWriter ? body.finish() : body;
    this.header(field, WIRE_LENGTH_DELIMITED, bytes.length);
    this.push(bytes);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}
