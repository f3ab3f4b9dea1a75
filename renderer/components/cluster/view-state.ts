/**
 * What a cluster table screen shows instead of (or above) its table. An empty table must mean
 * an empty cluster, so until the first snapshot arrived, or when the context cannot be reached
 * and nothing is held, the screen explains itself instead.
 */
import type { ClusterHealth, KindKey, KindHealth } from '../../../shared/cluster.ts';
import type { ConnectionState } from '../../../shared/model.ts';
import type { KdError } from '../../../shared/result.ts';

export type ClusterViewState = 'table' | 'idle' | 'connection-error' | 'stream-error' | 'syncing';

export interface ClusterViewInput {
  synced: boolean;
  objectCount: number;
  connection: ConnectionState;
  resyncError: KdError | null;
}

/** The table once a snapshot arrived, unless the context is down and nothing was ever held. */
export function clusterViewState(input: ClusterViewInput): ClusterViewState {
  const holding = input.synced && input.objectCount > 0;
  if (input.connection === 'error' && !holding) return 'connection-error';
  if (input.connection === 'idle' && !holding) return 'idle';
  if (input.synced) return 'table';
  // A transport error heals on reconnect (the store resyncs then); anything else needs saying.
  if (input.resyncError && input.resyncError.code !== 'transport') return 'stream-error';
  return 'syncing';
}

/** The health entries of the kinds a screen needs, in the screen's order. */
export function healthOf(health: ClusterHealth | null, kinds: readonly KindKey[]): KindHealth[] {
  if (!health) return [];
  const byKind = new Map(health.kinds.map((entry) => [entry.kind, entry]));
  return kinds.flatMap((kind) => byKind.get(kind) ?? []);
}
