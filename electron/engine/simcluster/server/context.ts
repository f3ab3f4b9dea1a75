/**
 * What every handler gets: the store and API extensions, injected time, the fault switches, the
 * registry of open watches, and the request in a transport-neutral form.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ObjectStore } from '../store.ts';
import type { ApiExtensions } from './extensions.ts';
import type { Faults } from './faults.ts';

/** Server-wide state shared by all handlers. */
export interface ServerContext {
  store: ObjectStore;
  extensions: ApiExtensions;
  now: () => number;
  faults: Faults;
  kubernetesMinor: number;
  bookmarkIntervalMs: number;
  /**
   * Whether the WatchList feature gate is on (watches with sendInitialEvents); off, such a watch is
   * answered 422 Invalid as a 1.27+ kube-apiserver without the gate answers it.
   */
  watchList: boolean;
  /** Bytes a watch may have queued on its socket before the server closes it. */
  watchBufferLimitBytes: number;
  /** `127.0.0.1:PORT`, for APIVersions.serverAddressByClientCIDRs. */
  serverAddress(): string;
}

/** A request as the handlers see it, body already read. */
export interface ApiRequest {
  method: string;
  /** The URL path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The request body as text ('' for none). */
  body: string;
  /** The request body as received, for binary (protobuf) bodies. */
  rawBody: Buffer;
  /** The authenticated user's name. */
  user: string;
}

/** A complete (non-streaming) response. */
export interface Reply {
  code: number;
  body: unknown;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, string>;
  /** Warning texts, each sent as its own `Warning: 299 - "<text>"` header (kubectl prints `Warning: <text>`). */
  warnings?: readonly string[];
}
