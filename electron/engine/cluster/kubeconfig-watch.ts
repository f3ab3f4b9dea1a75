/**
 * Keeps the context list in step with the kubeconfig files on disk. Editors save by writing a
 * temporary file and renaming it over the old one, tools (`kind`, `gcloud`, `aws eks
 * update-kubeconfig`) create `~/.kube/config` long after the app started, and users delete files;
 * so each file's directory is watched as well as the file (the file watch catches edits through
 * a symlink, the directory watch catches replacement, deletion and creation). A file whose
 * directory does not exist yet is caught by watching the nearest ancestor that does.
 */
import { existsSync, watch as fsWatch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { ContextList } from '../../../shared/model.ts';
import type { ContextRegistry } from './contexts.ts';

/** Editors touch a file several times per save; one re-read per burst. */
export const KUBECONFIG_DEBOUNCE_MS = 300;

/** What the watcher tells the engine after it re-read the files. */
export interface KubeconfigChange {
  list: ContextList;
  /** The selection before the re-read; differs from `list.selected` when it had to fall back. */
  previousSelection: string | null;
}

export interface KubeconfigWatcherOptions {
  registry: Pick<ContextRegistry, 'paths' | 'reload' | 'list' | 'selectedName'>;
  onChange: (change: KubeconfigChange) => void;
  debounceMs?: number;
  /** Defaults to node:fs `watch`; tests pass a wrapper to see every watcher opened and closed. */
  watch?: (target: string, listener: (event: string, filename: string | Buffer | null) => void) => FSWatcher;
  setTimeout?: (callback: () => void, ms: number) => NodeJS.Timeout;
  clearTimeout?: (handle: NodeJS.Timeout) => void;
  log?: (message: string) => void;
}

/** One thing to watch and the entry names inside it that matter (null: any event matters). */
interface Target {
  dir: string;
  names: Set<string> | null;
}

/**
 * The targets for a set of files: each existing file itself, and for each file the nearest
 * existing directory on its path, filtered to the name that leads towards the file.
 */
export function watchTargets(files: readonly string[], exists: (file: string) => boolean = existsSync): Target[] {
  const targets = new Map<string, Target>();
  for (const file of files) {
    if (exists(file)) targets.set(`file:${file}`, { dir: file, names: null });
    let child = file;
    let parent = path.dirname(file);
    while (parent !== child && !exists(parent)) {
      child = parent;
      parent = path.dirname(parent);
    }
    if (parent === child) continue;
    const key = `dir:${parent}`;
    const target = targets.get(key) ?? { dir: parent, names: new Set<string>() };
    target.names?.add(path.basename(child));
    targets.set(key, target);
  }
  return [...targets.values()];
}

export class KubeconfigWatcher {
  private readonly options: KubeconfigWatcherOptions;
  private readonly debounceMs: number;
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(options: KubeconfigWatcherOptions) {
    this.options = options;
    this.debounceMs = options.debounceMs ?? KUBECONFIG_DEBOUNCE_MS;
  }

  /** Starts watching the registry's files; the caller has already done the first `reload()`. */
  start(): void {
    this.stopped = false;
    this.arm();
  }

  /** Closes every watcher and drops any pending re-read; no callback arrives after this. */
  stop(): void {
    this.stopped = true;
    if (this.timer) (this.options.clearTimeout ?? clearTimeout)(this.timer);
    this.timer = undefined;
    this.disarm();
  }

  private log(message: string): void {
    (this.options.log ?? ((text: string) => console.error(text)))(`[kubedrift] ${message}`);
  }

  private disarm(): void {
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
  }

  /** Re-opens the watchers from scratch: a replaced file is a new inode, a created folder a new place to look. */
  private arm(): void {
    this.disarm();
    const watch = this.options.watch ?? ((target, listener) => fsWatch(target, { persistent: false }, listener));
    for (const target of watchTargets(this.options.registry.paths())) {
      let watcher: FSWatcher;
      try {
        watcher = watch(target.dir, (_event, filename) => {
          const name = filename === null ? null : filename.toString();
          if (target.names === null || name === null || target.names.has(name)) this.schedule();
        });
      } catch (error) {
        // Gone between the existence check and the watch: the next re-read re-arms.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') this.log(`cannot watch ${target.dir}: ${code ?? String(error)}`);
        continue;
      }
      // A watched file that vanishes can end its watcher with an error; the directory watch
      // reports the same change, so schedule a re-read rather than fail.
      watcher.on('error', () => this.schedule());
      this.watchers.push(watcher);
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    const clear = this.options.clearTimeout ?? clearTimeout;
    const set = this.options.setTimeout ?? setTimeout;
    if (this.timer) clear(this.timer);
    this.timer = set(() => {
      this.timer = undefined;
      void this.refresh();
    }, this.debounceMs);
  }

  /** One re-read at a time; a change during a re-read leads to one more right after. */
  private async refresh(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return;
    }
    this.reloading = this.reloadOnce();
    try {
      await this.reloading;
    } finally {
      this.reloading = null;
    }
    if (this.again && !this.stopped) {
      this.again = false;
      await this.refresh();
    }
  }

  private async reloadOnce(): Promise<void> {
    // Watch first, read second: a change landing in between is either read now or reported later.
    this.arm();
    const previousSelection = this.options.registry.selectedName();
    await this.options.registry.reload();
    if (this.stopped) return;
    try {
      this.options.onChange({ list: this.options.registry.list(), previousSelection });
    } catch (error) {
      this.log(`kubeconfig change handler failed: ${(error as Error).message}`);
    }
  }
}
