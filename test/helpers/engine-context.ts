/**
 * A fake EngineContext for engine feature tests: a real ObjectCache and StreamHub, an injected
 * clock, no history, and a context switch that behaves like the engine's (cache cleared silently,
 * then the listeners), so a feature runs as it does in the engine without the engine around it.
 */
import type { StreamChannel, StreamPayload } from '../../shared/contract.ts';
import type { EngineContext, SelectedContext } from '../../electron/engine/features.ts';
import { StreamHub } from '../../electron/engine/hub.ts';
import type { SettingsStore } from '../../electron/engine/settings.ts';
import { ObjectCache } from '../../electron/engine/stream/cache.ts';

/** Options of `fakeEngineContext`. */
export interface FakeEngineContextOptions {
  /** The engine's clock; default `Date.now()` at each call (so fake timers move it). */
  now?: () => number;
  /** Default a path that does not exist: a feature that writes must be given a real one. */
  dataDir?: string;
  /** Default none: a feature that reads settings must be given a store. */
  settings?: SettingsStore;
  /** The context selected at the start; default `kind-dev` (null: none yet). */
  selected?: SelectedContext | null;
  /** The client configuration of the selected context; default none. */
  clientConfig?: (selected: SelectedContext | null) => object | undefined;
}

/** The fake context and handles on what is behind it. */
export interface FakeEngineContext {
  readonly context: EngineContext;
  readonly cache: ObjectCache;
  readonly hub: StreamHub;
  /** Selects `name` (null: none) as the engine does: the cache cleared, then the listeners told. */
  switchTo(name: string | null, extra?: Partial<Omit<SelectedContext, 'name'>>): void;
  /** Every payload emitted on `stream` from now on, in order. */
  collect<S extends StreamChannel>(stream: S): Array<StreamPayload<S>>;
}

export function fakeEngineContext(options: FakeEngineContextOptions = {}): FakeEngineContext {
  const cache = new ObjectCache();
  const hub = new StreamHub();
  const listeners = new Set<(context: SelectedContext | null) => void>();
  let selected: SelectedContext | null = options.selected === undefined ? { name: 'kind-dev', demo: false } : options.selected;
  const context: EngineContext = {
    version: 'test',
    dataDir: options.dataDir ?? '/nonexistent',
    now: options.now ?? (() => Date.now()),
    log: () => {},
    hub,
    settings: options.settings ?? (undefined as unknown as SettingsStore),
    cache,
    selected: () => selected,
    onContextChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clientConfig: () => Promise.resolve(options.clientConfig?.(selected)),
    objectsAt: () => Promise.reject(new Error('no history in this test')),
    provideObjectsAt: () => {},
  };
  return {
    context,
    cache,
    hub,
    switchTo(name, extra = {}) {
      cache.clear();
      selected = name === null ? null : { demo: false, ...extra, name };
      for (const listener of listeners) listener(selected);
    },
    collect(stream) {
      const payloads: Array<StreamPayload<typeof stream>> = [];
      hub.listen((emitted, payload) => {
        if (emitted === stream) payloads.push(payload as StreamPayload<typeof stream>);
      });
      return payloads;
    },
  };
}
