/**
 * The WatchList protocol (KEP-3157) on the informer side: instead of a paged LIST and then a WATCH,
 * one watch with `sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`
 * streams the current objects as ADDED events, ends them with a BOOKMARK annotated
 * `k8s.io/initial-events-end: "true"`, and goes on as a watch on the same stream. The state is the
 * one a consistent list would give, with no continue token that could expire halfway through a
 * large list.
 *
 * A server without it says so in one of three ways: an answer of 400/422 (a 1.27+ server with the
 * feature gate off forbids sendInitialEvents; an older one forbids resourceVersionMatch on a watch),
 * the same Status as an in-stream ERROR, or by ignoring the parameters (a plain watch: events other
 * than ADDED, or silence, before any end bookmark). Then the kind falls back to the paged list and
 * the watcher remembers, for its server, not to ask again.
 */
import { ApiStatusError } from './http.ts';
import type { Clock } from './timing.ts';

/**
 * How a kind's initial state (and every relist) is read:
 * - `prefer`: WatchList wherever the server serves it, the paged list otherwise;
 * - `on-expiry`: the paged list, and WatchList only to take over a list whose continue token expired;
 * - `off`: the paged list only.
 */
export type WatchListMode = 'prefer' | 'on-expiry' | 'off';

/**
 * The default mode. On the 50,000-pod simulator (6 interleaved pairs, /tmp script, load 9-13 on 2
 * cores) a WatchList sync took about as long as the paged list: median 13.0 s against 13.7 s, all
 * threads' CPU 5.8 s against 5.4 s, but the engine's own thread busy 9.5 s against 7.2 s: its
 * events are cut into batches there (initial-events.ts) before the list worker decodes them, while
 * a list's pages arrive whole. That thread also carries the frame stream, so WatchList is kept, by
 * default, for what only it can do: finish a list whose continue token expired; `prefer` uses it
 * for every sync.
 */
export const DEFAULT_WATCH_LIST_MODE: WatchListMode = 'on-expiry';
/** The annotation of the BOOKMARK that ends the initial events. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';
/**
 * Silence before the end bookmark longer than this means the server ignored sendInitialEvents:
 * a server that serves WatchList sends its initial events (or, for none, the bookmark) at once.
 */
export const WATCH_LIST_SILENCE_MS = 10_000;
/** Statuses that mean "this server does not take these watch parameters". */
const REFUSED_STATUSES = new Set([400, 405, 406, 415, 422]);

/** The server turned WatchList down (or ignored it); the kind lists page by page instead. */
export class WatchListUnsupported extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WatchListUnsupported';
  }
}

/** Whether an answer to a WatchList request says the server does not serve the protocol. */
export function refusesWatchList(error: unknown): boolean {
  return error instanceof ApiStatusError && REFUSED_STATUSES.has(error.status);
}

/** What one watcher (one server) has learnt about WatchList; shared by its reflectors. */
export class WatchListSupport {
  /** Why the server is known not to serve it; undefined while it may. */
  unsupported: string | undefined;

  /** Remembers that the server does not serve WatchList; returns whether this is news. */
  markUnsupported(reason: string): boolean {
    if (this.unsupported !== undefined) return false;
    this.unsupported = reason;
    return true;
  }
}

/** How a reflector uses WatchList: its mode, and what its watcher knows of the server. */
export interface WatchListSetting {
  mode: WatchListMode;
  support: WatchListSupport;
  /** WATCH_LIST_SILENCE_MS by default. */
  silenceMs?: number;
}

/** Whether WatchList may be asked for at all (a mode other than off, a server not known to refuse it). */
export function usable(setting: WatchListSetting | undefined): setting is WatchListSetting {
  return setting !== undefined && setting.mode !== 'off' && setting.support.unsupported === undefined;
}

/** The query of a WatchList request: from `resourceVersion` (the last one known) or, unset, the newest state. */
export function watchListQuery(resourceVersion: string | undefined, timeoutSeconds: number): URLSearchParams {
  return new URLSearchParams({
    watch: 'true',
    sendInitialEvents: 'true',
    resourceVersionMatch: 'NotOlderThan',
    allowWatchBookmarks: 'true',
    resourceVersion: resourceVersion ?? '',
    timeoutSeconds: String(timeoutSeconds),
  });
}

/** A watch event as read off the stream. */
export interface StreamEvent {
  type?: string;
  object?: { metadata?: { uid?: string; resourceVersion?: string; annotations?: Record<string, string> } };
}

/** Fires once `ms` pass without a `reset`, with the reason a WatchList is taken as ignored. */
export class SilenceTimer {
  private readonly clock: Clock;
  private readonly ms: number;
  private readonly onSilent: (error: WatchListUnsupported) => void;
  private timer: unknown;

  constructor(clock: Clock, ms: number, onSilent: (error: WatchListUnsupported) => void) {
    this.clock = clock;
    this.ms = ms;
    this.onSilent = onSilent;
    this.reset();
  }

  reset(): void {
    this.clear();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.onSilent(new WatchListUnsupported(`no initial-events-end bookmark after ${this.ms} ms of silence`));
    }, this.ms);
  }

  clear(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
