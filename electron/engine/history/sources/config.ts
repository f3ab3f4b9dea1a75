/**
 * The history sources the user added, with their tokens, in their own file of the data directory
 * (`history-sources.json`, readable by the user only). Not in settings.json: the settings cross
 * the contract to the renderer, and a token must never do that. Written to a temporary file that
 * is renamed into place, like the settings.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { HistorySourceUrlSchema } from '../../../../shared/contracts/history-sources.ts';

export const SOURCES_FILE = 'history-sources.json';

const StoredSourceSchema = z.object({ id: z.string().min(1), name: z.string().min(1), url: HistorySourceUrlSchema, token: z.string().min(1) });
export type StoredSource = z.infer<typeof StoredSourceSchema>;
const StoredFileSchema = z.object({ sources: z.array(StoredSourceSchema) });

/** Reads the file; a missing one is no sources, an unusable one is reported and treated as none. */
export async function loadSources(dataDir: string): Promise<{ sources: StoredSource[]; warning?: string }> {
  const file = path.join(dataDir, SOURCES_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sources: [] };
    return { sources: [], warning: `History sources file ${file} could not be read: ${(error as Error).message}` };
  }
  try {
    const parsed = StoredFileSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { sources: parsed.data.sources };
  } catch {
    // Not JSON: reported below like any other unusable content.
  }
  return { sources: [], warning: `History sources file ${file} has unexpected content; no history sources are used` };
}

/** Writes the file, readable and writable by the user only (it holds tokens). */
export async function saveSources(dataDir: string, sources: readonly StoredSource[]): Promise<void> {
  const file = path.join(dataDir, SOURCES_FILE);
  await mkdir(dataDir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ sources }, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}
