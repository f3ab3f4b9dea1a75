import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot, SnapshotFileError } from '../../../../electron/engine/snapshot/file.ts';
import { sampleFile } from './sample-file.ts';

async function reason(bytes: Uint8Array): Promise<{ reason: string; message: string }> {
  try {
    await decodeSnapshot(bytes, 'prod.kubedrift.json.gz');
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotFileError);
    return { reason: (error as SnapshotFileError).reason, message: (error as Error).message };
  }
  throw new Error('the file was accepted');
}

describe('snapshot file', () => {
  it('reads back exactly what it wrote', async () => {
    const file = sampleFile();
    expect(await decodeSnapshot(await encodeSnapshot(file))).toEqual(file);
  });

  it('refuses a file that is not gzip, naming what a snapshot is', async () => {
    const result = await reason(Buffer.from('{"kind":"KubedriftSnapshot"}'));
    expect(result.reason).toBe('not-gzip');
    expect(result.message).toContain('prod.kubedrift.json.gz is not a Kubedrift snapshot');
  });

  it('tells a truncated download from a damaged one', async () => {
    const bytes = await encodeSnapshot(sampleFile());
    const truncated = await reason(bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(truncated.reason).toBe('truncated');
    expect(truncated.message).toMatch(/is incomplete: the file ends after \d+ bytes/);
    const damaged = Buffer.from(bytes);
    for (let i = 20; i < 40; i += 1) damaged[i] = 0xff;
    expect((await reason(damaged)).reason).toBe('corrupt');
  });

  it('refuses gzipped text that is not JSON, and JSON that is not a snapshot', async () => {
    expect((await reason(gzipSync('hello'))).reason).toBe('not-json');
    const other = await reason(gzipSync(JSON.stringify({ kind: 'Deployment' })));
    expect(other).toMatchObject({ reason: 'not-snapshot', message: expect.stringContaining('its kind is "Deployment"') });
  });

  it('asks for an update when the file comes from a newer format version', async () => {
    const newer = { ...sampleFile(), schemaVersion: 2, generator: { name: 'Kubedrift', version: '7.0.0' }, somethingNew: true };
    const result = await reason(gzipSync(JSON.stringify(newer)));
    expect(result.reason).toBe('newer-version');
    expect(result.message).toContain('written by Kubedrift 7.0.0 in snapshot format version 2; this Kubedrift reads format version 1 and older. Update Kubedrift');
  });

  it('names the first fields that do not follow the format', async () => {
    const bad = { ...sampleFile(), takenAt: 'yesterday', objects: [{ kind: 'Pod' }] };
    const result = await reason(gzipSync(JSON.stringify(bad)));
    expect(result.reason).toBe('schema');
    expect(result.message).toMatch(/takenAt: .*expected number/i);
    expect(result.message).toContain('objects.0');
  });
});
