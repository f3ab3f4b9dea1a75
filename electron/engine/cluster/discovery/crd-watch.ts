/**
 * The CRD watch that keeps discovery fresh: a reflector on customresourcedefinitions (its own
 * cache, never the object cache the renderer sees) whose every change goes to the registry's
 * `onCrdEvent`, which debounces a discovery refresh. A relist emits only what changed, and a
 * CRD gone while the watch was down comes back as its deletion.
 */
import { DEFAULT_BACKOFF, systemClock, type Clock } from '../informers/timing.ts';
import type { ResourceEndpoint } from '../informers/discovery.ts';
import { HealthBoard } from '../informers/health.ts';
import type { Transport } from '../informers/http.ts';
import { createInlineDecoder } from '../informers/list-decoder.ts';
import { DEFAULT_WATCHDOG_MS, Reflector } from '../informers/reflector.ts';
import { ObjectCache } from '../../stream/cache.ts';
import type { CrdEvent } from './crd-info.ts';

/** The kind key of CustomResourceDefinitions. */
export const CRD_KEY = 'customresourcedefinitions.apiextensions.k8s.io';

const CRD_ENDPOINT: ResourceEndpoint = {
  kind: CRD_KEY,
  objectKind: 'CustomResourceDefinition',
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  apiVersion: 'apiextensions.k8s.io/v1',
  namespaced: false,
  path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
};

/** CRD lists are few and small: a page of them is decoded on the calling thread. */
const CRD_PAGE_SIZE = 250;

export interface CrdWatchOptions {
  transport: Transport;
  /** Told of every CRD added, changed or removed. */
  onEvent: (event: CrdEvent) => void;
  clock?: Clock;
  log?: (message: string) => void;
}

/** A running CRD watch; `stop` aborts its requests and timers. */
export interface CrdWatch {
  stop(): Promise<void>;
}

export function watchCrds(options: CrdWatchOptions): CrdWatch {
  const clock = options.clock ?? systemClock;
  const cache = new ObjectCache();
  const stopCache = cache.onChange((change) => {
    options.onEvent(change.type === 'delete' ? { type: 'DELETED', object: change.object } : { type: change.previous ? 'MODIFIED' : 'ADDED', object: change.object });
  });
  const health = new HealthBoard({ kinds: [CRD_KEY], clock, onHealth: () => undefined });
  const reflector = new Reflector({
    kind: CRD_KEY,
    endpoints: [CRD_ENDPOINT],
    transport: options.transport,
    cache,
    health,
    clock,
    random: Math.random,
    watchdogMs: DEFAULT_WATCHDOG_MS,
    backoff: DEFAULT_BACKOFF,
    pageSize: CRD_PAGE_SIZE,
    decoder: createInlineDecoder(),
    log: (message) => options.log?.(`crd watch: ${message}`),
  });
  reflector.start();
  return {
    async stop() {
      stopCache();
      await reflector.stop();
      health.dispose();
    },
  };
}
