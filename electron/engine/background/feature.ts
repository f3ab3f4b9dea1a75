/**
 * The engine's side of background recording: follows Settings (`backgroundContexts`, retention)
 * and the selected context, answers `history:background` and publishes it on the stream of the
 * same name. The engine registers `onContextChange` before the history feature does, so a
 * context's background store is closed before the history feature opens it.
 */
import type { BackgroundStatus } from '../../../shared/contracts/background.ts';
import { ok, type Result } from '../../../shared/result.ts';
import type { EngineContext } from '../features.ts';
import { retentionLimits } from '../history/index.ts';
import { namesSharedStore, writerTtlOf } from '../history/open-store.ts';
import { createBackgroundRecording, type BackgroundRecordingOptions } from './manager.ts';

export interface BackgroundFeatureOptions {
  /** Whether a context exists and is a cluster (not an opened snapshot). */
  recordable(context: string): boolean;
  /** The selected context's name, as the registry has it (set before the context listeners run). */
  selectedName(): string | null;
  clientConfig(context: string): Promise<object | undefined>;
  recorder?: BackgroundRecordingOptions['recorder'];
}

export function createBackgroundFeature(context: EngineContext, options: BackgroundFeatureOptions) {
  let started = false;
  const storeSettings = () => {
    const settings = context.settings.get();
    return { store: settings.historyStore ?? '', takeover: settings.historyTakeoverSeconds };
  };
  const recording = createBackgroundRecording({
    dataDir: context.dataDir,
    now: context.now,
    log: context.log,
    chosen: () => context.settings.get().backgroundContexts ?? [],
    selected: options.selectedName,
    recordable: options.recordable,
    clientConfig: options.clientConfig,
    limits: () => retentionLimits(context.settings.get()),
    store: () => context.settings.get().historyStore,
    onStatus: (status) => context.hub.emit('history:background', status),
    // The takeover time is read when a recorder opens its store (tests may set their own); a change reopens them.
    recorder: { writerTtlMs: () => writerTtlOf(context.settings.get().historyTakeoverSeconds), ...options.recorder },
  });
  /** The store settings the running recorders opened with. */
  let opened = storeSettings();
  const stops = [
    context.onContextChange(() => started && recording.reconcile()),
    context.hub.listen((stream) => {
      if (stream !== 'settings:changed' || !started) return;
      // The choice may have changed (start or stop recorders), or the retention limits.
      recording.reconcile();
      // Another store (the shared database, or back to the file alone), or another takeover time
      // for a shared one: the recorders reopen theirs, as the selected context's store does.
      const next = storeSettings();
      const reopen = next.store !== opened.store || (next.takeover !== opened.takeover && namesSharedStore(next.store));
      opened = next;
      if (reopen) recording.reopen();
      recording.applyRetention();
    }),
  ];

  return {
    handlers: {
      'history:background': (): Result<BackgroundStatus> => ok(recording.status()),
    },
    /** After the initial context is selected (so it is not recorded twice from the start). */
    start(): void {
      started = true;
      opened = storeSettings();
      recording.reconcile();
    },
    /** The kubeconfig files changed: contexts may have appeared or gone. */
    contextsChanged(): void {
      if (started) recording.reconcile();
    },
    flush: () => recording.flush(),
    async dispose(): Promise<void> {
      for (const stop of stops) stop();
      await recording.dispose();
    },
  };
}
