/**
 * What the recorder hands the writer each flush: everything observed since the last flush, in
 * memory, so the cache's change listener never waits for the disk.
 */
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { DriftReason, EpisodeCause, WorkloadRef } from '../../../shared/contracts/history.ts';
import type { ObjectState } from '../../../shared/contracts/status-rules.ts';
import type { EventRecord } from './event-record.ts';
import type { UnobservedRecord } from './left-view.ts';
import type { SampleValues } from './sample-codec.ts';

export interface SampleRecord {
  uid: string;
  at: number;
  values: SampleValues;
}

/** An episode's full current state (written as an upsert: the last write wins). */
export interface EpisodeRecord {
  id: number;
  uid: string;
  start: number;
  end: number | null;
  peakGap: number;
  reasons: DriftReason[];
  trigger: { generation: number; image?: string } | null;
  /** A custom resource's worst state during the episode, with its reason and message. */
  status?: { state: ObjectState; reason: string; message?: string };
  /** The distinct headline causes seen while it was open (episode-causes.ts). */
  causes?: EpisodeCause[];
}

export interface RolloutRecord {
  uid: string;
  generation: number;
  start: number;
  end: number | null;
  image: string | null;
}

export interface OwnerRecord {
  child: string;
  owner: string;
  kind: KindKey;
  at: number;
}

/** One object change for the state-at-time log (Events are kept in their own table). */
export interface DeltaRecord {
  at: number;
  op: 'u' | 'd';
  kind: KindKey;
  uid: string;
  object: SlimObject | null;
  /** `JSON.stringify(object)` when the cache change carried it (the informer made it already). */
  json?: string | undefined;
}

export interface Batch {
  /** Workloads seen for the first time this session (their row is created or refreshed). */
  workloads: Map<string, WorkloadRef & { at: number }>;
  samples: SampleRecord[];
  deleted: Array<{ uid: string; at: number }>;
  episodes: Map<number, EpisodeRecord>;
  rollouts: Map<string, RolloutRecord>;
  events: Map<string, EventRecord>;
  owners: OwnerRecord[];
  gone: Array<{ uid: string; at: number }>;
  deltas: DeltaRecord[];
  /** Workloads that left the view (access withdrawn) or came back, in order (left-view.ts). */
  unobserved: UnobservedRecord[];
}

export function emptyBatch(): Batch {
  return { workloads: new Map(), samples: [], deleted: [], episodes: new Map(), rollouts: new Map(), events: new Map(), owners: [], gone: [], deltas: [], unobserved: [] };
}

export function batchSize(batch: Batch): number {
  return batch.workloads.size + batch.samples.length + batch.deleted.length + batch.episodes.size + batch.rollouts.size + batch.events.size + batch.owners.length + batch.gone.length + batch.deltas.length + batch.unobserved.length;
}
