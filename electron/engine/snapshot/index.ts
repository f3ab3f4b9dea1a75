/**
 * The snapshot feature: implements the `snapshot:*` channels of shared/contracts/snapshot.ts.
 * Exports go to a file the user picks (desktop: the dialogs the Electron shell lends) or are
 * held for download in pieces (browser shell, command line); opened snapshots become read-only
 * contexts the engine fills its cache from (see `connect`), remembered in the data folder.
 */
import { randomUUID } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { KindEntry } from '../../../shared/discovery.ts';
import { SNAPSHOT_EXTENSION, type ExportFormat, type snapshotRequests } from '../../../shared/contracts/snapshot.ts';
import type { ConnectionStatus, ContextInfo } from '../../../shared/model.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import type { historyRequests } from '../../../shared/contracts/history.ts';
import type { EngineContext, Feature, FeatureHandlers } from '../features.ts';
import { compareSnapshots } from './compare.ts';
import type { FileDialogs, FileFilter } from '../dialogs.ts';
import { runExport } from './export.ts';
import { formatSnapshotTime, SnapshotFileError } from './file.ts';
import { kindEntries } from './kind-table.ts';
import { createSnapshotLibrary } from './library.ts';
import { withSnapshotHistory } from './history-handlers.ts';
import { snapshotSources, type EngineRequest } from './sources.ts';
import { createTransfers, TransferError } from './transfers.ts';

export type { EngineRequest } from './sources.ts';

/** Largest snapshot file opened from a path. */
export const MAX_OPEN_BYTES = 512 * 1024 * 1024;

export interface SnapshotFeatureOptions {
  /** The desktop app's save and open dialogs; absent elsewhere. */
  dialogs?: FileDialogs | undefined;
  /** Lists the opened snapshots' contexts in the context picker (the engine's registry). */
  contexts?: { set(contexts: ContextInfo[]): void } | undefined;
  /** The engine's own dispatcher: history and graph answers go into the snapshot as clients see them. */
  request?: EngineRequest | undefined;
}

/** What the engine lends `connect` for a snapshot context. */
export interface SnapshotConnectTarget {
  /** Fills the (already reset) cache with the file's objects, filed by the kinds of its table (kind-table.ts `kindEntries`). */
  load(objects: readonly SlimObject[], since: number, kinds: readonly KindEntry[]): void;
  /** False once the user switched elsewhere meanwhile. */
  isCurrent(): boolean;
  setConnection(status: Omit<ConnectionStatus, 'since'>): void;
}

export interface SnapshotFeature extends Feature<typeof snapshotRequests> {
  /** The engine's connect() for a snapshot context: the cache comes from the file, no informers. */
  connect(contextName: string, target: SnapshotConnectTarget): Promise<void>;
  /** The history feature's handlers, answering from the file while a snapshot context is selected. */
  historyHandlers(handlers: FeatureHandlers<typeof historyRequests>): FeatureHandlers<typeof historyRequests>;
}

const FILTERS: Readonly<Record<ExportFormat, FileFilter>> = {
  snapshot: { name: 'Kubedrift snapshot', extensions: ['gz'] },
  yaml: { name: 'YAML', extensions: ['yaml', 'yml'] },
  html: { name: 'HTML report', extensions: ['html'] },
};

function contextInfo(entry: { contextName: string; fileName: string; takenAt: number; source: { name: string; server?: string | undefined } }): ContextInfo {
  return {
    name: entry.contextName,
    cluster: entry.source.name,
    user: 'read-only snapshot',
    source: entry.fileName,
    demo: false,
    ...(entry.source.server ? { server: entry.source.server } : {}),
    snapshot: { file: entry.fileName, takenAt: entry.takenAt, readOnly: true },
  };
}

function failure(error: unknown): Result<never> {
  if (error instanceof SnapshotFileError) return err('invalid-request', error.message, error.reason);
  if (error instanceof TransferError) return err('not-found', error.message);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return err('not-found', `There is no file at ${(error as NodeJS.ErrnoException).path ?? 'that path'}`);
  if (code === 'EACCES' || code === 'EPERM') return err('forbidden', `Kubedrift may not access ${(error as NodeJS.ErrnoException).path ?? 'that file'}`);
  if (code === 'EISDIR') return err('invalid-request', 'That path is a folder; choose a .kubedrift.json.gz file');
  return err('internal', (error as Error).message);
}

export function createSnapshotFeature(context: EngineContext, options: SnapshotFeatureOptions = {}): SnapshotFeature {
  const library = createSnapshotLibrary({ dataDir: context.dataDir, now: context.now, log: context.log });
  const transfers = createTransfers({ now: context.now });
  const sources = snapshotSources(context, library, options.request);
  const selectedSnapshot = () => {
    const selected = context.selected();
    return selected ? library.byContext(selected.name) : undefined;
  };

  function publish(): void {
    const snapshots = library.list();
    options.contexts?.set(snapshots.map(contextInfo));
    context.hub.emit('snapshot:list', { snapshots });
  }

  async function readPath(file: string): Promise<Buffer> {
    const info = await stat(file);
    if (info.isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
    if (info.size > MAX_OPEN_BYTES) throw new SnapshotFileError('too-large', `${path.basename(file)} is ${Math.round(info.size / 1024 ** 2)} MB, more than Kubedrift opens`);
    return readFile(file);
  }

  return {
    handlers: {
      'snapshot:export': async (request) => {
        const id = randomUUID();
        const emit = (progress: { phase: 'collecting' | 'history' | 'graph' | 'rendering' | 'writing' | 'done' | 'failed' | 'canceled'; done: number; total: number; message: string }) =>
          context.hub.emit('snapshot:progress', { id, format: request.format, ...progress });
        try {
          const output = await runExport(sources, request, emit);
          const base = { id, format: request.format, fileName: output.fileName, mimeType: output.mimeType, bytes: output.bytes.length, objects: output.objects, takenAt: output.takenAt, notes: output.notes };
          if (request.destination === 'download') {
            transfers.hold(output.bytes, output.fileName, output.mimeType, id);
            emit({ phase: 'done', done: 1, total: 1, message: `Ready to download: ${output.fileName}` });
            return ok({ ...base, canceled: false });
          }
          if (!options.dialogs) return err('unavailable', 'Saving to a file needs the desktop app; the browser downloads the export instead');
          const target = await options.dialogs.save({ title: 'Save the export', defaultName: output.fileName, filters: [FILTERS[request.format]] });
          if (target === null) {
            emit({ phase: 'canceled', done: 0, total: 1, message: 'Not saved' });
            return ok({ ...base, canceled: true });
          }
          emit({ phase: 'writing', done: 1, total: 2, message: `Writing ${path.basename(target)}` });
          await writeFile(target, output.bytes);
          emit({ phase: 'done', done: 2, total: 2, message: `Saved ${target}` });
          return ok({ ...base, path: target, canceled: false });
        } catch (error) {
          emit({ phase: 'failed', done: 0, total: 1, message: (error as Error).message });
          return err((error as NodeJS.ErrnoException).code ? 'forbidden' : 'unavailable', `The export failed: ${(error as Error).message}`);
        }
      },
      'snapshot:download': ({ id, offset }) => {
        try {
          return ok(transfers.read(id, offset));
        } catch (error) {
          return failure(error);
        }
      },
      'snapshot:upload': ({ uploadId, offset, data }) => {
        try {
          return ok(transfers.receive(uploadId, offset, data));
        } catch (error) {
          return failure(error);
        }
      },
      'snapshot:open': async (request) => {
        try {
          let bytes: Uint8Array;
          let fileName: string;
          if (request.source === 'upload') {
            bytes = transfers.take(request.uploadId);
            fileName = request.fileName ?? `uploaded${SNAPSHOT_EXTENSION}`;
          } else {
            let file: string | null = request.source === 'path' ? path.resolve(request.path) : null;
            if (request.source === 'dialog') {
              if (!options.dialogs) return err('unavailable', 'The open dialog needs the desktop app; upload the file instead');
              file = await options.dialogs.open({ title: 'Open a Kubedrift snapshot', filters: [FILTERS.snapshot] });
              if (file === null) return ok({ snapshot: null });
            }
            bytes = await readPath(file as string);
            fileName = path.basename(file as string);
          }
          const entry = await library.add(bytes, fileName);
          publish();
          return ok({ snapshot: entry });
        } catch (error) {
          return failure(error);
        }
      },
      'snapshot:list': () => ok({ snapshots: library.list() }),
      'snapshot:close': async ({ id }) => {
        if (!(await library.remove(id))) return err('not-found', `No snapshot "${id}" is open`);
        publish();
        return ok({ snapshots: library.list() });
      },
      'snapshot:compare': async ({ a, b }) => {
        const first = library.get(a);
        const second = library.get(b);
        if (!first || !second) return err('not-found', `Snapshot "${first ? b : a}" is not open`);
        try {
          return ok(compareSnapshots({ entry: first, file: await library.file(a) }, { entry: second, file: await library.file(b) }));
        } catch (error) {
          return failure(error);
        }
      },
    },
    async start() {
      await library.load();
      publish();
    },
    async connect(contextName, target) {
      const entry = library.byContext(contextName);
      if (!entry) return target.setConnection({ context: contextName, state: 'error', message: `The snapshot "${contextName}" is no longer open` });
      target.setConnection({ context: contextName, state: 'connecting', server: entry.fileName });
      try {
        const file = await library.file(entry.id);
        if (!target.isCurrent()) return;
        target.load([...file.objects, ...file.events], file.takenAt, kindEntries(file.kinds));
        target.setConnection({ context: contextName, state: 'connected', server: entry.source.server ?? entry.source.name, serverVersion: `offline snapshot of ${formatSnapshotTime(file.takenAt)}` });
      } catch (error) {
        if (target.isCurrent()) target.setConnection({ context: contextName, state: 'error', message: `The snapshot could not be read: ${(error as Error).message}` });
      }
    },
    historyHandlers: (handlers) => withSnapshotHistory(handlers, { selected: selectedSnapshot, file: (id) => library.file(id) }),
    dispose() {
      transfers.clear();
    },
  };
}
