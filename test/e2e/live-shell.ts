/**
 * The browser shell run in-process for end-to-end tests that must look inside it: the same
 * `startBrowserShell` as `kubedrift serve`, with the demo context's cluster supplied by the test
 * (so the test holds the simulator) and every `cluster:health` the engine publishes recorded.
 */
import type { ClusterHealth, KindHealth, KindHealthState } from '../../shared/cluster.ts';
import type { DemoCluster } from '../../electron/engine/engine.ts';
import type { FileDialogs } from '../../electron/engine/dialogs.ts';
import type { InformerTiming } from '../../electron/engine/live-cluster.ts';
import { packageVersion, RENDERER_DIR } from '../../electron/cli/paths.ts';
import { startBrowserShell, type BrowserShell } from '../../electron/web/shell.ts';

/** One `cluster:health` publication, with when the test process saw it. */
export interface HealthRecord {
  at: number;
  health: ClusterHealth;
}

/** The engine's health publications, in order. */
export class HealthHistory {
  readonly records: HealthRecord[] = [];

  /** A position to look from: `since(mark())` sees only what comes after. */
  mark(): number {
    return this.records.length;
  }

  since(mark: number): HealthRecord[] {
    return this.records.slice(mark);
  }

  /** Kind states published after `mark` that match. */
  kindsSince(mark: number, match: (kind: KindHealth) => boolean): KindHealth[] {
    return this.since(mark).flatMap((record) => record.health.kinds.filter(match));
  }

  /** Whether any kind was in `state` in a publication after `mark`. */
  sawState(mark: number, state: KindHealthState): boolean {
    return this.kindsSince(mark, (kind) => kind.state === state).length > 0;
  }
}

/** Options of `startLiveShell`. */
export interface LiveShellOptions {
  dataDir: string;
  /** A kubeconfig file (need not exist: then only the demo context is listed). */
  kubeconfig: string;
  /** Starts the cluster behind the demo context; the test keeps its handle. */
  demoCluster?: () => Promise<DemoCluster>;
  /** Informer watchdog and backoff (see EngineOptions.informers). */
  informers?: InformerTiming;
  /** Native dialogs as the desktop app lends them (faked), to drive the desktop-only paths. */
  dialogs?: FileDialogs;
  log?: (message: string) => void;
}

/** A running in-process shell and its health history. */
export interface LiveShell extends BrowserShell {
  readonly health: HealthHistory;
}

/** Starts the in-process browser shell on a free loopback port, serving the built renderer. */
export async function startLiveShell(options: LiveShellOptions): Promise<LiveShell> {
  const shell = await startBrowserShell({
    engine: {
      version: packageVersion(),
      dataDir: options.dataDir,
      kubeconfig: options.kubeconfig,
      homeDir: options.dataDir,
      env: {},
      loginShellPath: false,
      watchKubeconfig: false,
      log: options.log ?? (() => undefined),
      ...(options.demoCluster ? { demoCluster: options.demoCluster } : {}),
      ...(options.informers ? { informers: options.informers } : {}),
      ...(options.dialogs ? { dialogs: options.dialogs } : {}),
    },
    staticDir: process.env['KUBEDRIFT_TEST_RENDERER_DIR'] ?? RENDERER_DIR,
  });
  const health = new HealthHistory();
  const stop = shell.engine.hub.listen((stream, payload) => {
    if (stream === 'cluster:health') health.records.push({ at: Date.now(), health: payload as ClusterHealth });
  });
  return {
    ...shell,
    health,
    async close() {
      stop();
      await shell.close();
    },
  };
}
