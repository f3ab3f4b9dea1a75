/**
 * Writes one flush of the recorder in one transaction: workload rows, samples appended to each
 * workload's open block (rewritten in place until it holds BLOCK_CAPACITY samples), episodes and
 * rollouts as upserts (an episode with the causes it kept), the stretches workloads were out of view, Events deduplicated by uid, ownership, and the flush's object changes as
 * one compressed batch (plus a keyframe row when one is being taken).
 *
 * The open blocks and uid -> id map are cached in memory between flushes. A failed transaction
 * rolls back and forgets that cache, so nothing refers to a row the rollback took away.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Batch, EpisodeRecord, RolloutRecord } from './records.ts';
import { encodeCauses } from './episode-causes.ts';
import { reasonBits } from './reason-bits.ts';
import type { EncodedDeltas } from './state-log.ts';
import { appendSample, BLOCK_CAPACITY, blockBytes, newBlock, resumeBlock, type BlockWriter, type SampleValues } from './sample-codec.ts';

interface OpenBlock extends BlockWriter {
  rowid: number | undefined;
}

/** A keyframe row to create in the same transaction (its chunks follow separately). */
export interface KeyframeStart {
  at: number;
  objects: number;
}

export interface WriteResult {
  samples: number;
  keyframeId: number | undefined;
  deltaBatchId: number | undefined;
}

export interface HistoryWriter {
  /** Writes a batch (and its compressed object changes) atomically. Throws on failure, after rolling back. */
  write(batch: Batch, deltas: EncodedDeltas | null, keyframe?: KeyframeStart): WriteResult;
  /** Forgets the cached open blocks and ids (after a rollback, or when retention removed rows). */
  reset(): void;
}

function prepare(db: DatabaseSync) {
  return {
    upsertWorkload: db.prepare(
      'INSERT INTO workloads (uid, kind, namespace, name, first_at, kind_name) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(uid) DO UPDATE SET kind = excluded.kind, namespace = excluded.namespace, name = excluded.name, kind_name = excluded.kind_name, deleted_at = NULL RETURNING id',
    ),
    findWorkload: db.prepare('SELECT id FROM workloads WHERE uid = ?'),
    markDeleted: db.prepare('UPDATE workloads SET deleted_at = ? WHERE uid = ?'),
    lastBlock: db.prepare('SELECT id, start_at, count, data FROM sample_blocks WHERE workload_id = ? ORDER BY end_at DESC, id DESC LIMIT 1'),
    insertBlock: db.prepare('INSERT INTO sample_blocks (workload_id, start_at, end_at, count, data) VALUES (?, ?, ?, ?, ?)'),
    updateBlock: db.prepare('UPDATE sample_blocks SET end_at = ?, count = ?, data = ? WHERE id = ?'),
    upsertEpisode: db.prepare(
      'INSERT INTO episodes (id, workload_id, start_at, end_at, peak_gap, reasons, trigger_generation, trigger_image, state, state_reason, state_message, causes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT(id) DO UPDATE SET end_at = excluded.end_at, peak_gap = excluded.peak_gap, reasons = excluded.reasons, trigger_generation = excluded.trigger_generation, trigger_image = excluded.trigger_image, ' +
        'state = excluded.state, state_reason = excluded.state_reason, state_message = excluded.state_message, causes = excluded.causes',
    ),
    upsertRollout: db.prepare(
      'INSERT INTO rollouts (workload_id, generation, start_at, end_at, image) VALUES (?, ?, ?, ?, ?) ON CONFLICT(workload_id, generation) DO UPDATE SET end_at = excluded.end_at, image = coalesce(excluded.image, image)',
    ),
    upsertEvent: db.prepare(
      'INSERT INTO events (uid, first_at, last_at, type, reason, message, count, source, object_kind, object_namespace, object_name, object_uid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT(uid) DO UPDATE SET first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at), type = excluded.type, reason = excluded.reason, message = excluded.message, count = excluded.count ' +
        // A relist after a reconnect brings back every Event as it was: rewriting them anyway dirtied every page.
        'WHERE excluded.first_at < events.first_at OR excluded.last_at > events.last_at OR events.type IS NOT excluded.type OR events.reason IS NOT excluded.reason OR events.message IS NOT excluded.message OR events.count IS NOT excluded.count',
    ),
    insertOwner: db.prepare('INSERT OR IGNORE INTO owners (child_uid, owner_uid, child_kind, first_at) VALUES (?, ?, ?, ?)'),
    ownerGone: db.prepare('UPDATE owners SET gone_at = ? WHERE child_uid = ?'),
    insertBatch: db.prepare('INSERT INTO delta_batches (first_at, last_at, count, data, headers) VALUES (?, ?, ?, ?, ?)'),
    lastBatch: db.prepare('SELECT coalesce(max(id), 0) AS id FROM delta_batches'),
    insertKeyframe: db.prepare('INSERT INTO keyframes (at, after_batch, objects) VALUES (?, ?, ?)'),
    startUnobserved: db.prepare('INSERT OR IGNORE INTO unobserved (workload_id, start_at, end_at) VALUES (?, ?, NULL)'),
    endUnobserved: db.prepare('UPDATE unobserved SET end_at = max(start_at, ?), gone = ? WHERE workload_id = ? AND end_at IS NULL'),
  };
}

/** `items` sorted by `key` (a copy when there is more than one; small batches stay as they are). */
function inKeyOrder<T>(items: readonly T[], key: (item: T) => string): readonly T[] {
  if (items.length < 2) return items;
  return items.map((item) => ({ item, key: key(item) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((entry) => entry.item);
}

export function createWriter(db: DatabaseSync): HistoryWriter {
  const sql = prepare(db);
  const ids = new Map<string, number>();
  const blocks = new Map<number, OpenBlock>();
  const dirty = new Set<number>();

  function idOf(uid: string): number | undefined {
    const cached = ids.get(uid);
    if (cached !== undefined) return cached;
    const row = sql.findWorkload.get(uid) as { id: number } | undefined;
    if (row) ids.set(uid, row.id);
    return row?.id;
  }

  function openBlock(workloadId: number, at: number): OpenBlock {
    const cached = blocks.get(workloadId);
    if (cached) return cached;
    const row = sql.lastBlock.get(workloadId) as { id: number; start_at: number; count: number; data: Uint8Array } | undefined;
    const block: OpenBlock = row && row.count < BLOCK_CAPACITY ? { ...resumeBlock(row.start_at, row.data, row.count), rowid: row.id } : { ...newBlock(at), rowid: undefined };
    blocks.set(workloadId, block);
    return block;
  }

  function writeBlock(workloadId: number, block: OpenBlock): void {
    const data = blockBytes(block);
    if (block.rowid === undefined) block.rowid = Number(sql.insertBlock.run(workloadId, block.start, block.last, block.count, data).lastInsertRowid);
    else sql.updateBlock.run(block.last, block.count, data, block.rowid);
  }

  function append(workloadId: number, at: number, values: SampleValues): void {
    let block = openBlock(workloadId, at);
    if (block.count >= BLOCK_CAPACITY) {
      if (dirty.has(workloadId)) writeBlock(workloadId, block);
      dirty.delete(workloadId);
      block = { ...newBlock(at), rowid: undefined };
      blocks.set(workloadId, block);
    }
    appendSample(block, at, values);
    dirty.add(workloadId);
  }

  function flushBlocks(): void {
    for (const workloadId of dirty) {
      const block = blocks.get(workloadId);
      if (block) writeBlock(workloadId, block);
    }
    dirty.clear();
  }

  function writeEpisode(episode: EpisodeRecord): void {
    const workloadId = idOf(episode.uid);
    if (workloadId === undefined) return;
    const { status } = episode;
    sql.upsertEpisode.run(episode.id, workloadId, episode.start, episode.end, episode.peakGap, reasonBits(episode.reasons), episode.trigger?.generation ?? null, episode.trigger?.image ?? null, status?.state ?? null, status?.reason ?? null, status?.message ?? null, encodeCauses(episode.causes));
  }

  function writeRollout(rollout: RolloutRecord): void {
    const workloadId = idOf(rollout.uid);
    if (workloadId !== undefined) sql.upsertRollout.run(workloadId, rollout.generation, rollout.start, rollout.end, rollout.image);
  }

  function writeAll(batch: Batch, deltas: EncodedDeltas | null, keyframe: KeyframeStart | undefined): WriteResult {
    for (const [uid, w] of batch.workloads) {
      const row = sql.upsertWorkload.get(uid, w.kind, w.namespace, w.name, w.at, w.kindName ?? null) as { id: number };
      ids.set(uid, row.id);
    }
    let samples = 0;
    for (const sample of batch.samples) {
      const workloadId = idOf(sample.uid);
      if (workloadId === undefined) continue;
      append(workloadId, sample.at, sample.values);
      samples += 1;
    }
    flushBlocks();
    for (const { uid, at } of batch.deleted) sql.markDeleted.run(at, uid);
    for (const { uid, at, op, gone } of batch.unobserved) {
      const workloadId = idOf(uid);
      if (workloadId === undefined) continue;
      if (op === 'start') sql.startUnobserved.run(workloadId, at);
      else sql.endUnobserved.run(at, gone ? 1 : null, workloadId);
    }
    for (const episode of batch.episodes.values()) writeEpisode(episode);
    for (const rollout of batch.rollouts.values()) writeRollout(rollout);
    // In key order: uids are random, and a first list's 20,000 Events written in arrival order
    // touched a different page of the table per row (as did the owners).
    for (const e of inKeyOrder([...batch.events.values()], (record) => record.uid)) {
      sql.upsertEvent.run(e.uid, e.firstAt, e.at, e.type, e.reason, e.message, e.count, e.source, e.object.kind, e.object.namespace ?? null, e.object.name, e.objectUid);
    }
    for (const o of inKeyOrder(batch.owners, (owner) => owner.child)) sql.insertOwner.run(o.child, o.owner, o.kind, o.at);
    for (const { uid, at } of batch.gone) sql.ownerGone.run(at, uid);
    let deltaBatchId: number | undefined;
    if (deltas && batch.deltas.length > 0) {
      const first = batch.deltas[0]?.at ?? 0;
      const last = batch.deltas.at(-1)?.at ?? first;
      deltaBatchId = Number(sql.insertBatch.run(first, last, batch.deltas.length, deltas.data, deltas.headers).lastInsertRowid);
    }
    let keyframeId: number | undefined;
    if (keyframe) {
      const after = deltaBatchId ?? (sql.lastBatch.get() as { id: number }).id;
      keyframeId = Number(sql.insertKeyframe.run(keyframe.at, after, keyframe.objects).lastInsertRowid);
    }
    return { samples, keyframeId, deltaBatchId };
  }

  function reset(): void {
    ids.clear();
    blocks.clear();
    dirty.clear();
  }

  return {
    write(batch, deltas, keyframe) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = writeAll(batch, deltas, keyframe);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        reset();
        throw error;
      }
    },
    reset,
  };
}
