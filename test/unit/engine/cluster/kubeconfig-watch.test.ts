import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContextRegistry } from '../../../../electron/engine/cluster/contexts.ts';
import { KubeconfigWatcher, watchTargets, type KubeconfigChange } from '../../../../electron/engine/cluster/kubeconfig-watch.ts';
import { DEMO_CONTEXT, DEMO_CONTEXTS } from '../../../../shared/model.ts';
import { kubeconfigYaml, writeKubeconfig, type FixtureContext } from '../../../helpers/kubeconfig.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const DEBOUNCE_MS = 40;
const WAIT = { timeout: 5_000, interval: 20 };

let dir: string;
let cleanup: () => Promise<void>;
let watcher: KubeconfigWatcher | undefined;

beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => {
  watcher?.stop();
  watcher = undefined;
  await cleanup();
});

function ctx(name: string): FixtureContext {
  return { name, server: `https://${name}.example:6443` };
}

async function startWatching(env: Record<string, string>, select?: string, homeDir = dir) {
  const registry = new ContextRegistry({ env, homeDir });
  await registry.reload();
  if (select) registry.select(select);
  const changes: KubeconfigChange[] = [];
  watcher = new KubeconfigWatcher({ registry, onChange: (change) => changes.push(change), debounceMs: DEBOUNCE_MS, log: () => undefined });
  watcher.start();
  const last = (): KubeconfigChange => {
    const change = changes.at(-1);
    if (!change) throw new Error('no change reported yet');
    return change;
  };
  const names = () => last().list.contexts.map((c) => c.name);
  return { registry, changes, last, names };
}

describe('KubeconfigWatcher', () => {
  it('reports the new context list after an in-place edit, an editor-style rename and a later edit', async () => {
    const file = await writeKubeconfig(dir, 'config', [ctx('alpha')]);
    const { last, names } = await startWatching({ KUBECONFIG: file }, 'alpha');

    await writeFile(file, kubeconfigYaml([ctx('alpha'), ctx('beta')], 'alpha'));
    await vi.waitFor(() => expect(names()).toEqual(['alpha', 'beta', ...DEMO_CONTEXTS]), WAIT);

    // Editors write a temporary file and rename it over the original: a new inode.
    await writeFile(`${file}.tmp`, kubeconfigYaml([ctx('gamma')], 'gamma'));
    await rename(`${file}.tmp`, file);
    await vi.waitFor(() => expect(names()).toEqual(['gamma', ...DEMO_CONTEXTS]), WAIT);
    expect(last().previousSelection).toBe('alpha');
    expect(last().list.selected).toBe('gamma');

    // The watch follows the replacement, so the next edit is seen too.
    await writeFile(file, kubeconfigYaml([ctx('gamma'), ctx('delta')], 'gamma'));
    await vi.waitFor(() => expect(names()).toEqual(['delta', 'gamma', ...DEMO_CONTEXTS]), WAIT);
    expect(last().list.selected).toBe('gamma');
  });

  it('marks a deleted file missing, drops its contexts and moves the selection off them', async () => {
    const first = await writeKubeconfig(dir, 'first', [ctx('alpha')], 'alpha');
    const second = await writeKubeconfig(dir, 'second', [ctx('beta')]);
    const { last, names } = await startWatching({ KUBECONFIG: `${first}:${second}` }, 'beta');

    await rm(second);
    await vi.waitFor(() => expect(names()).toEqual(['alpha', ...DEMO_CONTEXTS]), WAIT);
    expect(last().list.sources).toEqual([
      { path: first, state: 'loaded' },
      { path: second, state: 'missing', message: 'not found (skipped)' },
    ]);
    expect(last().previousSelection).toBe('beta');
    expect(last().list.selected).toBe('alpha');

    // The folder watch still sees the file come back.
    await writeKubeconfig(dir, 'second', [ctx('beta')]);
    await vi.waitFor(() => expect(names()).toEqual(['alpha', 'beta', ...DEMO_CONTEXTS]), WAIT);
  });

  it('falls back to the demo context when the only file goes away', async () => {
    const file = await writeKubeconfig(dir, 'config', [ctx('alpha')]);
    const { last } = await startWatching({ KUBECONFIG: file }, 'alpha');
    await rm(file);
    await vi.waitFor(() => expect(last().list.selected).toBe(DEMO_CONTEXT), WAIT);
    expect(last().list.contexts.map((c) => c.name)).toEqual([...DEMO_CONTEXTS]);
  });

  it('shows a broken edit with its line and keeps the contexts of the other files', async () => {
    const first = await writeKubeconfig(dir, 'first', [ctx('alpha')], 'alpha');
    const second = await writeKubeconfig(dir, 'second', [ctx('beta')]);
    const { last, names } = await startWatching({ KUBECONFIG: `${first}:${second}` }, 'alpha');

    const valid = kubeconfigYaml([ctx('beta'), ctx('gamma')]);
    const brokenLine = valid.split('\n').length;
    // A typo on the last line: a missing newline and indent between two keys.
    await writeFile(second, `${valid}preferences: colors: true\n`);
    await vi.waitFor(() => expect(last().list.sources[1]?.state).toBe('error'), WAIT);
    expect(last().list.sources[1]).toMatchObject({ path: second, message: expect.stringMatching(/invalid YAML/) });
    expect(last().list.sources[1]?.line).toBe(brokenLine);
    expect(names()).toEqual(['alpha', ...DEMO_CONTEXTS]);
    expect(last().list.selected).toBe('alpha');
  });

  it('picks up ~/.kube/config when a tool creates it, folder and all, after the start', async () => {
    const home = path.join(dir, 'home');
    await mkdir(home);
    const { names, registry } = await startWatching({}, undefined, home);
    expect(registry.list().sources).toMatchObject([{ path: path.join(home, '.kube', 'config'), state: 'missing' }]);

    await mkdir(path.join(home, '.kube'));
    await writeKubeconfig(path.join(home, '.kube'), 'config', [ctx('kind-dev')]);
    await vi.waitFor(() => expect(names()).toEqual(['kind-dev', ...DEMO_CONTEXTS]), WAIT);
  });

  it('re-reads only for events about the kubeconfig files, once per burst', async () => {
    const file = await writeKubeconfig(dir, 'config', [ctx('alpha')]);
    const registry = new ContextRegistry({ env: { KUBECONFIG: file }, homeDir: dir });
    await registry.reload();
    const listeners = new Map<string, (event: string, filename: string | null) => void>();
    const timers: Array<() => void> = [];
    const changes: KubeconfigChange[] = [];
    watcher = new KubeconfigWatcher({
      registry,
      onChange: (change) => changes.push(change),
      watch: (target, listener) => {
        listeners.set(target, listener);
        return fsWatch(target, { persistent: false }, () => undefined);
      },
      setTimeout: (callback) => {
        timers.push(callback);
        return setTimeout(() => undefined, 0);
      },
      clearTimeout: () => timers.pop(),
    });
    watcher.start();
    const folder = listeners.get(dir);
    expect(folder).toBeDefined();
    folder?.('change', 'unrelated.txt');
    folder?.('rename', '.config.swp');
    expect(timers).toHaveLength(0);
    folder?.('rename', 'config');
    folder?.('change', 'config');
    listeners.get(file)?.('change', 'config');
    expect(timers).toHaveLength(1);
    await writeFile(file, kubeconfigYaml([ctx('beta')]));
    timers.pop()?.();
    await vi.waitFor(() => expect(changes).toHaveLength(1), WAIT);
    expect(changes[0]?.list.contexts.map((c) => c.name)).toEqual(['beta', ...DEMO_CONTEXTS]);
  });

  it('closes every watcher it opened when stopped', async () => {
    const first = await writeKubeconfig(dir, 'first', [ctx('alpha')]);
    const missingFolder = path.join(dir, 'later', 'config');
    const registry = new ContextRegistry({ env: { KUBECONFIG: `${first}:${missingFolder}` }, homeDir: dir });
    await registry.reload();
    const open = new Set<FSWatcher>();
    let opened = 0;
    const changes: KubeconfigChange[] = [];
    watcher = new KubeconfigWatcher({
      registry,
      debounceMs: DEBOUNCE_MS,
      onChange: (change) => changes.push(change),
      watch: (target, listener) => {
        const real = fsWatch(target, { persistent: false }, listener);
        opened += 1;
        open.add(real);
        real.on('close', () => open.delete(real));
        return real;
      },
    });
    watcher.start();
    expect(open.size).toBe(2); // the file, and the folder holding both paths' nearest existing parts
    await writeFile(first, kubeconfigYaml([ctx('beta')]));
    await vi.waitFor(() => expect(changes).toHaveLength(1), WAIT);
    expect(opened).toBeGreaterThan(2); // re-armed after the re-read
    watcher.stop();
    await vi.waitFor(() => expect(open.size).toBe(0), WAIT);
  });
});

describe('watchTargets', () => {
  it('watches each existing file and the nearest existing folder towards each path', () => {
    const existing = new Set(['/', '/home', '/home/u', '/home/u/.kube', '/home/u/.kube/config']);
    const targets = watchTargets(['/home/u/.kube/config', '/home/u/new/deep/config'], (p) => existing.has(p));
    expect(targets.map((t) => ({ dir: t.dir, names: t.names && [...t.names] }))).toEqual([
      { dir: '/home/u/.kube/config', names: null },
      { dir: '/home/u/.kube', names: ['config'] },
      { dir: '/home/u', names: ['new'] },
    ]);
  });
});
