import { deflateRawSync, zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, compressSync, decompress } from '../../../../electron/engine/history/compression.ts';
import type { DeltaRecord } from '../../../../electron/engine/history/records.ts';
import { decodeDeltas, decodeHeaders, encodeDeltas, encodeDeltasSync, lineText } from '../../../../electron/engine/history/state-log.ts';
import { pod } from './fixtures.ts';

function deltas(count: number): DeltaRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const object = pod(`p${i}`, `u${i}`, 'rs');
    // Newlines and separators inside values must not split an object's line.
    object.metadata.annotations = { note: `line one\nline two ${i}`, sep: '\\n' };
    return i % 5 === 4 ? { at: 1_000 + i, op: 'd', kind: 'Pod', uid: `u${i}`, object: null } : { at: 1_000 + i, op: 'u', kind: 'Pod', uid: `u${i}`, object };
  });
}

describe('the object change log encoding', () => {
  it('stores each change with its object on its own line, sliced or not, the same text', async () => {
    const changes = deltas(4_500);
    const sliced = await encodeDeltas(changes);
    const whole = decodeDeltas(encodeDeltasSync(changes).data);
    const { headers, lines } = decodeDeltas(sliced.data);
    expect(decodeHeaders(sliced.headers)).toEqual(headers);
    expect(lines.buffer.equals(whole.lines.buffer)).toBe(true);
    expect(headers).toHaveLength(4_500);
    expect(headers[3]).toEqual([1_003, 'u', 'Pod', 'u3']);
    expect(JSON.parse(lineText(lines, 3))).toEqual(changes[3]?.object);
    expect(lineText(lines, 4)).toBe('');
    expect(JSON.parse(lineText(lines, 4_498)).metadata.annotations.note).toBe('line one\nline two 4498');
  });

  it('writes text beyond ASCII byte for byte as the whole batch joined would be, a deletion last', async () => {
    const changes = deltas(10);
    const named = changes[0]?.object;
    if (named) named.metadata.annotations = { note: 'café ☃ 𝄞 \u2028' };
    changes[1] = { ...(changes[1] as DeltaRecord), json: JSON.stringify({ kind: 'Pod', note: 'naïve — 東京' }) };
    const { lines } = decodeDeltas((await encodeDeltas(changes)).data);
    expect(lines.buffer.equals(decodeDeltas(encodeDeltasSync(changes).data).lines.buffer)).toBe(true);
    expect(JSON.parse(lineText(lines, 0)).metadata.annotations.note).toBe('café ☃ 𝄞 \u2028');
    expect(lineText(lines, 1)).toBe('{"kind":"Pod","note":"naïve — 東京"}');
    expect(lineText(lines, 9)).toBe('');
  });

  it('stores the JSON the informer already made instead of serialising the object again', async () => {
    const [change] = deltas(1);
    // Same object, keys in another order: only reuse (not a fresh stringify) yields this text.
    const known = JSON.stringify({ metadata: change?.object?.metadata, kind: 'Pod', apiVersion: 'v1' });
    const { lines } = decodeDeltas((await encodeDeltas([{ ...(change as DeltaRecord), json: known }])).data);
    expect(lineText(lines, 0)).toBe(known);
  });
});

describe('compression', () => {
  it('round-trips with the length up front, and still reads blobs without it', async () => {
    const text = JSON.stringify(deltas(50).map((d) => d.object));
    expect((await compress(text))[0]).toBe(2);
    expect(decompress(await compress(text)).toString('utf8')).toBe(text);
    expect(decompress(compressSync(text)).toString('utf8')).toBe(text);
    // Blobs written before the length was stored: codec byte, then the body.
    const legacyZstd = Buffer.concat([Buffer.from([1]), zstdCompressSync(Buffer.from(text))]);
    const legacyDeflate = Buffer.concat([Buffer.from([0]), deflateRawSync(Buffer.from(text))]);
    expect(decompress(legacyZstd).toString('utf8')).toBe(text);
    expect(decompress(legacyDeflate).toString('utf8')).toBe(text);
    expect(() => decompress(Buffer.from([9, 1, 2, 3]))).toThrow(/unknown compression codec 9/);
  });
});
