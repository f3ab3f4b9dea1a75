/**
 * The snapshot file on disk: gzipped JSON following SnapshotFileSchema. Reading checks, in
 * order, what a person can act on: is it gzip at all, is it complete (truncated downloads are the
 * common failure), is it JSON, is it a Kubedrift snapshot, is it a version this build reads, and
 * only then the schema, reported with the path of the first bad fields. Nothing is changed by a
 * file that fails any of these.
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { SNAPSHOT_KIND, SNAPSHOT_SCHEMA_VERSION, SnapshotFileSchema, type SnapshotFile } from '../../../shared/contracts/snapshot.ts';
import { describeIssues } from '../dispatcher.ts';
import { kindTableProblem } from '../../../shared/contracts/snapshot-kinds.ts';
import { upgradeFormat1, upgradeFormat2 } from './legacy.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Largest file a snapshot may unpack to; a bigger one is refused rather than filling memory. */
export const MAX_SNAPSHOT_JSON_BYTES = 1024 * 1024 * 1024;

/** Why a file cannot be opened as a snapshot; `reason` is machine-readable for tests and the UI. */
export class SnapshotFileError extends Error {
  override name = 'SnapshotFileError';
  readonly reason: 'not-gzip' | 'truncated' | 'corrupt' | 'not-json' | 'not-snapshot' | 'newer-version' | 'older-version' | 'schema' | 'too-large';

  constructor(reason: SnapshotFileError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

export async function encodeSnapshot(file: SnapshotFile): Promise<Buffer> {
  return gzipAsync(Buffer.from(JSON.stringify(file), 'utf8'), { level: 6 });
}

async function unzip(bytes: Uint8Array, name: string): Promise<Buffer> {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    throw new SnapshotFileError('not-gzip', `${name} is not a Kubedrift snapshot: a snapshot is a gzip file (.kubedrift.json.gz) and this one does not start like one`);
  }
  try {
    return await gunzipAsync(bytes, { maxOutputLength: MAX_SNAPSHOT_JSON_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR') {
      throw new SnapshotFileError('truncated', `${name} is incomplete: the file ends after ${bytes.length} bytes, in the middle of its compressed data (an interrupted download or copy?)`);
    }
    if (code === 'ERR_BUFFER_TOO_LARGE' || (error as Error).message.includes('maxOutputLength')) {
      throw new SnapshotFileError('too-large', `${name} unpacks to more than ${MAX_SNAPSHOT_JSON_BYTES / 1024 ** 3} GiB, more than Kubedrift opens`);
    }
    throw new SnapshotFileError('corrupt', `${name} is damaged: its compressed data cannot be read (${(error as Error).message})`);
  }
}

function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SnapshotFileError('not-json', `${name} is not a Kubedrift snapshot: it unpacks to text that is not JSON (${(error as Error).message})`);
  }
}

function checkHeader(value: unknown, name: string): void {
  const header = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (header['kind'] !== SNAPSHOT_KIND) {
    const kind = typeof header['kind'] === 'string' ? ` (its kind is "${header['kind'].slice(0, 60)}")` : '';
    throw new SnapshotFileError('not-snapshot', `${name} is JSON but not a Kubedrift snapshot${kind}`);
  }
  const version = header['schemaVersion'];
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw new SnapshotFileError('schema', `${name} has no valid schemaVersion`);
  }
  const generator = (header['generator'] as { version?: unknown } | undefined)?.version;
  const by = typeof generator === 'string' ? ` by Kubedrift ${generator.slice(0, 40)}` : '';
  if (version > SNAPSHOT_SCHEMA_VERSION) {
    throw new SnapshotFileError(
      'newer-version',
      `${name} was written${by} in snapshot format version ${version}; this Kubedrift reads format version ${SNAPSHOT_SCHEMA_VERSION} and older. Update Kubedrift to open it.`,
    );
  }
  if (version < 1) throw new SnapshotFileError('older-version', `${name} has snapshot format version ${version}, which no Kubedrift ever wrote`);
}

/** Reads a snapshot file's bytes; throws SnapshotFileError with a sentence for the user. */
export async function decodeSnapshot(bytes: Uint8Array, name = 'The file'): Promise<SnapshotFile> {
  const json = await unzip(bytes, name);
  const value = parseJson(json.toString('utf8'), name);
  checkHeader(value, name);
  // Older formats are upgraded step by step (legacy.ts) and then read as today's.
  const header = value as Record<string, unknown>;
  if (header['schemaVersion'] === 1) upgradeFormat1(header);
  if (header['schemaVersion'] === 2) upgradeFormat2(header);
  const parsed = SnapshotFileSchema.safeParse(value);
  if (!parsed.success) throw new SnapshotFileError('schema', `${name} does not follow the snapshot format: ${describeIssues(parsed.error)}`);
  const problem = kindTableProblem(parsed.data.kinds);
  if (problem) throw new SnapshotFileError('schema', `${name} does not follow the snapshot format: ${problem}`);
  return parsed.data;
}

/** `prod @ 2024-05-01 12:00:00Z` style: the UTC time to the second, readable in any locale. */
export function formatSnapshotTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}
