/**
 * Pure writers for the two icon container formats electron-builder wants:
 * macOS `.icns` and Windows `.ico`. Both simply wrap PNG payloads, so no image
 * codec is needed — we only have to get the headers right.
 *
 * Kept free of I/O so they can be unit tested on synthetic buffers; the
 * generator (`icons.ts`) does the rendering and file writing.
 */

/** The 8-byte signature every PNG file starts with. */
export const PNG_SIGNATURE: readonly number[] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Pixel dimensions of an image. */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Reads width/height from a PNG's IHDR chunk.
 *
 * IHDR is required to be the first chunk, so its fields sit at fixed offsets:
 * signature (8) + chunk length (4) + "IHDR" (4) → width at 16, height at 20.
 *
 * @throws if the buffer is not a PNG or the first chunk is not IHDR.
 */
export function readPngSize(png: Uint8Array): ImageSize {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 24 || !PNG_SIGNATURE.every((byte, i) => buf[i] === byte)) {
    throw new Error('not a PNG: bad signature');
  }
  if (buf.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG: first chunk is not IHDR');
  }
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/**
 * The ICNS element types that carry PNG data, with the pixel size each one
 * must contain. The "@2x" types (ic11–ic14) are Retina variants of a smaller
 * point size, which is why e.g. ic11 holds a 32px image for the 16pt slot.
 */
export const ICNS_PNG_TYPES: Readonly<Record<string, number>> = {
  ic07: 128,
  ic08: 256,
  ic09: 512,
  ic10: 1024,
  ic11: 32,
  ic12: 64,
  ic13: 256,
  ic14: 512,
};

/** One element of an ICNS file: a 4-character type code and its PNG payload. */
export interface IcnsEntry {
  type: string;
  png: Uint8Array;
}

/**
 * Builds an Apple Icon Image (`.icns`) file.
 *
 * Layout (all integers big-endian): `"icns"` + u32 total file length, then
 * for each element: 4-char type + u32 element length (including this 8-byte
 * header) + payload. Modern macOS accepts raw PNG payloads for the ic07+
 * types, so no legacy RGB/mask encoding is required.
 *
 * @param entries Elements in the order they should appear.
 * @throws if a type is not a known PNG type or the PNG has the wrong size —
 *   a mislabelled element makes Finder pick a blurry or missing icon silently.
 */
export function writeIcns(entries: readonly IcnsEntry[]): Buffer {
  const chunks: Buffer[] = [];
  for (const { type, png } of entries) {
    const expected = ICNS_PNG_TYPES[type];
    if (expected === undefined) throw new Error(`unsupported ICNS type: ${JSON.stringify(type)}`);
    const { width, height } = readPngSize(png);
    if (width !== expected || height !== expected) {
      throw new Error(`ICNS ${type} needs ${expected}x${expected}, got ${width}x${height}`);
    }
    const header = Buffer.alloc(8);
    header.write(type, 0, 'latin1');
    header.writeUInt32BE(8 + png.byteLength, 4);
    chunks.push(header, Buffer.from(png));
  }
  const body = Buffer.concat(chunks);
  const fileHeader = Buffer.alloc(8);
  fileHeader.write('icns', 0, 'latin1');
  fileHeader.writeUInt32BE(8 + body.length, 4);
  return Buffer.concat([fileHeader, body]);
}

/** Byte sizes of the fixed ICO structures. */
const ICO_HEADER_SIZE = 6;
const ICO_DIR_ENTRY_SIZE = 16;

/**
 * Builds a Windows icon (`.ico`) file with PNG-compressed images (supported
 * since Windows Vista; required in practice for the 256px entry).
 *
 * Layout (all integers little-endian): ICONDIR { u16 reserved=0, u16 type=1,
 * u16 count }, then `count` ICONDIRENTRY { u8 width, u8 height, u8 colours=0,
 * u8 reserved=0, u16 planes=1, u16 bitCount=32, u32 bytes, u32 offset },
 * then the image data. Width/height are single bytes, so 256 is stored as 0.
 *
 * @param pngs Images, conventionally smallest first; sizes are read from each
 *   PNG's IHDR.
 * @throws if an image is not square or is larger than 256px (unrepresentable).
 */
export function writeIco(pngs: readonly Uint8Array[]): Buffer {
  if (pngs.length === 0 || pngs.length > 0xffff) throw new Error('ICO needs 1..65535 images');
  const header = Buffer.alloc(ICO_HEADER_SIZE);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon (2 would be cursor)
  header.writeUInt16LE(pngs.length, 4);

  const directory = Buffer.alloc(ICO_DIR_ENTRY_SIZE * pngs.length);
  let offset = ICO_HEADER_SIZE + directory.length;
  pngs.forEach((png, i) => {
    const { width, height } = readPngSize(png);
    if (width !== height) throw new Error(`ICO image ${i} is not square: ${width}x${height}`);
    if (width < 1 || width > 256) throw new Error(`ICO image ${i} is ${width}px; must be 1..256`);
    const at = i * ICO_DIR_ENTRY_SIZE;
    directory.writeUInt8(width & 0xff, at); // 256 & 0xff === 0, which ICO defines as 256
    directory.writeUInt8(height & 0xff, at + 1);
    directory.writeUInt8(0, at + 2); // no palette
    directory.writeUInt8(0, at + 3);
    directory.writeUInt16LE(1, at + 4); // colour planes
    directory.writeUInt16LE(32, at + 6); // bits per pixel (RGBA)
    directory.writeUInt32LE(png.byteLength, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += png.byteLength;
  });

  return Buffer.concat([header, directory, ...pngs.map((png) => Buffer.from(png))]);
}
