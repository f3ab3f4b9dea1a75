/**
 * Round trip: export -> open -> the same objects through the same contract calls, offline; the
 * opened snapshot is remembered across restarts; a bad file changes nothing.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../../../electron/engine/snapshot/file.ts';
import { typeByApiVersionKind } from '../../../../electron/engine/simcluster/resources.ts';
import type { OpenedSnapshot, SnapshotComparison, SnapshotFile, SnapshotList } from '../../../../shared/contracts/snapshot.ts';
import type { ConnectionStatus, ContextList } from '../../../../shared/model.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { exportBytes, startFixture, unwrap, waitForSync, type Fixture } from './engine-fixture.ts';
import { snapshotKindId } from '../../../../shared/contracts/snapshot-kinds.ts';

let dir: string;
let cleanup: () => Promise<void>;
const fixtures: Fixture[] = [];

beforeEach(async () => ({ dir, cleanup } = await withTempDir('kubedrift-open-')));
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.stop();
  await cleanup();
});

async function start(): Promise<Fixture> {
  const fixture = await startFixture(dir, 'minimal', { dataDir: path.join(dir, 'data') });
  fixtures.push(fixture);
  return fixture;
}

async function exportToFile(fixture: Fixture, name: string): Promise<{ file: string; snapshot: SnapshotFile }> {
  const { bytes } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'cluster' }, at: null });
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return { file, snapshot: await decodeSnapshot(bytes) };
}

/** The file's objects as `key/uid@rv`, each filed by the file's own kind table. */
function stamps(file: SnapshotFile): string[] {
  const keys = new Map(file.kinds.map((entry) => [snapshotKindId(entry.apiVersion, entry.kind), entry.key]));
  return [...file.objects, ...file.events].map((o) => `${keys.get(snapshotKindId(o.apiVersion, o.kind)) ?? 'unnamed'}/${o.metadata.uid}@${o.metadata.resourceVersion}`).sort();
}

describe('opening a snapshot', () => {
  it('adds a read-only context whose objects are the file\'s, offline', async () => {
    const fixture = await start();
    const { file, snapshot } = await exportToFile(fixture, 'demo.kubedrift.json.gz');
    const { snapshot: opened } = unwrap<{ snapshot: OpenedSnapshot }>(await fixture.engine.dispatch('snapshot:open', { source: 'path', path: file }));
    expect(opened.contextName).toMatch(/^snapshot: kubedrift-demo @ \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
    expect(opened.counts.objects).toBe(snapshot.objects.length);
    const list = unwrap<ContextList>(await fixture.engine.dispatch('contexts:list', {}));
    expect(list.contexts.find((c) => c.name === opened.contextName)).toMatchObject({ snapshot: { file: 'demo.kubedrift.json.gz', takenAt: snapshot.takenAt, readOnly: true } });

    // Stop the cluster: the snapshot context must not need it.
    await fixture.cluster.stop();
    unwrap(await fixture.engine.dispatch('contexts:select', { name: opened.contextName }));
    await waitForSync(fixture.engine, opened.contextName);
    const connection = unwrap<ConnectionStatus>(await fixture.engine.dispatch('connection:status', {}));
    expect(connection).toMatchObject({ context: opened.contextName, state: 'connected', serverVersion: expect.stringContaining('offline snapshot') });
    expect(fixture.engine.inspectCache().map((s) => `${s.kind}/${s.uid}@${s.resourceVersion}`).sort()).toEqual(stamps(snapshot));

    // Exporting the opened snapshot again gives the same objects, named after the cluster it came from.
    const { bytes } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'cluster' }, at: null });
    const again = await decodeSnapshot(bytes);
    expect(again.objects).toEqual(snapshot.objects);
    expect(again.events).toEqual(snapshot.events);
    expect(again.context).toEqual(snapshot.context);
  });

  it('is remembered across restarts, and closing it switches away', async () => {
    const first = await start();
    const { file } = await exportToFile(first, 'a.kubedrift.json.gz');
    const { snapshot: opened } = unwrap<{ snapshot: OpenedSnapshot }>(await first.engine.dispatch('snapshot:open', { source: 'path', path: file }));
    // Opening the same file twice lists it once.
    const twice = unwrap<{ snapshot: OpenedSnapshot }>(await first.engine.dispatch('snapshot:open', { source: 'path', path: file }));
    expect(twice.snapshot.id).toBe(opened.id);
    unwrap(await first.engine.dispatch('contexts:select', { name: opened.contextName }));
    await first.stop();
    fixtures.length = 0;

    const second = await startFixture(dir, 'minimal', { dataDir: path.join(dir, 'data'), waitFor: opened.contextName });
    fixtures.push(second);
    // The remembered selection was the snapshot: the engine starts on it, with no cluster at all.
    const list = unwrap<SnapshotList>(await second.engine.dispatch('snapshot:list', {}));
    expect(list.snapshots.map((s) => s.contextName)).toEqual([opened.contextName]);
    expect(() => second.cluster).toThrow('not started');
    const closed = await new Promise<ConnectionStatus>((resolve) => {
      const stop = second.engine.hub.listen((stream, payload) => {
        if (stream === 'connection:changed' && (payload as ConnectionStatus).context === 'kubedrift-demo' && (payload as ConnectionStatus).state === 'connected') {
          stop();
          resolve(payload as ConnectionStatus);
        }
      });
      void second.engine.dispatch('snapshot:close', { id: opened.id });
    });
    expect(closed.state).toBe('connected');
    const contexts = unwrap<ContextList>(await second.engine.dispatch('contexts:list', {}));
    expect(contexts.selected).toBe('kubedrift-demo');
    expect(contexts.contexts.some((c) => c.snapshot)).toBe(false);
  });

  it('refuses a corrupt, truncated or newer file with a precise message and changes nothing', async () => {
    const fixture = await start();
    const { file } = await exportToFile(fixture, 'good.kubedrift.json.gz');
    const truncated = path.join(dir, 'cut.kubedrift.json.gz');
    await writeFile(truncated, (await readFile(file)).subarray(0, 100));
    const before = unwrap<ContextList>(await fixture.engine.dispatch('contexts:list', {}));
    const result = await fixture.engine.dispatch('snapshot:open', { source: 'path', path: truncated });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-request', detail: 'truncated', message: expect.stringContaining('cut.kubedrift.json.gz is incomplete') } });
    const missing = await fixture.engine.dispatch('snapshot:open', { source: 'path', path: path.join(dir, 'nope.gz') });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringContaining('nope.gz') } });
    expect(unwrap<ContextList>(await fixture.engine.dispatch('contexts:list', {}))).toEqual(before);
    expect(unwrap<SnapshotList>(await fixture.engine.dispatch('snapshot:list', {})).snapshots).toEqual([]);
    await expect(readdir(path.join(dir, 'data', 'snapshots'))).rejects.toThrow();
  });

  it('compares two snapshots: objects added, removed, changed and workload numbers', async () => {
    const fixture = await start();
    const a = await exportToFile(fixture, 'a.kubedrift.json.gz');
    await fixture.cluster.store.create(
      typeByApiVersionKind('apps/v1', 'Deployment') as never,
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'extra', namespace: 'default' }, spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'x', image: 'x:1' }] } } } } as never,
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    const b = await exportToFile(fixture, 'b.kubedrift.json.gz');
    const first = unwrap<{ snapshot: OpenedSnapshot }>(await fixture.engine.dispatch('snapshot:open', { source: 'path', path: a.file })).snapshot;
    const second = unwrap<{ snapshot: OpenedSnapshot }>(await fixture.engine.dispatch('snapshot:open', { source: 'path', path: b.file })).snapshot;
    const comparison = unwrap<SnapshotComparison>(await fixture.engine.dispatch('snapshot:compare', { a: first.id, b: second.id }));
    expect(comparison.changes).toContainEqual(expect.objectContaining({ change: 'added', kind: 'Deployment', namespace: 'default', name: 'extra' }));
    expect(comparison.workloads).toContainEqual(expect.objectContaining({ kind: 'Deployment', name: 'extra', before: null, changed: ['created'] }));
    expect(comparison.totals.added).toBeGreaterThanOrEqual(1);
  });
});
