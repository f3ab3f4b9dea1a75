/**
 * Fault injection for tests: cut or stall open watches, compact history, fail or delay requests,
 * and the quirks some real clusters show (an empty Events list on a stale resourceVersion, 410 as
 * an HTTP status instead of an in-stream ERROR).
 */
import { ApiError, forbidden, internalError, tooManyRequests, unauthorized } from '../errors.ts';
import type { ObjectStore } from '../store.ts';

/** Selects the requests a fault applies to, by method and URL path. */
export type RequestMatcher = (method: string, path: string) => boolean;

/** The statuses `failRequests` can inject. */
export type InjectedStatus = 500 | 429 | 403 | 401;

/** What `failRequests` injects. */
export interface FailRequestsOptions {
  /** 500 InternalError, 429 TooManyRequests, 403 Forbidden (RBAC denied) or 401 Unauthorized. */
  status: InjectedStatus;
  /** How many matching requests fail; every one until `clear()` when unset. */
  count?: number;
  /** Sent as Retry-After and in the Status details (429; default 1). */
  retryAfterSeconds?: number;
  /** The Status message of a 403 (default: an RBAC-style denial naming the path). */
  message?: string;
  match?: RequestMatcher;
}

/** Which custom resource version `failConversion` breaks, and how. */
export interface FailConversionOptions {
  group: string;
  /** The version whose requests fail (the others keep working). */
  version: string;
  /** The resource's plural, as in its URL. */
  plural: string;
  kind: string;
  /** Why the webhook failed; default: its Service has no endpoints. */
  cause?: string;
}

/** How an open watch stream lets faults act on it. */
export interface ControlledWatch {
  /** Destroys the socket without an orderly end. */
  cut(): void;
  /** Stops writing (events queue up, keep-alives pause) without closing. */
  stall(): void;
  resume(): void;
}

/** How an expired watch resourceVersion is answered: in-stream ERROR (real servers) or HTTP 410. */
export type Watch410Mode = 'in-stream' | 'http';

/** Fault switches the handlers consult. */
export interface FaultState {
  emptyListOnStaleEvents: boolean;
  watch410Mode: Watch410Mode;
}

interface Failure {
  status: InjectedStatus;
  remaining: number;
  retryAfterSeconds: number;
  message: string | undefined;
  match: RequestMatcher | undefined;
}

/** The fault-injection API of one server (`server.faults`). */
export class Faults {
  /** Read by the handlers on every request. */
  readonly state: FaultState = { emptyListOnStaleEvents: false, watch410Mode: 'in-stream' };
  private readonly store: ObjectStore;
  private readonly watches = new Set<ControlledWatch>();
  private readonly stalled = new Set<ControlledWatch>();
  private failures: Failure[] = [];
  private delays: Array<{ ms: number; match: RequestMatcher | undefined }> = [];
  private conversions: Array<{ path: RegExp; error: ApiError }> = [];

  constructor(store: ObjectStore) {
    this.store = store;
  }

  /** Destroys every open watch socket; returns how many were cut. */
  cutWatches(): number {
    const open = [...this.watches];
    for (const watch of open) watch.cut();
    return open.length;
  }

  /** Stalls the watches open now (later watches are unaffected); returns how many. */
  stallWatches(): number {
    for (const watch of this.watches) {
      watch.stall();
      this.stalled.add(watch);
    }
    return this.stalled.size;
  }

  resumeWatches(): void {
    for (const watch of this.stalled) watch.resume();
    this.stalled.clear();
  }

  /** Forgets the change history: the next watch from an older resourceVersion gets 410. */
  compact(): void {
    this.store.compact();
  }

  failRequests(options: FailRequestsOptions): void {
    this.failures.push({ status: options.status, remaining: options.count ?? Infinity, retryAfterSeconds: options.retryAfterSeconds ?? 1, message: options.message, match: options.match });
  }

  /**
   * A broken conversion webhook for one version of a custom resource: every request for that
   * version answers 500 with apiextensions' message (`conversion webhook for <group>/<version>,
   * Kind=<Kind> failed: ...`, reason unset as for any plain error), until `clear()`.
   */
  failConversion(options: FailConversionOptions): void {
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const path = new RegExp(`^/apis/${escape(options.group)}/${escape(options.version)}/(?:namespaces/[^/]+/)?${escape(options.plural)}(?:/|$)`);
    const cause = options.cause ?? `Post "https://${options.plural}-conversion.default.svc:443/convert?timeout=30s": service "${options.plural}-conversion" not found`;
    this.conversions.push({ path, error: new ApiError(500, '', `conversion webhook for ${options.group}/${options.version}, Kind=${options.kind} failed: ${cause}`) });
  }

  delayRequests(ms: number, match?: RequestMatcher): void {
    this.delays.push({ ms, match });
  }

  emptyListOnStaleEvents(enabled: boolean): void {
    this.state.emptyListOnStaleEvents = enabled;
  }

  watch410Mode(mode: Watch410Mode): void {
    this.state.watch410Mode = mode;
  }

  openWatches(): number {
    return this.watches.size;
  }

  /** Back to a healthy server: no failures or delays, stalled watches resumed, quirks off. */
  clear(): void {
    this.failures = [];
    this.delays = [];
    this.conversions = [];
    this.resumeWatches();
    this.state.emptyListOnStaleEvents = false;
    this.state.watch410Mode = 'in-stream';
  }

  /** Server side: tracks a watch until the returned function is called. */
  registerWatch(watch: ControlledWatch): () => void {
    this.watches.add(watch);
    return () => {
      this.watches.delete(watch);
      this.stalled.delete(watch);
    };
  }

  /** Server side: the injected failure for this request, if any (consumes one count). */
  takeFailure(method: string, path: string): ApiError | undefined {
    const conversion = this.conversions.find((c) => c.path.test(path));
    if (conversion) return conversion.error;
    const failure = this.failures.find((f) => f.remaining > 0 && (!f.match || f.match(method, path)));
    if (!failure) return undefined;
    failure.remaining -= 1;
    if (failure.remaining <= 0) this.failures = this.failures.filter((f) => f !== failure);
    switch (failure.status) {
      case 429:
        return tooManyRequests(failure.retryAfterSeconds);
      case 403:
        return forbidden(failure.message ?? `User "system:anonymous" cannot ${method.toLowerCase()} path "${path}" (injected fault)`);
      case 401:
        return unauthorized();
      case 500:
        return internalError('injected fault');
    }
  }

  /** Server side: total injected delay for this request, in milliseconds. */
  delayFor(method: string, path: string): number {
    return this.delays.filter((d) => !d.match || d.match(method, path)).reduce((sum, d) => sum + d.ms, 0);
  }
}
