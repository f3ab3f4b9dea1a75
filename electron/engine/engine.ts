/**
 * Composes the engine and implements the contract's handlers. Plain Node: no Electron here, so
 * the browser shell, the command line and the tests run exactly this.
 */
import os from 'node:os';
import { DEMO_DEV_CONTEXT, type AppInfo, type ConnectionStatus, type ContextInfo, type ContextList } from '../../shared/model.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import { ContextRegistry } from './cluster/contexts.ts';
import { diagnosticsSnapshot, prepareEnvironment } from './cluster/environment.ts';
import { KubeconfigWatcher } from './cluster/kubeconfig-watch.ts';
import type { PathDiagnostics } from '../../shared/diagnostics.ts';
import { probeServer } from './cluster/probe.ts';
import { createDispatcher, type Dispatcher, type Handlers } from './dispatcher.ts';
import { StreamHub } from './hub.ts';
import { LiveCluster, type CacheStamp, type InformerTiming } from './live-cluster.ts';
import { SettingsStore } from './settings.ts';
import type { SimCluster } from './simcluster/index.ts';
import type { EngineContext, ObjectsAt, SelectedContext } from './features.ts';
import { createHistoryFeature } from './history/index.ts';
import { createHistorySourcesFeature } from './history/sources/feature.ts';
import { createBackgroundFeature } from './background/feature.ts';
import { createGraphFeature } from './graph/index.ts';
import { createEventsFeature } from './events/index.ts';
import { createDiffFeature } from './diff/index.ts';
import { createSnapshotFeature } from './snapshot/index.ts';
import { createCausesFeature } from './causes/feature.ts';
import { createSurprisesFeature } from './surprises/feature.ts';
import { createTablesFeature } from './tables/index.ts';
import type { FileDialogs } from './dialogs.ts';

/** What the engine needs of the built-in demo cluster. */
export interface DemoCluster {
  kubeconfigObject(contextName?: string): object;
  /** The kubeconfig of a restricted demo user (the `kubedrift-demo-dev` context's "dev"). */
  userKubeconfigObject?(user: string, contextName?: string): object;
  stop(): Promise<void>;
}

/** The demo contexts that log in as a restricted user, and which user. */
const DEMO_USER_CONTEXTS: Readonly<Record<string, string>> = { [DEMO_DEV_CONTEXT]: 'dev' };

/** Starts the simulated cluster in-process for the demo contexts (loaded only when chosen). */
async function startDemoCluster(): Promise<DemoCluster> {
  const { startDemoWithDeveloper } = await import('./simcluster/demo-users.ts');
  // "dev" may read only shop and payments and list the namespaces, context namespace shop: a restricted user.
  const cluster: SimCluster = await startDemoWithDeveloper();
  return cluster;
}

export interface EngineOptions {
  version: string;
  dataDir: string;
  shell: AppInfo['shell'];
  /** `--kubeconfig FILE`: read only this file. */
  kubeconfig?: string | undefined;
  /** `--context NAME`: start on this context instead of the remembered one. */
  context?: string | undefined;
  env?: Record<string, string | undefined>;
  homeDir?: string;
  electronVersion?: string;
  now?: () => number;
  log?: (message: string) => void;
  /**
   * Adopt the login shell's PATH at start-up so exec credential plugins are found when the app
   * was started from a desktop launcher (default true; tests turn it off).
   */
  loginShellPath?: boolean;
  /** Watch the kubeconfig files and refresh the contexts when they change (default true). */
  watchKubeconfig?: boolean;
  /** How the demo context's cluster is started (default: the simulated cluster, in-process). */
  demoCluster?: () => Promise<DemoCluster>;
  /** Informer watchdog and backoff (defaults: 90 s silence, 0.5–10 s backoff; fault tests shorten them). */
  informers?: InformerTiming;
  /** The desktop app's native dialogs for exports, snapshots and diff paths (absent: downloads, uploads and typed paths). */
  dialogs?: FileDialogs;
}

export interface Engine extends Dispatcher {
  readonly hub: StreamHub;
  /** The browser shell hands in its slowest client's unsent bytes, to pace snapshots. */
  setFramesBacklog(backlog: () => number): void;
  /** The machine woke up: every watch is probably dead, restart them all now. */
  resume(): void;
  /**
   * Diagnostics and tests only (the consistency checker): the (kind, uid, resourceVersion) of
   * every object in the engine cache right now. Read-only; not part of the contract.
   */
  inspectCache(): CacheStamp[];
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export function createEngine(options: EngineOptions): Engine {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((message: string) => console.error(message));
  const hub = new StreamHub();
  const settings = new SettingsStore(options.dataDir);
  const registry = new ContextRegistry({
    explicit: options.kubeconfig,
    env: options.env ?? process.env,
    homeDir: options.homeDir ?? os.homedir(),
  });
  const startedAt = now();
  let connection: ConnectionStatus = { context: null, state: 'idle', since: startedAt };
  let connectSeq = 0;
  let disposed = false;
  let demo: Promise<DemoCluster> | undefined;
  let pathDiagnostics: PathDiagnostics = { value: process.env['PATH'] ?? '', source: 'inherited' };
  let kubeconfigWatcher: KubeconfigWatcher | undefined;
  const live = new LiveCluster({ hub, log, ...(options.informers ? { informers: options.informers } : {}) });

  /** The demo cluster starts on first use and stays up while the engine lives. */
  function demoCluster(): Promise<DemoCluster> {
    demo ??= (options.demoCluster ?? startDemoCluster)().catch((error: unknown) => {
      demo = undefined;
      throw error;
    });
    return demo;
  }

  async function clientConfigFor(name: string): Promise<object | undefined> {
    const info = registry.get(name);
    if (!info?.demo) return registry.clientConfig(name);
    const cluster = await demoCluster();
    const user = DEMO_USER_CONTEXTS[name];
    if (user === undefined) return cluster.kubeconfigObject(name);
    if (!cluster.userKubeconfigObject) throw new Error(`the demo cluster has no user "${user}" for context ${name}`);
    return cluster.userKubeconfigObject(user, name);
  }

  function setConnection(next: Omit<ConnectionStatus, 'since'>): void {
    connection = { ...next, since: now() };
    hub.emit('connection:changed', connection);
  }

  const contextListeners = new Set<(context: SelectedContext | null) => void>();
  function selectedContext(): SelectedContext | null {
    const name = registry.list().selected;
    const info = name ? registry.get(name) : undefined;
    if (!name || !info) return null;
    return { name, demo: info.demo, server: info.server, namespace: info.namespace, ...(info.snapshot ? { readOnly: true } : {}), ...(info.recordedBy ? { historyOnly: info.recordedBy } : {}) };
  }
  let objectsAtProvider: ObjectsAt | undefined;
  const context: EngineContext = {
    version: options.version,
    dataDir: options.dataDir,
    now,
    log,
    hub,
    settings,
    cache: live.cache,
    selected: selectedContext,
    onContextChange(listener) {
      contextListeners.add(listener);
      return () => contextListeners.delete(listener);
    },
    async clientConfig() {
      const name = registry.list().selected;
      return name ? clientConfigFor(name) : undefined;
    },
    objectsAt: (at) => (objectsAtProvider ? objectsAtProvider(at) : Promise.reject(new Error('History is not recorded in this build'))),
    provideObjectsAt(provider) {
      // The history feature's own past, or a history source's where only it observed the moment.
      objectsAtProvider = historySources.objectsAt(provider);
    },
  };
  const snapshots = createSnapshotFeature(context, {
    dialogs: options.dialogs,
    // Late-bound: the dispatcher is built from every feature's handlers below.
    request: (channel, payload) => dispatcher.dispatch(channel, payload) as never,
    contexts: {
      set(list) {
        snapshotContexts = list;
        setExtras();
      },
    },
  });
  // The contexts beside the kubeconfig's: opened snapshots, then those only a history source records.
  let snapshotContexts: readonly ContextInfo[] = [];
  let sourceContexts: readonly ContextInfo[] = [];
  function setExtras(): void {
    const before = registry.selectedName();
    registry.setExtraContexts([...snapshotContexts, ...sourceContexts.filter((context) => !snapshotContexts.some((snapshot) => snapshot.name === context.name))]);
    hub.emit('contexts:changed', contextList());
    const after = registry.selectedName();
    if (after && after !== before) void connect(after);
  }
  // Before the history feature: its context listener must run first (see background/feature.ts).
  const background = createBackgroundFeature(context, {
    recordable: (name) => registry.has(name) && !registry.get(name)?.snapshot && !registry.get(name)?.problem && !registry.get(name)?.recordedBy,
    selectedName: () => registry.selectedName(),
    clientConfig: (name) => clientConfigFor(name),
  });
  // Recorders' history merged into the selected context's timeline (history/sources/).
  const historySources = createHistorySourcesFeature(context, {
    onRecordedContexts(recorded) {
      // A cluster the kubeconfig has under another name is merged into that context's timeline, not listed twice.
      const servers = new Set(registry.list().contexts.filter((known) => !known.recordedBy && known.server).map((known) => known.server?.replace(/\/+$/, '').toLowerCase()));
      const next = recorded.filter((entry) => !entry.server || !servers.has(entry.server.replace(/\/+$/, '').toLowerCase())).map((entry): ContextInfo => ({ name: entry.name, cluster: entry.source, user: '', source: `history source ${entry.source}`, demo: false, recordedBy: entry.source, ...(entry.server ? { server: entry.server } : {}) }));
      if (JSON.stringify(next) === JSON.stringify(sourceContexts)) return;
      sourceContexts = next;
      setExtras();
    },
  });
  const features = [
    createHistoryFeature(context),
    createGraphFeature(context),
    createEventsFeature(context),
    createDiffFeature(context, { dialogs: options.dialogs }),
    snapshots,
    createCausesFeature(context),
    createSurprisesFeature(context),
    createTablesFeature(context, { kindOf: (key) => live.discoveryState().state?.kinds.find((entry) => entry.key === key) }),
    historySources,
  ] as const;

  async function connect(name: string): Promise<void> {
    const seq = ++connectSeq;
    const info = registry.get(name);
    if (!info) return;
    await live.reset(name);
    if (seq !== connectSeq || disposed) return;
    const selected = selectedContext();
    for (const listener of [...contextListeners]) {
      try {
        listener(selected);
      } catch (error) {
        log(`[kubedrift] context listener failed: ${(error as Error).message}`);
      }
    }
    if (info.snapshot) {
      const isCurrent = () => seq === connectSeq && !disposed;
      return snapshots.connect(name, { load: (objects, since, kinds) => live.loadStatic(objects, since, kinds), isCurrent, setConnection: (next) => isCurrent() && setConnection(next) });
    }
    if (info.recordedBy) {
      setConnection({ context: name, state: 'error', message: `No kubeconfig context: ${name} is only recorded by history source ${info.recordedBy}, so the timeline shows its history and there is no live view.` });
      return;
    }
    if (info.problem) {
      setConnection({ context: name, state: 'error', message: info.problem });
      return;
    }
    const base = info.server ? { server: info.server } : {};
    setConnection({ context: name, state: 'connecting', ...base });
    let config: object | undefined;
    try {
      config = await clientConfigFor(name);
    } catch (error) {
      if (seq !== connectSeq || disposed) return;
      setConnection({ context: name, state: 'error', message: `The demo cluster could not start: ${(error as Error).message}` });
      return;
    }
    if (!config || seq !== connectSeq || disposed) return;
    const outcome = await probeServer(config);
    if (seq !== connectSeq || disposed) return;
    if (outcome.ok) {
      setConnection({ context: name, state: 'connected', server: outcome.server, serverVersion: outcome.version });
      // This context's exclusions (Settings), before its informers start: an excluded kind opens no watch.
      live.setExclusions(settings.exclusionsFor(name));
      // And its hand-added namespaces (Cluster screen), a source of namespaces for the first access check.
      await live.setAccessibleNamespaces(settings.accessibleNamespacesFor(name));
      await live.watch(config);
    } else {
      const detail = outcome.error.detail ? ` (${outcome.error.detail})` : '';
      setConnection({ context: name, state: 'error', server: outcome.server, message: `${outcome.error.message}${detail}` });
    }
  }

  function contextList(): ContextList {
    return registry.list();
  }

  async function selectContext(name: string): Promise<Result<ContextList>> {
    if (!registry.has(name)) return err('not-found', `There is no context named "${name}"`);
    registry.select(name);
    await settings.update({ lastContext: name });
    const list = contextList();
    hub.emit('contexts:changed', list);
    void connect(name);
    return ok(list);
  }

  const handlers: Handlers = {
    'app:info': () =>
      ok({
        name: 'Kubedrift',
        version: options.version,
        platform: process.platform,
        runtime: options.electronVersion
          ? { node: process.versions.node, electron: options.electronVersion }
          : { node: process.versions.node },
        shell: options.shell,
        dataDir: options.dataDir,
        startedAt,
      }),
    'contexts:list': () => ok(contextList()),
    'contexts:select': ({ name }) => selectContext(name),
    'connection:status': () => ok(connection),
    'diagnostics:get': () => ok(diagnosticsSnapshot({ path: pathDiagnostics, registry })),
    'cluster:resync': ({ reason }) => ok(live.resync(reason)),
    'cluster:health': () => ok(live.health()),
    'cluster:discovery': () => ok(live.discoveryState()),
    'cluster:access': () => ok(live.accessState()),
    'cluster:access-recheck': async () => ok(await live.recheckAccess()),
    'settings:get': () => ok(settings.get()),
    'settings:update': async (patch) => {
      const next = await settings.apply(patch);
      // The selected context's exclusions changed: informers of newly excluded kinds stop, re-included ones start.
      const excluded = patch.kindExclusions?.context;
      if (excluded !== undefined && excluded === registry.selectedName()) live.setExclusions(settings.exclusionsFor(excluded));
      // The selected context's hand-added namespaces changed: access is checked again (the outcome comes on cluster:access).
      const added = patch.accessibleNamespaces?.context;
      if (added !== undefined && added === registry.selectedName()) {
        live.setAccessibleNamespaces(settings.accessibleNamespacesFor(added)).catch((error: unknown) => log(`[kubedrift] access check failed: ${(error as Error).message}`));
      }
      hub.emit('settings:changed', next);
      return ok(next);
    },
    ...historySources.merged(snapshots.historyHandlers(features[0].handlers)),
    ...historySources.handlers,
    ...background.handlers,
    ...features[1].handlers,
    ...features[2].handlers,
    ...features[3].handlers,
    ...features[4].handlers,
    ...features[5].handlers,
    ...features[6].handlers,
    ...features[7].handlers,
  };
  const dispatcher = createDispatcher(handlers, { log });

  return {
    hub,
    dispatch: dispatcher.dispatch,
    setFramesBacklog: (backlog) => live.setBacklog(backlog),
    resume: () => live.restartAll('system resume'),
    inspectCache: () => live.stamps(),
    async start() {
      const [warning, resolvedPath] = await Promise.all([
        settings.load(),
        options.loginShellPath === false ? Promise.resolve(undefined) : prepareEnvironment(),
        registry.reload(),
      ]);
      if (warning) log(`[kubedrift] ${warning}`);
      if (resolvedPath) pathDiagnostics = resolvedPath;
      for (const feature of features) await feature.start?.();
      if (options.watchKubeconfig !== false) {
        kubeconfigWatcher = new KubeconfigWatcher({
          registry,
          log,
          onChange: ({ list, previousSelection }) => {
            hub.emit('contexts:changed', list);
            background.contextsChanged();
            if (list.selected && list.selected !== previousSelection) void connect(list.selected);
          },
        });
        kubeconfigWatcher.start();
      }
      const initial = registry.chooseInitial([options.context, settings.get().lastContext]);
      if (options.context && initial !== options.context) {
        log(`[kubedrift] context "${options.context}" was not found; showing "${initial}"`);
      }
      registry.select(initial);
      hub.emit('contexts:changed', contextList());
      background.start();
      void connect(initial);
    },
    async dispose() {
      disposed = true;
      kubeconfigWatcher?.stop();
      await live.stop();
      await background.dispose();
      for (const feature of features) {
        await Promise.resolve(feature.dispose()).catch((error: unknown) => log(`[kubedrift] ${(error as Error).message}`));
      }
      const running = demo;
      demo = undefined;
      if (running) await running.then((cluster) => cluster.stop()).catch(() => undefined);
    },
  };
}
