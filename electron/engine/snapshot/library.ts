/**
 * The opened snapshots, remembered across restarts: each file is copied into the data folder
 * (`snapshots/<id>.kubedrift.json.gz`, so moving or deleting the original loses nothing) and
 * listed in `snapshots/index.json`. The id is the content's hash, so opening the same file twice
 * shows one entry. A file is decoded and checked completely before anything is written: a bad
 * file changes nothing. Decoded files are kept in memory for the last few uses (switching to the
 * snapshot's context, comparing) and read again from disk after that.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { OpenedSnapshotSchema, type OpenedSnapshot, type SnapshotFile } from '../../../shared/contracts/snapshot.ts';
import { decodeSnapshot, formatSnapshotTime } from './file.ts';
import { describeSnapshot } from './summary.ts';

const IndexSchema = z.object({ version: z.literal(1), snapshots: z.array(OpenedSnapshotSchema) });
/** Decoded files kept in memory. */
const CACHE_SIZE = 3;
/** Kubernetes context names are at most 253 characters; so are ours. */
const MAX_CONTEXT_NAME = 253;

export interface SnapshotLibrary {
  load(): Promise<void>;
  list(): OpenedSnapshot[];
  get(id: string): OpenedSnapshot | undefined;
  byContext(name: string): OpenedSnapshot | undefined;
  /** Checks and adds a file; returns the existing entry when the same content is open already. */
  add(bytes: Uint8Array, fileName: string): Promise<OpenedSnapshot>;
  remove(id: string): Promise<boolean>;
  /** The decoded file of an opened snapshot. */
  file(id: string): Promise<SnapshotFile>;
}

async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, data);
  await rename(temp, file);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function createSnapshotLibrary(options: { dataDir: string; now: () => number; log: (message: string) => void }): SnapshotLibrary {
  const dir = path.join(options.dataDir, 'snapshots');
  const indexFile = path.join(dir, 'index.json');
  let entries: OpenedSnapshot[] = [];
  const decoded = new Map<string, SnapshotFile>();
  /** Writes to the index one after another. */
  let writing: Promise<void> = Promise.resolve();

  const fileOf = (id: string) => path.join(dir, `${id}.kubedrift.json.gz`);

  function remember(id: string, file: SnapshotFile): void {
    decoded.delete(id);
    decoded.set(id, file);
    while (decoded.size > CACHE_SIZE) decoded.delete(decoded.keys().next().value as string);
  }

  function saveIndex(): Promise<void> {
    const text = `${JSON.stringify({ version: 1, snapshots: entries }, null, 2)}\n`;
    writing = writing.then(async () => {
      await mkdir(dir, { recursive: true });
      await writeAtomic(indexFile, text);
    });
    return writing;
  }

  function contextNameFor(file: SnapshotFile): string {
    const base = `snapshot: ${file.context.name.slice(0, 200)} @ ${formatSnapshotTime(file.takenAt)}`;
    let name = base;
    for (let n = 2; entries.some((entry) => entry.contextName === name); n += 1) name = `${base} (${n})`;
    return name.slice(0, MAX_CONTEXT_NAME);
  }

  return {
    async load() {
      let text: string;
      try {
        text = await readFile(indexFile, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') options.log(`[kubedrift] could not read ${indexFile}: ${(error as Error).message}`);
        return;
      }
      const parsed = IndexSchema.safeParse(parseJson(text));
      if (!parsed.success) {
        options.log(`[kubedrift] ${indexFile} is damaged; the list of opened snapshots starts empty (the files stay in ${dir})`);
        return;
      }
      const kept: OpenedSnapshot[] = [];
      for (const entry of parsed.data.snapshots) {
        try {
          await access(fileOf(entry.id));
          kept.push(entry);
        } catch {
          options.log(`[kubedrift] the copy of snapshot "${entry.contextName}" is gone from ${dir}; it is no longer listed`);
        }
      }
      entries = kept;
      if (kept.length !== parsed.data.snapshots.length) await saveIndex();
    },
    list: () => entries.map((entry) => ({ ...entry })),
    get: (id) => entries.find((entry) => entry.id === id),
    byContext: (name) => entries.find((entry) => entry.contextName === name),
    async add(bytes, fileName) {
      const file = await decodeSnapshot(bytes, fileName);
      const id = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
      const existing = entries.find((entry) => entry.id === id);
      if (existing) return existing;
      const entry = describeSnapshot(file, { id, contextName: contextNameFor(file), fileName, openedAt: options.now(), bytes: bytes.length });
      await mkdir(dir, { recursive: true });
      await writeAtomic(fileOf(id), bytes);
      entries = [...entries, entry];
      try {
        await saveIndex();
      } catch (error) {
        entries = entries.filter((other) => other.id !== id);
        await rm(fileOf(id), { force: true });
        throw error;
      }
      remember(id, file);
      return entry;
    },
    async remove(id) {
      if (!entries.some((entry) => entry.id === id)) return false;
      entries = entries.filter((entry) => entry.id !== id);
      decoded.delete(id);
      await saveIndex();
      await rm(fileOf(id), { force: true });
      return true;
    },
    async file(id) {
      const cached = decoded.get(id);
      if (cached) {
        remember(id, cached);
        return cached;
      }
      const entry = entries.find((other) => other.id === id);
      if (!entry) throw new Error(`No snapshot "${id}" is open`);
      const file = await decodeSnapshot(await readFile(fileOf(id)), entry.fileName);
      remember(id, file);
      return file;
    },
  };
}
