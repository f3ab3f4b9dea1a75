import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot, SnapshotFileError } from '../../../../electron/engine/snapshot/file.ts';
import { SNAPSHOT_SCHEMA_VERSION } from '../../../../shared/contracts/snapshot.ts';
import { sampleFile } from './sample-file.ts';

/** A snapshot written in format 1, before kinds were kind keys (workload kinds as `Deployment`). */
const FORMAT_1 = readFileSync(new URL('../../../fixtures/snapshots/format-1.kubedrift.json', import.meta.url), 'utf8');
/** A snapshot written in format 2, before the kind table, with a ClusterRole no built-in kind names. */
const FORMAT_2 = readFileSync(new URL('../../../fixtures/snapshots/format-2.kubedrift.json', import.meta.url), 'utf8');

/** The table entries older files get: the built-in kinds they hold. */
const BUILTIN_TABLE = [
  { apiVersion: 'apps/v1', kind: 'Deployment', key: 'deployments.apps', plural: 'deployments', namespaced: true, custom: false, metadataOnly: false },
  { apiVersion: 'v1', kind: 'Namespace', key: 'namespaces', plural: 'namespaces', namespaced: false, custom: false, metadataOnly: false },
  { apiVersion: 'v1', kind: 'Event', key: 'events', plural: 'events', namespaced: true, custom: false, metadataOnly: false },
];

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

  it('opens a format 1 file, naming its recorded workloads by kind key and keeping its objects as they were', async () => {
    const old = JSON.parse(FORMAT_1) as { objects: unknown[]; events: unknown[] };
    const file = await decodeSnapshot(gzipSync(FORMAT_1), 'old.kubedrift.json.gz');
    expect(file.schemaVersion).toBe(3);
    expect(file.kinds).toEqual(expect.arrayContaining(BUILTIN_TABLE));
    expect(file.kinds).toHaveLength(BUILTIN_TABLE.length);
    expect(file.history?.workloads.map((w) => w.workload.kind)).toEqual(['deployments.apps']);
    expect(file.history?.episodes.map((e) => [e.workload.kind, e.controller?.kind])).toEqual([
      ['deployments.apps', undefined],
      ['replicasets.apps', 'deployments.apps'],
    ]);
    // Objects and Events carry their own apiVersion and kind, in every format.
    expect(file.objects).toEqual(old.objects);
    expect(file.events).toEqual(old.events);
  });

  it('opens a format 2 file with a kind table of the built-in kinds it holds; other kinds get no entry', async () => {
    const old = JSON.parse(FORMAT_2) as { objects: unknown[]; events: unknown[]; history: unknown };
    const file = await decodeSnapshot(gzipSync(FORMAT_2), 'two.kubedrift.json.gz');
    expect(file.schemaVersion).toBe(3);
    expect(file.kinds).toEqual(expect.arrayContaining(BUILTIN_TABLE));
    expect(file.kinds.map((entry) => entry.kind)).not.toContain('ClusterRole');
    expect(file.objects).toEqual(old.objects);
    expect(file.events).toEqual(old.events);
    expect(file.history).toEqual(old.history);
  });

  it('refuses a kind table that lists a kind twice or files it under a key that is not its plural', async () => {
    const certificate = { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', key: 'certificates.cert-manager.io', plural: 'certificates', namespaced: true, custom: true, metadataOnly: false };
    const twice = await reason(await encodeSnapshot(sampleFile({ kinds: [certificate, { ...certificate, namespaced: false }] })));
    expect(twice).toMatchObject({ reason: 'schema', message: expect.stringContaining('kinds.1: cert-manager.io/v1 Certificate is listed twice') });
    const wrongKey = await reason(await encodeSnapshot(sampleFile({ kinds: [{ ...certificate, key: 'pods' }] })));
    expect(wrongKey.message).toContain('the key of cert-manager.io/v1 Certificate must be "certificates.cert-manager.io", not "pods"');
    const notAKey = await reason(await encodeSnapshot(sampleFile({ kinds: [{ ...certificate, key: 'Certificates!' }] })));
    expect(notAKey.message).toContain('kinds.0.key');
    // The events.k8s.io view of Events is filed under core `events`, as the engine caches it.
    const eventsView = { apiVersion: 'events.k8s.io/v1', kind: 'Event', key: 'events', plural: 'events', namespaced: true, custom: false, metadataOnly: false };
    expect((await decodeSnapshot(await encodeSnapshot(sampleFile({ kinds: [eventsView] })))).kinds).toEqual([eventsView]);
  });

  it('refuses a format 2 file whose workload kinds are not kind keys', async () => {
    const wrong = JSON.parse(FORMAT_1) as { schemaVersion: number };
    wrong.schemaVersion = 2;
    const result = await reason(gzipSync(JSON.stringify(wrong)));
    expect(result.reason).toBe('schema');
  });

  it('asks for an update when the file comes from a newer format version', async () => {
    const next = SNAPSHOT_SCHEMA_VERSION + 1;
    const newer = { ...sampleFile(), schemaVersion: next, generator: { name: 'Kubedrift', version: '7.0.0' }, somethingNew: true };
    const result = await reason(gzipSync(JSON.stringify(newer)));
    expect(result.reason).toBe('newer-version');
    expect(result.message).toContain(`written by Kubedrift 7.0.0 in snapshot format version ${next}; this Kubedrift reads format version ${SNAPSHOT_SCHEMA_VERSION} and older. Update Kubedrift`);
  });

  it('names the first fields that do not follow the format', async () => {
    const bad = { ...sampleFile(), takenAt: 'yesterday', objects: [{ kind: 'Pod' }] };
    const result = await reason(gzipSync(JSON.stringify(bad)));
    expect(result.reason).toBe('schema');
    expect(result.message).toMatch(/takenAt: .*expected number/i);
    expect(result.message).toContain('objects.0');
  });
});
