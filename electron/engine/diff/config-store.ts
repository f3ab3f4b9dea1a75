/**
 * Per-context diff settings — the manifest paths and the ignore rules — in
 * `<dataDir>/diff/<context>.json`, written atomically. A file that cannot be read or parsed is
 * reported and left in place (renamed aside), never silently overwritten with empty settings.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { IgnoreRuleSchema, type IgnoreRule } from '../../../shared/contracts/diff.ts';

export interface StoredDiffConfig {
  paths: string[];
  ignores: IgnoreRule[];
}

const FileSchema = z.object({
  version: z.literal(1),
  paths: z.array(z.string()),
  ignores: z.array(IgnoreRuleSchema),
});

export const EMPTY_CONFIG: StoredDiffConfig = { paths: [], ignores: [] };

/** The file of a context; its name is escaped so any context name (`arn:aws:eks:.../x`) is one safe file name. */
export function configFile(dataDir: string, context: string): string {
  return path.join(dataDir, 'diff', `${encodeURIComponent(context)}.json`);
}

export async function loadConfig(dataDir: string, context: string, log: (message: string) => void): Promise<StoredDiffConfig> {
  const file = configFile(dataDir, context);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log(`[kubedrift] diff settings ${file} could not be read: ${(error as Error).message}`);
    return { ...EMPTY_CONFIG };
  }
  try {
    const parsed = FileSchema.parse(JSON.parse(text));
    return { paths: parsed.paths, ignores: parsed.ignores };
  } catch (error) {
    const aside = `${file}.unreadable-${Date.now()}`;
    await rename(file, aside).catch(() => undefined);
    log(`[kubedrift] diff settings ${file} were not valid (${(error as Error).message.split('\n')[0]}); moved to ${aside}`);
    return { ...EMPTY_CONFIG };
  }
}

export async function saveConfig(dataDir: string, context: string, config: StoredDiffConfig): Promise<void> {
  const file = configFile(dataDir, context);
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ version: 1, ...config }, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}
