/**
 * Watches the manifest paths (folders recursively) and calls back once per burst of changes: an
 * editor's save is several events (write, rename, chmod) and `git checkout` is hundreds. A path
 * that cannot be watched (gone, inotify limit) is reported once and left unwatched.
 */
import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';

export const WATCH_DEBOUNCE_MS = 400;

export interface PathWatcher {
  stop(): void;
}

export async function watchPaths(paths: readonly string[], onChange: () => void, options: { debounceMs?: number; log?: (message: string) => void } = {}): Promise<PathWatcher> {
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const fire = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!stopped) onChange();
    }, debounceMs);
  };
  for (const target of paths) {
    const info = await stat(target).catch(() => undefined);
    if (!info) continue;
    try {
      const watcher = watch(target, { recursive: info.isDirectory(), persistent: false }, (_event, name) => {
        // Editors' swap and backup files are not manifests.
        if (name && /(^|\/)(\.#|#.*#$|.*~$|.*\.swp$|.*\.swx$)/.test(String(name))) return;
        fire();
      });
      watcher.on('error', (error) => options.log?.(`[kubedrift] stopped watching ${target}: ${error.message}`));
      watchers.push(watcher);
    } catch (error) {
      options.log?.(`[kubedrift] cannot watch ${target} for changes: ${(error as Error).message}`);
    }
  }
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
