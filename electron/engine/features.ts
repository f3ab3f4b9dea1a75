/**
 * What the engine's features (history, graph, events, diff, snapshot) get from the engine, and
 * what each gives back: the handlers of its contract channels and a way to stop. Features read
 * the live cache and react to context switches; they never reach into each other directly —
 * what one offers another (the state at a past time) goes through this context.
 */
import type { z } from 'zod';
import type { SlimObject } from '../../shared/cluster.ts';
import type { RequestChannel } from '../../shared/contract.ts';
import type { Handler } from './dispatcher.ts';
import type { StreamHub } from './hub.ts';
import type { SettingsStore } from './settings.ts';
import type { ObjectCache } from './stream/cache.ts';

/** The selected context as features see it. */
export interface SelectedContext {
  name: string;
  /** The built-in simulated cluster's context. */
  demo: boolean;
  /** The API server URL, when the kubeconfig names one. */
  server?: string | undefined;
  /** The context's default namespace from the kubeconfig, if any. */
  namespace?: string | undefined;
  /** An opened snapshot file (engine/snapshot/): offline, nothing to record, change or diff. */
  readOnly?: boolean | undefined;
  /** A context only a history source records (its name): no cluster to reach, its history comes from the source. */
  historyOnly?: string | undefined;
}

/** Rebuilds the cluster's objects as they were at a past time (ms since the epoch). */
export type ObjectsAt = (at: number) => Promise<{ objects: SlimObject[]; at: number }>;

export interface EngineContext {
  readonly version: string;
  readonly dataDir: string;
  now(): number;
  log(message: string): void;
  readonly hub: StreamHub;
  readonly settings: SettingsStore;
  /** The selected context's live objects (slim). Cleared silently on a context switch. */
  readonly cache: ObjectCache;
  /** The selected context, or null before one is chosen. */
  selected(): SelectedContext | null;
  /**
   * Runs after every context switch, once the cache has been cleared for the new context and
   * before its informers fill it (so a listener sees the new context's objects arrive).
   */
  onContextChange(listener: (context: SelectedContext | null) => void): () => void;
  /**
   * The client configuration (a kubeconfig object for client-node with only the selected context)
   * that the informers use; starts the demo cluster when the demo context is selected.
   */
  clientConfig(): Promise<object | undefined>;
  /** The cluster's objects at a past time; rejects when no history feature provides it. */
  objectsAt: ObjectsAt;
  /** The history feature offers `objectsAt` through this. */
  provideObjectsAt(provider: ObjectsAt): void;
}

/** The handlers of a subset of the contract's channels. */
export type FeatureHandlers<M> = { [C in keyof M & RequestChannel]: Handler<C> };

export interface Feature<M extends Record<string, { request: z.ZodType; response: z.ZodType }>> {
  handlers: FeatureHandlers<M>;
  /** Called once the engine has loaded settings and before the first context connects. */
  start?(): Promise<void> | void;
  dispose(): Promise<void> | void;
}
