/**
 * The compact encoding of a workload's samples: blocks of up to BLOCK_CAPACITY samples, one
 * database row each. A day of 1-second samples for 1,000 workloads is 86.4 million samples; as
 * rows they would need gigabytes and a B-tree the range query walks row by row. As blocks, one
 * workload's day is ~340 rows of a few hundred bytes, read with one index range scan and decoded
 * column-wise in a few milliseconds.
 *
 * A sample is: varint(ms since the previous sample; the first is the block's start) +
 * varint(bitmask of the fields that differ from the previous sample) + the changed fields.
 * Counts are zigzag varints + 1 (0 = null), condition statuses one byte (0 null, 1 True,
 * 2 False, 3 Unknown), the Progressing reason varint(byte length + 1) + UTF-8 (0 = null), and
 * a custom resource's state one byte (0 null, else its index in OBJECT_STATES + 1). Bit 11 (the
 * state) came with custom resources; blocks written before never set it, so they read as before.
 * A heartbeat (nothing changed) costs 3 bytes.
 */
import type { Sample } from '../../../shared/contracts/history.ts';
import { OBJECT_STATES, type ObjectState } from '../../../shared/contracts/status-rules.ts';

/** The count fields, in encoding order (bits 0..7 of the mask); the same names as SERIES_NAMES. */
export const COUNT_FIELDS = ['desired', 'current', 'ready', 'available', 'updated', 'unavailable', 'generation', 'observedGeneration'] as const;
export type CountField = (typeof COUNT_FIELDS)[number];
const AVAILABLE_BIT = 1 << 8;
const PROGRESSING_BIT = 1 << 9;
const REASON_BIT = 1 << 10;
const STATE_BIT = 1 << 11;

/** A block is sealed (a new one begins) at this many samples. */
export const BLOCK_CAPACITY = 256;

/** A sample without its time. */
export type SampleValues = Omit<Sample, 'at'>;
type ConditionValue = Sample['availableCondition'];

const CONDITIONS: readonly ConditionValue[] = [null, 'True', 'False', 'Unknown'];
const conditionCode = (value: ConditionValue): number => CONDITIONS.indexOf(value);
const stateCode = (state: ObjectState | null | undefined): number => (state ? OBJECT_STATES.indexOf(state) + 1 : 0);
/** A built-in kind's sample has no `state` at all: read both as null. */
const stateOf = (values: SampleValues): ObjectState | null => values.state ?? null;

export const EMPTY_VALUES: SampleValues = {
  desired: null,
  current: null,
  ready: null,
  available: null,
  updated: null,
  unavailable: null,
  generation: null,
  observedGeneration: null,
  availableCondition: null,
  progressingCondition: null,
  progressingReason: null,
};

/** True when every field is null: the tombstone written when a workload is deleted. */
export function isEmpty(values: SampleValues): boolean {
  return (Object.keys(EMPTY_VALUES) as Array<keyof SampleValues>).every((field) => values[field] === null);
}

/** Bitmask of the fields where `a` and `b` differ. */
export function changedMask(a: SampleValues, b: SampleValues): number {
  let mask = 0;
  for (let i = 0; i < COUNT_FIELDS.length; i += 1) {
    const field = COUNT_FIELDS[i] as CountField;
    if (a[field] !== b[field]) mask |= 1 << i;
  }
  if (a.availableCondition !== b.availableCondition) mask |= AVAILABLE_BIT;
  if (a.progressingCondition !== b.progressingCondition) mask |= PROGRESSING_BIT;
  if (a.progressingReason !== b.progressingReason) mask |= REASON_BIT;
  if (stateOf(a) !== stateOf(b)) mask |= STATE_BIT;
  return mask;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An open block being appended to. */
export interface BlockWriter {
  start: number;
  last: number;
  count: number;
  previous: SampleValues;
  bytes: Uint8Array;
  length: number;
}

export function newBlock(start: number): BlockWriter {
  return { start, last: start, count: 0, previous: EMPTY_VALUES, bytes: new Uint8Array(256), length: 0 };
}

function ensure(block: BlockWriter, extra: number): void {
  if (block.length + extra <= block.bytes.length) return;
  const grown = new Uint8Array(Math.max(block.bytes.length * 2, block.length + extra));
  grown.set(block.bytes.subarray(0, block.length));
  block.bytes = grown;
}

function writeVarint(block: BlockWriter, value: number): void {
  let v = value;
  while (v >= 0x80) {
    block.bytes[block.length++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  block.bytes[block.length++] = v;
}

const zigzag = (n: number): number => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/** Appends one sample (its time must not be before the block's last). */
export function appendSample(block: BlockWriter, at: number, values: SampleValues): void {
  const mask = block.previous === values ? 0 : changedMask(block.previous, values);
  const reason = mask & REASON_BIT && values.progressingReason !== null ? encoder.encode(values.progressingReason) : null;
  ensure(block, 21 + COUNT_FIELDS.length * 10 + (reason ? reason.length + 5 : 0));
  writeVarint(block, Math.max(0, at - block.last));
  writeVarint(block, mask);
  for (let i = 0; i < COUNT_FIELDS.length; i += 1) {
    if ((mask & (1 << i)) === 0) continue;
    const value = values[COUNT_FIELDS[i] as CountField];
    writeVarint(block, value === null ? 0 : zigzag(value) + 1);
  }
  if (mask & AVAILABLE_BIT) block.bytes[block.length++] = conditionCode(values.availableCondition);
  if (mask & PROGRESSING_BIT) block.bytes[block.length++] = conditionCode(values.progressingCondition);
  if (mask & REASON_BIT) {
    writeVarint(block, reason ? reason.length + 1 : 0);
    if (reason) {
      block.bytes.set(reason, block.length);
      block.length += reason.length;
    }
  }
  if (mask & STATE_BIT) block.bytes[block.length++] = stateCode(values.state);
  block.last = Math.max(block.last, at);
  block.count += 1;
  block.previous = values;
}

/** The encoded bytes of a block (a view; copy before the block is appended to again). */
export function blockBytes(block: BlockWriter): Uint8Array {
  return block.bytes.subarray(0, block.length);
}

/**
 * Samples decoded column by column: times, each count field as a Float64Array (NaN = null), the
 * condition codes and the reasons.
 */
export interface SampleColumns {
  length: number;
  at: Float64Array;
  counts: Record<CountField, Float64Array>;
  availableCondition: Uint8Array;
  progressingCondition: Uint8Array;
  progressingReason: Array<string | null>;
  /** State codes (see the file comment; 0 = none). */
  state: Uint8Array;
}

export function allocateColumns(length: number): SampleColumns {
  const counts = {} as Record<CountField, Float64Array>;
  for (const field of COUNT_FIELDS) counts[field] = new Float64Array(length);
  return { length, at: new Float64Array(length), counts, availableCondition: new Uint8Array(length), progressingCondition: new Uint8Array(length), progressingReason: new Array<string | null>(length).fill(null), state: new Uint8Array(length) };
}

/** Reads a varint at `state.pos` (advancing it). */
function readVarint(data: Uint8Array, state: { pos: number }): number {
  let byte = data[state.pos++] as number;
  if (byte < 0x80) return byte;
  let result = byte & 0x7f;
  let scale = 0x80;
  for (;;) {
    byte = data[state.pos++] as number;
    result += (byte & 0x7f) * scale;
    if (byte < 0x80) return result;
    scale *= 0x80;
  }
}

/**
 * Decodes a block starting at `start` into `columns` from index `offset`; returns how many
 * samples it held. The query path: no per-sample allocation, one typed array per field.
 */
export function decodeInto(start: number, data: Uint8Array, columns: SampleColumns, offset = 0): number {
  const targets = COUNT_FIELDS.map((field) => columns.counts[field]);
  const current = new Float64Array(8).fill(NaN);
  const state = { pos: 0 };
  let available = 0;
  let progressing = 0;
  let reason: string | null = null;
  let objectState = 0;
  let at = start;
  let index = offset;
  while (state.pos < data.length) {
    at += readVarint(data, state);
    const mask = readVarint(data, state);
    if (mask !== 0) {
      for (let i = 0; i < 8; i += 1) {
        if ((mask & (1 << i)) === 0) continue;
        const raw = readVarint(data, state);
        current[i] = raw === 0 ? NaN : unzigzag(raw - 1);
      }
      if (mask & AVAILABLE_BIT) available = data[state.pos++] as number;
      if (mask & PROGRESSING_BIT) progressing = data[state.pos++] as number;
      if (mask & REASON_BIT) {
        const length = readVarint(data, state);
        reason = length === 0 ? null : decoder.decode(data.subarray(state.pos, state.pos + length - 1));
        state.pos += Math.max(0, length - 1);
      }
      if (mask & STATE_BIT) objectState = data[state.pos++] as number;
    }
    columns.at[index] = at;
    for (let i = 0; i < 8; i += 1) (targets[i] as Float64Array)[index] = current[i] as number;
    columns.availableCondition[index] = available;
    columns.progressingCondition[index] = progressing;
    columns.progressingReason[index] = reason;
    columns.state[index] = objectState;
    index += 1;
  }
  return index - offset;
}

/** A stored block of `count` samples as an open block the writer can append to. */
export function resumeBlock(start: number, data: Uint8Array, count: number): BlockWriter {
  const columns = allocateColumns(count);
  const decoded = decodeInto(start, data, columns);
  const bytes = new Uint8Array(Math.max(256, data.length * 2));
  bytes.set(data);
  if (decoded === 0) return { ...newBlock(start), bytes };
  const last = sampleAt(columns, decoded - 1);
  const { at, ...previous } = last;
  return { start, last: at, count: decoded, previous, bytes, length: data.length };
}

function valuesFrom(counts: number[], available: number, progressing: number, reason: string | null): SampleValues {
  const out = { ...EMPTY_VALUES };
  COUNT_FIELDS.forEach((field, i) => {
    const value = counts[i] as number;
    out[field] = Number.isNaN(value) ? null : value;
  });
  out.availableCondition = CONDITIONS[available] ?? null;
  out.progressingCondition = CONDITIONS[progressing] ?? null;
  out.progressingReason = reason;
  return out;
}

/** The sample at `index` of decoded columns. */
export function sampleAt(columns: SampleColumns, index: number): Sample {
  const counts = COUNT_FIELDS.map((field) => (columns.counts[field] as Float64Array)[index] as number);
  const values = valuesFrom(counts, columns.availableCondition[index] ?? 0, columns.progressingCondition[index] ?? 0, columns.progressingReason[index] ?? null);
  // Only a custom resource's samples carry a state; a built-in kind's stay as they always were.
  const state = OBJECT_STATES[(columns.state[index] ?? 0) - 1];
  return state ? { at: columns.at[index] as number, ...values, state } : { at: columns.at[index] as number, ...values };
}
