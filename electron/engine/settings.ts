/**
 * User settings persisted as one JSON file in the data directory. Writes go to a temporary file
 * that is renamed into place, so a crash never leaves half a file; an unreadable file falls back
 * to the defaults and is reported, never thrown.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applySettingsUpdate, type SettingsUpdate } from '../../shared/contracts/settings.ts';
import { DEFAULT_KIND_EXCLUSIONS, type KindExclusionList } from '../../shared/kind-exclusions.ts';
import { SettingsSchema, type Settings } from '../../shared/model.ts';

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  lastContext: null,
  historyRecording: true,
  historyRetentionDays: 14,
  historyMaxBytes: 1024 ** 3,
  updateChecks: true,
};

export class SettingsStore {
  private readonly file: string;
  private current: Settings = { ...DEFAULT_SETTINGS };
  private writing: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'settings.json');
  }

  /** Loads the file; returns a warning when it existed but could not be used. */
  async load(): Promise<string | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return `Settings file ${this.file} could not be read: ${(error as Error).message}`;
    }
    try {
      const parsed = SettingsSchema.partial().safeParse(JSON.parse(text));
      if (!parsed.success) return `Settings file ${this.file} has unexpected content; defaults are used`;
      this.current = { ...DEFAULT_SETTINGS, ...parsed.data };
      return undefined;
    } catch {
      return `Settings file ${this.file} is not valid JSON; defaults are used`;
    }
  }

  get(): Settings {
    return { ...this.current };
  }

  /** A context's kind exclusion rules: its own once set in Settings, else the defaults. */
  exclusionsFor(context: string): KindExclusionList {
    return this.current.kindExclusions?.[context] ?? DEFAULT_KIND_EXCLUSIONS;
  }

  /** The namespaces the user added by hand for a context (none until added on the Cluster screen). */
  accessibleNamespacesFor(context: string): readonly string[] {
    return this.current.accessibleNamespaces?.[context] ?? [];
  }

  /**
   * Applies a `settings:update`: preferences replace theirs, `kindExclusions` replaces one
   * context's rules (or, with null rules, forgets them so the defaults apply again),
   * `accessibleNamespaces` replaces one context's hand-added namespaces (an empty list forgets them).
   */
  apply(update: SettingsUpdate): Promise<Settings> {
    return this.update(applySettingsUpdate(this.current, update));
  }

  async update(patch: Partial<Settings>): Promise<Settings> {
    this.current = { ...this.current, ...patch };
    const snapshot = JSON.stringify(this.current, null, 2);
    this.writing = this.writing.then(() => this.write(snapshot));
    await this.writing;
    return this.get();
  }

  private async write(text: string): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    await writeFile(temp, text, 'utf8');
    await rename(temp, this.file);
  }
}
