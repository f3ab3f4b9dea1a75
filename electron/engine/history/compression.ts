/**
 * Compression of the object-state log: zstd at level 1 where the runtime has it (Node >= 22.15,
 * so every supported Node and Electron): about twice as fast as deflate at level 1 on object
 * JSON and ~40% smaller. Deflate remains the fallback. Each blob starts with one byte naming its
 * codec and the text's length, so a database written by either reads back under both and the
 * text comes out in one buffer.
 *
 * Compressing runs on libuv's thread pool (the async API); only closing a session compresses on
 * the calling thread. Decompression is synchronous (queries), with output chunks sized to the
 * expected text so a large blob is not assembled from thousands of 16 KB pieces.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Codec bytes. 2 and 3 are followed by the text's length (u32 LE), so it decompresses in one piece. */
const ZSTD = 1;
const DEFLATE = 0;
const ZSTD_SIZED = 2;
const DEFLATE_SIZED = 3;
const HEADER_BYTES = 5;

type Compress = (input: Uint8Array, options: object, callback: (error: Error | null, result: Buffer) => void) => void;
type CompressSync = (input: Uint8Array, options?: object) => Buffer;

const zstd = zlib as unknown as { zstdCompress?: Compress; zstdCompressSync?: CompressSync; zstdDecompressSync?: CompressSync; constants: Record<string, number> };
const hasZstd = typeof zstd.zstdCompress === 'function' && typeof zstd.zstdDecompressSync === 'function';
const zstdLevel = zstd.constants['ZSTD_c_compressionLevel'];
const ZSTD_OPTIONS = zstdLevel === undefined ? {} : { params: { [zstdLevel]: 1 } };
const DEFLATE_OPTIONS = { level: 1 };

const zstdAsync = hasZstd ? promisify(zstd.zstdCompress as Compress) : undefined;
const deflateAsync = promisify(zlib.deflateRaw);

function framed(codec: number, length: number, body: Buffer): Uint8Array {
  const out = new Uint8Array(body.length + HEADER_BYTES);
  out[0] = codec;
  new DataView(out.buffer).setUint32(1, length, true);
  out.set(body, HEADER_BYTES);
  return out;
}

export function compress(text: string): Promise<Uint8Array> {
  return compressBytes(Buffer.from(text, 'utf8'));
}

/** `compress` of a text already encoded as UTF-8 (state-log.ts writes a batch's lines straight into bytes). */
export async function compressBytes(input: Buffer): Promise<Uint8Array> {
  return zstdAsync ? framed(ZSTD_SIZED, input.length, await zstdAsync(input, ZSTD_OPTIONS)) : framed(DEFLATE_SIZED, input.length, await deflateAsync(input, DEFLATE_OPTIONS));
}

export function compressSync(text: string): Uint8Array {
  const input = Buffer.from(text, 'utf8');
  return hasZstd
    ? framed(ZSTD_SIZED, input.length, (zstd.zstdCompressSync as CompressSync)(input, ZSTD_OPTIONS))
    : framed(DEFLATE_SIZED, input.length, zlib.deflateRawSync(input, DEFLATE_OPTIONS));
}

export function decompress(data: Uint8Array): Buffer {
  const codec = data[0];
  const sized = codec === ZSTD_SIZED || codec === DEFLATE_SIZED;
  const body = data.subarray(sized ? HEADER_BYTES : 1);
  // The whole text in one output chunk when its length is known (no pieces to concatenate);
  // otherwise chunks of about its expected size (object JSON compresses 5-20x).
  const length = sized ? new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(1, true) : 0;
  const chunkSize = sized ? Math.max(64, length + 1) : Math.min(4 << 20, Math.max(64 << 10, body.length * 8));
  if (codec === ZSTD || codec === ZSTD_SIZED) {
    if (!hasZstd) throw new Error('this history was compressed with zstd, which this runtime lacks');
    return (zstd.zstdDecompressSync as CompressSync)(body, { chunkSize });
  }
  if (codec === DEFLATE || codec === DEFLATE_SIZED) return zlib.inflateRawSync(body, { chunkSize });
  throw new Error(`unknown compression codec ${codec} in the history database`);
}
