/**
 * Test-only readers for PNG, ICO and ICNS, written independently of
 * electron/tools/icon-containers.ts so the writers are not verified against
 * their own assumptions. They are strict: any structural surprise throws.
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Header fields of a PNG that the icon pipeline relies on. */
export interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
}

/** Splits a PNG into its chunks, checking the signature and every CRC. */
function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('bad PNG signature');
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== png.readUInt32BE(at + 8 + length)) {
      throw new Error(`bad CRC in ${type}`);
    }
    chunks.push({ type, data });
    at += 12 + length;
  }
  if (chunks[0]?.type !== 'IHDR' || chunks.at(-1)?.type !== 'IEND') throw new Error('PNG must start with IHDR and end with IEND');
  return chunks;
}

/** Parses a PNG's IHDR (after validating the whole chunk stream). */
export function pngInfo(png: Buffer): PngInfo {
  const ihdr = pngChunks(png)[0]!.data;
  return {
    width: ihdr.readUInt32BE(0),
    height: ihdr.readUInt32BE(4),
    bitDepth: ihdr.readUInt8(8),
    colorType: ihdr.readUInt8(9),
    interlace: ihdr.readUInt8(12),
  };
}

/**
 * Decodes an 8-bit RGBA non-interlaced PNG (what Chromium screenshots are)
 * and returns the alpha channel of pixel (x, y). Enough to prove the
 * background really is transparent without pulling in an image library.
 */
export function pngAlphaAt(png: Buffer, x: number, y: number): number {
  const info = pngInfo(png);
  if (info.bitDepth !== 8 || info.colorType !== 6 || info.interlace !== 0) throw new Error('expected 8-bit RGBA, non-interlaced');
  const raw = inflateSync(Buffer.concat(pngChunks(png).filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = info.width * 4;
  let prev = Buffer.alloc(stride);
  let row = prev;
  for (let r = 0; r <= y; r++) {
    const filter = raw[r * (stride + 1)];
    row = Buffer.from(raw.subarray(r * (stride + 1) + 1, (r + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= 4 ? row[i - 4]! : 0;
      const b = prev[i]!;
      const c = i >= 4 ? prev[i - 4]! : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter!];
      if (predictor === undefined) throw new Error(`bad filter ${filter}`);
      row[i] = (row[i]! + predictor) & 0xff;
    }
    prev = row;
  }
  return row[x * 4 + 3]!;
}

/** Builds a valid, fully transparent RGBA PNG of the given size (for writer tests). */
export function syntheticPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit, RGBA, deflate, adaptive filter, no interlace
  const pixels = deflateSync(Buffer.alloc(height * (1 + width * 4)));
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** One image in an ICO directory, as stored (width/height 0 mean 256). */
export interface IcoEntry {
  width: number;
  height: number;
  planes: number;
  bitCount: number;
  png: Buffer;
}

/** Parses an ICO file, requiring the image data to tile the file exactly after the directory. */
export function parseIco(ico: Buffer): IcoEntry[] {
  if (ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) throw new Error('not an ICO (reserved/type)');
  const count = ico.readUInt16LE(4);
  const entries: IcoEntry[] = [];
  let expectedOffset = 6 + 16 * count;
  for (let i = 0; i < count; i++) {
    const at = 6 + 16 * i;
    const bytes = ico.readUInt32LE(at + 8);
    const offset = ico.readUInt32LE(at + 12);
    if (offset !== expectedOffset) throw new Error(`entry ${i} at ${offset}, expected ${expectedOffset}`);
    if (ico.readUInt8(at + 2) !== 0 || ico.readUInt8(at + 3) !== 0) throw new Error(`entry ${i} palette/reserved not 0`);
    entries.push({
      width: ico.readUInt8(at) || 256,
      height: ico.readUInt8(at + 1) || 256,
      planes: ico.readUInt16LE(at + 4),
      bitCount: ico.readUInt16LE(at + 6),
      png: ico.subarray(offset, offset + bytes),
    });
    expectedOffset += bytes;
  }
  if (expectedOffset !== ico.length) throw new Error(`ICO has ${ico.length - expectedOffset} stray bytes`);
  return entries;
}

/** Parses an ICNS file into [type, payload] pairs, requiring chunks to tile the file exactly. */
export function parseIcns(icns: Buffer): { declaredLength: number; chunks: [string, Buffer][] } {
  if (icns.toString('latin1', 0, 4) !== 'icns') throw new Error('not an ICNS (magic)');
  const declaredLength = icns.readUInt32BE(4);
  const chunks: [string, Buffer][] = [];
  let at = 8;
  while (at < icns.length) {
    const length = icns.readUInt32BE(at + 4);
    if (length < 8 || at + length > icns.length) throw new Error(`chunk at ${at} has bad length ${length}`);
    chunks.push([icns.toString('latin1', at, at + 4), icns.subarray(at + 8, at + length)]);
    at += length;
  }
  return { declaredLength, chunks };
}
