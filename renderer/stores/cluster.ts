/**
 * The selected context's objects, live: a snapshot then deltas from `cluster:frames`, applied
 * one batch per animation frame into plain Maps (see cluster/object-index.ts). Vue sees one
 * small wrapper per kind, replaced when a batch touched that kind, so a view of pods re-derives
 * when pods change and never because an Event arrived, and nothing is deep-reactive.
 *
 * Why not copy the Maps per batch: copying a 50,000-entry Map takes ~20 ms, more than a frame.
 * The Maps are mutated only inside the batch apply; read them through `objects(kind)` inside a
 * computed or render, never keep one across batches.
 */
import { defineStore } from 'pinia';
import { onScopeDispose, ref, shallowRef, type ShallowRef } from 'vue';
import type { ClusterFrame, ClusterHealth, KindKey, ObjectRef, SlimObject } from '../../shared/cluster.ts';
import { createFrameClient, type SnapshotInfo } from '../../shared/frame-client.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { createChangeLog } from './cluster/change-log.ts';
import { createFrameBatcher } from './cluster/frame-batcher.ts';
import type { SnapshotProgress } from './cluster/health-text.ts';
import { createObjectIndex } from './cluster/object-index.ts';
import { installTestHook } from './cluster/test-hook.ts';
import { follow, onLinkRestored } from './live.ts';

/** What Vue tracks per kind: a new wrapper per batch that touched the kind, around the same Map. */
export interface KindSlice {
  readonly revision: number;
  readonly objects: ReadonlyMap<string, SlimObject>;
}

type Work =
  | { type: 'clear' }
  | { type: 'snapshot'; objects: SlimObject[]; kinds: KindKey[]; info: SnapshotInfo }
  | { type: 'deltas'; upserts: SlimObject[]; kinds: KindKey[]; deletes: ObjectRef[]; seq: number }
  | { type: 'progress'; sent: number; total: number };

const RESYNC_RETRY_MIN_MS = 1_000;
const RESYNC_RETRY_MAX_MS = 30_000;
/** Failures a retry cannot fix: the engine does not offer the channel, or refuses the payload. */
const PERMANENT_CODES: ReadonlySet<KdError['code']> = new Set(['unknown-channel', 'invalid-request']);

/** The live object store of the selected context; see the file comment for how to read it. */
export const useClusterStore = defineStore('cluster', () => {
  const index = createObjectIndex();
  const changes = createChangeLog();
  const slices = new Map<KindKey, ShallowRef<KindSlice>>();
  /** Bumped per batch that changed anything; namespaces/inNamespace/ownedBy track it. */
  const indexRevision = ref(0);
  const epoch = ref<string | null>(null);
  const context = ref<string | null>(null);
  const seq = ref<number | null>(null);
  /** A snapshot of the current epoch has been applied: empty tables now mean empty. */
  const synced = ref(false);
  /** The snapshot on its way to this window, while one is. */
  const progress = shallowRef<SnapshotProgress | null>(null);
  const objectCount = ref(0);
  const health = shallowRef<ClusterHealth | null>(null);
  const healthError = shallowRef<KdError | null>(null);
  const resyncError = shallowRef<KdError | null>(null);
  let appliedAt: number | null = null;

  function slice(kind: KindKey): ShallowRef<KindSlice> {
    let entry = slices.get(kind);
    if (!entry) {
      entry = shallowRef({ revision: 0, objects: index.objects(kind) });
      slices.set(kind, entry);
    }
    return entry;
  }

  function applyBatch(items: Work[]): void {
    // Per touched kind, the uids this batch changed (null: replaced wholesale).
    const touched = new Map<KindKey, Set<string> | null>();
    const replaced = (kinds: Iterable<KindKey>): void => {
      for (const kind of kinds) touched.set(kind, null);
    };
    const changed = (kind: KindKey, uid: string): void => {
      if (!touched.has(kind)) touched.set(kind, new Set());
      touched.get(kind)?.add(uid);
    };
    for (const item of items) {
      if (item.type === 'clear') {
        replaced(index.clear());
        synced.value = false;
        seq.value = null;
        progress.value = null;
      } else if (item.type === 'snapshot') {
        replaced(index.replaceAll(item.objects, item.kinds));
        seq.value = item.info.seq;
        context.value = item.info.context;
        synced.value = true;
        progress.value = null;
      } else if (item.type === 'deltas') {
        index.applyDeltas(item.upserts, item.kinds, item.deletes);
        item.upserts.forEach((object, i) => changed(item.kinds[i] as KindKey, object.metadata.uid));
        for (const ref of item.deletes) changed(ref.kind, ref.uid);
        seq.value = item.seq;
      } else {
        progress.value = { sent: item.sent, total: item.total };
      }
    }
    for (const [kind, uids] of touched) {
      const entry = slice(kind);
      const revision = entry.value.revision + 1;
      changes.record(kind, revision, uids);
      entry.value = { revision, objects: index.objects(kind) };
    }
    if (touched.size > 0) {
      indexRevision.value += 1;
      objectCount.value = index.size();
    }
    appliedAt = performance.now();
  }

  const batcher = createFrameBatcher<Work>({ apply: applyBatch });

  // Epochs the engine has moved past: a late message from one must not wipe the current data.
  const retired = new Set<string>();
  /** Takes `next` as the current epoch (dropping what the old one held); false when it is stale. */
  function adoptEpoch(next: string): boolean {
    if (next === epoch.value) return true;
    if (retired.has(next)) return false;
    if (epoch.value !== null) {
      retired.add(epoch.value);
      batcher.discard();
      batcher.push({ type: 'clear' });
    }
    epoch.value = next;
    return true;
  }

  let resyncing: Promise<void> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retryDelay = RESYNC_RETRY_MIN_MS;

  /** The `cluster:resync` request; concurrent asks share one (its snapshot serves them all). */
  function requestSnapshot(reason: string): Promise<void> {
    resyncing ??= (async () => {
      if (retryTimer !== null) clearTimeout(retryTimer);
      retryTimer = null;
      const result = await api().request('cluster:resync', { reason: reason.slice(0, 200) });
      if (result.ok) {
        resyncError.value = null;
        retryDelay = RESYNC_RETRY_MIN_MS;
        adoptEpoch(result.value.epoch);
        return;
      }
      resyncError.value = result.error;
      // A lost link is retried when it comes back (see onLinkRestored below), not on a timer.
      if (result.error.code === 'transport' || PERMANENT_CODES.has(result.error.code)) return;
      retryTimer = setTimeout(() => void requestSnapshot('retry after a failed resync'), retryDelay);
      retryDelay = Math.min(retryDelay * 2, RESYNC_RETRY_MAX_MS);
    })().finally(() => {
      resyncing = null;
    });
    return resyncing;
  }

  const client = createFrameClient({
    onSnapshot(objects: SlimObject[], kinds: KindKey[], info: SnapshotInfo) {
      if (info.epoch !== epoch.value) return;
      // The snapshot replaces everything, so whatever is still queued before it is moot.
      batcher.discard();
      batcher.push({ type: 'snapshot', objects, kinds, info });
    },
    onDeltas(upserts: SlimObject[], kinds: KindKey[], deletes: ObjectRef[], deltaSeq: number) {
      batcher.push({ type: 'deltas', upserts, kinds, deletes, seq: deltaSeq });
    },
    onProgress(sent: number, total: number) {
      batcher.push({ type: 'progress', sent, total });
    },
    requestResync(reason: string) {
      void requestSnapshot(reason);
    },
  });

  const unsubscribeFrames = api().subscribe('cluster:frames', (frame: ClusterFrame) => {
    if (adoptEpoch(frame.epoch)) client.receive(frame);
  });

  follow<ClusterHealth>({
    load: () => api().request('cluster:health', {}),
    subscribe: (listener) => api().subscribe('cluster:health', listener),
    apply: (value) => {
      if (!adoptEpoch(value.epoch)) return;
      health.value = value;
      context.value = value.context;
    },
    setError: (error) => {
      healthError.value = error;
    },
  });

  // Frames sent while the link was down are lost for good, so a reconnect starts over.
  const stopLinkWatch = onLinkRestored(() => resync('engine link reconnected'));

  const removeHook = installTestHook({
    dump: () => index.stamps(),
    status: () => ({ epoch: epoch.value, seq: seq.value, synced: synced.value, objects: index.size(), appliedAt }),
  });

  /** Starts over from a fresh snapshot: what arrives until it begins is ignored. */
  function resync(reason: string): void {
    client.resync(reason);
  }

  onScopeDispose(() => {
    unsubscribeFrames();
    stopLinkWatch();
    batcher.dispose();
    if (retryTimer !== null) clearTimeout(retryTimer);
    removeHook();
  });

  resync('renderer start');

  /** Objects of `kind` by uid; tracks only that kind. */
  function objects(kind: KindKey): ReadonlyMap<string, SlimObject> {
    return slice(kind).value.objects;
  }

  /** Changes with every batch that touched `kind`. */
  function revision(kind: KindKey): number {
    return slice(kind).value.revision;
  }

  /**
   * uids of `kind` changed after `revision` (a value `revision(kind)` returned), or null when a
   * snapshot replaced the kind since or the log no longer reaches back: then re-read everything.
   */
  function changedSince(kind: KindKey, since: number): Set<string> | null {
    return changes.since(kind, since, slice(kind).value.revision);
  }

  function namespaces(): string[] {
    void indexRevision.value;
    return index.namespaces();
  }

  function inNamespace(namespace: string): ObjectRef[] {
    void indexRevision.value;
    return [...index.inNamespace(namespace).values()];
  }

  function ownedBy(ownerUid: string): ObjectRef[] {
    void indexRevision.value;
    return [...index.ownedBy(ownerUid).values()];
  }

  return {
    epoch,
    context,
    seq,
    synced,
    progress,
    objectCount,
    indexRevision,
    health,
    healthError,
    resyncError,
    objects,
    revision,
    changedSince,
    namespaces,
    inNamespace,
    ownedBy,
    resync,
  };
});
