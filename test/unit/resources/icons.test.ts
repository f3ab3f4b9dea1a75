import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICNS_PNG_TYPES, readPngSize, writeIco, writeIcns } from '../../../electron/tools/icon-containers.ts';
import { parseIcns, parseIco, pngAlphaAt, pngInfo, syntheticPng } from './readers.ts';

const RESOURCES = join(import.meta.dirname, '..', '..', '..', 'resources');
const read = (...parts: string[]): Buffer => readFileSync(join(RESOURCES, ...parts));

const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** Spelled out here (not imported) so a change to the writer's table is caught. */
const ICNS_SIZES: Record<string, number> = { ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512 };

describe('generated raster icons in resources/', () => {
  it.each(LINUX_SIZES)('icons/%ix%i.png is a valid RGBA PNG of that size', (size) => {
    const info = pngInfo(read('icons', `${size}x${size}.png`));
    expect(info).toMatchObject({ width: size, height: size, bitDepth: 8, colorType: 6 });
  });

  it('icons/ holds only NxN.png files, N matching the image', () => {
    for (const name of readdirSync(join(RESOURCES, 'icons'))) {
      const match = /^(\d+)x(\d+)\.png$/.exec(name);
      expect(match, name).not.toBeNull();
      const { width, height } = pngInfo(read('icons', name));
      expect([width, height]).toEqual([Number(match![1]), Number(match![2])]);
    }
  });

  it('icon.png is the 1024px master and identical to icons/1024x1024.png', () => {
    expect(pngInfo(read('icon.png'))).toMatchObject({ width: 1024, height: 1024 });
    expect(read('icon.png').equals(read('icons', '1024x1024.png'))).toBe(true);
  });

  // Guards the omitBackground rendering: a lost alpha channel shows up as
  // white squares behind the rounded tile in docks and taskbars.
  it.each([16, 256, 1024])('%ipx icon has transparent corners and an opaque centre', (size) => {
    const png = read('icons', `${size}x${size}.png`);
    expect(pngAlphaAt(png, 0, 0)).toBe(0);
    expect(pngAlphaAt(png, size - 1, size - 1)).toBe(0);
    expect(pngAlphaAt(png, size / 2, size / 2)).toBe(255);
  });
});

describe('resources/icon.ico', () => {
  const entries = parseIco(read('icon.ico'));

  it('lists the Windows sizes smallest first, 32bpp, one plane', () => {
    expect(entries.map((e) => e.width)).toEqual(ICO_SIZES);
    for (const e of entries) expect([e.planes, e.bitCount]).toEqual([1, 32]);
  });

  it('embeds PNGs whose size matches each directory entry', () => {
    for (const e of entries) {
      const info = pngInfo(e.png);
      expect([info.width, info.height]).toEqual([e.width, e.height]);
    }
  });

  it('stores 256px as a 0 byte in the directory', () => {
    const ico = read('icon.ico');
    const last = 6 + 16 * (entries.length - 1);
    expect([ico[last], ico[last + 1]]).toEqual([0, 0]);
  });
});

describe('resources/icon.icns', () => {
  const icns = read('icon.icns');
  const { declaredLength, chunks } = parseIcns(icns);

  it('declares its own total length', () => {
    expect(declaredLength).toBe(icns.length);
  });

  it('has every PNG chunk type exactly once', () => {
    expect(chunks.map(([type]) => type).sort()).toEqual(Object.keys(ICNS_SIZES).sort());
  });

  it('carries a PNG of the right size in each chunk', () => {
    for (const [type, payload] of chunks) {
      const { width, height } = pngInfo(payload);
      expect([type, width, height]).toEqual([type, ICNS_SIZES[type], ICNS_SIZES[type]]);
    }
  });
});

describe('icon-containers: readPngSize', () => {
  it('reads IHDR width and height', () => {
    expect(readPngSize(syntheticPng(3, 5))).toEqual({ width: 3, height: 5 });
  });

  it('works on a Uint8Array view into a larger buffer', () => {
    const png = syntheticPng(7, 7);
    const backing = Buffer.concat([Buffer.alloc(11), png]);
    expect(readPngSize(new Uint8Array(backing.buffer, backing.byteOffset + 11, png.length))).toEqual({ width: 7, height: 7 });
  });

  it('rejects non-PNG data and a missing IHDR', () => {
    expect(() => readPngSize(Buffer.from('GIF89a this is not a png at all'))).toThrow(/signature/);
    const broken = syntheticPng(4, 4);
    broken.write('IDAT', 12, 'latin1');
    expect(() => readPngSize(broken)).toThrow(/IHDR/);
  });
});

describe('icon-containers: writeIcns', () => {
  it('writes header, chunk headers and verbatim payloads', () => {
    const small = syntheticPng(32, 32);
    const big = syntheticPng(128, 128);
    const out = writeIcns([
      { type: 'ic11', png: small },
      { type: 'ic07', png: big },
    ]);
    expect(out.toString('latin1', 0, 4)).toBe('icns');
    expect(out.readUInt32BE(4)).toBe(out.length);
    expect(out.length).toBe(8 + 8 + small.length + 8 + big.length);
    const { chunks } = parseIcns(out);
    expect(chunks.map(([type]) => type)).toEqual(['ic11', 'ic07']);
    expect(chunks[0]![1].equals(small)).toBe(true);
    expect(chunks[1]![1].equals(big)).toBe(true);
    expect(out.readUInt32BE(12)).toBe(8 + small.length);
  });

  it('writes an empty but valid container for no entries', () => {
    expect([...writeIcns([])]).toEqual([...Buffer.from('icns'), 0, 0, 0, 8]);
  });

  it('knows the @2x types hold double-size images', () => {
    expect(ICNS_PNG_TYPES).toEqual(ICNS_SIZES);
  });

  it('rejects unknown types and mis-sized images', () => {
    expect(() => writeIcns([{ type: 'it32', png: syntheticPng(128, 128) }])).toThrow(/unsupported/);
    expect(() => writeIcns([{ type: 'ic11', png: syntheticPng(16, 16) }])).toThrow(/32x32/);
  });
});

describe('icon-containers: writeIco', () => {
  it('writes header, directory and contiguous verbatim payloads', () => {
    const pngs = [syntheticPng(16, 16), syntheticPng(48, 48)];
    const out = writeIco(pngs);
    expect([out.readUInt16LE(0), out.readUInt16LE(2), out.readUInt16LE(4)]).toEqual([0, 1, 2]);
    const entries = parseIco(out);
    expect(entries.map((e) => [e.width, e.height, e.planes, e.bitCount])).toEqual([
      [16, 16, 1, 32],
      [48, 48, 1, 32],
    ]);
    expect(out.readUInt32LE(6 + 12)).toBe(6 + 2 * 16);
    entries.forEach((e, i) => expect(e.png.equals(pngs[i]!)).toBe(true));
  });

  it('encodes 256px as width/height byte 0', () => {
    const out = writeIco([syntheticPng(256, 256)]);
    expect([out[6], out[7]]).toEqual([0, 0]);
    expect(parseIco(out)[0]).toMatchObject({ width: 256, height: 256 });
  });

  it('rejects empty input, non-square and oversized images', () => {
    expect(() => writeIco([])).toThrow(/1\.\.65535/);
    expect(() => writeIco([syntheticPng(16, 32)])).toThrow(/not square/);
    expect(() => writeIco([syntheticPng(512, 512)])).toThrow(/1\.\.256/);
  });
});
