/**
 * A day of recorded history for the timeline benchmarks: `workloads` Deployments (1,000; 20 when
 * quick), one sample per second each for 24 hours (86.4 million samples), with releases, flapping
 * readiness and scaling, and the drift episodes and rollouts they make.
 *
 * How it is stored, honestly: through the production writer (writer.ts), so the rows are the rows
 * recording would have written — the same block encoding, BLOCK_CAPACITY samples per row, the
 * same indexes. Recording rewrites a workload's open block every flush until it is full; the
 * final row is byte for byte what is written here in one go. The blocks are written in time
 * order across all workloads (one transaction per block-length of time), so a workload's blocks
 * lie scattered through the file as they would after a day of recording, not side by side.
 * Episodes come from the production drift rules (drift.ts) applied to every generated sample.
 * Generating 86.4 million samples takes a while (~1 minute on 2 cores); the bench logs it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openHistoryDb } from '../../electron/engine/history/db.ts';
import { driftOf, rolloutComplete } from '../../electron/engine/history/drift.ts';
import { emptyBatch, type Batch, type EpisodeRecord, type RolloutRecord } from '../../electron/engine/history/records.ts';
import { BLOCK_CAPACITY, type SampleValues } from '../../electron/engine/history/sample-codec.ts';
import { createWriter } from '../../electron/engine/history/writer.ts';
import { writeSince } from '../../electron/engine/history/retention.ts';

export const DAY_MS = 86_400_000;
const SAMPLE_MS = 1_000;

/** A deterministic pseudo-random sequence (mulberry32). */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One workload's day: mostly steady, a release every ~2 h, a readiness dip every ~3 h, a scale now and then. */
function workloadDay(seed: number) {
  const next = random(seed);
  let desired = 2 + Math.floor(next() * 8);
  let generation = 1;
  let state: 'steady' | 'rollout' | 'dip' = 'steady';
  let until = 0;
  let progress = 0;
  let values: SampleValues = steady(desired, generation);
  function steady(d: number, g: number): SampleValues {
    return { desired: d, current: d, ready: d, available: d, updated: d, unavailable: 0, generation: g, observedGeneration: g, availableCondition: 'True', progressingCondition: 'True', progressingReason: 'NewReplicaSetAvailable' };
  }
  return function at(t: number): SampleValues {
    if (state === 'steady') {
      const roll = next();
      if (roll < SAMPLE_MS / 7_200_000) {
        state = 'rollout';
        generation += 1;
        progress = 0;
        until = t + 30_000 + Math.floor(next() * 570_000);
      } else if (roll < SAMPLE_MS / 7_200_000 + SAMPLE_MS / 10_800_000) {
        state = 'dip';
        until = t + 10_000 + Math.floor(next() * 110_000);
        values = { ...values, ready: desired - 1, available: desired - 1, unavailable: 1, availableCondition: desired > 1 ? 'True' : 'False' };
      } else if (roll < SAMPLE_MS / 7_200_000 + SAMPLE_MS / 10_800_000 + SAMPLE_MS / 14_400_000) {
        desired = 2 + Math.floor(next() * 8);
        generation += 1;
        values = steady(desired, generation);
      }
      return values;
    }
    if (t >= until) {
      state = 'steady';
      values = steady(desired, generation);
      return values;
    }
    if (state === 'rollout') {
      progress += 1;
      // One pod replaced every 20 s (surge 1, the new pod not ready for its first 8 s); a
      // release that runs out of time before every pod is replaced is stuck until `until`.
      const updated = Math.min(desired, Math.floor(progress / 20));
      if (updated >= desired && progress > 1) {
        state = 'steady';
        values = steady(desired, generation);
        return values;
      }
      const moved: SampleValues = {
        ...values,
        generation,
        observedGeneration: progress > 1 ? generation : generation - 1,
        updated,
        current: desired + 1,
        ready: desired + 1 - (progress % 20 < 8 ? 1 : 0),
        progressingReason: 'ReplicaSetUpdated',
      };
      if (moved.updated !== values.updated || moved.ready !== values.ready || moved.observedGeneration !== values.observedGeneration) values = moved;
    }
    return values;
  };
}

interface Tracker {
  uid: string;
  generate: (t: number) => SampleValues;
  episode: EpisodeRecord | null;
  rollout: RolloutRecord | null;
  last: SampleValues | null;
}

export interface HistoryFixture {
  readonly file: string;
  readonly uids: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly samples: number;
  readonly episodes: number;
  stop(): Promise<void>;
}

/** Applies the production drift and rollout rules to one sample, queueing what changed. */
function track(tracker: Tracker, values: SampleValues, t: number, batch: Batch, nextId: () => number): void {
  const previous = tracker.last;
  tracker.last = values;
  if (previous === values) return;
  const generation = values.generation ?? 0;
  if (previous && generation > (previous.generation ?? 0)) {
    tracker.rollout = { uid: tracker.uid, generation, start: t, end: null, image: `app:v${generation}` };
    batch.rollouts.set(`${tracker.uid}/${generation}`, tracker.rollout);
  }
  if (tracker.rollout && rolloutComplete('deployments.apps', values, tracker.rollout.generation)) {
    tracker.rollout.end = t;
    batch.rollouts.set(`${tracker.uid}/${tracker.rollout.generation}`, tracker.rollout);
    tracker.rollout = null;
  }
  const drift = driftOf('deployments.apps', values);
  if (drift.reasons.length > 0 && !tracker.episode) {
    const trigger = tracker.rollout ? { generation: tracker.rollout.generation, image: tracker.rollout.image ?? '' } : null;
    tracker.episode = { id: nextId(), uid: tracker.uid, start: t, end: null, peakGap: drift.gap, reasons: drift.reasons, trigger };
    batch.episodes.set(tracker.episode.id, tracker.episode);
  } else if (tracker.episode && drift.reasons.length > 0) {
    tracker.episode.peakGap = Math.max(tracker.episode.peakGap, drift.gap);
    tracker.episode.reasons = [...new Set([...tracker.episode.reasons, ...drift.reasons])];
    batch.episodes.set(tracker.episode.id, tracker.episode);
  } else if (tracker.episode) {
    tracker.episode.end = t;
    batch.episodes.set(tracker.episode.id, tracker.episode);
    tracker.episode = null;
  }
}

/** Generates the day into a fresh database; `log` hears about progress. */
export async function createHistoryFixture(workloads: number, log: (message: string) => void): Promise<HistoryFixture> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kubedrift-bench-history-'));
  const file = path.join(dir, 'history.sqlite');
  const { db } = openHistoryDb(file);
  const writer = createWriter(db);
  const to = Math.floor(Date.now() / 1_000) * 1_000;
  const from = to - DAY_MS;
  writeSince(db, from);
  const trackers: Tracker[] = Array.from({ length: workloads }, (_, i) => ({ uid: `uid-${i}`, generate: workloadDay(i + 1), episode: null, rollout: null, last: null }));
  let episodeId = 0;
  const nextId = () => ++episodeId;
  const started = performance.now();
  let samples = 0;
  const steps = DAY_MS / SAMPLE_MS;
  for (let first = 0; first < steps; first += BLOCK_CAPACITY) {
    const batch = emptyBatch();
    if (first === 0) trackers.forEach((t, i) => batch.workloads.set(t.uid, { kind: 'deployments.apps', namespace: `ns-${i % 50}`, name: `app-${i}`, uid: t.uid, at: from }));
    for (const tracker of trackers) {
      for (let step = first; step < Math.min(steps, first + BLOCK_CAPACITY); step += 1) {
        const t = from + step * SAMPLE_MS;
        const values = tracker.generate(t);
        batch.samples.push({ uid: tracker.uid, at: t, values });
        track(tracker, values, t, batch, nextId);
      }
    }
    samples += batch.samples.length;
    writer.write(batch, null);
    if (first % (BLOCK_CAPACITY * 40) === 0) {
      log(`history fixture: ${Math.round((first / steps) * 100)}% (${(samples / 1e6).toFixed(1)}M samples, ${Math.round((performance.now() - started) / 1000)} s)`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  log(`history fixture: ${(samples / 1e6).toFixed(1)}M samples, ${episodeId} episodes in ${Math.round((performance.now() - started) / 1000)} s`);
  return {
    file,
    uids: trackers.map((t) => t.uid),
    from,
    to,
    samples,
    episodes: episodeId,
    stop: () => rm(dir, { recursive: true, force: true }),
  };
}
