/**
 * Where exports go: the desktop's save dialog (written to the chosen path, or nothing when the
 * dialog is closed), downloads in pieces under 64 KB, uploads back in pieces, and progress on
 * `snapshot:progress` ending in `done`.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { FileDialogs } from '../../../../electron/engine/dialogs.ts';
import { decodeSnapshot } from '../../../../electron/engine/snapshot/file.ts';
import { toManifest } from '../../../../electron/engine/snapshot/yaml.ts';
import type { DiffSummary } from '../../../../shared/contracts/diff.ts';
import { UPLOAD_CHUNK_BYTES, type ExportResult, type OpenedSnapshot, type SnapshotProgress } from '../../../../shared/contracts/snapshot.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { exportBytes, startFixture, unwrap, type Fixture } from './engine-fixture.ts';

let fixture: Fixture;
let dir: string;
let cleanup: () => Promise<void>;
let answer: string | null = null;
const dialogs: FileDialogs = { save: async () => answer, open: async () => answer, openFolder: () => Promise.reject(new Error('exports never pick a folder')) };

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-export-'));
  fixture = await startFixture(dir, 'demo', { dialogs });
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
  await cleanup?.();
});

describe('export destinations', () => {
  it('writes to the path the save dialog returns and reports progress to the end', async () => {
    answer = path.join(dir, 'chosen.html');
    const progress: SnapshotProgress[] = [];
    const stop = fixture.engine.hub.listen((stream, payload) => stream === 'snapshot:progress' && progress.push(payload as SnapshotProgress));
    const result = unwrap<ExportResult>(await fixture.engine.dispatch('snapshot:export', { format: 'html', scope: { type: 'cluster' }, at: null, destination: 'dialog' }));
    stop();
    expect(result).toMatchObject({ canceled: false, path: answer, format: 'html' });
    const html = await readFile(answer, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['collecting', 'rendering', 'writing', 'done']));
    expect(progress.every((p) => p.id === result.id && p.done <= p.total)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ phase: 'done', message: `Saved ${answer}` });
  });

  it('writes nothing when the save dialog is closed', async () => {
    answer = null;
    const result = unwrap<ExportResult>(await fixture.engine.dispatch('snapshot:export', { format: 'yaml', scope: { type: 'cluster' }, at: null, destination: 'dialog' }));
    expect(result).toMatchObject({ canceled: true });
    expect(result.path).toBeUndefined();
  });

  it('downloads in pieces that fit a frame, once; uploads back in pieces and opens', async () => {
    const { result, bytes } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'namespace', namespace: 'shop' }, at: null });
    expect(bytes.length).toBe(result.bytes);
    const file = await decodeSnapshot(bytes);
    expect(file.objects.every((o) => o.kind === 'Node' || o.kind === 'Namespace' || o.metadata.namespace === 'shop')).toBe(true);
    const again = await fixture.engine.dispatch('snapshot:download', { id: result.id, offset: 0 });
    expect(again).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringContaining('downloaded already or expired') } });

    let uploadId: string | undefined;
    for (let offset = 0; offset < bytes.length; offset += UPLOAD_CHUNK_BYTES / 4) {
      const piece = bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES / 4).toString('base64');
      const answer: { uploadId: string; received: number } = unwrap(await fixture.engine.dispatch('snapshot:upload', { ...(uploadId ? { uploadId } : {}), offset, data: piece }));
      uploadId = answer.uploadId;
    }
    const out = await fixture.engine.dispatch('snapshot:upload', { uploadId, offset: 3, data: 'AAAA' });
    expect(out).toMatchObject({ ok: false, error: { message: expect.stringContaining('out of order') } });
    const opened = unwrap<{ snapshot: OpenedSnapshot }>(await fixture.engine.dispatch('snapshot:open', { source: 'upload', uploadId: uploadId as string, fileName: 'shop.kubedrift.json.gz' }));
    expect(opened.snapshot).toMatchObject({ fileName: 'shop.kubedrift.json.gz', scope: { type: 'namespace', namespace: 'shop' }, counts: { objects: file.objects.length } });
    expect(existsSync(path.join(dir, 'data', 'snapshots', `${opened.snapshot.id}.kubedrift.json.gz`))).toBe(true);
  });

  it('exports a selection with what it owns and the Events about them', async () => {
    const { bytes: all } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'cluster' }, at: null });
    const everything = await decodeSnapshot(all);
    const frontend = everything.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'frontend');
    if (!frontend) throw new Error('the demo has no frontend Deployment');
    const { bytes } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'selection', uids: [frontend.metadata.uid] }, at: null });
    const file = await decodeSnapshot(bytes);
    const kinds = new Set(file.objects.map((o) => o.kind));
    expect([...kinds].sort()).toEqual(['Deployment', 'Pod', 'ReplicaSet']);
    expect(file.objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name)).toEqual(['frontend']);
    expect(file.events.length).toBeGreaterThan(0);
    const missing = await fixture.engine.dispatch('snapshot:export', { format: 'snapshot', scope: { type: 'selection', uids: ['gone'] }, at: null, destination: 'download' });
    expect(missing).toMatchObject({ ok: false, error: { message: expect.stringContaining('None of the 1 selected objects exist') } });
  });

  it('carries the last diff against the manifests into the snapshot and the report', async () => {
    const manifests = path.join(dir, 'manifests');
    await mkdir(manifests, { recursive: true });
    // The YAML bundle's own manifest of frontend, with one change: a diff finds exactly that.
    const before = await decodeSnapshot((await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'namespace', namespace: 'shop' }, at: null })).bytes);
    const frontend = before.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'frontend');
    if (!frontend) throw new Error('the demo has no frontend Deployment');
    const manifest = toManifest(frontend) as { spec: { replicas: number } };
    manifest.spec.replicas = 7;
    await writeFile(path.join(manifests, 'frontend.yaml'), stringify(manifest));
    unwrap(await fixture.engine.dispatch('diff:paths', { paths: [manifests] }));
    const summary = unwrap<DiffSummary>(await fixture.engine.dispatch('diff:run', {}));
    expect(summary.counts).toMatchObject({ OutOfSync: 1, Error: 0 });
    const { bytes } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'cluster' }, at: null });
    const file = await decodeSnapshot(bytes);
    expect(file.diff?.summary.runId).toBe(summary.runId);
    expect(file.diff?.rows).toContainEqual(expect.objectContaining({ status: 'OutOfSync', kind: 'Deployment', name: 'frontend' }));
    const html = (await exportBytes(fixture.engine, { format: 'html', scope: { type: 'namespace', namespace: 'shop' }, at: null })).bytes.toString('utf8');
    expect(html).toMatch(/<h2>Diff against the manifests<\/h2>[\s\S]*OutOfSync[\s\S]*shop\/frontend/);
  });
});
