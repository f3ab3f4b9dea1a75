/**
 * The one IPC contract between the engine and the renderer. Every request channel
 * (`domain:verb`) has a request and a response schema; every push stream has a payload schema.
 * Both transports (Electron IPC and the browser shell's WebSocket) carry exactly this.
 */
import { z } from 'zod';
import {
  AppInfoSchema,
  ConnectionStatusSchema,
  ContextListSchema,
  SettingsSchema,
} from './model.ts';
import type { Result } from './result.ts';
import { ClusterFrameSchema, ClusterHealthSchema } from './cluster.ts';
import { DiagnosticsSchema } from './diagnostics.ts';
import { ClusterDiscoverySchema } from './discovery.ts';
import { accessRequests, accessStreams } from './contracts/access.ts';
import { causesRequests, causesStreams } from './contracts/causes.ts';
import { surprisesRequests, surprisesStreams } from './contracts/surprises.ts';
import { diffRequests, diffStreams } from './contracts/diff.ts';
import { eventsRequests, eventsStreams } from './contracts/events.ts';
import { graphRequests, graphStreams } from './contracts/graph.ts';
import { historyRequests, historyStreams } from './contracts/history.ts';
import { backgroundRequests, backgroundStreams } from './contracts/background.ts';
import { historySourcesRequests, historySourcesStreams } from './contracts/history-sources.ts';
import { snapshotRequests, snapshotStreams } from './contracts/snapshot.ts';
import { tablesRequests, tablesStreams } from './contracts/tables.ts';
import { updatesRequests, updatesStreams } from './contracts/updates.ts';
import { SettingsUpdateSchema } from './contracts/settings.ts';

const Empty = z.object({}).strict();

export const requests = {
  'app:info': { request: Empty, response: AppInfoSchema },
  'contexts:list': { request: Empty, response: ContextListSchema },
  'contexts:select': {
    request: z.object({ name: z.string().min(1).max(253) }).strict(),
    response: ContextListSchema,
  },
  'connection:status': { request: Empty, response: ConnectionStatusSchema },
  'settings:get': { request: Empty, response: SettingsSchema },
  'settings:update': {
    request: SettingsUpdateSchema,
    response: SettingsSchema,
  },
  /** Ask for a fresh snapshot on `cluster:frames` (start-up, reload, after a seq gap). */
  'cluster:resync': {
    request: z.object({ reason: z.string().max(200).optional() }).strict(),
    response: z.object({ epoch: z.string(), seq: z.number().int() }),
  },
  'cluster:health': { request: Empty, response: ClusterHealthSchema },
  /** Every kind discovery found in the selected context and how it is watched. */
  'cluster:discovery': { request: Empty, response: ClusterDiscoverySchema },
  /** The PATH exec plugins run with, which plugin binaries it finds, and the kubeconfig files read. */
  'diagnostics:get': { request: Empty, response: DiagnosticsSchema },
  // Each feature's channels live in shared/contracts/<feature>.ts.
  ...historyRequests,
  ...backgroundRequests,
  ...historySourcesRequests,
  ...graphRequests,
  ...eventsRequests,
  ...diffRequests,
  ...snapshotRequests,
  ...updatesRequests,
  ...causesRequests,
  ...surprisesRequests,
  ...tablesRequests,
  ...accessRequests,
} as const;

export const streams = {
  /** The context list changed (selection, kubeconfig files edited). */
  'contexts:changed': ContextListSchema,
  /** The selected context's connection state changed. */
  'connection:changed': ConnectionStatusSchema,
  'settings:changed': SettingsSchema,
  /** Per-kind informer health of the selected context. */
  'cluster:health': ClusterHealthSchema,
  /** The selected context's discovery state changed (a discovery ran, kinds or counts changed). */
  'cluster:discovery': ClusterDiscoverySchema,
  /** Snapshot and delta frames of the selected context's objects (not replayed to late subscribers). */
  'cluster:frames': ClusterFrameSchema,
  ...historyStreams,
  ...backgroundStreams,
  ...historySourcesStreams,
  ...graphStreams,
  ...eventsStreams,
  ...diffStreams,
  ...snapshotStreams,
  ...updatesStreams,
  ...causesStreams,
  ...surprisesStreams,
  ...tablesStreams,
  ...accessStreams,
} as const;

/** Streams whose payloads are events, not state: a late subscriber must not get the last one. */
export const EVENT_STREAMS: ReadonlySet<StreamChannel> = new Set<StreamChannel>(['cluster:frames']);

export type Requests = typeof requests;
export type Streams = typeof streams;
export type RequestChannel = keyof Requests;
export type StreamChannel = keyof Streams;
export type RequestOf<C extends RequestChannel> = z.input<Requests[C]['request']>;
export type ResponseOf<C extends RequestChannel> = z.output<Requests[C]['response']>;
export type StreamPayload<S extends StreamChannel> = z.output<Streams[S]>;

export const REQUEST_CHANNELS = Object.keys(requests) as RequestChannel[];
export const STREAM_CHANNELS = Object.keys(streams) as StreamChannel[];

export function isRequestChannel(name: unknown): name is RequestChannel {
  return typeof name === 'string' && Object.hasOwn(requests, name);
}

export function isStreamChannel(name: unknown): name is StreamChannel {
  return typeof name === 'string' && Object.hasOwn(streams, name);
}

/** What the renderer sees, whichever transport carries it. */
export interface KubedriftApi {
  request<C extends RequestChannel>(channel: C, payload: RequestOf<C>): Promise<Result<ResponseOf<C>>>;
  subscribe<S extends StreamChannel>(stream: S, listener: (payload: StreamPayload<S>) => void): () => void;
}

/** The object the Electron preload exposes as `window.kubedrift`. */
export interface PreloadBridge {
  request(channel: string, payload: unknown): Promise<unknown>;
  subscribe(stream: string, listener: (payload: unknown) => void): () => void;
}

/** Electron IPC channel names are the contract's names behind one prefix, so nothing else leaks in. */
export const IPC_PREFIX = 'kubedrift:';
