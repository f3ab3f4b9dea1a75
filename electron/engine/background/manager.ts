/**
 * Background recording: one ContextRecorder for every chosen context that is not the selected
 * one. `reconcile` is called whenever the choice or the selection changes: a context that becomes
 * selected has its recorder stopped first (its store closed synchronously, everything queued
 * written) so the history feature can open the same file without recording twice; a context
 * switched away from gets its background recorder again. Used by the engine (app and
 * `kubedrift serve`) and by `kubedrift record` (no selection).
 */
import type { BackgroundContextStatus, BackgroundStatus } from '../../../shared/contracts/background.ts';
import type { SessionEnd } from '../history/coverage.ts';
import type { RetentionLimits } from '../history/retention.ts';
import { startContextRecorder, type ContextRecorder, type ContextRecorderOptions } from './context-recorder.ts';

export interface BackgroundRecordingOptions {
  dataDir: string;
  now(): number;
  log(message: string): void;
  /** The contexts chosen for background recording (Settings, or the CLI's flags). */
  chosen(): readonly string[];
  /** The selected context, recorded by the history feature instead; null when none. */
  selected(): string | null;
  /** Whether a context can be recorded at all (it exists and is a cluster, not a snapshot file). */
  recordable(context: string): boolean;
  clientConfig(context: string): Promise<object | undefined>;
  limits(): RetentionLimits;
  /** The history store setting (open-store.ts), read when a recorder opens its store. */
  store?(): string | undefined;
  /** Every status change, with the whole list. */
  onStatus(status: BackgroundStatus): void;
  /** Passed to every recorder (tests shorten timings; `kubedrift record` names its writer). */
  recorder?: Partial<Pick<ContextRecorderOptions, 'timing' | 'retryInitialMs' | 'retryMaxMs' | 'informers' | 'probe' | 'causesIntervalMs' | 'writerLabel' | 'writerTtlMs'>>;
}

export interface BackgroundRecording {
  /** Starts and stops recorders to match the choice and the selection now. */
  reconcile(): void;
  /** Reopens every running recorder's store (the store or takeover setting changed): each is stopped and started again. */
  reopen(): void;
  status(): BackgroundStatus;
  applyRetention(): void;
  /** Writes what every recorder has queued (tests, the CLI). */
  flush(): Promise<void>;
  /** Stops every recorder; history is flushed and closed. */
  dispose(): Promise<void>;
}

export function createBackgroundRecording(options: BackgroundRecordingOptions): BackgroundRecording {
  const recorders = new Map<string, ContextRecorder>();
  /** Recorders being stopped; a restart of the same context waits for its store to close. */
  const stopping = new Map<string, Promise<void>>();
  let disposed = false;

  function status(): BackgroundStatus {
    const selected = options.selected();
    const want = wanted();
    const contexts: BackgroundContextStatus[] = [...new Set(options.chosen())].map((context) => {
      const recorder = recorders.get(context);
      if (recorder) return recorder.status();
      const idle = { context, recordingSince: null, lastError: null, retryAt: null };
      if (context === selected) return { ...idle, state: 'selected' };
      // Being created, or waiting for its previous recorder's store to close.
      if (want.has(context)) return { ...idle, state: 'starting' };
      return { ...idle, state: 'retrying', lastError: { at: 0, message: 'this context is not in any kubeconfig file (or is an opened snapshot); it records once it is back' } };
    });
    return { contexts };
  }

  const publish = (): void => options.onStatus(status());

  function start(context: string): void {
    const begin = (): void => {
      if (disposed || recorders.has(context) || !wanted().has(context)) return;
      recorders.set(
        context,
        startContextRecorder({
          ...options.recorder,
          context,
          dataDir: options.dataDir,
          now: options.now,
          log: options.log,
          limits: options.limits,
          ...(options.store ? { store: options.store } : {}),
          clientConfig: () => options.clientConfig(context),
          onStatus: () => publish(),
        }),
      );
    };
    const pending = stopping.get(context);
    if (pending) void pending.then(begin);
    else begin();
  }

  function stop(context: string, reason: SessionEnd): void {
    const recorder = recorders.get(context);
    if (!recorder) return;
    recorders.delete(context);
    // recorder.stop() closes the store synchronously before its first await: the file is free now.
    const done = recorder.stop(reason).catch((error: unknown) => options.log(`[kubedrift] background ${context}: ${(error as Error).message}`));
    stopping.set(context, done);
    void done.then(() => {
      if (stopping.get(context) === done) stopping.delete(context);
    });
  }

  /**
   * Why a recorder no longer wanted stops, as its gap will read: selected (the history feature
   * records it now), turned off in Settings ("recording off", not "app closed"), or gone from
   * the kubeconfig files (the cluster cannot be reached: as a lost connection).
   */
  function stopReason(context: string): SessionEnd {
    if (context === options.selected()) return 'context-switched';
    return options.chosen().includes(context) ? 'connection-lost' : 'recording-off';
  }

  function wanted(): Set<string> {
    const selected = options.selected();
    return new Set(options.chosen().filter((context) => context !== selected && options.recordable(context)));
  }

  return {
    reconcile() {
      if (disposed) return;
      const want = wanted();
      for (const context of [...recorders.keys()]) if (!want.has(context)) stop(context, stopReason(context));
      for (const context of want) start(context);
      publish();
    },
    reopen() {
      if (disposed) return;
      // `start` waits for the store just closed, as a context switched back does.
      for (const context of [...recorders.keys()]) {
        stop(context, 'recording-off');
        start(context);
      }
      publish();
    },
    status,
    applyRetention() {
      for (const recorder of recorders.values()) recorder.applyRetention();
    },
    async flush() {
      await Promise.all([...recorders.values()].map((recorder) => recorder.flush()));
    },
    async dispose() {
      disposed = true;
      for (const context of [...recorders.keys()]) stop(context, 'app-closed');
      await Promise.all(stopping.values());
    },
  };
}
