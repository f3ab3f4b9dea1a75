/**
 * The recorder: turns the object cache's changes into what the history keeps, in memory, without
 * touching the disk (the session flushes its batches). For each workload it keeps the last
 * sample, the open drift episode and the open rollout; a sample is queued only when a recorded
 * field changed, plus a heartbeat for workloads that stayed the same, so a flat line in the
 * chart is a measured one. Every other object change is queued for the state-at-time log, and
 * Events and ownership are kept so Warning markers survive the pods and the Event TTL. Object
 * changes go to the state log only once it has a base (`startStateLog`): before a session's
 * first keyframe, that keyframe records the state they would spell out, so a first sync does
 * not write every object twice.
 *
 * An episode's trigger is the rollout (generation bump, with the new image when the template's
 * images changed) in progress when it began, or else the first one that began during it.
 *
 * Custom resources that carry status are recorded beside the built-in workloads
 * (custom-sample.ts): their episodes open and close with the generic status rule's state, and
 * keep the worst state seen with its reason and message.
 *
 * An episode keeps the cause finder's headline causes (episode-causes.ts), handed in with
 * `noteCauses`: the one known when it opens, and each different one seen while it is open.
 *
 * Continuity across restarts: when a workload is first seen in a session, its last recorded
 * sample (from the database) says whether recording was interrupted. Within GAP_MS it goes on
 * as if nothing happened (an open episode continues); after a longer gap, the episode and the
 * rollout left open are closed at the last moment they were known to hold, and the workload
 * starts afresh — an episode never spans time nobody watched.
 *
 * A workload that left the view (its namespace no longer readable: a cache delete with `left`)
 * is not deleted: left-view.ts parks it and records the stretch nobody could see it.
 *
 * A lost connection (`connection(true)`) stops observing the whole context: no sample is written
 * until the cluster answers again, and after GAP_MS what was open is closed at the loss
 * (connection-gap.ts; the same rule, gap-rule.ts, as across restarts and out of view).
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { WorkloadRef } from '../../../shared/contracts/history.ts';
import type { ObjectStatus } from '../../../shared/object-status.ts';
import type { CacheChange } from '../stream/cache.ts';
import { driftOf, rolloutComplete } from './drift.ts';
import { noteCause, type HeadlineCause } from './episode-causes.ts';
import { eventRecord } from './event-record.ts';
import { createConnectionGap } from './connection-gap.ts';
import { bridges, closeAtStop } from './gap-rule.ts';
import { createLeftView } from './left-view.ts';
import { emptyBatch, type EpisodeRecord, type RolloutRecord } from './records.ts';
import { changedMask, EMPTY_VALUES, isEmpty, type SampleValues } from './sample-codec.ts';
import { isRecorded, readingOf, worstStatus, type Reading } from './recorder-reading.ts';
import { controllerOf, imagesOf, isHistoryKind } from './sample.ts';

/** A workload unchanged for this long gets a heartbeat sample. */
export const HEARTBEAT_MS = 60_000;
/** Samples further apart than this mean recording was interrupted (a gap in the chart). */
export const GAP_MS = 150_000;
/** Object changes queued beyond this are dropped (and a keyframe is taken to recover). */
export const MAX_PENDING_DELTAS = 200_000;

interface Tracked {
  ref: WorkloadRef;
  values: SampleValues;
  writtenAt: number;
  images: string | null;
  episode: EpisodeRecord | null;
  rollout: RolloutRecord | null;
  /** A custom resource's last status verdict (an episode opened after a gap takes it). */
  status?: ObjectStatus | undefined;
}

import type { Recorder, RecorderOptions } from './recorder-api.ts';
export type { Recorder, RecorderHistory, RecorderOptions } from './recorder-api.ts';

const OWNED_KINDS: ReadonlySet<string> = new Set([BUILTIN_KEYS.Pod, BUILTIN_KEYS.ReplicaSet, BUILTIN_KEYS.Job]);

const triggerOf = (rollout: RolloutRecord): EpisodeRecord['trigger'] => ({ generation: rollout.generation, ...(rollout.image ? { image: rollout.image } : {}) });

export function createRecorder(options: RecorderOptions): Recorder {
  const { now, history } = options;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const gapMs = options.gapMs ?? GAP_MS;
  const maxPendingDeltas = options.maxPendingDeltas ?? MAX_PENDING_DELTAS;
  const tracked = new Map<string, Tracked>();
  let nextEpisodeId = history.nextEpisodeId;
  let pending = emptyBatch();
  let lostDeltas = false;
  let stateLog = false;
  /** The last headline causes handed in; an episode opening takes its workload's (if still drifting). */
  let headlines = new Map<string, readonly HeadlineCause[]>();

  const writeEpisode = (episode: EpisodeRecord) =>
    pending.episodes.set(episode.id, { ...episode, reasons: [...episode.reasons], ...(episode.status ? { status: { ...episode.status } } : {}), ...(episode.causes ? { causes: [...episode.causes] } : {}) });

  /** Notes the workload's headline cause on its open episode; whether the episode changed. */
  function takeCause(t: Tracked, at: number): boolean {
    const episode = t.episode;
    if (!episode) return false;
    let changed = false;
    for (const headline of headlines.get(t.ref.uid) ?? []) {
      const causes = noteCause(episode.causes, headline, Math.max(at, episode.start));
      if (causes) episode.causes = causes;
      changed ||= causes !== undefined;
    }
    return changed;
  }
  const writeRollout = (rollout: RolloutRecord) => pending.rollouts.set(`${rollout.uid}/${rollout.generation}`, { ...rollout });
  const writeSample = (t: Tracked, at: number) => {
    pending.samples.push({ uid: t.ref.uid, at, values: t.values });
    t.writtenAt = at;
  };
  const gap = createConnectionGap({ gapMs, write: { episode: writeEpisode, rollout: writeRollout } });
  const left = createLeftView<Tracked>({
    gapMs,
    open: history.unobserved ?? [],
    write: {
      sample: writeSample,
      episode: writeEpisode,
      rollout: writeRollout,
      unobserved: (record) => pending.unobserved.push(record),
      // Deleted while out of view: a tombstone ends its lines, and its row says it is gone as of the list.
      gone: (uid, at) => {
        pending.samples.push({ uid, at, values: EMPTY_VALUES });
        pending.deleted.push({ uid, at });
      },
    },
  });

  function updateRollout(t: Tracked, values: SampleValues, images: string | null, at: number): void {
    const before = t.values.generation;
    const generation = values.generation;
    if (generation !== null && before !== null && generation > before) {
      if (t.rollout) writeRollout(Object.assign(t.rollout, { end: at }));
      t.rollout = { uid: t.ref.uid, generation, start: at, end: null, image: images !== null && images !== t.images ? images : null };
      writeRollout(t.rollout);
      // A spec change during an episode that had none (pods lost to a node, then a bad release)
      // is what the episode is about from then on.
      if (t.episode && !t.episode.trigger) {
        t.episode.trigger = triggerOf(t.rollout);
        writeEpisode(t.episode);
      }
    }
    if (t.rollout && rolloutComplete(t.ref.kind, values, t.rollout.generation)) {
      writeRollout(Object.assign(t.rollout, { end: at }));
      t.rollout = null;
    }
  }

  function updateEpisode(t: Tracked, at: number, reading: ObjectStatus | undefined): void {
    const status = reading ?? t.status;
    t.status = status;
    const drift = driftOf(t.ref.kind, t.values);
    if (drift.reasons.length > 0) {
      if (!t.episode) {
        t.episode = { id: nextEpisodeId++, uid: t.ref.uid, start: at, end: null, peakGap: drift.gap, reasons: drift.reasons, trigger: t.rollout ? triggerOf(t.rollout) : null };
        if (status) t.episode.status = worstStatus(undefined, status);
        takeCause(t, at);
        writeEpisode(t.episode);
        return;
      }
      const reasons = [...new Set([...t.episode.reasons, ...drift.reasons])];
      const kept = t.episode.status;
      const next = status ? worstStatus(kept, status) : kept;
      const statusChanged = next !== kept && (next?.state !== kept?.state || next?.reason !== kept?.reason || next?.message !== kept?.message);
      if (drift.gap > t.episode.peakGap || reasons.length !== t.episode.reasons.length || statusChanged) {
        t.episode.peakGap = Math.max(t.episode.peakGap, drift.gap);
        t.episode.reasons = reasons;
        if (next) t.episode.status = next;
        writeEpisode(t.episode);
      }
    } else if (t.episode) {
      writeEpisode(Object.assign(t.episode, { end: at }));
      t.episode = null;
      // The finder's last word on it was about this episode: the next one waits for a new push.
      headlines.delete(t.ref.uid);
    }
  }

  function closeLeftOpen(uid: string, end: number): void {
    const episode = history.openEpisodes.get(uid);
    if (episode) writeEpisode({ ...episode, end: Math.max(episode.start, end) });
    const rollout = history.openRollouts.get(uid);
    if (rollout) writeRollout({ ...rollout, end: Math.max(rollout.start, end) });
    history.openEpisodes.delete(uid);
    history.openRollouts.delete(uid);
  }

  function begin(object: SlimObject, kind: string, reading: Reading, at: number): void {
    const { values } = reading;
    const uid = object.metadata.uid;
    const ref: WorkloadRef = { kind, namespace: object.metadata.namespace ?? '', name: object.metadata.name, uid, ...(isHistoryKind(kind) ? {} : { kindName: object.kind }) };
    pending.workloads.set(uid, { ...ref, at });
    const previous = history.previous(uid);
    const continuous = previous !== undefined && !isEmpty(previous.values) && bridges(previous.at, at, gapMs);
    const t: Tracked = { ref, values: EMPTY_VALUES, writtenAt: at, images: null, episode: null, rollout: null };
    if (continuous) {
      t.values = previous.values;
      t.episode = history.openEpisodes.get(uid) ?? null;
      t.rollout = history.openRollouts.get(uid) ?? null;
      history.openEpisodes.delete(uid);
      history.openRollouts.delete(uid);
    } else {
      closeLeftOpen(uid, previous?.at ?? at);
    }
    tracked.set(uid, t);
    const images = imagesOf(object);
    if (continuous) updateRollout(t, values, images, at);
    t.values = values;
    t.images = images;
    writeSample(t, at);
    updateEpisode(t, at, reading.status);
  }

  function observe(object: SlimObject, kind: string): void {
    const reading = readingOf(object, kind, options);
    if (!reading) return;
    const { values } = reading;
    let t = tracked.get(object.metadata.uid);
    if (!t) {
      // Back in view: within GAP_MS it goes on where it left; else it begins afresh.
      t = left.unseen(object.metadata.uid) ? left.resume(object.metadata.uid, now()) : undefined;
      if (!t) {
        begin(object, kind, reading, now());
        return;
      }
      tracked.set(t.ref.uid, t);
    }
    const at = Math.max(now(), t.writtenAt);
    // The first sight since a lost connection is a sample whatever changed (the gap ends there).
    const resumed = gap.seen(t.ref.uid, t, at);
    const images = imagesOf(object);
    // A spec changed during a gap is no rollout seen to begin now.
    if (resumed !== 'after-gap') updateRollout(t, values, images, at);
    t.images = images;
    if (resumed === 'none' && changedMask(t.values, values) === 0) return;
    t.values = values;
    writeSample(t, at);
    updateEpisode(t, at, reading.status);
  }

  function remove(uid: string): void {
    const t = tracked.get(uid);
    if (!t) return;
    const at = Math.max(now(), t.writtenAt);
    gap.seen(uid, t, at);
    t.values = EMPTY_VALUES;
    writeSample(t, at);
    closeAtStop(t, at, { episode: writeEpisode, rollout: writeRollout });
    pending.deleted.push({ uid, at });
    tracked.delete(uid);
  }

  /** The workload left the view (not deleted): parked, with the stretch nobody sees it. */
  function leave(uid: string): void {
    const t = tracked.get(uid);
    if (!t) return;
    tracked.delete(uid);
    const at = Math.max(now(), t.writtenAt);
    gap.seen(uid, t, at);
    left.leave(t, at);
  }

  function queueDelta(change: CacheChange, at: number): void {
    if (pending.deltas.length >= maxPendingDeltas) {
      lostDeltas = true;
      return;
    }
    const { object, kind } = change;
    if (change.type === 'delete') {
      pending.deltas.push({ at, op: 'd', kind, uid: object.metadata.uid, object: null });
      return;
    }
    // The informer serialised the object already (decoding its list page): reuse that text.
    pending.deltas.push({ at, op: 'u', kind, uid: object.metadata.uid, object, json: change.json });
  }

  return {
    onChange(change) {
      const { object, kind } = change;
      const at = now();
      if (kind === BUILTIN_KEYS.Event) {
        if (change.type === 'upsert') pending.events.set(object.metadata.uid, eventRecord(object, at));
        return;
      }
      if (stateLog) queueDelta(change, at);
      if (change.type === 'upsert') {
        if (!change.previous && OWNED_KINDS.has(kind)) {
          const owner = controllerOf(object);
          if (owner) pending.owners.push({ child: object.metadata.uid, owner, kind, at });
        }
        if (isRecorded(kind)) observe(object, kind);
      } else if (change.left) {
        // Out of view, not gone: ownership stays, the workload is parked (left-view.ts).
        if (isRecorded(kind)) leave(object.metadata.uid);
      } else {
        if (OWNED_KINDS.has(kind)) pending.gone.push({ uid: object.metadata.uid, at });
        if (isRecorded(kind)) remove(object.metadata.uid);
      }
    },
    heartbeat() {
      const at = now();
      // Nothing is observed while the connection is lost: no sample claims otherwise.
      for (const t of tracked.values()) if (at - t.writtenAt >= heartbeatMs && !gap.stale(t.ref.uid)) writeSample(t, at);
      gap.expire(at, (uid) => tracked.get(uid));
      left.expire(at);
    },
    synced() {
      const at = now();
      for (const uid of new Set([...history.openEpisodes.keys(), ...history.openRollouts.keys()])) {
        const previous = history.previous(uid);
        closeLeftOpen(uid, previous && bridges(previous.at, at, gapMs) ? at : (previous?.at ?? at));
      }
    },
    connection(lost) {
      if (lost) gap.lose(now(), tracked.keys());
      else gap.back();
    },
    listedIn(kind, namespace) {
      left.listed(kind, namespace, now());
    },
    listed() {
      const at = now();
      for (const { uid, resumption } of gap.end(at, (uid) => tracked.get(uid))) {
        const t = tracked.get(uid) as Tracked;
        const time = Math.max(at, t.writtenAt);
        writeSample(t, time);
        if (resumption === 'after-gap') updateEpisode(t, time, undefined);
      }
    },
    resync() {
      const at = now();
      const queued = new Set(pending.samples.map((s) => s.uid));
      for (const t of tracked.values()) {
        pending.workloads.set(t.ref.uid, { ...t.ref, at });
        if (!queued.has(t.ref.uid) && !gap.stale(t.ref.uid)) writeSample(t, Math.max(at, t.writtenAt));
        if (t.episode) writeEpisode(t.episode);
        if (t.rollout) writeRollout(t.rollout);
      }
      left.requeue();
    },
    take() {
      const batch = pending;
      pending = emptyBatch();
      return batch;
    },
    noteCauses(next, at) {
      headlines = new Map(next);
      for (const uid of next.keys()) {
        const t = tracked.get(uid);
        if (t && takeCause(t, at) && t.episode) writeEpisode(t.episode);
      }
    },
    startStateLog() {
      stateLog = true;
    },
    takeLostDeltas() {
      const lost = lostDeltas;
      lostDeltas = false;
      return lost;
    },
    size: () => tracked.size,
  };
}
