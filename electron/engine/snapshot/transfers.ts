/**
 * Bytes that cross the contract in pieces: finished exports the browser shell (or the command
 * line) downloads with `snapshot:download`, and snapshot files the browser uploads with
 * `snapshot:upload`. Pieces keep every message small on both transports, and nothing needs an
 * extra HTTP route: the contract's token-checked socket carries them like any request. An
 * export is forgotten once its last piece was read or after a while unread; an upload after a
 * while without a new piece.
 */
import { randomUUID } from 'node:crypto';
import { TRANSFER_CHUNK_BYTES, UPLOAD_CHUNK_BYTES, type DownloadChunk } from '../../../shared/contracts/snapshot.ts';

/** How long an export or a stalled upload is kept. */
export const TRANSFER_TTL_MS = 10 * 60 * 1000;
/** Largest snapshot file accepted by upload. */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

interface Held {
  bytes: Buffer;
  fileName: string;
  mimeType: string;
  expires: number;
}

interface Upload {
  parts: Buffer[];
  received: number;
  expires: number;
}

export class TransferError extends Error {
  override name = 'TransferError';
}

export interface Transfers {
  hold(bytes: Buffer, fileName: string, mimeType: string, id?: string): string;
  read(id: string, offset: number): DownloadChunk;
  receive(uploadId: string | undefined, offset: number, base64: string): { uploadId: string; received: number };
  /** The whole upload; it is forgotten. */
  take(uploadId: string): Buffer;
  clear(): void;
}

export function createTransfers(options: { now: () => number }): Transfers {
  const held = new Map<string, Held>();
  const uploads = new Map<string, Upload>();

  function sweep(): void {
    const now = options.now();
    for (const [id, entry] of held) if (entry.expires <= now) held.delete(id);
    for (const [id, entry] of uploads) if (entry.expires <= now) uploads.delete(id);
  }

  return {
    hold(bytes, fileName, mimeType, id = randomUUID()) {
      sweep();
      held.set(id, { bytes, fileName, mimeType, expires: options.now() + TRANSFER_TTL_MS });
      return id;
    },
    read(id, offset) {
      sweep();
      const entry = held.get(id);
      if (!entry) throw new TransferError(`There is no export "${id}" to download (it was downloaded already or expired after ${TRANSFER_TTL_MS / 60_000} minutes); export again`);
      if (offset > entry.bytes.length) throw new TransferError(`Offset ${offset} is past the end of the export (${entry.bytes.length} bytes)`);
      const end = Math.min(entry.bytes.length, offset + TRANSFER_CHUNK_BYTES);
      const last = end >= entry.bytes.length;
      if (last) held.delete(id);
      else entry.expires = options.now() + TRANSFER_TTL_MS;
      return {
        id,
        offset,
        data: entry.bytes.subarray(offset, end).toString('base64'),
        total: entry.bytes.length,
        nextOffset: last ? null : end,
        fileName: entry.fileName,
        mimeType: entry.mimeType,
      };
    },
    receive(uploadId, offset, base64) {
      sweep();
      const data = Buffer.from(base64, 'base64');
      if (data.length > UPLOAD_CHUNK_BYTES) throw new TransferError(`An upload piece may hold at most ${UPLOAD_CHUNK_BYTES} bytes`);
      if (offset === 0 && uploadId === undefined) {
        const id = randomUUID();
        uploads.set(id, { parts: [data], received: data.length, expires: options.now() + TRANSFER_TTL_MS });
        return { uploadId: id, received: data.length };
      }
      const upload = uploadId === undefined ? undefined : uploads.get(uploadId);
      if (!upload || uploadId === undefined) throw new TransferError('This upload is unknown or expired; start it again from the beginning');
      if (offset !== upload.received) throw new TransferError(`Upload piece out of order: expected offset ${upload.received}, got ${offset}`);
      if (upload.received + data.length > MAX_UPLOAD_BYTES) {
        uploads.delete(uploadId);
        throw new TransferError(`The file is larger than ${MAX_UPLOAD_BYTES / 1024 ** 2} MB, more than a snapshot upload may be`);
      }
      upload.parts.push(data);
      upload.received += data.length;
      upload.expires = options.now() + TRANSFER_TTL_MS;
      return { uploadId, received: upload.received };
    },
    take(uploadId) {
      sweep();
      const upload = uploads.get(uploadId);
      if (!upload) throw new TransferError('This upload is unknown or expired; choose the file again');
      uploads.delete(uploadId);
      return Buffer.concat(upload.parts);
    },
    clear() {
      held.clear();
      uploads.clear();
    },
  };
}
